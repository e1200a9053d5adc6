#include "uniformity_check.h"

#include <optional>
#include <vector>

#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/analysis/uniformity/uniformity_filters.h"

namespace glint::spirv {

namespace {

// The analyses the pass reads: without promises (the baseline), and, where the filters
// promise functions uniform, each promise alone (to say which one removed a finding) and
// all together (what is reported).
struct UniformityQuestions {
  UniformityOptions baseline;
  std::vector<UniformityOptions> each_promise;
  std::optional<UniformityOptions> all_promises;
};

UniformityQuestions QuestionsFor(const Options& options) {
  UniformityQuestions questions;
  UniformityOptions promised;
  for (const UniformityFilter& filter : options.uniformity_filters)
    if (filter.action == UniformityFilterAction::kAssumeUniform) {
      promised.assume_uniform.push_back(filter.function);
      UniformityOptions alone;
      alone.assume_uniform = {filter.function};
      questions.each_promise.push_back(alone);
    }
  if (!promised.assume_uniform.empty()) questions.all_promises = promised;
  return questions;
}

}  // namespace

void ComputeUniformityAhead(PassContext& context) {
  if (context.options.uniformity == Severity::kOff) return;
  UniformityQuestions questions = QuestionsFor(context.options);
  for (const UniformityOptions& alone : questions.each_promise)
    context.analyses->GetUniformity(alone);
  context.analyses->GetUniformity(questions.baseline);
  if (questions.all_promises) context.analyses->GetUniformity(*questions.all_promises);
}

PassResult UniformityCheckPass::Process(Module& module, PassContext& context) {
  Severity severity = context.options.uniformity;
  if (severity == Severity::kOff) return PassResult::Unchanged();
  const std::vector<UniformityFilter>& filters = context.options.uniformity_filters;
  UniformityQuestions questions = QuestionsFor(context.options);
  std::vector<const UniformityResult*> each_promise;
  for (const UniformityOptions& alone : questions.each_promise)
    each_promise.push_back(&context.analyses->GetUniformity(alone));
  const UniformityResult& baseline = context.analyses->GetUniformity(questions.baseline);
  const UniformityResult* all_promises =
      questions.all_promises ? &context.analyses->GetUniformity(*questions.all_promises) : nullptr;
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
