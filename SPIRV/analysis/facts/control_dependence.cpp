// Control dependence (see control_dependence.h).
#include "SPIRV/analysis/facts/control_dependence.h"

#include <vector>

namespace glint::spirv {

bool HasDistinctTargets(const Block& block) {
  const Instruction* terminator = block.Terminator();
  if (!terminator) return false;
  std::vector<uint32_t> targets = BranchTargets(*terminator);
  for (uint32_t target : targets)
    if (target != targets.front()) return true;
  return false;
}

}  // namespace glint::spirv
