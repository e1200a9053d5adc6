// The environment a module is compiled for, as the SPIR-V layer knows it.
//
// It decides the validator's rules (validate.h). The SPIR-V layer keeps its own enum
// so that nothing under SPIRV/ depends on the public API (glint/glint.h); the public
// API converts its glint::TargetEnv at the boundary (glslang/api/pass_boundary.h), where a
// static_assert per enumerator keeps the two lists in step.
#ifndef GLINT_SPIRV_TARGET_ENV_H
#define GLINT_SPIRV_TARGET_ENV_H

namespace glint::spirv {

enum class TargetEnv {
  kUniversal,  // no client API: validated as the module's own SPIR-V version
  kOpenGL45,
  kVulkan10,
  kVulkan11,
  kVulkan12,
  kVulkan13,
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_TARGET_ENV_H
