// Argument-decided branches (argument_decided_branches.h).
//
// The rule. Take a call C of a helper H (not the entry point) and a uniform-control
// instruction N in block B of H that the joined fixed point finds in too divergent
// control within H. C fixes a parameter P when
//   - P is taken by value and C passes a constant (OpConstantTrue/False, a plain integer
//     constant; never a specialization constant, which is an input), or
//   - P is a pointer (glslang's way of passing a GLSL parameter) that H only loads
//     through, and the last instruction before C in C's block that may write the
//     variable C passes is a store of a constant to exactly that pointer.
// H cannot change P during the call (by value: an SSA value; by pointer: only loaded,
// and the caller's variable is reached in H's subtree only through P). A condition
// folds in C when it is built from fixed parameters and constants by logical and
// integer comparison operations; a branch whose condition folds goes the same way for
// every invocation running C, each time it runs. The blocks of H that can run in C are
// those reached from H's entry taking only that way at such branches.
// N is fine at C when B cannot run in C, or when every branch B is control dependent on,
// transitively (the branches that decide whether an invocation running C reaches B),
// that can run in C and does not fold has a condition no more divergent than N
// tolerates, by the joined fixed point's levels (at least C's own). Then the invocations
// running C that reach B are those the call-site control lets into H, all of them or
// none: N's need moves to H's call sites, which are checked as any other need.
// Why only the branches B depends on: within one call, the invocations that entered H
// together part only at branches; one that goes the same way for all, or that cannot
// run, parts none. Removing blocks that cannot run only removes control dependence
// (fewer paths), so the transitive dependence of the whole CFG bounds the call's.
// Not covered (the finding stays): a callee that may end the invocation (OpKill,
// OpTerminateInvocation) in non-uniform control, as those raise control without a branch
// of H; an entry point's own instructions; more than kCallBudget calls; parameters
// forwarded from the caller's own parameters (not constants at the call).
#include "SPIRV/analysis/uniformity/argument_decided_branches.h"

#include <algorithm>
#include <vector>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv::uniformity_detail {

std::optional<uint64_t> ArgumentDecidedBranches::ConstantOf(uint32_t id) const {
  const Instruction* def = facts_.def_use.Definition(id);
  if (!def) return std::nullopt;
  if (def->opcode == spv::OpConstantTrue) return 1;
  if (def->opcode == spv::OpConstantFalse) return 0;
  if (def->opcode != spv::OpConstant || def->words.size() != 1) return std::nullopt;
  const Instruction* type = facts_.def_use.Definition(def->type_id);
  if (!type || type->opcode != spv::OpTypeInt || TypeIntView(*type).width() != 32)
    return std::nullopt;
  return ConstantView(*def).value32();
}

bool ArgumentDecidedBranches::OnlyLoaded(const Instruction& parameter) const {
  // Names and decorations (outside every function) write nothing.
  for (const Use use : facts_.def_use.Uses(parameter.result_id))
    if (use.user->opcode != spv::OpLoad && facts_.def_use.FunctionOf(use.user)) return false;
  return true;
}

std::optional<uint64_t> ArgumentDecidedBranches::ArgumentValue(const Instruction& call,
                                                                uint32_t argument,
                                                                const Instruction& parameter) const {
  if (!facts_.IsPointer(parameter)) return ConstantOf(argument);
  if (!OnlyLoaded(parameter)) return std::nullopt;
  const Block* block = facts_.def_use.BlockOf(&call);
  const uint32_t root = facts_.RootOf(argument);
  if (!block || !root) return std::nullopt;
  const Instruction* last_write = nullptr;
  for (const Instruction& inst : block->instructions) {
    if (&inst == &call) break;
    if (auto store = ViewIf<StoreView>(inst)) {
      if (facts_.RootOf(store->pointer()) == root) last_write = &inst;
    } else if (inst.opcode == spv::OpFunctionCall || inst.opcode == spv::OpCopyMemory ||
               inst.opcode == spv::OpCopyMemorySized || IsAtomic(inst.opcode)) {
      last_write = &inst;  // may write anything the caller can reach
    }
  }
  if (!last_write || last_write->opcode != spv::OpStore) return std::nullopt;
  StoreView store(*last_write);
  if (store.pointer() != argument) return std::nullopt;
  return ConstantOf(store.object());
}

