#include "SPIRV/analysis/facts/loop_shapes.h"

#include <algorithm>
#include <utility>

#include "SPIRV/analysis/facts/range_math.h"
#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using range_math::TypeMax;
using range_math::TypeMin;

namespace {

// The block's instructions without OpLine / OpNoLine: the shapes count instructions.
std::vector<const Instruction*> CodeOf(const Block& block) {
  std::vector<const Instruction*> code;
  for (const Instruction& inst : block.instructions)
    if (inst.opcode != spv::OpLine && inst.opcode != spv::OpNoLine) code.push_back(&inst);
  return code;
}

}  // namespace

const LoopShape* LoopShapes::ForLoopAt(const Cfg& cfg, const Block* header) {
  const Block* latch = cfg.BlockById(cfg.ContinueTarget(header));
  std::vector<const Instruction*> code = latch ? CodeOf(*latch) : std::vector<const Instruction*>{};
  if (code.size() < 2 || code[code.size() - 2]->opcode != spv::OpStore) return nullptr;
  const LoopShape& shape = ForLoopOf(StoreView(*code[code.size() - 2]).pointer());
  if (!shape.ok || cfg.Successors(latch).size() != 1 || cfg.Successors(latch)[0] != header)
    return nullptr;
  return &shape;
}

const LoopShape& LoopShapes::ForLoopOf(uint32_t variable) {
  auto it = for_loops_.find(variable);
  if (it == for_loops_.end()) it = for_loops_.emplace(variable, Match(variable)).first;
  return it->second;
}

LoopShape LoopShapes::Match(uint32_t variable) {
  LoopShape shape;
  const Instruction* var = def_use_.Definition(variable);
  const Instruction* pointer_type = var ? def_use_.Definition(var->type_id) : nullptr;
  if (!pointer_type || pointer_type->opcode != spv::OpTypePointer ||
      !def_use_.IsInt32Type(TypePointerView(*pointer_type).pointee(), &shape.is_signed)) {
    shape.reason = "variable is not a scalar 32-bit integer";
    return shape;
  }
  std::vector<const Instruction*> stores;
  shape.function = def_use_.FunctionOf(var);
  shape.variable = variable;
  if (!shape.function) {
    shape.reason = "variable is not in a function";
    return shape;
  }
  if (!StoresOf(variable, &stores, &shape.reason)) return shape;
  // The update store sits in the continue target of a loop header.
  const Cfg& cfg = cfgs_(*shape.function);
  for (const Instruction* store : stores) {
    const Block* block = def_use_.BlockOf(store);
    if (cfg.Successors(block).size() != 1) continue;
    const Block* header = cfg.Successors(block)[0];
    if (!cfg.IsLoopHeader(header) || cfg.ContinueTarget(header) != block->id()) continue;
    if (stores.size() != 2) {
      shape.reason = "loop variable is stored outside its initializer and continuing block";
      return shape;
    }
    shape.ok = MatchAround(cfg, *header, *block, variable, &shape);
    return shape;
  }
  shape.reason =
      "load from a local variable that is not a for-loop control variable (no "
      "update in a continuing block)";
  return shape;
}

// The variable's stores; false (with the reason) when a use is neither load nor store.
bool LoopShapes::StoresOf(uint32_t variable, std::vector<const Instruction*>* stores,
                          std::string* why) const {
  for (const Use& use : def_use_.Uses(variable)) {
    if (!def_use_.BlockOf(use.user)) continue;  // names, decorations
    if (use.user->opcode == spv::OpStore && use.word == 0) {
      stores->push_back(use.user);
    } else if (use.user->opcode != spv::OpLoad) {
      *why = std::string("loop variable is used by ") + grammar::OpcodeName(use.user->opcode) +
             " (only loads are allowed)";
      return false;
    }
  }
  return true;
}

// Continuing block, header, condition block and preheader, in the reference's order.
bool LoopShapes::MatchAround(const Cfg& cfg, const Block& header, const Block& latch,
                             uint32_t variable, LoopShape* shape) {
  if (!MatchContinue(latch, variable, header.id(), shape)) return false;
  const Block* cond = cfg.Successors(&header).size() == 1 ? cfg.Successors(&header)[0] : nullptr;
  if (!cond || CodeOf(header).size() != 2) {
    shape->reason = "loop header does not branch straight to the loop condition";
    return false;
  }
  return MatchCondition(*cond, variable, cfg.MergeTarget(&header), shape) &&
         MatchPreheader(cfg, header, latch, variable, shape);
}

