// Counted iterations (full mode): a loop-carried local whose one update runs inside a
// counted for-loop, evaluated once per iteration with the loop's counter at that
// iteration's value, where the interval fixed point (integer_range_fixed_point.cpp) does
// not settle. Binary searches and tree walks take this shape:
//
//   uint ix = 0u;
//   for (uint i = 0u; i < 5u; i++) {
//     uint probe = ix + (16u >> i);
//     if (key >= table[probe - 1u]) ix = probe;   // ix <= 16 + 8 + 4 + 2 + 1 = 31
//   }
//
// The fixed point gives `ix + [1, 16]` every round and widens past the table; the sum
// over the iterations, each with its own step, is 31.
//
// What it proves: let v be the local, U its one update (the only store of v inside the
// natural loop LP, the innermost loop around U), every other store of v ("initial")
// outside LP, and LP a counted for-loop (loop_shapes.h's reference shape) whose counter c
// takes the values c_0, c_1, ..., c_(T-1) (a constant start, step and bound; T at most
// kMaxCountedIterations). Let X_0 be the hull of the initial values and X_(k+1) =
// X_k u W_k, where W_k is U's value evaluated with every load of v in X_k and every
// load of c in LP (before the latch's store of c) at c_k. Then every value v ever holds
// lies in X_T.
//   - At each entry of LP, v holds an initial value: LP is in no other loop (U cannot
//     run again before the entry), or LP's entering block stores v (an initial store).
//   - U's block is in LP and in no loop nested in LP, so one iteration (header to
//     header) runs it at most once. By induction over k: at the start of iteration k,
//     v is in X_k; U is the only store of v in LP, so until U runs v keeps that value.
//   - The loads U's value is computed from ran in iteration k, before U: SSA values
//     defined in LP dominate U (a block of LP that dominates another is passed in every
//     iteration that reaches the other, since the header comes first), and a load of
//     another local reads a store that must lie outside LP or dominate the load (else
//     it may read an earlier iteration's value: refused). So every load of v in the
//     expression read v's value at the start of iteration k (in X_k; a load of v
//     outside LP is refused), and every load of c read c_k (c is stored only in the
//     preheader and at the end of the latch). Hence U writes a value in W_k, and v at
//     the start of iteration k + 1 is in X_k u W_k.
//   - The loop runs at most T iterations per entry, so v stays within X_T, which
//     contains every X_k.
// Guards that dominate U's store and the loads are applied as in the fixed point; the
// interval arithmetic refuses what may wrap.
//
// Uses inside the loop (CountedAtUse, asked by IntegerRangeAnalysis::RangeAt): in
// iteration k the local holds a value of X_k, or U's value of that iteration, so within
// X_(k+1); a load of it that precedes U in every iteration (its block dominates U's, in
// no loop nested in LP) reads X_k. The counter holds c_k and values defined in the
// loop ran in that iteration, as above. So a value at a use in LP lies in the hull over
// k of its evaluation under those substitutions (`t[p - 1u]` with p = ix + (16u >> i):
// at most 30), which RangeAt meets with its ordinary range.
//
// Refuses (the fixed point's refusal stands): more than one update, an update outside
// a counted loop or in a loop nested in it, an initial store inside LP, an entry that
// may carry U's value in, a start that is not one value, more than
// kMaxCountedIterations iterations, and the loads above.
#include "SPIRV/analysis/range/integer_range_counted_iterations.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

// True when `first` runs before `second` wherever `second` runs: same block and earlier,
// or a block that dominates second's.
bool CountedIterations::RunsBefore(const Instruction& first, const Instruction& second) {
  const Block* first_block = inputs_.def_use.BlockOf(&first);
  const Block* second_block = inputs_.def_use.BlockOf(&second);
  Function* function = inputs_.def_use.FunctionOf(&second);
  if (!first_block || !second_block || !function) return false;
  if (first_block == second_block)
    return inputs_.positions.Of(&first) < inputs_.positions.Of(&second);
  return canonical_.CfgOf(*function).Dominates(first_block, second_block);
}

// A load of the counted loop's counter that reads the iteration's value: in the loop,
// not after the latch's store of the counter.
bool CountedIterations::IsIterationCounterLoad(const Instruction& load,
                                               const FixedPointTarget& target) {
  if (load.opcode != spv::OpLoad || LoadView(load).pointer() != target.counter) return false;
  const Block* block = inputs_.def_use.BlockOf(&load);
  if (!block || !target.loop->blocks.count(block)) return false;
  const Instruction* latch_store = target.counter_latch_store;
  return inputs_.def_use.BlockOf(latch_store) != block ||
         inputs_.positions.Of(&load) < inputs_.positions.Of(latch_store);
}

