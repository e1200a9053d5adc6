// Call contexts' shared state for one entry point (uniformity_call_sites.cpp says when a
// call is analysed in a context of its own and why that is sound): the runs the entry
// point has left (kContextRunBudget), the most rounds one context needed, and the
// results kept, by what each context read from its caller (CallContexts::Inputs). One
// object is shared by the entry point's solver and every context under it, so the
// contexts of a context outlive it and are not run again when it is. A part of the
// uniformity solver: the solver decides whether a context may help and what it reads;
// this part decides what is kept, what is found again, and when the budget refuses.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_CALL_CONTEXTS_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_CALL_CONTEXTS_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {
namespace uniformity_detail {

// Call-context analyses one entry point may run in all, and how deeply they may nest;
// past either the call takes the joined result of its callee.
constexpr uint32_t kContextRunBudget = 2048;
constexpr int kMaxContextDepth = 3;

class CallContexts {
 public:
  // What a context reads from its caller, by content so that any solver of the entry
  // point may reuse a result: its depth (0 where no context below would be refused for
  // it), the argument levels, the call's control, the roots each pointer argument stands
  // for (its alias list, lists ended by 0; a caller-side Function variable named by its
  // first place, kCallerLocal | place), and the memory levels of those roots and of the
  // module-scope variables its functions name.
  static constexpr uint32_t kCallerLocal = 0x80000000u;  // above every id (kMaxIdBound)
  struct Inputs {
    int depth = 0;
    std::vector<Divergence> arguments;
    Divergence control = Divergence::kUniform;
    std::vector<uint32_t> alias_lists;
    std::vector<Divergence> memory;
    bool operator==(const Inputs& other) const {
      return depth == other.depth && arguments == other.arguments && control == other.control &&
             alias_lists == other.alias_lists && memory == other.memory;
    }
  };
  // Results kept per key (a call, or a callee's OpFunction: uniformity_call_sites.cpp):
  // the latest ones.
  static constexpr size_t kResultsPerKey = 16;

  // The level a context with `inputs` gave for `key`, if one is kept.
  std::optional<Divergence> Known(const Instruction* key, const Inputs& inputs) const;
  // Keeps a context's result (one that read nothing of its caller's control).
  void Keep(const Instruction* key, Inputs inputs, Divergence level);
  // Takes a run from the entry point's budget; false when none is left.
  bool StartRun();
  // A context run ended after `rounds` rounds.
  void Ran(uint32_t rounds) { most_rounds_ = std::max(most_rounds_, rounds); }

  uint32_t most_rounds() const { return most_rounds_; }
  uint32_t runs() const { return kContextRunBudget - runs_left_; }

  // A table of value levels by id below `bound`, every one uniform: one a finished
  // context gave back, else a new one. A context's solver reads a value's level from
  // such a table for every operand; made anew for each of the entry point's contexts
  // (their number grows with the helpers, the table with the module), clearing them was
  // quadratic in the module's size.
  std::vector<Divergence> TakeUniformLevels(size_t bound);
  // Takes back a table whose entries are all uniform again (the context reset the few
  // it raised).
  void GiveBackUniformLevels(std::vector<Divergence> levels);

 private:
  uint32_t runs_left_ = kContextRunBudget;
  uint32_t most_rounds_ = 0;
  std::unordered_map<const Instruction*, std::vector<std::pair<Inputs, Divergence>>> results_;
  std::vector<std::vector<Divergence>> spare_levels_;  // all uniform
};

}  // namespace uniformity_detail
}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_CALL_CONTEXTS_H
