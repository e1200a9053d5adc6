// Call contexts' shared state (see call_contexts.h).
#include "SPIRV/analysis/uniformity/call_contexts.h"

namespace glint::spirv {
namespace uniformity_detail {

std::optional<Divergence> CallContexts::Known(const Instruction* key, const Inputs& inputs) const {
  auto kept = results_.find(key);
  if (kept == results_.end()) return std::nullopt;
  for (const auto& [seen, level] : kept->second)
    if (seen == inputs) return level;
  return std::nullopt;
}

void CallContexts::Keep(const Instruction* key, Inputs inputs, Divergence level) {
  std::vector<std::pair<Inputs, Divergence>>& kept = results_[key];
  if (kept.size() == kResultsPerKey) kept.erase(kept.begin());
  kept.emplace_back(std::move(inputs), level);
}

bool CallContexts::StartRun() {
  if (runs_left_ == 0) return false;
  --runs_left_;
  return true;
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
