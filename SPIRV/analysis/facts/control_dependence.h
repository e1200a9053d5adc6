// Control dependence: which blocks run or not depending on which way a branch goes.
// One rule for every analysis that asks (uniformity, its coarse proof, the convergence
// checker):
//   - A branch is a block whose terminator names two or more distinct targets
//     (OpBranchConditional or OpSwitch). One that names a single target, however many
//     times, decides nothing.
//   - A block is control dependent on a branch when it lies on the post-dominator chain
//     from one of the branch's successors up to, not including, the branch's immediate
//     post-dominator (up to the root where the branch has none: a successor that never
//     reaches the function's exit). The successor says which way the branch went.
#pragma once

#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

// Whether `block`'s terminator names two or more distinct targets.
bool HasDistinctTargets(const Block& block);

// The condition of `block`'s OpBranchConditional or the selector of its OpSwitch; 0 for
// any other terminator (or none).
uint32_t ConditionOf(const Block& block);

// Calls `visit(successor, dependent)` for each block control dependent on `branch`,
// with the successor whose chain reaches it. A block may be visited more than once
// (from several successors). Nothing for a block that is no branch.
template <class Visit>
void ForEachControlDependent(const Cfg& cfg, const Block* branch, const Visit& visit) {
  if (!HasDistinctTargets(*branch)) return;
  const Block* stop = cfg.ImmediatePostDominator(branch);
  for (const Block* successor : cfg.Successors(branch))
    // Post-dominator chains are paths in a tree: the walk ends at `stop` or the root.
    for (const Block* runner = successor; runner && runner != stop;
         runner = cfg.ImmediatePostDominator(runner))
      visit(successor, runner);
}

}  // namespace glint::spirv
