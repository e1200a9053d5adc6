// OpSwitch case guards (full mode; part of the guard facts, range_guards.h: the edge
// is read by guard_conditions.cpp, the literals here).
//
// What it proves: in a block X whose only predecessor ends with
// "OpSwitch %sel %default (literal, label)...", X ran after the edge to X was taken:
//   - X is the target of cases L1..Ln (and not the default): %sel equals one of them,
//     so it lies in [min Li, max Li] (several literals to one target: their union);
//   - X is the default target (and no case's): %sel equals none of the literals; that
//     is kept only where it moves an end of %sel's range (the context-free range, or
//     the type's domain): [0, 9] with cases 0, 1 and 9 gives [2, 8] on the default edge.
// Equality of bits is the same in either reading, so the fact is in the selector
// type's reading. A test on `x + c` (switch (x + 1)) carries to x as comparisons do.
// Why it holds: X has one predecessor, so X is entered only through that switch edge
// (a case reached by fallthrough from another case, or from elsewhere, has two or more
// predecessors and gets no fact), and X dominates where the fact is used.
// Refuses (adds no fact): selectors that are not 32-bit integers, a target that is both
// the default and a case, a default edge where the literals move no end.
#include "SPIRV/analysis/range/range_guard_relations.h"
#include "SPIRV/analysis/range/range_guards.h"

#include <algorithm>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace guard_detail;

namespace {

// `range` with its ends moved past the sorted literals `excluded`; false when that
// moves neither end (or leaves nothing: the edge is never taken).
bool MovePastLiterals(const std::vector<int64_t>& excluded, Interval* range) {
  Interval moved = *range;
  auto has = [&](int64_t v) { return std::binary_search(excluded.begin(), excluded.end(), v); };
  while (moved.min <= moved.max && has(moved.min)) ++moved.min;
  while (moved.min <= moved.max && has(moved.max)) --moved.max;
  if (moved.min > moved.max || (moved.min == range->min && moved.max == range->max)) return false;
  *range = moved;
  return true;
}

}  // namespace

void GuardFacts::SwitchFacts(GuardRanges& ranges, const GuardCondition& edge, Facts* out) {
  SwitchView<const Instruction> view(*edge.branch);
  uint32_t selector = edge.x;
  bool is_signed = edge.is_signed;
  std::vector<int64_t> here, elsewhere;
  for (size_t k = 0; k < view.case_count(); ++k) {
    uint32_t bits = view.case_literal(k);
    int64_t literal = is_signed ? int64_t(int32_t(bits)) : int64_t(bits);
    (view.case_label(k) == edge.target->id() ? here : elsewhere).push_back(literal);
  }
  GuardFact fact;
  fact.value = canonical_.Canonical(selector);
  fact.branch = edge.branch;
  if (!here.empty()) {  // a case target (GuardConditions: never also the default)
    auto [low, high] = std::minmax_element(here.begin(), here.end());
    fact.interval = Interval{is_signed, *low, *high};
  } else {
    std::sort(elsewhere.begin(), elsewhere.end());
    fact.interval = Interval{is_signed, TypeMin(is_signed), TypeMax(is_signed)};
    Interval known;
    if (ranges.Get(selector, &known) && range_math::Reinterpret(known, is_signed, &known))
      fact.interval = known;
    if (!MovePastLiterals(elsewhere, &fact.interval)) return;
  }
  out->push_back(fact);
  OperandFacts(ranges, selector, fact, 0, out);
}

}  // namespace glint::spirv
