// Loops whose bounds share a per-invocation offset (offset_shared_loops.h).
//
// The shape. A natural loop L with a stepped counter (loop_shapes.h, SteppedCounterOf):
// its top test T compares a load of a Function variable t with a bound b by an ordering
// comparison (<, <=, >, >=, signed or unsigned, t and b of the comparison's signedness,
// not reinterpreted), and exactly one store U in L writes `t + s` or `t - s` (s any
// value), once on every iteration. Besides:
//   - L's one entering block E stores the start value a to t, and no store of t follows
//     it in E;
//   - a and b are sums: each is split into addends through OpIAdd (up to 16 addends),
//     looking through loads of locals written once (below); some addend X of a and some
//     addend of b are the same value in every invocation (the same key, below). The
//     other addends of a sum to A, those of b to B;
//   - the comparison keeps t on the left: "the body runs while t REL b" (the exit
//     counter's normalized relation).
//
// Same value: two addends have the same key when they are the same SSA value defined
// in a block in no loop of the function (it is defined once per call, before L: its
// definition dominates E's store, and a block outside L cannot run while an invocation
// stays in L), a function parameter (fixed for a call), a constant, or a load of the same Input variable through the same
// constant indices (inputs do not change). A load of a Function local passes to the
// value stored when the local's only store is in a block in no loop and dominates the
// load (every invocation that loads it ran that store once, and nothing else writes it:
// all its uses are loads and stores).
//
// The rule. If A, B and s are uniform at T (the solver joins their levels) and, for
// every value they may take (bounds from the range analysis, where each is read; T_min
// and T_max the limits of the comparison's type):
//   increasing (<, <=): s adds (s >= 0 when added, s <= 0 when subtracted), and
//     A + X, B + X and (B + X - [1 if <]) + s all lie in [T_min, T_max];
//   decreasing (>, >=): mirrored, (B + X + [1 if >]) - |s| >= T_min;
// then every invocation that evaluates T at its k-th iteration gets the same answer.
//
// Proof. Integer addition in SPIR-V wraps modulo 2^32, and wrapping is a ring
// homomorphism, so whatever the order of the additions: t_k == A_k + X (mod 2^32) where
// A_0 = A and A_(k+1) = A_k + s_k (U runs once per iteration, and t is written nowhere
// else in L: loop_exit_counters.cpp), and b == B + X (mod 2^32). When the mathematical
// values A_k + X and B + X both lie in the comparison's type, they are the values the
// comparison reads, and "A_k + X REL B + X" is "A_k REL B" - the same in every invocation
// whose A_k and B agree. They do lie there: A_0 + X and B + X by the bounds; and for
// the increasing case, if the test passed at k, A_k + X <= B + X - [1 if <], so
// A_(k+1) + X lies between A_0 + X (the step only adds) and B + X - [1 if <] + s <=
// T_max. The decreasing case mirrors this. By induction on k, with A, B and s uniform
// (the same A_k in every invocation that reached iteration k together), every test
// decides alike: the loop's exit is uniform although t and b are not.
//
// Near misses it refuses: offsets that are not the same value (`start + tid` and
// `end + 2 * tid`), a start or bound that may wrap (a push constant plus tid can exceed
// 2^32 - 1, and invocations then leave at different iterations), a step that may be
// negative in an increasing loop, a counter stored twice in the loop.
#include "SPIRV/analysis/uniformity/offset_shared_loops.h"

