// Ranges at a use (full mode): RangeOf narrowed by the facts that the conditional
// branches dominating the use prove (range_guards.h).
//
// A value's range at a use is re-evaluated over its expression, bottom up, with every
// node narrowed by the facts about it: `if (i < 8u) t[i + 1u]` narrows i, then i + 1.
// Why that is sound: every node's definition dominates the use, so at the use each node
// holds the value of its latest execution, computed from its operands' latest values
// (SSA), and those are the values the facts constrain. Two kinds of node are not
// re-evaluated (only narrowed themselves): OpPhi, whose operands' latest values need
// not be what it selected, and loads of loop control variables, whose range comes from
// the loop's shape. The expression is followed to kMaxContextDepth operators and
// kMaxContextNodes values (deeper operands keep their context-free range). In one call
// with given parameters, a load of a local assigned on several paths is also ranged in
// that call (integer_range_locals_in_call.cpp) and met with its range over every call.
#include "SPIRV/analysis/range/integer_range_guarded.h"

#include <algorithm>
#include <array>

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

IntegerRange UseRanges::RangeAt(uint32_t id, const Instruction& use,
                                const std::vector<GivenParameter>* given) {
  IntegerRange base = RangeOf(id);
  // A constant is its value wherever it is read: guards are drawn about the values a
  // condition compares, never about a constant, so the use's facts are not drawn for it
  // (most index sites of a large shader are constant indices).
  const Instruction* def = inputs_.def_use.Definition(id);
  if (def && (def->opcode == spv::OpConstant || def->opcode == spv::OpConstantNull)) return base;
  const std::vector<GuardFact>* facts = rules_.facts.FactsAt(use);
  if ((!facts && !given) || !memo_.Has(id))
    return base;  // not memoized: asked inside its own Compute
  return Reevaluated(id, facts, given);
}

// `id`'s expression re-evaluated bottom up at a use: each node narrowed by the use's
// `facts` (when there are any), the parameters in `given` taking the ranges given there.
IntegerRange UseRanges::Reevaluated(uint32_t id, const std::vector<GuardFact>* facts,
                                    const std::vector<GivenParameter>* given) {
  IntegerRange base = RangeOf(id);
  // A stored value's range is asked at its store while another RangeAt may be under way
  // (integer_range_locals.cpp): this one's values at its use are a set of their own.
  auto substitution = substituted_.Open();
  OperandSubstitutions<IntegerRange>::Set& at_use = substitution.set();
  ContextOrder order;
  ContextNodes(id, &order, given);
  for (uint32_t node : order) {
    const Instruction* def = inputs_.def_use.Definition(node);
    IntegerRange own;
    if (const IntegerRange* given_range = GivenRange(def, given)) {
      own = *given_range;
    } else {
      own = def && Expandable(*def) ? evaluator_.Compute(node) : *memo_.Find(node);
      bool node_signed = false;
      if (given && def && rules_.kinds.Of(*def) == ValueKind::kLocalLoad &&
          IsScalarInt(node, &node_signed))  // a local assigned on several paths, in this call
        own = Meet(own, rules_.locals_in_call.UnionInCall(*def, *given, node_signed), node_signed);
      if (facts && def && def->opcode == spv::OpISub)
        own = rules_.ordered_differences.OrderedDifference(*def, own, *facts);
      if (!own.guard && def)  // a narrowed operand is what narrowed this value
        for (uint32_t dependency : evaluator_.Dependencies(*def))
          if (at_use.count(dependency) && at_use[dependency].guard) {
            own.guard = at_use[dependency].guard;
            break;
          }
    }
    at_use[node] = facts ? ApplyFacts(node, std::move(own), *facts) : std::move(own);
  }
  const IntegerRange* result = at_use.Find(id);
  if (!result) return base;
  bool same = result->valid == base.valid &&
              (!base.valid || (result->min == base.min && result->max == base.max));
  if (same) return base;
  return *result;
}

