// Starting levels (see starting_levels.h for the rule).
#include "SPIRV/analysis/uniformity/starting_levels.h"

#include "SPIRV/analysis/uniformity/uniformity_internal.h"
#include "SPIRV/ir/grammar.h"

namespace glint::spirv {
namespace uniformity_detail {

StorageDecorations StorageDecorations::Of(const Module& module) {
  StorageDecorations found;
  for (const Instruction& inst : module.annotations) {
    if (auto member = ViewIf<MemberDecorateView>(inst))
      if (member->decoration() == spv::DecorationNonWritable)
        ++found.non_writable_members[member->structure()];
    if (inst.opcode != spv::OpDecorate) continue;
    DecorateView decorate(inst);
    uint32_t target = decorate.target();
    switch (decorate.decoration()) {
      case spv::DecorationFlat:
        found.flat.insert(target);
        break;
      case spv::DecorationNonWritable:
        found.non_writable.insert(target);
        break;
      case spv::DecorationBufferBlock:
        found.buffer_blocks.insert(target);
        break;
      default:
        break;
    }
  }
  return found;
}

bool IsNonWritable(const StorageDecorations& decorations, uint32_t variable,
                   const Instruction* pointee) {
  if (decorations.non_writable.count(variable)) return true;
  if (!pointee || pointee->opcode != spv::OpTypeStruct) return false;
  auto members = decorations.non_writable_members.find(pointee->result_id);
  return members != decorations.non_writable_members.end() &&
         members->second >= TypeStructView(*pointee).member_count();
}

namespace {

VariableStart Start(Divergence level, StartReason reason) {
  VariableStart start;
  start.level = level;
  start.reason = reason;
  return start;
}

VariableStart InputStart(const Instruction& variable, spv::ExecutionModel model, bool lanes,
                         const StorageDecorations& decorations, const BuiltInIndex& builtins) {
  uint32_t id = variable.result_id;
  if (std::optional<uint32_t> builtin = builtins.Of(id)) {
    BuiltInStart own = BuiltInStartOf(*builtin, model, lanes);
    VariableStart start = Start(own.level, own.level == Divergence::kUniform
                                               ? StartReason::kUniform
                                               : StartReason::kBuiltIn);
    start.builtin = *builtin;
    start.builtin_why = own.why;
    return start;
  }
  if (model != spv::ExecutionModelFragment) return Start(Divergence::kDivergent, StartReason::kInput);
  if (decorations.flat.count(id)) return Start(Divergence::kQuadUniform, StartReason::kFlatInput);
  return Start(Divergence::kDivergent, StartReason::kInterpolatedInput);
}

}  // namespace

VariableStart StartOfStorage(const Instruction& variable, spv::ExecutionModel model, bool lanes,
                             const StorageDecorations& decorations, const BuiltInIndex& builtins,
                             const Instruction* pointee) {
  const uint32_t id = variable.result_id;
  const spv::StorageClass storage = VariableView(variable).storage_class();
  switch (storage) {
    case spv::StorageClassInput:
      return InputStart(variable, model, lanes, decorations, builtins);
    case spv::StorageClassUniform:
      if (!pointee || !decorations.buffer_blocks.count(pointee->result_id)) return {};
      [[fallthrough]];
    case spv::StorageClassStorageBuffer:
      if (IsNonWritable(decorations, id, pointee)) return {};
      return Start(Divergence::kDivergent, StartReason::kWritableBuffer);
    case spv::StorageClassUniformConstant:
    case spv::StorageClassPushConstant:
    case spv::StorageClassPrivate:
    case spv::StorageClassFunction:
      return {};
    case spv::StorageClassTaskPayloadWorkgroupEXT:
      if (model == spv::ExecutionModelMeshEXT) return {};
      [[fallthrough]];
    case spv::StorageClassWorkgroup:
      return Start(Divergence::kDivergent, StartReason::kShared);
    case spv::StorageClassOutput:
      return Start(Divergence::kDivergent, StartReason::kOutput);
    default: {
      VariableStart start = Start(Divergence::kDivergent, StartReason::kOtherStorage);
      start.storage = storage;
      return start;
    }
  }
}

std::string StartText(const VariableStart& start, const std::string& name) {
  switch (start.reason) {
    case StartReason::kUniform:
      return "";
    case StartReason::kBuiltIn: {
      const char* builtin = grammar::EnumerantName(grammar::OperandKind::kBuiltIn, start.builtin);
      return std::string("built-in ") + (builtin ? builtin : "?") + " " + start.builtin_why;
    }
    case StartReason::kInput:
      return "input " + name + " differs between invocations";
    case StartReason::kFlatInput:
      return "flat fragment input " + name + " differs between primitives";
    case StartReason::kInterpolatedInput:
      return "fragment input " + name + " is interpolated (not flat)";
    case StartReason::kWritableBuffer:
      return "storage buffer " + name + " may be written by other invocations";
    case StartReason::kShared:
      return "shared variable " + name + " is written by other invocations";
    case StartReason::kOutput:
      return "output " + name + " is written per invocation";
    case StartReason::kOtherStorage:
      return "variable " + name + " (storage class " + std::to_string(uint32_t(start.storage)) +
             ") is per invocation";
  }
  return "";
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
