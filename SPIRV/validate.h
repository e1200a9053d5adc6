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

// Empty when valid, else the validator's first message.
std::string Validate(const std::vector<uint32_t>& words, TargetEnv target);

// Parses "vulkan1.0" .. "vulkan1.3", "opengl" / "opengl4.5", "spv1.0" .. "spv1.6"
// (any of which mean kUniversal). Returns false for an unknown name.
bool ParseTargetEnv(const std::string& name, TargetEnv* target);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_VALIDATE_H
