// Audit instrumentation: makes a module record, at run time, the smallest and largest
// value every dynamic index actually took, so that the audit (Audit/, glint-audit)
// can compare them with the range the integer range analysis proved.
//
// What it rewrites: for every dynamic (non-constant) 32-bit integer index operand of an
// OpAccessChain / OpInBoundsAccessChain / OpPtrAccessChain, OpVectorExtractDynamic and
// OpVectorInsertDynamic, it inserts, just before the accessing instruction, two atomics
// on a new storage buffer (a run-time array of uint at a descriptor set and binding the
// module does not use). Each site owns two words; this turns
//     %p = OpAccessChain %ptr %array %i
// into
//     %u    = OpBitcast %uint %i                      ; only when %i is a signed int
//     %pmin = OpAccessChain %ptr_uint %audit %int_0 %uint_2k
//     %old0 = OpAtomicSMin %uint %pmin %scope %relaxed %u   ; UMin for unsigned indices
//     %pmax = OpAccessChain %ptr_uint %audit %int_0 %uint_2k+1
//     %old1 = OpAtomicSMax %uint %pmax %scope %relaxed %u   ; UMax for unsigned indices
//     %p = OpAccessChain %ptr %array %i
// The atomics compare in the index type's signedness, the signedness its range is in.
// The buffer must start as InitialWords(): min words at the top of the domain and max
// words at the bottom, so a site no invocation reached reads back min > max.
//
// Every such index is a site, with or without a proven range: a site with a range is
// what the audit verifies; a site without one is a clamp site of the robustness pass
// (passes/robust_access), whose observed values show whether the clamp was needed.
// The proven ranges come from the range report (passes/range_report.h) of the module
// as given, so the audit checks exactly what --dump-ranges prints and what
// --robust-access relies on. Run this pass before robust access, never after: it
// observes the index before any clamp.
//
// It is never part of the default pipeline; only the audit runs it.
//
// What it assumes: a valid module. Storage: StorageBuffer + Block on SPIR-V 1.3 and
// later, Uniform + BufferBlock before. Scope: Device, or QueueFamily under the Vulkan
// memory model (whose Device scope needs a feature). SPIR-V 1.4 and later list the new
// variable in every entry point's interface.
//
// When it refuses: an explicit descriptor set and binding the module already uses; a
// module with no function to instrument is instrumented with zero sites (not a refusal).
#ifndef GLINT_SPIRV_PASSES_AUDIT_INSTRUMENTATION_H
#define GLINT_SPIRV_PASSES_AUDIT_INSTRUMENTATION_H

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "SPIRV/ir/module.h"
#include "SPIRV/passes/pass.h"
#include "SPIRV/passes/pass_options.h"
#include "SPIRV/passes/pass_report.h"

namespace glint::spirv {

// One instrumented index.
struct AuditSite {
  AccessRecord record;      // what the range report said (range, limit, object, location)
  bool is_signed = false;   // the index type's signedness (the atomics' and range's)
  uint32_t first_word = 0;  // the site's min word in the audit buffer; max is next
  // Position of `record` in the range report of the module (all its index operands, in
  // report order), so a report of the same module compiled with line information can
  // lend its location; -1 when the report had no record.
  int64_t record_index = -1;
};

struct AuditInstrumentationOptions {
  static constexpr uint32_t kUnusedBinding = 0xffffffffu;
  // The analysis to audit (range_analysis, subgroup_size, spec_constants are read).
  Options analysis;
  // Where the audit buffer goes. kUnusedBinding: set 0, one past the largest binding
  // the module uses in set 0.
  uint32_t descriptor_set = kUnusedBinding;
  uint32_t binding = kUnusedBinding;
  // Test-only hook: may change the proven ranges before they are recorded, to show
  // that a wrong range is caught. Never set outside tests.
  std::function<void(std::vector<AuditSite>&)> adjust_proven_ranges;
};

struct AuditInstrumentation {
  std::vector<AuditSite> sites;
  uint32_t descriptor_set = 0;
  uint32_t binding = 0;
  size_t record_count = 0;  // records in the module's range report
  // The audit buffer's contents before a run: per site, the neutral min then max.
  std::vector<uint32_t> InitialWords() const;
};

// The instrumentation as a pass: the sites are the context's index sites and their
// ranges its range report, under the context's options (range analysis mode, subgroup
// size, largest dispatch). result() says what it instrumented; it fails with the
// refusal's message (module untouched). Not in any pipeline: the audit runs it.
class AuditInstrumentationPass : public Pass {
 public:
  explicit AuditInstrumentationPass(AuditInstrumentationOptions options = {})
      : options_(std::move(options)) {}
  const char* name() const override { return "audit-instrumentation"; }
  const AuditInstrumentation& result() const { return result_; }

 protected:
  PassResult Process(Module& module, PassContext& context) override;

 private:
  AuditInstrumentationOptions options_;  // `analysis` is not read: the context's options are
  AuditInstrumentation result_;
};

// Runs AuditInstrumentationPass alone on `module` (under options.analysis). False with
// a message (module untouched) on refusal.
bool InstrumentForAudit(Module& module, const AuditInstrumentationOptions& options,
                        AuditInstrumentation* result, std::string* error);

// What one site's two words say after a run.
struct ObservedRange {
  bool reached = false;
  int64_t min = 0;
  int64_t max = 0;
};
ObservedRange ReadObservedRange(const AuditSite& site, const std::vector<uint32_t>& buffer);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_AUDIT_INSTRUMENTATION_H
