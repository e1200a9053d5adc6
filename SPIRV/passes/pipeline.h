// Glint's pass pipeline: which passes run, in which order, for a set of Options.
//
// Default order: specialize-constants (only with spec constant values), then
// hoist-constant-tables, then range-report (only with collect_ranges: it records the
// ranges of the module robust access is about to rewrite), then robust-access, then
// uniformity, read-only and last so that it judges the module that is emitted.
// Options::passes replaces that choice with an explicit list of pass names.
#ifndef GLINT_SPIRV_PASSES_PIPELINE_H
#define GLINT_SPIRV_PASSES_PIPELINE_H

#include <string>
#include <vector>

#include "pass.h"

namespace glint::spirv {

// Every pass name the pipeline knows, in default order.
const std::vector<std::string>& PipelinePassNames();

// The pass of that name, or null.
std::unique_ptr<Pass> MakePass(const std::string& name);

// The names of the passes RunPipeline runs for `options`, in order.
std::vector<std::string> PipelineFor(const Options& options);

// True when the pipeline for `options` runs pass `later` at some point after pass
// `earlier`.
bool PipelineRunsAfter(const Options& options, const char* later, const char* earlier);

// Runs the pipeline for context.options; an unknown name in Options::passes fails.
PassResult RunPipeline(Module& module, PassContext& context);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_PIPELINE_H
