// Loop-carried locals with general updates (full mode): an interval fixed point over
// the stores that reach a load, for cycles the one-step widening of `x +/- s`
// (integer_range_loop_locals.cpp) does not cover: `n = (n + 1u) / 2u`, `i = i * 2u`
// under a guard, or locals that feed each other (`out = (in + 1u) / 2u; in = out;`).
//
// Terms. L is a load of a local v (one variable element); D is the set of stores (and
// the initializer) that may reach L (integer_range_locals.cpp). A "cycle load" is a
// load of the same element that reads only from stores in D. A stored value is an
// "update" when its expression reaches a cycle load, through integer operators
// (kFixedPointOps) and through loads of other locals (then through every value stored
// where those read); the other values in D are "initial".
//
// What it proves: let F(X) be the hull of the initial values' ranges and of every
// update evaluated with each cycle load in X (met with the guards that dominate that
// load), every other leaf at its context-free range (met with the guards that dominate
// the store being evaluated), and loads of other locals as the union of their stored
// values evaluated the same way. If F(X) lies within X, every value any store of D
// ever writes lies in X, so L does. By induction over time: an initial store writes a
// value within its (sound) range, inside F(X) and so inside X; an update's cycle loads
// read values some store of D wrote earlier (they read only from D), within X by the
// induction hypothesis, and the guards that dominate a load hold for the value it
// read; interval arithmetic is sound and refuses what may wrap (Checked), so the
// update writes a value within F(X), within X. Loads of other locals read values
// stored earlier too, evaluated under the same hypothesis.
//
// Method: X0 is the hull of the initial values, X(k+1) = X(k) u F(X(k)), for at most
// kMaxFixedPointRounds rounds; a round that adds nothing has found F(X) within X. If
// the rounds run out, each end that still moved is widened to the type's bound and
// F(X) within X is checked once more: only a checked interval is a proof. A checked X
// is then narrowed to F(X) while F(F(X)) stays within F(X) (each step is checked
// again, so no monotonicity argument is needed).
//
// Refuses, naming why: an update that reads a local whose own values reach a second
// cycle ("... nested cycle"), an operator outside kFixedPointOps on the way to a cycle
// load (its value falls back to the ordinary evaluation, which meets the cycle and
// refuses), a leaf or initial value without a range, an interval that wraps, a widened
// interval the updates leave ("did not settle in kMaxFixedPointRounds (8) rounds, and
// the widened interval is not kept by the updates"), more than kMaxFixedPointNodes
// values per evaluation (a budget that names itself), and a fixed point asked again
// for the same variable while one is running (guards read on the way may ask for it).
#include "SPIRV/analysis/range/integer_range_fixed_point.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

namespace {

const char kNotSettled[] =
    "local is updated from its own value in a loop: its interval did not settle in "
    "kMaxFixedPointRounds (8) rounds, and the widened interval is not kept by the updates";
const char kCountedOutside[] =
    "loop-carried local: counted iterations read it outside the counted loop";
const char kCountedStale[] =
    "loop-carried local: counted iterations read a local whose store in the loop does not "
    "precede the read in every iteration";
const char kBudget[] =
    "loop-carried local: fixed point evaluates more than kMaxFixedPointNodes (256) values";

// Hull of two optional ranges (nullopt: no value yet); an invalid one wins.
std::optional<IntegerRange> Hull(const std::optional<IntegerRange>& a,
                                 const std::optional<IntegerRange>& b) {
  if (!a) return b;
  if (!b) return a;
  if (!a->valid) return a;
  if (!b->valid) return b;
  return IntegerRange::Of(a->is_signed, std::min(a->min, b->min), std::max(a->max, b->max));
}

bool Within(const std::optional<IntegerRange>& inner, const std::optional<IntegerRange>& outer) {
  if (!inner) return true;
  return outer && inner->valid && outer->valid && inner->min >= outer->min &&
         inner->max <= outer->max;
}

}  // namespace

