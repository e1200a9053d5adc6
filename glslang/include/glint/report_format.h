// Renderings of Glint's report: the range report as text and JSON (Report::accesses,
// `glslangValidator --dump-ranges` and `--dump-ranges=json`), and the whole report as
// HTML and SARIF (`--report=html FILE`, `--report=sarif FILE`).
//
// Text: one line per access, in the report's order:
//   file:line: OpAccessChain data[index %27]: range [0, 9], limit 15: proven in bounds
//   file:line: OpAccessChain data[index %33]: no range: loop bound is not a constant
// The location prefix is left out when the module had no line information; ", limit N"
// appears when the limit is known (", limit set by a specialization constant" for such
// an array's length, ", runtime array length never read by the shader" for a runtime
// array whose length the module never reads: AccessRecord::length_never_read) and
// ": verdict" when robust access gave one; an index proven out
// of bounds ends with "; out of bounds: index V at local invocation (x, y, z) of every
// workgroup".
// JSON: {"accesses": [{"file":..., "line":..., "instruction":..., "object":...,
//   "index": id, "position": n, "range": [min, max] | null, "signed": bool,
//   "reason": "..." (only without a range), "limit": n | null, "limit_source": "..."
//   (only when "limit" is null: AccessLimitText), "length_never_read": true (only when
//   set), "verdict": "..." | null, "guard":
//   {"file", "line"} (when a test narrowed it), "out_of_bounds": {"value": v,
//   "local_invocation": [x, y, z]} (when proven out of bounds)}]}
#ifndef GLINT_REPORT_FORMAT_H
#define GLINT_REPORT_FORMAT_H

#include <cstdint>
#include <string>
#include <vector>

#include "glint/glint.h"

namespace glint {

GLINT_EXPORT std::string FormatRangeReport(const Report& report, bool json);

// The words for a verdict: "clamped", "proven in bounds", "unbounded", "not clamped";
// "" for AccessVerdict::kNone.
GLINT_EXPORT const char* AccessVerdictText(AccessVerdict verdict);

// The words for what bounds an index: "fixed", "specialization constant", "runtime array
// length", "image size", "none".
GLINT_EXPORT const char* AccessLimitText(AccessLimit limit);

// ---- Reports for people and review tools (glslangValidator --report=html|sarif) ----

// A source file that report records may name, with its text as compiled.
struct ReportSource {
  std::string name;  // as records name it (SourceLocation::file)
  std::string text;  // any bytes; invalid UTF-8 is shown as U+FFFD
};

// What a report shows besides the records.
struct ReportContext {
  std::vector<ReportSource> sources;  // every file involved, includes too
  std::string title;                  // usually the compiled file's name
  std::string command_line;           // the flags used
  std::string glint_version;
  std::string glslang_version;
  // False when the module carried no line information (a .spv input without OpLine):
  // the report then says so instead of showing empty source views.
  bool has_line_information = true;
};

// One self-contained HTML page (no network, no external scripts or fonts): a summary,
// then every source with line numbers and, under each line, what Glint found there.
GLINT_EXPORT std::string FormatHtmlReport(const Report& report, const ReportContext& context);

// SARIF 2.1.0 (one run, driver "glint"): results with their rule, level, location
// (artifact URI as records name the file, relative to the working directory) and a
// diagnostic's reason chain as a code flow.
GLINT_EXPORT std::string FormatSarifReport(const Report& report, const ReportContext& context);

// The sources embedded in a module's debug information: OpSource (and
// OpSourceContinued) text with the OpString file it names. Empty without them.
GLINT_EXPORT std::vector<ReportSource> SourcesFromSpirv(const std::vector<uint32_t>& words);
// True when the module has at least one OpLine (records can name source lines).
GLINT_EXPORT bool ModuleHasLineInformation(const std::vector<uint32_t>& words);

}  // namespace glint

#endif  // GLINT_REPORT_FORMAT_H