// For a load of a local whose update is `x +/- s` (the widening and the trip counts
// refused it): the same evaluation, as FixedPointLocal runs the fixed point.
IntegerRange CountedIterations::CountedIterationsLocal(const Instruction& load, bool is_signed) {
  FixedPointTarget target;
  if (!rules_.fixed_point.FixedPointTargetOf(load, &target))
    return IntegerRange::None("not counted");
  NestedEvaluations::Scope running = in_progress_.FixedPoint(target.variable);
  if (!running.entered()) return IntegerRange::None("not counted");
  std::optional<IntegerRange> result;
  std::optional<IntegerRange> initial = rules_.fixed_point.InitialValues(&target, is_signed);
  std::string why;
  if (initial && initial->valid) result = Solve(&target, initial, is_signed, &why);
  return result && result->valid ? *result : IntegerRange::None("not counted");
}

// A load of the local that runs before the update in every iteration that runs both:
// its block dominates the update's (or it comes first in the same block) and lies in no
// loop nested in the counted loop, so it runs at most once per iteration, before U.
bool CountedIterations::PrecedesUpdate(const Instruction& load, const FixedPointTarget& target) {
  const Block* block = inputs_.def_use.BlockOf(&load);
  Function* function = inputs_.def_use.FunctionOf(&load);
  if (!target.update || !block || !function || !RunsBefore(load, *target.update)) return false;
  std::string refused;
  // Not in a loop nested inside the counted one.
  const NaturalLoop* innermost = inputs_.loops.InnermostLoopAround(*function, block, &refused);
  return innermost && innermost->header == target.loop->header;
}

// The counted for-loop around `update` (the innermost loop around it, U in no loop nested
// in it), with its counter's values and the counter's store in the loop; false when the
// shape is not this one (`why` set where it names the shape or a budget).
bool CountedIterations::CountedLoopAround(const FixedPointTarget& target, const Instruction& update,
                                          CountedLoop* around, std::string* why) {
  Function* function = inputs_.def_use.FunctionOf(&update);
  const Block* update_block = inputs_.def_use.BlockOf(&update);
  if (!function || !update_block) return false;
  std::string refused;
  // The innermost loop around U; U in no loop nested in it.
  const NaturalLoop* innermost =
      inputs_.loops.InnermostLoopAround(*function, update_block, &refused);
  if (!innermost) return false;
  bool nested_in_other = false;
  for (const NaturalLoop& loop : inputs_.loops.NaturalLoopsOf(*function, &refused))
    if (&loop != innermost && loop.blocks.count(innermost->header)) nested_in_other = true;
  const Cfg& cfg = canonical_.CfgOf(*function);
  const LoopShape* shape = inputs_.loops.ForLoopAt(cfg, innermost->header);
  if (!shape) {
    *why = "the loop around the update is not a counted for-loop";
    return false;
  }
  // Every initial store outside the loop; the loop entered after one, unless it is in
  // no other loop.
  for (const Instruction* store : target.local->stores)
    if (store != &update && store && innermost->blocks.count(inputs_.def_use.BlockOf(store)))
      return false;
  if (nested_in_other) {
    const Block* entering = LoopShapes::EnteringBlock(cfg, *innermost);
    if (!entering) return false;
    bool reset = false;
    for (const Instruction* store : target.local->stores)
      reset |= store && store != &update && inputs_.def_use.BlockOf(store) == entering;
    if (!reset) return false;
  }
  // The counter's values: a constant start, stepped while the normalized test holds.
  IntegerRange start = Convert(RangeOf(shape->init_value), shape->is_signed);
  if (!start.valid || start.min != start.max || shape->step <= 0) return false;
  for (int64_t c = start.min; shape->increasing ? c <= shape->bound : c >= shape->bound;
       c += shape->increasing ? shape->step : -shape->step) {
    if (int64_t(around->values.size()) >= kMaxCountedIterations) {
      *why = "more than kMaxCountedIterations iterations";
      return false;
    }
    around->values.push_back(c);
  }
  std::vector<const Instruction*> counter_stores;
  std::string stores_why;
  if (!inputs_.loops.StoresOf(shape->variable, &counter_stores, &stores_why)) return false;
  const Instruction* latch_store = nullptr;
  for (const Instruction* store : counter_stores)
    if (innermost->blocks.count(inputs_.def_use.BlockOf(store))) latch_store = store;
  if (!latch_store) return false;
  around->loop = innermost;
  around->counter = shape->variable;
  around->latch_store = latch_store;
  return true;
}

