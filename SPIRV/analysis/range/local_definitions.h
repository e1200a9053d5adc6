// Local definitions (local_definitions.cpp): what may have been stored where a load of
// a Function variable reads, from value flow and the module's structure alone, for
// the range analysis to range. Owns its memo; asks for no range.
#ifndef GLINT_SPIRV_ANALYSIS_LOCAL_DEFINITIONS_H
#define GLINT_SPIRV_ANALYSIS_LOCAL_DEFINITIONS_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "SPIRV/analysis/range/canonical_values.h"
#include "SPIRV/analysis/range/integer_range_origins.h"
#include "SPIRV/analysis/facts/kept_runs.h"
#include "SPIRV/analysis/memory/value_flow.h"
#include "SPIRV/ir/builtin_index.h"
#include "SPIRV/ir/def_use.h"

namespace glint::spirv {

// The range analysis's prefix for a local whose stored value has no range.
inline constexpr char kStoredPrefix[] = "a value stored to the local has no range: ";

// A loop-carried update of a local (integer_range_loop_locals.cpp): the stored value
// is `loaded + step` (OpIAdd, either side) or `loaded - step` (OpISub) where `loaded`
// is a load of the same variable and element.
struct CarriedUpdate {
  uint32_t value = 0;                  // the OpIAdd / OpISub stored
  uint32_t loaded = 0;                 // the load of the local it updates
  uint32_t step = 0;                   // the other operand
  bool subtract = false;               // OpISub: the local moves by -step
  const Instruction* store = nullptr;  // the OpStore of `value`
};

// What may have been stored where a load of a local reads (value_flow.h): the stored
// values (or initializers). Loop-carried updates are kept apart (`carried`) so that
// evaluating the load does not depend on itself. Runs kept by the analysis
// (kept_runs.h): a load's lists cost their elements, not a vector each.
struct LocalDefinitions {
  KeptRun<uint32_t> values;            // not loop-carried
  KeptRun<const Instruction*> stores;  // values[i]'s OpStore (null: initializer)
  KeptRun<CarriedUpdate> carried;
  KeptRun<uint32_t> dependencies;  // values and carried steps, in the order the stores were met
  // Components of a built-in vector loaded and stored whole (`uvec3 id =
  // gl_LocalInvocationID; id.x`): (built-in variable, component).
  KeptRun<std::pair<uint32_t, uint32_t>> builtin_parts;
  // Components of computed vectors stored whole (`uvec2 c = p >> 1u; c.y`): (vector,
  // component), ranged by integer_range_components.cpp. Only in a local without
  // loop-carried updates; fixed points refuse a local that has them.
  KeptRun<std::pair<uint32_t, uint32_t>> composite_parts;
};

class LocalDefinitionsAnalysis {
 public:
  static constexpr size_t kMaxLocalDefinitions = 64;

  // `full`: the range analysis's full mode (reference mode follows no local).
  LocalDefinitionsAnalysis(const DefUse& def_use, const BuiltInIndex& builtins, bool full,
                           CanonicalValues& canonical, ValueOrigins& origins)
      : def_use_(def_use),
        builtins_(builtins),
        full_(full),
        canonical_(canonical),
        origins_(origins) {}
  LocalDefinitionsAnalysis(const LocalDefinitionsAnalysis&) = delete;
  LocalDefinitionsAnalysis& operator=(const LocalDefinitionsAnalysis&) = delete;

  // The definitions `load` reads (memoized); null when they are not known (or `load`
  // is not an OpLoad, or in reference mode).
  const LocalDefinitions* Of(const Instruction& load);
  // Why Of(load) was null, once it was asked; null before, or when it was not.
  const std::string* RefusalOf(const Instruction& load) const {
    auto refused = refused_.find(&load);
    return refused == refused_.end() ? nullptr : &refused->second;
  }

  // The scalar a store (or the initializer) put where `path` reads; 0 when it put a
  // vector's component that is not a known scalar, or does not cover `path`.
  uint32_t StoredPart(const ValueFlowNode& node, const std::vector<uint32_t>& path) const;
  // The computed vector and index whose component a store put where `path` reads.
  bool StoredComponent(const ValueFlowNode& node, const std::vector<uint32_t>& path,
                       std::pair<uint32_t, uint32_t>* component) const;

 private:
  // What Find collects before it is kept (or refused: `reason` non-empty).
  struct Found {
    std::vector<uint32_t> values;
    std::vector<const Instruction*> stores;
    std::vector<CarriedUpdate> carried;
    std::vector<uint32_t> dependencies;
    std::vector<std::pair<uint32_t, uint32_t>> builtin_parts;
    std::vector<std::pair<uint32_t, uint32_t>> composite_parts;
    std::string reason;
  };
  bool Full() const { return full_; }
  Found Find(const Instruction& load);
  LocalDefinitions Keep(const Found& found);
  bool BuiltinPart(const ValueFlowNode& node, const std::vector<uint32_t>& path,
                   std::pair<uint32_t, uint32_t>* part) const;
  bool MatchCarried(uint32_t value, uint32_t variable, const std::vector<uint32_t>& path,
                    CarriedUpdate* update);

  const DefUse& def_use_;
  const BuiltInIndex& builtins_;
  const bool full_;
  CanonicalValues& canonical_;
  ValueOrigins& origins_;
  std::unordered_map<const Instruction*, LocalDefinitions> found_;
  std::unordered_map<const Instruction*, std::string> refused_;  // load -> why
  KeptRuns<uint32_t> ids_;
  KeptRuns<const Instruction*> instructions_;
  KeptRuns<CarriedUpdate> updates_;
  KeptRuns<std::pair<uint32_t, uint32_t>> parts_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_LOCAL_DEFINITIONS_H
