// The pass interface and the pass manager.
//
// A pass rewrites a Module. Its name() is its command-line spelling; Run() returns
// changed / unchanged / failed-with-message and says which analyses it preserved. The
// manager runs an ordered list, stops at the first failure, records per-pass statistics
// in the report, and (in tests) validates each pass's output.
#ifndef GLINT_SPIRV_PASSES_PASS_H
#define GLINT_SPIRV_PASSES_PASS_H

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "glint/glint.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

enum class PassStatus { kUnchanged, kChanged, kFailed };

struct PassResult {
  PassStatus status = PassStatus::kUnchanged;
  std::string message;   // why it failed
  uint32_t rewrites = 0;  // what the pass counts (tables hoisted, clamps emitted, ...)

  static PassResult Unchanged() { return {}; }
  static PassResult Changed(uint32_t rewrites = 0) { return {PassStatus::kChanged, "", rewrites}; }
  static PassResult Failed(std::string message) { return {PassStatus::kFailed, std::move(message), 0}; }
};

// What passes may read and report into while running.
struct PassContext {
  const Options& options;
  Report* report;  // may be null
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual const char* name() const = 0;
  virtual PassResult Run(Module& module, PassContext& context) = 0;
};

// Runs `pass`, turning an exhausted id bound (IdBoundExhausted) into its failure. The
// module may be partly rewritten then; callers must not emit it.
PassResult RunPassGuarded(Pass& pass, Module& module, PassContext& context);

class PassManager {
 public:
  void Add(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }
  // Called after every pass that did not fail (tests validate here); a non-empty
  // return is treated as that pass's failure.
  void SetAfterEachPass(std::function<std::string(const Pass&, const Module&)> hook) {
    after_each_ = std::move(hook);
  }
  // Runs the passes in order. Returns the first failure, or the combined status.
  PassResult Run(Module& module, PassContext& context);

 private:
  std::vector<std::unique_ptr<Pass>> passes_;
  std::function<std::string(const Pass&, const Module&)> after_each_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_PASS_H
