// Full-mode operators of the integer range analysis (reference mode has none of these):
//   - abs (GLSL.std.450 SAbs): [0, max(|lo|, |hi|)]; a value that may be INT_MIN has no
//     range, because abs(INT_MIN) is INT_MIN.
//   - OpBitwiseOr / OpBitwiseXor of two non-negative operands: below the next power of
//     two of the larger maximum ([max(a.min, b.min), ...] for OR, from 0 for XOR).
//   - OpUMod by a positive divisor range (not only a constant), whatever the dividend:
//     [0, divisor.max - 1], and at most the dividend's maximum.
//   - OpSRem and OpSMod with operands of either sign, the divisor's range excluding 0
//     (and -1 when the dividend may be INT_MIN, where the result is undefined):
//     |result| < max |divisor|, and [0, ...] when both operands are non-negative. The
//     sign is not trusted to follow SPIR-V's rule (dividend's for SRem, divisor's for
//     SMod): GLSL's % leaves it open for negative operands, and the audit caught
//     lavapipe returning a negative OpSMod by a positive constant.
//   - Components: OpCompositeExtract of a vector built by OpCompositeConstruct,
//     OpConstantComposite, OpCompositeInsert or OpVectorShuffle has the range of the
//     scalar that component came from (ComponentSource), so
//     `uvec2 v = uvec2(a & 7u, b & 7u); t[v.x + v.y]` is proven.
// Each is exact for every operand value in its operands' ranges.
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

IntegerRange IntegerRangeAnalysis::Evaluator::AbsoluteValue(uint32_t x_id, bool is_signed) const {
  IntegerRange x = Convert(Operand(x_id), true);
  if (!x.valid) return IntegerRange::None("abs of a value with no i32 range: " + x.reason);
  if (x.min == kI32Min)
    return IntegerRange::None("abs of a value that may be -2147483648 (abs of it is itself)");
  int64_t low = x.min >= 0 ? x.min : x.max <= 0 ? -x.max : 0;
  int64_t high = std::max(-x.min, x.max);
  return Convert(IntegerRange::Of(true, low, high), is_signed);
}

IntegerRange IntegerRangeAnalysis::Evaluator::BitwiseOrXor(const Instruction& def,
                                                           bool is_signed) const {
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

// Full mode, where the reference modulo rule gave nothing.
IntegerRange IntegerRangeAnalysis::Evaluator::WideModulo(spv::Op opcode, const IntegerRange& a,
                                                         const IntegerRange& b) const {
  bool is_signed = opcode != spv::OpUMod;
  IntegerRange divisor = Convert(b, is_signed);
  if (!divisor.valid) return IntegerRange::None("modulo divisor has no range: " + b.reason);
  if (divisor.min <= 0 && divisor.max >= 0) return IntegerRange::None("modulo divisor may be 0");
  IntegerRange dividend = a.valid ? Convert(a, is_signed) : FullDomain(is_signed);
  if (!dividend.valid) dividend = FullDomain(is_signed);
  if (!is_signed) return IntegerRange::Of(false, 0, std::min(dividend.max, divisor.max - 1));
  if (dividend.min == kI32Min && divisor.min <= -1 && divisor.max >= -1)
    return IntegerRange::None("i32 modulo of -2147483648 by -1 is undefined");
  int64_t magnitude = std::max(-divisor.min, divisor.max) - 1;  // |result| <= magnitude
  if (dividend.min >= 0 && divisor.min > 0)
    return IntegerRange::Of(true, 0, std::min(dividend.max, magnitude));
  // Either sign: GLSL leaves it open when an operand is negative, and drivers differ
  // (the audit saw lavapipe's OpSMod of a negative dividend by 7 come out negative).
  return IntegerRange::Of(true, -magnitude, magnitude);
}

}  // namespace glint::spirv
