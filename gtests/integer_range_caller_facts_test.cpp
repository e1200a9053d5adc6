// Tests of the facts a function inherits from its calls (full mode,
// SPIRV/analysis/range/integer_range_caller_facts.cpp): a test on a built-in or push constant
// around every call of a helper holds inside it. Each sound form has its trap beside it:
// a call without the test, a value that may change between the test and the helper's
// read (a buffer element, a local), tests in different readings; reference mode never
// narrows. Also the facts a block's own guards give (FactsAtUses::DrawFacts): a test's
// other side is ranged where the test runs, narrowed by the guards above it, so
// `if (n > 64u) return; for (i = 0u; i < n; i++)` bounds i by 63. Each case is a
// compute shader whose indices into `probe[]` are the values under test.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/range_probe.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

using Ranges = std::vector<test::ProbedRange>;

// A compute shader of 64 invocations: the Data and Probe buffers, a push constant
// block pc {n, m}, `helpers`, then main's `body`; the probe ranges in `mode`.
Ranges ShaderRanges(const std::string& helpers, const std::string& body,
                    RangeAnalysisMode mode = RangeAnalysisMode::kFull) {
  std::string source =
      "#version 450\nlayout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) buffer Data { uint data[]; };\n"
      "layout(std430, binding = 1) buffer Probe { uint probe[]; };\n"
      "layout(push_constant) uniform P { uint n; int m; } pc;\n" +
      helpers + "\nvoid main() {\n" + body + "\n}\n";
  Options options;
  options.range_analysis = mode;
  return test::ObjectRanges(test::CompileGlsl(source, "comp"), options);
}

#define PUSH_REASON \
  test::NoRange("value read from PushConstant memory (data the application provides)")
#define MEMORY_REASON \
  test::NoRange("value read from Uniform memory (data the application provides)")
#define PRIVATE_REASON test::NoRange("value read from Private memory (a global of this invocation)")

const char* const kProbeIndex = "void helper() { probe[gl_LocalInvocationIndex] = 1u; }";

TEST(CallerFacts, TestAroundTheOnlyCall) {
  EXPECT_EQ(ShaderRanges(kProbeIndex, "if (gl_LocalInvocationIndex < 22u) helper();"),
            (Ranges{test::Range(0, 21)}));
  EXPECT_EQ(ShaderRanges(kProbeIndex, "if (gl_LocalInvocationIndex < 22u) helper();",
                         RangeAnalysisMode::kReference),
            (Ranges{test::Range(0, 63)}));
  // An early return before the call is a test around it too.
  EXPECT_EQ(ShaderRanges(kProbeIndex, "if (gl_LocalInvocationIndex >= 5u) return;\nhelper();"),
            (Ranges{test::Range(0, 4)}));
}

// Each call's test, joined: the helper runs after one of them.
TEST(CallerFacts, UnionOverTheCalls) {
  EXPECT_EQ(ShaderRanges(kProbeIndex,
                         "if (gl_LocalInvocationIndex < 8u) helper();\n"
                         "else if (gl_LocalInvocationIndex < 16u) helper();"),
            (Ranges{test::Range(0, 15)}));
  EXPECT_EQ(ShaderRanges(kProbeIndex,
                         "if (gl_LocalInvocationIndex >= 40u && gl_LocalInvocationIndex < 48u) "
                         "helper();\nif (gl_LocalInvocationIndex < 4u) helper();"),
            (Ranges{test::Range(0, 47)}));
}

TEST(CallerFacts, TrapOneCallWithoutTheTest) {
  EXPECT_EQ(ShaderRanges(kProbeIndex, "if (gl_LocalInvocationIndex < 8u) helper();\nhelper();"),
            (Ranges{test::Range(0, 63)}));
}

// A push constant is one value for the invocation, like a built-in; the && form too.
TEST(CallerFacts, PushConstantsAndShortCircuitTests) {
  EXPECT_EQ(ShaderRanges("void helper() { probe[pc.n] = 1u; }", "if (pc.n < 10u) helper();"),
            (Ranges{test::Range(0, 9)}));
  EXPECT_EQ(
      ShaderRanges("void helper() { probe[pc.m] = 1u; }", "if (pc.m >= 0 && pc.m < 5) helper();"),
      (Ranges{test::Range(0, 4)}));
  EXPECT_EQ(ShaderRanges("void helper() { probe[pc.n] = 1u; }", "helper();"),
            (Ranges{PUSH_REASON}));
}

// Facts pass down a chain of calls, each function adding its own.
TEST(CallerFacts, ThroughNestedCalls) {
  EXPECT_EQ(ShaderRanges("void leaf() { probe[gl_LocalInvocationIndex] = 1u; }\n"
                         "void mid() { if (gl_LocalInvocationIndex >= 4u) leaf(); }",
                         "if (gl_LocalInvocationIndex < 32u) mid();"),
            (Ranges{test::Range(4, 31)}));
}

