// Counters bounded by trip counts (full mode): `int n = -1; for (i ...) for (j ...) {
// n++; a[n]; }` (SaschaWillems' image filters). No guard bounds n, so the one-step
// widening (integer_range_loop_locals.cpp) refuses it; the counted loops around the
// update do bound how often it runs.
//
// What it proves: let n be a scalar local whose stores are one update U, `n = n + s`
// (s a constant; or s + n, n - s) with U's load in U's block before it, and other
// stores ("resets", and the initializer) with values in [r.min, r.max]. Let L1, ..., Lj
// be the loops that contain U's block, innermost first (natural loops of the CFG's
// back edges), each a counted for-loop (its control variable has the reference
// shape: LoopOf) or a loop tested at its top on an exit counter (loop_exit_counters.cpp:
// `while (j < n) { ...; n_update; j++; }`, a bound with a range), with at most T1, ..., Tj
// iterations per entry, and P = T1 * ... * Tj. Lj is the first of them outside which every reset
// lies and which is either in no loop at all or entered only from a block that resets n (else the
// next loop counts). Then between any reset and any later point, U runs at most P times, so n = v0
// + s * k with v0 in [r.min, r.max] and 0 <= k <= P: n lies in [r.min, r.max + s * P] (mirrored for
// s < 0). At U's own load, and at any load of n in U's block before U (it reads the same value),
// the U about to run is not yet counted: k <= P - 1.
//
// Why U runs at most P times between resets: U's block is in L1 and in no deeper loop,
// so one iteration of L1 (header to header) passes it at most once (passing it twice
// would close a cycle inside L1 that avoids L1's header: a deeper loop). L1 runs at
// most T1 iterations per entry (the for-loop's variable is stored only by its
// preheader and its continuing block, starts within its initializer's range, and the
// body runs only while the test holds: LoopRange's values; for an exit counter, the
// body runs at most T1 times, see ExitTripCount, and U's block is reached only through
// a test that held). L(i) is entered at most
// once per iteration of L(i+1) by the same argument (the loops are properly nested,
// consecutive in the list). Lj itself is entered once in all (it is in no loop: a
// second entry would close a cycle around it) or right after a reset. Every reset is
// outside Lj, so none runs while U's count grows. U's load reads the value current at
// U's store (same block, no store between: U is the only store inside the loops), so
// each run adds exactly s; the final bound is checked to fit the type, so none wraps.
//
// Refuses, naming why: another store of n inside the loops, a step that is not a
// constant, U's load outside U's block, an enclosing loop that is neither a counted
// for-loop nor tested on an exit counter ("... an enclosing loop has no trip count"), a back edge
// to a block that is not a declared loop header, a product of trip counts above 2^32 ("trip counts
// multiply past 2^32"), a bound that does not fit the type, Lj entered from a block that
// does not reset n and is in no counted loop.
#include "SPIRV/analysis/range/integer_range_trip_counts.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

namespace {
const char kNoTripCount[] =
    "local is updated from its own value in a loop: an enclosing loop has no trip count (not "
    "counted)";
// An enclosing loop tested on an exit counter whose bound has no range: its reason is
// the root cause (often an input: a buffer value, a specialization constant), so this
// refusal is kept over the widening's.
const char kExitBoundPrefix[] =
    "local is updated from its own value in a loop whose exit test has a bound without a "
    "range: ";
// Shapes this rule does not try; LocalUnion then keeps the widening's refusal.
const char kNotOneUpdate[] =
    "local is updated from its own value in a loop: not one update of a scalar (not counted)";
}  // namespace

// The most iterations one entry of `loop` runs: from its for-loop shape, or else from
// the counter its test reads at the top (ExitTripCount); -1 when it has neither.
int64_t TripCounts::TripCount(const Cfg& cfg, const NaturalLoop& loop, std::string* why) {
  const LoopShape* counted = inputs_.loops.ForLoopAt(cfg, loop.header);
  if (!counted) {
    const ExitCounter& exit = inputs_.loops.ExitCounterOf(cfg, loop);
    return exit.ok ? ExitTripCount(exit, why) : -1;
  }
  const LoopShape& shape = *counted;
  IntegerRange init = Convert(RangeOf(shape.init_value), shape.is_signed);
  if (!init.valid) return -1;
  if (!rules_.loop_variables.LoopRange(shape, init).valid)
    return shape.increasing ? (init.min > shape.bound ? 0 : -1) : (init.max < shape.bound ? 0 : -1);
  int64_t span = shape.increasing ? shape.bound - init.min : init.max - shape.bound;
  return span < 0 ? 0 : span / shape.step + 1;
}

