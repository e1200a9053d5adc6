// Tests of four full-mode rules of the integer range analysis, each with cases it
// proves and traps it must leave unproven (reference mode is checked to stay as it was):
//   - call results, also for one call's own arguments
//     (SPIRV/analysis/range/integer_range_call_results.cpp)
//   - 8- and 16-bit integers and width conversions (integer_range_widths.cpp)
//   - OpSwitch case guards (range_guard_switch.cpp)
//   - vector comparison guards under all() / any() (range_guard_vectors.cpp)
// Each case is a compute shader whose indices into `probe[]` are the values under test.
#include <gtest/gtest.h>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/range/integer_range_analysis.h"
#include "SPIRV/ir/parser.h"
#include "support/range_probe.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

using Ranges = std::vector<test::ProbedRange>;

#define MEMORY_REASON_TEXT "value read from Uniform memory (data the application provides)"

// The ranges of the indices into `probe[]`, in module order.
Ranges ProbeRanges(const std::vector<uint32_t>& words, RangeAnalysisMode mode) {
  Options options;
  options.range_analysis = mode;
  return test::ObjectRanges(words, options);
}

// A compute shader: `extensions`, the Data and Probe buffers, `helpers`, then main.
Ranges ShaderRanges(const std::string& extensions, const std::string& helpers,
                    const std::string& body, RangeAnalysisMode mode = RangeAnalysisMode::kFull) {
  std::string source = "#version 440\n" + extensions +
                       "layout(local_size_x = 64) in;\n"
                       "layout(std430, binding = 0) buffer Data { uint data[]; };\n"
                       "layout(std430, binding = 1) buffer Probe { uint probe[]; };\n" +
                       helpers + "\nvoid main() {\n" + body + "\n}\n";
  return ProbeRanges(test::CompileGlsl(source, "comp"), mode);
}

// --- Call results --------------------------------------------------------------------

TEST(CallResults, GuardInTheCalleeBoundsWhatItReturns) {
  const std::string pick = "uint pick(uint x) { if (x >= 8u) return 0u; return x; }";
  EXPECT_EQ(ShaderRanges("", pick, "probe[pick(data[0])] = 0u;"), (Ranges{test::Range(0, 7)}));
  EXPECT_EQ(ShaderRanges("", pick, "probe[pick(data[0])] = 0u;", RangeAnalysisMode::kReference),
            (Ranges{test::NoRange("function call results have no range")}));
}

TEST(CallResults, UnionOfEveryReturn) {
  EXPECT_EQ(ShaderRanges("", "uint f(uint x) { if (x == 0u) return 3u; return 10u; }",
                         "probe[f(data[0])] = 0u;"),
            (Ranges{test::Range(3, 10)}));
}

TEST(CallResults, NestedCallsAndAGuardInTheCaller) {
  const std::string helpers =
      "uint inner() { return data[0] & 7u; }\nuint outer() { return inner() + 1u; }\n"
      "uint wide() { return data[1]; }";
  EXPECT_EQ(ShaderRanges("", helpers, "probe[outer()] = 0u;"), (Ranges{test::Range(1, 8)}));
  // The caller's own test on the result narrows it (the result is one SSA value).
  EXPECT_EQ(ShaderRanges("", helpers, "uint k = wide();\nif (k < 4u) probe[k] = 0u;"),
            (Ranges{test::Range(0, 3)}));
}

TEST(CallResults, ChainOfTenCallsIsFollowed) {
  // Each call's result is memoized before its caller's: the chain does not nest.
  std::string helpers = "uint f0() { return data[0] & 3u; }\n";
  for (int i = 1; i < 10; ++i)
    helpers += "uint f" + std::to_string(i) + "() { return f" + std::to_string(i - 1) + "(); }\n";
  EXPECT_EQ(ShaderRanges("", helpers, "probe[f9()] = 0u;"), (Ranges{test::Range(0, 3)}));
}

TEST(CallResults, TrapOneReturnUnbounded) {
  EXPECT_EQ(
      ShaderRanges("", "uint f(uint x) { if (x < 8u) return x; return data[1]; }",
                   "probe[f(data[0])] = 0u;"),
      (Ranges{test::NoRange("a value the function returns has no range: " MEMORY_REASON_TEXT)}));
  // Past the guard x >= 8, so x - 8u cannot wrap: the union is [0, 2^32 - 9], not [0, 7].
  EXPECT_EQ(ShaderRanges("", "uint f(uint x) { if (x < 8u) return x; return x - 8u; }",
                         "probe[f(data[0])] = 0u;"),
            (Ranges{test::Range(0, 4294967287)}));
  // The caller's argument range does not bound the result (not followed per call site).
  EXPECT_EQ(ShaderRanges("", "uint id(uint x) { return x; }", "probe[id(data[0])] = 0u;"),
            (Ranges{test::NoRange("a value the function returns has no range: an argument passed "
                                  "to the parameter has no range: " MEMORY_REASON_TEXT)}));
}