// The continuing block is exactly: %a = OpLoad %i; %b = OpIAdd %a %step (or %step %a) or
// OpISub %a %step; OpStore %i %b; OpBranch %header.
bool LoopShapes::MatchContinue(const Block& block, uint32_t variable, uint32_t header,
                               LoopShape* shape) {
  const char* kExactly = "continuing block is not exactly: load, add or sub, store, branch";
  std::vector<const Instruction*> code = CodeOf(block);
  size_t n = code.size();
  if (n < 4 || code[n - 2]->opcode != spv::OpStore ||
      StoreView(*code[n - 2]).pointer() != variable ||
      StoreView(*code[n - 2]).object() != code[n - 3]->result_id ||
      code[n - 1]->opcode != spv::OpBranch || BranchView(*code[n - 1]).target() != header) {
    shape->reason = kExactly;
    return false;
  }
  const Instruction& update = *code[n - 3];
  uint32_t loaded = code[0]->opcode == spv::OpLoad && LoadView(*code[0]).pointer() == variable
                        ? code[0]->result_id
                        : 0;
  for (const Instruction* inst : code)  // the load feeding the update, wherever it is
    if (inst->opcode == spv::OpLoad && LoadView(*inst).pointer() == variable &&
        std::count(update.words.begin(), update.words.end(), inst->result_id))
      loaded = inst->result_id;
  bool add = update.opcode == spv::OpIAdd;
  if ((!add && update.opcode != spv::OpISub) || update.words.size() != 2) {
    shape->reason = "loop update is not an addition or subtraction of a constant";
    return false;
  }
  BinaryOpView operands(update);
  uint32_t step_id = operands.right();
  if (add && operands.right() == loaded)
    step_id = operands.left();
  else if (operands.left() != loaded) {
    shape->reason = add ? "loop update does not add to the loop variable"
                        : "loop update subtracts the loop variable from a value";
    return false;
  }
  const Instruction* step = def_use_.Definition(step_id);
  if (!step || step->opcode != spv::OpConstant) {
    shape->reason = "loop step is not a constant";
    return false;
  }
  uint32_t bits = ConstantView(*step).value32();
  shape->step = shape->is_signed ? int64_t(int32_t(bits)) : int64_t(bits);
  if (shape->step <= 0) {
    shape->reason = "loop step is not a positive constant";
    return false;
  }
  shape->increasing = add;
  bool exact = n == 4 && code[0]->result_id == loaded;
  if (!exact) shape->reason = kExactly;
  return exact;
}

// The condition block is exactly: %x = OpLoad %i; %c = compare %x %C (or %C %x);
// OpBranchConditional %c %body %merge.
bool LoopShapes::MatchCondition(const Block& block, uint32_t variable, uint32_t merge,
                                LoopShape* shape) {
  std::vector<const Instruction*> code = CodeOf(block);
  size_t n = code.size();
  if (n < 3 || code[0]->opcode != spv::OpLoad || LoadView(*code[0]).pointer() != variable ||
      code[n - 1]->opcode != spv::OpBranchConditional ||
      BranchConditionalView(*code[n - 1]).condition() != code[n - 2]->result_id ||
      code[n - 2]->words.size() != 2) {
    shape->reason = "loop condition is not a single comparison of the loop variable";
    return false;
  }
  const char* kNotCompared =
      "loop condition is not <, <=, > or >= between the loop variable and a value";
  const Instruction& comparison = *code[n - 2];
  BranchConditionalView branch(*code[n - 1]);
  bool compare_signed = false;
  Relation compare = RelationOf(comparison.opcode, &compare_signed);
  if (!IsOrdering(compare)) {  // every comparison RelationOf knows is a binary operation
    shape->reason = kNotCompared;
    return false;
  }
  BinaryOpView operands(comparison);
  uint32_t loaded = code[0]->result_id;
  uint32_t bound_id = operands.right();
  if (operands.right() == loaded && operands.left() != loaded) {
    bound_id = operands.left();
    compare = Mirror(compare);
  } else if (operands.left() != loaded) {
    shape->reason = kNotCompared;
    return false;
  }
  if (compare_signed != shape->is_signed) {
    shape->reason = "loop comparison's signedness does not match the loop variable's type";
    return false;
  }
  const Instruction* bound = def_use_.Definition(bound_id);
  if (!bound || bound->opcode != spv::OpConstant) {
    shape->reason = "loop bound is not a constant";
    return false;
  }
  if (n != 3) {
    shape->reason = "loop condition block does more than load, compare and branch";
    return false;
  }
  if (branch.false_label() != merge || branch.true_label() == merge) {
    shape->reason = "loop condition's false branch does not exit the loop";
    return false;
  }
  uint32_t bits = ConstantView(*bound).value32();
  int64_t value = shape->is_signed ? int64_t(int32_t(bits)) : int64_t(bits);
  if (!NormalizeComparison(compare, value, shape)) return false;
  shape->body = shape->function->FindBlock(branch.true_label());
  if (!shape->body) shape->reason = "loop body block is missing";
  return shape->body != nullptr;
}

