// Which kind of value (range_rule.h) a definition is: by its opcode, and for a load by
// what its pointer reads. Full-mode kinds are kUnsupported in reference mode when the
// reference names the opcode alone ("OpBitCount is not supported"); those whose
// reference reason says "in reference mode" keep their kind, and their rule says so.
#include "SPIRV/analysis/range/integer_range_value_kinds.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

ValueKind ValueKinds::Of(const Instruction& def) {
  switch (BinaryRuleOf(def.opcode)) {
    case BinaryRule::kArithmetic:
      return ValueKind::kArithmetic;
    case BinaryRule::kAnd:
      return ValueKind::kBitwiseAnd;
    case BinaryRule::kOrXor:
      return ValueKind::kBitwiseOrXor;
    case BinaryRule::kNone:
      break;
  }
  switch (def.opcode) {
    case spv::OpConstant:
    case spv::OpConstantNull:
      return ValueKind::kConstant;
    case spv::OpSpecConstant:
    case spv::OpSpecConstantOp:
      return ValueKind::kSpecConstant;
    case spv::OpCopyObject:
      return ValueKind::kCopy;
    case spv::OpBitcast:
      return ValueKind::kBitcast;
    case spv::OpExtInst:
      return ValueKind::kGlslStd450;
    case spv::OpSelect:
      return ValueKind::kSelect;
    case spv::OpBitFieldUExtract:
      return ValueKind::kBitFieldExtract;
    case spv::OpBitFieldInsert:
      return ValueKind::kBitFieldInsert;
    case spv::OpPhi:
      return ValueKind::kPhi;
    case spv::OpCompositeExtract:
      return ValueKind::kComponent;
    case spv::OpUConvert:
    case spv::OpSConvert:
      return Full() ? ValueKind::kWidthConversion : ValueKind::kUnsupported;
    case spv::OpFunctionCall:
      return Full() ? ValueKind::kCallResult : ValueKind::kUnsupported;
    case spv::OpFunctionParameter:
      return Full() ? ValueKind::kValueParameter : ValueKind::kUnsupported;
    case spv::OpBitCount:
      return Full() ? ValueKind::kBitCount : ValueKind::kUnsupported;
    case spv::OpGroupNonUniformBallotBitCount:
      return Full() ? ValueKind::kBallotBitCount : ValueKind::kUnsupported;
    case spv::OpLoad: {
      if (loads_.empty()) loads_.assign(module_.header.bound, ValueKind::kCount);
      if (def.result_id >= loads_.size()) return LoadKind(def);
      ValueKind& known = loads_[def.result_id];
      if (known == ValueKind::kCount) known = LoadKind(def);
      return known;
    }
    default:
      return ValueKind::kUnsupported;
  }
}

// The first load kind that applies, in ValueKind's order (see range_rule.h).
ValueKind ValueKinds::LoadKind(const Instruction& load) {
  const Instruction* pointer = inputs_.def_use.Definition(LoadView(load).pointer());
  if (!pointer) return ValueKind::kMemoryLoad;
  std::vector<uint32_t> indices;
  if (Full() && rules_.tables.ConstantTableOf(pointer->result_id, &indices))
    return ValueKind::kTableLoad;
  if (pointer->opcode == spv::OpVariable) {
    spv::StorageClass storage = VariableView(*pointer).storage_class();
    if (storage == spv::StorageClassInput && inputs_.builtins.Has(pointer->result_id))
      return ValueKind::kBuiltinLoad;
    if (storage != spv::StorageClassFunction) return ValueKind::kMemoryLoad;
    bool loop_variable = inputs_.loops.ForLoopOf(pointer->result_id).ok;
    if (!loop_variable && canonical_.DominatingSingleStore(load))
      return ValueKind::kSingleStoreLoad;
    if (!loop_variable && Full()) return ValueKind::kLocalLoad;
    return ValueKind::kLoopVariableLoad;
  }
  if (Full() && pointer->opcode == spv::OpFunctionParameter) return ValueKind::kParameterLoad;
  if (!IsChain(*pointer)) return ValueKind::kMemoryLoad;
  const Instruction* base = inputs_.def_use.Definition(AccessChainView(*pointer).base());
  if (Full() && base && base->opcode == spv::OpVariable &&
      VariableView(*base).storage_class() == spv::StorageClassFunction)
    return ValueKind::kLocalLoad;
  bool builtin = base && base->opcode == spv::OpVariable && inputs_.builtins.Has(base->result_id);
  if (!builtin && origins_.OriginStorage(pointer->result_id)) return ValueKind::kMemoryLoad;
  if (Full() && base && base->opcode == spv::OpFunctionParameter)
    return ValueKind::kParameterPartLoad;
  return builtin ? ValueKind::kBuiltinElementLoad : ValueKind::kMemoryLoad;
}

}  // namespace glint::spirv
