// Uniformity analysis, sources: the level a value or memory object starts at before any
// operand is joined in - built-ins, inputs, module-scope variables by storage class
// (writable storage buffers, Workgroup and Output memory are per invocation; uniform
// and push-constant blocks and NonWritable buffers are uniform), and instructions whose
// result level is fixed by what they do (shuffles, votes, ballots, broadcasts, scans,
// storage image reads, clock and helper queries). Every level here is a claim about
// what the hardware gives each invocation; nothing is inferred from operands.
#include "SPIRV/analysis/uniformity/uniformity_internal.h"

#include "SPIRV/analysis/uniformity/starting_levels.h"

#include <algorithm>
#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {
namespace uniformity_detail {

bool IsAtomic(spv::Op op) { return AtomicView<const Instruction>::Accepts(op); }

bool IsReduce(const Instruction& inst) {
  auto group = ViewIf<GroupOperationView>(inst);
  return group && group->operation() == spv::GroupOperationReduce;
}

std::optional<Divergence> FixedResultLevel(spv::Op opcode) {
  switch (opcode) {
    case spv::OpGroupNonUniformElect:
    case spv::OpGroupNonUniformShuffle:
    case spv::OpGroupNonUniformShuffleXor:
    case spv::OpGroupNonUniformShuffleUp:
    case spv::OpGroupNonUniformShuffleDown:
    case spv::OpGroupNonUniformQuadSwap:
    case spv::OpGroupNonUniformPartitionNV:
    case spv::OpGroupNonUniformRotateKHR:
    case spv::OpGroupNonUniformInverseBallot:
    case spv::OpSubgroupShuffleINTEL:
    case spv::OpSubgroupShuffleDownINTEL:
    case spv::OpSubgroupShuffleUpINTEL:
    case spv::OpSubgroupShuffleXorINTEL:
    case spv::OpIsHelperInvocationEXT:
    case spv::OpReadClockKHR:
      return Divergence::kDivergent;
    case spv::OpGroupNonUniformQuadBroadcast:
      return Divergence::kQuadUniform;
    case spv::OpGroupNonUniformAll:
    case spv::OpGroupNonUniformAny:
    case spv::OpGroupNonUniformAllEqual:
    case spv::OpGroupNonUniformBroadcast:
    case spv::OpGroupNonUniformBroadcastFirst:
    case spv::OpGroupNonUniformBallot:
    case spv::OpSubgroupBallotKHR:
    case spv::OpSubgroupFirstInvocationKHR:
    case spv::OpSubgroupAllKHR:
    case spv::OpSubgroupAnyKHR:
    case spv::OpSubgroupAllEqualKHR:
    case spv::OpSubgroupReadInvocationKHR:
      return Divergence::kSubgroupUniform;
    default:
      return std::nullopt;
  }
}

bool IsDerivative(spv::Op op) { return op >= spv::OpDPdx && op <= spv::OpFwidthCoarse; }

Cause ModuleFacts::SourceCause(std::string text) {
  Cause cause;
  cause.kind = Cause::kSource;
  cause.id = source_texts.Intern(text);
  return cause;
}

Cause ModuleFacts::PhaseWriteCause(const PhaseWrite& write) {
  auto [found, added] = phase_write_numbers.try_emplace(
      std::make_tuple(write.root, write.barrier, write.write), uint32_t(phase_writes.size()));
  if (added) phase_writes.push_back(write);
  return MakeCause(Cause::kSharedPhaseWrite, found->second);
}

Fact ModuleFacts::StaticFact(Divergence level, std::string text) {
  Fact fact;
  fact.level = level;
  if (level != Divergence::kUniform) fact.cause = SourceCause(std::move(text));
  return fact;
}

BuiltInStart BuiltInStartOf(uint32_t builtin, spv::ExecutionModel model, bool lanes) {
  constexpr const char* kPerInvocation = "differs between invocations";
  switch (builtin) {
    case spv::BuiltInWorkgroupId:
    case spv::BuiltInNumWorkgroups:
    case spv::BuiltInWorkgroupSize:
    case spv::BuiltInNumSubgroups:
    case spv::BuiltInDrawIndex:
    case spv::BuiltInBaseVertex:
    case spv::BuiltInBaseInstance:
    case spv::BuiltInDeviceIndex:
    case spv::BuiltInViewIndex:
      return {};
    case spv::BuiltInSubgroupLocalInvocationId:
    case spv::BuiltInSubgroupEqMask:
    case spv::BuiltInSubgroupGeMask:
    case spv::BuiltInSubgroupGtMask:
    case spv::BuiltInSubgroupLeMask:
    case spv::BuiltInSubgroupLtMask:
      // The lane and masks made from it alone: the same in every subgroup's lane k.
      if (lanes) return {};
      return {Divergence::kDivergent, kPerInvocation};
    case spv::BuiltInSubgroupId:
      return {Divergence::kSubgroupUniform, "differs between subgroups"};
    case spv::BuiltInSubgroupSize:
      // Vulkan: with a varying subgroup size (a pipeline flag, or any SPIR-V 1.6 module)
      // it is uniform only within a subgroup and may vary across a draw, even across one
      // primitive; in compute dispatches it is uniform over the whole dispatch.
      if (model == spv::ExecutionModelGLCompute || model == spv::ExecutionModelKernel) return {};
      return {Divergence::kSubgroupUniform,
              "may differ between subgroups outside compute dispatches"};
    case spv::BuiltInPrimitiveId:
    case spv::BuiltInPatchVertices:
      // One patch is one tessellation-control workgroup; in fragment shaders a quad
      // never spans two primitives.
      if (model == spv::ExecutionModelTessellationControl) return {};
      [[fallthrough]];
    case spv::BuiltInFrontFacing:
    case spv::BuiltInLayer:
    case spv::BuiltInViewportIndex:
      if (model == spv::ExecutionModelFragment)
        return {Divergence::kQuadUniform, "differs between primitives"};
      return {Divergence::kDivergent, kPerInvocation};
    default:
      return {Divergence::kDivergent, kPerInvocation};
  }
}

// What a module-scope variable holds before any store of this entry point
// (starting_levels.h).
Fact UniformitySolver::StaticMemoryFact(const Instruction& variable) const {
  VariableStart start =
      StartOf(variable, model_, partition_ == Partition::kLanes, facts_.decorations,
              facts_.builtins, [this](uint32_t id) { return facts_.def_use.Definition(id); });
  if (start.level == Divergence::kUniform) return {};
  return facts_.StaticFact(start.level, StartText(start, facts_.NameOf(variable.result_id)));
}

// Instructions whose result level does not follow from their operands: cross-thread
// results, storage image reads, helper and clock queries. True when handled.
bool UniformitySolver::TransferSource(const Instruction& inst, const Fact& control) {
  if (!inst.result_id) return false;
  if (LaneBroadcastIsUniform(inst, control)) return true;
  // Most instructions are none of these: the opcode's name is spelled only for a cause.
  auto set = [&](Divergence level, const char* why) {
    RaiseValue(inst.result_id, one_subgroup_->LevelOf(level, inst),
               facts_.SourceCause(std::string(grammar::OpcodeName(inst.opcode)) + " " + why));
    return true;
  };
  if (std::optional<Divergence> fixed = FixedResultLevel(inst.opcode))
    return set(*fixed, *fixed == Divergence::kDivergent     ? "differs between invocations"
                       : *fixed == Divergence::kQuadUniform ? "differs between quads"
                                                            : "differs between subgroups");
  switch (inst.opcode) {
    case spv::OpGroupNonUniformBallotBitCount:
      if (IsReduce(inst)) return false;
      return set(Divergence::kDivergent, "(a scan) differs between invocations");
    case spv::OpImageRead:
    case spv::OpImageSparseRead: {
      const Instruction* image = facts_.def_use.Definition(ImageAccessView(inst).image());
      uint32_t root =
          image && image->opcode == spv::OpLoad ? facts_.RootOf(LoadView(*image).pointer()) : 0;
      const Instruction* root_def = root ? facts_.def_use.Definition(root) : nullptr;
      auto definition_of = [this](uint32_t id) { return facts_.def_use.Definition(id); };
      if (root_def &&
          IsNonWritable(facts_.decorations, root, PointeeElement(*root_def, definition_of)))
        return false;
      return set(Divergence::kDivergent, "reads an image other invocations may write");
    }
    case spv::OpExtInst: {
      if (!facts_.classes.IsAmdBallotSet(ExtInstView(inst).set())) return false;
      return set(Divergence::kDivergent, "(SPV_AMD_shader_ballot) differs between invocations");
    }
    default:
      break;
  }
  return TransferGroupOperation(inst);
}

// The remaining cross-thread operations are group reductions and scans: a reduction
// (and SPIR-V 1.0's all, any and broadcast) is uniform over its scope, a scan is not.
bool UniformitySolver::TransferGroupOperation(const Instruction& inst) {
  std::optional<OpcodeConvergence> row = ClassifyOpcode(inst.opcode);
  if (!row || !(row->flags & kCrossThread)) return false;
  const std::string op = grammar::OpcodeName(inst.opcode);
  Divergence level = Divergence::kDivergent;
  std::string why = "differs between invocations";
  if (inst.opcode == spv::OpGroupAll || inst.opcode == spv::OpGroupAny ||
      inst.opcode == spv::OpGroupBroadcast || IsReduce(inst)) {
    bool whole_scope = facts_.classes.RequiredScope(inst) == UniformScope::kInvocationGroup;
    level = whole_scope ? Divergence::kUniform : Divergence::kSubgroupUniform;
    why = whole_scope ? "" : "differs between subgroups";
  }
  RaiseValue(inst.result_id, one_subgroup_->LevelOf(level, inst), facts_.SourceCause(op + " " + why));
  return true;
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
