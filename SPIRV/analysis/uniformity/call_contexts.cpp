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

std::vector<Divergence> CallContexts::TakeUniformLevels(size_t bound) {
  if (spare_levels_.empty()) return std::vector<Divergence>(bound, Divergence::kUniform);
  std::vector<Divergence> levels = std::move(spare_levels_.back());
  spare_levels_.pop_back();
  levels.resize(bound, Divergence::kUniform);  // one bound per module: never resized
  return levels;
}

void CallContexts::GiveBackUniformLevels(std::vector<Divergence> levels) {
  spare_levels_.push_back(std::move(levels));
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
