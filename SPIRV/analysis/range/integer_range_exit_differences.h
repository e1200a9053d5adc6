// Internal to the integer range analysis: the difference between a loop's bound and its
// counter after the loop, full mode (integer_range_exit_differences.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_EXIT_DIFFERENCES_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_EXIT_DIFFERENCES_H

#include <unordered_map>
#include <vector>

#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

class ExitDifferences : public RangePart {
 public:
  ExitDifferences(RangeShared& shared, RangeEvaluator& evaluator, RangeRules& rules)
      : RangePart(shared, evaluator, rules) {}

  // `sub` (an OpISub)'s range `own`, met with what a loop's exit test proves when `sub`
  // is `bound - counter` after a loop that steps the counter while `counter + k < bound`.
  IntegerRange ExitDifference(const Instruction& sub, IntegerRange own);

 private:
  // A function's loops whose exit test has the shape, by the counter's variable: built
  // once per function, so a subtraction looks only at loops that count its right operand.
  using LoopsByCounter = std::unordered_multimap<uint32_t, const NaturalLoop*>;
  const LoopsByCounter& CountedLoopsOf(Function& function);

  std::unordered_map<const Function*, LoopsByCounter> counted_loops_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_EXIT_DIFFERENCES_H
