// Tests of components of computed vectors (SPIRV/analysis/range/integer_range_components.cpp):
// a component extracted from, stored in a local as, or passed as a part of a vector
// computed componentwise has the scalar rule's range on its operands' components. Each
// proof has its trap beside it: the operation or operand that would leave the range.
// Reference mode is unchanged (no component is followed).
#include <gtest/gtest.h>

#include "support/range_probe.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

using Ranges = std::vector<test::ProbedRange>;

// The ranges of the indices into `probe[]` of a compute shader with `helpers` and
// `body` (Data: a buffer the application fills; Probe: the indexed buffer).
Ranges ComponentRanges(const std::string& helpers, const std::string& body,
                       RangeAnalysisMode mode = RangeAnalysisMode::kFull) {
  std::string source =
      "#version 450\nlayout(local_size_x = 8, local_size_y = 4) in;\n"
      "layout(std430, binding = 0) buffer Data { uvec2 pair; uint data[]; };\n"
      "layout(std430, binding = 1) buffer Probe { uint probe[]; };\n" +
      helpers + "\nvoid main() {\n" + body + "\n}\n";
  Options options;
  options.range_analysis = mode;
  return test::ObjectRanges(test::CompileGlsl(source, "comp"), options);
}

// A local vector computed by a shift and a mask, read by component.
TEST(VectorComponents, LocalComputedComponentwise) {
  const char* body =
      "uvec2 c = (gl_LocalInvocationID.xy + uvec2(1u, 2u)) >> 1u;\n"
      "probe[c.x] = 0u;\nprobe[c.y] = 0u;\n"
      "uvec2 m = pair & uvec2(7u, 15u);\nprobe[m.y] = 0u;";
  EXPECT_EQ(ComponentRanges("", body),
            (Ranges{test::Range(0, 4), test::Range(1, 2), test::Range(0, 15)}));
  for (const test::ProbedRange& range : ComponentRanges("", body, RangeAnalysisMode::kReference))
    EXPECT_FALSE(range.valid) << range;
}

// min / max / clamp and select, component by component.
TEST(VectorComponents, MinMaxClampSelect) {
  EXPECT_EQ(ComponentRanges("",
                            "uvec2 a = min(pair, uvec2(3u, 9u));\nprobe[a.y] = 0u;\n"
                            "uvec3 b = clamp(uvec3(pair, 5u), uvec3(2u), uvec3(6u, 7u, 8u));\n"
                            "probe[b.z] = 0u;\n"
                            "uvec2 s = mix(uvec2(1u, 4u), gl_LocalInvocationID.xy, "
                            "lessThan(pair, uvec2(4u)));\nprobe[s.x] = 0u;"),
            (Ranges{test::Range(0, 9), test::Range(5, 5), test::Range(0, 7)}));
}

// A part of a vector parameter computed by a shift at the call (dxvk's mip generator
// passes `local_coord >> even_count`): the union of that component of each argument
// (c.x in [0, 3], c.y in [0, 2]: the parts are ranged apart, so [0, 19]).
TEST(VectorComponents, ParameterPartOfAComputedArgument) {
  const char* helpers = "void put(uvec2 c) { probe[c.y * 8u + c.x] = 0u; }\n";
  EXPECT_EQ(ComponentRanges(helpers,
                            "put(gl_LocalInvocationID.xy >> 1u);\n"
                            "put((gl_LocalInvocationID.xy & uvec2(1u)) * 2u);"),
            (Ranges{test::Range(0, 19)}));
}

// A vector a function returns: the union of that component of every returned value.
TEST(VectorComponents, CallResult) {
  const char* helpers =
      "uvec2 f(uint x) {\n  if (x > 9u) return uvec2(x & 3u, 5u);\n"
      "  return uvec2(gl_LocalInvocationID.x, 6u);\n}\n";
  EXPECT_EQ(ComponentRanges(helpers, "uvec2 r = f(data[0]);\nprobe[r.x] = 0u;\nprobe[r.y] = 0u;"),
            (Ranges{test::Range(0, 7), test::Range(5, 6)}));
}

