// The pass interface and the pass manager.
//
// A pass rewrites a Module. Its name() is its command-line spelling (--passes=...).
// Process() returns changed / unchanged / failed-with-message and, in
// PassResult::preserved, the analyses of the context it left valid: Unchanged() keeps
// them all, Changed() none unless the pass names what it kept.
//
// The manager runs an ordered list on one analysis context (analysis/analysis_context.h):
// passes ask it for analyses, and after each pass the manager drops what the pass did
// not preserve. It stops at the first failure, records per-pass statistics in the
// report, assembles the access report once at the end (access_report.h), and (in tests)
// validates each pass's output.
#ifndef GLINT_SPIRV_PASSES_PASS_H
#define GLINT_SPIRV_PASSES_PASS_H

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/ir/module.h"
#include "SPIRV/passes/pass_options.h"
#include "SPIRV/passes/pass_report.h"

namespace glint::spirv {

class AccessReport;

enum class PassStatus { kUnchanged, kChanged, kFailed };

struct PassResult {
  PassStatus status = PassStatus::kUnchanged;
  std::string message;    // why it failed
  uint32_t rewrites = 0;  // what the pass counts (tables hoisted, clamps emitted, ...)
  PreservedAnalyses preserved = PreservedAnalyses::All();

  static PassResult Unchanged() { return {}; }
  static PassResult Changed(uint32_t rewrites = 0) {
    return {PassStatus::kChanged, "", rewrites, PreservedAnalyses::None()};
  }
  static PassResult Failed(std::string message) {
    return {PassStatus::kFailed, std::move(message), 0, PreservedAnalyses::None()};
  }
  // Adds `analysis` to what a changed module still satisfies.
  PassResult& Preserving(Analysis analysis) {
    preserved.Preserve(analysis);
    return *this;
  }
};

// The range analysis a pass asks for under `options` (mode and subgroup size).
inline IntegerRangeOptions RangeOptionsFor(const Options& options) {
  return {options.range_analysis, options.subgroup_size, options.max_workgroups};
}

// What passes may read and report into while running.
struct PassContext {
  const Options& options;
  Report* report;  // diagnostics and statistics; may be null
  // The run's analyses and access report. The manager sets them for its passes (the
  // caller may lend its own analysis context, e.g. to count builds); Pass::Run makes
  // fresh ones for a pass run alone.
  AnalysisContext* analyses = nullptr;
  AccessReport* accesses = nullptr;
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual const char* name() const = 0;
  // Runs the pass. Outside a manager (no analyses or access report in `context`) it
  // works on fresh ones and, with Options::collect_ranges, assembles the access report
  // into context.report when it succeeds.
  PassResult Run(Module& module, PassContext& context);

 protected:
  // The pass itself: context.analyses and context.accesses are set.
  virtual PassResult Process(Module& module, PassContext& context) = 0;
};

// Runs `pass`, turning an exhausted id bound (IdBoundExhausted) into its failure. The
// module may be partly rewritten then; callers must not emit it.
PassResult RunPassGuarded(Pass& pass, Module& module, PassContext& context);

class PassManager {
 public:
  void Add(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }
  // Runs the passes in order. Returns the first failure, or the combined status.
  PassResult Run(Module& module, PassContext& context);

 private:
  PassResult RunAll(Module& module, PassContext& context);

  std::vector<std::unique_ptr<Pass>> passes_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_PASS_H
