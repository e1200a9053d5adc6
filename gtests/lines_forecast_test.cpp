// The lines forecast (glslang/front_end/lines_forecast.h): which shapes of glslang's tree
// it counts as likely to give a finding with a source line, and that a compile it sends
// down the lines-first path gives what it would give otherwise.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <glslang/SPIRV/GlslangToSpv.h>

#include "glint/glint.h"
#include "glslang/front_end/compile_driver.h"
#include "glslang/front_end/lines_forecast.h"

namespace {

// Parsed and linked by the project's front end (Vulkan 1.1, as glslangValidator
// --target-env vulkan1.1), the source named "forecast.glsl".
struct Linked {
  std::unique_ptr<glint::frontend::Compilation> compilation;
  EShLanguage stage;
  const glslang::TIntermediate& Intermediate() const {
    return *compilation->program().getIntermediate(stage);
  }
};

Linked Link(EShLanguage stage, const std::string& source) {
  glint::frontend::SourceCompile request(source, glint::frontend::StageName(stage), "vulkan1.1");
  request.name = "forecast.glsl";
  std::string error;
  Linked linked{glint::frontend::CompileSource(request, &error), stage};
  EXPECT_TRUE(linked.compilation) << error << source;
  return linked;
}

bool Forecast(EShLanguage stage, const std::string& source,
              glint::LinesForecastPasses passes = glint::LinesForecastPasses()) {
  Linked linked = Link(stage, source);
  return linked.compilation && glint::LinesLikelyAsked(linked.Intermediate(), passes);
}

glint::LinesForecastPasses Only(bool uniformity, bool constant_tables) {
  glint::LinesForecastPasses passes;
  passes.uniformity = uniformity;
  passes.constant_tables = constant_tables;
  return passes;
}

const char* const kFragmentHead = R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D tex;
)";

std::string Fragment(const std::string& body) { return kFragmentHead + body; }

const char* const kComputeHead = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float values[]; };
shared float tile[64];
)";

std::string Compute(const std::string& body) { return kComputeHead + body; }

TEST(LinesForecast, SampleAtTheTopOfMainIsNotLikely) {
  EXPECT_FALSE(Forecast(EShLangFragment, Fragment("void main() { color = texture(tex, uv); }")));
}

