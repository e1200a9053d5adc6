// Tests of argument cases (SPIRV/analysis/range/integer_range_argument_cases.cpp): a call
// whose callee returns no range over the whole of its arguments' ranges is ranged over
// halves of them, split until each case has a range. Traps: a case that really is
// undefined (a field past bit 32), and the budgets, which name themselves.
// Each case is a compute shader whose indices into `probe[]` are the values under test.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "glint/glint.h"
#include "support/bit_field_helpers.h"
#include "support/range_probe.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

using Ranges = std::vector<test::ProbedRange>;

constexpr const char* kExtractBits = test::kExtractBitsHelper;

// The same field read from one word only: undefined where it crosses the word.
const char kOneWordOnly[] =
    "int one_word(uvec4 payload, int offset, int bits) {\n"
    "  return int(bitfieldExtract(payload[offset >> 5], offset & 31, bits));\n"
    "}\n";

Ranges ShaderRanges(const std::string& helpers, const std::string& body,
                    RangeAnalysisMode mode = RangeAnalysisMode::kFull) {
  std::string source =
      "#version 450\nlayout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) buffer Data { uvec4 words[]; };\n"
      "layout(std430, binding = 1) buffer Probe { uint probe[]; };\n" +
      helpers +
      "void main() {\n  uvec4 payload = words[0];\n"
      "  int pixel = int(gl_LocalInvocationID.x & 15u);\n" +
      body + "\n}\n";
  Options options;
  options.range_analysis = mode;
  return test::ObjectRanges(test::CompileGlsl(source, "comp"), options);
}

// Granite's BC6 index: offset in [82, 126] (crossing words 2/3 and 3/4), 2 or 3 bits.
TEST(ArgumentCases, FieldsThatMayCrossAWord) {
  EXPECT_EQ(ShaderRanges(kExtractBits,
                         "probe[extract_bits(payload, max(81 + pixel * 3 - int(pixel > 3), 82),"
                         " pixel == 0 ? 2 : 3)] = 0u;\n"
                         "probe[extract_bits(payload, 64 + pixel * 4, 4)] = 0u;"),
            (Ranges{test::Range(0, 7), test::Range(0, 15)}));
}

// The near-misses: with offset 94 and 3 bits the one-word read is undefined (30 + 3 >
// 32), so no case split can range it; and the budgets refuse rather than grow.
TEST(ArgumentCases, TrapsAndBudgets) {
  const std::string past_32 =
      "a value the function returns has no range: bitfield offset + "
      "count may exceed 32";
  EXPECT_EQ(ShaderRanges(kOneWordOnly, "probe[one_word(payload, 82 + pixel, 3)] = 0u;"),
            (Ranges{test::NoRange(past_32)}));
  // Within one word for every pixel: each case has its field.
  EXPECT_EQ(ShaderRanges(kOneWordOnly, "probe[one_word(payload, 64 + pixel, 3)] = 0u;"),
            (Ranges{test::Range(0, 7)}));
  // 2^16 * 16 combinations: more than kMaxArgumentValues, no case is tried (the rule
  // applies only below it, so the reason stays the union's).
  EXPECT_EQ(ShaderRanges(kExtractBits,
                         "probe[extract_bits(payload, int(words[1].x & 0xFFFFu), pixel)] = 0u;"),
            (Ranges{test::NoRange("a value the function returns has no range: a value stored to "
                                  "the local has no range: bitfield offset + count may exceed "
                                  "32")}));
  // 128 offsets and 8 bit counts: within kMaxArgumentValues, but the cases near each
  // word boundary are split down to single values, past kMaxCasesPerCall.
  EXPECT_EQ(ShaderRanges(kExtractBits,
                         "probe[extract_bits(payload, int(words[1].x & 127u), "
                         "int(words[1].y & 7u) + 1)] = 0u;"),
            (Ranges{test::NoRange("a value the function returns has no range: a value stored to "
                                  "the local has no range: bitfield offset + count may exceed "
                                  "32 (more than 64 argument cases for one call (budget "
                                  "kMaxCasesPerCall))")}));
}

}  // namespace
}  // namespace glint::spirv
