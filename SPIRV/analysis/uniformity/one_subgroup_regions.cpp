// Uniformity analysis, one-subgroup workgroups: blocks that run only when the whole
// workgroup is one subgroup, where a subgroup-uniform result is workgroup-uniform.
//
// A block is in such a region when it is dominated by a successor of a conditional
// branch that has that branch as its only predecessor, and taking that edge proves the
// workgroup is one subgroup:
//   NumSubgroups == 1 (also < 2, <= 1, and the other edge of != 1, >= 2, > 1): by the
//     built-in's definition, the number of subgroups in the workgroup.
//   SubgroupSize == the workgroup's X size, with Y = Z = 1 and a SPIR-V 1.6 module:
//     Vulkan enables full subgroups for SPIR-V 1.6 when the X size is a multiple of
//     SubgroupSize, so every subgroup is launched with all its invocations and one
//     subgroup holds the workgroup. Before 1.6 full subgroups depend on a pipeline flag
//     the module cannot show (a workgroup may then be split over partly filled
//     subgroups), so the test proves nothing there.
// Either conjunct of an && on its true edge counts, and `!` flips the edge. Where the
// test holds for one invocation, the workgroup is one subgroup, so it holds for all.
// Only results computed inside the region are raised less: a subgroup-uniform value
// computed before the branch stays subgroup-uniform.
//
// A part of the uniformity solver with its own state: found once per entry point from
// the module alone, shared (read-only) with the call contexts of that entry point.
#include "SPIRV/analysis/uniformity/one_subgroup_regions.h"

#include "SPIRV/analysis/uniformity/uniformity_internal.h"

#include <algorithm>

#include "SPIRV/analysis/facts/range_relations.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/workgroup_size.h"

namespace glint::spirv {
namespace uniformity_detail {

// The constant `id` is: an integer constant, or a component of a constant composite
// (glslang's gl_WorkGroupSize.x).
std::optional<uint64_t> OneSubgroupRegions::ConstantOf(uint32_t id) const {
  uint64_t value = 0;
  if (facts_.def_use.IntConstant(id, &value)) return value;
  const Instruction* def = facts_.def_use.Definition(id);
  if (!def || def->opcode != spv::OpCompositeExtract) return std::nullopt;
  CompositeExtractView extract(*def);
  const Instruction* composite = facts_.def_use.Definition(extract.composite());
  if (!composite || composite->opcode != spv::OpConstantComposite || extract.indices().size() != 1)
    return std::nullopt;
  auto constituents = ConstantCompositeView(*composite).constituents();
  uint32_t index = extract.index(0);
  if (index >= constituents.size() || !facts_.def_use.IntConstant(constituents[index], &value))
    return std::nullopt;
  return value;
}

// The BuiltIn of the variable `id` loads (directly), if any.
std::optional<uint32_t> OneSubgroupRegions::LoadedBuiltIn(uint32_t id) const {
  const Instruction* def = facts_.def_use.Definition(id);
  if (!def || def->opcode != spv::OpLoad) return std::nullopt;
  return facts_.builtins.Of(LoadView(*def).pointer());
}

// Whether `condition` having the value `taken` proves the workgroup is one subgroup.
bool OneSubgroupRegions::ProvesOneSubgroup(uint32_t condition, bool taken, int depth) const {
  const Instruction* def = facts_.def_use.Definition(condition);
  if (!def || depth > 4) return false;
  if (def->opcode == spv::OpLogicalAnd && taken)
    return ProvesOneSubgroup(BinaryOpView(*def).left(), true, depth + 1) ||
           ProvesOneSubgroup(BinaryOpView(*def).right(), true, depth + 1);
  if (def->opcode == spv::OpLogicalNot)
    return ProvesOneSubgroup(UnaryOpView(*def).operand(), !taken, depth + 1);
  bool is_signed = false;  // both built-ins are small and positive: either reading fits
  Relation relation = RelationOf(def->opcode, &is_signed);
  if (relation == Relation::kNone) return false;
  uint32_t left = BinaryOpView(*def).left(), right = BinaryOpView(*def).right();
  std::optional<uint32_t> builtin = LoadedBuiltIn(left);
  std::optional<uint64_t> constant = ConstantOf(right);
  if (!builtin) {
    builtin = LoadedBuiltIn(right);
    constant = ConstantOf(left);
    relation = Mirror(relation);
  }
  if (!builtin || !constant) return false;
  if (!taken) relation = Negate(relation);
  if (*builtin == spv::BuiltInNumSubgroups)
    return (relation == Relation::kEqual && *constant == 1) ||
           (relation == Relation::kLessEqual && *constant == 1) ||
           (relation == Relation::kLess && *constant == 2);
  if (*builtin == spv::BuiltInSubgroupSize && relation == Relation::kEqual &&
      facts_.module.header.version >= 0x00010600) {
    int64_t size[3];
    std::string why;
    return EntryPointWorkgroupSize(facts_.module, facts_.def_use, facts_.builtins, entry_function_,
                                   size, &why) &&
           size[1] == 1 && size[2] == 1 && uint64_t(size[0]) == *constant;
  }
  return false;
}

OneSubgroupRegions::OneSubgroupRegions(const ModuleFacts& facts, spv::ExecutionModel model,
                                       uint32_t entry_function,
                                       const std::vector<Function*>& functions)
    : facts_(facts), entry_function_(entry_function) {
  if (!HasWorkgroups(model)) return;
  for (const Function* function : functions) {
    auto cfg = facts_.cfgs.find(function->id());
    if (cfg == facts_.cfgs.end()) continue;
    for (const Block& block : function->blocks) {
      const Instruction* terminator = block.Terminator();
      auto branch = terminator ? ViewIf<BranchConditionalView>(*terminator) : std::nullopt;
      if (!branch || branch->true_label() == branch->false_label()) continue;
      for (bool taken : {true, false}) {
        uint32_t label = taken ? branch->true_label() : branch->false_label();
        // By the CFG's id table: a search of the block list here made this pass
        // quadratic in a function's blocks.
        const Block* successor = cfg->second->BlockById(label);
        if (!successor || cfg->second->Predecessors(successor).size() != 1 ||
            !ProvesOneSubgroup(branch->condition(), taken))
          continue;
        for (const Block& inside : function->blocks)
          if (cfg->second->Dominates(successor, &inside)) blocks_.insert(&inside);
      }
    }
  }
}

Divergence OneSubgroupRegions::LevelOf(Divergence level, const Instruction& inst) const {
  if (level != Divergence::kSubgroupUniform || blocks_.empty()) return level;
  return blocks_.count(facts_.def_use.BlockOf(&inst)) ? Divergence::kUniform : level;
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