// A call's own arguments: the returned expression re-evaluated with the parameter's
// range at this call, met with the union over every call.
TEST(CallResults, ThisCallsArgumentsNarrowTheResult) {
  // glslang passes `in` parameters through a variable (a parameter pointer) and `const
  // in` ones by value; both are narrowed. The other calls pass wider values.
  const std::string helpers =
      "shared uint mask;\n"
      "uint count(uint n) { return bitCount(bitfieldExtract(mask, 0, int(n))); }\n"
      "uint twice(const uint x) { return x * 2u; }\n"
      "uint lane() { return count(gl_LocalInvocationIndex & 31u); }";
  EXPECT_EQ(ShaderRanges("", helpers,
                         "probe[lane()] = 0u;\nprobe[count(data[0] & 15u)] = 0u;\n"
                         "probe[count(32u)] = 0u;\nprobe[twice(data[1] & 7u)] = 0u;\n"
                         "probe[twice(data[2] & 1023u)] = 0u;"),
            (Ranges{test::Range(0, 31), test::Range(0, 15), test::Range(0, 32), test::Range(0, 14),
                    test::Range(0, 2046)}));
  // A guard around the call narrows its argument there.
  EXPECT_EQ(ShaderRanges("", helpers,
                         "uint k = data[0];\nif (k < 5u) probe[twice(k)] = 0u;\n"
                         "probe[twice(data[2] & 1023u)] = 0u;"),
            (Ranges{test::Range(0, 8), test::Range(0, 2046)}));
}

// The parameter's range at this call holds only where the callee reads what the call
// passed: a parameter the callee also writes is not given this call's range (nor any).
TEST(CallResults, TrapParameterWrittenInTheCallee) {
  EXPECT_EQ(ShaderRanges("", "uint keep(uint x) { uint y = x; x = 40u; return y + x; }",
                         "probe[keep(data[0] & 3u)] = 0u;"),
            (Ranges{test::NoRange("a value the function returns has no range: function "
                                  "parameter has no range: the parameter is not only loaded "
                                  "in its function")}));
}

// A function that calls itself (invalid for shaders, so glslang cannot write it): the
// result is refused, and the evaluation ends. `f` returns 3 or its own result + 1.
TEST(CallResults, TrapRecursionIsRefused) {
  const char* text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %r "r"
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%uint_3 = OpConstant %uint 3
%false = OpConstantFalse %bool
%fn = OpTypeFunction %void
%fn_uint = OpTypeFunction %uint
%f = OpFunction %uint None %fn_uint
%f_entry = OpLabel
OpSelectionMerge %f_merge None
OpBranchConditional %false %f_again %f_merge
%f_again = OpLabel
%inner = OpFunctionCall %uint %f
%plus = OpIAdd %uint %inner %uint_1
OpReturnValue %plus
%f_merge = OpLabel
OpReturnValue %uint_3
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%r = OpFunctionCall %uint %f
OpReturn
OpFunctionEnd
)";
  std::vector<uint32_t> words = test::Assemble(text);
  ASSERT_FALSE(words.empty());
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  AnalysisContext analyses(*module);
  IntegerRangeAnalysis& analysis = analyses.GetIntegerRanges({RangeAnalysisMode::kFull, 0});
  uint32_t r = 0;
  for (const Instruction& inst : module->debug_names)
    if (inst.StringAt(1) == "r") r = inst.words[0];
  IntegerRange range = analysis.RangeOf(r);
  EXPECT_FALSE(range.valid);
  // The evaluation driver meets the cycle (f's result depends on itself) and refuses it.
  EXPECT_EQ(range.reason.rfind("a value the function returns has no range: cyclic definition", 0),
            0u)
      << range.reason;
}

// --- Parameters the callee writes ----------------------------------------------------

// `count` is written (count++), so its loads have no range of their own; the test on
// one load bounds the loads that nothing writes between (canonical_values.cpp).
TEST(WrittenParameters, ATestOnAnInoutCounterBoundsItsUsesBeforeTheNextWrite) {
  EXPECT_EQ(
      ShaderRanges("",
                   "void push(inout uint count) {\n"
                   "  if (count < 8u) { probe[4u * count] = 0u; probe[4u * count + 3u] = 0u; }\n"
                   "  count++;\n}",
                   "uint c = data[0];\npush(c);\npush(c);"),
      (Ranges{test::Range(0, 28), test::Range(3, 31)}));
}