std::optional<uint64_t> ArgumentDecidedBranches::Fold(CallView& view, uint32_t id, int depth) {
  if (auto known = view.folded.find(id); known != view.folded.end()) return known->second;
  view.folded[id] = std::nullopt;  // in progress: a cycle through phis folds nothing
  std::optional<uint64_t> value = ConstantOf(id);
  if (auto fixed = view.fixed.find(id); fixed != view.fixed.end()) value = fixed->second;
  const Instruction* def = value || depth >= kFoldDepth ? nullptr : facts_.def_use.Definition(id);
  if (def && def->opcode == spv::OpPhi) {
    if (view.phis_fold) value = FoldPhi(view, *def, depth);
  } else if (def && def->opcode == spv::OpLoad) {
    auto fixed = view.fixed.find(LoadView(*def).pointer());
    if (fixed != view.fixed.end()) value = fixed->second;
  } else if (def && def->opcode == spv::OpLogicalNot && def->words.size() == 1) {
    if (auto a = Fold(view, def->words[0], depth + 1)) value = *a ? 0 : 1;
  } else if (def && def->words.size() == 2) {
    std::optional<uint64_t> a = Fold(view, def->words[0], depth + 1);
    std::optional<uint64_t> b = a ? Fold(view, def->words[1], depth + 1) : std::nullopt;
    // One side decides && and || alone.
    if (def->opcode == spv::OpLogicalAnd && ((a && !*a) || (!a && Fold(view, def->words[1], depth + 1) == 0u)))
      value = 0;
    else if (def->opcode == spv::OpLogicalOr && ((a && *a) || (!a && Fold(view, def->words[1], depth + 1) == 1u)))
      value = 1;
    if (a && b) {
      const int64_t sa = int32_t(uint32_t(*a)), sb = int32_t(uint32_t(*b));
      switch (def->opcode) {
        case spv::OpLogicalAnd: value = *a && *b; break;
        case spv::OpLogicalOr: value = *a || *b; break;
        case spv::OpLogicalEqual:
        case spv::OpIEqual: value = *a == *b; break;
        case spv::OpLogicalNotEqual:
        case spv::OpINotEqual: value = *a != *b; break;
        case spv::OpULessThan: value = *a < *b; break;
        case spv::OpULessThanEqual: value = *a <= *b; break;
        case spv::OpUGreaterThan: value = *a > *b; break;
        case spv::OpUGreaterThanEqual: value = *a >= *b; break;
        case spv::OpSLessThan: value = sa < sb; break;
        case spv::OpSLessThanEqual: value = sa <= sb; break;
        case spv::OpSGreaterThan: value = sa > sb; break;
        case spv::OpSGreaterThanEqual: value = sa >= sb; break;
        default: break;
      }
    }
  }
  view.folded[id] = value;
  return value;
}

// A phi folds when every edge into its block that can run in this call (from a block
// of the previous round's, the branch at its end not decided the other way) brings the
// same folded value.
std::optional<uint64_t> ArgumentDecidedBranches::FoldPhi(CallView& view, const Instruction& phi,
                                                         int depth) {
  const Block* block = facts_.def_use.BlockOf(&phi);
  const Function* function = block ? facts_.def_use.FunctionOfBlock(block) : nullptr;
  if (!function) return std::nullopt;
  const Cfg& cfg = facts_.control_dependence.at(function->id())->cfg();
  PhiView view_of_phi(phi);
  std::optional<uint64_t> joined;
  for (const Block* pred : cfg.Predecessors(block)) {
    if (!view.live_before.count(pred)) continue;
    const Block* decided = DecidedSuccessor(view, *pred);
    if (decided && decided != block) continue;
    std::optional<uint64_t> incoming;
    for (size_t pair = 0; pair < view_of_phi.pair_count(); ++pair)
      if (view_of_phi.parent(pair) == pred->id())
        incoming = Fold(view, view_of_phi.value(pair), depth + 1);
    if (!incoming || (joined && *joined != *incoming)) return std::nullopt;
    joined = incoming;
  }
  return joined;
}

