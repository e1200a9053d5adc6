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
    case TargetEnv::kFromInput:  // resolved by the API; read as the module's own version
      break;
  }
  static const spv_target_env kUniversal[] = {
      SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_1, SPV_ENV_UNIVERSAL_1_2, SPV_ENV_UNIVERSAL_1_3,
      SPV_ENV_UNIVERSAL_1_4, SPV_ENV_UNIVERSAL_1_5, SPV_ENV_UNIVERSAL_1_6};
  return kUniversal[minor > 6 ? 6 : minor];
}

namespace {

spvtools::ValidatorOptions ToValidatorOptions(const ValidationRules& rules) {
  spvtools::ValidatorOptions options;
  options.SetRelaxBlockLayout(rules.relaxed_block_layout);
  options.SetUniformBufferStandardLayout(rules.uniform_buffer_standard_layout);
  options.SetScalarBlockLayout(rules.scalar_block_layout);
  options.SetWorkgroupScalarBlockLayout(rules.workgroup_scalar_block_layout);
  options.SetSkipBlockLayout(rules.skip_block_layout);
  options.SetBeforeHlslLegalization(rules.before_hlsl_legalization);
  return options;
}

// A literal string operand starting at word `first` of an instruction of `count` words.
std::string LiteralString(const std::vector<uint32_t>& words, size_t first, size_t end) {
  std::string text;
  for (size_t w = first; w < end; ++w)
    for (int byte = 0; byte < 4; ++byte) {
      char c = static_cast<char>((words[w] >> (8 * byte)) & 0xff);
      if (c == '\0') return text;
      text += c;
    }
  return text;
}

}  // namespace

ValidationRules DeclaredValidationRules(const std::vector<uint32_t>& words) {
  constexpr uint32_t kOpSource = 3, kOpSourceExtension = 4, kOpFunction = 54;
  constexpr uint32_t kSourceLanguageHlsl = 5, kHeaderWords = 5;
  ValidationRules rules;
  for (size_t at = kHeaderWords; at < words.size();) {
    uint32_t opcode = words[at] & 0xffff, count = words[at] >> 16;
    if (count == 0 || count > words.size() - at || opcode == kOpFunction) break;
    if (opcode == kOpSource && count > 1 && words[at + 1] == kSourceLanguageHlsl)
      rules.relaxed_block_layout = true;
    if (opcode == kOpSourceExtension &&
        LiteralString(words, at + 1, at + count) == "GL_EXT_scalar_block_layout")
      rules.scalar_block_layout = rules.workgroup_scalar_block_layout = true;
    at += count;
  }
  return rules;
}

std::string Validate(const std::vector<uint32_t>& words, TargetEnv target,
                     const ValidationRules& rules) {
  uint32_t version = words.size() > 1 ? words[1] : 0x10000;
  spvtools::SpirvTools tools(static_cast<spv_target_env>(ValidatorEnvironment(target, version)));
  std::string first;
  tools.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
        if (first.empty()) first = message;
      });
  // The verdict first without friendly names: the validator's map from ids to names
  // (built up front for the whole module) is about a sixth of its peak memory and is
  // read only by messages. A module that fails is validated again with the names, so
  // the message is the one spirv-val prints.
  spvtools::ValidatorOptions options = ToValidatorOptions(rules);
  options.SetFriendlyNames(false);
  if (tools.Validate(words.data(), words.size(), options)) return "";
  first.clear();
  if (tools.Validate(words.data(), words.size(), ToValidatorOptions(rules))) return "";
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
