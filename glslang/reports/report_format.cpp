// Renders the range report (see include/glint/report_format.h).
#include "glint/report_format.h"

#include <string_view>

#include "glslang/reports/report_text.h"

namespace glint {
namespace {

// Appends one record's line of the text report (without its newline).
void AppendTextLine(const AccessRecord& record, text::TextBuilder& line) {
  if (!record.location.file.empty() || record.location.line != 0)
    line << (record.location.file.empty() ? "<unknown>" : record.location.file) << ":"
         << record.location.line << ": ";
  line << record.instruction << " " << record.object << "[index %" << record.index_id << "]: ";
  if (record.has_range)
    line << "range [" << record.range_min << ", " << record.range_max << "]";
  else
    line << "no range: " << record.reason;
  if (record.limit >= 0) line << ", limit " << record.limit;
  if (record.limit < 0 && record.limit_kind == AccessLimit::kSpecializationConstant)
    line << ", limit set by a specialization constant";
  if (record.length_never_read) line << ", runtime array length never read by the shader";
  if (record.verdict != AccessVerdict::kNone) line << ": " << AccessVerdictText(record.verdict);
  // Against a length the application sets: in bounds whatever value it gives.
  if (record.verdict == AccessVerdict::kProvenInBounds && record.limit < 0 &&
      record.limit_kind == AccessLimit::kSpecializationConstant)
    line << " for every specialization";
  if (record.guard.line != 0)
    line << " (" << (record.verdict == AccessVerdict::kProvenInBounds ? "proven" : "narrowed")
         << " by the condition at " << (record.guard.file.empty() ? "<unknown>" : record.guard.file)
         << ":" << record.guard.line << ")";
  if (record.out_of_bounds)
    line << "; out of bounds: index " << record.witness_value << " at local invocation ("
         << record.witness_invocation[0] << ", " << record.witness_invocation[1] << ", "
         << record.witness_invocation[2] << ") of every workgroup";
}

// Appends one record as a JSON object.
void AppendJsonRecord(const AccessRecord& record, text::TextBuilder& out) {
  auto json = [&out](std::string_view bytes) -> text::TextBuilder& {
    text::AppendJson(out.Text(), bytes);
    return out;
  };
  out << "{\"file\": ";
  json(record.location.file) << ", \"line\": " << record.location.line << ", \"instruction\": ";
  json(record.instruction) << ", \"object\": ";
  json(record.object) << ", \"index\": " << record.index_id
                      << ", \"position\": " << record.index_position << ", \"range\": ";
  if (record.has_range)
    out << "[" << record.range_min << ", " << record.range_max << "]";
  else
    out << "null";
  out << ", \"signed\": " << (record.is_signed ? "true" : "false");
  if (!record.has_range) {
    out << ", \"reason\": ";
    json(record.reason);
  }
  out << ", \"limit\": ";
  if (record.limit >= 0)
    out << record.limit;
  else {
    out << "null, \"limit_source\": ";
    json(AccessLimitText(record.limit_kind));
  }
  if (record.length_never_read) out << ", \"length_never_read\": true";
  out << ", \"verdict\": ";
  if (record.verdict == AccessVerdict::kNone)
    out << "null";
  else
    json(AccessVerdictText(record.verdict));
  if (record.guard.line != 0) {
    out << ", \"guard\": {\"file\": ";
    json(record.guard.file) << ", \"line\": " << record.guard.line << "}";
  }
  if (record.out_of_bounds)
    out << ", \"out_of_bounds\": {\"value\": " << record.witness_value
        << ", \"local_invocation\": [" << record.witness_invocation[0] << ", "
        << record.witness_invocation[1] << ", " << record.witness_invocation[2] << "]}";
  out << "}";
}

}  // namespace

const char* AccessVerdictText(AccessVerdict verdict) {
  switch (verdict) {
    case AccessVerdict::kNone:
      return "";
    case AccessVerdict::kClamped:
      return "clamped";
    case AccessVerdict::kProvenInBounds:
      return "proven in bounds";
    case AccessVerdict::kUnbounded:
      return "unbounded";
    case AccessVerdict::kNotClamped:
      return "not clamped";
  }
  return "";
}

const char* AccessLimitText(AccessLimit limit) {
  switch (limit) {
    case AccessLimit::kFixed:
      return "fixed";
    case AccessLimit::kSpecializationConstant:
      return "specialization constant";
    case AccessLimit::kRuntimeLength:
      return "runtime array length";
    case AccessLimit::kImage:
      return "image size";
    case AccessLimit::kNone:
      return "none";
  }
  return "";
}

// Text builders, not a stream per record: a robust compile's report has a line per
// access, thousands in a large kernel, and streams cost several times more per piece.
std::string FormatRangeReport(const Report& report, bool json) {
  text::TextBuilder out;
  out.Reserve(report.accesses.size() * 160);
  if (!json) {
    for (const AccessRecord& record : report.accesses) {
      AppendTextLine(record, out);
      out << '\n';
    }
    return out.Take();
  }
  out << "{\"accesses\": [";
  for (size_t i = 0; i < report.accesses.size(); ++i) {
    out << (i ? ",\n  " : "\n  ");
    AppendJsonRecord(report.accesses[i], out);
  }
  out << (report.accesses.empty() ? "]}\n" : "\n]}\n");
  return out.Take();
}

}  // namespace glint
