// Uniformity analysis, sources: the level a value or memory object starts at before any
// operand is joined in - built-ins, inputs, module-scope variables by storage class
// (writable storage buffers, Workgroup and Output memory are per invocation; uniform
// and push-constant blocks and NonWritable buffers are uniform), and instructions whose
// result level is fixed by what they do (shuffles, votes, ballots, broadcasts, scans,
// storage image reads, clock and helper queries). Every level here is a claim about
// what the hardware gives each invocation; nothing is inferred from operands.
#include "SPIRV/analysis/uniformity_internal.h"

#include <algorithm>
#include "SPIRV/ir/grammar.h"

namespace glint::spirv {
namespace uniformity_detail {

bool IsAtomic(spv::Op op) {
  return (op >= spv::OpAtomicLoad && op <= spv::OpAtomicXor) || op == spv::OpAtomicFlagTestAndSet ||
         op == spv::OpAtomicFlagClear || op == spv::OpAtomicFMinEXT || op == spv::OpAtomicFMaxEXT ||
         op == spv::OpAtomicFAddEXT;
}

// GroupOperation Reduce gives every invocation the same result; scans and clustered or
// partitioned reductions differ per invocation.
bool IsReduce(const Instruction& inst) { return inst.words.size() > 1 && inst.words[1] == spv::GroupOperationReduce; }

// Results whose level is fixed by the opcode alone: per invocation (shuffles, Elect,
// helper and clock queries), per quad, or per subgroup (votes, ballots, broadcasts).
std::optional<Divergence> FixedResultLevel(spv::Op opcode) {
  switch (opcode) {
    case spv::OpGroupNonUniformElect: case spv::OpGroupNonUniformShuffle: case spv::OpGroupNonUniformShuffleXor:
    case spv::OpGroupNonUniformShuffleUp: case spv::OpGroupNonUniformShuffleDown:
    case spv::OpGroupNonUniformQuadSwap: case spv::OpGroupNonUniformPartitionNV:
    case spv::OpGroupNonUniformRotateKHR: case spv::OpGroupNonUniformInverseBallot:
    case spv::OpSubgroupShuffleINTEL: case spv::OpSubgroupShuffleDownINTEL: case spv::OpSubgroupShuffleUpINTEL:
    case spv::OpSubgroupShuffleXorINTEL: case spv::OpIsHelperInvocationEXT: case spv::OpReadClockKHR:
      return Divergence::kDivergent;
    case spv::OpGroupNonUniformQuadBroadcast:
      return Divergence::kQuadUniform;
    case spv::OpGroupNonUniformAll: case spv::OpGroupNonUniformAny: case spv::OpGroupNonUniformAllEqual:
    case spv::OpGroupNonUniformBroadcast: case spv::OpGroupNonUniformBroadcastFirst:
    case spv::OpGroupNonUniformBallot: case spv::OpSubgroupBallotKHR: case spv::OpSubgroupFirstInvocationKHR:
    case spv::OpSubgroupAllKHR: case spv::OpSubgroupAnyKHR: case spv::OpSubgroupAllEqualKHR:
    case spv::OpSubgroupReadInvocationKHR:
      return Divergence::kSubgroupUniform;
    default:
      return std::nullopt;
  }
}

bool IsDerivative(spv::Op op) { return op >= spv::OpDPdx && op <= spv::OpFwidthCoarse; }

bool EntryPointAnalysis::IsNonWritable(uint32_t variable) const {
  if (facts_.non_writable.count(variable)) return true;
  const Instruction* pointer_type = facts_.def_use.TypeOf(variable);
  if (!pointer_type || pointer_type->words.size() < 2) return false;
  const Instruction* pointee = facts_.def_use.Definition(pointer_type->words[1]);
  // Arrays of buffers (descriptor arrays): look at the element struct.
  while (pointee && (pointee->opcode == spv::OpTypeArray || pointee->opcode == spv::OpTypeRuntimeArray))
    pointee = facts_.def_use.Definition(pointee->words[0]);
  if (!pointee || pointee->opcode != spv::OpTypeStruct) return false;
  auto members = facts_.non_writable_members.find(pointee->result_id);
  return members != facts_.non_writable_members.end() && members->second >= pointee->words.size();
}

Fact StaticFact(Divergence level, std::string text) {
  Fact fact;
  fact.level = level;
  if (level != Divergence::kUniform) fact.cause = SourceCause(std::move(text));
  return fact;
}

Fact EntryPointAnalysis::BuiltInFact(uint32_t builtin) const {
  const char* name = grammar::EnumerantName(grammar::OperandKind::kBuiltIn, builtin);
  std::string what = std::string("built-in ") + (name ? name : "?");
  switch (builtin) {
    case spv::BuiltInWorkgroupId: case spv::BuiltInNumWorkgroups: case spv::BuiltInWorkgroupSize:
    case spv::BuiltInSubgroupSize: case spv::BuiltInNumSubgroups: case spv::BuiltInDrawIndex:
    case spv::BuiltInBaseVertex: case spv::BuiltInBaseInstance: case spv::BuiltInDeviceIndex:
    case spv::BuiltInViewIndex:
      return {};
    case spv::BuiltInSubgroupLocalInvocationId: case spv::BuiltInSubgroupEqMask: case spv::BuiltInSubgroupGeMask:
    case spv::BuiltInSubgroupGtMask: case spv::BuiltInSubgroupLeMask: case spv::BuiltInSubgroupLtMask:
      // The lane and masks made from it alone: the same in every subgroup's lane k.
      if (partition_ == Partition::kLanes) return {};
      return StaticFact(Divergence::kDivergent, what + " differs between invocations");
    case spv::BuiltInSubgroupId:
      return StaticFact(Divergence::kSubgroupUniform, what + " differs between subgroups");
    case spv::BuiltInPrimitiveId: case spv::BuiltInPatchVertices:
      // One patch is one tessellation-control workgroup; in fragment shaders a quad
      // never spans two primitives.
      if (model_ == spv::ExecutionModelTessellationControl) return {};
      [[fallthrough]];
    case spv::BuiltInFrontFacing: case spv::BuiltInLayer: case spv::BuiltInViewportIndex:
      if (model_ == spv::ExecutionModelFragment)
        return StaticFact(Divergence::kQuadUniform, what + " differs between primitives");
      return StaticFact(Divergence::kDivergent, what + " differs between invocations");
    default:
      return StaticFact(Divergence::kDivergent, what + " differs between invocations");
  }
}

Fact EntryPointAnalysis::InputFact(const Instruction& variable) const {
  uint32_t id = variable.result_id;
  auto builtin = facts_.builtins.find(id);
  if (builtin != facts_.builtins.end()) return BuiltInFact(builtin->second);
  if (model_ != spv::ExecutionModelFragment)
    return StaticFact(Divergence::kDivergent, "input " + NameOf(id) + " differs between invocations");
  if (facts_.flat.count(id))
    return StaticFact(Divergence::kQuadUniform, "flat fragment input " + NameOf(id) + " differs between primitives");
  return StaticFact(Divergence::kDivergent, "fragment input " + NameOf(id) + " is interpolated (not flat)");
}

// What a module-scope variable holds before any store of this entry point.
Fact EntryPointAnalysis::StaticMemoryFact(const Instruction& variable) const {
  uint32_t id = variable.result_id;
  uint32_t storage = variable.words.empty() ? 0 : variable.words[0];
  const Instruction* pointer_type = facts_.def_use.TypeOf(id);
  bool buffer_block = false;
  if (pointer_type && pointer_type->words.size() >= 2) {
    const Instruction* pointee = facts_.def_use.Definition(pointer_type->words[1]);
    while (pointee && (pointee->opcode == spv::OpTypeArray || pointee->opcode == spv::OpTypeRuntimeArray))
      pointee = facts_.def_use.Definition(pointee->words[0]);
    buffer_block = pointee && facts_.buffer_blocks.count(pointee->result_id);
  }
  switch (storage) {
    case spv::StorageClassInput:
      return InputFact(variable);
    case spv::StorageClassUniform:
      if (!buffer_block) return {};
      [[fallthrough]];
    case spv::StorageClassStorageBuffer:
      if (IsNonWritable(id)) return {};
      return StaticFact(Divergence::kDivergent, "storage buffer " + NameOf(id) + " may be written by other invocations");
    case spv::StorageClassUniformConstant: case spv::StorageClassPushConstant:
    case spv::StorageClassPrivate: case spv::StorageClassFunction:
      return {};
    case spv::StorageClassTaskPayloadWorkgroupEXT:
      if (model_ == spv::ExecutionModelMeshEXT) return {};
      [[fallthrough]];
    case spv::StorageClassWorkgroup:
      return StaticFact(Divergence::kDivergent, "shared variable " + NameOf(id) + " is written by other invocations");
    case spv::StorageClassOutput:
      return StaticFact(Divergence::kDivergent, "output " + NameOf(id) + " is written per invocation");
    default:
      return StaticFact(Divergence::kDivergent, "variable " + NameOf(id) + " (storage class " +
                                                     std::to_string(storage) + ") is per invocation");
  }
}

// Instructions whose result level does not follow from their operands: cross-thread
// results, storage image reads, helper and clock queries. True when handled.
bool EntryPointAnalysis::TransferSource(const Instruction& inst, const Fact& control) {
  if (!inst.result_id) return false;
  if (LaneBroadcastIsUniform(inst, control)) return true;
  const std::string op = grammar::OpcodeName(inst.opcode);
  auto set = [&](Divergence level, const std::string& why) {
    Raise(values_[inst.result_id], level, SourceCause(op + " " + why));
    return true;
  };
  if (std::optional<Divergence> fixed = FixedResultLevel(inst.opcode))
    return set(*fixed, *fixed == Divergence::kDivergent    ? "differs between invocations"
                       : *fixed == Divergence::kQuadUniform ? "differs between quads"
                                                            : "differs between subgroups");
  switch (inst.opcode) {
    case spv::OpGroupNonUniformBallotBitCount:
      if (IsReduce(inst)) return false;
      return set(Divergence::kDivergent, "(a scan) differs between invocations");
    case spv::OpImageRead: case spv::OpImageSparseRead: {
      const Instruction* image = facts_.def_use.Definition(inst.words[0]);
      uint32_t root = image && image->opcode == spv::OpLoad ? RootOf(image->words[0]) : 0;
      if (root && IsNonWritable(root)) return false;
      return set(Divergence::kDivergent, "reads an image other invocations may write");
    }
    case spv::OpExtInst: {
      auto name = std::find_if(facts_.module.ext_inst_imports.begin(), facts_.module.ext_inst_imports.end(),
                               [&](const Instruction& import) { return import.result_id == inst.words[0]; });
      if (name == facts_.module.ext_inst_imports.end() || name->StringAt(0) != "SPV_AMD_shader_ballot") return false;
      return set(Divergence::kDivergent, "(SPV_AMD_shader_ballot) differs between invocations");
    }
    default:
      break;
  }
  std::optional<OpcodeConvergence> row = ClassifyOpcode(inst.opcode);
  if (!row || !(row->flags & kCrossThread)) return false;
  // Remaining cross-thread operations are group reductions and scans.
  if (inst.words.size() > 1 && (inst.opcode == spv::OpGroupAll || inst.opcode == spv::OpGroupAny ||
                                inst.opcode == spv::OpGroupBroadcast || IsReduce(inst))) {
    UniformScope scope = facts_.classes.RequiredScope(inst);
    if (scope == UniformScope::kInvocationGroup) return set(Divergence::kUniform, "");
    return set(Divergence::kSubgroupUniform, "differs between subgroups");
  }
  return set(Divergence::kDivergent, "differs between invocations");
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