// Rejects always-true / always-false comparisons and a direction that does not match,
// and stores the bound as "i <= bound" (increasing) or "i >= bound" (decreasing).
bool LoopShapes::NormalizeComparison(Relation compare, int64_t value, LoopShape* shape) const {
  int64_t lowest = TypeMin(shape->is_signed), highest = TypeMax(shape->is_signed);
  if ((compare == Relation::kLess && value == lowest) ||
      (compare == Relation::kGreater && value == highest)) {
    shape->reason = "loop condition is always false";
    return false;
  }
  if ((compare == Relation::kGreaterEqual && value == lowest) ||
      (compare == Relation::kLessEqual && value == highest)) {
    shape->reason = "loop condition is always true, so the loop variable can wrap";
    return false;
  }
  bool upper = compare == Relation::kLess || compare == Relation::kLessEqual;
  shape->bound = compare == Relation::kLess      ? value - 1
                 : compare == Relation::kGreater ? value + 1
                                                 : value;
  if (upper != shape->increasing) {
    shape->reason = upper ? "loop direction does not match the comparison (decreasing "
                            "variable compared with < or <=)"
                          : "loop direction does not match the comparison (increasing "
                            "variable compared with > or >=)";
    return false;
  }
  return true;
}

// The header's only predecessor besides the continuing block ends with
// "OpStore %i %init; OpBranch %header".
bool LoopShapes::MatchPreheader(const Cfg& cfg, const Block& header, const Block& latch,
                                uint32_t variable, LoopShape* shape) {
  const auto& predecessors = cfg.Predecessors(&header);
  const Block* preheader = nullptr;
  for (const Block* block : predecessors)
    if (block != &latch) preheader = block;
  std::vector<const Instruction*> code =
      preheader ? CodeOf(*preheader) : std::vector<const Instruction*>{};
  if (predecessors.size() != 2 || code.size() < 2 ||
      code[code.size() - 2]->opcode != spv::OpStore ||
      StoreView(*code[code.size() - 2]).pointer() != variable) {
    shape->reason = "loop variable is not initialized right before the loop";
    return false;
  }
  shape->init_value = StoreView(*code[code.size() - 2]).object();
  return true;
}

const std::vector<NaturalLoop>& LoopShapes::NaturalLoopsOf(Function& function, std::string* why) {
  auto found = natural_loops_.find(&function);
  if (found != natural_loops_.end()) {
    if (found->second.empty() && !natural_loop_refusals_[&function].empty())
      *why = natural_loop_refusals_[&function];
    return found->second;
  }
  std::vector<NaturalLoop>& loops = natural_loops_[&function];
  const Cfg& cfg = cfgs_(function);
  std::vector<uint8_t> in_loop;  // by block number, for the loop being gathered
  for (const Block* block : cfg.ReversePostOrder()) {
    std::vector<const Block*> latches;
    for (const Block* pred : cfg.Predecessors(block))
      if (cfg.IsReachable(pred) && cfg.Dominates(block, pred)) latches.push_back(pred);
    if (latches.empty()) continue;
    if (!cfg.IsLoopHeader(block)) {
      natural_loop_refusals_[&function] = *why =
          "a back edge targets a block that declares no loop";
      loops.clear();
      return loops;
    }
    // The header, and every block that reaches a latch without passing the header.
    std::vector<const Block*> body{block};
    in_loop.assign(cfg.BlockCount(), 0);
    in_loop[size_t(cfg.NumberOf(block))] = 1;
    std::vector<const Block*> work = latches;
    while (!work.empty()) {
      const Block* b = work.back();
      work.pop_back();
      uint8_t& seen = in_loop[size_t(cfg.NumberOf(b))];
      if (seen) continue;
      seen = 1;
      body.push_back(b);
      for (const Block* pred : cfg.Predecessors(b))
        if (cfg.IsReachable(pred)) work.push_back(pred);
    }
    loops.push_back(NaturalLoop{block, LoopBlocks(std::move(body))});
  }
  for (const NaturalLoop& loop : loops)
    for (const Block* block : loop.blocks) {
      const NaturalLoop*& innermost = innermost_loops_[block];
      if (!innermost || loop.blocks.size() < innermost->blocks.size()) innermost = &loop;
    }
  return loops;
}

const NaturalLoop* LoopShapes::InnermostLoopAround(Function& function, const Block* block,
                                                   std::string* why) {
  if (NaturalLoopsOf(function, why).empty()) return nullptr;
  auto found = innermost_loops_.find(block);
  return found == innermost_loops_.end() ? nullptr : found->second;
}

const Block* LoopShapes::EnteringBlock(const Cfg& cfg, const NaturalLoop& loop) {
  const Block* entering = nullptr;
  for (const Block* pred : cfg.Predecessors(loop.header)) {
    if (loop.blocks.count(pred)) continue;
    if (entering) return nullptr;
    entering = pred;
  }
  return entering;
}

}  // namespace glint::spirv
