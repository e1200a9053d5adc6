// Argument-decided branches (SPIRV/analysis/uniformity/argument_decided_branches.cpp): a
// helper's uniform-control instruction whose divergent control lies only on sides of
// branches that the calls' constant arguments never take is fine. Each shape that the
// rule clears has its near miss: a call with a run-time argument, the barrier outside
// the decided branch, a parameter the helper writes, a specialization constant, an
// argument forwarded from the caller's parameter. The execution test in
// uniformity_execution_test.cpp runs the main shape on lavapipe.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/ir/parser.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

struct DecidedCase {
  const char* name;
  const char* helper;  // defines step(...)
  const char* calls;   // main's body
  bool warns;
};

void PrintTo(const DecidedCase& c, std::ostream* out) { *out << c.name; }

// A reduction step with a divergent `continue` for the calls that do not use all
// invocations, and barriers only for those that do.
const char* const kStep = R"(
void step(uint i, const bool all_threads) {
  for (uint k = 0u; k < 4u; ++k) {
    if (!all_threads) {
      barrier();
      if (i < n) tile[i % 64u] = data[i];
      barrier();
      if (i >= n) continue;
    }
    float v = data[i + k];
    if (all_threads) {
      barrier();
      tile[i % 64u] = v;
      barrier();
    }
    data[i] = tile[(i + 1u) % 64u];
  }
})";

const std::string kStepAndForwardText =
    std::string(kStep) +
    "\nvoid forward(uint i, const bool all_threads) { step(i, all_threads); }\n";
const char* const kStepAndForward = kStepAndForwardText.c_str();

const DecidedCase kCases[] = {
    {"ConstantTrueAndFalse", kStep, "step(i, true); step(i, false);", false},
    {"OnlyFalse", kStep, "step(i, false);", false},
    {"ARunTimeArgumentToo", kStep, "step(i, true); step(i, false); step(i, n > 3u);", true},
    {"SpecializationConstantArgument", kStep, "step(i, true); step(i, ALL);", true},
    {"BarrierAfterTheContinue", R"(
void step(uint i, const bool all_threads) {
  for (uint k = 0u; k < 4u; ++k) {
    if (!all_threads && i >= n) continue;
    barrier();
    tile[i % 64u] = data[i + k];
  }
})",
     "step(i, true); step(i, false);", true},
    // A plain `in` parameter: glslang passes a pointer to a temporary stored just before.
    {"ParameterPassedThroughATemporary", R"(
void step(uint i, bool all_threads) {
  if (!all_threads && i >= n) return;
  if (all_threads) barrier();
})",
     "step(i, true); step(i, false);", false},
    {"ParameterTheHelperWrites", R"(
void step(uint i, bool all_threads) {
  if (!all_threads && i >= n) return;
  all_threads = !all_threads;
  if (all_threads) barrier();
})",
     "step(i, true); step(i, false);", true},
    {"IntegerMode", R"(
void step(uint i, const uint mode) {
  if (mode != 0u && i >= n) return;
  if (mode == 0u) { barrier(); tile[i % 64u] = 1.0; barrier(); }
})",
     "step(i, 0u); step(i, 2u);", false},
    {"IntegerModeOverlapping", R"(
void step(uint i, const uint mode) {
  if (mode != 0u && i >= n) return;
  if (mode < 3u) { barrier(); tile[i % 64u] = 1.0; barrier(); }
})",
     "step(i, 0u); step(i, 2u);", true},
    // The argument is the caller's parameter, not a constant at the call: not followed.
    {"ForwardedThroughAnotherHelper", kStepAndForward,
     "forward(i, true); forward(i, false);", true},
};

class ArgumentDecidedBranches : public ::testing::TestWithParam<DecidedCase> {};

TEST_P(ArgumentDecidedBranches, WarnsOnlyWhereACallMayRunTheDivergentPath) {
  const DecidedCase& c = GetParam();
  std::string source = std::string(R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint n; };
layout(constant_id = 0) const bool ALL = true;
layout(std430, binding = 0) buffer B { float data[]; };
shared float tile[64];
)") + c.helper + R"(
void main() {
  uint i = gl_GlobalInvocationID.x;
  )" + c.calls + "\n}\n";
  std::string error;
  std::optional<Module> module = ParseModule(test::CompileGlsl(source, "comp"), &error);
  ASSERT_TRUE(module) << error;
  UniformityOptions every_fact;
  every_fact.every_fact = true;
  UniformityResult full = AnalyzeUniformity(*module, every_fact);
  EXPECT_TRUE(full.refusal.empty()) << full.refusal;
  std::string messages;
  for (const UniformityFinding& finding : full.findings) messages += finding.message + "\n";
  EXPECT_EQ(!full.findings.empty(), c.warns) << messages;
  UniformityResult pipeline = AnalyzeUniformity(*module);
  EXPECT_EQ(pipeline.findings.size(), full.findings.size());
}

INSTANTIATE_TEST_SUITE_P(Shapes, ArgumentDecidedBranches, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<DecidedCase>& info) {
                           return std::string(info.param.name);
                         });

// A need cleared in the helper moves to its call sites: a call in divergent control is
// reported there, naming the barrier.
TEST(ArgumentDecidedBranchesNeeds, CallInDivergentControlIsReportedAtTheCall) {
  std::string source = std::string(R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint n; };
layout(std430, binding = 0) buffer B { float data[]; };
shared float tile[64];
)") + kStep + R"(
void main() {
  uint i = gl_GlobalInvocationID.x;
  step(i, true);
  if (i < 7u) step(i, false);
}
)";
  std::string error;
  std::optional<Module> module = ParseModule(test::CompileGlsl(source, "comp"), &error);
  ASSERT_TRUE(module) << error;
  UniformityResult result = AnalyzeUniformity(*module);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings.front().message.rfind("call of `step(u1;b1;` in non-uniform control flow", 0), 0u)
      << result.findings.front().message;
}

}  // namespace
}  // namespace glint::spirv
