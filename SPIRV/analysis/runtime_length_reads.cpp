// Runtime-array lengths the module reads (see runtime_length_reads.h).
#include "SPIRV/analysis/runtime_length_reads.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

namespace {

// Chains of chains and copies are short; a longer walk counts as not followed.
constexpr int kMaxPointerHops = 64;

// The OpVariable a pointer is derived from through access chains and copies; 0 when it
// is not one (a parameter, a select, a phi, a loaded pointer) or the walk is too long.
uint32_t VariableOf(const DefUse& def_use, uint32_t pointer) {
  uint32_t id = pointer;
  for (int hop = 0; hop < kMaxPointerHops; ++hop) {
    const Instruction* definition = def_use.Definition(id);
    if (!definition) return 0;
    if (definition->opcode == spv::OpVariable) return id;
    if (AccessChainView<const Instruction>::Accepts(definition->opcode))
      id = AccessChainView<const Instruction>(*definition).base();
    else if (definition->opcode == spv::OpCopyObject)
      id = UnaryOpView<const Instruction>(*definition).operand();
    else
      return 0;
  }
  return 0;
}

}  // namespace

RuntimeLengthReads::RuntimeLengthReads(const Module& module, const DefUse& def_use)
    : def_use_(def_use) {
  std::unordered_map<uint32_t, uint32_t> sets;
  std::unordered_map<uint32_t, uint32_t> binding_numbers;
  for (const Instruction& annotation : module.annotations) {
    if (annotation.opcode != spv::OpDecorate) continue;
    DecorateView<const Instruction> decorate(annotation);
    if (decorate.literals().size() != 1) continue;
    if (decorate.decoration() == spv::DecorationDescriptorSet)
      sets[decorate.target()] = decorate.literal(0);
    else if (decorate.decoration() == spv::DecorationBinding)
      binding_numbers[decorate.target()] = decorate.literal(0);
  }
  for (const auto& [variable, binding] : binding_numbers) {
    auto set = sets.find(variable);
    if (set != sets.end()) bindings_.emplace(variable, Binding{set->second, binding});
  }
  module.ForEachInstruction([&](const Instruction& inst) {
    if (inst.opcode != spv::OpArrayLength) return;
    uint32_t variable = VariableOf(def_use, ArrayLengthView<const Instruction>(inst).structure());
    if (!variable) {
      unknown_read_ = true;
      return;
    }
    read_variables_.insert(variable);
    if (const Binding* binding = BindingOf(variable)) read_bindings_.insert(*binding);
  });
}

const RuntimeLengthReads::Binding* RuntimeLengthReads::BindingOf(uint32_t variable) const {
  auto found = bindings_.find(variable);
  return found == bindings_.end() ? nullptr : &found->second;
}

bool RuntimeLengthReads::MayBeRead(uint32_t pointer) const {
  uint32_t variable = VariableOf(def_use_, pointer);
  if (!variable || unknown_read_ || read_variables_.count(variable)) return true;
  const Binding* binding = BindingOf(variable);
  return binding && read_bindings_.count(*binding);
}

}  // namespace glint::spirv
