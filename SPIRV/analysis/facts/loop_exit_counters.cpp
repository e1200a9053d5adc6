// Exit counters: the loops whose iterations a counter tested at the top bounds, in any
// of the shapes glslang gives `while (j < n) { ...; j++; }`, `for (...; j < n; j += 2)`
// with a bound that is not a constant, or `for (...; i < 8; ...) { ...; j++; }` tested
// on j. Found from the code's shape alone; the range analysis supplies the ranges
// (integer_range_trip_counts.cpp).
//
// The shape, for a natural loop with header H (LoopShapes::NaturalLoopsOf):
//   - the test T is H itself or H's only successor (whose only predecessor is H), and
//     ends with OpBranchConditional on an ordering comparison (<, <=, >, >=) whose one
//     target is H's merge block and whose other target is in the loop; neither H nor T
//     stores to memory (so every store in the loop runs only after a test that held);
//   - one side of the comparison is an OpLoad, in H or T, of a Function variable j of
//     the comparison's 32-bit integer type whose every use is a load or a store, or an
//     OpBitcast of such a load of a 32-bit integer of the other signedness (`uint(j) < n`
//     with j an int: the argument below then runs in the comparison's reading, since
//     adding c changes the bits the same way in both);
//   - exactly one store of j, U, lies in the loop; U's block is neither H nor T, is in
//     no loop nested inside this one, and dominates every block that branches back to
//     H; U stores `x + c`, `c + x` or `x - c` where x is a load of j in U's block
//     before U and c a non-zero constant (a stepped counter: c any value).
//
// Why the iterations are bounded (the analysis' half; the shape is what makes it hold):
// let j_k be j's value at the k-th arrival at H. No store in H or T and U the only store
// in the loop, so T's load reads j_k. Every back edge is reached through U's block, which
// runs U once per iteration (it is in no nested loop, so no cycle reaches it twice
// without passing H), and x reads j_k (no store of j between H and U), so
// j_(k+1) = j_k + c exactly as long as j_k + c does not wrap. The body runs only when the
// test holds: for c > 0 and "j < b" (or <=), j_k <= B := b.max - 1 (b.max); when
// B + c fits the type no step wraps, so j_k = j_0 + k*c and the body runs at most
// (B - j_0.min) / c + 1 times per entry of the loop (0 when B < j_0.min). Decreasing
// counters mirror this with "j > b" / "j >= b".
//
// OffsetExitCounterOf also takes a test of the counter plus a constant (`z + 3 < n`):
// the shape is the same, and what it bounds is left to its user
// (integer_range_exit_differences.cpp).
//
// Refuses, naming the first part that differs.
#include "SPIRV/analysis/facts/loop_shapes.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

namespace {

const Instruction* Terminator(const Block& block) {
  return block.instructions.empty() ? nullptr : &block.instructions.back();
}

bool StoresToMemory(const Block& block) {
  for (const Instruction& inst : block.instructions)
    if (inst.opcode == spv::OpStore) return true;
  return false;
}

}  // namespace

const ExitCounter& LoopShapes::ExitCounterOf(const Cfg& cfg, const NaturalLoop& loop) {
  auto found = exit_counters_.find(loop.header);
  if (found == exit_counters_.end())
    found = exit_counters_.emplace(loop.header, MatchExitCounter(cfg, loop, false)).first;
  return found->second;
}

const ExitCounter& LoopShapes::SteppedCounterOf(const Cfg& cfg, const NaturalLoop& loop) {
  auto found = stepped_counters_.find(loop.header);
  if (found == stepped_counters_.end())
    found = stepped_counters_.emplace(loop.header, MatchExitCounter(cfg, loop, true)).first;
  return found->second;
}

const ExitCounter& LoopShapes::OffsetExitCounterOf(const Cfg& cfg, const NaturalLoop& loop) {
  auto found = offset_counters_.find(loop.header);
  if (found == offset_counters_.end())
    found = offset_counters_.emplace(loop.header, MatchExitCounter(cfg, loop, false, true)).first;
  return found->second;
}

