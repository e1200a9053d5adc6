// Guard facts: what the conditional branches that dominate a block prove about the
// integer values used there (full range-analysis mode only).
//
// Two halves: the conditions each block's entry edge proves are read from structure
// alone (guard_conditions.h); GuardFacts draws interval facts from them over ranges
// the range analysis has already computed (GuardRanges). Drawing starts no evaluation:
// where it needs a range not given yet it stops and names it, the evaluator computes
// it and draws that condition again (integer_range_guarded.cpp), so the ranges are
// asked in the same order as a drawing that asked for them as it went.
//
// What it proves: a block X whose only predecessor P ends with
// "OpBranchConditional %c %T %F" (T != F) runs only after the edge P -> X was taken, so
// %c was true (X == T) or false (X == F); X dominates every block where that holds.
// Early exits fall out of this: after `if (x >= N) return;` (or break, continue,
// discard), the if's merge block has the header as its only predecessor. From %c it
// derives facts:
//   - comparisons (OpIEqual, OpINotEqual, OpS/OpU Less/Greater[Equal]) between two
//     32-bit integers: each side lies within what the other side's range allows, in
//     the comparison's own reading (a signed test narrows the i32 reading only; the
//     reader converts a fact to the other reading only where both readings agree);
//   - `x < OpArrayLength(block, member)` (also with the length bitcast): a symbolic
//     fact that proves an index into that runtime array in bounds (`<=` proves nothing);
//   - through a constant offset or factor: a fact about `x + c`, `x - c`, `x * c`
//     (c > 0) or `x << c` is one about x too, when x's range shows that the operation
//     cannot wrap in the fact's reading (then it is exact); kMaxOperandDepth steps;
//   - through a ranged offset: a fact about `a + b` or `a - b` (neither a constant,
//     both ranged, no wrap possible in the fact's reading) bounds each operand by the
//     fact and the other operand's range (`x + n < B`: x <= B.max - 1 - n.min);
//   - `x < y` / `x > y` where y has no range: x is not the type's largest (smallest)
//     value in that reading (kStrict; what widening a loop counter needs);
//   - `x >= y` / `x > y` where neither is a constant: the order itself (kNotBelow; what
//     `x - y` needs to be known not to wrap: `if (i >= (1u << k)) s[i - (1u << k)]`);
//   - OpLogicalNot (negation), OpLogicalAnd when true, OpLogicalOr when false (both
//     operands), and the boolean OpPhi glslang emits for a short-circuit && / ||
//     (only the facts about values defined before the first test are kept).
// Facts constrain canonical values (CanonicalValues::Canonical: copies, bitcasts and
// loads of locals that read one known SSA value, or one known component of a stored
// vector, are looked through, and arithmetic recomputed from the same canonical
// operands is the earlier computation: canonical_values.cpp), so a test on one
// load of a local narrows another load of it that reads the same store. A value is
// never canonicalized across memory another invocation or a call may write: each load
// of a buffer, shared variable or image is its own value, and a test on it narrows
// only that load.
//
// Why facts hold at the use: the tested values' definitions dominate the test, and the
// test's edge dominates the use, so no path re-defines a tested value between the test
// and the use without passing the test again (SSA: the latest execution of each).
//
//   - OpSwitch edges (range_guard_switch.cpp): a case target reached from the switch
//     alone holds the selector to its case literals; the default edge moves an end of
//     the selector's range past the literals there;
//   - all() / any() of a component-wise comparison of integer vectors
//     (range_guard_vectors.cpp): where every component's comparison holds, each
//     component is narrowed (a fact about a component of a vector value).
// Refuses (adds no fact): a target with several predecessors (a loop header, a merge
// reached from both sides, a case reached by fallthrough), conditions deeper than
// GuardConditions::kMaxConditionDepth operators. Cost: each block's facts are drawn
// once (GuardFactMemo) and joined with its immediate dominator's, capped at kMaxFacts
// (the nearest guards are kept); a condition is drawn once more for each range it needs.
#ifndef GLINT_SPIRV_ANALYSIS_RANGE_GUARDS_H
#define GLINT_SPIRV_ANALYSIS_RANGE_GUARDS_H

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "SPIRV/analysis/range/guard_conditions.h"
#include "SPIRV/analysis/facts/range_math.h"
#include "SPIRV/analysis/facts/range_relations.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/def_use.h"

