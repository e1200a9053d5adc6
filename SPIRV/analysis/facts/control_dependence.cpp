// Control dependence (see control_dependence.h).
#include "SPIRV/analysis/facts/control_dependence.h"

#include <vector>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

bool HasDistinctTargets(const Block& block) {
  const Instruction* terminator = block.Terminator();
  if (!terminator) return false;
  std::vector<uint32_t> targets = BranchTargets(*terminator);
  for (uint32_t target : targets)
    if (target != targets.front()) return true;
  return false;
}

uint32_t ConditionOf(const Block& block) {
  const Instruction* terminator = block.Terminator();
  if (!terminator) return 0;
  if (terminator->opcode == spv::OpBranchConditional)
    return BranchConditionalView(*terminator).condition();
  if (terminator->opcode == spv::OpSwitch) return SwitchView(*terminator).selector();
  return 0;
}

}  // namespace glint::spirv
