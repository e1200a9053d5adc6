// Tests of locals in one call (SPIRV/analysis/range/integer_range_locals_in_call.cpp): a
// helper's local assigned on several paths, read during a call whose arguments are known,
// unions only the stores that can run in that call (a branch whose comparison the
// arguments decide stores nothing). Traps: arguments that leave the branch open, a test
// on a value the call does not give, and reference mode, which follows no local.
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

#define MEMORY_REASON_TEXT "value read from Uniform memory (data the application provides)"

constexpr const char* kExtractBits = test::kExtractBitsHelper;

// The ranges of the indices into `probe[]` of a compute shader with `helpers` whose main
// is `body` (`payload` is a uvec4 read from memory).
Ranges ShaderRanges(const std::string& helpers, const std::string& body,
                    RangeAnalysisMode mode = RangeAnalysisMode::kFull) {
  std::string source =
      "#version 450\nlayout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) buffer Data { uvec4 words[]; uint data[]; };\n"
      "layout(std430, binding = 1) buffer Probe { uint probe[]; };\n" +
      helpers + "void main() {\n  uvec4 payload = words[0];\n" + body + "\n}\n";
  Options options;
  options.range_analysis = mode;
  return test::ObjectRanges(test::CompileGlsl(source, "comp"), options);
}

TEST(LocalsInCall, ConstantArgumentsDecideWhichStoresRun) {
  // 77 and 5: one word (bits 13 to 17 of word 2); 0 and 5: the first field; 30 and 4:
  // two words (2 bits of each), whose join is below 2^4.
  EXPECT_EQ(ShaderRanges(kExtractBits,
                         "probe[extract_bits(payload, 77, 5)] = 0u;\n"
                         "probe[extract_bits(payload, 0, 5)] = 0u;\n"
                         "probe[extract_bits(payload, 30, 4)] = 0u;"),
            (Ranges{test::Range(0, 31), test::Range(0, 31), test::Range(0, 15)}));
  // Reference mode follows no local and ranges no call result.
  EXPECT_EQ(ShaderRanges(kExtractBits, "probe[extract_bits(payload, 77, 5)] = 0u;",
                         RangeAnalysisMode::kReference),
            (Ranges{test::NoRange("function call results have no range")}));
}

TEST(LocalsInCall, OnlyTheStoresTheArgumentsAllow) {
  const std::string pick =
      "uint pick(uint k) {\n  uint r;\n  if (k < 4u) r = k; else r = 100u;\n  return r;\n}\n";
  // k in [0, 3]: the else branch cannot run; k in [0, 4]: both can.
  EXPECT_EQ(
      ShaderRanges(pick, "probe[pick(data[0] & 3u)] = 0u;\nprobe[pick(min(data[0], 4u))] = 0u;"),
      (Ranges{test::Range(0, 3), test::Range(0, 100)}));
}

// The near-misses: the branch's comparison stays open for these arguments, or reads a
// value the call does not give; the union over every store then stands (none here).
TEST(LocalsInCall, TrapsOpenComparisons) {
  const std::string pick =
      "uint pick(uint k) {\n  uint r;\n  if (k < 4u) r = k; else r = data[1];\n  return r;\n}\n";
  const std::string no_range =
      "a value the function returns has no range: a value stored to the local has no "
      "range: " MEMORY_REASON_TEXT;
  EXPECT_EQ(ShaderRanges(pick, "probe[pick(data[0] & 7u)] = 0u;"),
            (Ranges{test::NoRange(no_range)}));
  const std::string tested_in_memory =
      "uint pick(uint k) {\n  uint r;\n  if (data[2] < 4u) r = k; else r = data[1];\n"
      "  return r;\n}\n";
  EXPECT_EQ(ShaderRanges(tested_in_memory, "probe[pick(3u)] = 0u;"),
            (Ranges{test::NoRange(no_range)}));
}

}  // namespace
}  // namespace glint::spirv
