// Runtime-array lengths the module reads (see runtime_length_reads.h).
#include "SPIRV/analysis/access/runtime_length_reads.h"

#include "SPIRV/analysis/memory/pointer_origins.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

namespace {

// The OpVariable a pointer is derived from (pointer_origins.h); 0 when it is not one (a
// parameter, a select, a phi, a loaded pointer) or the walk is over its budget.
uint32_t VariableOf(const DefUse& def_use, uint32_t pointer) {
  return PointerOrigins(def_use).Of(pointer).variable_id();
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
