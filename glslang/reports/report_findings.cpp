// Builds the findings of a report (see report_findings.h).
#include "glslang/reports/report_findings.h"

#include "glint/report_format.h"
#include "glslang/reports/report_text.h"

namespace glint::report {
namespace {

const char* const kOtherRule = "glint/other";

FindingKind AccessKind(const AccessRecord& record) {
  switch (record.verdict) {
    case AccessVerdict::kNone:
      return FindingKind::kRangeOnly;
    case AccessVerdict::kProvenInBounds:
      return FindingKind::kProven;
    case AccessVerdict::kClamped:
      return FindingKind::kClamped;
    case AccessVerdict::kUnbounded:
    case AccessVerdict::kNotClamped:
      return FindingKind::kUnclamped;
  }
  return FindingKind::kUnclamped;
}

const char* AccessRule(FindingKind kind) {
  switch (kind) {
    case FindingKind::kProven:
      return "robust-access/proven";
    case FindingKind::kClamped:
      return "robust-access/clamped";
    case FindingKind::kUnclamped:
      return "robust-access/not-clamped";
    default:
      return "ranges/access";
  }
}

std::string AccessDetail(const AccessRecord& record) {
  text::TextBuilder out;
  if (record.has_range)
    out << "range [" << record.range_min << ", " << record.range_max << "]";
  else
    out << "no range: " << record.reason;
  if (record.limit >= 0)
    out << "; limit " << record.limit;
  else if (record.limit_kind == AccessLimit::kSpecializationConstant)
    out << "; limit set by a specialization constant";
  else if (record.length_never_read)
    out << "; limit known only at run time, and the shader never reads the runtime array's length";
  else
    out << "; limit known only at run time";
  if (record.verdict != AccessVerdict::kNone) out << "; " << AccessVerdictText(record.verdict);
  return out.Take();
}

Finding FromAccess(const AccessRecord& record) {
  Finding finding;
  finding.kind = AccessKind(record);
  finding.rule = AccessRule(finding.kind);
  finding.location = record.location;
  finding.title =
      record.instruction + " " + record.object + "[index %" + std::to_string(record.index_id) + "]";
  finding.detail = AccessDetail(record);
  return finding;
}

Finding FromTable(const TableRecord& table) {
  Finding finding;
  finding.kind = FindingKind::kTable;
  finding.rule = "constant-tables/hoisted";
  finding.location = table.location;
  finding.title = "constant table " + table.name + " hoisted to one Private variable";
  finding.detail = std::to_string(table.copies_removed) + " per-invocation cop" +
                   (table.copies_removed == 1 ? "y" : "ies") + " removed";
  return finding;
}

FindingKind DiagnosticKind(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return FindingKind::kError;
    case Severity::kWarning:
      return FindingKind::kWarning;
    default:
      return FindingKind::kNote;
  }
}

Finding FromDiagnostic(const Diagnostic& diagnostic) {
  Finding finding;
  finding.kind = DiagnosticKind(diagnostic.severity);
  finding.rule = !diagnostic.rule.empty() ? diagnostic.rule : diagnostic.origin + "/message";
  if (RuleIndex(finding.rule) == Rules().size() - 1) finding.rule = kOtherRule;
  finding.location = diagnostic.location;
  finding.title = diagnostic.message;
  for (size_t i = 0; i < diagnostic.reasons.size(); ++i) {
    ReasonStep step{diagnostic.reasons[i], {}};
    if (i < diagnostic.reason_locations.size()) step.location = diagnostic.reason_locations[i];
    finding.steps.push_back(std::move(step));
  }
  return finding;
}

}  // namespace

const std::vector<RuleInfo>& Rules() {
  static const std::vector<RuleInfo> rules = {
      {"robust-access/clamped", "warning",
       "A dynamic index that no analysis proved in bounds: it costs a clamp."},
      {"robust-access/proven", "note",
       "A dynamic index the range analysis proved in bounds: no clamp."},
      {"robust-access/not-clamped", "note",
       "A dynamic index robust access left as it was (the message says why)."},
      {"ranges/access", "note", "A dynamic index and its range, as --dump-ranges reports it."},
      {"constant-tables/hoisted", "note",
       "A constant array indexed at run time, now one module-scope Private variable instead of a "
       "per-invocation copy."},
      {"uniformity/derivative", "warning",
       "A derivative in non-uniform control flow: its value is undefined."},
      {"uniformity/implicit-lod", "warning",
       "An implicit-LOD texture sample in non-uniform control flow: its level of detail is "
       "undefined."},
      {"uniformity/barrier", "warning",
       "A barrier in non-uniform control flow: invocations that skip it leave it undefined."},
      {"uniformity/uniform-control", "warning",
       "An instruction that must be executed in uniform control flow is not."},
      {"uniformity/refused", "note", "The uniformity analysis could not answer for this module."},
      {"uniformity-check/message", "error",
       "The uniformity check failed the compile (--uniformity=error)."},
      {"glslang/message", "warning", "A message from glslang's SPIR-V generation."},
      {"glint/message", "error", "An error from Glint."},
      {kOtherRule, "note", "Another message from Glint."},
  };
  return rules;
}

size_t RuleIndex(const std::string& id) {
  const std::vector<RuleInfo>& rules = Rules();
  for (size_t i = 0; i < rules.size(); ++i)
    if (id == rules[i].id) return i;
  return rules.size() - 1;
}

const char* KindName(FindingKind kind) {
  switch (kind) {
    case FindingKind::kProven:
      return "proven";
    case FindingKind::kClamped:
      return "clamped";
    case FindingKind::kUnclamped:
      return "not-clamped";
    case FindingKind::kRangeOnly:
      return "range";
    case FindingKind::kTable:
      return "table";
    case FindingKind::kError:
      return "error";
    case FindingKind::kWarning:
      return "warning";
    case FindingKind::kNote:
      return "note";
    case FindingKind::kSuppressed:
      return "suppressed";
  }
  return "note";
}

std::vector<Finding> CollectFindings(const Report& report) {
  std::vector<Finding> findings;
  for (const Diagnostic& diagnostic : report.diagnostics)
    findings.push_back(FromDiagnostic(diagnostic));
  for (const SuppressedDiagnostic& suppressed : report.suppressed) {
    Finding finding = FromDiagnostic(suppressed.diagnostic);
    finding.suppressed_kind = finding.kind;
    finding.kind = FindingKind::kSuppressed;
    finding.suppressed_by = suppressed.filter;
    finding.justification = suppressed.justification;
    findings.push_back(std::move(finding));
  }
  for (const TableRecord& table : report.tables) findings.push_back(FromTable(table));
  for (const AccessRecord& record : report.accesses) findings.push_back(FromAccess(record));
  return findings;
}

}  // namespace glint::report