// The range `given` holds for `def`: a given parameter itself, or a whole load of a
// given parameter pointer; null for any other value.
const IntegerRange* UseRanges::GivenRange(const Instruction* def,
                                          const std::vector<GivenParameter>* given) const {
  if (!given || !def) return nullptr;
  uint32_t parameter = def->result_id;
  if (def->opcode == spv::OpLoad)
    parameter = LoadView(*def).pointer();
  else if (def->opcode != spv::OpFunctionParameter)
    return nullptr;
  for (const GivenParameter& entry : *given)
    if (entry.parameter == parameter) return &entry.range;
  return nullptr;
}

// OpPhi and loop-variable loads keep their context-free range (see the file comment).
bool UseRanges::Expandable(const Instruction& def) {
  // A call result's operands are values of another function: only the result itself
  // is narrowed at the use.
  if (def.opcode == spv::OpPhi || def.opcode == spv::OpFunctionCall) return false;
  if (def.opcode == spv::OpLoad)
    return !canonical_.LoopVariableLoadTarget(def) && canonical_.DominatingSingleStore(def);
  return !evaluator_.Dependencies(def).empty();
}

// The values of `id`'s expression in post-order (operands first), within the budgets.
void UseRanges::ContextNodes(uint32_t id, ContextOrder* order,
                             const std::vector<GivenParameter>* given) {
  struct Frame {
    uint32_t id;
    int depth;
    bool expanded;
  };
  // At most kMaxContextNodes values are ever seen, each pushed unexpanded once and
  // expanded once: both fit in place.
  std::array<uint32_t, kMaxContextNodes> seen;
  size_t seen_count = 0;
  auto first_sight = [&](uint32_t value) {
    if (std::find(seen.begin(), seen.begin() + seen_count, value) != seen.begin() + seen_count)
      return false;
    seen[seen_count++] = value;
    return true;
  };
  first_sight(id);
  std::array<Frame, 2 * kMaxContextNodes> stack;
  size_t depth = 0;
  stack[depth++] = {id, 0, false};
  while (depth > 0) {
    Frame frame = stack[--depth];
    if (frame.expanded) {
      order->push_back(frame.id);
      continue;
    }
    stack[depth++] = {frame.id, frame.depth, true};
    const Instruction* def = inputs_.def_use.Definition(frame.id);
    if (!def || frame.depth >= kMaxContextDepth || !Expandable(*def) || GivenRange(def, given))
      continue;
    for (uint32_t dependency : evaluator_.Dependencies(*def))
      if (seen_count < kMaxContextNodes && first_sight(dependency) && memo_.Has(dependency))
        stack[depth++] = {dependency, frame.depth + 1, false};
  }
}

bool FactTarget::About(const GuardFact& fact) const {
  if (fact.component == GuardFact::kWhole) return fact.value == canonical;
  return keyed && fact.value == vector && fact.component == index;
}

// False when no fact ApplyFacts reads can be about `id`, decided without `id`'s
// canonical value (value numbering is most of what ApplyFacts costs, and most values
// re-evaluated at a use have no fact). Canonical follows only copies, bitcasts, extracts
// and loads to another opcode; from any other instruction it stays there or moves to an
// earlier instruction of the same opcode (value numbering, canonical_values.cpp), so a
// whole-value fact can name it only where the fact's value is an instruction of that
// opcode. Facts about a component may name `id` by its component key: then true.
bool UseRanges::MayBeAbout(uint32_t id, const std::vector<GuardFact>& facts) const {
  const Instruction* def = inputs_.def_use.Definition(id);
  if (!def) return true;
  switch (def->opcode) {
    case spv::OpCopyObject:
    case spv::OpBitcast:
    case spv::OpCompositeExtract:
    case spv::OpLoad:
      return true;
    default:
      break;
  }
  for (const GuardFact& fact : facts) {
    if (fact.kind != GuardFact::Kind::kInterval && fact.kind != GuardFact::Kind::kNotEqual)
      continue;
    if (fact.component != GuardFact::kWhole) return true;
    const Instruction* named = inputs_.def_use.Definition(fact.value);
    if (named && named->opcode == def->opcode) return true;
  }
  return false;
}

