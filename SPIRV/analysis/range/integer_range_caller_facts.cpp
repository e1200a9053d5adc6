// Facts a function inherits from its calls (full mode): a test around every call of a
// helper on a built-in or push constant holds for that value inside the helper.
//
//   void helper() { t[gl_LocalInvocationIndex] = 1u; }
//   void main() { if (gl_LocalInvocationIndex < 22u) helper(); }
//
// The facts at each call are drawn apart from the evaluation (call_site_facts_): only
// constants and invocation constants are ranged there (LeafRange: a test against any
// other value gives no interval), so drawing them never starts an evaluation in the
// middle of another one, which could meet values still being computed and keep a
// poorer answer.
//
// What it proves: let V be the canonical value of an immutable load (an Input or
// PushConstant part at constant indices, not Volatile: canonical_values.cpp's
// ImmutableLoad). V is one value per invocation: every load of that part, in any
// function, reads the same bits. A function F that is not an entry point runs only when
// one of its OpFunctionCall instructions runs, and at each call C the facts that hold
// at C (its block's guard facts, range_guards.h, and what C's own function inherits)
// hold for V throughout that run of F, since nothing changes V. So where every call of
// F has interval facts about V in one reading, V inside F lies in the union over the
// calls of what each call's facts allow: that interval is a fact of every block of F.
// Only V's that are immutable loads carry over: any other canonical value (arithmetic,
// a local's stored value, a parameter) is an instruction of the caller whose latest
// execution the callee cannot name.
//
// Refuses (inherits nothing): an entry point (it also starts without a call), a function
// with no calls or more than kMaxGuardedCallSites, a value some call has no interval
// fact about, or facts in different readings at different calls. Facts other than
// intervals (x != K, x < length, strictness) are not carried. Recursion cannot occur in
// valid SPIR-V; were it met, the function on the cycle inherits nothing.
//
// Cost: once per function (memoized), the facts at each of its calls; each block of a
// function that inherits facts keeps one merged copy of its facts.
#include "SPIRV/analysis/range/integer_range_caller_facts.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

namespace {

bool IsEntryPoint(const Module& module, uint32_t function) {
  for (const Instruction& entry : module.entry_points)
    if (EntryPointInterfaceView(entry).function() == function) return true;
  return false;
}

}  // namespace

const std::vector<GuardFact>& FactsAtUses::CallerFacts(const Function& function) {
  auto [known, inserted] = caller_facts_.try_emplace(&function);
  if (!inserted) return known->second;  // memoized, or on a cycle: nothing yet
  uint32_t id = function.id();
  const std::vector<const CallGraph::Call*>& calls = inputs_.calls.CallsOf(id);
  if (calls.empty() || calls.size() > kMaxGuardedCallSites || IsEntryPoint(module_, id))
    return known->second;
  // Per call: V -> the meet of its interval facts there (one reading per V).
  std::vector<std::unordered_map<uint32_t, GuardFact>> per_call;
  std::unordered_set<uint32_t> mixed_readings;  // signed at one fact, unsigned at another
  for (const CallGraph::Call* call : calls) {
    std::unordered_map<uint32_t, GuardFact>& met = per_call.emplace_back();
    const Block* block = inputs_.def_use.BlockOf(call->call);
    if (!block || !call->caller) return known->second;
    const Cfg& cfg = canonical_.CfgOf(*call->caller);
    std::vector<GuardFact> facts = call_site_facts_.FactsIn(
        cfg, block, [this, &cfg](const Block* b) { return DrawFacts(cfg, b, true); });
    const std::vector<GuardFact>& above = CallerFacts(*call->caller);
    facts.insert(facts.end(), above.begin(), above.end());
    for (const GuardFact& fact : facts) {
      if (fact.kind != GuardFact::Kind::kInterval || fact.component != GuardFact::kWhole ||
          !conditions_.IsInvocationConstant(fact.value))
        continue;
      auto [slot, first] = met.try_emplace(fact.value, fact);
      if (first) continue;
      GuardFact& so_far = slot->second;
      if (so_far.interval.is_signed != fact.interval.is_signed) {
        mixed_readings.insert(fact.value);
        continue;
      }
      range_math::Interval meet;
      if (range_math::Meet(so_far.interval, fact.interval, &meet)) so_far.interval = meet;
    }
  }
  std::vector<GuardFact> inherited;
  for (const auto& [value, first_fact] : per_call.front()) {
    GuardFact fact = first_fact;
    bool everywhere = !mixed_readings.count(value);
    for (size_t i = 1; everywhere && i < per_call.size(); ++i) {
      auto there = per_call[i].find(value);
      everywhere =
          there != per_call[i].end() && there->second.interval.is_signed == fact.interval.is_signed;
      if (everywhere) {
        fact.interval.min = std::min(fact.interval.min, there->second.interval.min);
        fact.interval.max = std::max(fact.interval.max, there->second.interval.max);
      }
    }
    if (everywhere) inherited.push_back(fact);
  }
  // Deterministic order (the map's is not): by value id.
  std::sort(inherited.begin(), inherited.end(),
            [](const GuardFact& a, const GuardFact& b) { return a.value < b.value; });
  std::vector<GuardFact>& result = caller_facts_[&function];
  result = std::move(inherited);
  return result;
}

