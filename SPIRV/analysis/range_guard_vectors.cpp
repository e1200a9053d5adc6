// Vector comparison guards (full mode; part of the guard facts, range_guards.h).
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
#include "range_guard_relations.h"
#include "range_guards.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace guard_detail;

void GuardFacts::VectorFacts(uint32_t compare, bool each_holds, const Instruction* branch,
                             Facts* out) {
  const Instruction* def = def_use_.Definition(compare);
  bool is_signed = false;
  Relation relation = def ? RelationOf(def->opcode, &is_signed) : Relation::kNone;
  if (relation == Relation::kNone || def->words.size() != 2) return;
  if (!each_holds) relation = Negate(relation);
  BinaryOpView operands(*def);
  const Instruction* type = def_use_.TypeOf(operands.left());
  if (!type || type->opcode != spv::OpTypeVector) return;
  for (uint32_t i = 0; i < TypeVectorView(*type).component_count(); ++i) {
    ComponentFacts(operands.left(), i, relation, operands.right(), is_signed, branch, out);
    ComponentFacts(operands.right(), i, Mirror(relation), operands.left(), is_signed, branch, out);
  }
}

// Facts about component `index` of vector x from "x[index] REL y[index]".
void GuardFacts::ComponentFacts(uint32_t x, uint32_t index, Relation relation, uint32_t y,
                                bool is_signed, const Instruction* branch, Facts* out) {
  uint32_t bound = source_.ComponentOf(y, index);
  if (!bound) return;
  if (uint32_t scalar = source_.ComponentOf(x, index))
    return SideFacts(scalar, relation, bound, is_signed, branch, out);
  Interval bound_range;
  if (!source_.RangeOf(bound, &bound_range) ||
      !range_math::Reinterpret(bound_range, is_signed, &bound_range))
    return;
  GuardFact fact;
  fact.value = source_.Canonical(x);
  fact.component = index;
  fact.branch = branch;
  if (relation == Relation::kNotEqual && bound_range.min == bound_range.max) {
    fact.kind = GuardFact::Kind::kNotEqual;
    fact.interval = bound_range;
  } else if (!IntervalFor(relation, bound_range, &fact.interval)) {
    return;
  }
  out->push_back(fact);
}

}  // namespace glint::spirv
