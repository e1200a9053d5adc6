#include "pipeline.h"

#include <algorithm>

#include "hoist_constant_tables.h"
#include "range_report.h"
#include "robust_access.h"
#include "specialize_constants.h"
#include "uniformity_check.h"

namespace glint::spirv {

namespace {

bool Named(const std::vector<std::string>& names, const char* name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// An explicit list, with range-report added where the report needs it.
std::vector<std::string> ExplicitPipeline(const Options& options) {
  std::vector<std::string> names = options.passes;
  if (!options.collect_ranges || Named(names, "range-report")) return names;
  auto robust = std::find(names.begin(), names.end(), "robust-access");
  names.insert(robust, "range-report");
  return names;
}

}  // namespace

const std::vector<std::string>& PipelinePassNames() {
  static const std::vector<std::string> kNames = {"specialize-constants", "hoist-constant-tables",
                                                  "range-report", "robust-access", "uniformity"};
  return kNames;
}

std::unique_ptr<Pass> MakePass(const std::string& name) {
  if (name == "specialize-constants") return std::make_unique<SpecializeConstantsPass>();
  if (name == "hoist-constant-tables") return std::make_unique<HoistConstantTablesPass>();
  if (name == "range-report") return std::make_unique<RangeReportPass>();
  if (name == "robust-access") return std::make_unique<RobustAccessPass>();
  if (name == "uniformity") return std::make_unique<UniformityCheckPass>();
  return nullptr;
}

std::vector<std::string> PipelineFor(const Options& options) {
  if (!options.passes.empty()) return ExplicitPipeline(options);
  std::vector<std::string> names;
  // First: the user's specialization constant values turn spec constants into plain
  // ones, so that every later pass and analysis sees them (like Tint's overrides).
  if (!options.spec_constants.empty()) names.push_back("specialize-constants");
  if (options.hoist_constant_tables) names.push_back("hoist-constant-tables");
  if (options.collect_ranges) names.push_back("range-report");
  if (options.robust_access) names.push_back("robust-access");
  if (options.uniformity != Severity::kOff) names.push_back("uniformity");
  return names;
}

bool PipelineRunsAfter(const Options& options, const char* later, const char* earlier) {
  std::vector<std::string> names = PipelineFor(options);
  auto first = std::find(names.begin(), names.end(), earlier);
  return first != names.end() && std::find(first + 1, names.end(), later) != names.end();
}

PassResult RunPipeline(Module& module, PassContext& context) {
  PassManager manager;
  for (const std::string& name : PipelineFor(context.options)) {
    std::unique_ptr<Pass> pass = MakePass(name);
    if (!pass) return PassResult::Failed("unknown pass '" + name + "' in --passes");
    manager.Add(std::move(pass));
  }
  return manager.Run(module, context);
}

}  // namespace glint::spirv
