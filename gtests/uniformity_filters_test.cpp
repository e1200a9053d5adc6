// Tests of the uniformity filters (SPIRV/analysis/uniformity/uniformity_filters.h, glint::UniformityFilter):
// what a user silences, downgrades or promises, through glint::GlslangToSpv with and without
// line information. Each filter has its near miss (a place next to the finding, another
// function, a promise about a function the finding does not call), a silenced finding
// is kept as suppressed with the filter and its justification, --uniformity=error fails
// only for what is still reported, and no filter changes a single output word.
#include <gtest/gtest.h>

#include <memory>

#include "SPIRV/analysis/uniformity/uniformity_filters.h"
#include "glint/glint.h"
#include "glint/report_format.h"
#include "glslang/front_end/compile_driver.h"
#include "support/test_support.h"

namespace glint {
namespace {

// Three barriers in non-uniform control flow, each for another reason:
//   line 9:  a branch on a helper's result that reads a writable buffer (a promise can
//            say the helper is uniform);
//   line 12: a call of a helper whose barrier (line 5) needs uniform control;
//   line 15: a branch on the same buffer read directly (no helper: no promise covers it).
const char* kThreeBarriers = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint count; uint values[]; } data;
uint readCount() { return data.count; }
void syncGroup() { barrier(); }
void main() {
  uint mine = data.values[gl_LocalInvocationIndex];
  if (readCount() > 0u) {
    barrier();
  }
  if (mine > 3u) {
    syncGroup();
  }
  if (data.count > 1u) {
    barrier();
  }
}
)";

struct Compiled {
  bool ok = false;
  std::vector<uint32_t> words;
  Report report;
};

// glint::GlslangToSpv on the shader named "u.comp"; with `lines`, glslang emits OpLine
// (-g); without, the report is located from a second module.
Compiled Compile(const Options& options, bool lines = false) {
  frontend::SourceCompile request(kThreeBarriers, "comp");
  request.name = "u.comp";
  request.debug_info = lines;
  std::string error;
  std::unique_ptr<frontend::Compilation> program = frontend::CompileSource(request, &error);
  EXPECT_TRUE(program) << error;
  Compiled compiled;
  if (!program) return compiled;
  glslang::SpvOptions spv_options;
  spv_options.generateDebugInfo = lines;
  compiled.ok = GlslangToSpv(*program->Intermediate(EShLangCompute), compiled.words, &spv_options,
                             options, &compiled.report);
  return compiled;
}

UniformityFilter Filter(UniformityFilterAction action, const std::string& text) {
  UniformityFilter filter;
  std::string error;
  EXPECT_TRUE(ParseUniformityFilter(action, text, &filter, &error)) << text << ": " << error;
  return filter;
}

Options With(std::initializer_list<UniformityFilter> filters) {
  Options options;
  options.uniformity_filters = filters;
  return options;
}

std::vector<uint32_t> Lines(const std::vector<Diagnostic>& diagnostics) {
  std::vector<uint32_t> lines;
  for (const Diagnostic& d : diagnostics) lines.push_back(d.location.line);
  return lines;
}

std::vector<uint32_t> SuppressedLines(const Report& report) {
  std::vector<uint32_t> lines;
  for (const SuppressedDiagnostic& s : report.suppressed) lines.push_back(s.diagnostic.location.line);
  return lines;
}

using Expected = std::vector<uint32_t>;

class UniformityFilters : public ::testing::TestWithParam<bool> {
 protected:
  bool lines() const { return GetParam(); }
  Compiled Run(std::initializer_list<UniformityFilter> filters) {
    Compiled compiled = Compile(With(filters), lines());
    EXPECT_TRUE(compiled.ok);
    EXPECT_EQ(compiled.words, Baseline().words) << "a filter changed the output";
    return compiled;
  }
  const Compiled& Baseline() {
    if (!baseline_) baseline_ = std::make_unique<Compiled>(Compile(Options(), lines()));
    return *baseline_;
  }

 private:
  std::unique_ptr<Compiled> baseline_;
};

