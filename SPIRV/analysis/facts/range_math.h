// Small helpers on 32-bit integer ranges shared by the range analysis and the guard
// collector: the two readings of the same 32 bits (i32 and u32) and interval meets.
// Everything here is exact: a result is only produced when it holds for every value.
#ifndef GLINT_SPIRV_ANALYSIS_RANGE_MATH_H
#define GLINT_SPIRV_ANALYSIS_RANGE_MATH_H

#include <algorithm>
#include <cstdint>

namespace glint::spirv::range_math {

constexpr int64_t kI32Min = -2147483648LL;
constexpr int64_t kI32Max = 2147483647LL;
constexpr int64_t kU32Max = 4294967295LL;
constexpr int64_t kTwoTo32 = 4294967296LL;

inline int64_t TypeMin(bool is_signed) { return is_signed ? kI32Min : 0; }
inline int64_t TypeMax(bool is_signed) { return is_signed ? kI32Max : kU32Max; }

// An inclusive interval in one reading of 32 bits.
struct Interval {
  bool is_signed = false;
  int64_t min = 0;
  int64_t max = 0;
};

// The same bits read the other way, when the whole interval keeps one contiguous image
// there: [lo, hi] with lo >= 0 (or, for i32, hi < 0) moves as a block; an interval
// that straddles the sign bit has two images and gives false.
inline bool Reinterpret(const Interval& in, bool to_signed, Interval* out) {
  if (in.is_signed == to_signed) {
    *out = in;
    return true;
  }
  int64_t shift = 0;
  if (to_signed) {  // u32 -> i32: values above 2^31-1 become negative
    if (in.max <= kI32Max)
      shift = 0;
    else if (in.min > kI32Max)
      shift = -kTwoTo32;
    else
      return false;
  } else {  // i32 -> u32: negative values become large
    if (in.min >= 0)
      shift = 0;
    else if (in.max < 0)
      shift = kTwoTo32;
    else
      return false;
  }
  *out = Interval{to_signed, in.min + shift, in.max + shift};
  return true;
}

// a ∩ b in the same reading; false when empty.
inline bool Meet(const Interval& a, const Interval& b, Interval* out) {
  Interval met{a.is_signed, std::max(a.min, b.min), std::min(a.max, b.max)};
  if (met.min > met.max) return false;
  *out = met;
  return true;
}

}  // namespace glint::spirv::range_math

#endif  // GLINT_SPIRV_ANALYSIS_RANGE_MATH_H