// The operators an update may go through on its way to a cycle load: those whose
// ComputeScalar reads its operands only through Operand(). The integer binary operators
// come from the one table (BinaryRuleOf); OR and XOR are left out, as when the rule was
// written: RandomGeneralUpdates does not generate them, so they are not checked here.
bool FixedPointOp(const Instruction& def) {
  switch (BinaryRuleOf(def.opcode)) {
    case BinaryRule::kArithmetic:
    case BinaryRule::kAnd:
      return true;
    case BinaryRule::kOrXor:
      return false;
    case BinaryRule::kNone:
      break;
  }
  switch (def.opcode) {
    case spv::OpCopyObject:
    case spv::OpBitcast:
    case spv::OpSelect:
    case spv::OpExtInst:
      return true;
    default:
      return false;
  }
}

// True when `load` reads the element `local` describes and only from its stores.
bool LocalFixedPoint::IsCycleLoad(const Instruction& load, const FixedPointTarget& target) {
  const ValueFlow* flow = load.opcode == spv::OpLoad ? canonical_.FlowOf(load) : nullptr;
  uint32_t variable = 0;
  std::vector<uint32_t> path;
  if (!flow || !flow->LoadTarget(&load, &variable, &path) || variable != target.variable ||
      path != target.path)
    return false;
  const LocalDefinitions* own = local_definitions_.Of(load);
  if (!own || !own->composite_parts.empty()) return false;
  auto in_target = [&](uint32_t value, const Instruction* store) {
    const LocalDefinitions& d = *target.local;
    for (size_t i = 0; i < d.values.size(); ++i)
      if (d.stores[i] == store && d.values[i] == value) return true;
    for (const CarriedUpdate& update : d.carried)
      if (update.store == store && update.value == value) return true;
    return false;
  };
  for (size_t i = 0; i < own->values.size(); ++i)
    if (!in_target(own->values[i], own->stores[i])) return false;
  for (const CarriedUpdate& update : own->carried)
    if (!in_target(update.value, update.store)) return false;
  for (const auto& part : own->builtin_parts)
    if (std::find(target.local->builtin_parts.begin(), target.local->builtin_parts.end(), part) ==
        target.local->builtin_parts.end())
      return false;
  return true;
}

// The hull of the built-in components stored whole where a load reads (`uvec3 l =
// gl_LocalInvocationID; l.x`); nullopt when there are none.
std::optional<IntegerRange> LocalFixedPoint::BuiltinParts(const LocalDefinitions& local,
                                                          bool is_signed) {
  std::optional<IntegerRange> result;
  for (const auto& [variable, component] : local.builtin_parts) {
    IntegerRange part = rules_.builtins.BuiltinComponent(variable, component, is_signed);
    if (!part.valid) return IntegerRange::None(kStoredPrefix + part.reason);
    result = Hull(result, part);
  }
  return result;
}

// The values stored where a non-cycle load of a local reads (values and updates).
std::vector<std::pair<uint32_t, const Instruction*>> StoredValues(const LocalDefinitions& local) {
  std::vector<std::pair<uint32_t, const Instruction*>> stored;
  for (size_t i = 0; i < local.values.size(); ++i)
    stored.push_back({local.values[i], local.stores[i]});
  for (const CarriedUpdate& update : local.carried) stored.push_back({update.value, update.store});
  return stored;
}

// Whether `id` reaches a cycle load of `target` (memoized in target->reaches). A load
// already on the walk counts as not reaching for now: its value then takes the
// ordinary evaluation, which refuses the cycle it meets (sound, maybe lossy).
bool LocalFixedPoint::ReachesCycle(uint32_t id, FixedPointTarget* target) {
  auto found = target->reaches.find(id);
  if (found != target->reaches.end()) return found->second;
  target->reaches[id] = false;
  if (++target->reach_work > kMaxFixedPointNodes) return false;
  const Instruction* def = inputs_.def_use.Definition(id);
  bool reaches = false;
  if (def && def->opcode == spv::OpLoad &&
      (IsCycleLoad(*def, *target) ||
       (target->counter && rules_.counted.IsIterationCounterLoad(*def, *target)))) {
    reaches = true;
  } else if (const LocalDefinitions* local =
                 def && def->opcode == spv::OpLoad ? local_definitions_.Of(*def) : nullptr) {
    for (const auto& [value, store] : StoredValues(*local)) reaches |= ReachesCycle(value, target);
  } else if (def && FixedPointOp(*def)) {
    for (uint32_t operand : evaluator_.Dependencies(*def)) reaches |= ReachesCycle(operand, target);
  }
  target->reaches[id] = reaches;
  return reaches;
}