// A buffer element may change between the test and the helper's read (another
// invocation writes it); a global is not one value for the invocation (only built-ins
// and push constants are carried).
TEST(CallerFacts, TrapValuesThatMayChange) {
  EXPECT_EQ(ShaderRanges("void helper() { probe[data[0]] = 1u; }", "if (data[0] < 8u) helper();"),
            (Ranges{MEMORY_REASON}));
  EXPECT_EQ(ShaderRanges("uint g;\nvoid helper() { probe[g] = 1u; }",
                         "g = data[1];\nif (g < 8u) helper();"),
            (Ranges{PRIVATE_REASON}));
}

// A signed test at one call and an unsigned one at the other: not joined (the helper
// keeps its own range).
TEST(CallerFacts, TrapTestsInDifferentReadings) {
  EXPECT_EQ(ShaderRanges(kProbeIndex,
                         "if (int(gl_LocalInvocationIndex) < 8) helper();\n"
                         "if (gl_LocalInvocationIndex < 9u) helper();"),
            (Ranges{test::Range(0, 63)}));
}

// Collecting the tests at a helper's calls must not evaluate anything: here the loop
// bounds are call results, ranged through the helpers while the facts of their calls
// are collected. An evaluation started there met the call result still being ranged
// and kept "no range" for the second loop's bound (dxvk's d3d9 fixed-function shader).
TEST(CallerFacts, CollectingFactsAtCallsLeavesOtherRangesAlone) {
  EXPECT_EQ(ShaderRanges("uint extractByte(uint offset) {\n"
                         "  uint dword = data[offset / 4u];\n"
                         "  return bitfieldExtract(dword, (int(offset) % 4) * 8, 8);\n}\n"
                         "uint countA() { return extractByte(35u); }\n"
                         "uint countB() { return extractByte(41u); }",
                         "for (uint i = 0u; i <= countA(); i++) probe[i] = 0u;\n"
                         "for (uint j = 0u; j < countB(); j++) probe[j] = 1u;"),
            (Ranges{test::Range(0, 255), test::Range(0, 254)}));
}

// --- The other side of a test, ranged where the test runs -----------------------------

TEST(FactsAtTheTest, BoundTestedAboveTheLoop) {
  EXPECT_EQ(ShaderRanges("",
                         "uint m = data[0];\nif (m > 64u) return;\n"
                         "for (uint i = 0u; i < m; i++) probe[i] = 1u;"),
            (Ranges{test::Range(0, 63)}));
  EXPECT_EQ(
      ShaderRanges("", "if (pc.m > 64) return;\nfor (int i = 0; i < pc.m; i++) probe[i] = 1u;"),
      (Ranges{test::Range(0, 63)}));
  // The test around the loop rather than an early return; and a test of another value
  // against m. (In one `&&`, `m <= 16u && k < m`, the second test's bound is ranged
  // where the whole condition branches, below the merge of the two tests: not narrowed.)
  EXPECT_EQ(ShaderRanges("",
                         "uint m = data[0];\nuint k = data[1];\n"
                         "if (m <= 16u) { for (uint i = 0u; i < m; i++) probe[i] = 1u; }\n"
                         "if (m <= 16u) { if (k < m) probe[k] = 1u; }\n"
                         "if (m <= 16u && k < m) probe[k] = 1u;"),
            (Ranges{test::Range(0, 15), test::Range(0, 15), MEMORY_REASON}));
  // Reference mode draws no facts.
  EXPECT_EQ(
      ShaderRanges("", "if (pc.n > 64u) return;\nfor (uint i = 0u; i < pc.n; i++) probe[i] = 1u;",
                   RangeAnalysisMode::kReference),
      (Ranges{test::NoRange("loop bound is not a constant")}));
}

TEST(FactsAtTheTest, Traps) {
  // `<=` lets i reach 64.
  EXPECT_EQ(ShaderRanges("",
                         "uint m = data[0];\nif (m > 64u) return;\n"
                         "for (uint i = 0u; i <= m; i++) probe[i] = 1u;"),
            (Ranges{test::Range(0, 64)}));
  // m stored again after its test: the loop reads the new value.
  EXPECT_EQ(ShaderRanges("",
                         "uint m = data[0];\nif (m > 64u) return;\nm = data[1];\n"
                         "for (uint i = 0u; i < m; i++) probe[i] = 1u;"),
            (Ranges{test::Range(0, 4294967295)}));
  // A test that does not dominate the loop.
  EXPECT_EQ(ShaderRanges("",
                         "uint m = data[0];\nif (m <= 64u) probe[0] = 2u;\n"
                         "for (uint i = 0u; i < m; i++) probe[i] = 1u;"),
            (Ranges{test::Range(0, 0), test::Range(0, 4294967295)}));
}

}  // namespace
}  // namespace glint::spirv
