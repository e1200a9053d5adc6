// Vector comparison guards (full mode; part of the guard facts, range_guards.h: the
// comparisons are read by guard_conditions.cpp, their bounds ranged here).
//
// What it proves: `all(lessThan(p, n))` true, or `any(greaterThanEqual(p, n))` false
// (an early `return` / `break` on it), means the comparison holds in every component:
// p[i] < n[i] for each i. OpAll of a component-wise OpULessThan / OpSLessThan / ... /
// OpIEqual / OpINotEqual on integer vectors when it holds, OpAny of one when it does
// not (then the negated comparison holds in every component). For each component i
// whose bound n[i] is a known scalar (a constant vector, or a vector built from
// scalars), component i of p is narrowed as a scalar comparison would narrow it:
//   - where p's component i is itself a known scalar (p built from scalars), the fact
//     is about that scalar (range_guards.cpp's rules, offsets included);
//   - otherwise the fact is about component i of p's canonical vector value
//     (GuardFact::component): an OpCompositeExtract of the same vector value, or a load
//     of that element of a local whose reaching store is the same whole store (or the
//     same join version) as at the test, reads it (IntegerRangeAnalysis: ComponentKey).
// Why it holds: as for scalar guards, the tested vector's definition dominates the test
// and the edge dominates the use, so the use reads the tested value's latest execution.
// Refuses (adds no fact): a bound component without a known scalar, or with no range
// (no per-component "x < y" strictness fact), OpAll when false / OpAny when true (some
// component fails, which one is unknown), comparisons of non-integer vectors.
#include "SPIRV/analysis/range/range_guard_relations.h"
#include "SPIRV/analysis/range/range_guards.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace guard_detail;

// Facts about component `component` of vector x from "x[component] REL y" (y the
// bound's scalar; GuardConditions made a scalar comparison where x's component is one).
void GuardFacts::ComponentFacts(GuardRanges& ranges, const GuardCondition& condition, Facts* out) {
  Interval bound_range;
  if (!ranges.Get(condition.y, &bound_range) ||
      !range_math::Reinterpret(bound_range, condition.is_signed, &bound_range))
    return;
  GuardFact fact;
  fact.value = canonical_.Canonical(condition.x);
  fact.component = condition.component;
  fact.branch = condition.branch;
  if (condition.relation == Relation::kNotEqual && bound_range.min == bound_range.max) {
    fact.kind = GuardFact::Kind::kNotEqual;
    fact.interval = bound_range;
  } else if (!IntervalFor(condition.relation, bound_range, &fact.interval)) {
    return;
  }
  out->push_back(fact);
}

}  // namespace glint::spirv
