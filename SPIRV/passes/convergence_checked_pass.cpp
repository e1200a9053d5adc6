// Running a pass under the convergence checker (see convergence_checked_pass.h).
#include "convergence_checked_pass.h"

namespace glint::spirv {
namespace {

class CheckedPass : public Pass {
 public:
  explicit CheckedPass(std::unique_ptr<Pass> inner) : inner_(std::move(inner)) {}
  const char* name() const override { return inner_->name(); }

 protected:
  PassResult Process(Module& module, PassContext& context) override {
    PassResult result;
    std::string problem = RunUnderConvergenceChecker(*inner_, module, context, &result);
    if (!problem.empty()) return PassResult::Failed("convergence checker: " + problem);
    return result;
  }

 private:
  std::unique_ptr<Pass> inner_;
};

}  // namespace

std::string RunUnderConvergenceChecker(Pass& pass, Module& module, PassContext& context,
                                       PassResult* result) {
  ConvergenceSnapshot before = TakeConvergenceSnapshot(module);
  PassResult outcome = pass.Run(module, context);
  if (result) *result = outcome;
  if (outcome.status == PassStatus::kFailed) return "";
  ConvergenceSnapshot after = TakeConvergenceSnapshot(module);
  std::string problems = CompareConvergenceSnapshots(before, after);
  return problems.empty() ? "" : std::string(pass.name()) + ": " + problems;
}

std::unique_ptr<Pass> WithConvergenceChecker(std::unique_ptr<Pass> inner) {
  return std::make_unique<CheckedPass>(std::move(inner));
}

}  // namespace glint::spirv
