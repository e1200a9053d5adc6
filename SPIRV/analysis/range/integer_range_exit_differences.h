// Internal to the integer range analysis: the difference between a loop's bound and its
// counter after the loop, full mode (integer_range_exit_differences.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_EXIT_DIFFERENCES_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_EXIT_DIFFERENCES_H

#include "SPIRV/analysis/range/guard_conditions.h"
#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

class ExitDifferences : public RangePart {
 public:
  ExitDifferences(RangeShared& shared, RangeEvaluator& evaluator, RangeRules& rules)
      : RangePart(shared, evaluator, rules), conditions_(inputs_.def_use, canonical_) {}

  // `sub` (an OpISub)'s range `own`, met with what a loop's exit test proves when `sub`
  // is `bound - counter` after a loop that steps the counter while `counter + k < bound`.
  IntegerRange ExitDifference(const Instruction& sub, IntegerRange own);

 private:
  GuardConditions conditions_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_EXIT_DIFFERENCES_H
