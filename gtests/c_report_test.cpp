// The C API's report extras (glint_c.h): diagnostics' rules and reason locations,
// hoisted-table records and glint_report_format, compared with the C++ records and
// formatters they come from.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "glint/glint_c.h"
#include "glint/report_format.h"

namespace {

struct ResultDeleter {
  void operator()(glint_result_t* result) const { glint_result_free(result); }
};
using Result = std::unique_ptr<glint_result_t, ResultDeleter>;

// A derivative under a branch on an interpolated input, inside a helper: a uniformity
// warning with a reason chain; and a constant table indexed at run time.
const char kShader[] = R"(#version 440
layout(location = 0) in vec2 uv;
layout(location = 1) flat in int pick;
layout(location = 0) out vec4 color;
const float weights[4] = float[4](0.1, 0.2, 0.3, 0.4);
float edge(float v) {
  return dFdx(v);
}
void main() {
  float w = weights[pick & 3];
  if (uv.x > 0.5)
    w += edge(uv.y);
  color = vec4(w);
}
)";

Result Compile(int collect) {
  glint_options_t* options = glint_options_create();
  glint_options_set_collect_ranges(options, collect);
  glint_glsl_input_t input = {};
  input.source = kShader;
  input.stage = GLINT_STAGE_FRAGMENT;
  input.file_name = "edge.frag";
  Result result(glint_compile_glsl(&input, options));
  glint_options_free(options);
  return result;
}

TEST(CReport, DiagnosticRuleAndReasonLocations) {
  Result result = Compile(1);
  ASSERT_TRUE(glint_result_succeeded(result.get()));
  const glint_report_t* report = glint_result_report(result.get());
  ASSERT_EQ(glint_report_diagnostic_count(report), 1u);
  EXPECT_STREQ(glint_report_diagnostic_rule(report, 0), "uniformity/derivative");
  glint_diagnostic_t diagnostic;
  ASSERT_TRUE(glint_report_diagnostic(report, 0, &diagnostic));
  ASSERT_GT(diagnostic.reason_count, 0u);
  size_t located = 0;
  for (size_t i = 0; i < diagnostic.reason_count; ++i) {
    const char* file = nullptr;
    uint32_t line = 99;
    ASSERT_TRUE(glint_report_diagnostic_reason_location(report, 0, i, &file, &line));
    if (line == 0) continue;
    ++located;
    EXPECT_STREQ(file, "edge.frag");
    EXPECT_NE(std::string(glint_report_diagnostic_reason(report, 0, i))
                  .find("edge.frag:" + std::to_string(line)),
              std::string::npos);
  }
  EXPECT_GT(located, 0u);
  const char* file;
  uint32_t line;
  EXPECT_FALSE(
      glint_report_diagnostic_reason_location(report, 0, diagnostic.reason_count, &file, &line));
  EXPECT_FALSE(glint_report_diagnostic_reason_location(report, 1, 0, &file, &line));
  EXPECT_EQ(glint_report_diagnostic_rule(report, 1), nullptr);
  EXPECT_EQ(glint_report_diagnostic_rule(nullptr, 0), nullptr);
}

TEST(CReport, HoistedTable_OnlyWithCollectedRecords) {
  Result with = Compile(1), without = Compile(0);
  const glint_report_t* report = glint_result_report(with.get());
  ASSERT_EQ(glint_report_table_count(report), 1u);
  glint_table_record_t table;
  ASSERT_TRUE(glint_report_table(report, 0, &table));
  EXPECT_STREQ(table.file, "edge.frag");
  EXPECT_EQ(table.line, 10u);
  EXPECT_EQ(table.copies_removed, 1u);
  EXPECT_FALSE(glint_report_table(report, 1, &table));
  EXPECT_EQ(glint_report_table_count(glint_result_report(without.get())), 0u);
  // The output is the same whether records were collected or not.
  ASSERT_EQ(glint_result_spirv_size(with.get()), glint_result_spirv_size(without.get()));
  EXPECT_EQ(0, memcmp(glint_result_spirv(with.get()), glint_result_spirv(without.get()),
                      4 * glint_result_spirv_size(with.get())));
}

TEST(CReport, Format_SnprintfContractAndSameAsCpp) {
  Result result = Compile(1);
  const glint_report_t* report = glint_result_report(result.get());
  const char* names[] = {"edge.frag"};
  const char* texts[] = {kShader};
  size_t length = glint_report_format(report, GLINT_REPORT_FORMAT_HTML, "edge.frag", names, texts,
                                      1, nullptr, 0);
  ASSERT_GT(length, 0u);
  std::string html(length + 1, '\0');
  EXPECT_EQ(glint_report_format(report, GLINT_REPORT_FORMAT_HTML, "edge.frag", names, texts, 1,
                                html.data(), html.size()),
            length);
  html.resize(length);
  EXPECT_NE(html.find("<h2>edge.frag</h2>"), std::string::npos);
  EXPECT_NE(html.find("class=\"finding table\""), std::string::npos);
  EXPECT_NE(html.find("class=\"finding warning\""), std::string::npos);
  char small[8];
  EXPECT_EQ(glint_report_format(report, GLINT_REPORT_FORMAT_SARIF, nullptr, nullptr, nullptr, 0,
                                small, sizeof small),
            glint_report_format(report, GLINT_REPORT_FORMAT_SARIF, nullptr, nullptr, nullptr, 0,
                                nullptr, 0));
  EXPECT_STREQ(small, "{\n  \"$s");
  EXPECT_EQ(glint_report_format(report, 4, nullptr, nullptr, nullptr, 0, small, sizeof small), 0u);
  EXPECT_EQ(glint_report_format(report, -1, nullptr, nullptr, nullptr, 0, small, sizeof small), 0u);
  EXPECT_EQ(glint_report_format(nullptr, 0, nullptr, nullptr, nullptr, 0, small, sizeof small), 0u);
}

}  // namespace