// Trap: the counter is written between its test and its use.
TEST(WrittenParameters, TrapWrittenBetweenTheTestAndTheUse) {
  EXPECT_EQ(ShaderRanges("",
                         "void push(inout uint count) {\n"
                         "  if (count < 8u) { count += 1u; probe[count] = 0u; }\n}",
                         "uint c = data[0];\npush(c);"),
            (Ranges{test::NoRange("function parameter has no range: the parameter is not only "
                                  "loaded in its function")}));
}

// --- 8- and 16-bit integers ---------------------------------------------------------

const char kNarrow[] =
    "#extension GL_EXT_shader_explicit_arithmetic_types : require\n"
    "#extension GL_EXT_shader_8bit_storage : require\n"
    "#extension GL_EXT_shader_16bit_storage : require\n";
const char kSmall[] =
    "layout(std430, binding = 2) buffer Small { uint8_t b8[4]; int8_t s8[4]; uint16_t h16[4]; "
    "int16_t t16[4]; };\n";

TEST(NarrowIntegers, LoadedValuesHaveTheirTypesRange) {
  EXPECT_EQ(ShaderRanges(kNarrow, kSmall,
                         "probe[uint(b8[0])] = 0u;\nprobe[uint(h16[1])] = 0u;\n"
                         "probe[int(t16[2]) + 32768] = 0u;\nprobe[int(s8[3]) + 128] = 0u;"),
            (Ranges{test::Range(0, 255), test::Range(0, 65535), test::Range(0, 65535),
                    test::Range(0, 255)}));
  EXPECT_EQ(
      ShaderRanges(kNarrow, kSmall, "probe[uint(b8[0])] = 0u;", RangeAnalysisMode::kReference),
      (Ranges{test::NoRange("OpUConvert is not supported")}));
}

TEST(NarrowIntegers, TruncationKeepsOnlyWhatFits) {
  EXPECT_EQ(ShaderRanges(kNarrow, "",
                         "probe[uint(uint8_t(data[0] & 15u))] = 0u;\n"
                         "probe[uint(uint16_t(data[1] & 0x1FFFFu))] = 0u;\n"
                         "probe[uint(uint8_t(data[2]))] = 0u;"),
            (Ranges{test::Range(0, 15), test::Range(0, 65535), test::Range(0, 255)}));
}

TEST(NarrowIntegers, TrapsWrapAndSignExtension) {
  // 8-bit arithmetic wraps: a + 250 is not [250, 265], only the type's range.
  EXPECT_EQ(ShaderRanges(kNarrow, "",
                         "uint8_t a = uint8_t(data[0] & 15u);\nuint8_t s = a + uint8_t(250);\n"
                         "probe[uint(s)] = 0u;"),
            (Ranges{test::Range(0, 255)}));
  // A negative i8 sign-extended into a uint is huge: no range.
  Ranges sign = ShaderRanges(kNarrow, kSmall, "probe[uint(s8[0])] = 0u;");
  ASSERT_EQ(sign.size(), 1u);
  EXPECT_FALSE(sign[0].valid) << sign[0];
}

TEST(NarrowIntegers, SixtyFourBitIsRefused) {
  EXPECT_EQ(ShaderRanges("#extension GL_ARB_gpu_shader_int64 : require\n", "",
                         "probe[uint(uint64_t(data[0]) & 7ul)] = 0u;"),
            (Ranges{test::NoRange("conversion of a 64-bit integer (no range)")}));
}

// --- OpSwitch case guards -----------------------------------------------------------

TEST(SwitchGuards, CaseTargetHoldsTheSelectorToItsLiterals) {
  EXPECT_EQ(ShaderRanges("", "",
                         "uint x = data[0];\nswitch (x) {\ncase 3u: probe[x] = 0u; break;\n"
                         "case 5u: case 9u: probe[x] = 1u; break;\ndefault: break;\n}"),
            (Ranges{test::Range(3, 3), test::Range(5, 9)}));
  EXPECT_EQ(ShaderRanges("", "",
                         "uint x = data[0];\nswitch (x) {\ncase 3u: probe[x] = 0u; break;\n"
                         "default: break;\n}",
                         RangeAnalysisMode::kReference),
            (Ranges{test::NoRange("load from a local variable that is not a for-loop control "
                                  "variable (no update in a continuing block)")}));
}

TEST(SwitchGuards, ThroughAConstantOffset) {
  EXPECT_EQ(ShaderRanges("", "",
                         "uint x = data[0] & 15u;\nswitch (x + 1u) {\n"
                         "case 4u: probe[x] = 0u; break;\ndefault: break;\n}"),
            (Ranges{test::Range(3, 3)}));
}