ExitCounter LoopShapes::MatchExitCounter(const Cfg& cfg, const NaturalLoop& loop, bool any_step,
                                         bool offset_side) {
  ExitCounter counter;
  const Block* header = loop.header;
  const Block* test = header;
  const Instruction* end = Terminator(*header);
  if (end && end->opcode == spv::OpBranch && cfg.Successors(header).size() == 1) {
    test = cfg.Successors(header)[0];
    if (!loop.blocks.count(test) || cfg.Predecessors(test).size() != 1) test = nullptr;
  }
  end = test ? Terminator(*test) : nullptr;
  if (!end || end->opcode != spv::OpBranchConditional) {
    counter.reason = "loop is not tested at its top";
    return counter;
  }
  if (StoresToMemory(*header) || StoresToMemory(*test)) {
    counter.reason = "loop's test block stores to memory";
    return counter;
  }
  BranchConditionalView branch(*end);
  uint32_t merge = cfg.MergeTarget(header);
  bool exits_on_false = branch.false_label() == merge;
  uint32_t stays = exits_on_false ? branch.true_label() : branch.false_label();
  const Block* stay_block = cfg.BlockById(stays);
  if ((!exits_on_false && branch.true_label() != merge) || !stay_block ||
      !loop.blocks.count(stay_block)) {
    counter.reason = "loop's test does not choose between its merge block and its body";
    return counter;
  }
  const Instruction* comparison = def_use_.Definition(branch.condition());
  bool compare_signed = false;
  Relation relation =
      comparison ? RelationOf(comparison->opcode, &compare_signed) : Relation::kNone;
  if (!IsOrdering(relation) || comparison->words.size() != 2) {
    counter.reason = "loop's test is not <, <=, > or >= between two values";
    return counter;
  }
  if (!exits_on_false) relation = Negate(relation);
  BinaryOpView operands(*comparison);
  // The counter may be either side; the first side that fits wins.
  ExitCounter first;
  for (int side = 0; side < 2; ++side) {
    ExitCounter candidate;
    candidate.is_signed = compare_signed;
    candidate.relation = side == 0 ? relation : Mirror(relation);
    candidate.bound = side == 0 ? operands.right() : operands.left();
    const Instruction* load = def_use_.Definition(side == 0 ? operands.left() : operands.right());
    if (offset_side && load && load->opcode == spv::OpIAdd) {  // `counter + k`, k a constant
      BinaryOpView sum(*load);
      uint64_t bits = 0;
      uint32_t width = 0;
      bool right_constant = def_use_.IntConstant(sum.right(), &bits, nullptr, &width);
      if (!right_constant && !def_use_.IntConstant(sum.left(), &bits, nullptr, &width)) {
        load = nullptr;
      } else {
        candidate.test_offset =
            compare_signed ? int64_t(int32_t(uint32_t(bits))) : int64_t(uint32_t(bits));
        load =
            width == 32 ? def_use_.Definition(right_constant ? sum.left() : sum.right()) : nullptr;
      }
    }
    bool int32_result = false;
    if (load && load->opcode == spv::OpBitcast &&
        def_use_.IsInt32Type(load->type_id, &int32_result)) {
      candidate.reinterpreted = true;  // `uint(j) < n`: compared in the other reading
      load = def_use_.Definition(UnaryOpView(*load).operand());
    }
    const Block* load_block = load ? def_use_.BlockOf(load) : nullptr;
    if (!load || load->opcode != spv::OpLoad || (load_block != header && load_block != test)) {
      candidate.reason = "loop's test does not compare a load of a local made in the test";
    } else {
      candidate.test_load = load;
      candidate.variable = LoadView(*load).pointer();
      candidate.ok = MatchCounterUpdate(cfg, loop, &candidate, any_step);
    }
    if (candidate.ok) return candidate;
    if (side == 0) first = candidate;
  }
  return first;
}