// Iterations of a loop tested on an exit counter (loop_exit_counters.cpp has the proof):
// j_0 ranges over the values that reach the test from outside the loop (its only other
// reaching store is the counter's update), and the body runs while j_k stays within B.
// Everything is in the comparison's reading; a counter the test reads through a bitcast
// has its start reinterpreted bit for bit (an int -4 is the u32 4294967292).
int64_t TripCounts::ExitTripCount(const ExitCounter& counter, std::string* why) {
  const LocalDefinitions* local = local_definitions_.Of(*counter.test_load);
  if (!local || local->carried.size() != 1 || local->carried[0].store != counter.update ||
      !local->composite_parts.empty() || !local->builtin_parts.empty())
    return -1;
  bool is_signed = counter.is_signed;
  IntegerRange start = IntegerRange::None("no value reaches the test from outside the loop");
  for (size_t i = 0; i < local->values.size(); ++i) {
    IntegerRange stored = rules_.locals.StoredRange(local->values[i], local->stores[i]);
    IntegerRange range =
        counter.reinterpreted ? Reinterpret(stored, is_signed) : Convert(stored, is_signed);
    if (!range.valid) return -1;
    start = Hull(start, range, is_signed);
  }
  IntegerRange bound = Convert(RangeOf(counter.bound), is_signed);
  if (!bound.valid && why && !bound.reason.empty()) *why = kExitBoundPrefix + bound.reason;
  if (!start.valid || !bound.valid) return -1;
  bool increasing = counter.step > 0;
  int64_t last = 0;  // the last value the body runs with
  if (increasing &&
      (counter.relation == Relation::kLess || counter.relation == Relation::kLessEqual))
    last = counter.relation == Relation::kLess ? bound.max - 1 : bound.max;
  else if (!increasing &&
           (counter.relation == Relation::kGreater || counter.relation == Relation::kGreaterEqual))
    last = counter.relation == Relation::kGreater ? bound.min + 1 : bound.min;
  else
    return -1;  // the test does not stop the counter's direction
  if (!Fits(last + counter.step, is_signed)) return -1;  // a step could wrap
  int64_t span = increasing ? last - start.min : start.max - last;
  return span < 0 ? 0 : span / std::abs(counter.step) + 1;
}

// The counted update U among the variable's stores, with the resets' range; false
// (with why) when the stores are not one update plus resets outside the loops.
bool TripCounts::CountedStores(const CarriedUpdate& update, uint32_t variable,
                               CountedLocal* counted, std::string* why) {
  std::vector<const Instruction*> stores;
  if (!inputs_.loops.StoresOf(variable, &stores, why)) return false;
  const Instruction* loaded = inputs_.def_use.Definition(update.loaded);
  if (!loaded || inputs_.def_use.BlockOf(loaded) != inputs_.def_use.BlockOf(update.store) ||
      inputs_.positions.Of(loaded) > inputs_.positions.Of(update.store)) {
    *why = "local is updated from its own value in a loop: the update's load is not in its block";
    return false;
  }
  int64_t step = 0;
  if (!canonical_.ConstantValue(update.step, &step)) {
    *why =
        "local is updated from its own value in a loop: the step is not a constant (not counted)";
    return false;
  }
  counted->step = update.subtract ? -step : step;
  for (const Instruction* store : stores)
    if (store != update.store) counted->resets.push_back(store);
  return true;
}

// The hull of every reset's value (ranged at its store) and of the initializer.
IntegerRange TripCounts::ResetRange(const CountedLocal& counted, uint32_t variable,
                                    bool is_signed) {
  std::vector<std::pair<uint32_t, const Instruction*>> values;
  for (const Instruction* store : counted.resets)
    values.push_back({StoreView(*store).object(), store});
  const Instruction* var = inputs_.def_use.Definition(variable);
  if (var && VariableView(*var).has_initializer())
    values.push_back({VariableView(*var).initializer(), nullptr});
  IntegerRange hull = IntegerRange::None("local is updated from its own value in a loop: no reset");
  for (const auto& [value, store] : values) {
    IntegerRange range = Convert(rules_.locals.StoredRange(value, store), is_signed);
    if (!range.valid)
      return IntegerRange::None("a value stored to the local has no range: " + range.reason);
    hull = Hull(hull, range, is_signed);
  }
  return hull;
}

