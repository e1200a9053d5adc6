// Internal to the integer range analysis: the guard facts at a use, its block's own and
// those its function inherits from every call, full mode (integer_range_caller_facts.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_CALLER_FACTS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_CALLER_FACTS_H

#include <unordered_map>

#include "SPIRV/analysis/range/guard_conditions.h"
#include "SPIRV/analysis/range/range_guards.h"
#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

class FactsAtUses : public RangePart {
 public:
  FactsAtUses(RangeShared& shared, RangeEvaluator& evaluator, RangeRules& rules)
      : RangePart(shared, evaluator, rules),
        conditions_(inputs_.def_use, canonical_),
        guard_facts_(inputs_.def_use, canonical_, conditions_) {}
  // The guard facts at `use`: its block's, then those its function inherits from every
  // call; null when there are none.
  const std::vector<GuardFact>* FactsAt(const Instruction& use);

 private:
  const std::vector<GuardFact>& CallerFacts(const Function& function);
  // The facts of the edge into `block` (its own only; GuardFactMemo adds its
  // dominators'). `leaf_ranges`: draw over LeafRange (call-site facts).
  GuardFacts::Facts DrawFacts(const Cfg& cfg, const Block* block, bool leaf_ranges);
  bool IntervalOf(uint32_t id, range_math::Interval* range);
  bool IntervalAt(uint32_t id, const Instruction* branch, range_math::Interval* range);
  // A constant's or an invocation constant's range; false for any other value.
  bool LeafRange(uint32_t id, range_math::Interval* range);

  // Guard facts (range_guards.h): conditions read from structure, facts drawn over
  // ranges the evaluator computes first (DrawFacts), memoized per block.
  GuardConditions conditions_;
  GuardFacts guard_facts_;
  GuardFactMemo own_facts_;
  // The guards at calls, for the facts a callee inherits: drawn over the ranges of
  // constants and invocation constants only (LeafRange), so drawing them never starts
  // an evaluation (which, begun inside a callee's, could meet values still being
  // computed and keep a poorer answer for them).
  GuardFactMemo call_site_facts_;
  std::unordered_map<const Function*, std::vector<GuardFact>> caller_facts_;
  std::unordered_map<const Block*, std::vector<GuardFact>> merged_facts_;  // own + inherited
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_CALLER_FACTS_H