// True when a value stored where `load` reads depends on a load of the same element
// that reads only from those stores (a cycle that is not only `x +/- s`).
bool LocalFixedPoint::CycleDependent(const Instruction& load) {
  auto found = cycle_dependent_.find(&load);
  if (found != cycle_dependent_.end()) return found->second;
  cycle_dependent_[&load] = false;
  FixedPointTarget target;
  bool dependent =
      Full() && FixedPointTargetOf(load, &target) && StoresInALoop(load, *target.local);
  if (dependent) {
    dependent = false;
    for (uint32_t value : target.local->values) dependent |= ReachesCycle(value, &target);
  }
  cycle_dependent_[&load] = dependent;
  return dependent;
}

// A value can depend on itself only around a loop: without a store of `local` inside
// one, the values are ordinary (`x = 5u; y = x; x = y + 1u;` reads no cycle), and the
// walk is skipped (this keeps long loop-free functions linear).
bool LocalFixedPoint::StoresInALoop(const Instruction& load, const LocalDefinitions& local) {
  Function* function = inputs_.def_use.FunctionOf(&load);
  if (!function) return false;
  std::string why;
  // No loop, or a back edge to an undeclared loop (`why` set): then let the walk decide.
  if (inputs_.loops.NaturalLoopsOf(*function, &why).empty()) return !why.empty();
  auto in_loop = [&](const Instruction* store) {
    const Block* block = store ? inputs_.def_use.BlockOf(store) : nullptr;
    return block && inputs_.loops.InSomeNaturalLoop(block);
  };
  for (const Instruction* store : local.stores)
    if (in_loop(store)) return true;
  for (const CarriedUpdate& update : local.carried)
    if (in_loop(update.store)) return true;
  return false;
}

bool LocalFixedPoint::FixedPointTargetOf(const Instruction& load, FixedPointTarget* target) {
  const ValueFlow* flow = canonical_.FlowOf(load);
  target->local = local_definitions_.Of(load);
  // Its stored values are the fixed point's walk: a computed vector's component is not one.
  return target->local && target->local->composite_parts.empty() && flow &&
         flow->LoadTarget(&load, &target->variable, &target->path);
}

// `id`'s range when every cycle load reads a value within `x`; `facts` are the guards
// that dominate the store whose value is being evaluated.
std::optional<IntegerRange> LocalFixedPoint::EvalUnder(uint32_t id, FixedPointTarget* target,
                                                       const std::optional<IntegerRange>& x,
                                                       const std::vector<GuardFact>* facts,
                                                       RangeCache* cache) {
  auto cached = cache->find(id);
  if (cached != cache->end()) return cached->second;
  if (++target->work > kMaxFixedPointNodes) return IntegerRange::None(kBudget);
  const Instruction* def = inputs_.def_use.Definition(id);
  std::optional<IntegerRange> result;
  bool is_signed = false;
  if (!def || !inputs_.def_use.IsInt32Type(def->type_id, &is_signed)) {
    result = IntegerRange::None("not a scalar 32-bit integer");
  } else if (!ReachesCycle(id, target)) {
    result = RangeOf(id);
  } else if (def->opcode == spv::OpLoad) {
    result = LoadUnder(*def, target, x);
  } else {
    result = OperatorUnder(*def, is_signed, target, x, facts, cache);
  }
  if (result && result->valid && facts) result = rules_.at_uses.ApplyFacts(id, *result, *facts);
  (*cache)[id] = result;
  return result;
}

