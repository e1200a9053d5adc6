// What Glint's final validation (Options::validate) checks a module against: the
// target environment — the caller's Options::target_env, or with TargetEnv::kFromInput
// the input's (the intermediate's client and version for GlslangToSpv; the universal
// environment of the module's SPIR-V version for a bare module) — and the block layout
// rules: the caller's Options::validator_layouts, plus what the input says it needs
// (glslang's intermediate: HLSL offsets -> relaxed, scalar blocks -> scalar and
// workgroup scalar, exactly the options glslang's own --spirv-val passes; the module:
// spirv::DeclaredValidationRules). HLSL that glslang did not legalize (its optimizer
// off) is validated as before legalization, as glslang does.
#ifndef GLINT_GLSLANG_API_VALIDATION_TARGET_H
#define GLINT_GLSLANG_API_VALIDATION_TARGET_H

#include <cstdint>
#include <vector>

#include "SPIRV/target_env.h"
#include "SPIRV/validate.h"
#include "glint/glint.h"

namespace glint {

// The environment glslang compiled `intermediate` for: its Vulkan version, OpenGL 4.5,
// or kUniversal when it names no client.
TargetEnv TargetEnvOf(const glslang::TIntermediate& intermediate);

struct ValidationTarget {
  spirv::TargetEnv env = spirv::TargetEnv::kUniversal;
  spirv::ValidationRules rules;
};

// The target and rules for validating `words`. `intermediate` and `spv_options` may be
// null (a module from another front end; glslang's default options).
ValidationTarget ValidationTargetFor(const Options& options,
                                     const glslang::TIntermediate* intermediate,
                                     const glslang::SpvOptions* spv_options,
                                     const std::vector<uint32_t>& words);

}  // namespace glint

#endif  // GLINT_GLSLANG_API_VALIDATION_TARGET_H
