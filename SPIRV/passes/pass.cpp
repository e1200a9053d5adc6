#include "pass.h"

namespace glint::spirv {

PassResult RunPassGuarded(Pass& pass, Module& module, PassContext& context) {
  try {
    return pass.Run(module, context);
  } catch (const IdBoundExhausted& exhausted) {
    return PassResult::Failed(exhausted.what());
  }
}

PassResult PassManager::Run(Module& module, PassContext& context) {
  PassResult combined;
  for (const auto& pass : passes_) {
    PassResult result = RunPassGuarded(*pass, module, context);
    if (result.status == PassStatus::kFailed) {
      result.message = std::string(pass->name()) + ": " + result.message;
      return result;
    }
    if (after_each_) {
      std::string problem = after_each_(*pass, module);
      if (!problem.empty())
        return PassResult::Failed(std::string(pass->name()) + ": " + problem);
    }
    if (context.report)
      context.report->passes.push_back(
          {pass->name(), result.status == PassStatus::kChanged, result.rewrites});
    if (result.status == PassStatus::kChanged) combined.status = PassStatus::kChanged;
    combined.rewrites += result.rewrites;
  }
  return combined;
}

}  // namespace glint::spirv
