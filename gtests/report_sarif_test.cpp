// FormatSarifReport and glslangValidator --report=sarif: every output passes the SARIF
// 2.1.0 checker (Test/sarif/check_sarif.py: a JSON Schema subset written from the
// specification, validated with python3-jsonschema, plus the cross-references a schema
// cannot state), and says what the records say.
#include <gtest/gtest.h>

#include <ostream>

#include "glint/report_format.h"
#include "support/report_test_support.h"
#include "support/test_support.h"

namespace glint {
namespace {

using test::Count;
using test::RunShell;
using test::ShellQuote;
using test::TemporaryDirectory;

// Empty when `path` passes the checker, else what it printed.
std::string CheckSarif(const std::string& path) {
  test::CommandResult result =
      RunShell("python3 " + ShellQuote(test::SourceRoot() + "/Test/sarif/check_sarif.py") + " " +
               ShellQuote(path));
  if (result.exit_code == 0 && result.output.empty()) return "";
  return "exit " + std::to_string(result.exit_code) + ": " + result.output;
}

Report SampleReport() {
  Report report;
  AccessRecord clamped;
  clamped.location = {"a.comp", 12, 3};
  clamped.instruction = "OpAccessChain";
  clamped.object = "data";
  clamped.index_id = 40;
  clamped.reason = "load from a storage buffer";
  clamped.limit = 15;
  clamped.verdict = AccessVerdict::kClamped;
  AccessRecord proven = clamped;
  proven.location.line = 13;
  proven.has_range = true;
  proven.range_max = 7;
  proven.verdict = AccessVerdict::kProvenInBounds;
  report.accesses = {clamped, proven};
  Diagnostic warning;
  warning.severity = Severity::kWarning;
  warning.origin = "uniformity";
  warning.rule = "uniformity/barrier";
  warning.location = {"a.comp", 20, 0};
  warning.message = "barrier in non-uniform control flow";
  warning.reasons = {"only some invocations take the branch at a.comp:18", "built-in differs"};
  warning.reason_locations = {{"a.comp", 18, 0}, {}};
  report.diagnostics = {warning};
  report.tables = {{{"inc/table.h", 4, 0}, "lut", 3}};
  return report;
}

TEST(ReportSarif, SampleReport_PassesCheckerWithOneResultPerRecord) {
  TemporaryDirectory dir;
  std::string sarif = FormatSarifReport(SampleReport(), ReportContext{});
  EXPECT_EQ(CheckSarif(dir.Write("sample.sarif", sarif)), "");
  EXPECT_EQ(Count(sarif, "\"ruleId\""), 4u);
  EXPECT_NE(sarif.find(
                "{\"ruleId\": \"robust-access/clamped\", \"ruleIndex\": 0, \"level\": \"warning\""),
            std::string::npos);
  EXPECT_NE(
      sarif.find("\"ruleId\": \"robust-access/proven\", \"ruleIndex\": 1, \"level\": \"note\""),
      std::string::npos);
  EXPECT_NE(sarif.find("\"ruleId\": \"constant-tables/hoisted\""), std::string::npos);
  EXPECT_NE(sarif.find("\"uri\": \"inc/table.h\""), std::string::npos);
  EXPECT_NE(sarif.find("\"region\": {\"startLine\": 12, \"startColumn\": 3}"), std::string::npos);
}

TEST(ReportSarif, ReasonChain_IsOneCodeFlowWithLocatedSteps) {
  std::string sarif = FormatSarifReport(SampleReport(), ReportContext{});
  EXPECT_EQ(Count(sarif, "\"codeFlows\""), 1u);
  EXPECT_NE(sarif.find("{\"location\": {\"physicalLocation\": {\"artifactLocation\": {\"uri\": "
                       "\"a.comp\", \"index\": 0}, "
                       "\"region\": {\"startLine\": 18}}, \"message\": {\"text\": \"only some "
                       "invocations take the branch at a.comp:18\"}}}"),
            std::string::npos)
      << sarif;
  EXPECT_NE(sarif.find("{\"location\": {\"message\": {\"text\": \"built-in differs\"}}}"),
            std::string::npos)
      << sarif;
}

TEST(ReportSarif, NoLineInformation_NoRegionAndNoLocation) {
  Report report;
  AccessRecord unlocated;
  unlocated.instruction = "OpAccessChain";
  unlocated.verdict = AccessVerdict::kClamped;
  AccessRecord file_only = unlocated;
  file_only.location.file = "b.frag";
  report.accesses = {unlocated, file_only};
  TemporaryDirectory dir;
  std::string sarif = FormatSarifReport(report, ReportContext{});
  EXPECT_EQ(CheckSarif(dir.Write("nolines.sarif", sarif)), "");
  EXPECT_EQ(Count(sarif, "\"locations\""), 1u);
  EXPECT_EQ(Count(sarif, "\"region\""), 0u);
}

TEST(ReportSarif, HostileText_IsValidJson) {
  Report report = SampleReport();
  report.diagnostics[0].message =
      "quote \" backslash \\ newline \n tab \t bell \x07 bad \xff\xfe utf8";
  report.accesses[0].location.file = "dir with space/\xe2\x82\xac#?.comp";
  TemporaryDirectory dir;
  std::string sarif = FormatSarifReport(report, ReportContext{});
  EXPECT_EQ(CheckSarif(dir.Write("hostile.sarif", sarif)), "");
  EXPECT_NE(sarif.find("bell \\u0007 bad \xEF\xBF\xBD\xEF\xBF\xBD utf8"), std::string::npos);
  EXPECT_NE(sarif.find("\"uri\": \"dir%20with%20space/%E2%82%AC%23%3F.comp\""), std::string::npos)
      << sarif;
}

TEST(ReportSarif, Checker_RejectsBrokenLogs) {
  TemporaryDirectory dir;
  std::string good = FormatSarifReport(SampleReport(), ReportContext{});
  auto broken = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return dir.Write("broken.sarif", text.replace(at, from.size(), to));
  };
  EXPECT_NE(CheckSarif(broken("\"version\": \"2.1.0\"", "\"version\": \"2.0.0\"")), "");
  EXPECT_NE(CheckSarif(broken("\"startLine\": 12", "\"startLine\": 0")), "");
  EXPECT_NE(CheckSarif(broken("\"ruleIndex\": 0", "\"ruleIndex\": 1")), "");
  EXPECT_NE(CheckSarif(broken("\"level\": \"warning\"", "\"level\": \"loud\"")), "");
}

// The command line: a few goldens, compiled with their own flags plus --report=sarif.
struct GoldenCase {
  const char* file;
  const char* flags;
  size_t results;  // records the compile produces: accesses + diagnostics + tables
};

// Printed in test names and failures as the golden's file name.
void PrintTo(const GoldenCase& golden, std::ostream* out) {
  *out << golden.file << " " << golden.flags;
}

class ReportSarifGolden : public testing::TestWithParam<GoldenCase> {};

TEST_P(ReportSarifGolden, CommandLine_WritesCheckedSarif) {
  const GoldenCase& golden = GetParam();
  TemporaryDirectory dir;
  std::string sarif_path = dir.path() + "/out.sarif";
  test::CommandResult run =
      RunShell("cd " + ShellQuote(test::SourceRoot() + "/Test") + " && " +
               ShellQuote(test::ValidatorPath()) + " " + golden.flags + " -o " +
               ShellQuote(dir.path() + "/out.spv") + " --report=sarif " + ShellQuote(sarif_path) +
               " " + golden.file);
  ASSERT_NE(run.exit_code, -1) << run.output;
  EXPECT_EQ(CheckSarif(sarif_path), "");
  std::string sarif = test::ReadFile(sarif_path);
  EXPECT_EQ(Count(sarif, "\"ruleId\""), golden.results) << sarif;
  EXPECT_NE(sarif.find(std::string("\"uri\": \"") + golden.file + "\""), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Goldens, ReportSarifGolden,
                         testing::Values(GoldenCase{"robust_array.comp",
                                                    "-V --robust-access --range-analysis=off", 6},
                                         GoldenCase{"uniformity_barrier_error.comp", "-V", 7},
                                         GoldenCase{"uniformity_derivative.frag", "-V", 7},
                                         GoldenCase{"hoist_seed_shared.frag", "-V", 10}),
                         [](const testing::TestParamInfo<GoldenCase>& info) {
                           return test::TestNameOf(info.param.file);
                         });

}  // namespace
}  // namespace glint
