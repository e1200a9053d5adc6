// Helpers the robust-access pass uses to emit clamps: unsigned integer types and
// constants of any width, bitcasts to unsigned, GLSL.std.450 UMin / UMax, and other
// straight-line instructions inserted just before the access they protect.
//
// Everything emitted is arithmetic in the block of the access: no branch, no block.
// The emitter knows the types of the ids it creates itself (the def-use index, built
// before rewriting, does not).
#ifndef GLINT_SPIRV_PASSES_ROBUST_ACCESS_EMIT_H
#define GLINT_SPIRV_PASSES_ROBUST_ACCESS_EMIT_H

#include <cstdint>
#include <list>
#include <unordered_map>
#include <vector>

#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

// Where new instructions go: before `before` in `block`.
struct InsertionPoint {
  Block* block;
  InstructionList::iterator before;
};

class ClampEmitter {
 public:
  ClampEmitter(Module& module, const DefUse& def_use) : module_(module), def_use_(def_use) {}

  // Unsigned integer type of `width` bits (found or added).
  uint32_t UintType(uint32_t width);
  // 32-bit unsigned scalar (count 1) or vector type (found or added).
  uint32_t UintVectorType(uint32_t count);
  // A vector of `count` components of `component_type` (found or added).
  uint32_t VectorType(uint32_t component_type, uint32_t count);
  // OpConstant of integer type `type_id` holding `value` (found or added; 64-bit aware).
  uint32_t IntConstant(uint32_t type_id, uint64_t value);
  // Width and signedness of a scalar or vector integer type; false for other types.
  bool IntTypeInfo(uint32_t type_id, uint32_t* width, bool* is_signed) const;
  // The type instruction for `type_id`, also for types this emitter created.
  const Instruction* TypeDefinition(uint32_t type_id) const;
  uint32_t TypeOfValue(uint32_t value_id) const;
  // The defining instruction of an id of the unmodified module (null for new ids).
  const Instruction* Definition(uint32_t id) const { return def_use_.Definition(id); }

  // Emits `opcode` with `operands` before `at`; returns the new result id.
  uint32_t Emit(const InsertionPoint& at, spv::Op opcode, uint32_t type_id,
                std::vector<uint32_t> operands);
  // `value` as an unsigned value of the same width (an OpBitcast when it is signed).
  uint32_t AsUnsigned(const InsertionPoint& at, uint32_t value);
  // GLSL.std.450 UMin / UMax of two values of unsigned type `type_id`.
  uint32_t UMin(const InsertionPoint& at, uint32_t type_id, uint32_t a, uint32_t b);
  uint32_t UMax(const InsertionPoint& at, uint32_t type_id, uint32_t a, uint32_t b);
  // max(length, 1) - 1: the largest index to use for `length` elements. An empty
  // object gives 0, never 0xFFFFFFFF (which would let every index through).
  uint32_t LastIndexOf(const InsertionPoint& at, uint32_t type_id, uint32_t length);
  // `value` (unsigned scalar) converted to unsigned `width` bits when it differs.
  uint32_t ToWidth(const InsertionPoint& at, uint32_t value, uint32_t width);

  uint32_t instructions_emitted() const { return instructions_emitted_; }

 private:
  void RememberType(uint32_t type_id);

  Module& module_;
  const DefUse& def_use_;
  uint32_t glsl_import_ = 0;
  uint32_t instructions_emitted_ = 0;
  std::unordered_map<uint32_t, Instruction> created_types_;
  std::unordered_map<uint32_t, uint32_t> created_value_types_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_ROBUST_ACCESS_EMIT_H
