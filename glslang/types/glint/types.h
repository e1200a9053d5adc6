// Glint's public value types: options, diagnostics and reports. They depend on nothing
// (no glslang header), so the SPIR-V layer uses these very types (SPIRV/ names them
// with using-declarations) and the API passes them through without conversion: each
// type is defined once, here. Part of the public API (glint/glint.h includes it).
#ifndef GLINT_TYPES_H
#define GLINT_TYPES_H

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "glint/export.h"

namespace glint {

// The environment the module is compiled for; decides the validator's rules and
// which SPIR-V features a pass may use.
enum class TargetEnv {
  kUniversal,  // no client API: validated as the module's own SPIR-V version
  kOpenGL45,
  kVulkan10,
  kVulkan11,
  kVulkan12,
  kVulkan13,
  // The default: the target the input was compiled for. GlslangToSpv reads the
  // intermediate's client (Vulkan version, OpenGL, or none: universal); Process has
  // only the module, so it validates as the universal environment of the module's
  // SPIR-V version. The SPIR-V version is always the module's own (the header word).
  kFromInput,
};

// Block layout rules the validator accepts beyond the target environment's own
// (SPIRV-Tools' --relax-block-layout, --uniform-buffer-standard-layout,
// --scalar-block-layout, --workgroup-scalar-block-layout, --skip-block-layout). Each
// applies when it is set here or when the input says it needs it: GlslangToSpv takes
// relaxed (HLSL offsets) and scalar (GL_EXT_scalar_block_layout) from the intermediate,
// as glslang's own validation does; Process takes scalar from the module's
// OpSourceExtension "GL_EXT_scalar_block_layout" and relaxed from an HLSL OpSource.
// Vulkan 1.1 and later accept relaxed layouts anyway (VK_KHR_relaxed_block_layout is
// core there). The features the application enables on the device decide which to set.
struct ValidatorLayouts {
  bool relaxed_block_layout = false;            // VK_KHR_relaxed_block_layout
  bool uniform_buffer_standard_layout = false;  // uniformBufferStandardLayout: std430 UBOs
  bool scalar_block_layout = false;             // scalarBlockLayout (VK_EXT_scalar_block_layout)
  bool workgroup_scalar_block_layout = false;   // workgroupMemoryExplicitLayoutScalarBlockLayout
  bool skip_block_layout = false;               // check no block layout at all
};

enum class RangeAnalysisMode {
  kOff,        // no analysis: every dynamic index is clamped
  kReference,  // exactly the rules of the reference design (Tint's), nothing more
  kFull,       // Glint's analysis; the default
};

enum class Severity { kOff, kNote, kWarning, kError };

// What the user says about uniformity that no analysis can prove (glslangValidator
// --uniformity-off, --uniformity-note, --uniformity-assume-uniform). A filter names a
// function (its source name) or source lines, and an action:
//   kOff            findings there are not reported: they go to Report::suppressed
//                   with the filter and its justification (SARIF suppressions, the HTML
//                   report's count);
//   kNote           findings there are reported as notes (they never fail a compile);
//   kAssumeUniform  (functions only) every call's result is taken as workgroup-uniform;
//                   the findings that disappear under the promise go to
//                   Report::suppressed.
// A finding is there when the instruction it is reported at is, or when every
// uniform-control instruction behind it is (a call's finding about what its callee
// needs). A promise, not a proof: a filter never changes the generated code.
enum class UniformityFilterAction { kOff, kNote, kAssumeUniform };

struct UniformityFilter {
  UniformityFilterAction action = UniformityFilterAction::kOff;
  // The function ("broadcast"; glslang's full name "broadcast(u1;u1;" also matches), or
  // empty for a line filter.
  std::string function;
  // A line filter: the file as the module names it (or its trailing path components)
  // and lines first_line..last_line, both included, first_line at least 1.
  std::string file;
  uint32_t first_line = 0;
  uint32_t last_line = 0;
  std::string justification;  // why the user knows better (SARIF's justification)
};


struct Options {
  // Rewrite run-time-indexed constant arrays into one module-scope Private variable
  // per constant (on by default).
  bool hoist_constant_tables = true;
  // Clamp every dynamic index so that no access can leave its object.
  bool robust_access = false;
  // Which analysis may prove a clamp unnecessary (only used with robust_access and
  // for the range report).
  RangeAnalysisMode range_analysis = RangeAnalysisMode::kFull;
  // How uniformity problems (derivatives, implicit-LOD sampling, barriers in
  // non-uniform control flow) are reported; kOff disables the analysis.
  Severity uniformity = Severity::kWarning;
  // Silence, downgrade or promise, in the order given (the first that matches wins).
  std::vector<UniformityFilter> uniformity_filters;
  // The subgroup size the user promises (0: unknown). GLSL has no way to say it. The
  // command line and glint_options_set_subgroup_size take only what Vulkan can report,
  // a power of two from 1 to 128.
  uint32_t subgroup_size = 0;
  // The largest dispatch the user promises, in workgroups per dimension ({0, 0, 0}:
  // unknown; otherwise each at least 1): every WorkgroupId component c is below
  // max_workgroups[c] (a vkCmdDispatchBase base included) and NumWorkgroups[c] is at
  // most max_workgroups[c]. Like subgroup_size a promise, not a check: full range
  // analysis bounds WorkgroupId, GlobalInvocationId (with the workgroup size) and
  // NumWorkgroups by it, so a larger dispatch may index out of bounds.
  std::array<uint32_t, 3> max_workgroups{};
  // Values for specialization constants, by SpecId; applied before analysis. With any
  // value given, the output is validated as `validate` does, even when it is false: a
  // value that makes the module invalid is an error, never an invalid module.
  std::map<uint32_t, uint64_t> spec_constants;
  // Fill Report::accesses with one record per dynamic index, and Report::tables with
  // one record per hoisted constant table (what reports show).
  bool collect_ranges = false;
  // Run exactly these passes, in this order, for debugging (glslangValidator
  // --passes=a,b): specialize-constants, hoist-constant-tables, robust-access,
  // uniformity, range-report. Empty: the pipeline the options above choose. With
  // collect_ranges, range-report is added before robust-access (or last) unless named.
  std::vector<std::string> passes;
  // The environment the output is validated for (see TargetEnv::kFromInput).
  TargetEnv target_env = TargetEnv::kFromInput;
  // Validate the final module with SPIRV-Tools for target_env and validator_layouts; a
  // failure is an error.
  bool validate = false;
  ValidatorLayouts validator_layouts;
};

struct SourceLocation {
  std::string file;  // empty when the module carries no line information
  uint32_t line = 0;
  uint32_t column = 0;
};

struct Diagnostic {
  Severity severity = Severity::kError;
  std::string origin;  // the pass or analysis that speaks, e.g. "uniformity"
  SourceLocation location;
  std::string message;
  // The chain of reasons behind the message, outermost first.
  std::vector<std::string> reasons;
  // Where each reason points (same length as `reasons` when filled; line 0 where a
  // reason names no line). Empty when the analysis gives no locations.
  std::vector<SourceLocation> reason_locations;
  // A stable identifier of what kind of finding this is, e.g. "uniformity/barrier";
  // empty for messages that have none (glslang's log, internal errors).
  std::string rule;
};

// A diagnostic a uniformity filter silenced: not in Report::diagnostics, kept so that
// reports can show what was silenced and why.
struct SuppressedDiagnostic {
  Diagnostic diagnostic;  // as it would have been reported
  // The filter, as glslangValidator's command line spells it (without the
  // justification): "--uniformity-off=blur.comp:12", "--uniformity-assume-uniform=broadcast"
  // (several, space-separated, when only the promises together remove the finding).
  std::string filter;
  std::string justification;  // the filter's; empty when it gave none
};

// What robust access did with one index. Words for it come only from the formatters
// (glint/report_format.h: AccessVerdictText).
enum class AccessVerdict {
  kNone,            // no verdict: robust access did not run (--dump-ranges alone)
  kClamped,         // clamped (or a constant out-of-bounds index folded to the limit)
  kProvenInBounds,  // the range analysis proved the index within the limit
  kUnbounded,       // left alone: pointer arithmetic, physical pointers, descriptor arrays
  kNotClamped,      // a constant index already in bounds
};

// What bounds one index. Words for it come from the formatters (AccessLimitText).
enum class AccessLimit {
  kFixed,                   // a fixed size: `limit` is its last index
  kSpecializationConstant,  // an array whose length is a specialization constant: the
                            // application may give it any value, so only index 0, and
                            // an index the analysis proves below the length itself
                            // (verdict kProvenInBounds: for every value), are in bounds
                            // for every one (--spec-constant makes it fixed)
  kRuntimeLength,           // a runtime array: its length comes from the bound buffer
  kImage,                   // an image coordinate: the image's size
  kNone,                    // nothing Glint bounds (pointer arithmetic, descriptor arrays)
};

// One dynamic index operand (access chain step, vector extract/insert, image
// coordinate) as the range analysis and the robustness emitter saw it.
struct AccessRecord {
  SourceLocation location;
  std::string instruction;  // e.g. "OpAccessChain"
  std::string object;       // the accessed variable's name or %id
  uint32_t index_id = 0;    // result id of the index operand in the output module
  // Which access this is: the result id of the accessing instruction (OpAccessChain,
  // OpVectorExtractDynamic, ...) and the position of the index among its indices
  // (0 for the first index; 0 for vector extract/insert). Stable across passes that
  // only replace index operands, so a consumer can match a record to the access in the
  // module it got back.
  uint32_t access_id = 0;
  uint32_t index_position = 0;
  bool has_range = false;
  int64_t range_min = 0;
  int64_t range_max = 0;
  bool is_signed = false;
  std::string reason;  // why there is no range (first reason), empty otherwise
  int64_t limit = -1;  // largest valid index, -1 when only known at run time
  AccessLimit limit_kind = AccessLimit::kFixed;  // what bounds the index (`limit` for kFixed)
  AccessVerdict verdict = AccessVerdict::kNone;
  // Full range analysis: the conditional branch whose test narrowed the range (or
  // proved a runtime-array index below its length); line 0 when no guard was used.
  SourceLocation guard;
  // The index is proven to leave the object: in every workgroup, the invocation with
  // LocalInvocationId `witness_invocation` computes `witness_value` here (out of bounds)
  // and runs this access whenever it finishes. No analysis can prove such an index in
  // bounds; robust access clamps it. Compute, task and mesh shaders of a fixed
  // workgroup size only; false when not proven (which says nothing either way).
  bool out_of_bounds = false;
  std::array<uint32_t, 3> witness_invocation{};
  int64_t witness_value = 0;
  // A runtime array (limit_kind kRuntimeLength) whose length the shader never reads: no
  // `.length()` of its buffer (or of one bound to the same descriptor) anywhere in the
  // module. The application may bind fewer elements than any index, and nothing in the
  // shader depends on the length, so no analysis can prove an index into it in bounds;
  // only a test against `.length()` in the shader could. False otherwise (also when not
  // a runtime array).
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
  std::vector<SuppressedDiagnostic> suppressed;  // silenced by Options::uniformity_filters
  std::vector<AccessRecord> accesses;
  std::vector<PassStatistic> passes;
  std::vector<TableRecord> tables;

  GLINT_EXPORT bool HasErrors() const;
};

}  // namespace glint

#endif  // GLINT_TYPES_H