const Block* ArgumentDecidedBranches::DecidedSuccessor(CallView& view, const Block& branch) {
  const Instruction* end = branch.Terminator();
  if (!end || end->opcode != spv::OpBranchConditional) return nullptr;
  BranchConditionalView conditional(*end);
  std::optional<uint64_t> taken = Fold(view, conditional.condition(), 0);
  if (!taken) return nullptr;
  const uint32_t label = *taken ? conditional.true_label() : conditional.false_label();
  const Cfg& cfg =
      facts_.control_dependence.at(facts_.def_use.FunctionOfBlock(&branch)->id())->cfg();
  for (const Block* successor : cfg.Successors(&branch))
    if (successor->id() == label) return successor;
  return nullptr;
}

ArgumentDecidedBranches::CallView& ArgumentDecidedBranches::ViewOf(const Function& function,
                                                                   const Instruction& call) {
  auto [found, added] = views_.try_emplace({&function, &call});
  CallView& view = found->second;
  if (!added) return view;
  ForEachArgument(function, call, [&](const Instruction& parameter, uint32_t argument) {
    if (std::optional<uint64_t> value = ArgumentValue(call, argument, parameter))
      view.fixed[parameter.result_id] = *value;
  });
  const Cfg& cfg = facts_.control_dependence.at(function.id())->cfg();
  if (function.blocks.empty()) return view;
  // Rounds: the blocks that can run, first with no phi folded, then with phis folded over
  // the previous round's blocks (each round's set holds the next's: sound to fold over).
  for (int round = 0; round < kLiveRounds; ++round) {
    view.phis_fold = round > 0;
    view.live_before = std::move(view.live);
    view.live.clear();
    view.folded.clear();
    std::vector<const Block*> work = {&function.blocks.front()};
    while (!work.empty()) {
      const Block* block = work.back();
      work.pop_back();
      if (!view.live.insert(block).second) continue;
      if (const Block* decided = view.fixed.empty() ? nullptr : DecidedSuccessor(view, *block)) {
        work.push_back(decided);
        continue;
      }
      for (const Block* successor : cfg.Successors(block)) work.push_back(successor);
    }
    if (view.fixed.empty() || (round > 0 && view.live == view.live_before)) break;
  }
  return view;
}

bool ArgumentDecidedBranches::FineInCall(CallView& view, const Function& function,
                                         const Block& block, Divergence allowed) {
  if (!view.live.count(&block)) return true;
  // Every branch that decides whether `block` runs (ModuleFacts::DecidingBranches, the
  // solver's own closure): those that cannot run in this call or go one way in it part
  // no invocations. (A branch reached only through one that cannot run is asked too:
  // coarser, never less sound.)
  for (const Block* branch : facts_.DecidingBranches(function.id(), &block))
    if (view.live.count(branch) && !DecidedSuccessor(view, *branch) &&
        solver_.proven().Value(ConditionOf(*branch)) > allowed)
      return false;
  return true;
}

bool ArgumentDecidedBranches::FineAtEveryCall(const Function& function, const Block& block,
                                              Divergence allowed) {
  if (function.id() == solver_.entry_function()) return false;
  const std::vector<Function*>& reached = solver_.functions();
  // Callees that may end the invocation raise control without a branch of `function`.
  for (const CallGraph::Call* call : facts_.calls.CallsIn(function.id())) {
    const Fact* kill = solver_.proven().KillFact(call->callee);
    if (kill && kill->level != Divergence::kUniform) return false;
  }
  size_t calls = 0;
  for (const CallGraph::Call* call : facts_.calls.CallsOf(function.id())) {
    if (std::find(reached.begin(), reached.end(), call->caller) == reached.end()) continue;
    if (++calls > kCallBudget) return false;
    if (!FineInCall(ViewOf(function, *call->call), function, block, allowed)) return false;
  }
  return calls > 0;
}

}  // namespace glint::spirv::uniformity_detail
