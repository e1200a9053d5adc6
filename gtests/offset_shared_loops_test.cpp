// Loops whose bounds share a per-invocation offset
// (SPIRV/analysis/uniformity/offset_shared_loops.cpp): the part is asked directly for
// each loop test, and the analysis's warnings and levels are checked beside it. Each
// case the rule proves has its near miss: offsets that are not the same value, sums
// that may wrap, a step that may wrap or move away from the bound, a step that differs
// between invocations, a counter stored twice. The execution tests in
// uniformity_execution_test.cpp run the positive shape and the wrapping near miss on
// lavapipe.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/uniformity/offset_shared_loops.h"
#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/parser.h"
#include "support/module_queries.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

using uniformity_detail::OffsetSharedLoops;

// A kernel of 64 invocations: `declarations` at file scope, `body` in main, which reads
// push constants base, count, step (unbounded) and has `tid`.
std::string Kernel(const std::string& body) {
  return R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint base; uint count; uint step; int sbase; };
layout(std430, binding = 0) buffer B { uint data[]; };
shared uint tile[64];
void main() {
  const uint tid = gl_LocalInvocationID.x;
)" + body + "}\n";
}

std::optional<Module> Compile(const std::string& source) {
  std::string error;
  std::optional<Module> module = ParseModule(test::CompileGlsl(source, "comp"), &error);
  EXPECT_TRUE(module) << error;
  return module;
}

// The ordering comparison that reads the first load of `counter`.
const Instruction* TestOf(const Module& module, const DefUse& def_use, const char* counter) {
  uint32_t load = test::FirstLoadOf(module, counter);
  for (Use use : def_use.Uses(load))
    if (OffsetSharedLoops::MayApply(use.user->opcode)) return use.user;
  return nullptr;
}

struct Outcome {
  bool holds = false;
  std::string reason;
  std::string offset;  // the name of the shared offset's variable, "" when none
  Divergence level = Divergence::kDivergent;  // the comparison's, by the analysis
  std::string warnings;
};

Outcome Ask(const std::string& body, const char* counter = "t") {
  Outcome outcome;
  std::optional<Module> module = Compile(Kernel(body));
  if (!module) return outcome;
  AnalysisContext analyses(*module);
  const DefUse& def_use = analyses.GetDefUse();
  UniformityInputs inputs = analyses.GetUniformityInputs();
  OffsetSharedLoops loops(
      def_use,
      [&](uint32_t function) -> const Cfg* {
        Function* found = analyses.GetCallGraph().FunctionById(function);
        return found ? &analyses.GetCfg(*found) : nullptr;
      },
      inputs.loop_shapes, inputs.value_bounds);
  const Instruction* comparison = TestOf(*module, def_use, counter);
  if (!comparison) {
    outcome.reason = "no comparison found";
    return outcome;
  }
  const OffsetSharedLoops::Test& test = loops.Of(*comparison);
  outcome.holds = test.holds;
  outcome.reason = test.reason;
  if (test.offset_name) {
    outcome.offset = "%" + std::to_string(test.offset_name);
    for (const Instruction& name : module->debug_names)
      if (name.opcode == spv::OpName && NameView(name).target() == test.offset_name)
        outcome.offset = NameView(name).name();
  }
  UniformityLevels levels = AnalyzeUniformityLevels(*module, "main");
  EXPECT_EQ(levels.refusal, "");
  outcome.level = levels.Value(comparison->result_id).value_or(Divergence::kDivergent);
  UniformityResult result = analyses.GetUniformity();
  for (const UniformityFinding& finding : result.findings) {
    outcome.warnings += finding.message + "\n";
    for (const std::string& reason : finding.reasons) outcome.warnings += "    " + reason + "\n";
  }
  return outcome;
}

const char* const kBarriers = R"(
    barrier();
    tile[tid] = data[t];
    barrier();
    data[t] = tile[63u - tid];
)";

std::string Loop(const std::string& start, const std::string& bound, const std::string& step,
                 const std::string& compare = "<", const std::string& type = "uint") {
  return "  " + type + " first = " + start + ";\n  " + type + " last = " + bound + ";\n  for (" +
         type + " t = first; t " + compare + " last; t += " + step + ") {" + kBarriers + "  }\n";
}

// wkv6's shape with bounded push constants: start and bound share `tid`.
TEST(OffsetSharedLoops, BoundedStartAndBoundShareTheOffset) {
  Outcome outcome = Ask(Loop("min(base, 1000000u) * 64u + tid",
                             "(min(base, 1000000u) + min(count, 1000u)) * 64u + tid", "64u"));
  EXPECT_TRUE(outcome.holds) << outcome.reason;
  EXPECT_EQ(outcome.offset, "tid");
  EXPECT_EQ(outcome.level, Divergence::kUniform);
  EXPECT_EQ(outcome.warnings, "");
}

TEST(OffsetSharedLoops, OffsetInEitherOrderAndStartOfTheOffsetAlone) {
  Outcome outcome = Ask(Loop("tid", "tid + min(count, 4096u)", "64u"));
  EXPECT_TRUE(outcome.holds) << outcome.reason;
  EXPECT_EQ(outcome.warnings, "");
  // The built-in read directly on both sides (two loads of one input are one value).
  outcome = Ask(Loop("gl_LocalInvocationID.x + 5u", "min(count, 4096u) + gl_LocalInvocationID.x",
                     "64u", "<="));
  EXPECT_TRUE(outcome.holds) << outcome.reason;
  EXPECT_EQ(outcome.warnings, "");
}

