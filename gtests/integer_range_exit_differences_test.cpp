// Tests of exit differences (SPIRV/analysis/range/integer_range_exit_differences.cpp): after
// `for (; z + k < c; z += s)` (s <= k + 1), `c - z` lies in [min(k + 1 - s, c.min -
// z0.max), k], so the remainder loop after a vectorized one stays below k + 1. Traps: a
// break in the loop, z written after it, a start above the bound (unsigned: c - z wraps),
// a step wider than k + 1, and reference mode, which has no such rule.
// Each case is a compute shader whose indices into `probe[]` are the values under test.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "glint/glint.h"
#include "support/range_probe.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

using Ranges = std::vector<test::ProbedRange>;

// The ranges of the indices into `probe[]` of a compute shader whose main is `body`; `c`
// and `n` are push constants (no range of their own).
Ranges ShaderRanges(const std::string& body, RangeAnalysisMode mode = RangeAnalysisMode::kFull) {
  std::string source =
      "#version 450\nlayout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) buffer Data { uint data[]; };\n"
      "layout(std430, binding = 1) buffer Probe { uint probe[]; };\n"
      "layout(push_constant) uniform P { int c; uint n; };\n"
      "void main() {\n" +
      body + "\n}\n";
  Options options;
  options.range_analysis = mode;
  return test::ObjectRanges(test::CompileGlsl(source, "comp"), options);
}

// The shape: four at a time, then what is left one at a time.
TEST(ExitDifferences, RemainderOfAVectorizedLoop) {
  const std::string body =
      "int z = 0;\nfor (; z + 3 < c; z += 4) data[z] += 1u;\nint remain = c - z;\n"
      "for (int z4 = 0; z4 < remain; z4++) probe[z4] = 0u;";
  EXPECT_EQ(ShaderRanges(body), (Ranges{test::Range(0, 2)}));
  EXPECT_EQ(ShaderRanges("uint z = 0u;\nfor (; z + 7u < n; z += 8u) {}\nprobe[n - z] = 0u;"),
            (Ranges{test::Range(0, 7)}));
  // A step of 2 under z + 3: c - z in [2, 3] after an iteration, [c.min, 3] without one.
  EXPECT_EQ(ShaderRanges("uint z = 0u;\nfor (; z + 3u < n; z += 2u) {}\nprobe[n - z] = 0u;"),
            (Ranges{test::Range(0, 3)}));
  // A bound with a range needs no alignment of the start: c.max + s - 1 fits, and c.min
  // (8) is above z0.max (7), so c - z0 cannot wrap.
  EXPECT_EQ(ShaderRanges("uint m = (n & 1023u) | 8u;\nuint z = data[0] & 7u;\n"
                         "for (; z + 2u < m; z += 3u) {}\nprobe[m - z] = 0u;"),
            (Ranges{test::Range(0, 2)}));
  EXPECT_EQ(ShaderRanges(body, RangeAnalysisMode::kReference),
            (Ranges{test::NoRange("loop bound is not a constant")}));
}

// The near-misses: each really leaves c - z above k, or lets it wrap, for some inputs.
TEST(ExitDifferences, Traps) {
  // n's own reason: n - z keeps it.
  const std::string bound_reason =
      "value read from PushConstant memory (data the application "
      "provides)";
  // A break leaves the loop with z + 3 < n still true.
  EXPECT_EQ(ShaderRanges("uint z = 0u;\nfor (; z + 3u < n; z += 4u) { if (data[z] == 0u) break; }\n"
                         "probe[n - z] = 0u;"),
            (Ranges{test::NoRange(bound_reason)}));
  // z moved after the loop.
  EXPECT_EQ(ShaderRanges("uint z = 0u;\nfor (; z + 3u < n; z += 4u) {}\nz = z / 2u;\n"
                         "probe[n - z] = 0u;"),
            (Ranges{test::NoRange(bound_reason)}));
  // A start above the bound: n = 2 leaves the loop at once and 2 - 5 wraps.
  EXPECT_EQ(ShaderRanges("uint z = 5u;\nfor (; z + 3u < n; z += 4u) {}\nprobe[n - z] = 0u;"),
            (Ranges{test::NoRange(bound_reason)}));
  // A step of 8 under z + 3 < n, n from 2^32 - 6: z reaches 2^32 - 8, then 2^32 - 8 + 3 <
  // n holds and z wraps to 0.
  EXPECT_EQ(ShaderRanges("uint z = 0u;\nfor (; z + 3u < n; z += 8u) {}\nprobe[n - z] = 0u;"),
            (Ranges{test::NoRange(bound_reason)}));
}

}  // namespace
}  // namespace glint::spirv
