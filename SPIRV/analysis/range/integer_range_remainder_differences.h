// Internal to the integer range analysis: `x - k * (x / k)` and `x - ((x >> s) << s)`,
// the remainder written out by hand, full mode (integer_range_remainder_differences.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_REMAINDER_DIFFERENCES_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_REMAINDER_DIFFERENCES_H

#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

class RemainderDifferences : public RangePart {
 public:
  using RangePart::RangePart;
  // `sub` (an OpISub)'s range `own`, met with what the remainder identity proves when
  // `sub` subtracts its own left operand rounded down to a multiple of a constant.
  IntegerRange Remainder(const Instruction& sub, IntegerRange own);

 private:
  // How the subtrahend rounds the dividend down (see the file comment).
  enum class Rounding { kUnsignedDivision, kSignedDivision, kShift };
  // True when `product` is `k * (x' / k)`, `(x' / k) * k` or `(x' >> s) << s` with x'
  // the same value as `dividend`; `modulus` receives k or 2^s.
  bool RoundsDown(uint32_t product, uint32_t dividend, int64_t* modulus, Rounding* rounding);
  // The positive divisor or shift of `quotient` (x' / c or x' >> c) when it is the
  // constant `bits` (as a 32-bit pattern), reading x' into `divided`.
  bool QuotientBy(uint32_t quotient, uint32_t bits, bool shift, uint32_t* divided,
                  Rounding* rounding);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_REMAINDER_DIFFERENCES_H
