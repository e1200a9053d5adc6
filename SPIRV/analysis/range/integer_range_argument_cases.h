// Internal to the integer range analysis: a call's result over cases of its arguments'
// ranges, full mode (integer_range_argument_cases.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ARGUMENT_CASES_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ARGUMENT_CASES_H

#include <vector>

#include "SPIRV/analysis/range/integer_range_guarded.h"
#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

class ArgumentCases : public RangePart {
 public:
  using RangePart::RangePart;
  using Given = std::vector<UseRanges::GivenParameter>;

  // Budgets: the cases one call's result is evaluated over; the arguments' values one
  // call may have (past it no case is tried); the cases of every call together.
  static constexpr int kMaxCasesPerCall = 64;
  static constexpr int64_t kMaxArgumentValues = 4096;
  static constexpr int kMaxCasesPerAnalysis = 4096;

  // The union of what `returns` (a callee's OpReturnValue instructions) return during a
  // call that gives `given` (`unsplit`: what they return over the whole of it), each
  // parameter's range split in halves until every case has a range; no range when a
  // case that cannot be split has none or a budget is reached (the reason names it, and
  // `budget_reached` is set: the cases were given up, not found to have no range).
  IntegerRange ReturnedOverCases(const std::vector<const Instruction*>& returns, const Given& given,
                                 const IntegerRange& unsplit, bool is_signed, bool* budget_reached);

 private:
  IntegerRange Returned(const std::vector<const Instruction*>& returns, const Given& given,
                        bool is_signed);
  IntegerRange Split(const std::vector<const Instruction*>& returns, const Given& given,
                     const IntegerRange& whole, bool is_signed, int* budget, bool* budget_reached);

  int cases_evaluated_ = 0;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ARGUMENT_CASES_H
