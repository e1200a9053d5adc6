// What the pass pipeline is asked to do: which passes run and how they decide.
//
// The SPIR-V layer's own options, read by the pipeline (pipeline.h) and the passes.
// They mirror the part of the public glint::Options that passes read; the public API
// converts (glslang/api/pass_boundary.h), so nothing under SPIRV/ includes glint/glint.h.
// Options the passes never read (the target environment, final validation) stay with
// the public API.
#ifndef GLINT_SPIRV_PASSES_PASS_OPTIONS_H
#define GLINT_SPIRV_PASSES_PASS_OPTIONS_H

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "SPIRV/analysis/range_analysis_mode.h"
#include "SPIRV/analysis/uniformity_filter.h"
#include "SPIRV/diagnostics.h"

namespace glint::spirv {

struct Options {
  // hoist-constant-tables runs in the default pipeline.
  bool hoist_constant_tables = true;
  // robust-access is not in the default pipeline: it runs only when asked for.
  bool robust_access = false;
  // Which range analysis robust access and the range report ask.
  RangeAnalysisMode range_analysis = RangeAnalysisMode::kFull;
  // Severity of uniformity findings; kOff leaves the uniformity pass out.
  Severity uniformity = Severity::kWarning;
  // What the user says about uniformity findings: silence, downgrade, promise
  // (analysis/uniformity_filters.h). Never changes the module.
  std::vector<UniformityFilter> uniformity_filters;
  // The subgroup size the user promises (0: unknown).
  uint32_t subgroup_size = 0;
  // The largest dispatch the user promises, per dimension ({0, 0, 0}: unknown).
  std::array<uint32_t, 3> max_workgroups{};
  // Values for specialization constants, by SpecId (specialize-constants).
  std::map<uint32_t, uint64_t> spec_constants;
  // Fill Report::accesses (range-report runs) and Report::tables.
  bool collect_ranges = false;
  // Run exactly these passes, in this order (pipeline.h); empty: the default choice.
  std::vector<std::string> passes;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_PASS_OPTIONS_H
