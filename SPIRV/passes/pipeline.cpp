#include "pipeline.h"

#include "hoist_constant_tables.h"
#include "range_report.h"
#include "robust_access.h"
#include "specialize_constants.h"
#include "uniformity_check.h"

namespace glint::spirv {

PassResult RunPipeline(Module& module, PassContext& context) {
  PassManager manager;
  // First: the user's specialization constant values turn spec constants into plain
  // ones, so that every later pass and analysis sees them (like Tint's overrides).
  if (!context.options.spec_constants.empty())
    manager.Add(std::make_unique<SpecializeConstantsPass>());
  if (context.options.hoist_constant_tables) manager.Add(std::make_unique<HoistConstantTablesPass>());
  // Read-only: records every index's range on the module robust access is about to
  // rewrite; robust access then fills each record's verdict and limit.
  if (context.options.collect_ranges) manager.Add(std::make_unique<RangeReportPass>());
  if (context.options.robust_access) manager.Add(std::make_unique<RobustAccessPass>());
  // Read-only and last, so that it judges the module that is emitted.
  if (context.options.uniformity != Severity::kOff) manager.Add(std::make_unique<UniformityCheckPass>());
  return manager.Run(module, context);
}

}  // namespace glint::spirv
