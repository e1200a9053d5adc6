// FormatSarifReport: the report as SARIF 2.1.0 (OASIS), the format code-review tools
// (GitHub code scanning, editor SARIF viewers) read. See report_format.h.
//
// One run; tool.driver "glint" lists every rule of report_findings.h with its default
// level. Each finding is a result: ruleId and ruleIndex, level, message, and a
// physicalLocation when the record names a file (artifact URI as the record names it,
// relative to the working directory; region.startLine only when the line is known,
// since SARIF lines start at 1). A diagnostic's reason chain becomes one codeFlow whose
// threadFlow visits each step (with its location when the step names one). A diagnostic
// a uniformity filter silenced is a result with its level and a suppression of kind
// "external" (the user's justification, the filter in its properties).
#include <cctype>
#include <cstring>
#include <map>

#include "glint/report_format.h"
#include "glslang/reports/report_findings.h"
#include "glslang/reports/report_text.h"

namespace glint {
namespace {

using report::Finding;

// A JSON string literal, quotes included, written straight into the log:
// `out_ << JsonString{text}`.
struct JsonString {
  std::string_view text;
};

text::TextBuilder& operator<<(text::TextBuilder& out, JsonString string) {
  text::AppendJson(out.Text(), string.text);
  return out;
}

// Artifact URIs: a relative path stays a relative reference (resolved against the
// working directory, as review tools expect), an absolute one becomes a file: URI;
// what a URI may not contain is percent-encoded.
std::string UriOf(const std::string& path) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out = !path.empty() && path[0] == '/' ? "file://" : "";
  for (unsigned char c : path) {
    bool plain = std::isalnum(c) || (c != '\0' && std::strchr("-._~/!$&'()*+,;=:@", c) != nullptr);
    if (plain)
      out += char(c);
    else
      out += {'%', kHex[c >> 4], kHex[c & 15]};
  }
  return out;
}

class SarifWriter {
 public:
  SarifWriter(const Report& report, const ReportContext& context)
      : context_(context), findings_(report::CollectFindings(report)) {
    for (const ReportSource& source : context.sources) AddArtifact(source.name);
    for (const Finding& finding : findings_) {
      AddArtifact(finding.location.file);
      for (const report::ReasonStep& step : finding.steps) AddArtifact(step.location.file);
    }
  }

  std::string Write() {
    out_.Reserve(4096 +
                 512 * findings_.size());  // a result is about 400 bytes, more with a code flow
    out_ << "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
         << "  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n";
    WriteTool();
    WriteInvocation();
    WriteArtifacts();
    WriteResults();
    out_ << "    }\n  ]\n}\n";
    return out_.Take();
  }

 private:
  // Each artifact's URI is made once, as a JSON string: results name their artifact
  // over and over.
  void AddArtifact(const std::string& file) {
    if (file.empty() || artifact_index_.count(file)) return;
    artifact_index_[file] = artifacts_.size();
    artifacts_.push_back(text::Json(UriOf(file)));
  }

  void WriteTool() {
    out_ << "      \"tool\": {\n        \"driver\": {\n          \"name\": \"glint\",\n"
         << "          \"version\": " << JsonString{context_.glint_version} << ",\n"
         << "          \"rules\": [";
    const std::vector<report::RuleInfo>& rules = report::Rules();
    for (size_t i = 0; i < rules.size(); ++i)
      out_ << (i ? "," : "") << "\n            {\"id\": " << JsonString{rules[i].id}
           << ", \"shortDescription\": {\"text\": " << JsonString{rules[i].description} << "}"
           << ", \"defaultConfiguration\": {\"level\": " << JsonString{rules[i].level} << "}}";
    out_ << "\n          ]\n        }\n      },\n";
  }

  void WriteInvocation() {
    out_ << "      \"invocations\": [{\"executionSuccessful\": true, \"commandLine\": "
         << JsonString{context_.command_line} << "}],\n";
  }