TEST(LinesForecast, SampleUnderABranchIsLikely) {
  EXPECT_TRUE(Forecast(EShLangFragment, Fragment(R"(
void main() {
  color = vec4(0);
  if (uv.x > 0.5) color = texture(tex, uv);
})")));
}

TEST(LinesForecast, SampleAfterADiscardUnderABranchIsLikely) {
  EXPECT_TRUE(Forecast(EShLangFragment, Fragment(R"(
void main() {
  if (uv.y < 0.0) discard;
  color = texture(tex, uv);
})")));
}

TEST(LinesForecast, DerivativeInTheRightOperandOfAShortCircuitIsLikely) {
  EXPECT_TRUE(Forecast(EShLangFragment, Fragment(R"(
void main() {
  bool edge = uv.x > 0.5 && dFdx(uv.x) > 0.01;
  color = vec4(edge ? 1.0 : 0.0);
})")));
}

TEST(LinesForecast, HelperThatSamplesCalledUnderABranchIsLikely) {
  EXPECT_TRUE(Forecast(EShLangFragment, Fragment(R"(
vec4 Fetch(vec2 at) { return texture(tex, at); }
void main() {
  color = vec4(0);
  if (uv.x > 0.5) color = Fetch(uv);
})")));
}

TEST(LinesForecast, HelperOfAHelperThatSamplesCalledInALoopIsLikely) {
  EXPECT_TRUE(Forecast(EShLangFragment, Fragment(R"(
vec4 Fetch(vec2 at) { return texture(tex, at); }
vec4 Twice(vec2 at) { return Fetch(at) + Fetch(at * 2.0); }
void main() {
  color = vec4(0);
  for (int i = 0; i < int(uv.x * 4.0); ++i) color += Twice(uv);
})")));
}

TEST(LinesForecast, HelperThatBranchesAroundItsSampleIsLikelyWhereverItIsCalled) {
  EXPECT_TRUE(Forecast(EShLangFragment, Fragment(R"(
vec4 Fetch(vec2 at) { return at.x > 0.5 ? texture(tex, at) : vec4(0); }
void main() { color = Fetch(uv); }
)")));
}

TEST(LinesForecast, HelperThatSamplesCalledAtTheTopIsNotLikely) {
  EXPECT_FALSE(Forecast(EShLangFragment, Fragment(R"(
vec4 Fetch(vec2 at) { return texture(tex, at); }
void main() {
  color = Fetch(uv);
  if (uv.x > 0.5) color *= 2.0;
})")));
}

TEST(LinesForecast, BreakEndsAtItsLoopsMerge) {
  EXPECT_FALSE(Forecast(EShLangFragment, Fragment(R"(
void main() {
  float sum = 0.0;
  for (int i = 0; i < 8; ++i) {
    if (sum > uv.x) break;
    sum += 0.25;
  }
  color = texture(tex, uv * sum);
})")));
}

TEST(LinesForecast, ImplicitLodOutsideFragmentShadersIsNotJudged) {
  EXPECT_FALSE(Forecast(EShLangVertex, R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D tex;
void main() {
  color = vec4(0);
  if (uv.x > 0.5) color = texture(tex, uv);
  gl_Position = vec4(uv, 0, 1);
})"));
}

TEST(LinesForecast, BarrierInALoopIsLikelyOnlyWhenTheLoopMayDiverge) {
  // The trip count is the same for every invocation.
  EXPECT_FALSE(Forecast(EShLangCompute, Compute(R"(
void main() {
  uint id = gl_LocalInvocationID.x;
  for (uint step = 1u; step < 64u; step *= 2u) {
    tile[id] = values[id];
    barrier();
  }
})")));
  // It depends on the invocation.
  EXPECT_TRUE(Forecast(EShLangCompute, Compute(R"(
void main() {
  uint id = gl_LocalInvocationID.x;
  for (uint step = id; step < 64u; step *= 2u) {
    tile[id] = values[step];
    barrier();
  }
})")));
  // Some invocations skip the rest of an iteration.
  EXPECT_TRUE(Forecast(EShLangCompute, Compute(R"(
void main() {
  uint id = gl_LocalInvocationID.x;
  for (uint step = 1u; step < 64u; step *= 2u) {
    if (id % (2u * step) != 0u) continue;
    tile[id] += tile[id + step];
    barrier();
  }
})")));
  // At the top of main.
  EXPECT_FALSE(Forecast(EShLangCompute, Compute(R"(
void main() {
  uint id = gl_LocalInvocationID.x;
  tile[id] = values[id];
  barrier();
  if (id == 0u) values[0] = tile[63];
})")));
}

TEST(LinesForecast, BranchesOnUniformValuesDoNotDiverge) {
  // A push constant, a specialization constant chosen by a `?:`, the workgroup's id.
  EXPECT_FALSE(Forecast(EShLangCompute, Compute(R"(
layout(push_constant) uniform Push { int count; } p;
layout(constant_id = 0) const int kCount = 0;
void main() {
  int n = kCount == 0 ? p.count : kCount;
  for (int z = 0; z + 3 < n; z += 4) {
    tile[gl_LocalInvocationID.x] = values[z];
    barrier();
  }
  if (gl_WorkGroupID.x > 2u) barrier();
})")));
}

TEST(LinesForecast, VariablesAssignedPerInvocationAreVarying) {
  // From a per-invocation input, through another variable.
  EXPECT_TRUE(Forecast(EShLangFragment, Fragment(R"(
void main() {
  float x = gl_FragCoord.x;
  float y = x * 2.0;
  color = vec4(0);
  if (y > 4.0) color = texture(tex, uv);
})")));
  // A uniform value assigned under a per-invocation branch.
  EXPECT_TRUE(Forecast(EShLangFragment, Fragment(R"(
layout(push_constant) uniform Push { float gate; };
void main() {
  float y = 0.0;
  if (uv.x > 0.5) y = gate;
  color = vec4(0);
  if (y > 0.25) color = texture(tex, uv);
})")));
  // Written by a helper through an out parameter.
  EXPECT_TRUE(Forecast(EShLangFragment, Fragment(R"(
void Pick(out float y) { y = uv.x; }
void main() {
  float y = 0.0;
  Pick(y);
  color = vec4(0);
  if (y > 0.25) color = texture(tex, uv);
})")));
  // Read from a buffer.
  EXPECT_TRUE(Forecast(EShLangCompute, Compute(R"(
void main() {
  if (values[gl_LocalInvocationID.x] > 0.0) barrier();
})")));
}

TEST(LinesForecast, EarlyReturnBeforeABarrierIsLikely) {
  EXPECT_TRUE(Forecast(EShLangCompute, Compute(R"(
void main() {
  uint id = gl_GlobalInvocationID.x;
  if (id >= uint(values.length())) return;
  tile[gl_LocalInvocationID.x] = values[id];
  barrier();
  values[id] = tile[63u - gl_LocalInvocationID.x];
})")));
}

TEST(LinesForecast, ConstantArrayIndexedAtRunTimeIsATable) {
  const std::string indexed = Fragment(R"(
const float kWeights[4] = float[](0.1, 0.2, 0.3, 0.4);
void main() { color = vec4(kWeights[int(uv.x * 3.0)]); }
)");
  EXPECT_TRUE(Forecast(EShLangFragment, indexed));
  EXPECT_FALSE(Forecast(EShLangFragment, indexed, Only(true, false)));
  // Indexed by a constant: no copy to hoist.
  EXPECT_FALSE(Forecast(EShLangFragment, Fragment(R"(
const float kWeights[4] = float[](0.1, 0.2, 0.3, 0.4);
void main() { color = vec4(kWeights[2]); }
)")));
}

TEST(LinesForecast, PassesThatDoNotRunAreNotForecast) {
  const std::string sampled = Fragment(R"(
void main() {
  color = vec4(0);
  if (uv.x > 0.5) color = texture(tex, uv);
})");
  EXPECT_TRUE(Forecast(EShLangFragment, sampled, Only(true, false)));
  EXPECT_FALSE(Forecast(EShLangFragment, sampled, Only(false, true)));
  EXPECT_FALSE(Forecast(EShLangFragment, sampled, Only(false, false)));
}

// The forecast only picks how lines are found. A compile it sends down the lines-first
// path gives glslang's own module where Glint changes nothing, both when the check then
// finds nothing (the forecast takes parameters as varying; the check sees that the
// helper's is a push constant) and when it finds the sample under a per-pixel branch,
// which is reported at its line with its reason.
// (bench/compare_outputs.py compares both paths over whole corpora: see the closing
// note of the engine-scale cost work.)
TEST(LinesForecast, LinesFirstPathGivesGlslangsModuleAndTheFindingAtItsLine) {
  const std::string quiet = Fragment(R"(
layout(push_constant) uniform Push { float gate; };
vec4 Gated(float open) { return open > 0.5 ? texture(tex, uv) : vec4(0); }
void main() { color = Gated(gate); }
)");
  const std::string warned = Fragment(R"(
void main() {
  color = vec4(0);
  if (uv.x > 0.5) color = texture(tex, uv);
})");
  for (const std::string* source : {&quiet, &warned}) {
    Linked linked = Link(EShLangFragment, *source);
    ASSERT_TRUE(linked.compilation);
    ASSERT_TRUE(glint::LinesLikelyAsked(linked.Intermediate(), glint::LinesForecastPasses()));
    glslang::SpvOptions spv_options;
    std::vector<unsigned int> glslangs;
    glslang::GlslangToSpv(linked.Intermediate(), glslangs, &spv_options);
    glint::Report report;
    std::vector<uint32_t> glints;
    ASSERT_TRUE(glint::GlslangToSpv(linked.Intermediate(), glints, &spv_options,
                                    glint::Options(), &report));
    EXPECT_EQ(std::vector<uint32_t>(glslangs.begin(), glslangs.end()), glints);
    if (source == &quiet) {
      EXPECT_TRUE(report.diagnostics.empty());
      continue;
    }
    ASSERT_EQ(report.diagnostics.size(), 1u);
    const glint::Diagnostic& finding = report.diagnostics[0];
    EXPECT_EQ(finding.severity, glint::Severity::kWarning);
    EXPECT_EQ(finding.location.file, "forecast.glsl");
    EXPECT_EQ(finding.location.line, 8u);
    EXPECT_NE(finding.message.find("implicit"), std::string::npos) << finding.message;
    ASSERT_FALSE(finding.reasons.empty());
  }
}

}  // namespace