// P: the product of the trip counts of the loops around U up to the first one that
// every reset lies outside (see the file comment); -1 with why when refused.
int64_t TripCounts::UpdateRuns(const Instruction& store, const CountedLocal& counted,
                               std::string* why) {
  Function* function = inputs_.def_use.FunctionOf(&store);
  const Block* block = inputs_.def_use.BlockOf(&store);
  if (!function || !block) return -1;
  const Cfg& cfg = canonical_.CfgOf(*function);
  std::vector<const NaturalLoop*> around;
  std::string refused;
  for (const NaturalLoop& loop : inputs_.loops.NaturalLoopsOf(*function, &refused))
    if (loop.blocks.count(block)) around.push_back(&loop);
  if (!refused.empty()) {
    *why = "local is updated from its own value in a loop: " + refused;
    return -1;
  }
  std::sort(around.begin(), around.end(), [](const NaturalLoop* a, const NaturalLoop* b) {
    return a->blocks.size() < b->blocks.size();  // nested loops: the inner one is smaller
  });
  int64_t runs = 1;
  for (size_t i = 0; i < around.size(); ++i) {
    std::string input;  // the loop's bound has no range: the root cause to name
    int64_t trips = TripCount(cfg, *around[i], &input);
    if (trips < 0) {
      *why = input.empty() ? kNoTripCount : input;
      return -1;
    }
    runs = BoundedProduct(runs, trips);
    if (runs < 0) {
      *why = "local is updated from its own value in a loop: trip counts multiply past 2^32";
      return -1;
    }
    bool outside = true;
    for (const Instruction* reset : counted.resets)
      outside &= !around[i]->blocks.count(inputs_.def_use.BlockOf(reset));
    if (!outside) continue;
    // Entered again without a reset: count the enclosing loop's iterations too.
    if (i + 1 == around.size() || EnteredAfterReset(cfg, *around[i], counted)) return runs;
  }
  *why = around.empty()
             ? "local is updated from its own value outside any loop (not counted)"
             : "local is updated from its own value in a loop: it is reset inside the loops";
  return -1;
}

// True when the loop's only entering block (its header's one predecessor outside it)
// stores a reset.
bool TripCounts::EnteredAfterReset(const Cfg& cfg, const NaturalLoop& loop,
                                   const CountedLocal& counted) {
  const Block* entering = LoopShapes::EnteringBlock(cfg, loop);
  if (!entering) return false;
  for (const Instruction* reset : counted.resets)
    if (inputs_.def_use.BlockOf(reset) == entering) return true;
  return false;
}

IntegerRange TripCounts::CountedUpdates(const Instruction& load, const LocalDefinitions& local,
                                        bool is_signed) {
  uint32_t variable = 0;
  std::vector<uint32_t> path;
  const ValueFlow* flow = canonical_.FlowOf(load);
  if (local.carried.size() != 1 || !flow || !flow->LoadTarget(&load, &variable, &path) ||
      !path.empty())
    return IntegerRange::None(kNotOneUpdate);
  const CarriedUpdate& update = local.carried[0];
  CountedLocal counted;
  std::string why;
  if (!CountedStores(update, variable, &counted, &why)) return IntegerRange::None(why);
  int64_t runs = UpdateRuns(*update.store, counted, &why);
  if (runs < 0) return IntegerRange::None(why);
  IntegerRange reset = ResetRange(counted, variable, is_signed);
  if (!reset.valid) return reset;
  // A load in U's block before U reads what U's own load reads (no store of n lies
  // between them: U is the only store in the loops): the run about to happen is not yet
  // counted.
  bool before_update = update.loaded == load.result_id ||
                       (inputs_.def_use.BlockOf(&load) == inputs_.def_use.BlockOf(update.store) &&
                        inputs_.positions.Of(&load) < inputs_.positions.Of(update.store));
  if (before_update && runs > 0) --runs;
  if (runs > 0 && std::abs(counted.step) > (int64_t(1) << 33) / runs)
    return IntegerRange::None(
        "local is updated from its own value in a loop: step times trip counts leaves the type");
  int64_t lo = reset.min, hi = reset.max;
  (counted.step >= 0 ? hi : lo) += counted.step * runs;
  return Checked(is_signed, lo, hi, "counter bounded by trip counts");
}

}  // namespace glint::spirv
