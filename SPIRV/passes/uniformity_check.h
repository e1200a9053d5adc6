// uniformity: a read-only pass that runs the uniformity analysis
// (SPIRV/analysis/uniformity/uniformity.h) on the final module and reports each uniform-control
// instruction in non-uniform control flow as a diagnostic with its chain of reasons.
//
// It never changes the module (unchanged, or failed with kError). Options::uniformity picks the
// severity: kOff skips the analysis, kNote / kWarning report, kError reports and fails
// the pass so that compilation fails. When the analysis gives up (round budget,
// unclassified instruction) it adds one note saying why, and does not fail.
// Options::uniformity_filters apply (analysis/uniformity/uniformity_filters.h): silenced findings
// go to Report::suppressed, downgraded ones are notes, neither fails the pass.
#ifndef GLINT_SPIRV_PASSES_UNIFORMITY_CHECK_H
#define GLINT_SPIRV_PASSES_UNIFORMITY_CHECK_H

#include "pass.h"

namespace glint::spirv {

class UniformityCheckPass : public Pass {
 public:
  const char* name() const override { return "uniformity"; }

 protected:
  PassResult Process(Module& module, PassContext& context) override;
};

// Has the context compute now every uniformity result the pass will read (for a pass
// that changes the module in ways that leave those results true, and says so by
// preserving Analysis::kUniformity: the analysis then shares the analyses that pass
// already built instead of rebuilding them on the changed module).
void ComputeUniformityAhead(PassContext& context);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_UNIFORMITY_CHECK_H
