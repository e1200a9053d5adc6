// What a pipeline run reports: diagnostics, one record per dynamic index (range and
// robust access's verdict), one per hoisted constant table, and per-pass statistics.
//
// Data only: verdicts are enums, words come from the formatters above the SPIR-V
// layer. These types mirror the public glint::Report so that SPIRV/ needs no
// glslang-facing header; the public API moves them over (glslang/api/pass_boundary.h).
#ifndef GLINT_SPIRV_PASSES_PASS_REPORT_H
#define GLINT_SPIRV_PASSES_PASS_REPORT_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "SPIRV/diagnostics.h"

namespace glint::spirv {

// What robust access did with one index.
enum class AccessVerdict {
  kNone,            // no verdict: robust access did not run (range report alone)
  kClamped,         // clamped (or a constant out-of-bounds index folded to the limit)
  kProvenInBounds,  // the range analysis proved the index within the limit
  kUnbounded,       // left alone: pointer arithmetic, physical pointers, descriptor arrays
  kNotClamped,      // a constant index already in bounds
};

// What bounds one index (the index site's IndexBound, as reports name it).
enum class AccessLimit {
  kFixed,                   // a fixed size: `limit` is its last index
  kSpecializationConstant,  // an array whose length is a specialization constant
  kRuntimeLength,           // a runtime array: its length comes from the buffer
  kImage,                   // an image coordinate: the image's size
  kNone,                    // nothing Glint bounds (see the verdict's reason)
};

// One dynamic index operand (access chain step, vector extract/insert, image
// coordinate) as the range analysis and the robustness emitter saw it.
struct AccessRecord {
  SourceLocation location;
  std::string instruction;  // e.g. "OpAccessChain"
  std::string object;       // the accessed variable's name or %id
  uint32_t index_id = 0;    // result id of the index operand in the output module
  // The accessing instruction's result id and the index's position among its indices:
  // the key that joins the range report's record with robust access's decision.
  uint32_t access_id = 0;
  uint32_t index_position = 0;
  bool has_range = false;
  int64_t range_min = 0;
  int64_t range_max = 0;
  bool is_signed = false;
  std::string reason;  // why there is no range (first reason), empty otherwise
  int64_t limit = -1;  // largest valid index, -1 when only known at run time
  AccessLimit limit_kind = AccessLimit::kFixed;
  AccessVerdict verdict = AccessVerdict::kNone;
  // The conditional branch whose test narrowed the range; line 0 when none was used.
  SourceLocation guard;
  // Proven out of bounds (analysis/out_of_bounds_witness.h): the local invocation of
  // every workgroup whose index, `witness_value`, leaves the object at this access.
  bool out_of_bounds = false;
  std::array<uint32_t, 3> witness_invocation{};
  int64_t witness_value = 0;
  // A runtime array whose length the module never reads (analysis/runtime_length_reads.h).
  bool length_never_read = false;
};

// One constant table that hoist-constant-tables turned into a Private variable.
struct TableRecord {
  SourceLocation location;      // the first access that used a per-invocation copy
  std::string name;             // the variable's name (its OpName) or %id
  uint32_t copies_removed = 0;  // Function variables (per-invocation copies) replaced
};

struct PassStatistic {
  std::string pass;
  bool changed = false;
  uint32_t rewrites = 0;  // what the pass counts: tables hoisted, clamps emitted, ...
};

struct Report {
  std::vector<Diagnostic> diagnostics;
  std::vector<SuppressedDiagnostic> suppressed;  // silenced by uniformity filters
  std::vector<AccessRecord> accesses;
  std::vector<PassStatistic> passes;
  std::vector<TableRecord> tables;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_PASS_REPORT_H
