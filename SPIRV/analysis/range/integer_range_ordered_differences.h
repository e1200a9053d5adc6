// Internal to the integer range analysis: x - y where a guard proves x >= y, full mode
// (integer_range_ordered_differences.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ORDERED_DIFFERENCES_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ORDERED_DIFFERENCES_H

#include "SPIRV/analysis/range/range_guards.h"
#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

class OrderedDifferences : public RangePart {
 public:
  using RangePart::RangePart;
  // `sub`'s range `own`, met with what the facts' order of its operands proves.
  IntegerRange OrderedDifference(const Instruction& sub, const IntegerRange& own,
                                 const std::vector<GuardFact>& facts);
  // True when the canonical values `first` and `second` are one value at a use both
  // dominate (the file comment's three ways); integer_range_spec_lengths.cpp asks it
  // too, of a tested value and an index.
  bool SameValue(uint32_t first, uint32_t second, int depth);

 private:
  static constexpr int kMaxSameValueDepth = 4;
  bool SameLocalVersion(const Instruction& a, const Instruction& b);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ORDERED_DIFFERENCES_H
