// Argument-decided branches: a helper called only with constant values for a parameter
// takes, at each call, one side of every branch on that parameter. A uniform-control
// instruction whose divergent control lies only on the side a call never takes, or
// under a branch the call's constant decides, is fine at that call
// ("void step(bool all_threads) { ... if (!all_threads && tid >= n) continue; ...
// if (all_threads) barrier(); }" called as step(true) and step(false): the divergent
// `continue` and the barrier never run in the same call). A part of the uniformity
// reporter: it only decides whether an instruction the joined fixed point finds in
// too divergent control is fine at every call (then it is a need of its function,
// checked at the call sites as any other). The rule and its proof:
// argument_decided_branches.cpp.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_ARGUMENT_DECIDED_BRANCHES_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_ARGUMENT_DECIDED_BRANCHES_H

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "SPIRV/analysis/uniformity/uniformity_internal.h"

namespace glint::spirv::uniformity_detail {

class ArgumentDecidedBranches {
 public:
  explicit ArgumentDecidedBranches(const UniformitySolver& solver)
      : solver_(solver), facts_(solver.facts()) {}

  // True when `function` (not the entry point's) is called only from functions the entry
  // point reaches, at least once, and at every such call `block` either never runs or
  // runs in control within the function no more divergent than `allowed`, once the
  // branches the call's constant arguments decide are taken as decided.
  bool FineAtEveryCall(const Function& function, const Block& block, Divergence allowed);

  // Bounds: calls looked at per function, and the depth of a folded condition.
  static constexpr size_t kCallBudget = 64;
  static constexpr int kFoldDepth = 16;
  static constexpr int kLiveRounds = 4;

 private:
  // One call's view of its callee: the parameters it fixes, the conditions that fold,
  // the blocks that can run.
  struct CallView {
    std::unordered_map<uint32_t, uint64_t> fixed;  // parameter id -> value (bool: 0/1)
    std::unordered_map<uint32_t, std::optional<uint64_t>> folded;  // memo by id
    std::unordered_set<const Block*> live;
    // Phis fold over the edges from the previous round's blocks that can run (a superset
    // of this round's), none in the first round.
    bool phis_fold = false;
    std::unordered_set<const Block*> live_before;
  };
  CallView& ViewOf(const Function& function, const Instruction& call);
  std::optional<uint64_t> ConstantOf(uint32_t id) const;
  std::optional<uint64_t> ArgumentValue(const Instruction& call, uint32_t argument,
                                        const Instruction& parameter) const;
  bool OnlyLoaded(const Instruction& parameter) const;
  std::optional<uint64_t> Fold(CallView& view, uint32_t id, int depth);
  std::optional<uint64_t> FoldPhi(CallView& view, const Instruction& phi, int depth);
  // The branch a block ends in goes one way in this call: its successor; null otherwise.
  const Block* DecidedSuccessor(CallView& view, const Block& branch);
  bool FineInCall(CallView& view, const Function& function, const Block& block,
                  Divergence allowed);

  const UniformitySolver& solver_;
  const ModuleFacts& facts_;
  std::map<std::pair<const Function*, const Instruction*>, CallView> views_;
};

}  // namespace glint::spirv::uniformity_detail

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_ARGUMENT_DECIDED_BRANCHES_H
