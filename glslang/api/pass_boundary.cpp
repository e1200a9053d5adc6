// Conversions between the public API's types and the SPIR-V layer's (pass_boundary.h).
#include "glslang/api/pass_boundary.h"

#include <utility>

namespace glint {
namespace {

// The enums are converted with a cast. Two checks make a mismatch a compile error:
// the static_asserts below catch a reordered or renumbered enumerator, and the switches
// after them (no default, -Wswitch made an error for this file) catch an enumerator
// added on either side until it is listed there, with its counterpart on the other.
template <typename A, typename B>
constexpr bool Same(A a, B b) {
  return static_cast<int>(a) == static_cast<int>(b);
}
static_assert(Same(TargetEnv::kUniversal, spirv::TargetEnv::kUniversal) &&
              Same(TargetEnv::kOpenGL45, spirv::TargetEnv::kOpenGL45) &&
              Same(TargetEnv::kVulkan10, spirv::TargetEnv::kVulkan10) &&
              Same(TargetEnv::kVulkan11, spirv::TargetEnv::kVulkan11) &&
              Same(TargetEnv::kVulkan12, spirv::TargetEnv::kVulkan12) &&
              Same(TargetEnv::kVulkan13, spirv::TargetEnv::kVulkan13));
static_assert(Same(Severity::kOff, spirv::Severity::kOff) &&
              Same(Severity::kNote, spirv::Severity::kNote) &&
              Same(Severity::kWarning, spirv::Severity::kWarning) &&
              Same(Severity::kError, spirv::Severity::kError));
static_assert(Same(UniformityFilterAction::kOff, spirv::UniformityFilterAction::kOff) &&
              Same(UniformityFilterAction::kNote, spirv::UniformityFilterAction::kNote) &&
              Same(UniformityFilterAction::kAssumeUniform,
                   spirv::UniformityFilterAction::kAssumeUniform));
static_assert(Same(RangeAnalysisMode::kOff, spirv::RangeAnalysisMode::kOff) &&
              Same(RangeAnalysisMode::kReference, spirv::RangeAnalysisMode::kReference) &&
              Same(RangeAnalysisMode::kFull, spirv::RangeAnalysisMode::kFull));
static_assert(Same(AccessVerdict::kNone, spirv::AccessVerdict::kNone) &&
              Same(AccessVerdict::kClamped, spirv::AccessVerdict::kClamped) &&
              Same(AccessVerdict::kProvenInBounds, spirv::AccessVerdict::kProvenInBounds) &&
              Same(AccessVerdict::kUnbounded, spirv::AccessVerdict::kUnbounded) &&
              Same(AccessVerdict::kNotClamped, spirv::AccessVerdict::kNotClamped));
static_assert(Same(AccessLimit::kFixed, spirv::AccessLimit::kFixed) &&
              Same(AccessLimit::kSpecializationConstant,
                   spirv::AccessLimit::kSpecializationConstant) &&
              Same(AccessLimit::kRuntimeLength, spirv::AccessLimit::kRuntimeLength) &&
              Same(AccessLimit::kImage, spirv::AccessLimit::kImage) &&
              Same(AccessLimit::kNone, spirv::AccessLimit::kNone));

#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
// Each lists every enumerator of one enum pair; instantiated for both sides.
constexpr bool ListsEveryTargetEnv(spirv::TargetEnv e) {
  switch (e) {
    case spirv::TargetEnv::kUniversal:
    case spirv::TargetEnv::kOpenGL45:
    case spirv::TargetEnv::kVulkan10:
    case spirv::TargetEnv::kVulkan11:
    case spirv::TargetEnv::kVulkan12:
    case spirv::TargetEnv::kVulkan13:
      return true;
  }
  return false;
}
// The public enum has one more, kFromInput, which is never cast: ToSpirv maps it.
constexpr bool ListsEveryTargetEnv(TargetEnv e) {
  switch (e) {
    case TargetEnv::kFromInput:
      return true;
    case TargetEnv::kUniversal:
    case TargetEnv::kOpenGL45:
    case TargetEnv::kVulkan10:
    case TargetEnv::kVulkan11:
    case TargetEnv::kVulkan12:
    case TargetEnv::kVulkan13:
      return ListsEveryTargetEnv(static_cast<spirv::TargetEnv>(e));
  }
  return false;
}
template <typename E>
constexpr bool ListsEverySeverity(E e) {
  switch (e) {
    case E::kOff:
    case E::kNote:
    case E::kWarning:
    case E::kError:
      return true;
  }
  return false;
}
template <typename E>
constexpr bool ListsEveryRangeAnalysisMode(E e) {
  switch (e) {
    case E::kOff:
    case E::kReference:
    case E::kFull:
      return true;
  }
  return false;
}
template <typename E>
constexpr bool ListsEveryUniformityFilterAction(E e) {
  switch (e) {
    case E::kOff:
    case E::kNote:
    case E::kAssumeUniform:
      return true;
  }
  return false;
}
template <typename E>
constexpr bool ListsEveryAccessVerdict(E e) {
  switch (e) {
    case E::kNone:
    case E::kClamped:
    case E::kProvenInBounds:
    case E::kUnbounded:
    case E::kNotClamped:
      return true;
  }
  return false;
}
#pragma GCC diagnostic pop
static_assert(ListsEveryTargetEnv(TargetEnv{}) && ListsEveryTargetEnv(spirv::TargetEnv{}) &&
              ListsEverySeverity(Severity{}) && ListsEverySeverity(spirv::Severity{}) &&
              ListsEveryRangeAnalysisMode(RangeAnalysisMode{}) &&
              ListsEveryRangeAnalysisMode(spirv::RangeAnalysisMode{}) &&
              ListsEveryUniformityFilterAction(UniformityFilterAction{}) &&
              ListsEveryUniformityFilterAction(spirv::UniformityFilterAction{}) &&
              ListsEveryAccessVerdict(AccessVerdict{}) &&
              ListsEveryAccessVerdict(spirv::AccessVerdict{}));

}  // namespace

spirv::TargetEnv ToSpirv(TargetEnv env) {
  // kFromInput has no SPIR-V-layer counterpart: a caller that could not resolve it
  // (validation_target.h does) validates the module as its own SPIR-V version.
  if (env == TargetEnv::kFromInput) return spirv::TargetEnv::kUniversal;
  return static_cast<spirv::TargetEnv>(env);
}
TargetEnv FromSpirv(spirv::TargetEnv env) { return static_cast<TargetEnv>(env); }
spirv::Severity ToSpirv(Severity severity) { return static_cast<spirv::Severity>(severity); }
Severity FromSpirv(spirv::Severity severity) { return static_cast<Severity>(severity); }
spirv::RangeAnalysisMode ToSpirv(RangeAnalysisMode mode) {
  return static_cast<spirv::RangeAnalysisMode>(mode);
}
AccessVerdict FromSpirv(spirv::AccessVerdict verdict) {
  return static_cast<AccessVerdict>(verdict);
}
AccessLimit FromSpirv(spirv::AccessLimit limit) { return static_cast<AccessLimit>(limit); }

spirv::Options ToSpirv(const Options& options) {
  spirv::Options out;
  out.hoist_constant_tables = options.hoist_constant_tables;
  out.robust_access = options.robust_access;
  out.range_analysis = ToSpirv(options.range_analysis);
  out.uniformity = ToSpirv(options.uniformity);
  for (const UniformityFilter& filter : options.uniformity_filters)
    out.uniformity_filters.push_back({static_cast<spirv::UniformityFilterAction>(filter.action),
                                      filter.function, filter.file, filter.first_line,
                                      filter.last_line, filter.justification});
  out.subgroup_size = options.subgroup_size;
  out.max_workgroups = options.max_workgroups;
  out.spec_constants = options.spec_constants;
  out.collect_ranges = options.collect_ranges;
  out.passes = options.passes;
  return out;
}

SourceLocation FromSpirv(spirv::SourceLocation location) {
  return {std::move(location.file), location.line, location.column};
}

spirv::SourceLocation ToSpirv(const SourceLocation& location) {
  return {location.file, location.line, location.column};
}

Diagnostic FromSpirv(spirv::Diagnostic diagnostic) {
  Diagnostic out;
  out.severity = FromSpirv(diagnostic.severity);
  out.origin = std::move(diagnostic.origin);
  out.location = FromSpirv(std::move(diagnostic.location));
  out.message = std::move(diagnostic.message);
  out.reasons = std::move(diagnostic.reasons);
  out.reason_locations.reserve(diagnostic.reason_locations.size());
  for (spirv::SourceLocation& location : diagnostic.reason_locations)
    out.reason_locations.push_back(FromSpirv(std::move(location)));
  out.rule = std::move(diagnostic.rule);
  return out;
}

AccessRecord FromSpirv(spirv::AccessRecord record) {
  AccessRecord out;
  out.location = FromSpirv(std::move(record.location));
  out.instruction = std::move(record.instruction);
  out.object = std::move(record.object);
  out.index_id = record.index_id;
  out.access_id = record.access_id;
  out.index_position = record.index_position;
  out.has_range = record.has_range;
  out.range_min = record.range_min;
  out.range_max = record.range_max;
  out.is_signed = record.is_signed;
  out.reason = std::move(record.reason);
  out.limit = record.limit;
  out.limit_kind = FromSpirv(record.limit_kind);
  out.verdict = FromSpirv(record.verdict);
  out.guard = FromSpirv(std::move(record.guard));
  out.out_of_bounds = record.out_of_bounds;
  out.witness_invocation = record.witness_invocation;
  out.witness_value = record.witness_value;
  out.length_never_read = record.length_never_read;
  return out;
}

TableRecord FromSpirv(spirv::TableRecord table) {
  return {FromSpirv(std::move(table.location)), std::move(table.name), table.copies_removed};
}

void AppendFromSpirv(spirv::Report from, Report& into) {
  for (spirv::Diagnostic& d : from.diagnostics) into.diagnostics.push_back(FromSpirv(std::move(d)));
  for (spirv::SuppressedDiagnostic& s : from.suppressed)
    into.suppressed.push_back(
        {FromSpirv(std::move(s.diagnostic)), std::move(s.filter), std::move(s.justification)});
  for (spirv::AccessRecord& a : from.accesses) into.accesses.push_back(FromSpirv(std::move(a)));
  for (spirv::PassStatistic& p : from.passes)
    into.passes.push_back({std::move(p.pass), p.changed, p.rewrites});
  for (spirv::TableRecord& t : from.tables) into.tables.push_back(FromSpirv(std::move(t)));
}

}  // namespace glint
