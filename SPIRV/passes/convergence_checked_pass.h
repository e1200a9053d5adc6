// Running a pass under the convergence checker (analysis/convergence/convergence_checker.h): a
// snapshot of every convergent and cross-thread instruction's guards before and after
// the pass, compared. Tests and the corpus run wrap every pass this way; the checker
// itself is an analysis and knows nothing of passes.
#ifndef GLINT_SPIRV_PASSES_CONVERGENCE_CHECKED_PASS_H
#define GLINT_SPIRV_PASSES_CONVERGENCE_CHECKED_PASS_H

#include <memory>
#include <string>

#include "SPIRV/analysis/convergence/convergence_checker.h"
#include "pass.h"

namespace glint::spirv {

// Runs `pass` on `module` between two snapshots. Returns "" when the pass kept the
// rules (or failed by itself: then *result says why), else what it broke.
std::string RunUnderConvergenceChecker(Pass& pass, Module& module, PassContext& context,
                                       PassResult* result = nullptr);

// A pass that runs `inner` under the checker and fails when the checker objects; for
// PassManager::Add in tests.
std::unique_ptr<Pass> WithConvergenceChecker(std::unique_ptr<Pass> inner);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_CONVERGENCE_CHECKED_PASS_H