namespace glint::spirv {

struct GuardFact {
  enum class Kind {
    kInterval,     // value lies in `interval`
    kNotEqual,     // value != interval.min (in interval's reading)
    kBelowLength,  // value < OpArrayLength(length_base, length_member), in interval's reading
    kStrict,       // value < y or value > y for a y without a range: `interval` is the
                   // type's domain less its top (or bottom) value; only the widening of
                   // loop-carried locals reads it (it proves that `value + 1` cannot wrap)
    kNotBelow,     // value >= other + interval.min (0, or 1 for `>`) in interval's reading;
                   // only differences read it (integer_range_ordered_differences.cpp)
  };
  static constexpr uint32_t kWhole = ~0u;
  Kind kind = Kind::kInterval;
  uint32_t value = 0;  // canonical value id
  // kWhole: the fact is about `value`; otherwise about this component of the vector
  // `value` (range_guard_vectors.cpp), read by an extract or a load of one element.
  uint32_t component = kWhole;
  range_math::Interval interval;
  uint32_t length_base = 0;
  uint32_t length_member = 0;
  uint32_t other = 0;                   // kNotBelow: the canonical value `value` is not below
  const Instruction* branch = nullptr;  // the OpBranchConditional that proves it
};

// The ranges a drawing of facts may read: those the range analysis computed for it,
// each in its own reading. A few per block: kept in a list.
class GuardRanges {
 public:
  // True with `range` set when `id` has a known range; false when it has none, or when
  // it was not given yet (then missing() names the first such id).
  bool Get(uint32_t id, range_math::Interval* range);
  // `id`'s range as computed (`known` false: it has none).
  void Add(uint32_t id, bool known, const range_math::Interval& range);
  uint32_t missing() const { return missing_; }

 private:
  struct Entry {
    uint32_t id;
    bool known;
    range_math::Interval range;
  };
  std::vector<Entry> entries_;
  uint32_t missing_ = 0;
};

class GuardFacts {
 public:
  using Facts = std::vector<GuardFact>;
  static constexpr size_t kMaxFacts = 64;
  static constexpr int kMaxOperandDepth = 3;  // x in `(x * 2u + 1u) < n`: two steps

  GuardFacts(const DefUse& def_use, CanonicalValues& canonical, GuardConditions& conditions)
      : def_use_(def_use), canonical_(canonical), conditions_(conditions) {}

  // Appends the facts `condition` (an entry condition of a block of `cfg`'s function)
  // proves; false, appending nothing, when a range it needs is not in `ranges`
  // (ranges->missing() names it). A block's facts are its conditions' in their order.
  bool Draw(const Cfg& cfg, const GuardCondition& condition, GuardRanges* ranges, Facts* out);

 private:
  void CompareFacts(GuardRanges& ranges, const GuardCondition& condition, Facts* out);
  void OrderFact(uint32_t x, Relation relation, uint32_t y, bool is_signed,
                 const Instruction* branch, Facts* out);
  // range_guard_switch.cpp
  void SwitchFacts(GuardRanges& ranges, const GuardCondition& edge, Facts* out);
  // range_guard_vectors.cpp
  void ComponentFacts(GuardRanges& ranges, const GuardCondition& condition, Facts* out);
  void OperandFacts(GuardRanges& ranges, uint32_t y, const GuardFact& fact, int depth, Facts* out);
  void QuotientFacts(GuardRanges& ranges, const Instruction& def, const GuardFact& fact, int depth,
                     Facts* out);
  void RangedOffsetFacts(GuardRanges& ranges, const Instruction& def, const GuardFact& fact,
                         int depth, Facts* out);
  bool ConstantIn(uint32_t id, bool is_signed, int64_t* value) const;

  const DefUse& def_use_;
  CanonicalValues& canonical_;
  GuardConditions& conditions_;
  Facts drawn_;  // Draw's scratch: a condition's facts before the defined-above test
};

// Each block's facts, its own (nearest) first and then its immediate dominator's;
// shared with the dominator where the block's edge proves nothing. The range analysis
// draws a block's own facts (integer_range_guarded.cpp), computing the ranges they
// need; the memo asks for them only for blocks it has not seen.
class GuardFactMemo {
 public:
  // The facts of the edge into one block, its own only.
  using DrawOwn = std::function<GuardFacts::Facts(const Block*)>;

  // The facts holding in `block`: walks up to the nearest dominator already known, then
  // draws downwards. `draw` may ask this memo again (a guard's own range): a block drawn
  // meanwhile is taken as drawn.
  const GuardFacts::Facts& FactsIn(const Cfg& cfg, const Block* block, const DrawOwn& draw);

 private:
  std::unordered_map<const Block*, std::shared_ptr<const GuardFacts::Facts>> by_block_;
  GuardFacts::Facts empty_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_RANGE_GUARDS_H