#include <algorithm>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {
namespace uniformity_detail {

namespace {

constexpr size_t kAddendBudget = 16;
constexpr int kDepthBudget = 8;

const Instruction* Terminator(const Block& block) {
  return block.instructions.empty() ? nullptr : &block.instructions.back();
}

}  // namespace

OffsetSharedLoops::OffsetSharedLoops(const DefUse& def_use, CfgOf cfg_of,
                                     std::function<LoopShapes&()> loops, ValueBoundsQuery bounds)
    : def_use_(def_use),
      cfg_of_(std::move(cfg_of)),
      loops_(std::move(loops)),
      bounds_(std::move(bounds)) {}

bool OffsetSharedLoops::MayApply(spv::Op opcode) {
  bool is_signed = false;
  return IsOrdering(RelationOf(opcode, &is_signed));
}

const OffsetSharedLoops::Test& OffsetSharedLoops::Of(const Instruction& comparison) {
  auto found = found_.find(&comparison);
  if (found == found_.end()) found = found_.emplace(&comparison, Find(comparison)).first;
  return found->second;
}

bool OffsetSharedLoops::InAnyLoop(const Block* block) {
  if (ignore_loops_) return false;
  Function* function = def_use_.FunctionOfBlock(block);
  if (!function) return true;
  std::string why;
  const std::vector<NaturalLoop>& loops = loops_().NaturalLoopsOf(*function, &why);
  if (!why.empty()) return true;  // loops refused: assume the worst
  for (const NaturalLoop& loop : loops)
    if (loop.blocks.count(block)) return true;
  return false;
}

std::string OffsetSharedLoops::InputKey(uint32_t pointer) const {
  std::string key;
  const Instruction* inst = def_use_.Definition(pointer);
  while (inst && inst->opcode == spv::OpAccessChain) {
    AccessChainView chain(*inst);
    std::string indices;
    for (size_t k = 0; k < chain.index_count(); ++k) {
      uint64_t value = 0;
      if (!def_use_.IntConstant(chain.index(k), &value)) return "";
      indices += "." + std::to_string(value);
    }
    key = indices + key;
    inst = def_use_.Definition(chain.base());
  }
  if (!inst || inst->opcode != spv::OpVariable ||
      VariableView(*inst).storage_class() != spv::StorageClassInput)
    return "";
  return "input " + std::to_string(inst->result_id) + key;
}

OffsetSharedLoops::Addend OffsetSharedLoops::Resolve(uint32_t value, const Instruction* reader,
                                                     int depth) {
  Addend addend{value, "", reader, value};
  const Instruction* def = def_use_.Definition(value);
  if (!def) return addend;
  uint64_t constant = 0;
  if (def_use_.IntConstant(value, &constant) || def->opcode == spv::OpFunctionParameter) {
    addend.key = "value " + std::to_string(value);
    return addend;
  }
  const Block* block = def_use_.BlockOf(def);
  if (def->opcode == spv::OpLoad && depth < kDepthBudget) {
    uint32_t pointer = LoadView(*def).pointer();
    std::string input = InputKey(pointer);
    if (!input.empty()) {
      addend.key = input;
      addend.name = pointer;
      return addend;
    }
    const Instruction* variable = def_use_.Definition(pointer);
    std::vector<const Instruction*> stores;
    std::string why;
    if (variable && variable->opcode == spv::OpVariable &&
        VariableView(*variable).storage_class() == spv::StorageClassFunction &&
        loops_().StoresOf(pointer, &stores, &why) && stores.size() == 1) {
      const Instruction* store = stores[0];
      const Block* store_block = def_use_.BlockOf(store);
      Function* function = block ? def_use_.FunctionOfBlock(block) : nullptr;
      const Cfg* cfg = function ? cfg_of_(function->id()) : nullptr;
      bool dominates = false;
      if (cfg && store_block == block) {
        for (const Instruction& inst : block->instructions) {
          if (&inst == store) dominates = true;
          if (&inst == def) break;
        }
      } else if (cfg && store_block) {
        dominates = cfg->Dominates(store_block, block);
      }
      if (dominates && !InAnyLoop(store_block)) {
        Addend stored = Resolve(StoreView(*store).object(), store, depth + 1);
        stored.name = pointer;
        return stored;
      }
    }
  }
  if (block && !InAnyLoop(block)) addend.key = "value " + std::to_string(value);
  return addend;
}

bool OffsetSharedLoops::AddendsOf(uint32_t value, const Instruction* reader,
                                  std::vector<Addend>* addends, int depth) {
  Addend resolved = Resolve(value, reader, 0);
  const Instruction* def = def_use_.Definition(resolved.value);
  if (def && def->opcode == spv::OpIAdd && depth < kDepthBudget) {
    BinaryOpView operands(*def);
    return AddendsOf(operands.left(), def, addends, depth + 1) &&
           AddendsOf(operands.right(), def, addends, depth + 1);
  }
  if (addends->size() >= kAddendBudget) return false;
  addends->push_back(resolved);
  return true;
}

std::optional<ValueBounds> OffsetSharedLoops::BoundsOf(uint32_t value, const Instruction& reader,
                                                       bool is_signed) const {
  const Instruction* def = def_use_.Definition(value);
  bool value_signed = false;
  if (!def || !def_use_.IsInt32Type(def->type_id, &value_signed) || value_signed != is_signed)
    return std::nullopt;
  return bounds_(value, reader);
}

// A cheap filter before the function's loops are found: whether either side of the
// comparison is a load of a local that the header's entering block stores a value to
// which shares an addend with the other side, when every block counts as in no loop (a
// superset of the addends Find matches, so nothing it would match is filtered out).
bool OffsetSharedLoops::MayShareAnAddend(const Instruction& comparison, const Block& header,
                                         const Cfg& cfg) {
  const Block* entering = nullptr;
  for (const Block* pred : cfg.Predecessors(&header)) {
    if (cfg.Dominates(&header, pred)) continue;  // a back edge
    if (entering) return false;
    entering = pred;
  }
  if (!entering) return false;
  BinaryOpView operands(comparison);
  for (int side = 0; side < 2; ++side) {
    const Instruction* load = def_use_.Definition(side == 0 ? operands.left() : operands.right());
    if (!load || load->opcode != spv::OpLoad) continue;
    const Instruction* start_store = nullptr;
    for (const Instruction& inst : entering->instructions)
      if (inst.opcode == spv::OpStore && StoreView(inst).pointer() == LoadView(*load).pointer())
        start_store = &inst;
    if (!start_store) continue;
    ignore_loops_ = true;
    std::vector<Addend> start, bound;
    bool found = AddendsOf(StoreView(*start_store).object(), start_store, &start, 0) &&
                 AddendsOf(side == 0 ? operands.right() : operands.left(), &comparison, &bound, 0);
    ignore_loops_ = false;
    for (size_t i = 0; found && i < start.size(); ++i)
      for (const Addend& other : bound)
        if (!start[i].key.empty() && start[i].key == other.key) return true;
  }
  return false;
}

OffsetSharedLoops::Test OffsetSharedLoops::Find(const Instruction& comparison) {
  Test test;
  if (!loops_ || !bounds_) {
    test.reason = "no loop shapes or value bounds were given";
    return test;
  }
  const Block* block = def_use_.BlockOf(&comparison);
  Function* function = block ? def_use_.FunctionOfBlock(block) : nullptr;
  const Cfg* cfg = function ? cfg_of_(function->id()) : nullptr;
  if (!cfg) {
    test.reason = "the comparison is in no function";
    return test;
  }
  // Cheap first: the comparison's block branches on it and is a loop's header or the
  // header's one successor; only then are the function's loops found.
  const Instruction* branch = Terminator(*block);
  auto declares_loop = [](const Block& candidate) {
    const Instruction* merge = candidate.MergeInstruction();
    return merge && merge->opcode == spv::OpLoopMerge;
  };
  BlockSpan predecessors = cfg->Predecessors(block);
  if (!branch || branch->opcode != spv::OpBranchConditional ||
      BranchConditionalView(*branch).condition() != comparison.result_id ||
      !(declares_loop(*block) || (predecessors.size() == 1 && declares_loop(*predecessors[0])))) {
    test.reason = "the comparison is not a loop's top test";
    return test;
  }
  if (!MayShareAnAddend(comparison, declares_loop(*block) ? *block : *predecessors[0], *cfg)) {
    test.reason = "the loop's start and bound share no addend";
    return test;
  }
  std::string why;
  const NaturalLoop* loop = loops_().InnermostLoopAround(*function, block, &why);
  if (!loop) {
    test.reason = why.empty() ? "the comparison is in no loop" : why;
    return test;
  }
  // The comparison must be what the loop's top test branches on.
  const Block* tested = loop->header;
  const Instruction* end = Terminator(*tested);
  if (end && end->opcode == spv::OpBranch && cfg->Successors(tested).size() == 1)
    tested = cfg->Successors(tested)[0];
  end = Terminator(*tested);
  if (!end || end->opcode != spv::OpBranchConditional ||
      BranchConditionalView(*end).condition() != comparison.result_id) {
    test.reason = "the comparison is not its loop's top test";
    return test;
  }
  const ExitCounter& counter = loops_().SteppedCounterOf(*cfg, *loop);
  if (!counter.ok) {
    test.reason = counter.reason;
    return test;
  }
  if (counter.reinterpreted) {
    test.reason = "the loop's counter is compared in the other signedness";
    return test;
  }
  // The start: the last store of the counter in the loop's one entering block.
  const Block* entering = LoopShapes::EnteringBlock(*cfg, *loop);
  const Instruction* start_store = nullptr;
  if (entering)
    for (const Instruction& inst : entering->instructions)
      if (inst.opcode == spv::OpStore && StoreView(inst).pointer() == counter.variable)
        start_store = &inst;
  if (!start_store) {
    test.reason = "the loop's counter is not stored where the loop is entered";
    return test;
  }
  std::vector<Addend> start, bound;
  if (!AddendsOf(StoreView(*start_store).object(), start_store, &start, 0) ||
      !AddendsOf(counter.bound, &comparison, &bound, 0)) {
    test.reason = "the loop's start or bound has more than 16 addends";
    return test;
  }
  size_t shared_start = start.size(), shared_bound = bound.size();
  for (size_t i = 0; i < start.size() && shared_start == start.size(); ++i)
    for (size_t j = 0; j < bound.size(); ++j)
      if (!start[i].key.empty() && start[i].key == bound[j].key) {
        shared_start = i;
        shared_bound = j;
        break;
      }
  if (shared_start == start.size()) {
    test.reason = "the loop's start and bound share no addend";
    return test;
  }
  test.offset_name = start[shared_start].name;

  // The bounds of each part, summed as mathematical integers (32-bit values: no int64
  // sum of 16 of them overflows).
  const bool is_signed = counter.is_signed;
  const int64_t type_min = is_signed ? -(int64_t(1) << 31) : 0;
  const int64_t type_max = is_signed ? (int64_t(1) << 31) - 1 : (int64_t(1) << 32) - 1;
  auto sum_except = [&](const std::vector<Addend>& addends, size_t skip, ValueBounds* sum,
                        const char* what) {
    *sum = ValueBounds{};
    for (size_t k = 0; k < addends.size(); ++k) {
      if (k == skip) continue;
      std::optional<ValueBounds> part = BoundsOf(addends[k].value, *addends[k].reader, is_signed);
      if (!part) {
        test.reason = std::string("an addend of the loop's ") + what +
                      " has no bounds, so the sum may wrap";
        return false;
      }
      sum->min += part->min;
      sum->max += part->max;
    }
    return true;
  };
  ValueBounds start_rest, bound_rest;
  if (!sum_except(start, shared_start, &start_rest, "start") ||
      !sum_except(bound, shared_bound, &bound_rest, "bound"))
    return test;
  std::optional<ValueBounds> offset_at_start =
      BoundsOf(start[shared_start].value, *start[shared_start].reader, is_signed);
  std::optional<ValueBounds> offset_at_bound =
      BoundsOf(bound[shared_bound].value, *bound[shared_bound].reader, is_signed);
  const Instruction* update_value = def_use_.Definition(StoreView(*counter.update).object());
  std::optional<ValueBounds> step;
  if (update_value) step = BoundsOf(counter.step_value, *update_value, is_signed);
  if (!offset_at_start || !offset_at_bound || !step) {
    test.reason = "the loop's shared offset or step has no bounds, so the sums may wrap";
    return test;
  }
  ValueBounds offset{std::min(offset_at_start->min, offset_at_bound->min),
                     std::max(offset_at_start->max, offset_at_bound->max)};
  // The step as it moves the counter.
  ValueBounds moves = step.value_or(ValueBounds{});
  if (counter.step_subtracts) moves = ValueBounds{-moves.max, -moves.min};
  auto within = [&](int64_t low, int64_t high) { return low >= type_min && high <= type_max; };
  auto sum_text = [](const char* what, int64_t low, int64_t high) {
    return std::string("the loop's ") + what + " may wrap (its addends sum to [" +
           std::to_string(low) + ", " + std::to_string(high) + "])";
  };
  if (!within(start_rest.min + offset.min, start_rest.max + offset.max)) {
    test.reason = sum_text("start", start_rest.min + offset.min, start_rest.max + offset.max);
    return test;
  }
  if (!within(bound_rest.min + offset.min, bound_rest.max + offset.max)) {
    test.reason = sum_text("bound", bound_rest.min + offset.min, bound_rest.max + offset.max);
    return test;
  }
  const bool strict = counter.relation == Relation::kLess || counter.relation == Relation::kGreater;
  if (counter.relation == Relation::kLess || counter.relation == Relation::kLessEqual) {
    int64_t last_passing = bound_rest.max + offset.max - (strict ? 1 : 0);
    if (moves.min < 0 || last_passing + moves.max > type_max) {
      test.reason = moves.min < 0 ? "the loop's step may move its counter away from its bound"
                                  : "the loop's step may wrap its counter";
      return test;
    }
  } else {
    int64_t last_passing = bound_rest.min + offset.min + (strict ? 1 : 0);
    if (moves.max > 0 || last_passing + moves.min < type_min) {
      test.reason = moves.max > 0 ? "the loop's step may move its counter away from its bound"
                                  : "the loop's step may wrap its counter";
      return test;
    }
  }
  for (size_t k = 0; k < start.size(); ++k)
    if (k != shared_start) test.deciding.push_back(start[k].value);
  for (size_t k = 0; k < bound.size(); ++k)
    if (k != shared_bound) test.deciding.push_back(bound[k].value);
  test.deciding.push_back(counter.step_value);
  test.holds = true;
  return test;
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
