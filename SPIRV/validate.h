// Validation of a module with SPIRV-Tools' validator for a Glint target environment.
#ifndef GLINT_SPIRV_VALIDATE_H
#define GLINT_SPIRV_VALIDATE_H

#include <cstdint>
#include <string>
#include <vector>

#include "SPIRV/target_env.h"

namespace glint::spirv {

// The SPIRV-Tools environment that validates a module of `spirv_version` (the header
// word) for `target`: a Vulkan 1.1 module of SPIR-V 1.4 validates as vulkan1.1spv1.4.
int ValidatorEnvironment(TargetEnv target, uint32_t spirv_version);  // an spv_target_env

// Block layout rules beyond the environment's own (SPIRV-Tools' validator options of
// the same names), and whether the module may still need HLSL legalization.
struct ValidationRules {
  bool relaxed_block_layout = false;
  bool uniform_buffer_standard_layout = false;
  bool scalar_block_layout = false;
  bool workgroup_scalar_block_layout = false;
  bool skip_block_layout = false;
  bool before_hlsl_legalization = false;
};

// Empty when valid, else the validator's first message.
std::string Validate(const std::vector<uint32_t>& words, TargetEnv target,
                     const ValidationRules& rules = {});

// What the module itself says it needs: scalar (and workgroup scalar) block layout for
// OpSourceExtension "GL_EXT_scalar_block_layout", relaxed block layout for an HLSL
// OpSource. Reads only the module's debug section; a malformed stream yields no rules.
ValidationRules DeclaredValidationRules(const std::vector<uint32_t>& words);

// Parses "vulkan1.0" .. "vulkan1.3", "opengl" / "opengl4.5", "spv1.0" .. "spv1.6"
// (any of which mean kUniversal). Returns false for an unknown name.
bool ParseTargetEnv(const std::string& name, TargetEnv* target);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_VALIDATE_H
