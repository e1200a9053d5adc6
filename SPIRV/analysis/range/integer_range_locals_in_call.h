// Internal to the integer range analysis: a local's loads during one call of its function,
// full mode (integer_range_locals_in_call.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_LOCALS_IN_CALL_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_LOCALS_IN_CALL_H

#include <vector>

#include "SPIRV/analysis/range/guard_conditions.h"
#include "SPIRV/analysis/range/integer_range_guarded.h"
#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

class LocalsInCall : public RangePart {
 public:
  LocalsInCall(RangeShared& shared, RangeEvaluator& evaluator, RangeRules& rules)
      : RangePart(shared, evaluator, rules), conditions_(inputs_.def_use, canonical_) {}

  // How many loads of locals are ranged in a call inside another such ranging (a stored
  // value that reads another local of the same function): a budget.
  static constexpr int kMaxNestedLocals = 4;
  // How many dominating blocks are asked whether their entry edge can be taken.
  static constexpr int kMaxDominators = 32;

  // The range `load` (of a local with several reaching stores) reads during one call
  // that gives `given`: the union of the values of the stores that can run in that call,
  // each ranged at its store with `given`. No range (the reason says why) where the
  // local is not followed, has loop-carried updates or parts, or a stored value has none.
  IntegerRange UnionInCall(const Instruction& load,
                           const std::vector<UseRanges::GivenParameter>& given, bool is_signed);
  // False when `inst` cannot run during a call that gives `given`: a dominating block's
  // only entry edge needs a comparison that the ranges in that call cannot satisfy.
  bool ReachableInCall(const Instruction& inst,
                       const std::vector<UseRanges::GivenParameter>& given);

 private:
  bool EdgeCanBeTaken(const Cfg& cfg, const Block* block,
                      const std::vector<UseRanges::GivenParameter>& given);

  GuardConditions conditions_;
  int nesting_ = 0;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_LOCALS_IN_CALL_H