bool LoopShapes::MatchCounterUpdate(const Cfg& cfg, const NaturalLoop& loop, ExitCounter* counter,
                                    bool any_step) {
  const Instruction* var = def_use_.Definition(counter->variable);
  const Instruction* pointer_type = var ? def_use_.Definition(var->type_id) : nullptr;
  bool is_signed = false;
  if (!var || var->opcode != spv::OpVariable ||
      VariableView(*var).storage_class() != spv::StorageClassFunction || !pointer_type ||
      !def_use_.IsInt32Type(TypePointerView(*pointer_type).pointee(), &is_signed) ||
      (is_signed != counter->is_signed && !counter->reinterpreted)) {
    counter->reason = "loop's counter is not a local of the comparison's 32-bit integer type";
    return false;
  }
  std::vector<const Instruction*> stores;
  if (!StoresOf(counter->variable, &stores, &counter->reason)) return false;
  for (const Instruction* store : stores) {
    if (!loop.blocks.count(def_use_.BlockOf(store))) continue;
    if (counter->update) {
      counter->reason = "loop's counter is stored more than once in the loop";
      return false;
    }
    counter->update = store;
  }
  if (!counter->update) {
    counter->reason = "loop's counter is not stored in the loop";
    return false;
  }
  const Block* block = def_use_.BlockOf(counter->update);
  for (const Block* pred : cfg.Predecessors(loop.header)) {
    if (loop.blocks.count(pred) && !cfg.Dominates(block, pred)) {
      counter->reason = "loop's counter is not stepped on every path back to the loop's top";
      return false;
    }
  }
  std::string refused;
  const NaturalLoop* innermost =
      InnermostLoopAround(*def_use_.FunctionOfBlock(block), block, &refused);
  if (!innermost || innermost->header != loop.header) {
    counter->reason = "loop's counter is stepped in a nested loop";
    return false;
  }
  // The update's value: a load of the counter earlier in its block, plus or minus a
  // non-zero constant.
  const Instruction* value = def_use_.Definition(StoreView(*counter->update).object());
  const char* not_stepped = any_step
                                ? "loop's counter is not stepped by adding or subtracting a value"
                                : "loop's counter is not stepped by adding or subtracting a constant";
  if (!value || (value->opcode != spv::OpIAdd && value->opcode != spv::OpISub)) {
    counter->reason = not_stepped;
    return false;
  }
  BinaryOpView step_operands(*value);
  auto loads_counter_before_update = [&](uint32_t id) {
    const Instruction* load = def_use_.Definition(id);
    if (!load || load->opcode != spv::OpLoad || LoadView(*load).pointer() != counter->variable ||
        def_use_.BlockOf(load) != block)
      return false;
    for (const Instruction& inst : block->instructions) {
      if (&inst == load) return true;
      if (&inst == counter->update) return false;
    }
    return false;
  };
  uint32_t step_id = 0;
  if (loads_counter_before_update(step_operands.left()))
    step_id = step_operands.right();
  else if (value->opcode == spv::OpIAdd && loads_counter_before_update(step_operands.right()))
    step_id = step_operands.left();
  counter->step_value = step_id;
  counter->step_subtracts = value->opcode == spv::OpISub;
  uint64_t bits = 0;
  uint32_t width = 0;
  bool constant = step_id && def_use_.IntConstant(step_id, &bits, nullptr, &width) && width == 32;
  if (!constant && !(any_step && step_id)) {
    counter->reason = not_stepped;
    return false;
  }
  if (constant) {
    counter->step = counter->is_signed ? int64_t(int32_t(uint32_t(bits))) : int64_t(bits);
    if (counter->step_subtracts) counter->step = -counter->step;
  }
  if (any_step) return true;  // any step, zero included
  if (counter->step == 0) {
    counter->reason = "loop's counter is stepped by zero";
    return false;
  }
  return true;
}

}  // namespace glint::spirv
