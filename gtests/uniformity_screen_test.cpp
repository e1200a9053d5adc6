// The uniformity screen (SPIRV/analysis/uniformity/uniformity_screen.cpp): it passes a module only
// where every uniform-control instruction runs with no branch deciding whether it runs,
// and no called function may kill the invocation; where it passes, the full analysis
// (every fact computed) finds nothing. Each refusal below is the near miss of a passing
// case: the same instruction under a branch, in a loop, after an early return or a
// discard, in a helper called under a branch or after a helper that may discard.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/analysis/uniformity/uniformity_screen.h"
#include "SPIRV/ir/parser.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

struct ScreenCase {
  const char* name;
  const char* stage;
  bool passes;       // the screen proves there is nothing to report
  bool has_finding;  // the full analysis reports something (never with `passes`)
  const char* source;
};

void PrintTo(const ScreenCase& c, std::ostream* out) { *out << c.name; }

const char* const kFragHead = R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) uniform U { float level; int count; };
)";

const char* const kCompHead = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint n; uint data[]; };
layout(binding = 1) uniform P { uint m; };
shared uint tile[64];
)";

const ScreenCase kCases[] = {
    {"SampleInMain", "frag", true, false, "void main() { color = texture(tex, uv); }"},
    {"SampleAfterBranchesAndLoop", "frag", true, false, R"(
void main() {
  vec4 acc = vec4(0.0);
  if (uv.x > 0.5) acc += 1.0; else acc -= 1.0;
  for (int i = 0; i < count; ++i) acc *= 0.5;
  color = acc + texture(tex, uv);
})"},
    {"SampleUnderDivergentBranch", "frag", false, true, R"(
void main() {
  color = vec4(0.0);
  if (uv.x > 0.5) color = texture(tex, uv);
})"},
    // Uniform in fact: the screen does not look at values, so the analysis decides.
    {"SampleUnderUniformBranch", "frag", false, false, R"(
void main() {
  color = vec4(0.0);
  if (level > 0.5) color = texture(tex, uv);
})"},
    {"SampleAfterDivergentReturn", "frag", false, true, R"(
void main() {
  color = vec4(0.0);
  if (uv.y > 0.5) return;
  color = texture(tex, uv);
})"},
    {"SampleAfterDivergentDiscard", "frag", false, true, R"(
void main() {
  if (uv.y > 0.5) discard;
  color = texture(tex, uv);
})"},
    {"UnconditionalDiscardAfterSample", "frag", true, false, R"(
void main() {
  color = texture(tex, uv);
  discard;
})"},
    {"SampleInHelperCalledFromMain", "frag", true, false, R"(
vec4 shade(vec2 p) { return texture(tex, p) * 2.0; }
void main() { color = shade(uv) + shade(uv.yx); })"},
    {"SampleInHelperCalledUnderBranch", "frag", false, true, R"(
vec4 shade(vec2 p) { return texture(tex, p) * 2.0; }
void main() { color = vec4(0.0); if (uv.x > 0.25) color = shade(uv); })"},
    {"SampleAfterHelperThatMayDiscard", "frag", false, true, R"(
void clip(float x) { if (x < 0.0) discard; }
void main() { clip(uv.x - 0.5); color = texture(tex, uv); })"},
    {"SampleInLoop", "frag", false, true, R"(
void main() {
  color = vec4(0.0);
  for (int i = 0; i < int(uv.x * 4.0); ++i) color += texture(tex, uv + float(i));
})"},
    {"BarrierInMainAfterLoop", "comp", true, false, R"(
void main() {
  uint sum = 0u;
  for (uint i = 0u; i < n; ++i) sum += data[i];
  tile[gl_LocalInvocationID.x] = sum;
  barrier();
  data[gl_LocalInvocationID.x] = tile[63u - gl_LocalInvocationID.x];
})"},
    // A uniform trip count: fine, but only the analysis can tell.
    {"BarrierInUniformLoop", "comp", false, false, R"(
void main() {
  for (uint i = 0u; i < m; ++i) { tile[gl_LocalInvocationID.x] = i; barrier(); }
})"},
    {"BarrierAfterDivergentReturn", "comp", false, true, R"(
void main() {
  if (gl_LocalInvocationID.x >= n) return;
  tile[gl_LocalInvocationID.x] = 1u;
  barrier();
})"},
};

class UniformityScreen : public ::testing::TestWithParam<ScreenCase> {};

TEST_P(UniformityScreen, PassesOnlyWhereTheAnalysisFindsNothing) {
  const ScreenCase& c = GetParam();
  std::string source =
      std::string(std::string(c.stage) == "comp" ? kCompHead : kFragHead) + c.source;
  std::vector<uint32_t> words = test::CompileGlsl(source, c.stage);
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  AnalysisContext analyses(*module);
  bool passes = NeedsOnlyUnconditionalControl(
      *module, analyses.GetConvergenceClasses(),
      [&](Function& function) -> const Cfg& { return analyses.GetCfg(function); });
  EXPECT_EQ(passes, c.passes);

  UniformityOptions every_fact;
  every_fact.every_fact = true;
  UniformityResult full = AnalyzeUniformity(*module, every_fact);
  EXPECT_TRUE(full.refusal.empty()) << full.refusal;
  EXPECT_EQ(!full.findings.empty(), c.has_finding);
  // What the pipeline gets (screened where the screen passes) is the full analysis's.
  UniformityResult screened = AnalyzeUniformity(*module);
  EXPECT_EQ(screened.findings.size(), full.findings.size());
  EXPECT_EQ(screened.refusal, full.refusal);
}

INSTANTIATE_TEST_SUITE_P(Shapes, UniformityScreen, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<ScreenCase>& info) {
                           return std::string(info.param.name);
                         });

// Where the screen passes, the analysis's inputs are not built; where it does not, they
// are.
TEST(UniformityScreen, SkipsTheAnalysisInputsOnlyWhenItPasses) {
  std::string error;
  std::optional<Module> plain =
      ParseModule(test::CompileGlsl(
                      std::string(kFragHead) + "void main() { color = texture(tex, uv); }", "frag"),
                  &error);
  ASSERT_TRUE(plain) << error;
  AnalysisContext plain_analyses(*plain);
  EXPECT_TRUE(plain_analyses.GetUniformity().findings.empty());
  EXPECT_EQ(plain_analyses.builds().def_use, 0u);

  std::optional<Module> branchy = ParseModule(
      test::CompileGlsl(std::string(kFragHead) + "void main() { color = vec4(0.0); if (uv.x > 0.5) "
                                                 "color = texture(tex, uv); }",
                        "frag"),
      &error);
  ASSERT_TRUE(branchy) << error;
  AnalysisContext branchy_analyses(*branchy);
  EXPECT_EQ(branchy_analyses.GetUniformity().findings.size(), 1u);
  EXPECT_EQ(branchy_analyses.builds().def_use, 1u);
}

}  // namespace
}  // namespace glint::spirv
