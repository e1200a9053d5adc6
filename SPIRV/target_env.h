// The environment a module is compiled for: the public glint::TargetEnv (glint/types.h,
// defined once there). It decides the validator's rules (validate.h); kFromInput is
// resolved by the API before anything is validated, and validate.h reads it as the
// universal environment of the module's SPIR-V version.
#ifndef GLINT_SPIRV_TARGET_ENV_H
#define GLINT_SPIRV_TARGET_ENV_H

#include "glint/types.h"

namespace glint::spirv {

using glint::TargetEnv;

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_TARGET_ENV_H
