// What --report=html and --report=sarif cost next to the compile they describe.
//
// For the largest shaders of the configured corpus (docs/CORPUS.md; or those given on
// the command line),
// compiled as glslangValidator -V --robust-access --target-env <manifest env> would
// (glslang parse + link + SPIR-V, Glint's passes with records collected, the report
// located), times in the same process, round after round:
//   compile  the whole compile above
//   html     building the HTML report from its records (findings, page)
//   sarif    building the SARIF report from the same records
// and prints the medians and each report's share of the compile. The goal is under
// 10% for the largest corpus shader. Without --report nothing of this runs: the
// formatters are only called by the command line when asked, and hoisted-table
// records are only collected when records are asked for (Options::collect_ranges).
//
// Times on a shared machine wander; instructions do not. bench/report_callgrind.sh
// counts them (callgrind, steady state: two rounds minus one). On 2026-11-30:
//   shader (source, records)                    compile   html             sarif
//   glslang/Test/spv.debuginfo.continued.glsl.vert
//     (524,368 B, 3,779 lines of comment, 0)    39.3 M    2.66 M  (6.8%)   0.03 M (0.1%)
//   glslang/Test/spv.float16Fetch.frag
//     (59,837 B, 399)                           359.2 M   3.35 M  (0.9%)   3.17 M (0.9%)
//   dxvk/src/dxvk/shaders/dxvk_mipgen.comp
//     (39,068 B, 191)                           264.7 M   1.96 M  (0.7%)   1.73 M (0.7%)
// Before the source was escaped 16 bytes at a time, the page reserved once and SARIF
// written without std::ostringstream, the same columns read 8.48 M (21.6%) / 0.20 M,
// 6.59 M / 16.55 M (4.6%) and 3.86 M / 9.76 M (3.7%).
//
// Usage: report_bench [--rounds N] [SHADER STAGE ENV]...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <glslang/Public/ResourceLimits.h>

#include "command_line.h"
#include "glint/report_format.h"
#include "glslang/front_end/front_end.h"

namespace {

using Clock = std::chrono::steady_clock;
using namespace glint;

struct Shader {
  std::string path, stage, env;
};

std::string ReadText(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// One compile as the command line does it; the records and sources of every stage.
bool Compile(const Shader& shader, const std::string& text, Report* report,
             ReportContext* context) {
  std::vector<std::string> args = {"glslangValidator", "-V", "--robust-access", "--target-env",
                                   shader.env,         "-S", shader.stage,      shader.path};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  standalone::CommandLine line = standalone::ParseCommandLine(int(argv.size()), argv.data());
  line.glslang.resources = *GetDefaultResources();
  line.dump_ranges = true;
  std::vector<frontend::SourceUnit> units = {
      {shader.path, text, *standalone::StageFromName(shader.stage)}};
  standalone::FinishGlslangSettings(line);
  std::unique_ptr<frontend::Compilation> compilation =
      frontend::Compile(units, line.glslang, false);
  if (compilation->compile_failed || compilation->link_failed) return false;
  Options options = standalone::GlintOptionsFor(line, frontend::GlintTargetEnv(line.glslang));
  for (int stage = 0; stage < EShLangCount; ++stage) {
    glslang::TIntermediate* intermediate =
        compilation->Intermediate(static_cast<EShLanguage>(stage));
    if (!intermediate) continue;
    frontend::GlintOutput output = frontend::GenerateWithGlint(
        *intermediate, standalone::SpvOptionsFor(line), options, shader.path);
    report->accesses.insert(report->accesses.end(), output.report.accesses.begin(),
                            output.report.accesses.end());
    report->diagnostics.insert(report->diagnostics.end(), output.report.diagnostics.begin(),
                               output.report.diagnostics.end());
    report->tables.insert(report->tables.end(), output.report.tables.begin(),
                          output.report.tables.end());
  }
  context->sources = {{shader.path, text}};
  context->title = shader.path;
  return true;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void Measure(const Shader& shader, int rounds) {
  std::string text = ReadText(shader.path);
  std::vector<double> compile_ms, html_ms, sarif_ms;
  size_t records = 0, bytes = 0;
  for (int round = 0; round < rounds; ++round) {
    Report report;
    ReportContext context;
    Clock::time_point start = Clock::now();
    if (!Compile(shader, text, &report, &context)) {
      std::printf("%s: does not compile as given; skipped\n", shader.path.c_str());
      return;
    }
    compile_ms.push_back(MillisecondsSince(start));
    start = Clock::now();
    std::string html = FormatHtmlReport(report, context);
    html_ms.push_back(MillisecondsSince(start));
    start = Clock::now();
    std::string sarif = FormatSarifReport(report, context);
    sarif_ms.push_back(MillisecondsSince(start));
    records = report.accesses.size() + report.diagnostics.size() + report.tables.size();
    bytes = html.size() + sarif.size();
  }
  double compile = Median(compile_ms), html = Median(html_ms), sarif = Median(sarif_ms);
  std::printf(
      "%s\n  %zu B source, %zu records, %zu B reports; compile %.2f ms, html %.3f ms (%.2f%%), "
      "sarif %.3f ms (%.2f%%)\n",
      shader.path.c_str(), text.size(), records, bytes, compile, html, 100.0 * html / compile,
      sarif, 100.0 * sarif / compile);
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 15;
  std::vector<Shader> shaders;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--rounds" && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
    else if (i + 2 < argc)
      shaders.push_back({arg, argv[i + 1], argv[i + 2]}), i += 2;
  }
  if (shaders.empty()) {
    const std::string corpus = std::string(GLINT_CORPUS_DIR) + "/";
    if (corpus == "/") {
      std::fprintf(stderr,
                   "report_bench: no corpus configured (GLINT_CORPUS, docs/CORPUS.md): "
                   "name shaders as FILE STAGE ENV ...\n");
      return 2;
    }
    shaders = {{corpus + "glslang/Test/spv.debuginfo.continued.glsl.vert", "vert", "vulkan1.0"},
               {corpus + "glslang/Test/spv.float16Fetch.frag", "frag", "vulkan1.0"},
               {corpus + "dxvk/src/dxvk/shaders/dxvk_mipgen.comp", "comp", "vulkan1.3"}};
  }
  frontend::ScopedGlslangProcess process;
  std::printf(
      "median of %d rounds; each report is built (findings, then the page) from the compile's "
      "records\n",
      rounds);
  for (const Shader& shader : shaders) Measure(shader, rounds);
  return 0;
}
