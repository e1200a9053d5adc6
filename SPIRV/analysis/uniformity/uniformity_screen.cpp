// Uniformity screen: when no branch decides whether a uniform-control instruction runs,
// the uniformity analysis (uniformity.h) cannot report it, so the analysis is not built.
//
// Most fragment shaders sample with implicit LOD in the body of `main`, outside every
// `if` and loop; mesh shaders set their output counts there; many compute shaders
// place their barriers there. For them the analysis (its module facts, value flow, the
// fixed point) found nothing and cost more than a tenth of glslang's own compile.
//
// What it proves: the analysis reports a uniform-control instruction (or a call of a
// function holding one) only when its block's control level, within its function or
// with its call sites, is above uniform. That level is the join of (uniformity_transfer.cpp,
// UniformitySolver::BlockControl):
//   (1) its function's entry level: the join of the control levels of the blocks that
//       call it (uniform for an entry point's own function);
//   (2) for each branch it is control dependent on, the branch's condition and the
//       branch block's own control. Control dependence is ControlDependenceOf's
//       (uniformity_module_facts.cpp): the blocks on the post-dominator chain from a
//       successor of a branch with two or more distinct targets up to, not including,
//       the branch's immediate post-dominator (up to the root when it has none);
//   (3) the level at which a function called on the way there may kill the invocation
//       (OpKill, OpTerminateInvocation).
// The screen passes only when no function that holds a kill is called, so (3) adds
// nothing, and every block B that holds a need is reachable, can reach an exit, lies on
// the post-dominator chain of its function's entry (every path from the entry to an exit
// runs B), and lies on no cycle. Then (2) adds nothing to B: suppose a branch A marks B,
// from its successor s. B is then on s's chain (every path from s to an exit runs B, so
// s reaches B) and below A's immediate post-dominator, so B does not strictly
// post-dominate A. If A is B, B -> s -> ... -> B is a cycle. Otherwise a path P from A
// to an exit avoids B; every path Q from the entry to A ends in P to give a path from the
// entry to an exit, which runs B, so Q runs B: B reaches A, and B -> ... -> A -> s -> ...
// -> B is a cycle. Both contradict "on no cycle". (A successor from which no exit is
// reachable marks only itself, and B reaches an exit.)
//
// For (1), by induction over the call graph from the entry point (SPIR-V has no
// recursion): the entry point's function enters uniformly; a function F that holds a need
// is called only from blocks that hold a need themselves (a call's classes are its
// callee's), whose level is that of their own function's entry, uniform by induction. So
// every need runs in uniform control, within its function and at every call site, and
// nothing is reported, whatever the values.
//
// What it does not cover: the analysis's refusals. It refuses an unclassified
// instruction (the screen passes only when every instruction is classified), an
// instruction that lacks an operand its views read (malformed input that validation
// refuses first), and a fixed point past its round budget; for the last two a module the
// screen passes gets no note that the analysis gave up on a module with nothing to report.
//
// Cost: one CFG per function that holds a need (the analysis context keeps them for the
// analysis and the passes after), the entry's post-dominator chain, and a search for a
// cycle through each block that holds a need, only once every such block is on the chain
// (a shader with a need under a branch or in a loop is refused at its first need); no
// def-use, no value flow.
#include "SPIRV/analysis/uniformity/uniformity_screen.h"

#include <algorithm>
#include <unordered_set>
#include <vector>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {
namespace {

bool Kills(const Function& function) {
  for (const Block& block : function.blocks) {
    const Instruction* terminator = block.Terminator();
    if (terminator &&
        (terminator->opcode == spv::OpKill || terminator->opcode == spv::OpTerminateInvocation))
      return true;
  }
  return false;
}

// Whether `block` can run again after it runs: a path of one or more edges leads from it
// back to it.
bool OnACycle(const Cfg& cfg, const Block* block) {
  std::unordered_set<const Block*> seen;
  std::vector<const Block*> work(cfg.Successors(block).begin(), cfg.Successors(block).end());
  while (!work.empty()) {
    const Block* next = work.back();
    work.pop_back();
    if (next == block) return true;
    if (!seen.insert(next).second) continue;
    for (const Block* successor : cfg.Successors(next)) work.push_back(successor);
  }
  return false;
}

// Whether every need of `function` runs where no branch of it decides (see the file
// comment: on the entry's post-dominator chain, able to reach an exit, on no cycle).
bool NeedsUncontrolled(Function& function, const ConvergenceClasses& classes,
                       const CfgLookup& cfgs) {
  const Cfg& cfg = cfgs(function);
  std::unordered_set<const Block*> every_path;  // the entry and its post-dominators
  for (const Block* on = cfg.Entry(); on; on = cfg.ImmediatePostDominator(on))
    every_path.insert(on);
  std::vector<const Block*> needing;
  for (const Block& block : function.blocks) {
    bool needs = false;
    for (const Instruction& inst : block.instructions)
      needs = needs || (classes.Of(inst) & kUniformControl) != 0;
    if (!needs) continue;
    bool reaches_exit = cfg.Successors(&block).empty() || cfg.ImmediatePostDominator(&block);
    if (!cfg.IsReachable(&block) || !every_path.count(&block) || !reaches_exit) return false;
    needing.push_back(&block);
  }
  for (const Block* block : needing)
    if (OnACycle(cfg, block)) return false;
  return true;
}

}  // namespace

bool NeedsOnlyUnconditionalControl(Module& module, const ConvergenceClasses& classes,
                                   const CfgLookup& cfgs) {
  if (!classes.ok()) return false;
  std::unordered_set<uint32_t> killing;
  for (const Function& function : module.functions)
    if (Kills(function)) killing.insert(function.id());
  for (Function& function : module.functions) {
    if (!killing.empty())
      for (const Block& block : function.blocks)
        for (const Instruction& inst : block.instructions)
          if (inst.opcode == spv::OpFunctionCall && killing.count(FunctionCallView(inst).callee()))
            return false;
    if ((classes.OfFunction(function.id()) & kUniformControl) &&
        !NeedsUncontrolled(function, classes, cfgs))
      return false;
  }
  return true;
}

}  // namespace glint::spirv