TEST(SwitchGuards, DefaultMovesAnEndPastTheLiterals) {
  EXPECT_EQ(ShaderRanges("", "",
                         "uint x = data[0] & 9u;\nswitch (x) {\ncase 0u: case 1u: case 9u: "
                         "break;\ncase 4u: break;\ndefault: probe[x] = 0u; break;\n}"),
            (Ranges{test::Range(2, 8)}));
}

TEST(SwitchGuards, TrapsFallthroughAndSharedDefault) {
  // Case 4 is also reached by falling through from case 3: x may be 3 there.
  EXPECT_EQ(ShaderRanges("", "",
                         "uint x = data[0] & 15u;\nswitch (x) {\ncase 3u: data[1] = 0u;\n"
                         "case 4u: probe[x] = 0u; break;\ndefault: break;\n}"),
            (Ranges{test::Range(0, 15)}));
  // The default target is also case 7's: x may be anything there.
  EXPECT_EQ(ShaderRanges("", "",
                         "uint x = data[0] & 15u;\nswitch (x) {\ncase 2u: break;\n"
                         "case 7u: default: probe[x] = 0u; break;\n}"),
            (Ranges{test::Range(0, 15)}));
  // A default whose literals are inside the range moves no end: nothing is excluded.
  EXPECT_EQ(ShaderRanges("", "",
                         "uint x = data[0] & 15u;\nswitch (x) {\ncase 5u: break;\n"
                         "default: probe[x] = 0u; break;\n}"),
            (Ranges{test::Range(0, 15)}));
}

// --- Vector comparison guards -------------------------------------------------------

TEST(VectorGuards, EarlyReturnOnAnyBoundsEachComponent) {
  EXPECT_EQ(
      ShaderRanges("", "",
                   "uvec2 gid = gl_GlobalInvocationID.xy;\n"
                   "if (any(greaterThanEqual(gid, uvec2(64u, 32u)))) return;\n"
                   "probe[gid.x] = 0u;\nprobe[gid.y] = 1u;\nprobe[gid.x * 32u + gid.y] = 2u;"),
      (Ranges{test::Range(0, 63), test::Range(0, 31), test::Range(0, 2047)}));
}

TEST(VectorGuards, AllLessThanOnAnSsaVectorAndSigned) {
  EXPECT_EQ(ShaderRanges("", "",
                         "ivec2 p = ivec2(data[0], data[1]);\n"
                         "if (all(lessThan(p, ivec2(8))) && all(greaterThanEqual(p, ivec2(0))))\n"
                         "  probe[p.x + p.y] = 0u;"),
            (Ranges{test::Range(0, 14)}));
  // A vector that is not built from scalars: the extract of the same loaded value.
  EXPECT_EQ(ShaderRanges("", "layout(std430, binding = 3) buffer Vec { uvec2 v; };",
                         "uvec2 w = v;\nif (all(lessThan(w, uvec2(16u)))) probe[w.y] = 0u;"),
            (Ranges{test::Range(0, 15)}));
}

TEST(VectorGuards, Traps) {
  // all() false: some component fails, not known which.
  EXPECT_EQ(ShaderRanges("", "",
                         "uvec2 g = gl_GlobalInvocationID.xy;\n"
                         "if (all(lessThan(g, uvec2(8u)))) return;\nprobe[g.x & 255u] = 0u;"),
            (Ranges{test::Range(0, 255)}));
  // The local is overwritten after its test: the use reads another store.
  EXPECT_EQ(
      ShaderRanges("", "",
                   "uvec2 g = uvec2(data[0], data[1]);\n"
                   "if (any(greaterThanEqual(g, uvec2(8u)))) return;\n"
                   "g.x = data[2];\nprobe[g.x] = 0u;"),
      (Ranges{test::NoRange("a value stored to the local has no range: " MEMORY_REASON_TEXT)}));
  // Re-loaded from the buffer: another load, not the tested value.
  EXPECT_EQ(ShaderRanges("", "layout(std430, binding = 3) buffer Vec { uvec2 v; };",
                         "if (all(lessThan(v, uvec2(16u)))) probe[v.y] = 0u;"),
            (Ranges{test::NoRange(MEMORY_REASON_TEXT)}));
  // A signed test does not bound the unsigned reading.
  EXPECT_EQ(
      ShaderRanges("", "",
                   "uvec2 g = uvec2(data[0], data[1]);\n"
                   "if (all(lessThan(ivec2(g), ivec2(8)))) probe[g.x] = 0u;"),
      (Ranges{test::NoRange("a value stored to the local has no range: " MEMORY_REASON_TEXT)}));
}

}  // namespace
}  // namespace glint::spirv
