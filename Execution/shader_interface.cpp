#include "shader_interface.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/integer_folding.h"
#include "SPIRV/ir/parser.h"

namespace glint::vk {

const BindingInfo* ShaderInterface::Find(uint32_t set, uint32_t binding) const {
  for (const BindingInfo& info : bindings)
    if (info.set == set && info.binding == binding) return &info;
  return nullptr;
}

namespace {

using spirv::Instruction;
using spirv::Module;

// Sizes of explicitly laid out types (blocks in Uniform, StorageBuffer and PushConstant
// storage), from their Offset / ArrayStride / MatrixStride decorations.
class LayoutSizer {
 public:
  explicit LayoutSizer(const Module& module) : module_(module) {
    for (const Instruction& inst : module.types_values)
      if (inst.result_id) definitions_[inst.result_id] = &inst;
  }

  const Instruction* Definition(uint32_t id) const {
    auto found = definitions_.find(id);
    return found == definitions_.end() ? nullptr : found->second;
  }

  // The value of an integer or boolean constant: OpConstant, a spec constant's default,
  // or an OpSpecConstantOp of those (an array sized "N / 2 + 1"), at most `depth` deep.
  // Values are kept in the low bits of their type's width, as the module's types say.
  std::optional<uint64_t> ConstantValue(uint32_t id, int depth = 16) const {
    const Instruction* inst = Definition(id);
    if (!inst || depth == 0) return std::nullopt;
    switch (inst->opcode) {
      case spv::OpConstantTrue:
      case spv::OpSpecConstantTrue:
        return 1;
      case spv::OpConstantFalse:
      case spv::OpSpecConstantFalse:
        return 0;
      case spv::OpSpecConstantOp:
        return SpecConstantOpValue(*inst, depth - 1);
      case spv::OpConstant:
      case spv::OpSpecConstant:
        if (inst->words.empty()) return std::nullopt;
        return inst->words[0] | (inst->words.size() > 1 ? uint64_t{inst->words[1]} << 32 : 0);
      default:
        return std::nullopt;
    }
  }

  // Bits of an integer (or bool: 1) type; 0 for anything else.
  uint32_t WidthOf(uint32_t type_id) const {
    const Instruction* type = Definition(type_id);
    if (!type) return 0;
    if (type->opcode == spv::OpTypeBool) return 1;
    return type->opcode == spv::OpTypeInt && !type->words.empty() ? type->words[0] : 0;
  }

  std::optional<uint64_t> SpecConstantOpValue(const Instruction& inst, int depth) const {
    uint32_t width = WidthOf(inst.type_id);
    if (width == 0 || width > 64 || inst.words.size() < 2) return std::nullopt;
    std::vector<uint64_t> operands;
    for (size_t i = 1; i < inst.words.size(); ++i) {
      std::optional<uint64_t> value = ConstantValue(inst.words[i], depth);
      if (!value) return std::nullopt;
      operands.push_back(*value);
    }
    // Operand widths matter for signed reads, shifts and conversions: the first
    // operand's, except for OpSelect, whose first operand is its condition.
    const spv::Op op = static_cast<spv::Op>(inst.words[0]);
    const Instruction* first = Definition(inst.words[1]);
    uint32_t operand_width = op == spv::OpSelect ? width : first ? WidthOf(first->type_id) : 0;
    if (operand_width == 0 || operands.size() > 3) return std::nullopt;
    std::optional<uint64_t> result =
        spirv::FoldIntegerOp(op, operands.data(), operands.size(), {operand_width});
    if (!result) return std::nullopt;
    return width == 64 ? *result : *result & ((uint64_t{1} << width) - 1);
  }

  uint32_t DecorationValue(uint32_t id, spv::Decoration decoration) const {
    for (const Instruction* inst : module_.DecorationsOf(id))
      if (inst->opcode == spv::OpDecorate && inst->words.size() > 2 &&
          inst->words[1] == static_cast<uint32_t>(decoration))
        return inst->words[2];
    return 0;
  }