TEST_P(UniformityFilters, WithoutFiltersThreeWarnings) {
  const Compiled& compiled = Baseline();
  ASSERT_TRUE(compiled.ok);
  EXPECT_EQ(Lines(compiled.report.diagnostics), (Expected{9, 12, 15}));
  EXPECT_TRUE(compiled.report.suppressed.empty());
  EXPECT_EQ(test::ValidateFor(compiled.words, TargetEnv::kVulkan10), "");
}

TEST_P(UniformityFilters, PromiseSilencesOnlyWhatDependsOnTheHelper) {
  Compiled compiled = Run({Filter(UniformityFilterAction::kAssumeUniform,
                                  "readCount=the count is written before the dispatch")});
  EXPECT_EQ(Lines(compiled.report.diagnostics), (Expected{12, 15}));
  ASSERT_EQ(SuppressedLines(compiled.report), (Expected{9}));
  const SuppressedDiagnostic& silenced = compiled.report.suppressed[0];
  EXPECT_EQ(silenced.filter, "--uniformity-assume-uniform=readCount");
  EXPECT_EQ(silenced.justification, "the count is written before the dispatch");
  EXPECT_EQ(silenced.diagnostic.rule, "uniformity/barrier");
  EXPECT_EQ(silenced.diagnostic.severity, Severity::kWarning);
}

TEST_P(UniformityFilters, PromiseAboutAnotherFunctionSilencesNothing) {
  Compiled compiled = Run({Filter(UniformityFilterAction::kAssumeUniform, "syncGroup"),
                           Filter(UniformityFilterAction::kAssumeUniform, "readCounts")});
  EXPECT_EQ(Lines(compiled.report.diagnostics), (Expected{9, 12, 15}));
  EXPECT_TRUE(compiled.report.suppressed.empty());
}

TEST_P(UniformityFilters, FunctionFilterSilencesCallsThatNeedOnlyItsBarrier) {
  // glslang's full name matches as well as the source name.
  for (const char* name : {"syncGroup", "syncGroup("}) {
    Compiled compiled = Run({Filter(UniformityFilterAction::kOff, name)});
    EXPECT_EQ(Lines(compiled.report.diagnostics), (Expected{9, 15})) << name;
    EXPECT_EQ(SuppressedLines(compiled.report), (Expected{12})) << name;
  }
  Compiled near_miss = Run({Filter(UniformityFilterAction::kOff, "sync")});
  EXPECT_EQ(Lines(near_miss.report.diagnostics), (Expected{9, 12, 15}));
}

TEST_P(UniformityFilters, LineFilterMatchesTheFindingOrWhatItNeeds) {
  Compiled at_line = Run({Filter(UniformityFilterAction::kOff, "u.comp:15=checked by hand")});
  EXPECT_EQ(Lines(at_line.report.diagnostics), (Expected{9, 12}));
  ASSERT_EQ(SuppressedLines(at_line.report), (Expected{15}));
  EXPECT_EQ(at_line.report.suppressed[0].filter, "--uniformity-off=u.comp:15");
  // The barrier inside the helper stands for the call that needs it; a range; a path.
  Compiled helper_line = Run({Filter(UniformityFilterAction::kOff, "u.comp:5")});
  EXPECT_EQ(Lines(helper_line.report.diagnostics), (Expected{9, 15}));
  Compiled range = Run({Filter(UniformityFilterAction::kOff, "shaders/u.comp:8-12")});
  EXPECT_EQ(Lines(range.report.diagnostics), (Expected{15}));
  // Near misses: the line after, another file.
  for (const char* text : {"u.comp:16", "v.comp:15", "xu.comp:15"}) {
    Compiled missed = Run({Filter(UniformityFilterAction::kOff, text)});
    EXPECT_EQ(Lines(missed.report.diagnostics), (Expected{9, 12, 15})) << text;
    EXPECT_TRUE(missed.report.suppressed.empty()) << text;
  }
}

TEST_P(UniformityFilters, NoteFilterDowngradesAndSaysWhy) {
  Compiled compiled = Run({Filter(UniformityFilterAction::kNote, "u.comp:9=reviewed")});
  ASSERT_EQ(Lines(compiled.report.diagnostics), (Expected{9, 12, 15}));
  const Diagnostic& note = compiled.report.diagnostics[0];
  EXPECT_EQ(note.severity, Severity::kNote);
  ASSERT_FALSE(note.reasons.empty());
  EXPECT_EQ(note.reasons.back(), "reported as a note by --uniformity-note=u.comp:9: reviewed");
  EXPECT_EQ(compiled.report.diagnostics[1].severity, Severity::kWarning);
}