TEST(OffsetSharedLoops, UniformStepThatIsNotAConstant) {
  Outcome outcome =
      Ask(Loop("tid", "tid + min(count, 4096u)", "min(step, 256u)"));
  EXPECT_TRUE(outcome.holds) << outcome.reason;
  EXPECT_EQ(outcome.warnings, "");
}

TEST(OffsetSharedLoops, SignedDecreasingLoop) {
  Outcome outcome = Ask(R"(
  int s = int(tid);
  int hi = clamp(sbase, -1000, 1000) + s;
  int lo = clamp(sbase, -1000, 1000) - 500 + s;
  for (int t = hi; t > lo; t -= 7) {)" + std::string(kBarriers) + "  }\n");
  EXPECT_TRUE(outcome.holds) << outcome.reason;
  EXPECT_EQ(outcome.level, Divergence::kUniform);
  EXPECT_EQ(outcome.warnings, "");
}

// Near misses.
TEST(OffsetSharedLoops, DifferentOffsetsAreRefused) {
  Outcome outcome = Ask(Loop("tid", "min(count, 4096u) + 2u * tid", "64u"));
  EXPECT_FALSE(outcome.holds);
  EXPECT_EQ(outcome.reason, "the loop's start and bound share no addend");
  EXPECT_NE(outcome.warnings.find("in non-uniform control flow"), std::string::npos);
}

TEST(OffsetSharedLoops, UnboundedAddendMayWrap) {
  Outcome outcome = Ask(Loop("base + tid", "base + count + tid", "64u"));
  EXPECT_FALSE(outcome.holds);
  EXPECT_EQ(outcome.reason, "an addend of the loop's start has no bounds, so the sum may wrap");
  // The warning stays and says why the shared offset did not help.
  EXPECT_NE(outcome.warnings.find("the loop's counter and its bound both add `tid`, but that does "
                                  "not decide the test alike in every invocation: an addend of "
                                  "the loop's start has no bounds, so the sum may wrap"),
            std::string::npos)
      << outcome.warnings;
}

TEST(OffsetSharedLoops, BoundedSumsThatMayWrapAreRefused) {
  Outcome outcome = Ask(Loop("tid", "4294967290u + tid", "1u"));
  EXPECT_FALSE(outcome.holds);
  EXPECT_EQ(outcome.reason, "the loop's bound may wrap (its addends sum to [4294967290, 4294967353])");
  // The bound fits, but the last step past it may not.
  outcome = Ask(Loop("tid", "4294967200u + tid", "64u"));
  EXPECT_FALSE(outcome.holds);
  EXPECT_EQ(outcome.reason, "the loop's step may wrap its counter");
  EXPECT_NE(outcome.warnings.find("in non-uniform control flow"), std::string::npos);
  // One less and it fits: 4294967167 + 63 - 1 + 64 = 4294967293.
  outcome = Ask(Loop("tid", "4294967167u + tid", "64u"));
  EXPECT_TRUE(outcome.holds) << outcome.reason;
}

TEST(OffsetSharedLoops, SignedStepThatMayMoveAwayIsRefused) {
  Outcome outcome = Ask(R"(
  int s = int(tid);
  for (int t = s; t < s + 100; t += clamp(sbase, -1, 4)) {)" + std::string(kBarriers) + "  }\n");
  EXPECT_FALSE(outcome.holds);
  EXPECT_EQ(outcome.reason, "the loop's step may move its counter away from its bound");
}

// The shape holds, but what decides the test differs between invocations.
TEST(OffsetSharedLoops, StepThatDiffersBetweenInvocationsKeepsTheTestDivergent) {
  Outcome outcome = Ask(Loop("tid", "tid + min(count, 4096u)", "tid % 4u + 1u"));
  EXPECT_TRUE(outcome.holds) << outcome.reason;
  EXPECT_EQ(outcome.level, Divergence::kDivergent);
  EXPECT_NE(outcome.warnings.find("in non-uniform control flow"), std::string::npos);
  outcome = Ask(Loop("tid", "tid + min(count, 4096u) + (tid & 1u)", "64u"));
  EXPECT_TRUE(outcome.holds) << outcome.reason;
  EXPECT_EQ(outcome.level, Divergence::kDivergent);
}

TEST(OffsetSharedLoops, CounterStoredTwiceInTheLoopIsRefused) {
  Outcome outcome = Ask(R"(
  for (uint t = tid; t < tid + 640u; t += 64u) {
    if (data[0] == 7u) t += 1u;)" + std::string(kBarriers) + "  }\n");
  EXPECT_FALSE(outcome.holds);
  EXPECT_EQ(outcome.reason, "loop's counter is stored more than once in the loop");
}

// A local written in the loop is not the same value at the start and at the test.
TEST(OffsetSharedLoops, OffsetWrittenInALoopIsNotShared) {
  Outcome outcome = Ask(R"(
  uint o = tid;
  for (uint k = 0u; k < 2u; ++k) o = o + k;
  for (uint t = o; t < o + 640u; t += 64u) {)" + std::string(kBarriers) + "  }\n");
  EXPECT_FALSE(outcome.holds);
  EXPECT_EQ(outcome.reason, "the loop's start and bound share no addend");
}

TEST(OffsetSharedLoops, ComparisonThatIsNotALoopTest) {
  Outcome outcome = Ask("  uint t = tid;\n  if (t < tid + 3u) data[0] = 1u;\n");
  EXPECT_FALSE(outcome.holds);
  EXPECT_EQ(outcome.reason, "the comparison is not a loop's top test");
}

}  // namespace
}  // namespace glint::spirv
