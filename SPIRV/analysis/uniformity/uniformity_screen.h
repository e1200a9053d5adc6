// Uniformity screen (uniformity_screen.cpp): proves, before the uniformity analysis is
// built, that it cannot report anything, because every uniform-control instruction runs
// where no branch decides whether it runs.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_SCREEN_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_SCREEN_H

#include "SPIRV/analysis/convergence/convergence_classes.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

// True when every uniform-control instruction of `module` (a call of a function that
// holds one included) sits in a reachable block that no branch of its function controls,
// and no function that is called can kill the invocation. The uniformity analysis then
// finds nothing whatever the values (uniformity_screen.cpp says why), so it need not run.
// False means nothing: the analysis decides.
bool NeedsOnlyUnconditionalControl(Module& module, const ConvergenceClasses& classes,
                                   const CfgLookup& cfgs);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_SCREEN_H
