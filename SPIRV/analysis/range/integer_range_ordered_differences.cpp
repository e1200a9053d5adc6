// Differences under an order (full mode): `x - y` where a guard proves x >= y.
//
// What it proves: at a use dominated by the edge of a test `x >= y` (or `x > y`, or the
// false edge of `x < y`, in either reading), where neither side is a constant (guard
// fact kNotBelow, range_guards.h), a subtraction D = `x' - y'` in the use's expression
// whose operands are the tested values lies in [max(d, x.min - y.max), x.max - y.min]
// in the test's reading (d = 1 for a strict test, else 0), with x and y ranged at the
// use; a u32 difference can then not wrap. The Hillis-Steele prefix sum
// `if (ix >= (1u << i)) s[ix - (1u << i)]` is the common case.
//
// Why: the test's operands and D's operands are the same values at the use.
//   - Same canonical value (CanonicalValues::Canonical): the guard facts' own argument.
//   - Otherwise the same pure operator (NumberedOp) of the same result type over
//     operands that are the same values (either order when it commutes), to
//     kMaxSameValueDepth levels: the operator is a function of its operands' bits.
//   - Two loads of the same local element (value_flow.h: same variable, same constant
//     path) that read the same version (Reaching: one store or one join). This is what a
//     loop counter's loads need (Canonical keeps them apart so that their ranges come
//     from the loop's shape). The version V reaches both loads only if V's definition
//     lies on every path to each (it dominates them). The test's load L1 dominates the
//     test, whose edge dominates the use U; D's load L2 dominates D, which dominates U.
//     If V were made again after L1's (or L2's) latest execution and before U, the path
//     from the entry to V's first instance (which passes no L, dominated by V) followed
//     by the path from that new instance to U would reach U without L, so L would not
//     dominate U. Both loads therefore read V's latest instance before U: the same bits.
//     A local whose pointer escapes (passed to a call, indexed dynamically) has no
//     versions (value_flow.h), so no call can change it behind the version.
// D's latest execution read its operands' latest values (they dominate D, which
// dominates U: the argument of integer_range_guarded.cpp), the values the test
// ordered. In the test's reading x >= y + d, so x - y >= d exactly; the upper end
// x.max - y.min must fit the reading (a signed difference can wrap past 2^31 - 1
// otherwise: then nothing is proven). The result is read in D's own type by
// reinterpreting its bits.
//
// Refuses (D keeps its range and its reason): no order fact about D's operands at the
// use; x without a context-free range of its own (a range from the tests alone ends at
// the type's top, which bounds nothing, and D's reason would lose x's root cause); x
// without a range in the test's reading; a signed difference that may wrap; operands
// deeper than kMaxSameValueDepth.
#include "SPIRV/analysis/range/integer_range_ordered_differences.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include <algorithm>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

IntegerRange OrderedDifferences::OrderedDifference(const Instruction& sub, const IntegerRange& own,
                                                   const std::vector<GuardFact>& facts) {
  bool is_signed = false;
  bool any_order = std::any_of(facts.begin(), facts.end(), [](const GuardFact& fact) {
    return fact.kind == GuardFact::Kind::kNotBelow;
  });
  if (!any_order || !inputs_.def_use.IsInt32Type(sub.type_id, &is_signed)) return own;
  BinaryOpView operands(sub);
  uint32_t left = Canonical(operands.left()), right = Canonical(operands.right());
  for (const GuardFact& fact : facts) {
    if (fact.kind != GuardFact::Kind::kNotBelow || fact.component != GuardFact::kWhole ||
        !SameValue(fact.value, left, 0) || !SameValue(fact.other, right, 0))
      continue;
    // x needs a range of its own: narrowed only by tests, its top is the type's and
    // the difference would be no use, while its own reason names the root cause.
    if (!RangeOf(operands.left()).valid) return own;
    bool reading = fact.interval.is_signed;
    IntegerRange x = Reinterpret(Operand(operands.left()), reading);
    IntegerRange y = Reinterpret(Operand(operands.right()), reading);
    if (!x.valid) continue;
    if (!y.valid) y = FullDomain(reading);
    int64_t high = x.max - y.min;
    int64_t low = std::max(fact.interval.min, x.min - y.max);
    if (high > TypeMax(reading) || low > high) continue;
    IntegerRange ordered = Reinterpret(IntegerRange::Of(reading, low, high), is_signed);
    if (own.valid) {  // both hold: keep what each proves
      ordered = Meet(own, ordered, is_signed);
      if (ordered.min == own.min && ordered.max == own.max) return own;
    }
    ordered.guard = fact.branch;
    return ordered;
  }
  return own;
}

// True when the canonical values `first` and `second` are one value at a use both
// dominate (see the file comment).
bool OrderedDifferences::SameValue(uint32_t first, uint32_t second, int depth) {
  if (first == second) return true;
  if (depth >= kMaxSameValueDepth) return false;
  const Instruction* a = inputs_.def_use.Definition(first);
  const Instruction* b = inputs_.def_use.Definition(second);
  if (!a || !b || a->opcode != b->opcode || a->type_id != b->type_id) return false;
  if (a->opcode == spv::OpLoad) return SameLocalVersion(*a, *b);
  bool commutes = false;
  if (!NumberedOp(a->opcode, &commutes) || a->words.size() != 2 || b->words.size() != 2)
    return false;
  BinaryOpView left(*a), right(*b);
  auto same = [&](uint32_t from_a, uint32_t from_b) {
    return SameValue(Canonical(from_a), Canonical(from_b), depth + 1);
  };
  if (same(left.left(), right.left()) && same(left.right(), right.right())) return true;
  return commutes && same(left.left(), right.right()) && same(left.right(), right.left());
}

// Two loads of one local element that read the same version of it.
bool OrderedDifferences::SameLocalVersion(const Instruction& a, const Instruction& b) {
  if (!Full() || LoadView(a).is_volatile() || LoadView(b).is_volatile()) return false;
  const ValueFlow* flow = canonical_.FlowOf(a);
  if (!flow || flow != canonical_.FlowOf(b)) return false;
  uint32_t variable_a = 0, variable_b = 0;
  std::vector<uint32_t> path_a, path_b;
  if (!flow->LoadTarget(&a, &variable_a, &path_a) || !flow->LoadTarget(&b, &variable_b, &path_b))
    return false;
  uint32_t version = flow->Reaching(&a);
  return variable_a == variable_b && path_a == path_b && version != ValueFlow::kNoNode &&
         version == flow->Reaching(&b);
}

}  // namespace glint::spirv