  // Offset, MatrixStride and RowMajor of one struct member.
  struct MemberLayout {
    std::optional<uint32_t> offset;
    uint32_t matrix_stride = 0;
    bool row_major = false;
  };
  MemberLayout MemberOf(uint32_t struct_id, uint32_t member) const {
    MemberLayout layout;
    for (const Instruction* inst : module_.DecorationsOf(struct_id)) {
      if (inst->opcode != spv::OpMemberDecorate || inst->words.size() < 3 ||
          inst->words[1] != member)
        continue;
      spv::Decoration decoration = static_cast<spv::Decoration>(inst->words[2]);
      if (decoration == spv::DecorationOffset && inst->words.size() > 3)
        layout.offset = inst->words[3];
      if (decoration == spv::DecorationMatrixStride && inst->words.size() > 3)
        layout.matrix_stride = inst->words[3];
      if (decoration == spv::DecorationRowMajor) layout.row_major = true;
    }
    return layout;
  }

  // Bytes occupied by `type_id`; a run-time array counts 0 and sets *runtime_stride.
  std::optional<uint64_t> SizeOf(uint32_t type_id, uint32_t matrix_stride, bool row_major,
                                 uint64_t* runtime_stride, std::string* error) const {
    const Instruction* type = Definition(type_id);
    if (!type) return Refuse(error, "type %" + std::to_string(type_id) + " is not declared");
    switch (type->opcode) {
      case spv::OpTypeBool:
        return 4;
      case spv::OpTypeInt:
      case spv::OpTypeFloat:
        return type->words[0] / 8;
      case spv::OpTypePointer:
        return 8;  // PhysicalStorageBuffer pointers stored in a block
      case spv::OpTypeVector: {
        auto component = SizeOf(type->words[0], 0, false, nullptr, error);
        if (!component) return std::nullopt;
        return *component * type->words[1];
      }
      case spv::OpTypeMatrix:
        return MatrixSize(*type, matrix_stride, row_major, error);
      case spv::OpTypeArray:
        return ArraySize(*type, matrix_stride, row_major, error);
      case spv::OpTypeRuntimeArray:
        if (runtime_stride) *runtime_stride = DecorationValue(type_id, spv::DecorationArrayStride);
        return 0;
      case spv::OpTypeStruct:
        return StructSize(*type, runtime_stride, error);
      default:
        return Refuse(error, std::string("cannot size a ") +
                                 spirv::grammar::OpcodeName(type->opcode) + " in a buffer block");
    }
  }

 private:
  static std::optional<uint64_t> Refuse(std::string* error, const std::string& message) {
    if (error) *error = message;
    return std::nullopt;
  }

  std::optional<uint64_t> MatrixSize(const Instruction& type, uint32_t matrix_stride,
                                     bool row_major, std::string* error) const {
    const Instruction* column = Definition(type.words[0]);
    if (!column || column->opcode != spv::OpTypeVector)
      return Refuse(error, "malformed matrix type");
    uint64_t major_count = row_major ? column->words[1] : type.words[1];
    if (matrix_stride == 0) {
      auto column_size = SizeOf(type.words[0], 0, false, nullptr, error);
      if (!column_size) return std::nullopt;
      return *column_size * type.words[1];
    }
    return major_count * matrix_stride;
  }

  std::optional<uint64_t> ArraySize(const Instruction& type, uint32_t matrix_stride, bool row_major,
                                    std::string* error) const {
    std::optional<uint64_t> length = ConstantValue(type.words[1]);
    if (!length)
      return Refuse(error, "array length %" + std::to_string(type.words[1]) +
                               " is not a constant the harness can evaluate");
    uint64_t stride = DecorationValue(type.result_id, spv::DecorationArrayStride);
    if (stride == 0) {
      auto element = SizeOf(type.words[0], matrix_stride, row_major, nullptr, error);
      if (!element) return std::nullopt;
      stride = *element;
    }
    return *length * stride;
  }

