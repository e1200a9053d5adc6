// Uniformity coarse proof: a cheap fixed point (a level per id, no causes) that, where it
// succeeds, proves the uniformity analysis (uniformity.h, findings only) reports nothing,
// so the analysis is not built. uniformity_coarse_proof.cpp says what it proves and why
// that suffices.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_COARSE_PROOF_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_COARSE_PROOF_H

#include <cstdint>

#include "SPIRV/analysis/convergence/convergence_classes.h"
#include "SPIRV/ir/builtin_index.h"
#include "SPIRV/ir/call_graph.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

struct CoarseProofInputs {
  Module& module;
  const ConvergenceClasses& classes;
  const CallGraph& calls;
  const BuiltInIndex& builtins;
  CfgLookup cfgs;
  // Rounds of the fixed point, all entry points together, before it gives up (the
  // analysis then decides). The analysis's own round budget is a fair bound.
  uint32_t round_budget = 64;
};

struct CoarseProofResult {
  bool proven = false;  // nothing to report: the analysis need not run
  uint32_t rounds = 0;  // rounds spent, all entry points together
};

CoarseProofResult ProveNothingToReport(const CoarseProofInputs& inputs);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_COARSE_PROOF_H
