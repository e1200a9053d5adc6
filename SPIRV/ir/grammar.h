// The SPIR-V grammar as tables generated at build time from SPIRV-Headers' JSON
// (see generate_grammar.py): which operands of each opcode are ids, literals, strings
// or enumerants, and which enumerants carry operands of their own.
#ifndef GLINT_SPIRV_IR_GRAMMAR_H
#define GLINT_SPIRV_IR_GRAMMAR_H

#include <cstdint>
#include <functional>
#include <vector>

#include "opcode_table.h"

namespace glint::spirv::grammar {

enum class Category : uint8_t { kId, kLiteral, kComposite, kValueEnum, kBitEnum };
enum class Quantifier : uint8_t { kOne, kOptional, kVariadic };

#include "grammar_kinds.inc"

struct OperandKindInfo {
  const char* name;
  Category category;
};

struct OperandSpec {
  OperandKind kind;
  Quantifier quantifier;
};

struct OpcodeInfo {
  uint32_t opcode;
  const char* name;
  const char* instruction_class;
  bool has_type;
  bool has_result;
  uint16_t first_operand;  // index into the operand spec table
  uint16_t operand_count;
};

struct EnumParameters {
  OperandKind kind;
  uint32_t value;
  uint16_t first;
  uint16_t count;
};

struct EnumName {
  OperandKind kind;
  uint32_t value;
  const char* name;
};

struct ExtInstInfo {
  uint32_t opcode;
  const char* name;
  uint32_t operand_count;
};

// Each opcode's row, indexed by the opcode (null: not in the grammar); FindOpcode's table.
std::vector<const OpcodeInfo*> MakeOpcodeRows();
// Null when the opcode is not in the grammar. Inline: every analysis asks it of every
// instruction it decodes, and the look-up is one load and an index.
inline const OpcodeInfo* FindOpcode(uint32_t opcode) {
  return LazyOpcodeTable<const OpcodeInfo*, &MakeOpcodeRows>::At(opcode);
}
// Calls `visit` with every opcode's row, in opcode order (for tables laid out by opcode).
void ForEachOpcode(const std::function<void(const OpcodeInfo&)>& visit);
const OperandSpec* OperandSpecs(const OpcodeInfo& info);
const OperandKindInfo& KindInfo(OperandKind kind);
// The operands an enumerant (or each set bit of a bit enum) adds; count 0 if none.
const OperandSpec* EnumerantParameters(OperandKind kind, uint32_t value, uint16_t* count);
// Whether any enumerant of `kind` takes operands of its own (LoopControl's
// DependencyLength, MemoryAccess's Aligned); false for StorageClass, SelectionControl.
bool AnyEnumerantHasParameters(OperandKind kind);
// Null when unknown.
const char* EnumerantName(OperandKind kind, uint32_t value);
const ExtInstInfo* FindGlslStd450(uint32_t instruction);
// "Op" + name for known opcodes, "Op<number>" otherwise.
const char* OpcodeName(uint32_t opcode);

}  // namespace glint::spirv::grammar

#endif  // GLINT_SPIRV_IR_GRAMMAR_H
