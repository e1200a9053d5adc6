// Tests of remainders written out by hand
// (SPIRV/analysis/range/integer_range_remainder_differences.cpp): `x - k * (x / k)`, `x - (x / k) *
// k` and `x - ((x >> s) << s)` lie in [0, k - 1] whatever x's range, and an i32 division's in [-(k
// - 1), k - 1] (or [0, k - 1] for a non-negative x). Each case is a compute shader whose indices
// into `probe[]` are the values under test; the traps are the near-misses that do wrap or leave [0,
// k - 1]: another multiplier, the quotient of another value, x stored again between the division
// and the subtraction, an i32 remainder read as u32. Reference mode is checked to stay as it was.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "glint/glint.h"
#include "support/range_probe.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

using Ranges = std::vector<test::ProbedRange>;

#define MEMORY_REASON_TEXT "value read from Uniform memory (data the application provides)"
#define UNDERFLOW "u32 subtraction may underflow"

// The ranges of the indices into `probe[]` of a compute shader whose main is `body`.
Ranges ShaderRanges(const std::string& body, RangeAnalysisMode mode = RangeAnalysisMode::kFull) {
  std::string source =
      "#version 450\nlayout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) buffer Data { uint data[]; int signed_data[]; };\n"
      "layout(std430, binding = 1) buffer Probe { uint probe[]; };\n"
      "void main() {\n" +
      body + "\n}\n";
  Options options;
  options.range_analysis = mode;
  return test::ObjectRanges(test::CompileGlsl(source, "comp"), options);
}

TEST(RemainderDifferences, UnsignedDivisionEitherOrder) {
  EXPECT_EQ(ShaderRanges("uint x = data[0];\nprobe[x - 8u * (x / 8u)] = 0u;\n"
                         "probe[x - (x / 12u) * 12u] = 0u;"),
            (Ranges{test::Range(0, 7), test::Range(0, 11)}));
  // Reference mode has no such rule (nor a range for the local x).
  EXPECT_EQ(ShaderRanges("uint x = data[0];\nprobe[x - 8u * (x / 8u)] = 0u;",
                         RangeAnalysisMode::kReference),
            (Ranges{test::NoRange("load from a local variable that is not a for-loop control "
                                  "variable (no update in a continuing block)")}));
}

// llama.cpp's shape: the quotient and the value held in locals, read back by new loads.
TEST(RemainderDifferences, ThroughLocals) {
  EXPECT_EQ(ShaderRanges("const uint itid = gl_LocalInvocationID.x % 16u;\n"
                         "const uint v_im = itid / 8u;\nconst uint v_in = itid - 8u * v_im;\n"
                         "probe[v_in] = 0u;\nprobe[4u * v_in + 64u * v_im] = 0u;"),
            (Ranges{test::Range(0, 7), test::Range(0, 92)}));
}

// A range the interval rule proves narrower stays: x in [0, 3] gives [0, 3], not [0, 7].
TEST(RemainderDifferences, MetWithTheIntervalRange) {
  EXPECT_EQ(ShaderRanges("uint x = data[0] & 3u;\nprobe[x - 8u * (x / 8u)] = 0u;"),
            (Ranges{test::Range(0, 3)}));
}

TEST(RemainderDifferences, ShiftsLogicalAndArithmetic) {
  EXPECT_EQ(ShaderRanges("uint x = data[0];\nprobe[x - ((x >> 3u) << 3u)] = 0u;\n"
                         "int y = signed_data[0];\nprobe[y - ((y >> 2) << 2)] = 0u;"),
            (Ranges{test::Range(0, 7), test::Range(0, 3)}));
}

TEST(RemainderDifferences, SignedDivisionTakesTheDividendsSign) {
  EXPECT_EQ(ShaderRanges("int y = signed_data[0];\nprobe[y - 4 * (y / 4)] = 0u;\n"
                         "int z = signed_data[1] & 0xFFFF;\nprobe[z - (z / 4) * 4] = 0u;"),
            (Ranges{test::Range(-3, 3), test::Range(0, 3)}));
}

// The near-misses. Each wraps or leaves [0, k - 1] for some x.
TEST(RemainderDifferences, Traps) {
  // 16 - 4 * (16 / 8) = 8.
  EXPECT_EQ(ShaderRanges("uint x = data[0] & 1023u;\nprobe[x - 4u * (x / 8u)] = 0u;"),
            (Ranges{test::NoRange(UNDERFLOW)}));
  // 7 - 8 * ((7 + 1) / 8) wraps.
  EXPECT_EQ(ShaderRanges("uint x = data[0] & 1023u;\nprobe[x - 8u * ((x + 1u) / 8u)] = 0u;"),
            (Ranges{test::NoRange(UNDERFLOW)}));
  // x is stored again after the division: 7 / 8 = 0, then x = 8.
  EXPECT_EQ(ShaderRanges("uint x = data[0] & 1023u;\nuint q = x / 8u;\nx = x + 1u;\n"
                         "probe[x - 8u * q] = 0u;"),
            (Ranges{test::NoRange(UNDERFLOW)}));
  // Shifted back by another amount: 15 - ((15 >> 3) << 2) = 11. (It never wraps, but
  // the rule does not claim it: the interval rule's answer stands.)
  EXPECT_EQ(ShaderRanges("uint x = data[0] & 1023u;\nprobe[x - ((x >> 3u) << 2u)] = 0u;"),
            (Ranges{test::NoRange(UNDERFLOW)}));
  // An i32 remainder, -1 for -5, read as u32.
  EXPECT_EQ(ShaderRanges("int y = signed_data[0];\nprobe[uint(y) - 4u * uint(y / 4)] = 0u;"),
            (Ranges{test::NoRange(MEMORY_REASON_TEXT)}));
}

}  // namespace
}  // namespace glint::spirv