bool FactsAtUses::LeafRange(uint32_t id, range_math::Interval* range) {
  uint64_t bits = 0;
  bool constant = inputs_.def_use.IntConstant(id, &bits);
  if (!constant && !conditions_.IsInvocationConstant(Canonical(id))) return false;
  return IntervalOf(id, range);  // a leaf: a constant, a built-in, a push constant
}

const std::vector<GuardFact>* FactsAtUses::FactsAt(const Instruction& use) {
  const Block* block = inputs_.def_use.BlockOf(&use);
  Function* function = inputs_.def_use.FunctionOf(&use);
  if (!Full() || !block || !function) return nullptr;
  const Cfg& cfg = canonical_.CfgOf(*function);
  const std::vector<GuardFact>& own = own_facts_.FactsIn(
      cfg, block, [this, &cfg](const Block* b) { return DrawFacts(cfg, b, false); });
  const std::vector<GuardFact>& inherited = CallerFacts(*function);
  if (inherited.empty()) return own.empty() ? nullptr : &own;
  auto [merged, inserted] = merged_facts_.try_emplace(block);
  if (inserted) {
    merged->second = own;  // the block's own (nearest) facts first
    merged->second.insert(merged->second.end(), inherited.begin(), inherited.end());
  }
  return &merged->second;
}

// The facts of the edge into `block`, condition by condition: each drawn over the
// ranges computed so far; where a drawing stops at a range not computed yet, that
// range is computed and the condition is drawn again.
GuardFacts::Facts FactsAtUses::DrawFacts(const Cfg& cfg, const Block* block, bool leaf_ranges) {
  GuardFacts::Facts facts;
  GuardRanges ranges;
  for (const GuardCondition& condition : conditions_.Into(cfg, block))
    while (!guard_facts_.Draw(cfg, condition, &ranges, &facts)) {
      uint32_t needed = ranges.missing();
      range_math::Interval range;
      bool known =
          leaf_ranges ? LeafRange(needed, &range) : IntervalAt(needed, condition.branch, &range);
      ranges.Add(needed, known, range);
    }
  return facts;
}

// `id`'s range at `branch` (the branch whose edge the condition is): narrowed by the
// facts above the branch (`if (n > 64u) return; for (i = 0u; i < n; i++) t[i]`: n is at
// most 64 at the loop's test, so i is at most 63 in the body). Sound because the value
// the condition compares is the one the use reads (the guard facts' argument,
// range_guards.h: no path defines it again between the test and the use without
// passing the test again), and at the branch every fact above it holds for that value.
// The facts at the branch are its block's, drawn before those of the blocks it
// dominates (GuardFactMemo walks down the dominator tree), so this never asks for the
// block being drawn.
bool FactsAtUses::IntervalAt(uint32_t id, const Instruction* branch, range_math::Interval* range) {
  if (!branch) return IntervalOf(id, range);
  IntegerRange found = rules_.at_uses.RangeAt(id, *branch);
  if (!found.valid) return false;
  *range = range_math::Interval{found.is_signed, found.min, found.max};
  return true;
}

bool FactsAtUses::IntervalOf(uint32_t id, range_math::Interval* range) {
  IntegerRange found = RangeOf(id);
  if (!found.valid) return false;
  *range = range_math::Interval{found.is_signed, found.min, found.max};
  return true;
}

}  // namespace glint::spirv
