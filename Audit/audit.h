// The range audit: proves the integer range analysis by running it. A compute shader is
// instrumented (SPIRV/passes/audit_instrumentation.h) to record the smallest and the
// largest value of every dynamic index, run on a Vulkan device (lavapipe by default,
// Execution/vk_runner.h) over a lattice of its workgroups (lattice.h), and every
// index's observed [min, max] is compared with the range the analysis proved:
//   ok           observed within the proven range
//   ESCAPE       observed outside it: the analysis is unsound (the audit fails)
//   not reached  no sampled invocation got there: never counted as verified
//   no range     the analysis proved nothing (a clamp site); observed shown
// An index proven below an array length set by a specialization constant, for every
// value the application may give it (integer_range_spec_lengths.cpp), has no range: it
// is checked against the length the run specialized instead (AuditOptions::
// run_spec_constants: given to the device, not to the analysis), ok or ESCAPE the same.
//
// How it runs: the pipeline is built once; the lattice's groups run as boxes of
// contiguous groups, one vkCmdDispatchBase each (the whole grid, when it fits the group
// budget, is one ordinary dispatch, so gl_NumWorkGroups is exact there; in a sampled
// box it reads the box's size, as Vulkan defines it). Every buffer is refilled from its
// source before each box, so every sampled group sees the same initial data; the audit
// buffer's words are merged over the boxes on the host.
//
// The shader's own accesses are made safe before it runs: by default the robustness
// pass clamps every index the analysis does not prove in bounds, after the atomics, so
// the audit observes each index before any clamp and a wild index in a corpus shader
// cannot corrupt the driver's memory. A site whose observed (raw) index left [0, limit]
// really went out of bounds; it is "contained" when robust access clamped it. That is
// how the generator's traps are shown to be real: out of bounds at run time, clamped.
//
// Budgets: the number of sampled groups (the lattice's size; a budget smaller than the
// corners is refused) and the time of one dispatch (the harness's time budget; a box
// that exceeds it is refused, the message names the budget and how many groups ran).
#ifndef GLINT_AUDIT_AUDIT_H
#define GLINT_AUDIT_AUDIT_H

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "Execution/vk_runner.h"
#include "SPIRV/passes/audit_instrumentation.h"
#include "glint/glint.h"
#include "lattice.h"

namespace glint::audit {

enum class Fill { kSeededBytes, kSeededSmallUints, kZeros };

struct AuditOptions {
  Groups groups = {1, 1, 1};  // the dispatch being audited
  uint64_t group_budget = 256;
  double dispatch_time_budget_ms = 10000;
  // How buffers the caller does not give are filled; each binding gets its own seed.
  Fill fill = Fill::kSeededSmallUints;
  uint64_t seed = 1;
  // Bytes given to a trailing run-time array (rounded up to its stride).
  uint64_t runtime_array_bytes = 65536;
  // Contents for chosen (set, binding); their size is the contents' size unless set.
  std::vector<vk::BufferBinding> buffers;
  // Clamp the shader's own accesses (robust access) after instrumenting it.
  bool robust_access = true;
  // The analysis audited: range_analysis, subgroup_size, spec_constants (the passes
  // read these very options).
  Options analysis;
  // Specialization constants given to the device only, by SpecId: the analysis sees
  // them unset, so what it proves for every specialization is run at these values.
  std::map<uint32_t, uint64_t> run_spec_constants;
  TargetEnv target_env = TargetEnv::kVulkan10;
  std::string entry_point = "main";
  // The range report (Report::accesses, all records in order) of the same shader
  // compiled with line information: the sites take their source locations from it.
  // Ignored unless it has exactly as many records as the audited module's report.
  std::vector<AccessRecord> located_records;
  // Test-only: passed to the instrumentation to inject a wrong proven range.
  std::function<void(std::vector<spirv::AuditSite>&)> adjust_proven_ranges;
};

struct SiteResult {
  spirv::AuditSite site;
  spirv::ObservedRange observed;
  std::string verdict;  // "ok", "ESCAPE", "not reached", "no range"
  // The largest valid index: the record's constant limit, for a run-time array (limit -1
  // in the record) the last element of the buffer the audit bound to the binding its
  // object names, for an array whose length is a specialization constant its length
  // minus one at the run's specialization; -1 when none is known.
  int64_t limit = -1;
  // Robust access clamped this index in the module that ran (its decision, joined by
  // access id and index position); false with --no-robust-access.
  bool clamped = false;
  // Robust access proved this index below an array length set by a specialization
  // constant, for every value (its decision): the verdict compares the observed index
  // with `limit`, that length minus one at the run's specialization (-1 where the
  // length is an expression the audit does not evaluate: then "no range").
  bool proven_for_every_specialization = false;
  // Some invocation's raw index (observed before any clamp) was outside [0, limit]:
  // the access really went out of bounds, and only a clamp kept it in.
  bool OutOfBounds() const {
    return observed.reached && limit >= 0 && (observed.min < 0 || observed.max > limit);
  }
  bool Contained() const { return OutOfBounds() && clamped; }
};

struct AuditResult {
  Lattice lattice;
  uint64_t groups_ran = 0;
  uint32_t dispatches = 0;
  std::vector<SiteResult> sites;
  uint32_t CountVerdict(const std::string& verdict) const;
  uint32_t CountOutOfBounds() const;
  uint32_t CountContained() const;
  bool HasEscape() const { return CountVerdict("ESCAPE") != 0; }
};

// Instruments `spirv` (glslang's or Glint's output for a compute shader), runs it and
// fills `result`. False with a message on a refusal (bad module, a budget hit, a
// harness refusal); `result` then holds what ran before it.
bool RunAudit(vk::Context& context, const std::vector<uint32_t>& spirv, const AuditOptions& options,
              AuditResult* result, std::string* error);

// One line per site, then a summary line.
std::string FormatAuditReport(const AuditResult& result, const std::string& source_name);

// Merges two observations of the same site.
spirv::ObservedRange Merge(const spirv::ObservedRange& a, const spirv::ObservedRange& b);

// The verdict of one site.
std::string Verdict(const spirv::AuditSite& site, const spirv::ObservedRange& observed);
// The verdict of a site proven below a specialized length, at the run's `limit` (its
// last index; -1: not known, "no range").
std::string SpecializedLengthVerdict(const spirv::ObservedRange& observed, int64_t limit);

}  // namespace glint::audit

#endif  // GLINT_AUDIT_AUDIT_H