// A cycle load reads x (met with the guards that dominate it); a load of another local
// reads one of the values stored where it reads, each evaluated at its store.
std::optional<IntegerRange> LocalFixedPoint::LoadUnder(const Instruction& load,
                                                       FixedPointTarget* target,
                                                       const std::optional<IntegerRange>& x) {
  bool is_signed = false;
  inputs_.def_use.IsInt32Type(load.type_id, &is_signed);
  std::optional<IntegerRange> result;
  const Block* block = inputs_.def_use.BlockOf(&load);
  bool in_loop = target->loop && block && target->loop->blocks.count(block);
  if (target->counter && rules_.counted.IsIterationCounterLoad(load, *target)) {
    result = Convert(IntegerRange::Of(is_signed, target->counter_value, target->counter_value),
                     is_signed);
  } else if (IsCycleLoad(load, *target)) {
    if (target->counter && !in_loop)
      return IntegerRange::None(kCountedOutside);  // may read an earlier entry's last value
    if (target->x_before && rules_.counted.PrecedesUpdate(load, *target))
      result = Convert(*target->x_before, is_signed);
    else if (x)
      result = Convert(*x, is_signed);
  } else {
    if (!target->visiting.insert(&load).second)
      return IntegerRange::None("loop-carried local reads a local that is in a nested cycle");
    const LocalDefinitions& local = *local_definitions_.Of(load);
    result = BuiltinParts(local, is_signed);
    for (const auto& [value, store] : StoredValues(local)) {
      if (target->counter && store && target->loop->blocks.count(inputs_.def_use.BlockOf(store)) &&
          !rules_.counted.RunsBefore(*store, load)) {
        target->visiting.erase(&load);
        return IntegerRange::None(kCountedStale);  // may be an earlier iteration's value
      }
      RangeCache cache;
      std::optional<IntegerRange> stored =
          EvalUnder(value, target, x, store ? rules_.facts.FactsAt(*store) : nullptr, &cache);
      if (stored && stored->valid) stored = Convert(*stored, is_signed);
      result = Hull(result, stored);
    }
    target->visiting.erase(&load);
  }
  if (result && result->valid)
    if (const std::vector<GuardFact>* own = rules_.facts.FactsAt(load))
      result = rules_.at_uses.ApplyFacts(load.result_id, *result, *own);
  return result;
}

// An operator over evaluated operands, by the ordinary rule (ComputeScalar reads them
// through Operand(), which looks in the substituted operands first).
std::optional<IntegerRange> LocalFixedPoint::OperatorUnder(const Instruction& def, bool is_signed,
                                                           FixedPointTarget* target,
                                                           const std::optional<IntegerRange>& x,
                                                           const std::vector<GuardFact>* facts,
                                                           RangeCache* cache) {
  DependencyIds operands = evaluator_.Dependencies(def);
  std::vector<IntegerRange> ranges;
  for (uint32_t operand : operands) {
    std::optional<IntegerRange> range = EvalUnder(operand, target, x, facts, cache);
    if (!range) return std::nullopt;  // no value reaches the operand yet
    ranges.push_back(*range);
  }
  auto substitution = substituted_.Open();
  for (size_t i = 0; i < operands.size(); ++i) substitution.set()[operands[i]] = ranges[i];
  IntegerRange result = evaluator_.ComputeScalar(def, is_signed);
  result.guard = nullptr;
  return result;
}

// F(x): the hull of the initial values and every update evaluated under x.
std::optional<IntegerRange> LocalFixedPoint::FixedPointStep(
    FixedPointTarget* target, const std::optional<IntegerRange>& initial,
    const std::optional<IntegerRange>& x, bool is_signed) {
  std::optional<IntegerRange> result = initial;
  for (const auto& [value, store] : target->updates) {
    RangeCache cache;
    target->work = 0;  // the budget is per evaluation of one update
    std::optional<IntegerRange> stored =
        EvalUnder(value, target, x, store ? rules_.facts.FactsAt(*store) : nullptr, &cache);
    if (stored && !stored->valid) return stored;
    if (stored) stored = Convert(*stored, is_signed);
    result = Hull(result, stored);
    if (result && !result->valid) return result;
  }
  return result;
}