  void WriteArtifacts() {
    out_ << "      \"artifacts\": [";
    for (size_t i = 0; i < artifacts_.size(); ++i)
      out_ << (i ? "," : "") << "\n        {\"location\": {\"uri\": " << artifacts_[i] << "}}";
    out_ << "\n      ],\n";
  }

  void WritePhysicalLocation(const SourceLocation& location) {
    size_t index = artifact_index_.at(location.file);
    out_ << "{\"artifactLocation\": {\"uri\": " << artifacts_[index] << ", \"index\": " << index
         << "}";
    if (location.line > 0) {
      out_ << ", \"region\": {\"startLine\": " << location.line;
      if (location.column > 0) out_ << ", \"startColumn\": " << location.column;
      out_ << "}";
    }
    out_ << "}";
  }

  static std::string Message(const Finding& finding) {
    return finding.detail.empty() ? finding.title : finding.title + ": " + finding.detail;
  }

  void WriteResults() {
    out_ << "      \"results\": [";
    for (size_t i = 0; i < findings_.size(); ++i) {
      out_ << (i ? "," : "") << "\n        ";
      WriteResult(findings_[i]);
    }
    out_ << "\n      ]\n";
  }

  void WriteResult(const Finding& finding) {
    size_t rule = report::RuleIndex(finding.rule);
    out_ << "{\"ruleId\": " << JsonString{report::Rules()[rule].id} << ", \"ruleIndex\": " << rule
         << ", \"level\": " << JsonString{LevelOf(finding)}
         << ", \"message\": {\"text\": " << JsonString{Message(finding)} << "}";
    if (!finding.location.file.empty()) {
      out_ << ",\n         \"locations\": [{\"physicalLocation\": ";
      WritePhysicalLocation(finding.location);
      out_ << "}]";
    }
    WriteCodeFlow(finding);
    WriteSuppression(finding);
    out_ << "}";
  }

  // Silenced on the command line or through the API, not in the source: "external".
  void WriteSuppression(const Finding& finding) {
    if (finding.kind != report::FindingKind::kSuppressed) return;
    out_ << ",\n         \"suppressions\": [{\"kind\": \"external\", \"status\": \"accepted\"";
    if (!finding.justification.empty())
      out_ << ", \"justification\": " << JsonString{finding.justification};
    out_ << ", \"properties\": {\"filter\": " << JsonString{finding.suppressed_by} << "}}]";
  }

  static const char* LevelOf(const Finding& finding) {
    switch (finding.kind == report::FindingKind::kSuppressed ? finding.suppressed_kind
                                                              : finding.kind) {
      case report::FindingKind::kError:
        return "error";
      case report::FindingKind::kWarning:
      case report::FindingKind::kClamped:
        return "warning";
      default:
        return "note";
    }
  }

  void WriteCodeFlow(const Finding& finding) {
    if (finding.steps.empty()) return;
    out_ << ",\n         \"codeFlows\": [{\"threadFlows\": [{\"locations\": [";
    for (size_t i = 0; i < finding.steps.size(); ++i) {
      const report::ReasonStep& step = finding.steps[i];
      out_ << (i ? ", " : "") << "{\"location\": {";
      if (!step.location.file.empty()) {
        out_ << "\"physicalLocation\": ";
        WritePhysicalLocation(step.location);
        out_ << ", ";
      }
      out_ << "\"message\": {\"text\": " << JsonString{step.text} << "}}}";
    }
    out_ << "]}]}]";
  }

  const ReportContext& context_;
  std::vector<Finding> findings_;
  std::vector<std::string> artifacts_;  // URIs as JSON strings, in index order
  std::map<std::string, size_t> artifact_index_;
  text::TextBuilder out_;
};

}  // namespace

std::string FormatSarifReport(const Report& report, const ReportContext& context) {
  return SarifWriter(report, context).Write();
}

}  // namespace glint
