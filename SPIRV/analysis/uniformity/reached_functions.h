// Reached functions: the functions a root function reaches through calls, callers
// first, and a membership test built on the first question (most solvers, call contexts
// among them, never ask). A part of the uniformity solver: one per entry point or call
// context, from the call graph alone.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_REACHED_FUNCTIONS_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_REACHED_FUNCTIONS_H

#include <cstdint>
#include <unordered_set>
#include <utility>
#include <vector>

#include "SPIRV/ir/call_graph.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {
namespace uniformity_detail {

class ReachedFunctions {
 public:
  ReachedFunctions() = default;
  ReachedFunctions(const CallGraph& calls, uint32_t root)
      : root_(root), list_(calls.ReachableFrom(root)) {}

  uint32_t root() const { return root_; }
  const std::vector<Function*>& list() const { return list_; }  // `root` first, callers first
  bool Contains(const Function* function) const {
    if (set_.empty()) set_.insert(list_.begin(), list_.end());
    return set_.count(function) != 0;
  }

 private:
  uint32_t root_ = 0;
  std::vector<Function*> list_;
  mutable std::unordered_set<const Function*> set_;
};

}  // namespace uniformity_detail
}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_REACHED_FUNCTIONS_H
