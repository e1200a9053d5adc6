// Bitwise operators (full mode; reference mode has no rule for them and names them):
//   - OpBitwiseAnd with a constant mask m >= 0 on either side: [0, m], narrowed to
//     [0, min(m, x.max)] when the other operand has a non-negative range, and to
//     [x.min & m, x.max & m] when m is 2^k - 1 and x's range lies in one aligned block
//     of 2^k values (there x & m is x minus the block's start).
//   - OpBitwiseOr / OpBitwiseXor of two non-negative operands: below the next power of
//     two of the larger maximum ([max(a.min, b.min), ...] for OR, from 0 for XOR).
//   - OpBitFieldUExtract (GLSL bitfieldExtract on uint) when offset + count is at most 32
//     for every operand value: [0, 2^count.max - 1] (the field is zero-extended).
//   - OpBitFieldInsert with constant offset and count into a non-negative base:
//     [0, base.max + field.max] (see BitFieldInsert).
// Each is exact for every operand value in its operands' ranges.
#include "SPIRV/analysis/range/integer_range_bitwise.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

namespace {

// The smallest 2^k - 1 that is at least `value` (value >= 0).
int64_t AllOnesAbove(int64_t value) {
  int64_t ones = 0;
  while (ones < value) ones = ones * 2 + 1;
  return ones;
}

}  // namespace

void BitwiseRule::Register(Table& table) {
  for (ValueKind kind : {ValueKind::kBitwiseAnd, ValueKind::kBitwiseOrXor,
                         ValueKind::kBitFieldExtract, ValueKind::kBitFieldInsert})
    table[size_t(kind)] = this;
}

DependencyIds BitwiseRule::Dependencies(const Instruction& def, ValueKind kind) {
  switch (kind) {
    case ValueKind::kBitFieldExtract:
      return {BitFieldExtractView(def).offset(), BitFieldExtractView(def).count()};
    case ValueKind::kBitFieldInsert:  // reference mode: unsupported, as it always was
      if (!Full()) return {};
      return {BitFieldInsertView(def).base(), BitFieldInsertView(def).insert(),
              BitFieldInsertView(def).offset(), BitFieldInsertView(def).count()};
    default:
      return {BinaryOpView(def).left(), BinaryOpView(def).right()};
  }
}

IntegerRange BitwiseRule::Range(const Instruction& def, ValueKind kind, bool is_signed) {
  switch (kind) {
    case ValueKind::kBitwiseAnd:
      return Full() ? BitwiseAnd(def, is_signed) : IntegerRange::None(NotInReference(def.opcode));
    case ValueKind::kBitwiseOrXor:
      return Full() ? BitwiseOrXor(def, is_signed)
                    : IntegerRange::None(UnsupportedOpcode(def.opcode));
    case ValueKind::kBitFieldExtract:
      return Full() ? UnsignedBitField(def, is_signed)
                    : IntegerRange::None(NotInReference(def.opcode));
    default:
      return Full() ? BitFieldInsert(def, is_signed)
                    : IntegerRange::None(UnsupportedOpcode(def.opcode));
  }
}

// Full mode: x & m with a constant m >= 0 lies in [0, m] whatever x is.
IntegerRange BitwiseRule::BitwiseAnd(const Instruction& def, bool is_signed) const {
  int64_t mask = 0;
  BinaryOpView operands(def);
  uint32_t other = operands.left();
  if (canonical_.ConstantValue(operands.right(), &mask)) {
  } else if (canonical_.ConstantValue(operands.left(), &mask)) {
    other = operands.right();
  } else {
    return IntegerRange::None("bitwise AND without a constant mask");
  }
  if (mask < 0) return IntegerRange::None("bitwise AND with a negative mask");
  IntegerRange x = Operand(other);
  int64_t low = 0, high = mask;
  if (x.valid && x.min >= 0) high = std::min(high, x.max);
  // A low mask (2^k - 1) of values within one aligned block of 2^k: x minus the block's
  // start, which grows with x (`offset & 31` of an offset in [64, 95] is in [0, 31], of
  // one in [77, 81] in [13, 17]).
  const bool low_mask = (mask & (mask + 1)) == 0;
  if (low_mask && x.valid && x.min >= 0 && (x.min & ~mask) == (x.max & ~mask)) {
    low = x.min & mask;
    high = x.max & mask;
  }
  return Checked(is_signed, low, high, "bitwise AND");
}

