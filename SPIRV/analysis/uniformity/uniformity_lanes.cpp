// Uniformity analysis, lanes: a subgroup broadcast of a lane-determined value from a
// uniform lane is workgroup-uniform.
//
// The pattern (dxvk_mipgen.comp): every subgroup fills a per-lane table the same way,
// lane k computing entry k from uniform inputs and gl_SubgroupInvocationID, and later
// every invocation reads entry k with subgroupBroadcast(table, k). The plain analysis can
// only say "subgroup-uniform" about a broadcast; this proves the stronger fact.
//
// Proof. Call two invocations of a workgroup lane-equivalent when they have the same
// SubgroupLocalInvocationId. The fixed point of UniformitySolver is sound for any
// partition of the invocations once its sources are: its rules (operands, control
// dependence, stores and their control, phis, calls) only ever ask "do the invocations
// that are equivalent agree", never which partition that is. The lane analysis
// (Partition::kLanes) is the same fixed point with the sources of the lane partition:
//   - SubgroupLocalInvocationId and the Subgroup{Eq,Ge,Gt,Le,Lt}Mask built-ins (made from
//     the lane and the subgroup size only) are uniform;
//   - everything else keeps its level, where any level but uniform means "may differ
//     between lane-equivalent invocations" (a subgroup-uniform value such as SubgroupId
//     or a reduction differs between subgroups, so LaneLevel makes it divergent);
//   - Workgroup loads are divergent (barrier phases are proven in the workgroup
//     partition only), and no broadcast is uniform (this rule is not used in it).
// Then OpGroupNonUniformBroadcast (Execution scope Subgroup) or OpSubgroupReadInvocationKHR
// of value v from lane k, executed in workgroup-uniform control flow (every invocation
// runs the same dynamic instance, so every lane is active), with k workgroup-uniform and v
// lane-uniform, gives every invocation of subgroup S the value v had in (S, k), and v is
// the same in (S, k) and (S', k) for any two subgroups: the result is workgroup-uniform.
//
// Assumes, as the subgroup-uniform rule for any broadcast already does, that lane k
// exists in every subgroup (a broadcast from a lane that is not active is undefined).
// Refuses (keeps the subgroup-uniform level): any other scope, non-uniform control or
// lane index, a value the lane analysis cannot prove, stages without workgroups (where
// nothing needs more than subgroup-uniform from a broadcast).
#include "SPIRV/analysis/uniformity/uniformity_internal.h"

namespace glint::spirv {
namespace uniformity_detail {
namespace {

constexpr uint64_t kScopeSubgroup = 3;

}  // namespace

// In the lane partition only "uniform" and "may differ" exist: a value uniform within a
// subgroup or quad may still differ between subgroups.
Divergence LevelIn(UniformitySolver::Partition partition, Divergence level) {
  if (partition == UniformitySolver::Partition::kLanes && level != Divergence::kUniform)
    return Divergence::kDivergent;
  return level;
}

bool WantsLaneAnalysis(spv::ExecutionModel model, const std::vector<Function*>& functions) {
  if (!HasWorkgroups(model)) return false;
  for (const Function* function : functions)
    for (const Block& block : function->blocks)
      for (const Instruction& inst : block.instructions)
        if (BroadcastView<const Instruction>::Accepts(inst.opcode)) return true;
  return false;
}

bool UniformitySolver::LaneBroadcastIsUniform(const Instruction& inst, const Fact& control) const {
  auto broadcast = ViewIf<BroadcastView>(inst);
  if (!lanes_ || !broadcast || control.level != Divergence::kUniform) return false;
  uint64_t scope = kScopeSubgroup;
  if (broadcast->has_scope() && !facts_.def_use.IntConstant(broadcast->execution_scope(), &scope))
    return false;
  return scope == kScopeSubgroup && proven_.Value(broadcast->lane()) == Divergence::kUniform &&
         lanes_->proven().Value(broadcast->value()) == Divergence::kUniform;
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
