#include "report_files.h"

#include "child_compiles.h"

#include <cstdio>

#include <glslang/Public/ShaderLang.h>

#include "output_file.h"

namespace glint::standalone {

void RunReport::Add(const Report& report) {
  records.diagnostics.insert(records.diagnostics.end(), report.diagnostics.begin(),
                             report.diagnostics.end());
  records.accesses.insert(records.accesses.end(), report.accesses.begin(), report.accesses.end());
  records.passes.insert(records.passes.end(), report.passes.begin(), report.passes.end());
  records.tables.insert(records.tables.end(), report.tables.begin(), report.tables.end());
  records.suppressed.insert(records.suppressed.end(), report.suppressed.begin(),
                            report.suppressed.end());
}

void RunReport::AddSource(const std::string& name, const std::string* text, uint64_t max_bytes) {
  for (const ReportSource& source : sources)
    if (source.name == name) return;
  if (text) return sources.push_back({name, *text});
  std::string content;
  if (!frontend::ReadFileWithin(name, max_bytes, frontend::FileKinds::kRegularOnly, "", &content)
           .empty())
    return;  // the report then lists this file's findings without its text
  sources.push_back({name, std::move(content)});
}

namespace {

std::string CommandLineText(int argc, char** argv) {
  std::string text;
  for (int i = 1; i < argc; ++i) text += (i > 1 ? " " : "") + std::string(argv[i]);
  return text;
}

std::string GlslangVersion() {
  glslang::Version version = glslang::GetVersion();
  return std::to_string(version.major) + "." + std::to_string(version.minor) + "." +
         std::to_string(version.patch) + version.flavor;
}

bool WriteText(const std::string& path, const std::string& text) {
  output::WriteResult written = WriteOutput(path, text);
  if (!written.ok()) std::printf("ERROR: %s\n", output::DescribeFailure(path, written).c_str());
  return written.ok();
}

}  // namespace

bool WriteReportFiles(const CommandLine& line, int argc, char** argv, const RunReport& run) {
  if (!line.html_report && !line.sarif_report) return true;
  ReportContext context;
  context.sources = run.sources;
  context.title = line.files.empty() ? "stdin" : line.files.front();
  context.command_line = CommandLineText(argc, argv);
  context.glint_version = GLINT_VERSION_STRING;
  context.glslang_version = GlslangVersion();
  context.has_line_information = run.has_line_information;
  bool ok = true;
  if (line.html_report) ok &= WriteText(*line.html_report, FormatHtmlReport(run.records, context));
  if (line.sarif_report)
    ok &= WriteText(*line.sarif_report, FormatSarifReport(run.records, context));
  return ok;
}

}  // namespace glint::standalone
