#include "validate.h"

#include <spirv-tools/libspirv.hpp>

namespace glint::spirv {

int ValidatorEnvironment(TargetEnv target, uint32_t spirv_version) {
  const uint32_t minor = (spirv_version >> 8) & 0xff;
  switch (target) {
    case TargetEnv::kOpenGL45:
      return SPV_ENV_OPENGL_4_5;
    case TargetEnv::kVulkan10:
      return SPV_ENV_VULKAN_1_0;
    case TargetEnv::kVulkan11:
      return minor >= 4 ? SPV_ENV_VULKAN_1_1_SPIRV_1_4 : SPV_ENV_VULKAN_1_1;
    case TargetEnv::kVulkan12:
      return SPV_ENV_VULKAN_1_2;
    case TargetEnv::kVulkan13:
      return SPV_ENV_VULKAN_1_3;
    case TargetEnv::kUniversal:
      break;
  }
  static const spv_target_env kUniversal[] = {
      SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_1, SPV_ENV_UNIVERSAL_1_2, SPV_ENV_UNIVERSAL_1_3,
      SPV_ENV_UNIVERSAL_1_4, SPV_ENV_UNIVERSAL_1_5, SPV_ENV_UNIVERSAL_1_6};
  return kUniversal[minor > 6 ? 6 : minor];
}

std::string Validate(const std::vector<uint32_t>& words, TargetEnv target) {
  uint32_t version = words.size() > 1 ? words[1] : 0x10000;
  spvtools::SpirvTools tools(static_cast<spv_target_env>(ValidatorEnvironment(target, version)));
  std::string first;
  tools.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
        if (first.empty()) first = message;
      });
  if (tools.Validate(words)) return "";
  return first.empty() ? "spirv-val rejected the module" : first;
}

bool ParseTargetEnv(const std::string& name, TargetEnv* target) {
  if (name == "vulkan1.0")
    *target = TargetEnv::kVulkan10;
  else if (name == "vulkan1.1")
    *target = TargetEnv::kVulkan11;
  else if (name == "vulkan1.2")
    *target = TargetEnv::kVulkan12;
  else if (name == "vulkan1.3")
    *target = TargetEnv::kVulkan13;
  else if (name == "opengl" || name == "opengl4.5")
    *target = TargetEnv::kOpenGL45;
  else if (name.rfind("spv1.", 0) == 0 || name.rfind("spirv1.", 0) == 0)
    *target = TargetEnv::kUniversal;
  else
    return false;
  return true;
}

}  // namespace glint::spirv
