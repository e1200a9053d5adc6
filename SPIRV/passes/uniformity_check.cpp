#include "uniformity_check.h"

#include "SPIRV/analysis/uniformity.h"

namespace glint::spirv {

PassResult UniformityCheckPass::Process(Module&, PassContext& context) {
  Severity severity = context.options.uniformity;
  if (severity == Severity::kOff) return PassResult::Unchanged();
  const UniformityResult& result = context.analyses->GetUniformity();
  std::vector<Diagnostic> diagnostics = UniformityDiagnostics(result, severity);
  if (context.report)
    for (Diagnostic& diagnostic : diagnostics)
      context.report->diagnostics.push_back(std::move(diagnostic));
  if (severity == Severity::kError && !result.findings.empty())
    return PassResult::Failed(std::to_string(result.findings.size()) +
                              " uniform-control instruction(s) in non-uniform control flow "
                              "(--uniformity=error)");
  return PassResult::Unchanged();
}

}  // namespace glint::spirv
