// Uniformity filters: what the user says about uniformity that no analysis proves, and
// which findings it silences, downgrades or removes.
//
// A filter names a place, a function (by its source name) or a range of source lines,
// and an action:
//   off             findings at that place are not reported; they are kept as
//                   suppressed, with the filter and the user's justification, so that
//                   reports (SARIF suppressions, the HTML summary) still show them.
//   note            findings at that place are reported as notes, not warnings or errors.
//   assume-uniform  (functions only) every call's result is taken as workgroup-uniform
//                   by the analysis (WGSL's workgroupUniformLoad, as a promise). The
//                   findings that disappear under the promise are kept as suppressed by it.
// A finding is at a place when the instruction it is reported at is there, or when every
// uniform-control instruction behind it is (a call-site finding lists what its callee
// needs: silencing the function that holds a barrier silences the calls that need it,
// but not a call that also needs something elsewhere).
//
// A filter is a promise, not a proof: it never changes the module (the uniformity
// analysis only reports) and never makes a finding disappear without a trace.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_FILTERS_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_FILTERS_H

#include <cstdint>
#include <string>
#include <vector>

#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/analysis/uniformity/uniformity_filter.h"
#include "glint/types.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

// How the filter reads on glslangValidator's command line (without its justification):
// "--uniformity-off=shade.frag:12-14", "--uniformity-assume-uniform=broadcast".
std::string UniformityFilterText(const UniformityFilter& filter);

// Whether `wanted` names the function whose OpName is `op_name`: the whole name, or
// the source name before the parameter list glslang appends ("broadcast(u1;u1;").
bool FunctionNameMatches(const std::string& op_name, const std::string& wanted);

// Whether a location names `file`: the same text, or one is the other's trailing path
// components ("shaders/blur.comp" and "blur.comp").
bool SourceFileMatches(const std::string& location_file, const std::string& wanted);

struct FilteredUniformity {
  std::vector<Diagnostic> diagnostics;      // reported (downgraded ones as notes)
  std::vector<SuppressedDiagnostic> suppressed;
  size_t failing = 0;  // reported at `severity` (what --uniformity=error counts)
};

// The analysis's answer under the filters. `baseline` is the analysis without any
// promise; `assumed[i]` is the analysis under the i-th assume-uniform filter of
// `filters` alone and `assumed_all` under all of them (both unused without such filters).
// A finding of `baseline` that is absent under all promises is suppressed by the first
// promise that removes it alone, or by all of them together.
FilteredUniformity ApplyUniformityFilters(const Module& module, const UniformityResult& baseline,
                                          const std::vector<const UniformityResult*>& assumed,
                                          const UniformityResult* assumed_all,
                                          const std::vector<UniformityFilter>& filters,
                                          Severity severity);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_FILTERS_H