// What facts about `id` name: its canonical value, and, when some fact is about a
// component of a vector (range_guard_vectors.cpp), the component `id` reads.
FactTarget UseRanges::TargetOf(uint32_t id, const std::vector<GuardFact>& facts) {
  FactTarget target;
  target.canonical = Canonical(id);
  for (const GuardFact& fact : facts)
    if (fact.component != GuardFact::kWhole) {
      target.keyed =
          canonical_.ComponentKey(*inputs_.def_use.Definition(id), &target.vector, &target.index);
      break;
    }
  return target;
}

// `range` met with every fact about `id`'s canonical value, in `id`'s own reading.
// Facts of each reading are met in that reading first (`int(u) >= 0 && int(u) < 16`
// is [0, 15] only once both signed facts meet), then carried across readings where
// the interval has one image in both.
IntegerRange UseRanges::ApplyFacts(uint32_t id, IntegerRange range,
                                   const std::vector<GuardFact>& facts) {
  using range_math::Interval;
  bool is_signed = false;
  if (!IsScalarInt(id, &is_signed) || !MayBeAbout(id, facts)) return range;
  FactTarget target = TargetOf(id, facts);
  auto about = [&](const GuardFact& fact) { return target.About(fact); };
  Interval reading[2] = {{false, 0, kU32Max}, {true, kI32Min, kI32Max}};  // [is_signed]
  const Instruction* guard = nullptr;
  for (const GuardFact& fact : facts) {
    if (!about(fact) || fact.kind != GuardFact::Kind::kInterval) continue;
    Interval& same = reading[fact.interval.is_signed];
    range_math::Meet(same, fact.interval, &same);  // empty: unreachable, keep the rest
    if (!guard) guard = fact.branch;
  }
  Interval now = reading[is_signed], other;
  if (range.valid) range_math::Meet(now, Interval{is_signed, range.min, range.max}, &now);
  if (range_math::Reinterpret(now, !is_signed, &other) &&
      range_math::Meet(other, reading[!is_signed], &other)) {
    range_math::Reinterpret(other, is_signed, &now);
  } else if (range_math::Reinterpret(reading[!is_signed], is_signed, &other)) {
    range_math::Meet(now, other, &now);
  }
  for (const GuardFact& fact : facts) {  // x != K moves an end of the interval
    Interval excluded;
    if (!about(fact) || fact.kind != GuardFact::Kind::kNotEqual ||
        !range_math::Reinterpret(fact.interval, is_signed, &excluded) || now.min == now.max)
      continue;
    if (now.min != excluded.min && now.max != excluded.min) continue;
    (now.min == excluded.min ? now.min : now.max) += now.min == excluded.min ? 1 : -1;
    if (!guard) guard = fact.branch;
  }
  bool whole = now.min == TypeMin(is_signed) && now.max == TypeMax(is_signed);
  bool same = range.valid && now.min == range.min && now.max == range.max;
  if (!guard || whole || same) return range;
  IntegerRange narrowed = IntegerRange::Of(is_signed, now.min, now.max);
  narrowed.guard = guard;
  return narrowed;
}

bool UseRanges::ProvenBelowArrayLength(uint32_t index, const Instruction& use,
                                       uint32_t block_pointer, uint32_t member,
                                       const Instruction** guard) {
  const std::vector<GuardFact>* facts = rules_.facts.FactsAt(use);
  bool index_signed = false;
  if (!facts || !IsScalarInt(index, &index_signed)) return false;
  uint32_t value = Canonical(index), base = Canonical(block_pointer);
  for (const GuardFact& fact : *facts) {
    if (fact.kind != GuardFact::Kind::kBelowLength || fact.value != value ||
        fact.length_base != base || fact.length_member != member)
      continue;
    bool proven = !fact.interval.is_signed;
    if (!proven) {  // i <s length: the length is positive, and so i's u32 reading is below it
      IntegerRange range = RangeAt(index, use);  // only once i >= 0 is known too
      proven = range.valid && range.min >= 0 && (index_signed || range.max <= kI32Max);
    }
    if (proven) {
      if (guard) *guard = fact.branch;
      return true;
    }
  }
  return false;
}

}  // namespace glint::spirv
