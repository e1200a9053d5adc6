// Loop-carried locals (full mode): a local updated from its own value in a loop
// (`i++`, `count += 2u`, `--j`), widened in one step instead of iterated to a fixed
// point.
//
// What it proves: let D be the values that may be stored where a load L of the local
// reads (integer_range_locals.cpp). Some are "carried" updates `x + s` (or `x - s`)
// where x is a load of the same variable element and s a step of one sign; the others
// are "initial" values with ranges. When every carried update moves the same way, say
// up (s >= 0), and a guard that dominates the update bounds x from above (x <= B, from
// `x < n`, `x <= n`, `x != K` at the edge of a range, or `x < y` for any y: then
// B = type max - 1), then
//   - no update wraps: x + s <= B + s.max, which must be at most the type's maximum;
//   - every value the local ever holds at L is at least min(initial): by induction over
//     time, each carried update adds s >= 0 to a value x read from D itself (x's own
//     reaching values must lie within D; ReadsOnlyFrom), so it never goes below the
//     value it started from;
//   - every carried value is at most B + s.max.
// So L lies in [min(initial), max(max(initial), B + s.max)]. Downward updates mirror
// this with a guard from below. The guard is read where the update computes its value,
// so `while (i < n) { ...; i++; }` and `for (...; i < n; i++)` both qualify (the test's
// load and the update's load read the same version of i).
//
// An update whose load x may read a value L cannot (`j--; t[j]`: L reads only the
// update, x reads the loop's join) is not widened: it is an ordinary stored value of L,
// ranged at its store (integer_range_locals.cpp), and x's own load is widened instead.
//
// Refuses, naming why: updates in both directions; a step without a range or whose sign
// is unknown; no guard on the updated side, or one that leaves room to wrap
// ("... without a guard that keeps it below the type's maximum");
// nesting deeper than kMaxWideningDepth widenings (each reads guards whose ranges may
// need another widening; a budget that names itself). Shapes other than `x +/- s`
// (`i = i * 2`, `i = (i + 1) % n`, two locals that feed each other) stay a cyclic
// definition with no range, as before.
#include "SPIRV/analysis/range/integer_range_loop_locals.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

namespace {
const char kBothWays[] = "local is updated from its own value in both directions in a loop";
}  // namespace

// Every value the update's load may read is one the widened load may read too.
bool CarriedLocals::ReadsOnlyFrom(const Instruction& loaded, const LocalDefinitions& local) {
  const LocalDefinitions* own = local_definitions_.Of(loaded);
  if (!own || !own->composite_parts.empty()) return false;
  auto known = [&](uint32_t value) {
    if (std::find(local.values.begin(), local.values.end(), value) != local.values.end())
      return true;
    for (const CarriedUpdate& update : local.carried)
      if (update.value == value) return true;
    return false;
  };
  for (uint32_t value : own->values)
    if (!known(value)) return false;
  for (const CarriedUpdate& update : own->carried)
    if (!known(update.value)) return false;
  return true;
}

// The step's range as the amount added (negated for OpISub), in the local's reading.
bool CarriedLocals::CarriedStep(const CarriedUpdate& update, bool is_signed,
                                range_math::Interval* step, std::string* why) {
  IntegerRange range = Convert(Operand(update.step), is_signed);
  if (!range.valid) {
    *why = "the step of a loop-carried local has no range: " + range.reason;
    return false;
  }
  // `x - s` moves by -s (for u32 too: no wrap is checked against the guard's bound).
  *step = update.subtract ? range_math::Interval{true, -range.max, -range.min}
                          : range_math::Interval{true, range.min, range.max};
  return true;
}

// What the guards that dominate `use` say about `value`, in `value`'s own reading
// (the type's domain when nothing).
range_math::Interval CarriedLocals::GuardBound(uint32_t value, const Instruction& use,
                                               bool is_signed) {
  range_math::Interval bound{is_signed, TypeMin(is_signed), TypeMax(is_signed)};
  const std::vector<GuardFact>* facts = rules_.facts.FactsAt(use);
  if (!facts) return bound;
  IntegerRange narrowed = rules_.at_uses.ApplyFacts(value, IntegerRange::None(""), *facts);
  if (narrowed.valid) bound = {is_signed, narrowed.min, narrowed.max};
  uint32_t canonical = Canonical(value);
  for (const GuardFact& fact : *facts)
    if (fact.kind == GuardFact::Kind::kStrict && fact.value == canonical &&
        fact.interval.is_signed == is_signed)
      range_math::Meet(bound, fact.interval, &bound);
  return bound;
}

IntegerRange CarriedLocals::WidenCarried(const LocalDefinitions& local,
                                         const std::vector<const CarriedUpdate*>& widened,
                                         IntegerRange initial, bool is_signed) {
  const char kLoopCarried[] =
      "local is updated from its own value in a loop (no range without a guard)";
  if (!initial.valid) return initial.reason.empty() ? IntegerRange::None(kLoopCarried) : initial;
  NestedEvaluations::Scope widening = in_progress_.Widening();
  if (!widening.entered())
    return IntegerRange::None(
        "loop-carried local needs widenings nested deeper than "
        "kMaxWideningDepth (8)");
  int direction = 0;  // +1 up, -1 down
  std::string why;
  int64_t lo = initial.min, hi = initial.max;
  for (const CarriedUpdate* carried : widened) {
    const CarriedUpdate& update = *carried;
    range_math::Interval step;
    if (!CarriedStep(update, is_signed, &step, &why)) break;
    int moves = step.min >= 0 ? 1 : step.max <= 0 ? -1 : 0;
    if (moves == 0 || (direction != 0 && moves != direction)) {
      why = moves == 0 ? "the step of a loop-carried local may be negative or positive" : kBothWays;
      break;
    }
    direction = moves;
    range_math::Interval bound =
        GuardBound(update.loaded, *inputs_.def_use.Definition(update.value), is_signed);
    int64_t end = direction > 0 ? bound.max + step.max : bound.min + step.min;
    if (!Fits(end, is_signed)) {
      why = std::string(
                "local is updated from its own value in a loop without a guard that "
                "keeps it ") +
            (direction > 0 ? "below the type's maximum" : "above the type's minimum");
      break;
    }
    hi = std::max(hi, end);
    lo = std::min(lo, end);
  }
  if (!why.empty()) return IntegerRange::None(why);
  // Up: never below the initial minimum; down: never above the initial maximum.
  return direction > 0 ? IntegerRange::Of(is_signed, initial.min, hi)
                       : IntegerRange::Of(is_signed, lo, initial.max);
}

}  // namespace glint::spirv
