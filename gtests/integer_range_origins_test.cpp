// Tests of the range analysis's reasons that name where a value without a range was read
// from (SPIRV/analysis/range/integer_range_origins.cpp): the storage class of the memory,
// through struct locals and dynamic built-in elements. Texts only: each case also
// checks that what had a range before still has it (the traps keep their old reason).
// Each shader's indices into `probe[]` are the values under test.
#include <gtest/gtest.h>

#include "SPIRV/analysis/range/integer_range_analysis.h"
#include "SPIRV/ir/parser.h"
#include "support/range_probe.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

using Ranges = std::vector<test::ProbedRange>;

// The ranges (or "no range: why") of the indices into `probe[]`, in module order.
Ranges ProbeRanges(const std::string& source, const std::string& stage,
                   RangeAnalysisMode mode = RangeAnalysisMode::kFull) {
  Options options;
  options.range_analysis = mode;
  return test::ObjectRanges(test::CompileGlsl(source, stage), options);
}

const char kHeader[] =
    "#version 440\n"
    "layout(local_size_x = 64) in;\n"
    "struct Item { uint offset; uint lod[4]; };\n"
    "layout(std430, binding = 0) buffer Items { Item items[]; };\n"
    "layout(std430, binding = 1) buffer Probe { uint probe[]; };\n"
    "layout(push_constant) uniform Push { uint first; } pc;\n"
    "shared uint counts[64];\n";

std::string Compute(const std::string& helpers, const std::string& body) {
  return kHeader + helpers + "void main() {\n" + body + "\n}\n";
}

const test::ProbedRange kStoredFromBuffer = test::NoRange(
    "a value stored to the local has no range: value read from Uniform memory (data "
    "the application provides)");

TEST(RangeOrigins, MemoryIsNamedByStorageClass) {
  EXPECT_EQ(ProbeRanges(Compute("",
                                "probe[pc.first] = 0u;\nprobe[counts[3]] = 0u;\n"
                                "probe[items[1].offset & 15u] = 0u;"),
                        "comp"),
            (Ranges{test::NoRange("value read from PushConstant memory (data the application "
                                  "provides)"),
                    test::NoRange("value read from Workgroup memory (written by the invocations of "
                                  "the workgroup)"),
                    test::Range(0, 15)}));
}

TEST(RangeOrigins, StructLocalStoredWholeFromABuffer) {
  // The member of a struct loaded whole, and an element of a local that value flow does
  // not follow (indexed by a value) but that is only ever stored whole from the buffer.
  std::string body =
      "Item item = items[gl_LocalInvocationID.x];\n"
      "probe[item.offset] = 0u;\n"
      "probe[item.lod[item.offset & 3u]] = 0u;\n"
      "probe[item.lod[1] & 7u] = 0u;";
  EXPECT_EQ(ProbeRanges(Compute("", body), "comp"),
            (Ranges{kStoredFromBuffer, kStoredFromBuffer, test::Range(0, 7)}));
}

TEST(RangeOrigins, TrapLocalAlsoStoredFromElsewhere) {
  // One store is not a read of memory: the local's origin is not memory as a whole. The
  // local is read at a run-time index (integer_range_indexed_locals.cpp), which ranges
  // every store's part: the construct's parts have ranges, the buffer's do not, and the
  // reason names that store's value, not the local.
  std::string body =
      "Item item = items[gl_LocalInvocationID.x];\n"
      "if (pc.first == 0u) item = Item(3u, uint[4](1u, 2u, 3u, 4u));\n"
      "probe[item.lod[item.offset & 3u]] = 0u;";
  Ranges ranges = ProbeRanges(Compute("", body), "comp");
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(
      ranges[0],
      test::NoRange("a value stored to the local has no range: value read from Uniform memory "
                    "(data the application provides)"));
  // Without the buffer's store, the construct's parts are all it can read.
  Ranges constructed =
      ProbeRanges(Compute("",
                          "Item item = Item(3u, uint[4](1u, 2u, 3u, 4u));\n"
                          "if (pc.first == 0u) item = Item(2u, uint[4](5u, 6u, 7u, 8u));\n"
                          "probe[item.lod[item.offset & 3u]] = 0u;"),
                  "comp");
  EXPECT_EQ(constructed, (Ranges{test::Range(1, 8)}));
}

// A part of a parameter is followed into each call's argument (integer_range_calls.cpp),
// through componentwise vector operations (integer_range_components.cpp); where the
// argument's part is computed by an operation that is not followed, the reason names it.
TEST(RangeOrigins, PartOfAFunctionParameter) {
  std::string helpers = "void touch(uvec2 c) { probe[c.y] = 0u; }\n";
  EXPECT_EQ(ProbeRanges(Compute(helpers, "touch(uvec2(1u, 2u));"), "comp"),
            (Ranges{test::Range(2, 2)}));
  EXPECT_EQ(
      ProbeRanges(Compute(helpers, "touch(uvec2(1u, 2u) + gl_LocalInvocationID.xy);"), "comp"),
      (Ranges{test::Range(2, 2)}));
  EXPECT_EQ(
      ProbeRanges(Compute(helpers, "touch(uvec2(vec2(gl_LocalInvocationID.xy) * 0.5));"), "comp"),
      (Ranges{test::NoRange("an argument passed to the parameter has no range: a component "
                            "of a vector computed by OpConvertFToU, whose components are not "
                            "followed")}));
}

TEST(RangeOrigins, InputOfTheFragmentStage) {
  std::string source =
      "#version 440\n"
      "layout(location = 0) flat in uint material;\n"
      "layout(std430, binding = 1) buffer Probe { uint probe[]; };\n"
      "void main() { probe[material] = 0u; }\n";
  Ranges expected{
      test::NoRange("value read from Input memory (written by the previous stage or the "
                    "application)")};
  EXPECT_EQ(ProbeRanges(source, "frag"), expected);
  EXPECT_EQ(ProbeRanges(source, "frag", RangeAnalysisMode::kReference), expected);
}

TEST(RangeOrigins, DynamicElementOfABuiltin) {
  // LocalInvocationId has ranges: a dynamic component keeps the analysis's reason (the
  // union of the components would bound it); NumWorkgroups has none whatever the index.
  std::string body =
      "probe[gl_LocalInvocationID[pc.first & 1u]] = 0u;\n"
      "probe[gl_NumWorkGroups[pc.first & 1u]] = 0u;";
  EXPECT_EQ(ProbeRanges(Compute("", body), "comp"),
            (Ranges{test::NoRange("built-in component is not selected by one constant index"),
                    test::NoRange("built-in NumWorkgroups has no range (an element selected by a "
                                  "non-constant index)")}));
  EXPECT_EQ(ProbeRanges(Compute("", body), "comp", RangeAnalysisMode::kReference),
            (Ranges{test::NoRange("built-in component is not selected by one constant index"),
                    test::NoRange("built-in component is not selected by one constant index")}));
}

}  // namespace
}  // namespace glint::spirv
