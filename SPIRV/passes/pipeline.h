// Glint's pass pipeline: which passes run, in which order, for a set of Options.
// Order: hoist constant tables, then robust access (which uses the range analysis),
// then audit instrumentation (only when auditing). Analyses that only report
// (uniformity) run after the rewriting passes on the final module.
#ifndef GLINT_SPIRV_PASSES_PIPELINE_H
#define GLINT_SPIRV_PASSES_PIPELINE_H

#include "pass.h"

namespace glint::spirv {

PassResult RunPipeline(Module& module, PassContext& context);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_PIPELINE_H
