// Resolving the validation target and layout rules (validation_target.h).
#include "glslang/api/validation_target.h"

#include <glslang/MachineIndependent/localintermediate.h>
#include <glslang/SPIRV/SpvTools.h>

#include "glslang/front_end/front_end.h"

namespace glint {

TargetEnv TargetEnvOf(const glslang::TIntermediate& intermediate) {
  const glslang::SpvVersion& version = intermediate.getSpv();
  frontend::GlslangSettings client;  // GlintTargetEnv reads only the client fields
  client.client = version.vulkan   ? glslang::EShClientVulkan
                  : version.openGl ? glslang::EShClientOpenGL
                                   : glslang::EShClientNone;
  client.client_version = static_cast<glslang::EShTargetClientVersion>(version.vulkan);
  return frontend::GlintTargetEnv(client);
}

namespace {

void Merge(const spirv::ValidationRules& from, spirv::ValidationRules& into) {
  into.relaxed_block_layout |= from.relaxed_block_layout;
  into.uniform_buffer_standard_layout |= from.uniform_buffer_standard_layout;
  into.scalar_block_layout |= from.scalar_block_layout;
  into.workgroup_scalar_block_layout |= from.workgroup_scalar_block_layout;
  into.skip_block_layout |= from.skip_block_layout;
  into.before_hlsl_legalization |= from.before_hlsl_legalization;
}

spirv::ValidationRules RulesOf(const ValidatorLayouts& layouts) {
  spirv::ValidationRules rules;
  rules.relaxed_block_layout = layouts.relaxed_block_layout;
  rules.uniform_buffer_standard_layout = layouts.uniform_buffer_standard_layout;
  rules.scalar_block_layout = layouts.scalar_block_layout;
  rules.workgroup_scalar_block_layout = layouts.workgroup_scalar_block_layout;
  rules.skip_block_layout = layouts.skip_block_layout;
  return rules;
}

// The options glslang's SpirvToolsValidate derives from the intermediate.
spirv::ValidationRules RulesOf(const glslang::TIntermediate& intermediate,
                               const glslang::SpvOptions* spv_options) {
  spirv::ValidationRules rules;
  rules.relaxed_block_layout = intermediate.usingHlslOffsets();
  rules.scalar_block_layout = rules.workgroup_scalar_block_layout =
      intermediate.usingScalarBlockLayout();
  bool optimized = spv_options && !spv_options->disableOptimizer;
  rules.before_hlsl_legalization = intermediate.getSource() == glslang::EShSourceHlsl && !optimized;
  return rules;
}

}  // namespace

ValidationTarget ValidationTargetFor(const Options& options,
                                     const glslang::TIntermediate* intermediate,
                                     const glslang::SpvOptions* spv_options,
                                     const std::vector<uint32_t>& words) {
  ValidationTarget target;
  TargetEnv env = options.target_env;
  if (env == TargetEnv::kFromInput)
    env = intermediate ? TargetEnvOf(*intermediate) : TargetEnv::kUniversal;
  target.env = env;
  target.rules = RulesOf(options.validator_layouts);
  Merge(spirv::DeclaredValidationRules(words), target.rules);
  if (intermediate) Merge(RulesOf(*intermediate, spv_options), target.rules);
  return target;
}

}  // namespace glint