TEST_P(UniformityFilters, ErrorSeverityFailsOnlyForWhatIsStillReported) {
  Options options = With({Filter(UniformityFilterAction::kOff, "main"),
                          Filter(UniformityFilterAction::kOff, "u.comp:12")});
  options.uniformity = Severity::kError;
  Compiled silenced = Compile(options, lines());
  EXPECT_TRUE(silenced.ok);
  EXPECT_EQ(silenced.words, Baseline().words);
  EXPECT_EQ(SuppressedLines(silenced.report), (Expected{9, 12, 15}));

  options.uniformity_filters = {Filter(UniformityFilterAction::kNote, "main")};
  Compiled downgraded = Compile(options, lines());
  EXPECT_TRUE(downgraded.ok);

  options.uniformity_filters = {Filter(UniformityFilterAction::kOff, "u.comp:15")};
  Compiled failed = Compile(options, lines());
  EXPECT_FALSE(failed.ok);
  EXPECT_TRUE(failed.words.empty());
  EXPECT_EQ(SuppressedLines(failed.report), (Expected{15}));
  ASSERT_FALSE(failed.report.diagnostics.empty());
  EXPECT_NE(failed.report.diagnostics.back().message.find("2 uniform-control instruction(s)"),
            std::string::npos)
      << failed.report.diagnostics.back().message;
}

TEST_P(UniformityFilters, OffWinsOverNoteWhenBothMatch) {
  Compiled compiled = Run({Filter(UniformityFilterAction::kNote, "main"),
                           Filter(UniformityFilterAction::kOff, "u.comp:15")});
  EXPECT_EQ(Lines(compiled.report.diagnostics), (Expected{9, 12}));
  for (const Diagnostic& d : compiled.report.diagnostics) EXPECT_EQ(d.severity, Severity::kNote);
}

INSTANTIATE_TEST_SUITE_P(LineInformation, UniformityFilters, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "WithOpLine" : "LocatedFromASecondModule";
                         });

// --- The reports: SARIF suppressions, the HTML count. ---

// The report of kThreeBarriers under one filter, formatted by `format` with the source.
std::string FormattedUnder(const UniformityFilter& filter,
                           std::string (*format)(const Report&, const ReportContext&)) {
  Compiled compiled = Compile(With({filter}));
  ReportContext context;
  context.sources.push_back({"u.comp", kThreeBarriers});
  return format(compiled.report, context);
}

TEST(UniformityFilterReports, SarifHasExternalSuppressionsWithTheJustification) {
  std::string sarif = FormattedUnder(
      Filter(UniformityFilterAction::kOff, "u.comp:15=checked \"by hand\""), FormatSarifReport);
  EXPECT_TRUE(test::FileCheck(
      sarif,
      "CHECK: \"results\"\n"
      "CHECK: \"ruleId\": \"uniformity/barrier\", \"ruleIndex\": {{[0-9]+}}, \"level\": "
      "\"warning\", \"message\": {\"text\": \"barrier (OpControlBarrier, workgroup scope) in "
      "non-uniform control flow\n"
      "CHECK-NOT: suppressions\n"
      "CHECK: \"startLine\": 15\n"
      "CHECK: \"suppressions\": [{\"kind\": \"external\", \"status\": \"accepted\", "
      "\"justification\": \"checked \\\"by hand\\\"\", \"properties\": {\"filter\": "
      "\"--uniformity-off=u.comp:15\"}}]"));
  // The reported two carry no suppression.
  size_t count = 0;
  for (size_t at = 0; (at = sarif.find("\"suppressions\"", at)) != std::string::npos; ++at) ++count;
  EXPECT_EQ(count, 1u);
}