// The hull of the initial values' ranges, each at its store; splits the updates off.
std::optional<IntegerRange> LocalFixedPoint::InitialValues(FixedPointTarget* target,
                                                           bool is_signed) {
  std::optional<IntegerRange> initial = BuiltinParts(*target->local, is_signed);
  if (initial && !initial->valid) return initial;
  for (size_t i = 0; i < target->local->values.size(); ++i) {
    uint32_t value = target->local->values[i];
    const Instruction* store = target->local->stores[i];
    if (ReachesCycle(value, target)) {
      target->updates.push_back({value, store});
      continue;
    }
    IntegerRange stored = Convert(rules_.locals.StoredRange(value, store), is_signed);
    if (!stored.valid) return IntegerRange::None(kStoredPrefix + stored.reason);
    initial = Hull(initial, stored);
  }
  for (const CarriedUpdate& update : target->local->carried)
    target->updates.push_back({update.value, update.store});
  return initial;
}

IntegerRange LocalFixedPoint::FixedPointLocal(const Instruction& load, bool is_signed) {
  FixedPointTarget target;
  if (!FixedPointTargetOf(load, &target)) return IntegerRange::None("local is not followed");
  NestedEvaluations::Scope running = in_progress_.FixedPoint(target.variable);
  if (!running.entered())
    return IntegerRange::None(
        "loop-carried local is asked for again while its fixed point runs (a guard on the "
        "way reads it)");
  return SolveFixedPoint(&target, is_signed);
}

IntegerRange LocalFixedPoint::SolveFixedPoint(FixedPointTarget* target, bool is_signed) {
  std::optional<IntegerRange> initial = InitialValues(target, is_signed);
  if (initial && !initial->valid) return *initial;
  std::optional<IntegerRange> x = initial, previous;
  for (int round = 0; round < kMaxFixedPointRounds; ++round) {
    std::optional<IntegerRange> next = FixedPointStep(target, initial, x, is_signed);
    if (next && !next->valid) return *next;
    if (Within(next, x)) return Narrowed(target, initial, x, is_signed);
    previous = x;
    x = Hull(x, next);
  }
  // Widen every end that still moved to the type's bound, then check it.
  if (!x) return IntegerRange::None(kNotSettled);
  if (!previous || x->max > previous->max) x->max = TypeMax(is_signed);
  if (!previous || x->min < previous->min) x->min = TypeMin(is_signed);
  std::optional<IntegerRange> next = FixedPointStep(target, initial, x, is_signed);
  if (!next || !next->valid || !Within(next, x)) {
    // A counted loop around the update: evaluate it once per iteration instead.
    std::string counted_why;
    std::optional<IntegerRange> counted =
        rules_.counted.Solve(target, initial, is_signed, &counted_why);
    if (counted && counted->valid) return *counted;
  }
  if (next && !next->valid)
    return IntegerRange::None(std::string(kNotSettled) + ": " + next->reason);
  if (!Within(next, x)) return IntegerRange::None(kNotSettled);
  return Narrowed(target, initial, x, is_signed);
}

// A checked x (F(x) within x), narrowed to F(x) while that stays checked.
IntegerRange LocalFixedPoint::Narrowed(FixedPointTarget* target,
                                       const std::optional<IntegerRange>& initial,
                                       std::optional<IntegerRange> x, bool is_signed) {
  for (int step = 0; step < kMaxNarrowings && x; ++step) {
    std::optional<IntegerRange> inner = FixedPointStep(target, initial, x, is_signed);
    if (!inner || !inner->valid) break;
    std::optional<IntegerRange> check = FixedPointStep(target, initial, inner, is_signed);
    if (!Within(check, inner)) break;
    x = inner;
  }
  if (!x) return IntegerRange::None("local holds no value stored in the loop (unreachable)");
  x->guard = nullptr;  // a context-free range names no guard
  return *x;
}

}  // namespace glint::spirv
