// Locals in one call (full mode): what a load of a local assigned on several paths reads
// during one call of its function whose parameters are given ranges (the call results
// rule gives them: integer_range_call_results.cpp).
//
// What it proves: during such a call, the load reads one of the values stored by the
// stores that can run in that call, each ranged at its store with the given parameters
// (UseRanges::RangeAt). A store cannot run in the call when a block that dominates it is
// entered only through one conditional edge whose comparison no values in the call's
// ranges satisfy: Granite's `extract_bits(payload, 77, 5)` tests
// `((offset + bits - 1) >> 5) == (offset >> 5)`, true for 77 and 5, so the branch that
// joins two words (and whose bit count is negative for these arguments) stores nothing
// in this call, and the result is the one field of 5 bits.
//
// Why it holds: a local of a function is a new variable in each call, so during a call a
// load reads a value stored during that call (local_definitions.h lists every store that
// may reach the load and refuses a load that may read the variable before any store).
// A block X whose only predecessor P ends with a conditional branch runs only after that
// edge was taken (guard_conditions.h), which needs the comparison it reads to have had
// that outcome; the comparison's operands are ranged at the comparison with this call's
// parameters (their values there are the ones compared), and where no pair of values in
// those ranges has that outcome, X never runs in this call, nor any block X dominates.
// Each reachable store's value is ranged at the store as the ordinary union does
// (integer_range_locals.cpp), now with the call's parameters, which hold during the call.
//
// Refuses (no range; the call result keeps its range over every call): a local the value
// flow does not follow, one with loop-carried updates, vector parts or built-in parts (the
// ordinary rule ranges those), a stored value without a range in this call, and nesting
// past kMaxNestedLocals (a budget: a stored value that reads another such local). Only a
// comparison read from a branch's condition is decided (not a short-circuit phi's, not a
// vector's component), and at most kMaxDominators dominators are asked (a budget: past it
// the store counts as reachable, which is sound).
#include "SPIRV/analysis/range/integer_range_locals_in_call.h"

#include <string>

#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/analysis/range/local_definitions.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

namespace {

// True when some x in `x` and y in `y` (one reading) satisfy `x relation y`.
bool CanHold(const IntegerRange& x, Relation relation, const IntegerRange& y) {
  switch (relation) {
    case Relation::kLess:
      return x.min < y.max;
    case Relation::kLessEqual:
      return x.min <= y.max;
    case Relation::kGreater:
      return x.max > y.min;
    case Relation::kGreaterEqual:
      return x.max >= y.min;
    case Relation::kEqual:
      return x.min <= y.max && y.min <= x.max;
    case Relation::kNotEqual:
      return !(x.min == x.max && y.min == y.max && x.min == y.min);
    default:
      return true;
  }
}

}  // namespace

IntegerRange LocalsInCall::UnionInCall(const Instruction& load,
                                       const std::vector<UseRanges::GivenParameter>& given,
                                       bool is_signed) {
  if (nesting_ >= kMaxNestedLocals)
    return IntegerRange::None("locals ranged in one call nested deeper than " +
                              std::to_string(kMaxNestedLocals) + " (budget kMaxNestedLocals)");
  const LocalDefinitions* local = local_definitions_.Of(load);
  if (!local || !local->carried.empty() || !local->builtin_parts.empty() ||
      !local->composite_parts.empty() || rules_.fixed_point.CycleDependent(load))
    return IntegerRange::None("local not ranged in one call");
  ++nesting_;
  IntegerRange result;
  for (size_t i = 0; i < local->values.size() && (result.valid || result.reason.empty()); ++i) {
    const Instruction* store = local->stores[i];
    if (store && !ReachableInCall(*store, given)) continue;
    IntegerRange stored = Convert(store ? rules_.at_uses.RangeAt(local->values[i], *store, &given)
                                        : RangeOf(local->values[i]),
                                  is_signed);
    result = stored.valid ? Hull(result, stored, is_signed)
                          : IntegerRange::None(
                                "a value stored to the local has no range in "
                                "this call: " +
                                stored.reason);
  }
  --nesting_;
  if (!result.valid && result.reason.empty())
    return IntegerRange::None("no store to the local can run in this call");
  result.guard = nullptr;
  return result;
}

bool LocalsInCall::ReachableInCall(const Instruction& inst,
                                   const std::vector<UseRanges::GivenParameter>& given) {
  const Block* block = inputs_.def_use.BlockOf(&inst);
  Function* function = block ? inputs_.def_use.FunctionOfBlock(block) : nullptr;
  if (!function) return true;
  const Cfg& cfg = canonical_.CfgOf(*function);
  for (int asked = 0; block && asked < kMaxDominators;
       block = cfg.ImmediateDominator(block), ++asked)
    if (!EdgeCanBeTaken(cfg, block, given)) return false;
  return true;
}

// False when the edge into `block` (its only way in) reads a comparison that no values
// in this call's ranges satisfy.
bool LocalsInCall::EdgeCanBeTaken(const Cfg& cfg, const Block* block,
                                  const std::vector<UseRanges::GivenParameter>& given) {
  for (const GuardCondition& condition : conditions_.Into(cfg, block)) {
    // Each comparison is read twice (x < y, and its mirror y > x): decided once.
    if (condition.kind != GuardCondition::Kind::kCompare || !condition.compare ||
        !condition.defined_above.empty() || BinaryOpView(*condition.compare).left() != condition.x)
      continue;
    IntegerRange x = Reinterpret(rules_.at_uses.RangeAt(condition.x, *condition.compare, &given),
                                 condition.is_signed);
    IntegerRange y = Reinterpret(rules_.at_uses.RangeAt(condition.y, *condition.compare, &given),
                                 condition.is_signed);
    if (x.valid && y.valid && !CanHold(x, condition.relation, y)) return false;
  }
  return true;
}

}  // namespace glint::spirv