TEST(UniformityFilterReports, HtmlCountsAndShowsWhatWasSuppressed) {
  std::string html = FormattedUnder(
      Filter(UniformityFilterAction::kAssumeUniform, "readCount=host writes it"), FormatHtmlReport);
  EXPECT_TRUE(test::FileCheck(
      html,
      "CHECK: <tr data-kind=\"warning\"><td>warnings</td><td class=\"count\">2</td></tr>\n"
      "CHECK: <tr data-kind=\"suppressed\"><td>suppressed by uniformity filters</td><td "
      "class=\"count\">1</td></tr>\n"
      "CHECK: id=\"f0-L9\"\n"
      "CHECK: <li class=\"finding suppressed\"{{.*}}suppressed by "
      "<code>--uniformity-assume-uniform=readCount</code>: host writes it"));
}

// --- Reading filters. ---

TEST(UniformityFilterText, ReadsFunctionsLinesRangesAndJustifications) {
  UniformityFilter f = Filter(UniformityFilterAction::kOff, "broadcast");
  EXPECT_EQ(f.function, "broadcast");
  EXPECT_EQ(f.file, "");
  f = Filter(UniformityFilterAction::kNote, "broadcast(u1;u1;=a=b");
  EXPECT_EQ(f.function, "broadcast(u1;u1;");
  EXPECT_EQ(f.justification, "a=b");
  f = Filter(UniformityFilterAction::kOff, "C:/src/blur.comp:12");
  EXPECT_EQ(f.file, "C:/src/blur.comp");
  EXPECT_EQ(f.first_line, 12u);
  EXPECT_EQ(f.last_line, 12u);
  f = Filter(UniformityFilterAction::kOff, "blur.comp:3-40=");
  EXPECT_EQ(f.first_line, 3u);
  EXPECT_EQ(f.last_line, 40u);
  EXPECT_EQ(f.justification, "");
}

TEST(UniformityFilterText, RefusesWhatItCannotRead) {
  struct Case {
    UniformityFilterAction action;
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {UniformityFilterAction::kOff, "", "expects FUNCTION, FILE:LINE or FILE:FIRST-LAST"},
      {UniformityFilterAction::kOff, "=why", "got '=why'"},
      {UniformityFilterAction::kOff, "2fast", "got '2fast'"},
      {UniformityFilterAction::kOff, "my func", "got 'my func'"},
      {UniformityFilterAction::kOff, "a.comp:", "got 'a.comp:'"},
      {UniformityFilterAction::kOff, ":12", "got ':12'"},
      {UniformityFilterAction::kOff, "a.comp:0", "got 'a.comp:0'"},
      {UniformityFilterAction::kOff, "a.comp:x", "got 'a.comp:x'"},
      {UniformityFilterAction::kOff, "a.comp:4294967296", "got 'a.comp:4294967296'"},
      {UniformityFilterAction::kNote, "a.comp:9-3", "lines 9-3: the first is after the last"},
      {UniformityFilterAction::kAssumeUniform, "a.comp:9", "not lines; got 'a.comp:9'"},
  };
  for (const Case& c : cases) {
    UniformityFilter filter;
    filter.function = "untouched";
    std::string error;
    EXPECT_FALSE(ParseUniformityFilter(c.action, c.text, &filter, &error)) << c.text;
    EXPECT_NE(error.find(c.error), std::string::npos) << c.text << ": " << error;
    EXPECT_EQ(filter.function, "untouched") << c.text;
  }
}

TEST(UniformityFilterText, NamesAndFilesMatchByWholeParts) {
  using spirv::FunctionNameMatches;
  using spirv::SourceFileMatches;
  EXPECT_TRUE(FunctionNameMatches("f(u1;", "f"));
  EXPECT_TRUE(FunctionNameMatches("main", "main"));
  EXPECT_FALSE(FunctionNameMatches("main2", "main"));
  EXPECT_FALSE(FunctionNameMatches("f(u1;", "f(u"));
  EXPECT_FALSE(FunctionNameMatches("f", ""));
  EXPECT_TRUE(SourceFileMatches("shaders/blur.comp", "blur.comp"));
  EXPECT_TRUE(SourceFileMatches("blur.comp", "/abs/shaders/blur.comp"));
  EXPECT_FALSE(SourceFileMatches("shaders/xblur.comp", "blur.comp"));
  EXPECT_FALSE(SourceFileMatches("", "blur.comp"));
}

}  // namespace
}  // namespace glint
