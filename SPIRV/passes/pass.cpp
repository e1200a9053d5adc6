#include "pass.h"

#include <utility>

#include "access_report.h"

namespace glint::spirv {

namespace {

// Calls `body` with the context's analyses and access report, or, where the caller
// gave none, with fresh ones for this run only; a fresh access report is assembled into
// the caller's report when the run succeeds.
PassResult WithRunState(Module& module, PassContext& context,
                        const std::function<PassResult(PassContext&)>& body) {
  if (context.analyses && context.accesses) return body(context);
  std::unique_ptr<AnalysisContext> own_analyses;
  if (!context.analyses) own_analyses = std::make_unique<AnalysisContext>(module);
  AccessReport own_accesses;
  PassContext run{context.options, context.report,
                  context.analyses ? context.analyses : own_analyses.get(),
                  context.accesses ? context.accesses : &own_accesses};
  PassResult result = body(run);
  if (!context.accesses && result.status != PassStatus::kFailed && context.report &&
      context.options.collect_ranges)
    std::move(own_accesses).AssembleInto(&context.report->accesses);
  return result;
}

}  // namespace

PassResult Pass::Run(Module& module, PassContext& context) {
  return WithRunState(module, context, [&](PassContext& run) { return Process(module, run); });
}

PassResult RunPassGuarded(Pass& pass, Module& module, PassContext& context) {
  try {
    return pass.Run(module, context);
  } catch (const IdBoundExhausted& exhausted) {
    return PassResult::Failed(exhausted.what());
  }
}

PassResult PassManager::Run(Module& module, PassContext& context) {
  return WithRunState(module, context, [&](PassContext& run) { return RunAll(module, run); });
}

PassResult PassManager::RunAll(Module& module, PassContext& context) {
  PassResult combined;
  for (const auto& pass : passes_) {
    PassResult result = RunPassGuarded(*pass, module, context);
    context.analyses->Invalidate(result.preserved);
    if (result.status == PassStatus::kFailed) {
      result.message = std::string(pass->name()) + ": " + result.message;
      return result;
    }
    if (context.report)
      context.report->passes.push_back(
          {pass->name(), result.status == PassStatus::kChanged, result.rewrites});
    if (result.status == PassStatus::kChanged) combined.status = PassStatus::kChanged;
    combined.rewrites += result.rewrites;
  }
  // The analyses are up to date (dropped after each pass); a caller that keeps its own
  // must still learn that the module changed.
  if (combined.status == PassStatus::kChanged) combined.preserved = PreservedAnalyses::None();
  return combined;
}

}  // namespace glint::spirv