// A specialization constant's component names it (the application may change it).
// bitfieldExtract of a vector: each component is a field of count bits.
TEST(VectorComponents, BitfieldExtractOfAVector) {
  EXPECT_EQ(ComponentRanges("",
                            "uvec3 r = bitfieldExtract(uvec3(pair, data[0]), 2, 4);\n"
                            "probe[r.z] = 0u;\nprobe[r.x] = 0u;"),
            (Ranges{test::Range(0, 15), test::Range(0, 15)}));
  // offset + count may pass 32: each component is undefined then.
  EXPECT_EQ(
      ComponentRanges("",
                      "uvec2 r = bitfieldExtract(pair, int(data[0] & 31u), 4);\n"
                      "probe[r.y] = 0u;"),
      (Ranges{test::NoRange(
          "a value stored to the local has no range: bitfield offset + count may exceed 32")}));
}

// A call's component from this call's own arguments (Granite's meshlet decoder: the
// same helper decodes 5-bit indices here and fields of any width elsewhere).
TEST(VectorComponents, CallResultFromThisCallsArguments) {
  const std::string decode =
      "uvec3 decode3(uint w, uint bit_count) {\n"
      "  uvec3 v = uvec3(w, w >> 5u, w >> 10u);\n"
      "  return bitfieldExtract(v, 0, int(bit_count));\n}\n";
  EXPECT_EQ(ComponentRanges(decode,
                            "uvec3 p = decode3(data[0], 5u);\nprobe[p.y] = 0u;\n"
                            "uvec3 q = decode3(data[1], data[2] & 255u);\n"
                            "probe[q.z] = 0u;"),
            (Ranges{test::Range(0, 31),
                    test::NoRange("a value stored to the local has no range: a value the function "
                                  "returns has no range: bitfield offset + count may exceed 32")}));
}

// In the call's context only the returned value's own operations are followed again; a
// vector read from a local keeps its range for every call (its stores need not dominate
// the return, nor be the latest values there): both calls get the union over the calls,
// counts up to 7 + 16, not 4 + 16 for the first.
TEST(VectorComponents, TrapLocalVectorInTheCallKeepsItsUnion) {
  const std::string helper =
      "uvec2 widths(uint n) {\n  uvec2 v = uvec2(0u);\n"
      "  for (uint i = 0u; i < 3u; i++) v = bitfieldExtract(pair, 0, int(n + i * 8u));\n"
      "  return v;\n}\n";
  EXPECT_EQ(ComponentRanges(helper,
                            "uvec2 w = widths(4u);\nprobe[w.x] = 0u;\n"
                            "uvec2 u = widths(data[0] & 7u);\nprobe[u.y] = 0u;"),
            (Ranges{test::Range(0, 8388607), test::Range(0, 8388607)}));
}

TEST(VectorComponents, SpecializationConstantComponent) {
  Ranges ranges =
      ComponentRanges("layout(constant_id = 0) const uint K = 3u;\n",
                      "uvec2 s = uvec2(K, 1u) + gl_LocalInvocationID.xy;\nprobe[s.x] = 0u;");
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_NE(ranges[0].reason.find("specialization constant without a value"), std::string::npos)
      << ranges[0];
}

// Traps: an operation whose component could leave the range is not followed (a
// subtraction that may wrap, a value read from memory, a loop-carried vector).
TEST(VectorComponents, TrapsStayUnproven) {
  Ranges wrap = ComponentRanges("",
                                "uvec2 d = gl_LocalInvocationID.xy - uvec2(1u);\n"
                                "probe[d.x] = 0u;");
  ASSERT_EQ(wrap.size(), 1u);
  EXPECT_FALSE(wrap[0].valid) << wrap[0];
  Ranges memory = ComponentRanges("", "uvec2 p = pair + uvec2(1u);\nprobe[p.x] = 0u;");
  ASSERT_EQ(memory.size(), 1u);
  EXPECT_NE(memory[0].reason.find("value read from Uniform memory"), std::string::npos)
      << memory[0];
  Ranges carried = ComponentRanges("",
                                   "uvec2 v = gl_LocalInvocationID.xy;\n"
                                   "for (uint i = 0u; i < data[0]; ++i) v = v >> 1u;\n"
                                   "probe[v.x] = 0u;");
  ASSERT_EQ(carried.size(), 1u);
  EXPECT_FALSE(carried[0].valid) << carried[0];
}

}  // namespace
}  // namespace glint::spirv