std::optional<IntegerRange> CountedIterations::Solve(FixedPointTarget* target,
                                                     const std::optional<IntegerRange>& initial,
                                                     bool is_signed, std::string* why) {
  if (!initial || !initial->valid || target->updates.size() != 1 || !target->updates[0].second) {
    *why = "not one update after initial values";
    return std::nullopt;
  }
  const Instruction& update = *target->updates[0].second;
  CountedLoop around;
  if (!CountedLoopAround(*target, update, &around, why)) return std::nullopt;
  std::vector<int64_t>& values = around.values;
  FixedPointTarget counted;
  counted.variable = target->variable;
  counted.path = target->path;
  counted.local = target->local;
  counted.updates = target->updates;
  counted.counter = around.counter;
  counted.loop = around.loop;
  counted.counter_latch_store = around.latch_store;
  counted.update = &update;
  std::optional<IntegerRange> x = initial;
  std::vector<IntegerRange> after;
  for (int64_t value : values) {
    counted.counter_value = value;
    counted.reaches.clear();  // what reaches the counter is asked again per target
    counted.reach_work = 0;
    std::optional<IntegerRange> step =
        rules_.fixed_point.FixedPointStep(&counted, initial, x, is_signed);
    if (!step || !step->valid) {
      *why = step ? step->reason : "no value";
      return std::nullopt;
    }
    x = Hull(*x, *step, is_signed);
    if (!x->valid) return std::nullopt;
    after.push_back(*x);
  }
  x->guard = nullptr;  // a context-free range names no guard
  if (target->path.empty()) {
    CountedSequence& sequence = counted_sequences_[target->variable];
    sequence.target = counted;
    sequence.values = std::move(values);
    sequence.initial = *initial;
    sequence.after = std::move(after);
  }
  return x;
}

// At a use in the loop (in iteration k): the local holds a value of X(k) or of U's
// value in iteration k, both within X(k + 1), and a load that precedes U in every
// iteration (PrecedesUpdate) reads X(k); the counter holds c_k; values defined in
// the loop ran in iteration k (the same argument as for U's own value, the use in the
// role of U). So the value at the use lies in the hull over k of its evaluation with
// the local's loads in X(k + 1) and the counter's loads at c_k.
IntegerRange CountedIterations::CountedAtUse(uint32_t id, const Instruction& use) {
  const Block* block = inputs_.def_use.BlockOf(&use);
  if (!Full() || counted_sequences_.empty() || !block) return IntegerRange::None("");
  // Most uses lie in no counted loop: ask that before walking the value's operands.
  bool in_counted_loop = false;
  for (const auto& [variable, counted] : counted_sequences_)
    in_counted_loop |= counted.target.loop->blocks.count(block) > 0;
  if (!in_counted_loop) return IntegerRange::None("");
  // A load of a local with a counted sequence in a loop around the use, in id's operands.
  CountedSequence* sequence = nullptr;
  std::vector<uint32_t> work{id};
  std::unordered_set<uint32_t> seen{id};
  while (!work.empty() && !sequence && seen.size() < LocalFixedPoint::kMaxFixedPointNodes) {
    const Instruction* def = inputs_.def_use.Definition(work.back());
    work.pop_back();
    if (!def) continue;
    std::vector<uint32_t> next;
    if (def->opcode == spv::OpLoad) {
      const ValueFlow* flow = canonical_.FlowOf(*def);
      uint32_t variable = 0;
      std::vector<uint32_t> path;
      if (flow && flow->LoadTarget(def, &variable, &path) && path.empty()) {
        auto found = counted_sequences_.find(variable);
        if (found != counted_sequences_.end() && found->second.target.loop->blocks.count(block)) {
          sequence = &found->second;
          break;
        }
      }
      if (const LocalDefinitions* local = local_definitions_.Of(*def))
        for (const auto& [value, store] : StoredValues(*local)) next.push_back(value);
    } else if (FixedPointOp(*def)) {
      next = evaluator_.Dependencies(*def).ToVector();
    }
    for (uint32_t operand : next)
      if (seen.insert(operand).second) work.push_back(operand);
  }
  if (!sequence) return IntegerRange::None("");
  FixedPointTarget target = sequence->target;
  std::optional<IntegerRange> hull;
  for (size_t k = 0; k < sequence->values.size(); ++k) {
    target.counter_value = sequence->values[k];
    target.reaches.clear();
    target.reach_work = 0;
    target.work = 0;
    target.x_before = k == 0 ? sequence->initial : sequence->after[k - 1];
    LocalFixedPoint::RangeCache cache;
    std::optional<IntegerRange> here = rules_.fixed_point.EvalUnder(
        id, &target, sequence->after[k], rules_.facts.FactsAt(use), &cache);
    if (!here || !here->valid) return IntegerRange::None("");
    hull = hull ? Hull(*hull, *here, here->is_signed) : *here;
  }
  return hull ? *hull : IntegerRange::None("");
}

}  // namespace glint::spirv
