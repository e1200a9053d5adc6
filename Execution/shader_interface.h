// What a SPIR-V module asks of the harness before it can run: its entry point and
// stage, the descriptor bindings it declares (set, binding, kind, byte size), the size
// of its push-constant block, the width of each specialization constant and the
// capabilities it declares. Read with Glint's own IR (glint::spirv::ParseModule) and the
// module's decorations (DescriptorSet, Binding, Block, BufferBlock, Offset, ArrayStride,
// MatrixStride, SpecId).
//
// Refuses (with a message) a module that does not parse, an entry point that is not
// there, and a resource it cannot size (an array length that is neither a constant nor
// an integer OpSpecConstantOp of constants; spec constants count with their defaults). A
// binding the harness cannot back with a plain buffer (image, sampler, acceleration
// structure, descriptor array) is not a refusal here: it is reported with kind
// kUnsupported and a description, and the runner refuses it.
#ifndef GLINT_EXECUTION_SHADER_INTERFACE_H
#define GLINT_EXECUTION_SHADER_INTERFACE_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace glint::vk {

enum class BindingKind { kStorageBuffer, kUniformBuffer, kUnsupported };

struct BindingInfo {
  uint32_t set = 0;
  uint32_t binding = 0;
  BindingKind kind = BindingKind::kUnsupported;
  std::string name;         // OpName of the variable, or of its block type
  std::string description;  // why it is unsupported, e.g. "a sampled image"
  // Bytes of the block without its trailing run-time array; 0 for unsupported kinds.
  uint64_t static_size = 0;
  // ArrayStride of a trailing run-time array (0 when the block has none).
  uint64_t runtime_array_stride = 0;
};

enum class ShaderStage { kCompute, kFragment, kVertex, kOther };

struct ShaderInterface {
  ShaderStage stage = ShaderStage::kOther;
  uint32_t local_size[3] = {1, 1, 1};                // OpExecutionMode LocalSize; {1,1,1} otherwise
  std::vector<BindingInfo> bindings;                 // sorted by (set, binding)
  uint64_t push_constant_size = 0;                   // 0 when there is no push-constant block
  std::map<uint32_t, uint32_t> spec_constant_sizes;  // SpecId -> bytes (4 or 8; bool is 4)
  std::vector<std::string> capabilities;             // names, e.g. "Shader", "Int64"
  std::vector<std::string> extensions;               // OpExtension names
  uint32_t spirv_version = 0;                        // the header word

  const BindingInfo* Find(uint32_t set, uint32_t binding) const;
};

// Reads the interface of entry point `entry_point` of `words`.
std::optional<ShaderInterface> ReadShaderInterface(const std::vector<uint32_t>& words,
                                                   const std::string& entry_point,
                                                   std::string* error);

}  // namespace glint::vk

#endif  // GLINT_EXECUTION_SHADER_INTERFACE_H