IntegerRange BitwiseRule::BitwiseOrXor(const Instruction& def, bool is_signed) const {
  IntegerRange a = Convert(Operand(BinaryOpView(def).left()), is_signed);
  IntegerRange b = Convert(Operand(BinaryOpView(def).right()), is_signed);
  if (!a.valid) return a;
  if (!b.valid) return b;
  if (a.min < 0 || b.min < 0)
    return IntegerRange::None(std::string(def.opcode == spv::OpBitwiseOr ? "OR" : "XOR") +
                              " of a possibly negative value");
  int64_t high = AllOnesAbove(std::max(a.max, b.max));
  int64_t low = def.opcode == spv::OpBitwiseOr ? std::max(a.min, b.min) : 0;
  return Checked(is_signed, low, high, "bitwise OR/XOR");
}

// Full mode: a zero-extended field of at most count.max bits.
IntegerRange BitwiseRule::UnsignedBitField(const Instruction& def, bool is_signed) const {
  return UnsignedField(Operand(BitFieldExtractView(def).offset()),
                       Operand(BitFieldExtractView(def).count()), is_signed);
}

// The field's range from its offset's and count's (also each component of a vector
// extract: integer_range_components.cpp).
IntegerRange BitwiseRule::UnsignedField(const IntegerRange& offset, const IntegerRange& count,
                                        bool is_signed) {
  if (!count.valid) return IntegerRange::None("bitfield count has no range: " + count.reason);
  // The result is undefined (any value) when offset + count exceeds 32.
  if (!offset.valid || offset.min < 0 || count.min < 0 || offset.max + count.max > 32)
    return IntegerRange::None("bitfield offset + count may exceed 32");
  return Checked(is_signed, 0, (int64_t(1) << count.max) - 1, "bitfield extract");
}

// Full mode: bitfieldInsert(base, insert, offset, count) with constant offset and count
// (offset + count > 32 is undefined): base with bits [offset, offset + count) replaced
// by insert's low bits. For base >= 0, base & ~mask <= base.max; the field is at most
// the mask, and at most insert.max << offset when insert >= 0; and a | b <= a + b for
// non-negative a, b, so the result is in [0, base.max + field.max], also below the
// smallest all-ones value at least max(base.max, field.max). In the i32 reading the
// sign bit is base's (0) when offset + count <= 31.
IntegerRange BitwiseRule::BitFieldInsert(const Instruction& def, bool is_signed) const {
  BitFieldInsertView view(def);
  int64_t offset = 0, count = 0;
  if (!canonical_.ConstantValue(view.offset(), &offset) ||
      !canonical_.ConstantValue(view.count(), &count) || offset < 0 || count < 0 ||
      offset + count > (is_signed ? 31 : 32))
    return IntegerRange::None(
        "bitfield insert: offset and count are not constants within the value's bits");
  IntegerRange base = Operand(view.base());
  if (!base.valid) return base;
  if (base.min < 0) return IntegerRange::None("bitfield insert into a value that may be negative");
  int64_t mask = ((int64_t(1) << count) - 1) << offset;
  int64_t field = mask;
  IntegerRange insert = Operand(view.insert());
  if (count > 0 && insert.valid && insert.min >= 0 && insert.max <= kU32Max)
    field = std::min(mask, insert.max << offset);
  int64_t widest = std::max(base.max, field);
  int64_t all_ones = 1;
  while (all_ones < widest) all_ones = all_ones * 2 + 1;
  return Checked(is_signed, 0, std::min(base.max + field, all_ones), "bitfield insert");
}

}  // namespace glint::spirv
