// One-subgroup regions: the blocks of an entry point's functions that run only when the
// whole workgroup is one subgroup, where a subgroup-uniform result is workgroup-uniform
// (the rule and its proof: one_subgroup_regions.cpp). A part of the uniformity solver.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_ONE_SUBGROUP_REGIONS_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_ONE_SUBGROUP_REGIONS_H

#include <cstdint>
#include <optional>
#include <unordered_set>
#include <vector>

#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {
namespace uniformity_detail {

struct ModuleFacts;

class OneSubgroupRegions {
 public:
  // The regions of `functions` (those the entry point reaches) of an entry point of
  // `model` whose function is `entry_function`; none outside stages with workgroups.
  OneSubgroupRegions(const ModuleFacts& facts, spv::ExecutionModel model,
                     uint32_t entry_function, const std::vector<Function*>& functions);

  // `level` for a result of `inst`: subgroup-uniform is workgroup-uniform in a region.
  Divergence LevelOf(Divergence level, const Instruction& inst) const;

 private:
  bool ProvesOneSubgroup(uint32_t condition, bool taken, int depth = 0) const;
  std::optional<uint64_t> ConstantOf(uint32_t id) const;
  std::optional<uint32_t> LoadedBuiltIn(uint32_t id) const;

  const ModuleFacts& facts_;
  uint32_t entry_function_;
  std::unordered_set<const Block*> blocks_;
};

}  // namespace uniformity_detail
}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_ONE_SUBGROUP_REGIONS_H
