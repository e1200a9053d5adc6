#include "def_use.h"

#include "instruction_views.h"
#include "operands.h"

namespace glint::spirv {

DefUse::DefUse(Module& module) : module_(module) {
  for (auto* section :
       {&module.capabilities, &module.extensions, &module.ext_inst_imports, &module.memory_model,
        &module.entry_points, &module.execution_modes, &module.debug_strings, &module.debug_names,
        &module.debug_processed, &module.annotations, &module.types_values})
    for (Instruction& inst : *section) Index(inst, nullptr, nullptr);
  for (Function& function : module.functions) {
    for (Instruction& inst : function.leading) Index(inst, nullptr, nullptr);
    Index(function.definition, nullptr, &function);
    for (Instruction& inst : function.parameters) Index(inst, nullptr, &function);
    for (Block& block : function.blocks) {
      Index(block.label, &block, &function);
      for (Instruction& inst : block.instructions) Index(inst, &block, &function);
      for (Instruction& inst : block.trailing_lines) Index(inst, &block, &function);
    }
    Index(function.end, nullptr, &function);
  }
}

void DefUse::Index(Instruction& inst, Block* block, Function* function) {
  if (inst.result_id) definitions_[inst.result_id] = &inst;
  if (block) blocks_[&inst] = block;
  if (function) functions_[&inst] = function;
  if (inst.type_id) uses_[inst.type_id].push_back({&inst, Use::kTypeWord});
  uint32_t width = 1;
  if (inst.opcode == spv::OpConstant || inst.opcode == spv::OpSpecConstant) {
    width = module_.LiteralWidthOfType(inst.type_id);
  } else if (inst.opcode == spv::OpSwitch && !inst.words.empty()) {
    if (Instruction* selector = Definition(SwitchView(inst).selector()))
      width = module_.LiteralWidthOfType(selector->type_id);
  }
  std::vector<Operand> operands;
  std::string error;
  if (!DecodeOperands(inst, width, &operands, &error)) return;
  for (const Operand& operand : operands)
    if (operand.is_id) uses_[inst.words[operand.first_word]].push_back({&inst, operand.first_word});
}

Instruction* DefUse::Definition(uint32_t id) const {
  auto it = definitions_.find(id);
  return it == definitions_.end() ? nullptr : it->second;
}

const std::vector<Use>& DefUse::Uses(uint32_t id) const {
  static const std::vector<Use> kNone;
  auto it = uses_.find(id);
  return it == uses_.end() ? kNone : it->second;
}

Block* DefUse::BlockOf(const Instruction* inst) const {
  auto it = blocks_.find(inst);
  return it == blocks_.end() ? nullptr : it->second;
}

Function* DefUse::FunctionOf(const Instruction* inst) const {
  auto it = functions_.find(inst);
  return it == functions_.end() ? nullptr : it->second;
}

Instruction* DefUse::TypeOf(uint32_t id) const {
  Instruction* def = Definition(id);
  return def && def->type_id ? Definition(def->type_id) : nullptr;
}

bool DefUse::IntConstant(uint32_t id, uint64_t* value, bool* is_signed, uint32_t* width) const {
  Instruction* def = Definition(id);
  if (!def || def->opcode != spv::OpConstant) return false;
  Instruction* type = Definition(def->type_id);
  if (!type || type->opcode != spv::OpTypeInt) return false;
  TypeIntView int_type(*type);
  ConstantView constant(*def);
  uint32_t bits = int_type.width();
  if (bits > 64 || constant.value_words().empty()) return false;
  uint64_t v = bits == 64 ? constant.value64() : constant.value32();
  *value = v;
  if (is_signed) *is_signed = int_type.is_signed();
  if (width) *width = bits;
  return true;
}

}  // namespace glint::spirv
