// The C API's access to what reports show beyond the records of c_interface.cpp:
// diagnostics' rules and reason locations, hoisted tables, and the formatted reports
// (HTML, SARIF, the --dump-ranges text and JSON) built by the same formatters as the
// command line's. See glint_c.h.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include <glslang/Public/ShaderLang.h>

#include "glint/glint_c.h"
#include "glint/report_format.h"
#include "glslang/api/c_api_internal.h"

namespace {

template <typename Record>
const Record* Nth(const std::vector<Record>& records, size_t index) {
  return index < records.size() ? &records[index] : nullptr;
}

std::string Format(const glint::Report& report, int format, glint::ReportContext& context) {
  switch (format) {
    case GLINT_REPORT_FORMAT_HTML:
      return glint::FormatHtmlReport(report, context);
    case GLINT_REPORT_FORMAT_SARIF:
      return glint::FormatSarifReport(report, context);
    case GLINT_REPORT_FORMAT_RANGES:
      return glint::FormatRangeReport(report, false);
    case GLINT_REPORT_FORMAT_RANGES_JSON:
      return glint::FormatRangeReport(report, true);
    default:
      return "";
  }
}

}  // namespace

extern "C" {

const char* glint_report_diagnostic_rule(const glint_report_t* report, size_t index) {
  const glint::Diagnostic* d = report ? Nth(report->report.diagnostics, index) : nullptr;
  return d ? d->rule.c_str() : nullptr;
}

int glint_report_diagnostic_reason_location(const glint_report_t* report, size_t index,
                                            size_t reason, const char** file, uint32_t* line) {
  const glint::Diagnostic* d = report ? Nth(report->report.diagnostics, index) : nullptr;
  if (!d || reason >= d->reasons.size() || !file || !line) return 0;
  const glint::SourceLocation* where = Nth(d->reason_locations, reason);
  *file = where ? where->file.c_str() : "";
  *line = where ? where->line : 0;
  return 1;
}

size_t glint_report_suppressed_count(const glint_report_t* report) {
  return report ? report->report.suppressed.size() : 0;
}

int glint_report_suppressed(const glint_report_t* report, size_t index, const char** message,
                            const char** rule, const char** file, uint32_t* line,
                            const char** filter, const char** justification) {
  const glint::SuppressedDiagnostic* s = report ? Nth(report->report.suppressed, index) : nullptr;
  if (!s) return 0;
  if (message) *message = s->diagnostic.message.c_str();
  if (rule) *rule = s->diagnostic.rule.c_str();
  if (file) *file = s->diagnostic.location.file.c_str();
  if (line) *line = s->diagnostic.location.line;
  if (filter) *filter = s->filter.c_str();
  if (justification) *justification = s->justification.c_str();
  return 1;
}

size_t glint_report_table_count(const glint_report_t* report) {
  return report ? report->report.tables.size() : 0;
}

int glint_report_table(const glint_report_t* report, size_t index, glint_table_record_t* out) {
  const glint::TableRecord* t = report ? Nth(report->report.tables, index) : nullptr;
  if (!t || !out) return 0;
  out->file = t->location.file.c_str();
  out->line = t->location.line;
  out->name = t->name.c_str();
  out->copies_removed = t->copies_removed;
  return 1;
}

size_t glint_report_format(const glint_report_t* report, int format, const char* title,
                           const char* const* source_names, const char* const* source_texts,
                           size_t source_count, char* buffer, size_t buffer_size) {
  if (!report || format < GLINT_REPORT_FORMAT_HTML || format > GLINT_REPORT_FORMAT_RANGES_JSON)
    return 0;
  // No array of pointers has more elements than this; a larger count is a wrong one.
  if (source_count > SIZE_MAX / sizeof(const char*)) return 0;
  try {
    glint::ReportContext context;
    context.title = title ? title : "";
    context.glint_version = glint_version();
    glslang::Version version = glslang::GetVersion();
    context.glslang_version = std::to_string(version.major) + "." + std::to_string(version.minor) +
                              "." + std::to_string(version.patch) + version.flavor;
    for (size_t i = 0; source_names && source_texts && i < source_count; ++i)
      if (source_names[i] && source_texts[i])
        context.sources.push_back({source_names[i], source_texts[i]});
    std::string text = Format(report->report, format, context);
    if (buffer && buffer_size > 0) {
      size_t copied = std::min(text.size(), buffer_size - 1);
      std::memcpy(buffer, text.data(), copied);
      buffer[copied] = '\0';
    }
    return text.size();
  } catch (...) {
    return 0;  // out of memory: nothing written, as for a bad argument
  }
}

}  // extern "C"
