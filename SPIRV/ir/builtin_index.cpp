#include "SPIRV/ir/builtin_index.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

BuiltInIndex::BuiltInIndex(const Module& module) {
  for (const Instruction& inst : module.annotations) {
    if (inst.opcode != spv::OpDecorate) continue;
    DecorateView decorate(inst);
    if (decorate.decoration() != spv::DecorationBuiltIn || decorate.literals().empty()) continue;
    uint32_t builtin = decorate.literal(0);
    if (builtin == spv::BuiltInWorkgroupSize) workgroup_size_ = decorate.target();
    builtins_[decorate.target()] = builtin;
  }
}

}  // namespace glint::spirv
