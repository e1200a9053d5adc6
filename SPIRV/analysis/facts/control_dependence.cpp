// Control dependence (see control_dependence.h).
#include "SPIRV/analysis/facts/control_dependence.h"

#include <vector>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

bool HasDistinctTargets(const Block& block) {
  const Instruction* terminator = block.Terminator();
  if (!terminator) return false;
  // Asked for every block by every analysis of control: read the labels in place
  // rather than listing them (BranchTargets allocates).
  if (terminator->opcode == spv::OpBranchConditional) {
    BranchConditionalView branch(*terminator);
    return branch.true_label() != branch.false_label();
  }
  if (terminator->opcode != spv::OpSwitch) return false;
  SwitchView selection(*terminator);
  for (size_t k = 0; k < selection.case_count(); ++k)
    if (selection.case_label(k) != selection.default_label()) return true;
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
