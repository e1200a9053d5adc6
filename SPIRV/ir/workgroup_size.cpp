// The declared workgroup size of an entry point (workgroup_size.h).
#include "SPIRV/ir/workgroup_size.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

bool HasWorkgroups(spv::ExecutionModel model) {
  switch (model) {
    case spv::ExecutionModelGLCompute:
    case spv::ExecutionModelKernel:
    case spv::ExecutionModelTaskNV:
    case spv::ExecutionModelMeshNV:
    case spv::ExecutionModelTaskEXT:
    case spv::ExecutionModelMeshEXT:
      return true;
    default:
      return false;
  }
}
namespace {

// The size is an input, like any specialization constant: the application may give it
// at pipeline creation, so no sound analysis of the shader alone knows it.
const char kWorkgroupSizeUnspecialized[] =
    "workgroup size is a specialization constant without a value (an input: the "
    "application may specialize it; use --spec-constant)";

constexpr int64_t kU32Max = 0xFFFFFFFF;

bool ConstantValue(const DefUse& def_use, uint32_t id, int64_t* value) {
  uint64_t bits = 0;
  bool is_signed = false;
  uint32_t width = 0;
  if (!def_use.IntConstant(id, &bits, &is_signed, &width) || width != 32) return false;
  *value = is_signed ? int64_t(int32_t(uint32_t(bits))) : int64_t(bits);
  return true;
}

bool PositiveSize(const int64_t size[3], std::string* why) {
  for (int i = 0; i < 3; ++i) {
    if (size[i] <= 0 || size[i] > kU32Max) {
      *why = "workgroup size has a zero or negative dimension";
      return false;
    }
  }
  return true;
}

}  // namespace

bool PlainInt32Constant(const std::function<const Instruction*(uint32_t)>& definition, uint32_t id,
                        int64_t* value) {
  const Instruction* def = definition(id);
  if (!def || def->opcode != spv::OpConstant || def->words.size() != 1) return false;
  const Instruction* type = definition(def->type_id);
  if (!type || type->opcode != spv::OpTypeInt || TypeIntView(*type).width() != 32) return false;
  const uint32_t bits = ConstantView(*def).value32();
  *value = TypeIntView(*type).is_signed() ? int64_t(int32_t(bits)) : int64_t(bits);
  return true;
}

uint32_t FixedWorkgroupDimensions(const Module& module, const BuiltInIndex& builtins,
                                  uint32_t entry_function,
                                  const std::function<const Instruction*(uint32_t)>& definition,
                                  int64_t size[3]) {
  uint32_t fixed = 0;
  auto take = [&](int dimension, bool known) {
    if (known && size[dimension] > 0 && size[dimension] <= kU32Max) fixed |= 1u << dimension;
  };
  if (uint32_t workgroup_size = builtins.WorkgroupSizeId()) {  // it overrides the modes
    const Instruction* def = definition(workgroup_size);
    auto composite = def ? ViewIf<ConstantCompositeView>(*def) : std::nullopt;
    if (!composite) return 0;
    auto constituents = composite->constituents();
    if (constituents.size() != 3) return 0;
    for (int i = 0; i < 3; ++i) take(i, PlainInt32Constant(definition, constituents[i], &size[i]));
    return fixed;
  }
  for (const Instruction& inst : module.execution_modes) {
    auto mode = ViewIf<ExecutionModeView>(inst);
    if (!mode || mode->operands().size() != 3 || mode->entry_point() != entry_function) continue;
    if (inst.opcode == spv::OpExecutionMode && mode->mode() == spv::ExecutionModeLocalSize) {
      for (int i = 0; i < 3; ++i) {
        size[i] = mode->operand(i);
        take(i, true);
      }
      return fixed;
    }
    if (inst.opcode == spv::OpExecutionModeId && mode->mode() == spv::ExecutionModeLocalSizeId) {
      for (int i = 0; i < 3; ++i) take(i, PlainInt32Constant(definition, mode->operand(i), &size[i]));
      return fixed;
    }
  }
  return 0;
}

bool EntryPointWorkgroupSize(const Module& module, const DefUse& def_use,
                             const BuiltInIndex& builtins, uint32_t entry_function, int64_t size[3],
                             std::string* why) {
  if (uint32_t workgroup_size = builtins.WorkgroupSizeId()) {  // it overrides the modes
    const Instruction* def = def_use.Definition(workgroup_size);
    bool known = def && def->opcode == spv::OpConstantComposite &&
                 ConstantCompositeView(*def).constituents().size() == 3;
    for (int i = 0; known && i < 3; ++i)
      known = ConstantValue(def_use, ConstantCompositeView(*def).constituents()[i], &size[i]);
    if (!known) *why = kWorkgroupSizeUnspecialized;
    return known && PositiveSize(size, why);
  }
  for (const Instruction& inst : module.execution_modes) {
    auto mode = ViewIf<ExecutionModeView>(inst);
    if (!mode || mode->operands().size() != 3 || mode->entry_point() != entry_function) continue;
    bool known = true;
    if (inst.opcode == spv::OpExecutionMode && mode->mode() == spv::ExecutionModeLocalSize) {
      for (int i = 0; i < 3; ++i) size[i] = mode->operand(i);
    } else if (inst.opcode == spv::OpExecutionModeId &&
               mode->mode() == spv::ExecutionModeLocalSizeId) {
      for (int i = 0; i < 3; ++i)
        known = known && ConstantValue(def_use, mode->operand(i), &size[i]);
    } else {
      continue;
    }
    if (!known) *why = kWorkgroupSizeUnspecialized;
    return known && PositiveSize(size, why);
  }
  *why = "workgroup size is not known";
  return false;
}

}  // namespace glint::spirv
