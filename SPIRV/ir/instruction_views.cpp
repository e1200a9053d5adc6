// The opcode sets of the typed operand views that are defined by an instruction's shape in
// the grammar rather than by a short list (see instruction_views.h).
#include "instruction_views.h"

#include <cstring>
#include <vector>

#include "grammar.h"
#include "opcode_table.h"

namespace glint::spirv {
namespace {

bool InClass(const grammar::OpcodeInfo& info, const char* name) {
  return std::strcmp(info.instruction_class, name) == 0;
}

// Arithmetic, bitwise, relational and logical operations and conversions compute a value
// from value operands only; the views over "one id" or "two ids" are meant for them.
bool IsValueOperation(const grammar::OpcodeInfo& info) {
  return InClass(info, "Arithmetic") || InClass(info, "Bit") ||
         InClass(info, "Relational_and_Logical") || InClass(info, "Conversion");
}

// True when the opcode's operands are exactly `count` required plain ids.
bool HasIdOperandsOnly(const grammar::OpcodeInfo& info, uint16_t count) {
  if (!info.has_result || info.operand_count != count) return false;
  const grammar::OperandSpec* specs = grammar::OperandSpecs(info);
  for (uint16_t i = 0; i < count; ++i)
    if (specs[i].kind != grammar::OperandKind::kIdRef ||
        specs[i].quantifier != grammar::Quantifier::kOne)
      return false;
  return true;
}

// What each opcode is, found once from the grammar: views and analyses ask it of every
// instruction, and an instruction's class is a string in the grammar tables.
enum OpcodeTrait : uint8_t { kBinaryOperation = 1, kUnaryOperation = 2, kAtomicOperation = 4 };

std::vector<uint8_t> MakeOpcodeTraits() {
  std::vector<uint8_t> traits;
  grammar::ForEachOpcode([&](const grammar::OpcodeInfo& info) {
    uint8_t trait = 0;
    if (IsValueOperation(info) && HasIdOperandsOnly(info, 2)) trait |= kBinaryOperation;
    if (HasIdOperandsOnly(info, 1) && (IsValueOperation(info) || info.opcode == spv::OpCopyObject))
      trait |= kUnaryOperation;
    if (InClass(info, "Atomic")) trait |= kAtomicOperation;
    if (!trait) return;
    if (traits.size() <= info.opcode) traits.resize(info.opcode + 1);
    traits[info.opcode] = trait;
  });
  return traits;
}

bool HasTrait(spv::Op op, OpcodeTrait trait) {
  return (LazyOpcodeTable<uint8_t, &MakeOpcodeTraits>::At(uint32_t(op)) & trait) != 0;
}

}  // namespace

bool IsBinaryOperation(spv::Op op) { return HasTrait(op, kBinaryOperation); }

bool IsUnaryOperation(spv::Op op) { return HasTrait(op, kUnaryOperation); }

bool HasExecutionScopeFirst(spv::Op op) {
  // OpMemoryBarrier's first scope is a memory scope, not an execution scope.
  if (op == spv::OpMemoryBarrier) return false;
  const grammar::OpcodeInfo* info = grammar::FindOpcode(op);
  return info && info->operand_count > 0 &&
         grammar::OperandSpecs(*info)[0].kind == grammar::OperandKind::kIdScope;
}

bool IsAtomicOperation(spv::Op op) { return HasTrait(op, kAtomicOperation); }

bool HasGroupOperationSecond(spv::Op op) {
  const grammar::OpcodeInfo* info = grammar::FindOpcode(op);
  return info && info->operand_count > 1 &&
         grammar::OperandSpecs(*info)[1].kind == grammar::OperandKind::kGroupOperation;
}

bool IsImageCoordinateAccess(spv::Op op) {
  switch (op) {
    case spv::OpImageSampleImplicitLod:
    case spv::OpImageSampleExplicitLod:
    case spv::OpImageSampleDrefImplicitLod:
    case spv::OpImageSampleDrefExplicitLod:
    case spv::OpImageSampleProjImplicitLod:
    case spv::OpImageSampleProjExplicitLod:
    case spv::OpImageSampleProjDrefImplicitLod:
    case spv::OpImageSampleProjDrefExplicitLod:
    case spv::OpImageFetch:
    case spv::OpImageGather:
    case spv::OpImageDrefGather:
    case spv::OpImageRead:
    case spv::OpImageWrite:
    case spv::OpImageSparseSampleImplicitLod:
    case spv::OpImageSparseSampleExplicitLod:
    case spv::OpImageSparseSampleDrefImplicitLod:
    case spv::OpImageSparseSampleDrefExplicitLod:
    case spv::OpImageSparseSampleProjImplicitLod:
    case spv::OpImageSparseSampleProjExplicitLod:
    case spv::OpImageSparseSampleProjDrefImplicitLod:
    case spv::OpImageSparseSampleProjDrefExplicitLod:
    case spv::OpImageSparseFetch:
    case spv::OpImageSparseGather:
    case spv::OpImageSparseDrefGather:
    case spv::OpImageSparseRead:
    case spv::OpImageTexelPointer:
    case spv::OpImageSampleFootprintNV:
      return true;
    default:
      return false;
  }
}

int ImageOperandWordCount(uint32_t bit) {
  if (!grammar::EnumerantName(grammar::OperandKind::kImageOperands, bit)) return -1;
  uint16_t count = 0;
  grammar::EnumerantParameters(grammar::OperandKind::kImageOperands, bit, &count);
  return count;  // each parameter (an id: a level, an offset, a scope...) is one word
}

uint32_t IndexedTypeOf(const Instruction& type, uint64_t member) {
  switch (type.opcode) {
    case spv::OpTypeArray:
      return TypeArrayView(type).element_type();
    case spv::OpTypeRuntimeArray:
      return TypeRuntimeArrayView(type).element_type();
    case spv::OpTypeVector:
      return TypeVectorView(type).component_type();
    case spv::OpTypeMatrix:
      return TypeMatrixView(type).column_type();
    case spv::OpTypeStruct: {
      TypeStructView view(type);
      return member < view.member_count() ? view.member(static_cast<size_t>(member)) : 0;
    }
    default:
      return 0;
  }
}

size_t ImageOperandsPosition(spv::Op op) {
  const grammar::OpcodeInfo* info = grammar::FindOpcode(op);
  if (!info) return 0;
  const grammar::OperandSpec* specs = grammar::OperandSpecs(*info);
  // Every operand before the mask is one required id, so its index is its word.
  for (uint16_t i = 0; i < info->operand_count; ++i) {
    if (specs[i].kind == grammar::OperandKind::kImageOperands) return i;
    if (specs[i].kind != grammar::OperandKind::kIdRef ||
        specs[i].quantifier != grammar::Quantifier::kOne)
      return 0;
  }
  return 0;
}

}  // namespace glint::spirv
