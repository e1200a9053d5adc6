#include "uniformity_check.h"

#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/analysis/uniformity/uniformity_filters.h"

namespace glint::spirv {

PassResult UniformityCheckPass::Process(Module& module, PassContext& context) {
  Severity severity = context.options.uniformity;
  if (severity == Severity::kOff) return PassResult::Unchanged();
  const std::vector<UniformityFilter>& filters = context.options.uniformity_filters;
  // Promises change the analysis's answer: each alone (to say which one removed a
  // finding) and all together (what is reported).
  UniformityOptions promised;
  std::vector<const UniformityResult*> each_promise;
  for (const UniformityFilter& filter : filters)
    if (filter.action == UniformityFilterAction::kAssumeUniform) {
      promised.assume_uniform.push_back(filter.function);
      UniformityOptions alone;
      alone.assume_uniform = {filter.function};
      each_promise.push_back(&context.analyses->GetUniformity(alone));
    }
  const UniformityResult& baseline = context.analyses->GetUniformity();
  const UniformityResult* all_promises =
      promised.assume_uniform.empty() ? nullptr : &context.analyses->GetUniformity(promised);
  FilteredUniformity filtered =
      ApplyUniformityFilters(module, baseline, each_promise, all_promises, filters, severity);
  if (context.report) {
    for (Diagnostic& diagnostic : filtered.diagnostics)
      context.report->diagnostics.push_back(std::move(diagnostic));
    for (SuppressedDiagnostic& suppressed : filtered.suppressed)
      context.report->suppressed.push_back(std::move(suppressed));
  }
  if (severity == Severity::kError && filtered.failing > 0)
    return PassResult::Failed(std::to_string(filtered.failing) +
                              " uniform-control instruction(s) in non-uniform control flow "
                              "(--uniformity=error)");
  return PassResult::Unchanged();
}

}  // namespace glint::spirv
