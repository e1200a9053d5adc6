// CheckModule and ValidateForDevice: which SPIR-V capabilities and extensions the harness can
// honour on the chosen device. A capability is accepted only when it is listed here and the device
// feature (or subgroup operation) behind it is present; anything else is refused by
// name, so that a shader the harness does not understand never reaches the driver.
#include <cstring>
#include <set>

#include "SPIRV/validate.h"
#include "vk_context.h"

namespace glint::vk {

namespace {

using Predicate = bool (*)(const Context::State&);

struct CapabilityRule {
  const char* capability;
  Predicate supported;
  const char* needs;  // what the device must have, for the message
};

bool Always(const Context::State&) { return true; }

template <VkSubgroupFeatureFlagBits kBit>
bool Subgroup(const Context::State& state) {
  return (state.subgroup.supportedOperations & kBit) != 0;
}

const CapabilityRule kRules[] = {
    {"Shader", Always, ""},
    {"Matrix", Always, ""},
    {"DeviceGroup", Always, ""},
    {"Float64", [](const Context::State& s) { return s.features.shaderFloat64 == VK_TRUE; },
     "shaderFloat64"},
    {"Int64", [](const Context::State& s) { return s.features.shaderInt64 == VK_TRUE; },
     "shaderInt64"},
    {"Int16", [](const Context::State& s) { return s.features.shaderInt16 == VK_TRUE; },
     "shaderInt16"},
    {"Int8", [](const Context::State& s) { return s.features12.shaderInt8 == VK_TRUE; },
     "shaderInt8"},
    {"Float16", [](const Context::State& s) { return s.features12.shaderFloat16 == VK_TRUE; },
     "shaderFloat16"},
    {"StorageBuffer16BitAccess",
     [](const Context::State& s) { return s.features11.storageBuffer16BitAccess == VK_TRUE; },
     "storageBuffer16BitAccess"},
    {"UniformAndStorageBuffer16BitAccess",
     [](const Context::State& s) {
       return s.features11.uniformAndStorageBuffer16BitAccess == VK_TRUE;
     },
     "uniformAndStorageBuffer16BitAccess"},
    {"StoragePushConstant16",
     [](const Context::State& s) { return s.features11.storagePushConstant16 == VK_TRUE; },
     "storagePushConstant16"},
    {"StorageBuffer8BitAccess",
     [](const Context::State& s) { return s.features12.storageBuffer8BitAccess == VK_TRUE; },
     "storageBuffer8BitAccess"},
    {"UniformAndStorageBuffer8BitAccess",
     [](const Context::State& s) {
       return s.features12.uniformAndStorageBuffer8BitAccess == VK_TRUE;
     },
     "uniformAndStorageBuffer8BitAccess"},
    {"StoragePushConstant8",
     [](const Context::State& s) { return s.features12.storagePushConstant8 == VK_TRUE; },
     "storagePushConstant8"},
    {"Int64Atomics",
     [](const Context::State& s) { return s.features12.shaderBufferInt64Atomics == VK_TRUE; },
     "shaderBufferInt64Atomics"},
    {"VulkanMemoryModel",
     [](const Context::State& s) { return s.features12.vulkanMemoryModel == VK_TRUE; },
     "vulkanMemoryModel"},
    {"VulkanMemoryModelDeviceScope",
     [](const Context::State& s) { return s.features12.vulkanMemoryModelDeviceScope == VK_TRUE; },
     "vulkanMemoryModelDeviceScope"},
    {"VariablePointersStorageBuffer",
     [](const Context::State& s) { return s.features11.variablePointersStorageBuffer == VK_TRUE; },
     "variablePointersStorageBuffer"},
    {"VariablePointers",
     [](const Context::State& s) { return s.features11.variablePointers == VK_TRUE; },
     "variablePointers"},
    {"DemoteToHelperInvocation",
     [](const Context::State& s) { return s.features13.shaderDemoteToHelperInvocation == VK_TRUE; },
     "shaderDemoteToHelperInvocation"},
    {"SampleRateShading",
     [](const Context::State& s) { return s.features.sampleRateShading == VK_TRUE; },
     "sampleRateShading"},
    {"GroupNonUniform", Subgroup<VK_SUBGROUP_FEATURE_BASIC_BIT>, "subgroup basic operations"},
    {"GroupNonUniformVote", Subgroup<VK_SUBGROUP_FEATURE_VOTE_BIT>, "subgroup vote operations"},
    {"GroupNonUniformArithmetic", Subgroup<VK_SUBGROUP_FEATURE_ARITHMETIC_BIT>,
     "subgroup arithmetic"},
    {"GroupNonUniformBallot", Subgroup<VK_SUBGROUP_FEATURE_BALLOT_BIT>, "subgroup ballot"},
    {"GroupNonUniformShuffle", Subgroup<VK_SUBGROUP_FEATURE_SHUFFLE_BIT>, "subgroup shuffle"},
    {"GroupNonUniformShuffleRelative", Subgroup<VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT>,
     "subgroup relative shuffle"},
    {"GroupNonUniformClustered", Subgroup<VK_SUBGROUP_FEATURE_CLUSTERED_BIT>,
     "subgroup clustered operations"},
    {"GroupNonUniformQuad", Subgroup<VK_SUBGROUP_FEATURE_QUAD_BIT>, "subgroup quad operations"},
};

// SPIR-V extensions that core Vulkan 1.1-1.3 features cover (their capabilities are
// checked above); any other extension is refused.
const char* const kCoreExtensions[] = {
    "SPV_KHR_storage_buffer_storage_class",
    "SPV_KHR_16bit_storage",
    "SPV_KHR_8bit_storage",
    "SPV_KHR_vulkan_memory_model",
    "SPV_KHR_variable_pointers",
    "SPV_KHR_device_group",
    "SPV_KHR_shader_draw_parameters",
    "SPV_KHR_non_semantic_info",
    "SPV_KHR_float_controls",
    "SPV_EXT_demote_to_helper_invocation",
    "SPV_KHR_terminate_invocation",
};

bool StageSupportsSubgroups(const Context::State& state, ShaderStage stage) {
  VkShaderStageFlags bit =
      stage == ShaderStage::kFragment ? VK_SHADER_STAGE_FRAGMENT_BIT : VK_SHADER_STAGE_COMPUTE_BIT;
  return (state.subgroup.supportedStages & bit) != 0;
}

bool CheckCapability(const Context::State& state, const ShaderInterface& interface,
                     const std::string& capability, std::string* error) {
  for (const CapabilityRule& rule : kRules) {
    if (capability != rule.capability) continue;
    bool ok = rule.supported(state);
    if (ok && capability.rfind("GroupNonUniform", 0) == 0)
      ok = StageSupportsSubgroups(state, interface.stage);
    if (!ok)
      *error = "the module needs capability " + capability + " but device '" +
               state.properties.deviceName + "' lacks " + rule.needs;
    return ok;
  }
  *error = "the module declares capability " + capability + ", which the harness does not support";
  return false;
}

const char* StageName(ShaderStage stage) {
  switch (stage) {
    case ShaderStage::kCompute:
      return "compute";
    case ShaderStage::kFragment:
      return "fragment";
    case ShaderStage::kVertex:
      return "vertex";
    default:
      return "other";
  }
}

}  // namespace

bool CheckModule(const Context::State& state, const ShaderInterface& interface,
                 ShaderStage expected_stage, std::string* error) {
  if (interface.stage != expected_stage) {
    *error = std::string("the entry point is a ") + StageName(interface.stage) +
             " shader; this run needs a " + StageName(expected_stage) + " shader";
    return false;
  }
  uint32_t minor = (interface.spirv_version >> 8) & 0xff;
  uint32_t api_minor = VK_API_VERSION_MINOR(state.properties.apiVersion);
  uint32_t max_spirv_minor = api_minor >= 3 ? 6 : api_minor == 2 ? 5 : 3;
  if (minor > max_spirv_minor) {
    *error = "the module is SPIR-V 1." + std::to_string(minor) + " but device '" +
             state.properties.deviceName + "' (Vulkan 1." + std::to_string(api_minor) +
             ") accepts at most SPIR-V 1." + std::to_string(max_spirv_minor);
    return false;
  }
  for (const std::string& capability : interface.capabilities)
    if (!CheckCapability(state, interface, capability, error)) return false;
  for (const std::string& extension : interface.extensions) {
    bool known = false;
    for (const char* core : kCoreExtensions) known = known || extension == core;
    if (!known) {
      *error =
          "the module uses SPIR-V extension " + extension + ", which the harness does not enable";
      return false;
    }
  }
  return true;
}

}  // namespace glint::vk

namespace glint::vk {

bool ValidateForDevice(const Context::State& state, const std::vector<uint32_t>& words,
                       std::string* error) {
  if (!state.validate_modules) return true;
  uint32_t api_minor = VK_API_VERSION_MINOR(state.properties.apiVersion);
  uint32_t spirv_minor = words.size() > 1 ? (words[1] >> 8) & 0xff : 0;
  // The oldest Vulkan version whose environment accepts the module's SPIR-V version.
  spirv::TargetEnv env = spirv_minor >= 6   ? spirv::TargetEnv::kVulkan13
                         : spirv_minor == 5 ? spirv::TargetEnv::kVulkan12
                                            : spirv::TargetEnv::kVulkan11;
  if (api_minor >= 3 && spirv_minor >= 6) env = spirv::TargetEnv::kVulkan13;
  std::string problem = spirv::Validate(words, env);
  if (problem.empty()) return true;
  *error = "pipeline creation refused: the module fails spirv-val: " + problem;
  return false;
}

}  // namespace glint::vk
