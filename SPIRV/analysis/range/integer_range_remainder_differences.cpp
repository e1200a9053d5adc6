// Remainders written out by hand (full mode): `x - k * (x / k)` and `x - ((x >> s) << s)`.
//
// What it proves: an OpISub D = `x - p` whose subtrahend p rounds x down to a multiple
// of a constant m, in one of three ways, lies in the range below, whatever x's range
// (often none: `itid - 8 * v_im` with `v_im = itid / 8`, llama.cpp's quantized matrix
// kernels, where the interval rule sees [0, 15] - [0, 8] and refuses the u32 wrap):
//   - p = `k * (x' / k)` or `(x' / k) * k`, OpUDiv by the constant k > 0 (as u32 bits),
//     OpIMul by a constant with the same bits: D's bits lie in [0, k - 1];
//   - p = `(x' >> s) << s`, OpShiftRightLogical or OpShiftRightArithmetic by the
//     constant s in [0, 31], then OpShiftLeftLogical by a constant equal to s: D's bits
//     lie in [0, 2^s - 1];
//   - p = `k * (x' / k)` with OpSDiv by the constant k, 0 < k < 2^31 as i32: D lies in
//     [0, k - 1] where x's i32 reading is at least 0, else in [-(k - 1), k - 1] (read as
//     i32; as u32 a negative remainder's bits are near the top, so nothing is proven);
// where x' and x are one value at D (OrderedDifferences::SameValue: one canonical value,
// one pure operator of such values, or two loads of one version of a local). D's range
// is the meet of this and the interval rule's range, when that one has a range.
//
// Why: x' and x are the same bits at D (the SameValue argument: every definition named
// dominates D, so the latest run of each before D read the others' latest bits).
//   - u32 division: q = floor(x / k), so k * q <= x < 2^32 and the OpIMul's 32-bit
//     product is the exact product; x - k * q is then exact too, and it is x mod k,
//     in [0, k - 1]. The bits are what they are whichever way D's type reads them; a
//     range that crosses 2^31 is reinterpreted as a whole-domain i32 range.
//   - shifts: (x >> s) clears x's low s bits after moving them out, whether the vacated
//     top bits are zeros or copies of the sign bit; shifting back left by s drops those
//     top bits again and leaves x with its low s bits cleared. Subtracting it from x
//     borrows nothing, and leaves x's low s bits: [0, 2^s - 1].
//   - i32 division truncates toward zero: q = trunc(x / k), |k * q| <= |x| with k * q
//     of x's sign, so neither the product nor the difference overflows, and x - k * q
//     is OpSRem(x, k), which has x's sign and |.| < k.
// The divisor must be the same constant (its bits) on both sides: `x - 8 * (x / 4)`
// wraps for x = 4.
//
// Refuses (D keeps the interval rule's range and reason): reference mode, a vector D, a
// divisor or shift that is not a constant, 0 or a negative i32 divisor, a shift of 32 or
// more, different constants, x' not shown to be x (`x - 8 * ((x + 1) / 8)` wraps for
// x = 7), an i32 remainder read as u32 that may be negative.
#include "SPIRV/analysis/range/integer_range_remainder_differences.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

IntegerRange RemainderDifferences::Remainder(const Instruction& sub, IntegerRange own) {
  bool is_signed = false;
  if (!Full() || sub.opcode != spv::OpISub || !inputs_.def_use.IsInt32Type(sub.type_id, &is_signed))
    return own;
  BinaryOpView operands(sub);
  int64_t modulus = 0;
  Rounding rounding = Rounding::kUnsignedDivision;
  if (!RoundsDown(Canonical(operands.right()), Canonical(operands.left()), &modulus, &rounding))
    return own;
  IntegerRange remainder = Reinterpret(IntegerRange::Of(false, 0, modulus - 1), is_signed);
  if (rounding == Rounding::kSignedDivision) {
    IntegerRange dividend = Reinterpret(Operand(operands.left()), true);
    bool non_negative = dividend.valid && dividend.min >= 0;
    if (!non_negative && !is_signed) return own;
    if (!non_negative) remainder = IntegerRange::Of(true, -(modulus - 1), modulus - 1);
  }
  return Meet(own, remainder, is_signed);
}

bool RemainderDifferences::RoundsDown(uint32_t product, uint32_t dividend, int64_t* modulus,
                                      Rounding* rounding) {
  const Instruction* def = inputs_.def_use.Definition(product);
  bool is_signed = false;
  if (!def || def->words.size() != 2 || !inputs_.def_use.IsInt32Type(def->type_id, &is_signed))
    return false;
  BinaryOpView operands(*def);
  int64_t value = 0;
  uint32_t divided = 0;
  if (def->opcode == spv::OpIMul) {
    for (auto [factor, other] : {std::pair{operands.left(), operands.right()},
                                 std::pair{operands.right(), operands.left()}}) {
      if (!canonical_.ConstantValue(factor, &value) || uint32_t(value) == 0) continue;
      uint32_t bits = uint32_t(value);
      if (!QuotientBy(Canonical(other), bits, false, &divided, rounding) ||
          !rules_.ordered_differences.SameValue(divided, dividend, 0))
        continue;
      *modulus = *rounding == Rounding::kSignedDivision ? int64_t(int32_t(bits)) : int64_t(bits);
      return true;
    }
    return false;
  }
  if (def->opcode != spv::OpShiftLeftLogical || !canonical_.ConstantValue(operands.right(), &value))
    return false;
  uint32_t shift = uint32_t(value);
  if (shift >= 32 || !QuotientBy(Canonical(operands.left()), shift, true, &divided, rounding) ||
      !rules_.ordered_differences.SameValue(divided, dividend, 0))
    return false;
  *modulus = int64_t(1) << shift;
  return true;
}

bool RemainderDifferences::QuotientBy(uint32_t quotient, uint32_t bits, bool shift,
                                      uint32_t* divided, Rounding* rounding) {
  const Instruction* def = inputs_.def_use.Definition(quotient);
  bool is_signed = false;
  if (!def || def->words.size() != 2 || !inputs_.def_use.IsInt32Type(def->type_id, &is_signed))
    return false;
  BinaryOpView operands(*def);
  int64_t value = 0;
  if (!canonical_.ConstantValue(operands.right(), &value) || uint32_t(value) != bits) return false;
  switch (def->opcode) {
    case spv::OpShiftRightLogical:
    case spv::OpShiftRightArithmetic:
      if (!shift) return false;
      *rounding = Rounding::kShift;
      break;
    case spv::OpUDiv:
      if (shift) return false;
      *rounding = Rounding::kUnsignedDivision;
      break;
    case spv::OpSDiv:
      if (shift || int32_t(bits) <= 0) return false;
      *rounding = Rounding::kSignedDivision;
      break;
    default:
      return false;
  }
  *divided = Canonical(operands.left());
  return true;
}

}  // namespace glint::spirv