  std::optional<uint64_t> StructSize(const Instruction& type, uint64_t* runtime_stride,
                                     std::string* error) const {
    uint64_t end = 0;
    for (uint32_t member = 0; member < type.words.size(); ++member) {
      MemberLayout layout = MemberOf(type.result_id, member);
      auto size =
          SizeOf(type.words[member], layout.matrix_stride, layout.row_major, runtime_stride, error);
      if (!size) return std::nullopt;
      uint64_t offset = layout.offset ? *layout.offset : end;
      end = std::max(end, offset + *size);
    }
    return end;
  }

  const Module& module_;
  std::unordered_map<uint32_t, const Instruction*> definitions_;
};

// Describes a UniformConstant resource (or a descriptor array) the harness cannot back.
std::string DescribeOpaque(const LayoutSizer& sizer, uint32_t pointee) {
  const Instruction* type = sizer.Definition(pointee);
  if (!type) return "an undeclared type";
  switch (type->opcode) {
    case spv::OpTypeImage:
      return type->words.size() > 1 && type->words[1] == spv::DimBuffer ? "a texel buffer"
                                                                        : "an image";
    case spv::OpTypeSampler:
      return "a sampler";
    case spv::OpTypeSampledImage:
      return "a combined image sampler";
    case spv::OpTypeAccelerationStructureKHR:
      return "an acceleration structure";
    case spv::OpTypeArray:
    case spv::OpTypeRuntimeArray:
      return "an array of descriptors";
    default:
      return std::string("a resource of type ") + spirv::grammar::OpcodeName(type->opcode);
  }
}

bool ReadBinding(const Module& module, const LayoutSizer& sizer, const Instruction& variable,
                 BindingInfo* info, std::string* error) {
  spv::StorageClass storage = static_cast<spv::StorageClass>(variable.words[0]);
  const Instruction* pointer = sizer.Definition(variable.type_id);
  uint32_t pointee = pointer ? pointer->words[1] : 0;
  info->set = sizer.DecorationValue(variable.result_id, spv::DecorationDescriptorSet);
  info->binding = sizer.DecorationValue(variable.result_id, spv::DecorationBinding);
  info->name = module.NameOf(variable.result_id);
  if (info->name.empty()) info->name = module.NameOf(pointee);
  const Instruction* type = sizer.Definition(pointee);
  bool is_struct = type && type->opcode == spv::OpTypeStruct;
  if (storage == spv::StorageClassUniformConstant || !is_struct) {
    info->kind = BindingKind::kUnsupported;
    info->description = DescribeOpaque(sizer, pointee);
    return true;
  }
  bool buffer_block = module.HasDecoration(pointee, spv::DecorationBufferBlock);
  info->kind = storage == spv::StorageClassStorageBuffer || buffer_block
                   ? BindingKind::kStorageBuffer
                   : BindingKind::kUniformBuffer;
  auto size = sizer.SizeOf(pointee, 0, false, &info->runtime_array_stride, error);
  if (!size) {
    *error = "binding (set " + std::to_string(info->set) + ", binding " +
             std::to_string(info->binding) + "): " + *error;
    return false;
  }
  info->static_size = *size;
  return true;
}

bool ReadVariables(const Module& module, const LayoutSizer& sizer, ShaderInterface* out,
                   std::string* error) {
  for (const Instruction& inst : module.types_values) {
    if (inst.opcode != spv::OpVariable || inst.words.empty()) continue;
    spv::StorageClass storage = static_cast<spv::StorageClass>(inst.words[0]);
    if (storage == spv::StorageClassPushConstant) {
      const Instruction* pointer = sizer.Definition(inst.type_id);
      auto size = sizer.SizeOf(pointer ? pointer->words[1] : 0, 0, false, nullptr, error);
      if (!size) return false;
      out->push_constant_size = std::max(out->push_constant_size, *size);
      continue;
    }
    if (storage != spv::StorageClassUniform && storage != spv::StorageClassStorageBuffer &&
        storage != spv::StorageClassUniformConstant)
      continue;
    BindingInfo info;
    if (!ReadBinding(module, sizer, inst, &info, error)) return false;
    out->bindings.push_back(std::move(info));
  }
  std::sort(out->bindings.begin(), out->bindings.end(),
            [](const BindingInfo& a, const BindingInfo& b) {
              return a.set != b.set ? a.set < b.set : a.binding < b.binding;
            });
  return true;
}

void ReadSpecConstants(const Module& module, const LayoutSizer& sizer, ShaderInterface* out) {
  for (const Instruction& inst : module.types_values) {
    if (inst.opcode != spv::OpSpecConstant && inst.opcode != spv::OpSpecConstantTrue &&
        inst.opcode != spv::OpSpecConstantFalse)
      continue;
    for (const Instruction* decoration : module.DecorationsOf(inst.result_id)) {
      if (decoration->opcode != spv::OpDecorate || decoration->words.size() < 3 ||
          decoration->words[1] != spv::DecorationSpecId)
        continue;
      const Instruction* type = sizer.Definition(inst.type_id);
      uint32_t bytes = type && type->opcode != spv::OpTypeBool ? type->words[0] / 8 : 4;
      out->spec_constant_sizes[decoration->words[2]] = bytes;
    }
  }
}

ShaderStage StageOf(spv::ExecutionModel model) {
  switch (model) {
    case spv::ExecutionModelGLCompute:
      return ShaderStage::kCompute;
    case spv::ExecutionModelFragment:
      return ShaderStage::kFragment;
    case spv::ExecutionModelVertex:
      return ShaderStage::kVertex;
    default:
      return ShaderStage::kOther;
  }
}

// Stage and local size of the entry point named `entry_point`.
bool ReadEntryPoint(const Module& module, const std::string& entry_point, ShaderInterface* out,
                    std::string* error) {
  for (const Instruction& inst : module.entry_points) {
    spirv::EntryPointInterfaceView view(inst);
    if (view.name() != entry_point) continue;
    out->stage = StageOf(view.model());
    for (const Instruction& mode : module.execution_modes)
      if (mode.opcode == spv::OpExecutionMode && mode.words.size() >= 5 &&
          mode.words[0] == view.function() && mode.words[1] == spv::ExecutionModeLocalSize)
        std::copy(mode.words.begin() + 2, mode.words.begin() + 5, out->local_size);
    return true;
  }
  *error = "the module has no entry point named '" + entry_point + "'";
  return false;
}

}  // namespace

std::optional<ShaderInterface> ReadShaderInterface(const std::vector<uint32_t>& words,
                                                   const std::string& entry_point,
                                                   std::string* error) {
  std::optional<Module> module = spirv::ParseModule(words, error);
  if (!module) {
    *error = "malformed SPIR-V: " + *error;
    return std::nullopt;
  }
  ShaderInterface out;
  out.spirv_version = module->header.version;
  if (!ReadEntryPoint(*module, entry_point, &out, error)) return std::nullopt;
  LayoutSizer sizer(*module);
  if (!ReadVariables(*module, sizer, &out, error)) return std::nullopt;
  ReadSpecConstants(*module, sizer, &out);
  for (const Instruction& inst : module->capabilities) {
    const char* name =
        spirv::grammar::EnumerantName(spirv::grammar::OperandKind::kCapability, inst.words[0]);
    out.capabilities.push_back(name ? name : "Capability" + std::to_string(inst.words[0]));
  }
  for (const Instruction& inst : module->extensions) out.extensions.push_back(inst.StringAt(0));
  return out;
}

}  // namespace glint::vk
