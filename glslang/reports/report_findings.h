// The report as a list of findings that a reader looks at on a source line: what the
// HTML and SARIF formatters render. Built from the records of glint::Report only (never
// from formatted text), so both formats and the C/C++ APIs describe the same thing.
//
// A finding is one access (proven, clamped, ...), one hoisted constant table or one
// diagnostic (uniformity warnings with their reason chain, glslang's messages). Each
// has a stable rule id (SARIF's ruleId, the HTML marker's class) and a location, which
// is empty (file "" and line 0) when the module had no line information.
#ifndef GLINT_GLSLANG_REPORTS_REPORT_FINDINGS_H
#define GLINT_GLSLANG_REPORTS_REPORT_FINDINGS_H

#include <string>
#include <vector>

#include "glint/glint.h"

namespace glint::report {

enum class FindingKind {
  kProven,     // an access the range analysis proved in bounds: no clamp
  kClamped,    // an access that costs a clamp
  kUnclamped,  // an access left as it was for another reason (the verdict says which)
  kRangeOnly,  // an access recorded without robust access (--dump-ranges alone)
  kTable,      // a constant table hoisted to one Private variable
  kError,
  kWarning,
  kNote,
  kSuppressed,  // a diagnostic a uniformity filter silenced (Report::suppressed)
};

struct ReasonStep {
  std::string text;
  SourceLocation location;  // line 0: the step names no line
};

struct Finding {
  FindingKind kind = FindingKind::kNote;
  std::string rule;  // e.g. "robust-access/clamped", "uniformity/barrier"
  SourceLocation location;
  std::string title;              // one line
  std::string detail;             // range, limit and reason of an access; empty for diagnostics
  std::vector<ReasonStep> steps;  // a diagnostic's reason chain, outermost first
  // kSuppressed only: the kind it would have had, the filter and its justification.
  FindingKind suppressed_kind = FindingKind::kNote;
  std::string suppressed_by;
  std::string justification;
};

struct RuleInfo {
  const char* id;
  const char* level;  // SARIF level: "error", "warning" or "note"
  const char* description;
};

// Every rule a finding can carry, in a fixed order (SARIF's rules array).
const std::vector<RuleInfo>& Rules();
// Index of `id` in Rules(); the last rule ("glint/other") for an unknown id.
size_t RuleIndex(const std::string& id);

std::vector<Finding> CollectFindings(const Report& report);

// Short name of a kind, used as HTML class and in the summary ("clamped", "warning").
const char* KindName(FindingKind kind);

}  // namespace glint::report

#endif  // GLINT_GLSLANG_REPORTS_REPORT_FINDINGS_H
