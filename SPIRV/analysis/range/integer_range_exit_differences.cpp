// Exit differences (full mode): `bound - counter` after a loop that steps the counter up
// while `counter + k < bound` holds at its top, the vectorized loop and its remainder:
// `for (; z + 3 < c; z += 4) {...}  int remain = c - z;` leaves remain at most 3, whatever
// c is, so `for (z4 = 0; z4 < remain; z4++) tmp[z4]` indexes tmp[4] in bounds.
//
// The shape (LoopShapes::OffsetExitCounterOf, loop_exit_counters.cpp): a natural loop
// tested at its top on `z + k < c` (k a constant >= 0, in the comparison's reading R)
// whose one store of the local z in the loop steps it by a constant s > 0 once per
// iteration; the loop's merge block is entered only from the test (no break), and it
// dominates the subtraction; the subtraction's operands are c and z as the test read
// them (the same value, and the same version of z: nothing stores z after the loop
// before it); c is one value during the loop (defined outside it, or one value for the
// whole invocation). z0 is the range of what is stored into z before the loop.
//
// What it proves, in R: c - z lies in [min(k + 1 - s, c.min - z0.max), k].
// Why, when s <= k + 1, z0.max + k fits R and no test wraps (below):
//   - every test compares z + k exactly, so the exit edge means z + k >= c, and c - z <= k;
//   - leaving after at least one iteration, z = z' + s where the test held on z':
//     z' + k < c, so c - z >= k + 1 - s; leaving at once, z = z0, and c - z0 >= c.min -
//     z0.max;
//   - the lower end must fit R (else no range: c - z may wrap), the upper is k.
// No test wraps: the first compares z0 + k, which fits. A later z is z' + s with
// z' + k <= c - 1, so z + k <= c.max - 1 + s, which fits when c.max + s - 1 <= R's top;
// or, when z0 is one value and R's top - k - z0 is a multiple of s, every z is z0 plus
// a multiple of s, the largest below top - k is at most top - k - s, and the next is at
// most top - k (the usual `z + 3 < c; z += 4` from 0: 2^31 - 4 is a multiple of 4).
//
// Refuses (the subtraction keeps its own range): any other shape, a test that reads z
// through a bitcast, or an `<=` test (not matched), a step above k + 1, and the cases
// where a test or the difference may wrap.
#include "SPIRV/analysis/range/integer_range_exit_differences.h"

#include <algorithm>
#include <string>

#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/analysis/range/local_definitions.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

IntegerRange ExitDifferences::ExitDifference(const Instruction& sub, IntegerRange own) {
  bool sub_signed = false;
  if (!Full() || sub.opcode != spv::OpISub ||
      !inputs_.def_use.IsInt32Type(sub.type_id, &sub_signed))
    return own;
  BinaryOpView operands(sub);
  const Instruction* counter_load = inputs_.def_use.Definition(operands.right());
  if (!counter_load || counter_load->opcode != spv::OpLoad) return own;
  const Block* sub_block = inputs_.def_use.BlockOf(&sub);
  Function* function = sub_block ? inputs_.def_use.FunctionOfBlock(sub_block) : nullptr;
  if (!function) return own;
  const Cfg& cfg = canonical_.CfgOf(*function);
  auto [first, last] = CountedLoopsOf(*function).equal_range(LoadView(*counter_load).pointer());
  for (auto entry = first; entry != last; ++entry) {
    const NaturalLoop& loop = *entry->second;
    if (loop.blocks.count(sub_block)) continue;
    const ExitCounter& counter = inputs_.loops.OffsetExitCounterOf(cfg, loop);
    // The exit edge is the merge block's only way in, and it dominates the subtraction.
    const Block* merge = cfg.BlockById(cfg.MergeTarget(loop.header));
    if (!merge || cfg.Predecessors(merge).size() != 1 ||
        !loop.blocks.count(cfg.Predecessors(merge)[0]) || !cfg.Dominates(merge, sub_block))
      continue;
    // The subtraction reads what the test read: the same z and the same c.
    uint32_t bound = Canonical(counter.bound);
    if (!rules_.ordered_differences.SameValue(Canonical(operands.right()),
                                              Canonical(counter.test_load->result_id), 0) ||
        !rules_.ordered_differences.SameValue(Canonical(operands.left()), bound, 0))
      continue;
    const Instruction* bound_def = inputs_.def_use.Definition(bound);
    const Block* bound_block = bound_def ? inputs_.def_use.BlockOf(bound_def) : nullptr;
    // c is one value during the loop: defined outside it, or a load of what no
    // invocation writes.
    if (bound_block && loop.blocks.count(bound_block) &&
        canonical_.ImmutableLoad(*bound_def) != bound)
      continue;
    // z0: what is stored into z before the loop (the loop's one store is its step).
    const LocalDefinitions* local = local_definitions_.Of(*counter.test_load);
    if (!local || !local->builtin_parts.empty() || !local->composite_parts.empty()) continue;
    const bool reading = counter.is_signed;
    IntegerRange start;
    bool known = true;
    for (size_t i = 0; i < local->values.size() && known; ++i) {
      const Instruction* store = local->stores[i];
      if (store && loop.blocks.count(inputs_.def_use.BlockOf(store))) {
        known = store == counter.update;
        continue;
      }
      IntegerRange stored =
          Reinterpret(rules_.locals.StoredRange(local->values[i], store), reading);
      known = stored.valid;
      if (known) start = Hull(start, stored, reading);
    }
    for (const CarriedUpdate& update : local->carried)
      known = known && update.store == counter.update;
    if (!known || !start.valid) continue;
    const int64_t k = counter.test_offset, step = counter.step;
    const int64_t top = TypeMax(reading), bottom = TypeMin(reading);
    if (k < 0 || step > k + 1 || start.max + k > top) continue;
    IntegerRange c = Reinterpret(RangeOf(counter.bound), reading);
    const int64_t c_min = c.valid ? c.min : bottom, c_max = c.valid ? c.max : top;
    const bool aligned = start.min == start.max && (top - k - start.min) % step == 0;
    if (c_max - 1 + step > top && !aligned) continue;
    const int64_t lower = std::min(k + 1 - step, c_min - start.max);
    if (lower < bottom) continue;
    IntegerRange exit = Reinterpret(IntegerRange::Of(reading, lower, k), sub_signed);
    if (exit.min == TypeMin(sub_signed) && exit.max == TypeMax(sub_signed)) return own;
    return Meet(own, exit, sub_signed);
  }
  return own;
}

const ExitDifferences::LoopsByCounter& ExitDifferences::CountedLoopsOf(Function& function) {
  auto found = counted_loops_.find(&function);
  if (found != counted_loops_.end()) return found->second;
  LoopsByCounter counted;
  std::string refused;
  const Cfg& cfg = canonical_.CfgOf(function);
  for (const NaturalLoop& loop : inputs_.loops.NaturalLoopsOf(function, &refused)) {
    const ExitCounter& counter = inputs_.loops.OffsetExitCounterOf(cfg, loop);
    if (counter.ok && !counter.reinterpreted && counter.relation == Relation::kLess &&
        counter.step > 0)
      counted.emplace(counter.variable, &loop);
  }
  return counted_loops_.emplace(&function, std::move(counted)).first->second;
}

}  // namespace glint::spirv
