// What the pass pipeline is asked to do: which passes run and how they decide.
//
// The public glint::Options (glint/types.h, defined once there), read by the pipeline
// (pipeline.h) and the passes. The fields passes never read (the target environment,
// final validation) are the API's business.
#ifndef GLINT_SPIRV_PASSES_PASS_OPTIONS_H
#define GLINT_SPIRV_PASSES_PASS_OPTIONS_H

#include "glint/types.h"

namespace glint::spirv {

using glint::Options;

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_PASS_OPTIONS_H
