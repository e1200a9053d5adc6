// Tests of the integer range analysis: every example of the reference text (supported
// and unsupported) in both modes, each loop requirement, each operator's overflow edges
// at the i32 / u32 extremes, each conversion rule, the full-mode extensions, and the
// iterative evaluation of a long chain.
//
// Each case is a compute shader whose indices into the `Probe` buffer are the values
// under test: the range report (passes/range_report) gives their ranges in order.
#include <gtest/gtest.h>

#include <array>
#include <ostream>
#include <random>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/range/integer_range_analysis.h"
#include "SPIRV/ir/parser.h"
#include "support/range_probe.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// The ranges of the indices into `probe[]`, in module order.
std::vector<test::ProbedRange> ProbeRanges(const std::vector<uint32_t>& words,
                                           RangeAnalysisMode mode, uint32_t subgroup_size = 0) {
  Options options;
  options.range_analysis = mode;
  options.subgroup_size = subgroup_size;
  return test::ObjectRanges(words, options);
}

std::string ComputeShader(const std::string& local_size, const std::string& body) {
  return "#version 440\n"
         "layout(" +
         local_size +
         ") in;\n"
         "layout(std430, binding = 0) buffer Data { uint data[]; };\n"
         "layout(std430, binding = 1) buffer Probe { uint probe[]; };\n"
         "void main() {\n" +
         body + "\n}\n";
}

using Ranges = std::vector<test::ProbedRange>;

// What a value read from the shaders' `data` buffer (Uniform storage) has no range for.
#define MEMORY_REASON_TEXT "value read from Uniform memory (data the application provides)"

struct RangeCase {
  const char* name;
  const char* local_size;
  const char* body;
  Ranges reference;
  Ranges full;  // empty: same as reference
};

// Failure messages name the case, not its bytes.
void PrintTo(const RangeCase& c, std::ostream* out) { *out << c.name; }

class IntegerRangeGlsl : public ::testing::TestWithParam<RangeCase> {};

TEST_P(IntegerRangeGlsl, MatchesExpectedRanges) {
  const RangeCase& c = GetParam();
  std::vector<uint32_t> words = test::CompileGlsl(ComputeShader(c.local_size, c.body), "comp");
  EXPECT_EQ(ProbeRanges(words, RangeAnalysisMode::kReference), c.reference) << c.body;
  EXPECT_EQ(ProbeRanges(words, RangeAnalysisMode::kFull), c.full.empty() ? c.reference : c.full)
      << c.body;
  Ranges off(c.reference.size(), test::NoRange("range analysis is off"));
  EXPECT_EQ(ProbeRanges(words, RangeAnalysisMode::kOff), off);
}

std::string CaseName(const ::testing::TestParamInfo<RangeCase>& info) { return info.param.name; }

// --- The reference text's examples -----------------------------------------------

// @workgroup_size(16, 8, 1): lid.x, lid.y, local_invocation_index.
INSTANTIATE_TEST_SUITE_P(
    ReferenceBuiltins, IntegerRangeGlsl,
    ::testing::Values(RangeCase{"WorkgroupSize16x8",
                                "local_size_x = 16, local_size_y = 8",
                                "probe[gl_LocalInvocationID.x] = 0u;\n"
                                "probe[gl_LocalInvocationID.y] = 0u;\n"
                                "probe[gl_LocalInvocationIndex] = 0u;",
                                {test::Range(0, 15), test::Range(0, 7), test::Range(0, 127)},
                                {}},
                      RangeCase{"GlobalInvocationIdHasNoRange",
                                "local_size_x = 16",
                                "probe[gl_GlobalInvocationID.x] = 0u;\n"
                                "probe[gl_WorkGroupID.x] = 0u;",
                                {test::NoRange("built-in GlobalInvocationId has no range"),
                                 test::NoRange("built-in WorkgroupId has no range")},
                                {test::NoRange("built-in GlobalInvocationId has no range without a "
                                               "promised dispatch size (--max-workgroups)"),
                                 test::NoRange("built-in WorkgroupId has no range without a "
                                               "promised dispatch size (--max-workgroups)")}}),
    CaseName);

INSTANTIATE_TEST_SUITE_P(
    ReferenceLoops, IntegerRangeGlsl,
    ::testing::Values(
        RangeCase{"IntLessThan",
                  "local_size_x = 64",
                  "for (int i = 0; i < 10; i++) { probe[i] = 0u; }",
                  {test::Range(0, 9)},
                  {}},
        RangeCase{"UintLessEqualStep6",
                  "local_size_x = 64",
                  "for (uint i = 0u; i <= 16u; i += 6u) { probe[i] = 0u; }",
                  {test::Range(0, 12)},
                  {}},
        RangeCase{"IntDecreasing",
                  "local_size_x = 64",
                  "for (int i = 10; i > 0; i--) { probe[i] = 0u; }",
                  {test::Range(1, 10)},
                  {}},
        RangeCase{"UintDecreasingStep2",
                  "local_size_x = 64",
                  "for (uint i = 10u; i >= 1u; i -= 2u) { probe[i] = 0u; }",
                  {test::Range(2, 10)},
                  {}},
        RangeCase{"StartsAtLocalId",
                  "local_size_x = 64",
                  "for (uint i = gl_LocalInvocationID.x; i < 256u; i += 64u) { probe[i] = 0u; }",
                  {test::Range(0, 255)},
                  {}},
        RangeCase{"Nested",
                  "local_size_x = 64",
                  "for (uint i = 0u; i < 4u; i++) {\n  probe[i] = 0u;\n"
                  "  for (uint j = i * 2u; j < 8u; j++) { probe[j] = 0u; }\n}",
                  {test::Range(0, 3), test::Range(0, 7)},
                  {}},
        RangeCase{
            "AlwaysTrueWraps",
            "local_size_x = 64",
            "for (uint i = 10u; i >= 0u; i--) { probe[i] = 0u; }",
            {test::NoRange("loop condition is always true, so the loop variable can wrap")},
            {test::NoRange("local is updated from its own value in a loop without a guard that "
                           "keeps it "
                           "above the type's minimum")}},
        RangeCase{"DirectionMismatch",
                  "local_size_x = 64",
                  "for (int i = 0; i > -10; i++) { probe[i] = 0u; }",
                  {test::NoRange("loop direction does not match the comparison (increasing "
                                 "variable compared with > or >=)")},
                  {test::Range(-9, 2147483647)}},
        RangeCase{"NegativeStep",
                  "local_size_x = 64",
                  "for (int i = 10; i > 0; i += -1) { probe[i] = 0u; }",
                  {test::NoRange("loop step is not a positive constant")},
                  {test::Range(1, 10)}},
        RangeCase{"BoundNotConstant",
                  "local_size_x = 64",
                  "uint n = data[0];\nfor (uint i = 0u; i < n; i++) { probe[i] = 0u; }",
                  {test::NoRange("loop bound is not a constant")},
                  {test::Range(0, 4294967295)}},
        RangeCase{"ModifiedInBody",
                  "local_size_x = 64",
                  "for (int i = 0; i < 10; i += 2) { i++; probe[i] = 0u; }",
                  {test::NoRange("loop variable is stored outside its initializer and continuing "
                                 "block")},
                  {test::Range(-2147483647, 10)}},
        RangeCase{"UpdateIsMultiplication",
                  "local_size_x = 64",
                  "for (int i = 0; i < 10; i *= 2) { probe[i] = 0u; }",
                  {test::NoRange("loop update is not an addition or subtraction of a constant")},
                  {test::Range(0, 0)}},  // 0 * 2 stays 0: the fixed point settles at once
        RangeCase{"LoopWithBreakNotForPattern",
                  "local_size_x = 64",
                  "for (int i = 0; ; i++) { if (i >= 10) break; probe[i] = 0u; }",
                  {test::NoRange("loop condition is not a single comparison of the loop variable")},
                  {test::Range(0, 9)}}),
    CaseName);

INSTANTIATE_TEST_SUITE_P(
    ReferenceModulo, IntegerRangeGlsl,
    ::testing::Values(
        RangeCase{"Examples",
                  "local_size_x = 64",
                  "uint x = data[0];\n"
                  "probe[x % 16u] = 0u;\n"
                  "probe[(gl_LocalInvocationID.x + 3u) % 4u] = 0u;\n"
                  "probe[gl_LocalInvocationID.x % 128u] = 0u;",
                  {test::Range(0, 15), test::Range(0, 3), test::Range(0, 63)},
                  {}},
        RangeCase{"SameQuotientKeepsBounds",
                  "local_size_x = 8",
                  "probe[(gl_LocalInvocationID.x + 16u) % 32u] = 0u;",
                  {test::Range(16, 23)},
                  {}},
        RangeCase{"IntNeedsRange",
                  "local_size_x = 8",
                  "int x = int(data[0]);\nprobe[x % 16] = 0u;\n"
                  "probe[(int(gl_LocalInvocationID.x) - 1) % 4] = 0u;",
                  {test::NoRange("i32 modulo of a value with no range: load from a "
                                 "local variable that is not a for-loop control variable (no "
                                 "update in a continuing block)"),
                   test::NoRange("i32 modulo of a possibly negative value")},
                  // Either sign (GLSL leaves it open; drivers differ).
                  {test::Range(-15, 15), test::Range(-3, 3)}},
        RangeCase{"DivisorNotSingleValue",
                  "local_size_x = 8",
                  "probe[data[0] % (gl_LocalInvocationID.x + 1u)] = 0u;",
                  {test::NoRange("modulo divisor is not a single positive value")},
                  {test::Range(0, 7)}}),
    CaseName);

INSTANTIATE_TEST_SUITE_P(
    ReferenceMinMax, IntegerRangeGlsl,
    ::testing::Values(RangeCase{"Examples",
                                "local_size_x = 64",
                                "int x = int(data[0]);\n"
                                "probe[min(x, 15)] = 0u;\n"
                                "probe[max(x, 0)] = 0u;\n"
                                "probe[min(max(x, 0), 15)] = 0u;\n"
                                "uint y = data[1];\n"
                                "probe[min(y, 63u)] = 0u;",
                                {test::Range(-2147483648, 15), test::Range(0, 2147483647),
                                 test::Range(0, 15), test::Range(0, 63)},
                                {}},
                      RangeCase{"WholeDomainIsNoRange",
                                "local_size_x = 64",
                                "int x = int(data[0]);\n"
                                "probe[max(x, -2147483647 - 1)] = 0u;\n"
                                "probe[min(data[1], 4294967295u)] = 0u;\n"
                                "probe[min(data[1], data[2])] = 0u;",
                                {test::NoRange("max result covers the whole i32 range"),
                                 test::NoRange("min result covers the whole u32 range"),
                                 test::NoRange(MEMORY_REASON_TEXT)},
                                {}}),
    CaseName);

// --- Loop requirements one by one ------------------------------------------------

INSTANTIATE_TEST_SUITE_P(
    LoopRequirements, IntegerRangeGlsl,
    ::testing::Values(
        RangeCase{"InitializerWithoutRange",
                  "local_size_x = 64",
                  "for (uint i = data[0]; i < 10u; i++) { probe[i] = 0u; }",
                  {test::NoRange("loop initializer has no range: " MEMORY_REASON_TEXT)},
                  {}},
        RangeCase{"ConstantOnTheLeft",
                  "local_size_x = 64",
                  "for (int i = 0; 10 > i; i++) { probe[i] = 0u; }",
                  {test::Range(0, 9)},
                  {}},
        RangeCase{"StepOnTheLeft",
                  "local_size_x = 64",
                  "for (int i = 0; i < 10; i = 3 + i) { probe[i] = 0u; }",
                  {test::Range(0, 9)},
                  {}},
        RangeCase{"StepNotConstant",
                  "local_size_x = 64",
                  "int s = int(data[0]);\nfor (int i = 0; i < 10; i += s) { probe[i] = 0u; }",
                  {test::NoRange("loop step is not a constant")},
                  {test::Range(-2147483648, 9)}},
        RangeCase{"CompoundCondition",
                  "local_size_x = 64",
                  "for (int i = 0; i < 10 && data[0] > 0u; i++) { probe[i] = 0u; }",
                  {test::NoRange("loop condition is not a single comparison of the loop variable")},
                  {test::Range(0, 9)}},
        RangeCase{
            "EqualityComparison",
            "local_size_x = 64",
            "for (int i = 0; i != 10; i++) { probe[i] = 0u; }",
            {test::NoRange("loop condition is not <, <=, > or >= between the loop variable "
                           "and a value")},
            {test::NoRange("local is updated from its own value in a loop without a guard that "
                           "keeps it "
                           "below the type's maximum")}},
        // Full mode: the loop's exit counter (loop_exit_counters.cpp) says the body runs
        // 0 times, so i is never stepped there: [0, 0] holds (the body never runs).
        RangeCase{"AlwaysFalseUnsigned",
                  "local_size_x = 64",
                  "for (uint i = 0u; i < 0u; i++) { probe[i] = 0u; }",
                  {test::NoRange("loop condition is always false")},
                  {test::Range(0, 0)}},
        RangeCase{"AlwaysFalseSigned",
                  "local_size_x = 64",
                  "for (int i = 0; i > 2147483647; i--) { probe[i] = 0u; }",
                  {test::NoRange("loop condition is always false")},
                  {test::Range(0, 0)}},
        RangeCase{
            "AlwaysTrueUpperUnsigned",
            "local_size_x = 64",
            "for (uint i = 0u; i <= 4294967295u; i++) { probe[i] = 0u; }",
            {test::NoRange("loop condition is always true, so the loop variable can wrap")},
            {test::NoRange("local is updated from its own value in a loop without a guard that "
                           "keeps it "
                           "below the type's maximum")}},
        RangeCase{"DecreasingWithLess",
                  "local_size_x = 64",
                  "for (int i = 10; i < 20; i--) { probe[i] = 0u; }",
                  {test::NoRange("loop direction does not match the comparison (decreasing "
                                 "variable compared with < or <=)")},
                  {test::Range(-2147483648, 19)}},
        RangeCase{"BodyNeverRunsIncreasing",
                  "local_size_x = 64",
                  "for (int i = 10; i < 5; i++) { probe[i] = 0u; }",
                  {test::NoRange("loop body never runs")},
                  {}},
        RangeCase{"BodyNeverRunsDecreasing",
                  "local_size_x = 64",
                  "for (int i = 3; i >= 5; i--) { probe[i] = 0u; }",
                  {test::NoRange("loop body never runs")},
                  {}},
        RangeCase{"OverflowPastLastValueUnsigned",
                  "local_size_x = 64",
                  "for (uint i = 0u; i <= 4294967290u; i += 16u) { probe[i] = 0u; }",
                  {test::NoRange("loop variable may overflow past its last value")},
                  {}},
        RangeCase{"LastValueFitsUnsigned",
                  "local_size_x = 64",
                  "for (uint i = 0u; i <= 4294967279u; i += 16u) { probe[i] = 0u; }",
                  {test::Range(0, 4294967264)},
                  {}},
        RangeCase{"OverflowPastLastValueSignedDown",
                  "local_size_x = 64",
                  "for (int i = 0; i >= -2147483647; i -= 3) { probe[i] = 0u; }",
                  {test::NoRange("loop variable may overflow past its last value")},
                  {}},
        RangeCase{"LastValueFitsSignedDown",
                  "local_size_x = 64",
                  "for (int i = 0; i >= -2147483646; i -= 2) { probe[i] = 0u; }",
                  {test::Range(-2147483646, 0)},
                  {}},
        RangeCase{
            "LoadAfterLoopHasNoRange",
            "local_size_x = 64",
            "int i;\nfor (i = 0; i < 10; i++) { probe[i] = 0u; }\nprobe[i] = 1u;",
            {test::Range(0, 9), test::NoRange("load of the loop variable outside the loop body")},
            {test::Range(0, 9), test::Range(10, 2147483647)}},
        RangeCase{"InitRangeMaxAboveBound",
                  "local_size_x = 64",
                  "for (uint i = gl_LocalInvocationID.x; i < 10u; i += 4u) { probe[i] = 0u; }",
                  {test::Range(0, 9)},
                  {}},
        RangeCase{"InitNarrowLandsBelowBound",
                  "local_size_x = 2",
                  "for (uint i = gl_LocalInvocationID.x; i < 11u; i += 4u) { probe[i] = 0u; }",
                  {test::Range(0, 9)},
                  {}},
        RangeCase{
            "ContinueBlockDoesMore",
            "local_size_x = 64",
            "for (int i = 0; i < 10; i++, probe[0] = 1u) { probe[i] = 0u; }",
            {test::NoRange("continuing block is not exactly: load, add or sub, store, branch"),
             test::Range(0, 0)},
            {test::Range(0, 9), test::Range(0, 0)}}),
    CaseName);

// --- Operators at the edges ------------------------------------------------------

INSTANTIATE_TEST_SUITE_P(
    Operators, IntegerRangeGlsl,
    ::testing::Values(
        RangeCase{"AddU32Edge",
                  "local_size_x = 64",
                  "#define x gl_LocalInvocationID.x\n"
                  "probe[x + 4294967232u] = 0u;\nprobe[x + 4294967233u] = 0u;",
                  {test::Range(4294967232, 4294967295), test::NoRange("u32 addition may overflow")},
                  {}},
        RangeCase{"AddI32Edge",
                  "local_size_x = 64",
                  "#define x int(gl_LocalInvocationID.x)\n"
                  "probe[x + 2147483584] = 0u;\nprobe[x + 2147483585] = 0u;",
                  {test::Range(2147483584, 2147483647), test::NoRange("i32 addition may overflow")},
                  {}},
        RangeCase{"SubU32",
                  "local_size_x = 64",
                  "#define x gl_LocalInvocationID.x\n"
                  "probe[(x + 1u) - 1u] = 0u;\nprobe[x - 1u] = 0u;",
                  {test::Range(0, 63), test::NoRange("u32 subtraction may underflow")},
                  {}},
        RangeCase{
            "SubI32Edge",
            "local_size_x = 64",
            "#define x int(gl_LocalInvocationID.x)\n"
            "probe[x - 2147483647 - 1] = 0u;\nprobe[(x - 1) - 2147483647 - 1] = 0u;",
            {test::Range(-2147483648, -2147483585), test::NoRange("i32 subtraction may overflow")},
            {}},
        RangeCase{"MulU32Edge",
                  "local_size_x = 64",
                  "#define x gl_LocalInvocationID.x\n"
                  "probe[x * 68174084u] = 0u;\nprobe[x * 68174085u] = 0u;",
                  {test::Range(0, 4294967292), test::NoRange("u32 multiplication may overflow")},
                  {}},
        RangeCase{"MulI32",
                  "local_size_x = 64",
                  "#define x int(gl_LocalInvocationID.x)\n"
                  "probe[x * 34087042] = 0u;\nprobe[x * 34087043] = 0u;\n"
                  "probe[(x - 1) * 2] = 0u;",
                  {test::Range(0, 2147483646), test::NoRange("i32 multiplication may overflow"),
                   test::NoRange("i32 multiplication with a possibly negative operand")},
                  {}},
        RangeCase{
            "Div",
            "local_size_x = 64, local_size_y = 4",
            "#define x gl_LocalInvocationID.x\n#define s int(x)\n"
            "probe[x / 4u] = 0u;\nprobe[x / (gl_LocalInvocationID.y + 2u)] = 0u;\n"
            "probe[x / gl_LocalInvocationID.y] = 0u;\nprobe[(s - 1) / 2] = 0u;\n"
            "probe[s / 2] = 0u;",
            {test::Range(0, 15), test::Range(0, 31),
             test::NoRange("division by a possibly non-positive divisor"),
             test::NoRange("i32 division of a possibly negative dividend"), test::Range(0, 31)},
            {}},
        RangeCase{"ShiftLeft",
                  "local_size_x = 64",
                  "#define x gl_LocalInvocationID.x\n"
                  "probe[x << 2u] = 0u;\nprobe[x << 26u] = 0u;\nprobe[x << 27u] = 0u;\n"
                  "probe[1u << x] = 0u;\nprobe[(int(x) - 1) << 1] = 0u;\n"
                  "probe[int(x) << 25] = 0u;\nprobe[int(x) << 26] = 0u;",
                  {test::Range(0, 252), test::Range(0, 4227858432),
                   test::NoRange("u32 left shift may overflow"),
                   test::NoRange("shift amount may be 32 or more"),
                   test::NoRange("i32 shift of a possibly negative value"),
                   test::Range(0, 2113929216), test::NoRange("i32 left shift may overflow")},
                  {}},
        RangeCase{"ShiftRight",
                  "local_size_x = 64, local_size_y = 4",
                  "#define x gl_LocalInvocationID.x\n"
                  "probe[x >> 2u] = 0u;\nprobe[(x + 64u) >> gl_LocalInvocationID.y] = 0u;\n"
                  "probe[int(x) >> 1] = 0u;\nprobe[(int(x) - 1) >> 1] = 0u;",
                  {test::Range(0, 15), test::Range(8, 127), test::Range(0, 31),
                   test::NoRange("i32 shift of a possibly negative value")},
                  {}}),
    CaseName);

// --- Conversions -------------------------------------------------------------------

INSTANTIATE_TEST_SUITE_P(
    Conversions, IntegerRangeGlsl,
    ::testing::Values(
        RangeCase{"IntToUint",
                  "local_size_x = 64",
                  "#define x int(gl_LocalInvocationID.x)\n"
                  "probe[uint(x)] = 0u;\nprobe[uint(x - 1)] = 0u;",
                  {test::Range(0, 63),
                   test::NoRange("conversion to u32 of a possibly negative i32 value")},
                  {}},
        RangeCase{"UintToInt",
                  "local_size_x = 64",
                  "#define x gl_LocalInvocationID.x\n"
                  "probe[int(x + 2147483584u)] = 0u;\nprobe[int(x + 2147483585u)] = 0u;",
                  {test::Range(2147483584, 2147483647),
                   test::NoRange("conversion to i32 of a u32 value that may exceed 2147483647")},
                  {}},
        RangeCase{"FloatConversionHasNoRange",
                  "local_size_x = 64",
                  "probe[uint(float(gl_LocalInvocationID.x))] = 0u;",
                  {test::NoRange("OpConvertFToU is not supported")},
                  {}}),
    CaseName);

// --- Full-mode extensions ------------------------------------------------------------

INSTANTIATE_TEST_SUITE_P(
    FullMode, IntegerRangeGlsl,
    ::testing::Values(
        RangeCase{"BitwiseAndMask",
                  "local_size_x = 64",
                  "probe[data[0] & 15u] = 0u;\nprobe[gl_LocalInvocationID.x & 255u] = 0u;\n"
                  "probe[int(data[0]) & -2] = 0u;",
                  {test::NoRange("bitwise AND is not supported in reference mode"),
                   test::NoRange("bitwise AND is not supported in reference mode"),
                   test::NoRange("bitwise AND is not supported in reference mode")},
                  {test::Range(0, 15), test::Range(0, 63),
                   test::NoRange("bitwise AND with a negative mask")}},
        // A low mask of values within one aligned block keeps their order: [77, 83] & 31
        // is [13, 19]; [64 + 0, 64 + 63] & 31 crosses a block (96) and is [0, 31]; a mask
        // that is not 2^k - 1 keeps [0, min(m, x.max)].
        RangeCase{"BitwiseAndLowMaskWithinOneBlock",
                  "local_size_x = 64",
                  "uint x = 77u + (gl_LocalInvocationID.x & 3u) + (gl_LocalInvocationID.x >> 4);\n"
                  "probe[x & 31u] = 0u;\nprobe[(64u + gl_LocalInvocationID.x) & 31u] = 0u;\n"
                  "probe[(96u + (gl_LocalInvocationID.x & 7u)) & 30u] = 0u;",
                  {test::NoRange("bitwise AND is not supported in reference mode"),
                   test::NoRange("bitwise AND is not supported in reference mode"),
                   test::NoRange("bitwise AND is not supported in reference mode")},
                  {test::Range(13, 19), test::Range(0, 31), test::Range(0, 30)}},
        RangeCase{"Clamp",
                  "local_size_x = 64",
                  "probe[clamp(int(data[0]), 0, 15)] = 0u;\n"
                  "probe[clamp(data[0], gl_LocalInvocationID.x, 100u)] = 0u;\n"
                  "probe[clamp(data[0], gl_LocalInvocationID.x, 40u)] = 0u;\n"
                  "probe[clamp(gl_LocalInvocationID.x, 0u, data[1])] = 0u;",
                  {test::NoRange("clamp is not supported in reference mode"),
                   test::NoRange("clamp is not supported in reference mode"),
                   test::NoRange("clamp is not supported in reference mode"),
                   test::NoRange("clamp is not supported in reference mode")},
                  {test::Range(0, 15), test::Range(0, 100),
                   test::NoRange("clamp bounds may cross (lo > hi)"),
                   // A bound without a range names its own root cause.
                   test::NoRange("clamp bounds have no range: value read from Uniform memory (data "
                                 "the application provides)")}},
        RangeCase{"UnsignedBitfieldExtract",
                  "local_size_x = 64",
                  "probe[bitfieldExtract(data[0], 3, 8)] = 0u;\n"
                  "probe[bitfieldExtract(data[0], 0, 32)] = 0u;\n"
                  "probe[uint(bitfieldExtract(int(data[0]), 0, 4))] = 0u;\n"
                  "probe[bitfieldExtract(data[0], 0, int(data[1]))] = 0u;",
                  {test::NoRange("unsigned bitfieldExtract is not supported in reference mode"),
                   test::NoRange("unsigned bitfieldExtract is not supported in reference mode"),
                   test::NoRange("OpBitFieldSExtract is not supported"),
                   test::NoRange("unsigned bitfieldExtract is not supported in reference mode")},
                  {test::Range(0, 255), test::Range(0, 4294967295),
                   test::NoRange("OpBitFieldSExtract is not supported"),
                   test::NoRange("bitfield count has no range: " MEMORY_REASON_TEXT)}},
        // bitfieldInsert with constant offset and count into a non-negative base: the
        // base's bound plus the field's (Morton unswizzles). Traps: a field from an
        // unbounded value fills its whole mask; a base that may be negative; an offset
        // that is not a constant.
        RangeCase{
            "BitfieldInsert",
            "local_size_x = 256",
            "uint i = gl_LocalInvocationIndex;\n"
            "probe[bitfieldInsert(bitfieldExtract(i, 0, 1), bitfieldExtract(i, 3, 2), 1, 2)] = "
            "0u;\n"
            "probe[bitfieldInsert(i & 1u, data[0], 1, 3)] = 0u;\n"
            "probe[bitfieldInsert(int(data[0]), 1, 1, 3)] = 0u;\n"
            "probe[bitfieldInsert(i & 1u, 1u, int(data[1]), 3)] = 0u;",
            {test::NoRange("OpBitFieldInsert is not supported"),
             test::NoRange("OpBitFieldInsert is not supported"),
             test::NoRange("OpBitFieldInsert is not supported"),
             test::NoRange("OpBitFieldInsert is not supported")},
            {test::Range(0, 7), test::Range(0, 15), test::NoRange(MEMORY_REASON_TEXT),
             test::NoRange("bitfield insert: offset and count are not constants within the "
                           "value's bits")}},
        // integer_range_bit_counts.cpp: bounded by the operand's width and range.
        RangeCase{
            "BitCountsAndBitPositions",
            "local_size_x = 64",
            "probe[bitCount(data[0])] = 0u;\n"
            "probe[bitCount(gl_LocalInvocationID.x)] = 0u;\n"
            "probe[bitCount(gl_LocalInvocationID.x + 1u)] = 0u;\n"
            "probe[findLSB(data[0])] = 0u;\n"
            "probe[findLSB(gl_LocalInvocationID.x + 1u)] = 0u;\n"
            "probe[findMSB(gl_LocalInvocationID.x)] = 0u;\n"
            "probe[findMSB(gl_LocalInvocationID.x + 8u)] = 0u;\n"
            "probe[findMSB(int(gl_LocalInvocationID.x) - 32)] = 0u;\n"
            "probe[findMSB(int(gl_LocalInvocationID.x) - 64)] = 0u;\n"
            "probe[findMSB(int(data[0]))] = 0u;\n"
            "probe[uint(findLSB(data[0]))] = 0u;",
            {test::NoRange("OpBitCount is not supported"),
             test::NoRange("OpBitCount is not supported"),
             test::NoRange("OpBitCount is not supported"),
             test::NoRange("FindILsb is not supported"), test::NoRange("FindILsb is not supported"),
             test::NoRange("FindUMsb is not supported"), test::NoRange("FindUMsb is not supported"),
             test::NoRange("FindSMsb is not supported"), test::NoRange("FindSMsb is not supported"),
             test::NoRange("FindSMsb is not supported"),
             test::NoRange("FindILsb is not supported")},
            {test::Range(0, 32), test::Range(0, 6), test::Range(1, 7), test::Range(-1, 31),
             test::Range(0, 6), test::Range(-1, 5), test::Range(3, 6), test::Range(-1, 4),
             test::Range(-1, 5), test::Range(-1, 30),
             test::NoRange("conversion to u32 of a possibly negative i32 value")}},
        RangeCase{"SingleStoreLocal",
                  "local_size_x = 64",
                  "uint a = gl_LocalInvocationID.x;\nprobe[a] = 0u;\n"
                  "uint b;\nif (data[0] > 0u) b = 1u;\nprobe[b] = 0u;\n"
                  "uint c = 5u;\nc = 7u;\nprobe[c] = 0u;",
                  {test::NoRange("load from a local variable that is not a for-loop control "
                                 "variable (no update in a continuing block)"),
                   test::NoRange("load from a local variable that is not a for-loop control "
                                 "variable (no update in a continuing block)"),
                   test::NoRange("load from a local variable that is not a for-loop control "
                                 "variable (no update in a continuing block)")},
                  {test::Range(0, 63), test::NoRange("local may be read before it is assigned"),
                   test::Range(7, 7)}}),
    CaseName);

#define LOCAL_REASON                                                            \
  test::NoRange(                                                                \
      "load from a local variable that is not a for-loop control variable (no " \
      "update in a continuing block)")
#define MEMORY_REASON test::NoRange(MEMORY_REASON_TEXT)
// Reference mode does not follow locals: an element of one is loaded through a chain.
#define LOCAL_PART_REASON \
  test::NoRange("load from memory through an access chain (only built-in components have ranges)")

// --- Full mode: more operators (integer_range_glsl_std450.cpp, integer_range_bitwise.cpp, ---
// --- integer_range_arithmetic.cpp) ----------------------------------------------------

INSTANTIATE_TEST_SUITE_P(
    FullOperators, IntegerRangeGlsl,
    ::testing::Values(
        RangeCase{"Abs",
                  "local_size_x = 64",
                  "probe[abs(int(gl_LocalInvocationID.x) - 40)] = 0u;\n"
                  "probe[abs(int(data[0]))] = 0u;",
                  {test::NoRange("SAbs is not supported"), test::NoRange("SAbs is not supported")},
                  {test::Range(0, 40),
                   test::NoRange("abs of a value with no i32 range: " MEMORY_REASON_TEXT)}},
        RangeCase{"AbsOfIntMinIsItself",
                  "local_size_x = 64",
                  "int m = int(data[0] & 1u) - 2147483647 - 1;\nprobe[abs(m)] = 0u;",
                  {test::NoRange("SAbs is not supported")},
                  {test::NoRange("abs of a value that may be -2147483648 (abs of it is itself)")}},
        RangeCase{"OrXorOfNonNegative",
                  "local_size_x = 64",
                  "probe[gl_LocalInvocationID.x | 16u] = 0u;\n"
                  "probe[(data[0] & 5u) ^ (data[1] & 8u)] = 0u;\n"
                  "probe[int(gl_LocalInvocationID.x) | -1] = 0u;",
                  {test::NoRange("bitwise OR is not supported"),
                   test::NoRange("bitwise XOR is not supported"),
                   test::NoRange("bitwise OR is not supported")},
                  {test::Range(16, 63), test::Range(0, 15),
                   test::NoRange("OR of a possibly negative value")}},
        RangeCase{"UnsignedModuloByRangedDivisor",
                  "local_size_x = 64",
                  "probe[data[0] % (gl_LocalInvocationID.x + 1u)] = 0u;\n"
                  "probe[data[0] % gl_LocalInvocationID.x] = 0u;",
                  {test::NoRange("modulo divisor is not a single positive value"),
                   test::NoRange("modulo divisor is not a single positive value")},
                  {test::Range(0, 63), test::NoRange("modulo divisor may be 0")}},
        RangeCase{
            "SignedModuloEitherSign",
            "local_size_x = 64",
            "probe[int(data[0]) % 8 + 8] = 0u;\n"
            "probe[int(data[0]) % -8 + 8] = 0u;\n"
            "probe[int(data[0]) % (int(gl_LocalInvocationID.x) - 1)] = 0u;",
            {test::NoRange("i32 modulo of a value with no range: " MEMORY_REASON_TEXT),
             test::NoRange("modulo divisor is not a single positive value"),
             test::NoRange("modulo divisor is not a single positive value")},
            // Either sign: GLSL leaves it open for negative operands, and lavapipe's
            // OpSMod returned negative results in the audit (gen_ci_00015).
            {test::Range(1, 15), test::Range(1, 15), test::NoRange("modulo divisor may be 0")}},
        RangeCase{"VectorComponents",
                  "local_size_x = 64",
                  "uvec2 v = uvec2(data[0] & 7u, data[1] & 7u);\nprobe[v.x + v.y] = 0u;\n"
                  "uvec4 w = uvec4(gl_LocalInvocationID.x, 3u, v);\nprobe[w.y] = 0u;\n"
                  "probe[v.yx.x] = 0u;",
                  {LOCAL_PART_REASON, LOCAL_PART_REASON, LOCAL_PART_REASON},
                  {test::Range(0, 14), test::Range(3, 3), test::Range(0, 7)}},
        RangeCase{"NestedCompositeLocal",
                  "local_size_x = 64",
                  "uint b[4] = uint[4](1u, 2u, data[0] & 3u, 4u);\nprobe[b[2]] = 0u;\n"
                  "uvec2 m[2] = uvec2[2](uvec2(5u, gl_LocalInvocationID.x), uvec2(6u));\n"
                  "probe[m[0].y] = 0u;\nprobe[m[1][0]] = 0u;",
                  {LOCAL_PART_REASON, LOCAL_PART_REASON, LOCAL_PART_REASON},
                  {test::Range(0, 3), test::Range(0, 63), test::Range(6, 6)}}),
    CaseName);

// --- Full mode: dominating guards (range_guards.h) ------------------------------------

INSTANTIATE_TEST_SUITE_P(
    Guards, IntegerRangeGlsl,
    ::testing::Values(
        // A built-in loaded again for each use (glslang's form): a test on one load holds
        // for every load of the same part, since Input memory does not change while the
        // invocation runs (canonical_values.cpp, ImmutableLoad). Traps: a
        // test on another component, and on a buffer element loaded again.
        RangeCase{"TestOnABuiltInReloadedAtTheUse",
                  "local_size_x = 8, local_size_y = 8",
                  "if (gl_LocalInvocationIndex < 22u) probe[gl_LocalInvocationIndex] = 0u;\n"
                  "if (gl_LocalInvocationID.y >= 3u) return;\nprobe[gl_LocalInvocationID.y] = 1u;",
                  {test::Range(0, 63), test::Range(0, 7)},
                  {test::Range(0, 21), test::Range(0, 2)}},
        // A test on a quotient bounds the dividend (unsigned: `x / 3u < 4u` gives x <= 11,
        // `x >> 2u < 3u` gives x <= 11). Trap: a signed quotient says nothing here.
        RangeCase{"TestOnAQuotientBoundsTheDividend",
                  "local_size_x = 64",
                  "uint y = gl_LocalInvocationIndex / 3u;\n"
                  "if (y < 4u) probe[gl_LocalInvocationIndex] = 0u;\n"
                  "if ((gl_LocalInvocationIndex >> 2u) < 3u) probe[gl_LocalInvocationIndex] = 1u;\n"
                  "if (int(gl_LocalInvocationIndex) / 3 < 4) probe[gl_LocalInvocationIndex] = 2u;",
                  {test::Range(0, 63), test::Range(0, 63), test::Range(0, 63)},
                  {test::Range(0, 11), test::Range(0, 11), test::Range(0, 63)}},
        // A bool local stored once: the test it holds holds where it is tested (glslang
        // keeps `bool ok = a && b` in a local). Trap: a second store may set it anyway.
        RangeCase{"TestHeldInABoolLocal",
                  "local_size_x = 64",
                  "bool ok = gl_LocalInvocationIndex < 12u && data[0] > 0u;\n"
                  "if (ok) probe[gl_LocalInvocationIndex] = 0u;\n"
                  "bool maybe = gl_LocalInvocationIndex < 12u;\nif (data[1] > 0u) maybe = true;\n"
                  "if (maybe) probe[gl_LocalInvocationIndex] = 1u;",
                  {test::Range(0, 63), test::Range(0, 63)},
                  {test::Range(0, 11), test::Range(0, 63)}},
        RangeCase{"TrapTestOnAnotherComponent",
                  "local_size_x = 8, local_size_y = 8",
                  "if (gl_LocalInvocationID.x < 3u) probe[gl_LocalInvocationID.y] = 0u;",
                  {test::Range(0, 7)},
                  {test::Range(0, 7)}},
        RangeCase{"TrapTestOnABufferElementLoadedAgain",
                  "local_size_x = 8",
                  "if (data[3] < 3u) probe[data[3]] = 0u;",
                  {MEMORY_REASON},
                  {MEMORY_REASON}},
        RangeCase{"EarlyReturnOnGlobalId",
                  "local_size_x = 64",
                  "uint g = gl_GlobalInvocationID.x;\nif (g >= 16u) return;\nprobe[g] = 0u;",
                  {LOCAL_REASON},
                  {test::Range(0, 15)}},
        RangeCase{"IfLessThen",
                  "local_size_x = 64",
                  "uint x = data[0];\nif (x < 10u) probe[x] = 0u;\nprobe[x] = 1u;",
                  {LOCAL_REASON, LOCAL_REASON},
                  {test::Range(0, 9), MEMORY_REASON}},
        RangeCase{"ElseBranchAndNegation",
                  "local_size_x = 64",
                  "uint x = data[0];\nif (x >= 4u) {} else { probe[x] = 0u; }\n"
                  "if (!(x > 6u)) probe[x] = 0u;",
                  {LOCAL_REASON, LOCAL_REASON},
                  {test::Range(0, 3), test::Range(0, 6)}},
        RangeCase{"SignedBothBounds",
                  "local_size_x = 64",
                  "int i = int(data[0]);\nif (i >= 0 && i < 8) probe[i] = 0u;\n"
                  "if (i > 2 && i <= 5) probe[i] = 0u;\nif (i < 8) probe[i] = 0u;",
                  {LOCAL_REASON, LOCAL_REASON, LOCAL_REASON},
                  {test::Range(0, 7), test::Range(3, 5), test::Range(-2147483648, 7)}},
        RangeCase{"SignedTestSaysNothingAboutUnsigned",
                  "local_size_x = 64",
                  "uint u = data[0];\nif (int(u) < 16) probe[u] = 0u;\n"
                  "if (int(u) >= 0 && int(u) < 16) probe[u] = 0u;",
                  {LOCAL_REASON, LOCAL_REASON},
                  {MEMORY_REASON, test::Range(0, 15)}},
        RangeCase{"UnsignedTestOnSignedValue",
                  "local_size_x = 64",
                  "int i = int(data[0]);\nif (uint(i) < 16u) probe[i] = 0u;",
                  {LOCAL_REASON},
                  {test::Range(0, 15)}},
        RangeCase{"BreakAndContinue",
                  "local_size_x = 64",
                  "for (int i = 0; i < 4; i++) {\n  uint x = data[i];\n"
                  "  if (x >= 3u) continue;\n  probe[x] = 0u;\n}\n"
                  "for (;;) {\n  uint y = data[1];\n  if (y > 5u) break;\n  probe[y] = 0u;\n}",
                  {LOCAL_REASON, LOCAL_REASON},
                  {test::Range(0, 2), test::Range(0, 5)}},
        RangeCase{"DerivedValue",
                  "local_size_x = 64",
                  "uint x = data[0];\nif (x < 8u) probe[x * 2u + 1u] = 0u;",
                  {LOCAL_REASON},
                  {test::Range(1, 15)}},
        RangeCase{"EqualityAndInequality",
                  "local_size_x = 64",
                  "uint x = data[0];\nif (x == 3u) probe[x] = 0u;\n"
                  "uint m = data[1] & 3u;\nif (m != 3u) probe[m] = 0u;\n"
                  "if (m != 1u) probe[m] = 0u;",
                  {LOCAL_REASON, LOCAL_REASON, LOCAL_REASON},
                  {test::Range(3, 3), test::Range(0, 2), test::Range(0, 3)}},
        RangeCase{"ShortCircuitWithBufferLoad",
                  "local_size_x = 64",
                  "uint x = data[0];\nif (x < 8u && data[x] > 0u) probe[x] = 0u;\n"
                  "if (x >= 8u || data[x] == 0u) return;\nprobe[x] = 0u;",
                  {LOCAL_REASON, LOCAL_REASON},
                  {test::Range(0, 7), test::Range(0, 7)}},
        // Locals through the value-flow view.
        RangeCase{"TernaryThroughLocal",
                  "local_size_x = 64",
                  "uint x = data[0] > 3u ? gl_LocalInvocationID.x : 100u;\nprobe[x] = 0u;\n"
                  "uint y;\nif (data[1] == 0u) y = 4u; else y = 9u;\nprobe[y] = 0u;",
                  {LOCAL_REASON, LOCAL_REASON},
                  {test::Range(0, 100), test::Range(4, 9)}},
        RangeCase{"WhileLoopWithVariableBound",
                  "local_size_x = 64",
                  "uint n = data[0] & 15u;\nuint i = 0u;\n"
                  "while (i < n) { probe[i] = 0u; i += 2u; }\n"
                  "for (uint j = 0u; j < n; j++) probe[j] = 0u;",
                  {LOCAL_REASON, test::NoRange("loop bound is not a constant")},
                  {test::Range(0, 14), test::Range(0, 14)}},
        RangeCase{"LoopLocalStoredAfterTest",
                  "local_size_x = 64",
                  "uint i = 0u;\nwhile (i < 8u) { i = data[i]; probe[i] = 0u; }",
                  {LOCAL_REASON},
                  {test::NoRange("a value stored to the local has no range: " MEMORY_REASON_TEXT)}},
        // Traps: nothing may be narrowed here.
        RangeCase{"TestOnOneLoadUseOfAnother",
                  "local_size_x = 64",
                  "if (data[0] < 8u) probe[data[0]] = 0u;",
                  {MEMORY_REASON},
                  {}},
        RangeCase{"LocalOverwrittenAfterTest",
                  "local_size_x = 64",
                  "uint x = data[0];\nif (x < 8u) { x = data[1]; probe[x] = 0u; }",
                  {LOCAL_REASON},
                  {test::NoRange("a value stored to the local has no range: " MEMORY_REASON_TEXT)}},
        RangeCase{"OrDoesNotNarrowWhenTrue",
                  "local_size_x = 64",
                  "uint x = data[0];\nif (x < 8u || data[1] == 0u) probe[x] = 0u;",
                  {LOCAL_REASON},
                  {MEMORY_REASON}},
        // A test on `2u * t` is one on t when 2u * t cannot wrap (t <= 255 here).
        RangeCase{"ThroughConstantFactorAndOffset",
                  "local_size_x = 256",
                  "uint t = gl_LocalInvocationIndex;\nif (2u * t < 420u) {\n"
                  "  probe[2u * t + 1u] = 0u;\n  probe[t] = 0u;\n}",
                  {LOCAL_REASON, LOCAL_REASON},
                  {test::Range(1, 419), test::Range(0, 209)}},
        // Signed: v * 2 in [-9, 9] puts v in [-4, 4] (rounded inwards).
        RangeCase{"ThroughSignedFactor",
                  "local_size_x = 256",
                  "int v = int(gl_LocalInvocationIndex) - 100;\n"
                  "if (v * 2 > -10 && v * 2 < 10) probe[v + 4] = 0u;",
                  {LOCAL_REASON},
                  {test::Range(0, 8)}},
        // Trap: x + 1u wraps for x = 4294967295, so `x + 1u < 10u` says nothing about x.
        RangeCase{"TrapOffsetThatMayWrap",
                  "local_size_x = 64",
                  "uint x = data[0];\nif (x + 1u < 10u) probe[x] = 0u;",
                  {LOCAL_REASON},
                  {MEMORY_REASON}},
        RangeCase{"MergeOfBothSidesIsNotNarrowed",
                  "local_size_x = 64",
                  "uint x = data[0];\nif (x < 8u) { data[1] = 0u; }\nprobe[x] = 0u;",
                  {LOCAL_REASON},
                  {MEMORY_REASON}}),
    CaseName);

// --- Full mode: loop-carried locals widened (integer_range_loop_locals.cpp) ----------

#define NO_WIDEN_ABOVE_TEXT                                                      \
  "local is updated from its own value in a loop without a guard that keeps it " \
  "below the type's maximum"
#define NO_WIDEN_ABOVE test::NoRange(NO_WIDEN_ABOVE_TEXT)

INSTANTIATE_TEST_SUITE_P(
    LoopCarried, IntegerRangeGlsl,
    ::testing::Values(
        // The while test bounds the update: c <= 99 there, so c + 1 <= 100.
        RangeCase{"WhileBelowLimit",
                  "local_size_x = 64",
                  "uint c = 0u;\nwhile (c < 100u && data[c] != 0u) c++;\nprobe[c] = 0u;",
                  {LOCAL_REASON},
                  {test::Range(0, 100)}},
        // The bound is the second test of a short-circuit &&: the local's version at the
        // loop header is defined above the first test, so the fact is kept.
        RangeCase{"ShortCircuitSecondTest",
                  "local_size_x = 64",
                  "uint c = 0u;\nwhile (data[0] != c && c < 100u) { probe[c] = 0u; c++; }",
                  {LOCAL_REASON},
                  {test::Range(0, 99)}},
        // i < n for an n without a range still keeps i + 1 from wrapping: i >= 0.
        RangeCase{"SignedRuntimeBoundIsNonNegative",
                  "local_size_x = 64",
                  "int n = int(data[0]);\nfor (int i = 0; i < n; i++) probe[i] = 0u;",
                  {test::NoRange("loop bound is not a constant")},
                  {test::Range(0, 2147483647)}},
        // Downwards, read after the update: j - 1 where the guard says j >= 1.
        RangeCase{"DecrementThenUse",
                  "local_size_x = 64",
                  "uint j = 10u;\nwhile (j > 0u) { j--; probe[j] = 0u; }",
                  {LOCAL_REASON},
                  {test::Range(0, 9)}},
        // A ranged step: k <= 19 + 4 after the loop (and >= 20 there, by the exit edge).
        RangeCase{"RangedStep",
                  "local_size_x = 64",
                  "uint k = 0u;\nwhile (k < 20u) { probe[k] = 0u; k += 1u + (data[0] & 3u); }\n"
                  "probe[k] = 1u;",
                  {LOCAL_REASON, LOCAL_REASON},
                  {test::Range(0, 19), test::Range(20, 23)}},
        // A value stored under a guard keeps the guard's range for later loads.
        RangeCase{"StoredUnderGuard",
                  "local_size_x = 64",
                  "uint x = data[0];\nuint t = 0u;\nif (x < 8u) t = x;\nprobe[t] = 0u;",
                  {LOCAL_REASON},
                  {test::Range(0, 7)}},
        // Two updates per iteration, the second from the first's store: 0, 3, 6, 9, 12.
        RangeCase{"TwoUpdatesPerIteration",
                  "local_size_x = 64",
                  "uint c = 0u;\nwhile (c < 10u) { c += 2u; c++; }\nprobe[c] = 0u;",
                  {LOCAL_REASON},
                  {test::Range(10, 12)}},
        // A built-in vector stored whole and read by component.
        RangeCase{"BuiltinVectorStoredWhole",
                  "local_size_x = 8, local_size_y = 4",
                  "uvec3 l = gl_LocalInvocationID;\nprobe[l.y] = 0u;\n"
                  "uvec3 g = gl_GlobalInvocationID;\nprobe[g.x] = 0u;",
                  {LOCAL_PART_REASON, LOCAL_PART_REASON},
                  {test::Range(0, 3),
                   test::NoRange("a value stored to the local has no range: built-in "
                                 "GlobalInvocationId has no range without a promised dispatch "
                                 "size (--max-workgroups)")}},
        // Traps: nothing bounds the update, so it may wrap; updates both ways; a step
        // without a range.
        RangeCase{"TrapNoGuardOnTheUpdate",
                  "local_size_x = 64",
                  "uint c = 0u;\nwhile (data[c] != 0u) c++;\nprobe[c] = 0u;",
                  {LOCAL_REASON},
                  {NO_WIDEN_ABOVE}},
        RangeCase{
            "TrapUpdatesBothWays",
            "local_size_x = 64",
            "int i = 5;\nwhile (i > 0 && i < 10) { if (data[0] == 0u) i++; else i--; }\n"
            "probe[i] = 0u;",
            {LOCAL_REASON},
            {test::NoRange("local is updated from its own value in both directions in a loop")}},
        RangeCase{
            "TrapStepWithoutRange",
            "local_size_x = 64",
            "uint c = 0u;\nwhile (c < 100u && data[1] != 0u) c += data[0];\nprobe[c] = 0u;",
            {LOCAL_REASON},
            {test::NoRange("the step of a loop-carried local has no range: " MEMORY_REASON_TEXT)}}),
    CaseName);

// --- Full mode: general loop-carried updates (integer_range_fixed_point.cpp) ----------

INSTANTIATE_TEST_SUITE_P(
    FixedPoint, IntegerRangeGlsl,
    ::testing::Values(
        // dxvk's reduction: n = 210, 105, 53, ..., 2 in the body, h = (n + 1) / 2 <= 105;
        // `t + h < n` bounds t by n.max - 1 - h.min and the recomputed t + h by n.max - 1.
        RangeCase{"HalvingReduction",
                  "local_size_x = 256",
                  "uint t = gl_LocalInvocationIndex;\nuint n = 210u;\n"
                  "while (n > 1u) {\n  uint h = (n + 1u) / 2u;\n"
                  "  if (t + h < n) { probe[t] = 0u; probe[t + h] = 0u; }\n  n = h;\n}\n"
                  // After the loop n <= 1, and h >= 1 kept it >= 1.
                  "probe[n] = 0u;",
                  {LOCAL_REASON, LOCAL_REASON, LOCAL_REASON},
                  {test::Range(0, 208), test::Range(1, 209), test::Range(1, 1)}},
        // Doubling under a guard: 1, 3, 7, ..., 127 read in the body below 100.
        RangeCase{"DoublingBelowGuard",
                  "local_size_x = 64",
                  "uint i = 1u;\nwhile (i < 100u) { probe[i] = 0u; i = i * 2u + 1u; }\n"
                  "probe[i] = 0u;",
                  {LOCAL_REASON, LOCAL_REASON},
                  {test::Range(1, 99), test::Range(100, 199)}},
        // A modulo keeps the local in [0, 7] whatever runs it: no guard needed.
        RangeCase{"ModuloCounter",
                  "local_size_x = 64",
                  "uint i = 5u;\nwhile (data[0] != 0u) { i = (i + 1u) % 8u; probe[i] = 0u; }\n"
                  "probe[i] = 0u;",
                  {LOCAL_REASON, LOCAL_REASON},
                  {test::Range(0, 7), test::Range(0, 7)}},
        // Settles only after widening the moving end (the shift never ends at 0 here).
        RangeCase{
            "ShiftDownWidened",
            "local_size_x = 64",
            "uint s = 4000000000u;\nwhile (s > 3u) { s = (s >> 1u) + 1u; }\nprobe[s & 63u] = 0u;\n"
            "uint r = 4000000000u;\nwhile (r > 3u) { probe[r % 64u] = 0u; r = (r >> 1u) + 1u; }\n"
            "probe[min(r, 63u)] = 0u;",
            {test::NoRange("bitwise AND is not supported in reference mode"), test::Range(0, 63),
             test::Range(0, 63)},
            // [3, 4000000000] once widened to 0 and narrowed; 3 after the loop (and 3 & 63
            // is 3: one value lies in one block of 64).
            {test::Range(3, 3), test::Range(0, 63), test::Range(3, 3)}},
        // One initial value is a component of a built-in vector stored whole: it counts
        // (without it the hull would be [0, 3]).
        RangeCase{"BuiltinComponentInTheCycle",
                  "local_size_x = 64",
                  "uvec3 l = gl_LocalInvocationID;\nif (data[1] == 0u) l.x = 3u;\n"
                  "while (data[0] != 0u) l.x = l.x / 2u;\nprobe[l.x] = 0u;",
                  {LOCAL_PART_REASON},
                  {test::Range(0, 63)}},
        // No loop: y reads x's first store only, so `x = y + 1u` is an ordinary value.
        RangeCase{"CopyThenUpdateWithoutLoop",
                  "local_size_x = 64",
                  "uint x = 5u;\nuint y = x;\nif (data[0] == 0u) x = y + 1u;\nprobe[x] = 0u;",
                  {LOCAL_REASON},
                  {test::Range(5, 6)}},
        // Traps: the doubling wraps to 0 without a guard; 0 - 1 wraps; the cycle load
        // may read a value stored from buffer data.
        RangeCase{"TrapDoublingWithoutGuard",
                  "local_size_x = 64",
                  "uint i = 1u;\nwhile (data[0] != 0u) i = i * 2u;\nprobe[i] = 0u;",
                  {LOCAL_REASON},
                  {test::NoRange(
                      "local is updated from its own value in a loop: its interval did "
                      "not settle in kMaxFixedPointRounds (8) rounds, and the widened interval is "
                      "not kept by the updates: u32 multiplication may overflow")}},
        RangeCase{"TrapDecrementBelowZero",
                  "local_size_x = 64",
                  "uint i = 5u;\nwhile (i < 10u) { i = (i - 1u) / 1u; probe[i] = 0u; }",
                  {LOCAL_REASON},
                  {test::NoRange(
                      "local is updated from its own value in a loop (no range without a guard)")}},
        RangeCase{
            "TrapStoreFromMemoryInTheCycle",
            "local_size_x = 64",
            "uint i = 0u;\nwhile (i < 10u) {\n  uint h = i / 2u;\n"
            "  if (data[0] == 0u) h = data[1];\n  i = h + 1u;\n  probe[i] = 0u;\n}",
            {LOCAL_REASON},
            {test::NoRange("local is updated from its own value in a loop (no range without a "
                           "guard)")}}),
    CaseName);

// --- Full mode: counted iterations (integer_range_counted_iterations.cpp) ------------

INSTANTIATE_TEST_SUITE_P(
    CountedIterations, IntegerRangeGlsl,
    ::testing::Values(
        // A binary search over 32 entries: ix gains at most 16 + 8 + 4 + 2 + 1 = 31,
        // each step with its own iteration's counter (the fixed point widens past it).
        RangeCase{"BinarySearchSteps",
                  "local_size_x = 64",
                  "uint ix = 0u;\nfor (uint i = 0u; i < 5u; i++) {\n"
                  "  uint p = ix + (16u >> i);\n  if (data[p] <= data[0]) ix = p;\n}\n"
                  "probe[ix] = 0u;",
                  {LOCAL_REASON},
                  {test::Range(0, 31)}},
        // In the loop, each iteration's probe with that iteration's step: p - 1 <= 30
        // (the local at the start of iteration k, read before the update, plus 16 >> k),
        // where the loop-wide hull gives [0, 31] + [1, 16]. Trap: read after the update with the
        // step added again: 16 + 16 at the first iteration.
        RangeCase{"BinarySearchProbeInTheLoop",
                  "local_size_x = 64",
                  "uint ix = 0u;\nfor (uint i = 0u; i < 5u; i++) {\n"
                  "  uint p = ix + (16u >> i);\n  if (data[0] >= probe[p - 1u]) ix = p;\n"
                  "  probe[ix + (16u >> i)] = 1u;\n}",
                  {LOCAL_REASON, LOCAL_REASON},
                  {test::Range(0, 30), test::Range(1, 32)}},
        // Reset before each entry of the counted loop inside another loop; a signed
        // counter stepping down with a step from a table of per-iteration values.
        RangeCase{"ResetBeforeEachEntryAndCountingDown",
                  "local_size_x = 64",
                  "for (uint r = 0u; r < data[1]; r++) {\n  uint ix = 2u;\n"
                  "  for (int i = 3; i >= 0; i--) { if (data[r] == 0u) ix = ix + uint(1 << i); }\n"
                  "  probe[ix] = 0u;\n}",
                  {LOCAL_REASON},
                  {test::Range(2, 17)}},
        // Traps: the steps sum to 32 (one past a table of 32); the local is not reset
        // before the second entry of the loop, so the sums add up over the entries; a
        // step read from a local stored in an earlier iteration only.
        RangeCase{"TrapStepsSumPastTheTable",
                  "local_size_x = 64",
                  "uint ix = 0u;\nfor (uint i = 0u; i < 5u; i++) {\n"
                  "  uint p = ix + (17u >> i);\n  if (data[p] <= data[0]) ix = p;\n}\n"
                  "probe[ix] = 0u;",
                  {LOCAL_REASON},
                  {test::Range(0, 32)}},
        RangeCase{
            "TrapNotResetBetweenEntries",
            "local_size_x = 64",
            "uint ix = 0u;\nfor (uint r = 0u; r < data[1]; r++) {\n"
            "  for (uint i = 0u; i < 4u; i++) { if (data[r] == 0u) ix = ix + 1u; }\n"
            "  probe[ix] = 0u;\n}",
            {LOCAL_REASON},
            {test::NoRange("local is updated from its own value in a loop whose exit test has "
                           "a bound without a range: " MEMORY_REASON_TEXT)}},
        RangeCase{"TrapStepStoredInAnEarlierIteration",
                  "local_size_x = 64",
                  "uint ix = 0u;\nuint s = 0u;\nfor (uint i = 0u; i < 4u; i++) {\n"
                  "  if (i == 0u) s = 16u >> i;\n  if (data[i] == 0u) ix = ix + s;\n}\n"
                  "probe[ix] = 0u;",
                  {LOCAL_REASON},
                  {test::NoRange("local is updated from its own value in a loop without a guard "
                                 "that keeps it below the type's maximum")}}),
    CaseName);

// --- Full mode: counters bounded by trip counts (integer_range_trip_counts.cpp) -------

INSTANTIATE_TEST_SUITE_P(
    TripCounts, IntegerRangeGlsl,
    ::testing::Values(
        // SaschaWillems' filters: 9 runs of n++ from -1; 8 before the last one's load.
        RangeCase{"NestedCounter",
                  "local_size_x = 64",
                  "int n = -1;\nfor (int i = -1; i < 2; ++i)\n  for (int j = -1; j < 2; ++j) {\n"
                  "    n++;\n    probe[n] = 0u;\n  }\nprobe[n + 1] = 0u;",
                  {LOCAL_REASON, LOCAL_REASON},
                  {test::Range(0, 8), test::Range(0, 9)}},
        // Reset in the outer body right before the inner loop: only the inner loop counts.
        RangeCase{"ResetBeforeInnerLoop",
                  "local_size_x = 64",
                  "for (int i = 0; i < 4; i++) {\n  uint c = 0u;\n"
                  "  for (int j = 0; j < 5; j++) { c += 2u; probe[c] = 0u; }\n}",
                  {LOCAL_REASON},
                  {test::Range(2, 10)}},
        // Downwards, from a ranged start.
        RangeCase{"DecreasingCounter",
                  "local_size_x = 64",
                  "uint n = 100u + (gl_LocalInvocationID.x & 3u);\n"
                  "for (uint i = 0u; i < 10u; i += 3u) { n -= 5u; probe[n] = 0u; }",
                  {LOCAL_REASON},
                  {test::Range(80, 98)}},
        // Loops tested at their top on another counter (loop_exit_counters.cpp): i is
        // stepped beside j, which the test bounds; a for-loop whose bound has a range; a
        // decreasing counter; the counter on the right of the test.
        RangeCase{"CounterBesideTheTestedOne",
                  "local_size_x = 64",
                  "uint i = 0u;\nuint j = 0u;\nwhile (j < 16u) { probe[i] = 0u; i++; j++; }",
                  {LOCAL_REASON},
                  {test::Range(0, 15)}},
        RangeCase{
            "ForLoopBoundWithARange",
            "local_size_x = 64",
            "uint n = 0u;\nfor (uint j = 0u; j < (data[0] & 7u); j++) { n++; probe[n] = 0u; }",
            {LOCAL_REASON},
            {test::Range(1, 7)}},
        RangeCase{"DecreasingExitCounter",
                  "local_size_x = 64",
                  "int j = 10;\nint n = 0;\nwhile (j > 2) { n += 3; probe[n] = 0u; j -= 2; }",
                  {LOCAL_REASON},
                  {test::Range(3, 12)}},
        RangeCase{"ExitCounterOnTheRight",
                  "local_size_x = 64",
                  "uint n = 5u;\nuint j = 3u;\nwhile (12u > j) { probe[n] = 0u; n--; j += 3u; }",
                  {LOCAL_REASON},
                  {test::Range(3, 5)}},
        // Compared through a reinterpretation (`uint(j) < 16u` with j an int): counted in
        // the comparison's reading. The second starts at 2^32 - 4: read as a signed value
        // it is -4, so the body runs 8 times (read as unsigned it would not run at all).
        RangeCase{"ExitCounterComparedInTheOtherReading",
                  "local_size_x = 64",
                  "uint i = 0u;\nint j = 0;\nwhile (uint(j) < 16u) { probe[i] = 0u; i++; j++; }",
                  {LOCAL_REASON},
                  {test::Range(0, 15)}},
        RangeCase{"ExitCounterStartReadAsTheComparisonReadsIt",
                  "local_size_x = 64",
                  "uint n = 0u;\nuint j = 4294967292u;\n"
                  "while (int(j) < 4) { n++; probe[n] = 0u; j++; }",
                  {LOCAL_REASON},
                  {test::Range(1, 8)}},
        // A start across the reinterpretation's edge (-2..1 reads as 2^32 - 2..1): the
        // hull of the two pieces is the whole u32 domain, so the count starts from 0.
        RangeCase{"ExitCounterStartAcrossTheReadingsEdge",
                  "local_size_x = 64",
                  "uint i = 0u;\nint j = int(gl_LocalInvocationID.x & 3u) - 2;\n"
                  "while (uint(j) < 8u) { probe[i] = 0u; i++; j++; }",
                  {LOCAL_REASON},
                  {test::Range(0, 7)}},
        // Traps for exit counters: `continue` skips the counter's step; the counter is
        // reset in the loop; the test at the bottom (do-while: the body runs once though
        // the test fails at once); a bound without a maximum below the type's (the
        // counter could wrap); the counter stepped in a nested loop that may not run.
        // Each loop really runs past what a count from its test would say, or forever.
        RangeCase{
            "TrapContinueSkipsTheExitCounter",
            "local_size_x = 64",
            "uint i = 0u;\nuint j = 0u;\n"
            "while (j < 4u) { i++; probe[i] = 0u; if (data[i] == 0u) continue; j++; }",
            {LOCAL_REASON},
            {test::NoRange("a value stored to the local has no range: " NO_WIDEN_ABOVE_TEXT)}},
        RangeCase{
            "TrapExitCounterResetInTheLoop",
            "local_size_x = 64",
            "uint n = 0u;\nuint j = 0u;\n"
            "while (j < 8u) { n++; probe[n] = 0u; j++; if (data[0] == 1u) j = 0u; }",
            {LOCAL_REASON},
            {test::NoRange("a value stored to the local has no range: " NO_WIDEN_ABOVE_TEXT)}},
        RangeCase{
            "TrapExitCounterTestedAtTheBottom",
            "local_size_x = 64",
            "uint n = 0u;\nuint j = 8u;\ndo { n++; probe[n] = 0u; j++; } while (j < 4u);",
            {LOCAL_REASON},
            {test::NoRange("a value stored to the local has no range: " NO_WIDEN_ABOVE_TEXT)}},
        RangeCase{"TrapExitCounterBoundAtTheTypeMaximum",
                  "local_size_x = 64",
                  "uint n = 0u;\nuint j = 0u;\nwhile (j <= data[0]) { n++; probe[n] = 0u; j++; }",
                  {LOCAL_REASON},
                  // The bound's own reason is the root cause (here an input).
                  {test::NoRange("a value stored to the local has no range: local is updated from "
                                 "its own value in a loop whose exit test has a bound without a "
                                 "range: " MEMORY_REASON_TEXT)}},
        RangeCase{
            "TrapExitCounterSteppedInANestedLoop",
            "local_size_x = 64",
            "uint n = 0u;\nuint j = 0u;\n"
            "while (j < 4u) { n++; probe[n] = 0u; for (uint k = 0u; k < data[0]; k++) j++; }",
            {LOCAL_REASON},
            {test::NoRange("a value stored to the local has no range: " NO_WIDEN_ABOVE_TEXT)}},
        // Traps: two updates per iteration; an outer loop without a trip count; trip
        // counts past 2^32; a bound past the type (the counter wraps).
        RangeCase{
            "TrapTwoUpdatesPerIteration",
            "local_size_x = 64",
            "int n = -1;\nfor (int i = 0; i < 9; ++i) { n++; n++; probe[n] = 0u; }",
            {LOCAL_REASON},
            {test::NoRange("local is updated from its own value in a loop (no range without a "
                           "guard)")}},
        RangeCase{
            "TrapOuterLoopUncounted",
            "local_size_x = 64",
            "uint n = 0u;\nwhile (data[0] != 0u) {\n"
            "  for (int j = 0; j < 3; j++) { n++; probe[n] = 0u; }\n}",
            {LOCAL_REASON},
            {test::NoRange("a value stored to the local has no range: " NO_WIDEN_ABOVE_TEXT)}},
        RangeCase{"TrapTripCountsPast2To32",
                  "local_size_x = 64",
                  "uint n = 0u;\nfor (int i = 0; i < 100000; i++)\n"
                  "  for (int j = 0; j < 100000; j++) { n++; probe[n] = 0u; }",
                  {LOCAL_REASON},
                  {test::NoRange("a value stored to the local has no range: local is updated from "
                                 "its own value in a loop: trip counts multiply past 2^32")}},
        RangeCase{
            "TrapCounterWraps",
            "local_size_x = 64",
            "uint n = 4294967000u;\nfor (int i = 0; i < 10; i++) { n += 100u; probe[n] = 0u; }",
            {LOCAL_REASON},
            {test::NoRange("a value stored to the local has no range: u32 counter bounded by "
                           "trip counts may overflow")}}),
    CaseName);

// --- Full mode: locals tested right after their update
// (integer_range_tested_after_update.cpp) ----------------------------------------------

INSTANTIATE_TEST_SUITE_P(
    TestedAfterUpdate, IntegerRangeGlsl,
    ::testing::Values(
        // piet-gpu's tile loop: `s++; if (s == 8u) break;` inside a branch; every later
        // read of s in the loop sees s < 8.
        RangeCase{"EqualityTestRightAfterTheStep",
                  "local_size_x = 64",
                  "uint s = 0u;\nuint bits = data[0];\nwhile (true) {\n"
                  "  if (bits == 0u) {\n    s++;\n    if (s == 8u) break;\n"
                  "    bits = data[s];\n    if (bits == 0u) continue;\n  }\n"
                  "  probe[s] = 0u;\n  bits &= bits - 1u;\n}",
                  {LOCAL_REASON},
                  {test::Range(0, 7)}},
        RangeCase{"OrderingTestRightAfterTheStep",
                  "local_size_x = 64",
                  "int k = int(gl_LocalInvocationID.x & 1u);\n"
                  "while (true) { probe[k] = 0u; k += 3; if (k >= 20) break; }",
                  {LOCAL_REASON},
                  {test::Range(0, 19)}},
        RangeCase{"DownwardsToAnEqualityTest",
                  "local_size_x = 64",
                  "int k = 9;\nwhile (true) { probe[k] = 0u; k--; if (k == -1) break; }",
                  {LOCAL_REASON},
                  {test::Range(0, 9)}},
        // Re-entered with a reset in the block that enters it.
        RangeCase{"ResetBeforeEachEntry",
                  "local_size_x = 64",
                  "uint s;\nfor (int o = 0; o < 2; o++) {\n  s = 0u;\n"
                  "  while (true) { probe[s] = 0u; s++; if (s == 4u) break; }\n}",
                  {LOCAL_REASON},
                  {test::Range(0, 3)}},
        // Traps: a step of 2 never meets 9; a start past the value; the loop entered a
        // second time with the value that left it (4, then 5, 6, ...); the test's both
        // edges stay in the loop. Each runs past what the test alone would say.
        RangeCase{"TrapEqualityStepsOverTheValue",
                  "local_size_x = 64",
                  "uint s = 0u;\nwhile (true) { probe[s] = 0u; s += 2u; if (s == 9u) break; }",
                  {LOCAL_REASON},
                  {NO_WIDEN_ABOVE}},
        RangeCase{"TrapEqualityStartsPastTheValue",
                  "local_size_x = 64",
                  "uint s = 10u;\nwhile (true) { probe[s] = 0u; s++; if (s == 8u) break; }",
                  {LOCAL_REASON},
                  {NO_WIDEN_ABOVE}},
        RangeCase{"TrapEnteredAgainWithoutAReset",
                  "local_size_x = 64",
                  "uint s = 0u;\nfor (int o = 0; o < 2; o++) {\n"
                  "  while (true) { probe[s] = 0u; s++; if (s == 4u) break; }\n}",
                  {LOCAL_REASON},
                  {NO_WIDEN_ABOVE}},
        RangeCase{"TrapTestThatStaysInTheLoop",
                  "local_size_x = 64",
                  "uint s = 0u;\nwhile (data[1] != 0u) {\n  probe[s] = 0u;\n  s++;\n"
                  "  if (s == 8u) continue;\n  data[2] = 1u;\n}",
                  {LOCAL_REASON},
                  {NO_WIDEN_ABOVE}}),
    CaseName);

// --- Full mode: differences under an order (integer_range_ordered_differences.cpp) ----

#define ORDER_OPERANDS "uint x = data[0] & 63u;\nuint y = data[1] & 63u;\n"

INSTANTIATE_TEST_SUITE_P(
    OrderedDifferences, IntegerRangeGlsl,
    ::testing::Values(
        // The Hillis-Steele prefix sum: glslang computes `1u << i` again for the index,
        // from another load of the loop counter that reads the same version.
        RangeCase{"PrefixSumStepBack",
                  "local_size_x = 64",
                  "uint ix = gl_LocalInvocationID.x;\nfor (uint i = 0u; i < 6u; i++) {\n"
                  "  if (ix >= (1u << i)) probe[ix - (1u << i)] = 0u;\n}",
                  {LOCAL_REASON},
                  {test::Range(0, 62)}},
        RangeCase{"StrictOrder",
                  "local_size_x = 64",
                  ORDER_OPERANDS "if (x > y) probe[x - y] = 0u;",
                  {LOCAL_REASON},
                  {test::Range(1, 63)}},
        RangeCase{"OrderOnTheElseEdge",
                  "local_size_x = 64",
                  ORDER_OPERANDS "if (x < y) return;\nprobe[x - y] = 0u;",
                  {LOCAL_REASON},
                  {test::Range(0, 63)}},
        RangeCase{"SignedOrder",
                  "local_size_x = 64",
                  "int x = int(data[0] & 63u) - 10;\nint y = int(data[1] & 63u) - 10;\n"
                  "if (x >= y) probe[x - y] = 0u;",
                  {LOCAL_REASON},
                  {test::Range(0, 63)}},
        // x ranged by the test alone ends at the type's top: the difference keeps x's
        // own reason (dxvk's HUD text: `if (ch < len) chars[len - ch - 1u]`).
        RangeCase{
            "UnrangedSideKeepsItsReason",
            "local_size_x = 64",
            "uint len = data[0];\nuint ch = gl_LocalInvocationID.x & 15u;\n"
            "if (ch < len) probe[len - ch - 1u] = 0u;",
            {LOCAL_REASON},
            {test::NoRange("value read from Uniform memory (data the application provides)")}},
        // Traps: the difference the other way round; y stored again after the test; the
        // loop counter stepped between the test and the index; a signed difference that
        // wraps past 2^31 - 1 although x >= y.
        RangeCase{"TrapReversedDifference",
                  "local_size_x = 64",
                  ORDER_OPERANDS "if (x >= y) probe[y - x] = 0u;",
                  {LOCAL_REASON},
                  {test::NoRange("u32 subtraction may underflow")}},
        RangeCase{"TrapStoredAfterTheTest",
                  "local_size_x = 64",
                  ORDER_OPERANDS "if (x >= y) {\n  y = data[2] & 63u;\n  probe[x - y] = 0u;\n}",
                  {LOCAL_REASON},
                  {test::NoRange("u32 subtraction may underflow")}},
        RangeCase{"TrapCounterSteppedAfterTheTest",
                  "local_size_x = 64",
                  "uint ix = gl_LocalInvocationID.x;\nfor (uint i = 0u; i < 6u; i++) {\n"
                  "  if (ix >= (1u << i)) {\n    i++;\n    probe[ix - (1u << i)] = 0u;\n  }\n}",
                  {LOCAL_REASON},
                  {test::NoRange("u32 subtraction may underflow")}},
        RangeCase{"TrapSignedDifferenceWraps",
                  "local_size_x = 64",
                  "int x = int(data[0] & 0x7FFFFFFFu);\nint y = int(data[1] & 0xFFu) - 200;\n"
                  "if (x >= y) probe[x - y] = 0u;",
                  {LOCAL_REASON},
                  {test::NoRange("i32 subtraction may overflow")}}),
    CaseName);

// --- Full mode: locals read at run-time indices (integer_range_indexed_locals.cpp) -----

#define LID "gl_LocalInvocationID.x"
#define UNASSIGNED \
  test::NoRange("local read at a run-time index may read an element before it is assigned")

INSTANTIATE_TEST_SUITE_P(
    IndexedLocals, IntegerRangeGlsl,
    ::testing::Values(
        // Written element by element, or whole from a construct; a constant path of the
        // same local reads only the stores that agree with it; a component of a vector
        // element written whole or by component.
        RangeCase{"WrittenElementByElement",
                  "local_size_x = 64",
                  "uint m[3]; m[0] = 1u; m[1] = 5u; m[2] = " LID " & 7u;\n"
                  "probe[m[" LID " % 3u]] = 0u;",
                  {LOCAL_PART_REASON},
                  {test::Range(0, 7)}},
        RangeCase{"WrittenWhole",
                  "local_size_x = 64",
                  "uint m[3] = uint[](2u, " LID " & 3u, 9u);\nprobe[m[" LID " % 3u]] = 0u;",
                  {LOCAL_PART_REASON},
                  {test::Range(0, 9)}},
        RangeCase{"ConstantPathOfTheSameLocal",
                  "local_size_x = 64",
                  "uint m[2]; m[0] = 4u; m[1] = 6u;\nprobe[m[" LID
                  " & 1u]] = 0u;\nprobe[m[0]] = 0u;",
                  {LOCAL_PART_REASON, LOCAL_PART_REASON},
                  {test::Range(4, 6), test::Range(4, 4)}},
        RangeCase{"ComponentOfAVectorElement",
                  "local_size_x = 64",
                  "uvec2 m[2]; m[0] = uvec2(1u, 2u); m[1].x = 3u; m[1].y = 4u;\n"
                  "probe[m[" LID " & 1u].y] = 0u;",
                  {LOCAL_PART_REASON},
                  {test::Range(2, 4)}},
        // A vector local computed whole and read at a run-time component: each component's
        // range (integer_range_components.cpp); one from memory has none.
        RangeCase{"ComponentOfAComputedVector",
                  "local_size_x = 64, local_size_y = 2",
                  "uvec2 p = gl_LocalInvocationID.xy & 3u;\nprobe[p[" LID " & 1u] + 1u] = 0u;",
                  {LOCAL_PART_REASON},
                  {test::Range(1, 4)}},
        RangeCase{"TrapComputedVectorWithAComponentFromMemory",
                  "local_size_x = 64",
                  "uvec2 p = uvec2(" LID ", data[0]) & uvec2(3u, 0xFFFFFFu);\n"
                  "probe[p[" LID " & 1u]] = 0u;",
                  {LOCAL_PART_REASON},
                  {test::Range(0, 16777215)}},
        // Traps: an element never written (its bits are undefined); one written on one
        // path only; a store at a run-time index; a stored value read from memory; a
        // store after the read in a loop (the next iteration reads it: 100 counts); both
        // indices at run time with the vector element written by component.
        RangeCase{"TrapElementNeverAssigned",
                  "local_size_x = 64",
                  "uint m[3]; m[0] = 1u; m[1] = 2u;\nprobe[m[" LID " % 3u]] = 0u;",
                  {LOCAL_PART_REASON},
                  {UNASSIGNED}},
        RangeCase{"TrapElementAssignedOnOnePath",
                  "local_size_x = 64",
                  "uint m[2]; m[0] = 1u; if (data[0] == 0u) m[1] = 2u;\n"
                  "probe[m[" LID " & 1u]] = 0u;",
                  {LOCAL_PART_REASON},
                  {UNASSIGNED}},
        RangeCase{"TrapStoredAtARuntimeIndex",
                  "local_size_x = 64",
                  "uint m[2] = uint[](0u, 1u); m[" LID " & 1u] = 100u;\n"
                  "probe[m[" LID " & 1u]] = 0u;",
                  {LOCAL_PART_REASON},
                  {test::NoRange("local is not followed: `m` is not followed: indexed by a "
                                 "non-constant (OpAccessChain)")}},
        RangeCase{"TrapStoredFromMemory",
                  "local_size_x = 64",
                  "uint m[2]; m[0] = data[0]; m[1] = 1u;\nprobe[m[" LID " & 1u]] = 0u;",
                  {LOCAL_PART_REASON},
                  {test::NoRange("a value stored to the local has no range: " MEMORY_REASON_TEXT)}},
        RangeCase{"TrapStoredAfterTheReadInALoop",
                  "local_size_x = 64",
                  "uint m[2]; m[0] = 0u; m[1] = 1u;\nfor (int k = 0; k < 2; k++) {\n"
                  "  probe[m[" LID " & 1u]] = 0u;\n  m[1] = 100u;\n}",
                  {LOCAL_PART_REASON},
                  {test::Range(0, 100)}},
        RangeCase{"TrapBothIndicesAtRunTime",
                  "local_size_x = 64",
                  "uvec2 m[2]; m[0] = uvec2(1u, 2u); m[1].x = 3u; m[1].y = 4u;\n"
                  "probe[m[" LID " & 1u][gl_LocalInvocationID.y]] = 0u;",
                  {LOCAL_PART_REASON},
                  {UNASSIGNED}}),
    CaseName);

// --- Full mode: guards through ranged offsets and recomputed values -------------------

// `count` statements of filler (about 5-7 instructions each, none recomputes t + n)
// between a guard and the sum it recomputes: the value-number lookup scans at most
// kMaxNumberingScan (512) instructions.
std::string Filler(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += "data[1] = data[2] * 3u;\n";
  return text;
}
const std::string kSumAfterShortFiller =
    "uint t = gl_LocalInvocationIndex;\nuint n = (data[0] & 63u) + 10u;\n"
    "if (t + n < 100u) {\n" +
    Filler(10) + "probe[t + n] = 0u; }";
const std::string kSumPastScanBudget =
    "uint t = gl_LocalInvocationIndex;\nuint n = (data[0] & 63u) + 10u;\n"
    "if (t + n < 100u) {\n" +
    Filler(200) + "probe[t + n] = 0u; }";

INSTANTIATE_TEST_SUITE_P(
    RangedOffsets, IntegerRangeGlsl,
    ::testing::Values(
        // t + n < 100 with n in [10, 73]: t <= 89, n <= 99, the recomputed sum <= 99.
        RangeCase{"SumBelowBound",
                  "local_size_x = 256",
                  "uint t = gl_LocalInvocationIndex;\nuint n = (data[0] & 63u) + 10u;\n"
                  "if (t + n < 100u) { probe[t] = 0u; probe[n] = 0u; probe[t + n] = 0u; }",
                  {LOCAL_REASON, LOCAL_REASON, LOCAL_REASON},
                  {test::Range(0, 89), test::Range(10, 73), test::Range(10, 99)}},
        // t - n >= 0 in i32 with both ranged: t >= n.min, n <= t.max.
        RangeCase{"SignedDifference",
                  "local_size_x = 64",
                  "int t = int(gl_LocalInvocationIndex);\nint n = int(data[0] & 15u) + 4;\n"
                  "if (t - n > 10) { probe[t] = 0u; probe[n] = 0u; probe[t - n] = 0u; }",
                  {LOCAL_REASON, LOCAL_REASON, LOCAL_REASON},
                  {test::Range(15, 63), test::Range(4, 19), test::Range(11, 59)}},
        // Traps: n up to 2^32 - 1 lets t + n wrap, so the test bounds neither; n stored
        // again between the test and the recomputed sum.
        RangeCase{"TrapSumThatMayWrap",
                  "local_size_x = 256",
                  "uint t = gl_LocalInvocationIndex;\nuint n = data[0] & 4294967295u;\n"
                  "if (t + n < 100u) { probe[t] = 0u; }",
                  {LOCAL_REASON},
                  {test::Range(0, 255)}},
        RangeCase{"TrapOperandStoredAgain",
                  "local_size_x = 256",
                  "uint t = gl_LocalInvocationIndex;\nuint n = data[0] & 63u;\n"
                  "if (t + n < 100u) { n = data[1] & 127u; probe[t + n] = 0u; }",
                  {LOCAL_REASON},
                  {test::Range(0, 226)}},
        // The recomputed sum in the other order, two blocks below the guard, and after
        // filler within the scan budget: each is the tested value.
        RangeCase{"CommutedSumInNestedBlock",
                  "local_size_x = 256",
                  "uint t = gl_LocalInvocationIndex;\nuint n = (data[0] & 63u) + 10u;\n"
                  "if (t + n < 100u) { if (data[3] != 0u) { probe[n + t] = 0u; } }",
                  {LOCAL_REASON},
                  {test::Range(10, 99)}},
        RangeCase{"SumAfterShortFiller",
                  "local_size_x = 256",
                  kSumAfterShortFiller.c_str(),
                  {LOCAL_REASON},
                  {test::Range(10, 99)}},
        // Trap (a budget): past kMaxNumberingScan instructions the guard's sum is not
        // found, so only the operands' own narrowing applies (t <= 89, n <= 73).
        RangeCase{"TrapSumPastScanBudget",
                  "local_size_x = 256",
                  kSumPastScanBudget.c_str(),
                  {LOCAL_REASON},
                  {test::Range(10, 162)}}),
    CaseName);

// --- Full mode: parameters across calls (integer_range_calls.cpp) ---------------------

// The ranges of the indices into probe[] of a shader whose helpers come before main.
std::vector<test::ProbedRange> CallRanges(const std::string& helpers, const std::string& body,
                                          RangeAnalysisMode mode) {
  std::string source =
      "#version 440\nlayout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) buffer Data { uint data[]; };\n"
      "layout(std430, binding = 1) buffer Probe { uint probe[]; };\n" +
      helpers + "\nvoid main() {\n" + body + "\n}\n";
  return ProbeRanges(test::CompileGlsl(source, "comp"), mode);
}

TEST(IntegerRange, Parameters_UnionOfEveryCallSitesArgument) {
  const std::string put = "void put(uint k) { probe[k] = 0u; }";
  EXPECT_EQ(CallRanges(put, "put(3u);\nput(5u);", RangeAnalysisMode::kFull),
            (Ranges{test::Range(3, 5)}));
  // A guard around the call narrows the argument where it is stored.
  EXPECT_EQ(CallRanges(put, "uint x = data[0];\nif (x < 8u) put(x);", RangeAnalysisMode::kFull),
            (Ranges{test::Range(0, 7)}));
  // Trap: one call site is unguarded.
  EXPECT_EQ(
      CallRanges(put, "uint x = data[0];\nif (x < 8u) put(x);\nput(x);", RangeAnalysisMode::kFull),
      (Ranges{
          test::NoRange("an argument passed to the parameter has no range: " MEMORY_REASON_TEXT)}));
  // Reference mode has no rule for parameters.
  EXPECT_EQ(CallRanges(put, "put(3u);", RangeAnalysisMode::kReference),
            (Ranges{test::NoRange("load through a pointer that is not a variable")}));
}

// A parameter passed by value (glslang passes `const in` scalars so): the union of every
// call's operand at its call, as for a parameter passed through a variable.
TEST(IntegerRange, Parameters_PassedByValue_UnionOfEveryCallsOperand) {
  const std::string put = "void put(const in uint k) { probe[k] = 0u; }";
  EXPECT_EQ(CallRanges(put, "put(3u);\nput(5u);", RangeAnalysisMode::kFull),
            (Ranges{test::Range(3, 5)}));
  // A guard around the call narrows the operand there; through a second helper too.
  EXPECT_EQ(CallRanges(put, "uint x = data[0];\nif (x < 8u) put(x);", RangeAnalysisMode::kFull),
            (Ranges{test::Range(0, 7)}));
  EXPECT_EQ(
      CallRanges(put + "\nvoid relay(const in uint j) { put(j + 1u); }",
                 "uint x = data[0];\nif (x < 8u) relay(x);\nrelay(20u);", RangeAnalysisMode::kFull),
      (Ranges{test::Range(1, 21)}));
  // Trap: one call is unguarded.
  EXPECT_EQ(
      CallRanges(put, "uint x = data[0];\nif (x < 8u) put(x);\nput(x);", RangeAnalysisMode::kFull),
      (Ranges{
          test::NoRange("an argument passed to the parameter has no range: " MEMORY_REASON_TEXT)}));
  // Reference mode has no rule for parameters.
  EXPECT_EQ(CallRanges(put, "put(3u);", RangeAnalysisMode::kReference),
            (Ranges{test::NoRange("function parameters have no range")}));
}

// Past 64 call sites (kMaxGuardedCallSites) the arguments are ranged without the guards
// at their calls: a helper called with constants from many places keeps its range; one
// whose arguments only the guards bound has none, and the reason names the budget.
TEST(IntegerRange, Parameters_ManyCallSitesAreRangedWithoutTheirGuards) {
  const std::string put = "void put(uint k) { probe[k] = 0u; }";
  std::string constants, guarded, guarded_few;
  for (int i = 0; i < 65; ++i) constants += "put(" + std::to_string(i % 10) + "u);\n";
  for (int i = 0; i < 65; ++i) {
    std::string x = "x" + std::to_string(i);
    std::string call =
        "uint " + x + " = data[" + std::to_string(i) + "];\nif (" + x + " < 8u) put(" + x + ");\n";
    guarded += call;
    if (i < 64) guarded_few += call;
  }
  EXPECT_EQ(CallRanges(put, constants, RangeAnalysisMode::kFull), (Ranges{test::Range(0, 9)}));
  EXPECT_EQ(CallRanges(put, guarded_few, RangeAnalysisMode::kFull), (Ranges{test::Range(0, 7)}));
  EXPECT_EQ(
      CallRanges(put, guarded, RangeAnalysisMode::kFull),
      (Ranges{test::NoRange("an argument passed to the parameter has no range (function has "
                            "more than 64 call sites: arguments are ranged without the guards at "
                            "their calls, budget kMaxGuardedCallSites): " MEMORY_REASON_TEXT)}));
}

// A part of a struct or vector parameter read by constant indices: the union of the same
// part of every call's argument, found through the value stored (a construct here).
TEST(IntegerRange, Parameters_PartsOfStructAndVectorParameters) {
  const std::string helpers =
      "struct Pick { uint index; uint other; };\n"
      "layout(std430, binding = 2) buffer Picks { Pick picks[]; };\n"
      "void put(Pick p) { probe[p.index] = 0u; }\n"
      "void put2(uvec2 v) { probe[v.y] = 0u; }\n";
  EXPECT_EQ(
      CallRanges(helpers, "put(Pick(3u, data[0]));\nput(Pick(5u, 7u));", RangeAnalysisMode::kFull),
      (Ranges{test::Range(3, 5)}));
  EXPECT_EQ(CallRanges(helpers, "put2(uvec2(data[0], 4u));", RangeAnalysisMode::kFull),
            (Ranges{test::Range(4, 4)}));
  // The guard around the call narrows the part where the argument is stored.
  EXPECT_EQ(CallRanges(helpers, "uint x = data[0];\nif (x < 8u) put(Pick(x, 0u));",
                       RangeAnalysisMode::kFull),
            (Ranges{test::Range(0, 7)}));
  // Trap: the other call passes an unguarded part.
  EXPECT_EQ(
      CallRanges(helpers, "uint x = data[0];\nif (x < 8u) put(Pick(x, 0u));\nput(Pick(x, 1u));",
                 RangeAnalysisMode::kFull),
      (Ranges{
          test::NoRange("an argument passed to the parameter has no range: " MEMORY_REASON_TEXT)}));
  // A struct read from a buffer: glslang copies it into the argument member by member
  // (the layouts differ), which is not one store of the whole value: not followed.
  EXPECT_EQ(CallRanges(helpers, "put(picks[0]);", RangeAnalysisMode::kFull),
            (Ranges{test::NoRange("function parameter has no range: an argument is not a local "
                                  "stored once right before the call")}));
  // Reference mode has no rule for parameters.
  EXPECT_EQ(CallRanges(helpers, "put2(uvec2(1u, 4u));", RangeAnalysisMode::kReference).size(), 1u);
}

// A struct handed down a chain of helpers: the inner helper's part is the same part of
// the outer helper's arguments (piet-gpu's Alloc passed through read_mem).
TEST(IntegerRange, Parameters_PartsPassedDownAChainOfCalls) {
  const std::string helpers =
      "struct Pick { uint index; uint other; };\n"
      "void put(Pick p) { probe[p.index] = 0u; }\n"
      "void relay(Pick p) { put(p); }\n"
      "void relay2(Pick p, uint k) { relay(p); }\n";
  EXPECT_EQ(CallRanges(helpers, "relay(Pick(3u, data[0]));\nrelay(Pick(6u, 7u));",
                       RangeAnalysisMode::kFull),
            (Ranges{test::Range(3, 6)}));
  EXPECT_EQ(CallRanges(helpers, "uint x = data[0];\nif (x < 9u) relay2(Pick(x, 0u), x);",
                       RangeAnalysisMode::kFull),
            (Ranges{test::Range(0, 8)}));
  // Trap: the outer helper's other call passes a part without a range; its root cause
  // is named.
  EXPECT_EQ(CallRanges(helpers, "relay(Pick(3u, 0u));\nrelay(Pick(data[0], 0u));",
                       RangeAnalysisMode::kFull),
            (Ranges{test::NoRange(
                "an argument passed to the parameter has no range: " MEMORY_REASON_TEXT)}));
}

// Traps: a part written in the callee, or selected by a run-time index, says nothing
// about the argument.
TEST(IntegerRange, Parameters_PartsWrittenOrDynamicallyIndexedAreRefused) {
  const std::string written =
      "struct Pick { uint index; uint other; };\n"
      "void put(Pick p) { p.index += data[1]; probe[p.index] = 0u; }\n";
  EXPECT_EQ(CallRanges(written, "put(Pick(3u, 0u));", RangeAnalysisMode::kFull),
            (Ranges{test::NoRange("function parameter has no range: the parameter is not only "
                                  "loaded in its function")}));
  const std::string dynamic = "void put(uvec4 v, uint i) { probe[v[i]] = 0u; }\n";
  Ranges ranges =
      CallRanges(dynamic, "put(uvec4(1u, 2u, 3u, 4u), data[0] & 3u);", RangeAnalysisMode::kFull);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_FALSE(ranges[0].valid) << ranges[0];
}

TEST(IntegerRange, Parameters_WrittenInTheCalleeAreRefused) {
  // Trap: the callee changes its copy, so the argument's range says nothing.
  EXPECT_EQ(CallRanges("void put(uint k) { k += data[0]; probe[k] = 0u; }", "put(3u);",
                       RangeAnalysisMode::kFull),
            (Ranges{test::NoRange("function parameter has no range: the parameter is not only "
                                  "loaded in its function")}));
}

TEST(IntegerRange, Parameters_GuardOnOneLoadNarrowsAnother) {
  // Every load of an only-loaded parameter reads one value: the test's load and the
  // index's load are one canonical value for the guard.
  EXPECT_EQ(CallRanges("void put(uint k) { if (k < 4u) probe[k] = 0u; }", "put(data[0]);",
                       RangeAnalysisMode::kFull),
            (Ranges{test::Range(0, 3)}));
}

// --- Subgroup built-ins (GL_KHR_shader_subgroup_basic, Vulkan 1.1) ------------------

TEST(IntegerRange, SubgroupBuiltins_NeedStatedSize) {
  std::string source =
      "#version 440\n#extension GL_KHR_shader_subgroup_basic : require\n"
      "layout(local_size_x = 64) in;\n"
      "layout(std430, binding = 1) buffer Probe { uint probe[]; };\n"
      "void main() { probe[gl_SubgroupInvocationID] = 0u; probe[gl_SubgroupSize] = 0u; }\n";
  std::vector<uint32_t> words = test::CompileGlsl(source, "comp", "vulkan1.1");
  for (RangeAnalysisMode mode : {RangeAnalysisMode::kReference, RangeAnalysisMode::kFull}) {
    EXPECT_EQ(ProbeRanges(words, mode, 32), (Ranges{test::Range(0, 31), test::Range(32, 32)}));
    EXPECT_EQ(
        ProbeRanges(words, mode, 0),
        (Ranges{test::NoRange("SubgroupLocalInvocationId needs a known subgroup size "
                              "(--subgroup-size)"),
                test::NoRange("SubgroupSize needs a known subgroup size (--subgroup-size)")}));
  }
}

// int(gl_LocalInvocationID) is a bitcast of the loaded vector, then its first component:
// each component keeps its bits, so it has the built-in component's range (full mode).
// A component of texels names the image it was read from.
TEST(IntegerRange, ComponentsOfBitcastBuiltinsAndOfTexels) {
  std::string source =
      "#version 450\n"
      "layout(local_size_x = 64) in;\n"
      "layout(binding = 0) uniform usamplerBuffer texels;\n"
      "layout(std430, binding = 1) buffer Probe { uint probe[]; };\n"
      "void main() {\n"
      "  probe[int(gl_LocalInvocationID)] = 0u;\n"
      "  probe[ivec3(gl_LocalInvocationID).y] = 0u;\n"
      "  probe[texelFetch(texels, 3).x] = 0u;\n"
      "}\n";
  std::vector<uint32_t> words = test::CompileGlsl(source, "comp");
  EXPECT_EQ(ProbeRanges(words, RangeAnalysisMode::kFull),
            (Ranges{test::Range(0, 63), test::Range(0, 0),
                    test::NoRange("value read from an image (texels the application or an earlier "
                                  "pass wrote)")}));
  const test::ProbedRange kReference =
      test::NoRange("component of a composite value is not supported");
  EXPECT_EQ(ProbeRanges(words, RangeAnalysisMode::kReference),
            (Ranges{kReference, kReference, kReference}));
}

// A ballot has 128 bits, of which only the first SubgroupSize count: its bit counts are
// at most 128 on any device, at most the promised size with --subgroup-size, and the
// exclusive scan one less. Full mode only.
TEST(IntegerRange, BallotBitCounts_AtMostTheBallotOrPromisedSubgroupSize) {
  std::string source =
      "#version 450\n#extension GL_KHR_shader_subgroup_ballot : require\n"
      "layout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) buffer Data { uint data[]; };\n"
      "layout(std430, binding = 1) buffer Probe { uint probe[]; };\n"
      "void main() {\n"
      "  uvec4 ballot = subgroupBallot(data[gl_LocalInvocationID.x] != 0u);\n"
      "  probe[subgroupBallotBitCount(ballot)] = 0u;\n"
      "  probe[subgroupBallotInclusiveBitCount(ballot)] = 0u;\n"
      "  probe[subgroupBallotExclusiveBitCount(ballot)] = 0u;\n"
      "}\n";
  std::vector<uint32_t> words = test::CompileGlsl(source, "comp", "vulkan1.1");
  EXPECT_EQ(ProbeRanges(words, RangeAnalysisMode::kFull),
            (Ranges{test::Range(0, 128), test::Range(0, 128), test::Range(0, 127)}));
  EXPECT_EQ(ProbeRanges(words, RangeAnalysisMode::kFull, 32),
            (Ranges{test::Range(0, 32), test::Range(0, 32), test::Range(0, 31)}));
  const test::ProbedRange kReference =
      test::NoRange("OpGroupNonUniformBallotBitCount is not supported");
  EXPECT_EQ(ProbeRanges(words, RangeAnalysisMode::kReference, 32),
            (Ranges{kReference, kReference, kReference}));
}

// --- The promised largest dispatch (--max-workgroups, full mode) -------------------

std::vector<test::ProbedRange> DispatchRanges(const std::string& body, RangeAnalysisMode mode,
                                              std::array<uint32_t, 3> max_workgroups,
                                              const std::string& local_size =
                                                  "local_size_x = 16, "
                                                  "local_size_y = 2") {
  std::vector<uint32_t> words = test::CompileGlsl(ComputeShader(local_size, body), "comp");
  Options options;
  options.range_analysis = mode;
  options.max_workgroups = max_workgroups;
  return test::ObjectRanges(words, options);
}

// WorkgroupId in [0, X - 1], NumWorkgroups in [1, X], GlobalInvocationId in
// [0, X * local size - 1], per component, through a swizzle, a constant subscript and
// a signed reading.
TEST(IntegerRange, MaxWorkgroups_BoundsDispatchBuiltins) {
  const char* body =
      "probe[gl_WorkGroupID.x] = 0u; probe[gl_WorkGroupID.y] = 0u; probe[gl_WorkGroupID.z] = 0u;\n"
      "probe[gl_NumWorkGroups.x] = 0u;\n"
      "probe[gl_GlobalInvocationID.x] = 0u; probe[gl_GlobalInvocationID.y] = 0u;\n"
      "probe[gl_WorkGroupID[1]] = 0u;\n"
      "probe[int(gl_GlobalInvocationID.z) - 1] = 0u;";
  EXPECT_EQ(DispatchRanges(body, RangeAnalysisMode::kFull, {4, 3, 2}),
            (Ranges{test::Range(0, 3), test::Range(0, 2), test::Range(0, 1), test::Range(1, 4),
                    test::Range(0, 63), test::Range(0, 5), test::Range(0, 2), test::Range(-1, 0)}));
  // One more workgroup in x: every x bound moves by exactly one group.
  EXPECT_EQ(DispatchRanges(body, RangeAnalysisMode::kFull, {5, 3, 2}),
            (Ranges{test::Range(0, 4), test::Range(0, 2), test::Range(0, 1), test::Range(1, 5),
                    test::Range(0, 79), test::Range(0, 5), test::Range(0, 2), test::Range(-1, 0)}));
}

// The promise is full mode's: reference mode keeps the seed's rules, and full mode
// without it names the flag.
TEST(IntegerRange, MaxWorkgroups_OnlyFullModeAndOnlyWithThePromise) {
  const char* body = "probe[gl_WorkGroupID.x] = 0u; probe[gl_NumWorkGroups.y] = 0u;";
  EXPECT_EQ(DispatchRanges(body, RangeAnalysisMode::kReference, {4, 3, 2}),
            (Ranges{test::NoRange("built-in WorkgroupId has no range"),
                    test::NoRange("built-in NumWorkgroups has no range")}));
  EXPECT_EQ(DispatchRanges(body, RangeAnalysisMode::kFull, {0, 0, 0}),
            (Ranges{test::NoRange("built-in WorkgroupId has no range without a promised dispatch "
                                  "size (--max-workgroups)"),
                    test::NoRange("built-in NumWorkgroups has no range without a promised "
                                  "dispatch size (--max-workgroups)")}));
  EXPECT_EQ(
      DispatchRanges(body, RangeAnalysisMode::kOff, {4, 3, 2}),
      (Ranges{test::NoRange("range analysis is off"), test::NoRange("range analysis is off")}));
}

// At the top of u32: the largest promise keeps WorkgroupId exact; a global id that
// would pass 2^32 - 1 has no range, and one that passes 2^31 - 1 has none as i32.
TEST(IntegerRange, MaxWorkgroups_OverflowEdges) {
  const char* body =
      "probe[gl_WorkGroupID.x] = 0u; probe[gl_GlobalInvocationID.x] = 0u;\n"
      "probe[int(gl_GlobalInvocationID.y)] = 0u;";
  EXPECT_EQ(
      DispatchRanges(body, RangeAnalysisMode::kFull, {0xFFFFFFFFu, 1u << 28, 1},
                     "local_size_x = 2, local_size_y = 16"),
      (Ranges{test::Range(0, 4294967294), test::NoRange("global invocation count overflows u32"),
              test::NoRange("conversion to i32 of a u32 value that may exceed 2147483647")}));
  EXPECT_EQ(
      DispatchRanges(body, RangeAnalysisMode::kFull, {0x80000000u, (1u << 27) - 1, 1},
                     "local_size_x = 2, local_size_y = 16"),
      (Ranges{test::Range(0, 2147483647), test::Range(0, 4294967295), test::Range(0, 2147483631)}));
}

// --- InvocationId (full mode) -----------------------------------------------------

std::vector<test::ProbedRange> RangesOf(const std::vector<uint32_t>& words, RangeAnalysisMode mode,
                                        const std::string& object) {
  Options options;
  options.range_analysis = mode;
  return test::ObjectRanges(words, options, object);
}

TEST(IntegerRange, InvocationId_TessellationAndGeometry) {
  std::string tesc =
      "#version 440\nlayout(vertices = 4) out;\n"
      "layout(location = 0) out vec4 color[4];\n"
      "void main() { color[gl_InvocationID] = vec4(1.0); }\n";
  std::string geom_body =
      "layout(triangles) in;\nlayout(points, max_vertices = 1) out;\n"
      "layout(location = 0) out float v;\nfloat table[8];\n"
      "void main() { v = table[gl_InvocationID]; EmitVertex(); }\n";
  std::vector<uint32_t> tesc_words = test::CompileGlsl(tesc, "tesc");
  std::vector<uint32_t> geom_default = test::CompileGlsl("#version 440\n" + geom_body, "geom");
  std::vector<uint32_t> geom_six =
      test::CompileGlsl("#version 440\nlayout(invocations = 6) in;\n" + geom_body, "geom");
  EXPECT_EQ(RangesOf(tesc_words, RangeAnalysisMode::kFull, "color"), (Ranges{test::Range(0, 3)}));
  EXPECT_EQ(RangesOf(geom_default, RangeAnalysisMode::kFull, "table"), (Ranges{test::Range(0, 0)}));
  EXPECT_EQ(RangesOf(geom_six, RangeAnalysisMode::kFull, "table"), (Ranges{test::Range(0, 5)}));
  EXPECT_EQ(RangesOf(geom_six, RangeAnalysisMode::kReference, "table"),
            (Ranges{test::NoRange("built-in InvocationId has no range")}));
}

// --- Hand-written SPIR-V for what GLSL cannot express --------------------------------

const char* kModuleHeader = R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
OpExecutionMode %main LocalSize 8 4 1
OpDecorate %lid BuiltIn LocalInvocationId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%v3uint = OpTypeVector %uint 3
%ptr_in_v3 = OpTypePointer Input %v3uint
%lid = OpVariable %ptr_in_v3 Input
%uint_1 = OpConstant %uint 1
%uint_5 = OpConstant %uint 5
%uint_100 = OpConstant %uint 100
%ptr_in_uint = OpTypePointer Input %uint
%ptr_fn_uint = OpTypePointer Function %uint
%bool = OpTypeBool
%true = OpConstantTrue %bool
)";

// Ranges of every value named %r0, %r1, ... in `body` (a function body after the label).
std::vector<test::ProbedRange> NamedRanges(const std::string& body, RangeAnalysisMode mode,
                                           int count) {
  std::string names;
  for (int i = 0; i < count; ++i)
    names += "OpName %r" + std::to_string(i) + " \"r" + std::to_string(i) + "\"\n";
  std::string header = kModuleHeader;
  header.insert(header.find("OpDecorate"), names);
  std::vector<uint32_t> words = test::Assemble(header +
                                               "%main = OpFunction %void None %fn\n"
                                               "%entry = OpLabel\n" +
                                               body + "OpReturn\nOpFunctionEnd\n");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  EXPECT_TRUE(module) << error;
  if (!module) return {};
  AnalysisContext analyses(*module);
  IntegerRangeAnalysis& analysis = analyses.GetIntegerRanges({mode, 0});
  std::unordered_map<std::string, uint32_t> ids;
  for (const Instruction& inst : module->debug_names) ids[inst.StringAt(1)] = inst.words[0];
  std::vector<test::ProbedRange> ranges;
  for (int i = 0; i < count; ++i)
    ranges.push_back(test::Probed(analysis.RangeOf(ids["r" + std::to_string(i)])));
  return ranges;
}

TEST(IntegerRange, CompositeExtractOfLoadedLocalId_FullModeOnly) {
  // uvec3 v = gl_LocalInvocationID (one load, as DXC emits it); v.y; copy(v).x
  const char* body = R"(
%v = OpLoad %v3uint %lid
%r0 = OpCompositeExtract %uint %v 1
%c = OpCopyObject %v3uint %v
%r1 = OpCompositeExtract %uint %c 0
%r2 = OpCopyObject %uint %r0
)";
  EXPECT_EQ(NamedRanges(body, RangeAnalysisMode::kReference, 3),
            (Ranges{test::NoRange("component of a loaded built-in vector is not supported in "
                                  "reference mode"),
                    test::NoRange("component of a composite value is not supported"),
                    test::NoRange("component of a loaded built-in vector is not supported in "
                                  "reference mode")}));
  EXPECT_EQ(NamedRanges(body, RangeAnalysisMode::kFull, 3),
            (Ranges{test::Range(0, 3), test::Range(0, 7), test::Range(0, 3)}));
}

TEST(IntegerRange, MixedSignednessOperands_ConvertFirst) {
  // An OpIAdd whose u32 result has an i32 operand: the operand converts by the
  // conversion rule before the addition.
  const char* body = R"(
%int_m1 = OpBitcast %int %uint_5
%r0 = OpIAdd %uint %int_m1 %uint_1
%r1 = OpSDiv %uint %uint_5 %uint_1
%r2 = OpUMod %int %uint_5 %uint_1
%r3 = OpExtInst %uint %glsl UMin %uint_5 %uint_1
)";
  for (RangeAnalysisMode mode : {RangeAnalysisMode::kReference, RangeAnalysisMode::kFull})
    EXPECT_EQ(NamedRanges(body, mode, 4),
              (Ranges{test::Range(6, 6), test::Range(5, 5), test::Range(0, 0), test::Range(1, 1)}));
}

TEST(IntegerRange, Select_FullModeIsUnionOfBothSides) {
  // c ? lid.x : 100u  and  c ? lid.x : <no range>
  const char* body = R"(
%x_ptr = OpAccessChain %ptr_in_uint %lid %uint_1
%x = OpLoad %uint %x_ptr
%r0 = OpSelect %uint %true %x %uint_100
%undef = OpUndef %uint
%r1 = OpSelect %uint %true %x %undef
)";
  EXPECT_EQ(NamedRanges(body, RangeAnalysisMode::kReference, 2),
            (Ranges{test::NoRange("select is not supported in reference mode"),
                    test::NoRange("select is not supported in reference mode")}));
  EXPECT_EQ(NamedRanges(body, RangeAnalysisMode::kFull, 2),
            (Ranges{test::Range(0, 100), test::NoRange("undefined value")}));
}

// for (uint i = 1u; i < 5u; i++) with the comparison written as OpULessThan or, as no
// GLSL compiler would, OpSLessThan (a u32 above 2^31 - 1 compares as negative).
std::string LoopWithComparison(const std::string& compare) {
  return R"(
%i = OpVariable %ptr_fn_uint Function
OpStore %i %uint_1
OpBranch %header
%header = OpLabel
OpLoopMerge %merge %continue None
OpBranch %cond
%cond = OpLabel
%c = OpLoad %uint %i
%cmp = )" +
         compare + R"( %bool %c %uint_5
OpBranchConditional %cmp %body %merge
%body = OpLabel
%r0 = OpLoad %uint %i
OpBranch %continue
%continue = OpLabel
%l = OpLoad %uint %i
%n = OpIAdd %uint %l %uint_1
OpStore %i %n
OpBranch %header
%merge = OpLabel
)";
}

TEST(IntegerRange, LoopComparisonSignedness_MustMatchTheVariable) {
  for (RangeAnalysisMode mode : {RangeAnalysisMode::kReference, RangeAnalysisMode::kFull}) {
    EXPECT_EQ(NamedRanges(LoopWithComparison("OpULessThan"), mode, 1), (Ranges{test::Range(1, 4)}));
    // Full mode: the signed test says nothing about the unsigned variable, so its update
    // cannot be widened (nothing keeps it from wrapping).
    EXPECT_EQ(
        NamedRanges(LoopWithComparison("OpSLessThan"), mode, 1),
        (Ranges{mode == RangeAnalysisMode::kReference
                    ? test::NoRange("loop comparison's signedness does not match the loop "
                                    "variable's type")
                    : test::NoRange("local is updated from its own value in a loop "
                                    "without a guard that keeps it below the type's maximum")}));
  }
}

// if (c) a = lid.y; else a = 5u;  as an optimizer leaves it: a phi. A loop-carried phi
// (it depends on itself) has no range.
TEST(IntegerRange, Phi_FullModeIsUnionOfIncomingValues) {
  const char* body = R"(
%y_ptr = OpAccessChain %ptr_in_uint %lid %uint_1
%y = OpLoad %uint %y_ptr
OpSelectionMerge %join None
OpBranchConditional %true %then %join
%then = OpLabel
OpBranch %join
%join = OpLabel
%r0 = OpPhi %uint %y %then %uint_100 %entry
OpBranch %header
%header = OpLabel
%r1 = OpPhi %uint %uint_1 %join %next %continue
OpLoopMerge %merge %continue None
OpBranchConditional %true %continue %merge
%continue = OpLabel
%next = OpIAdd %uint %r1 %uint_1
OpBranch %header
%merge = OpLabel
)";
  EXPECT_EQ(NamedRanges(body, RangeAnalysisMode::kReference, 2),
            (Ranges{test::NoRange("OpPhi (a value merged from several blocks) is not supported in "
                                  "reference mode"),
                    test::NoRange("OpPhi (a value merged from several blocks) is not supported in "
                                  "reference mode")}));
  std::vector<test::ProbedRange> full = NamedRanges(body, RangeAnalysisMode::kFull, 2);
  ASSERT_EQ(full.size(), 2u);
  EXPECT_EQ(full[0], test::Range(0, 100));
  EXPECT_FALSE(full[1].valid);
  EXPECT_EQ(full[1].reason.rfind("cyclic definition of %", 0), 0u) << full[1];
}

TEST(IntegerRange, NonIntegerValue_HasNoRange) {
  const char* body = "%r0 = OpLoad %v3uint %lid\n";
  EXPECT_EQ(NamedRanges(body, RangeAnalysisMode::kFull, 1),
            (Ranges{test::NoRange("not a scalar 32-bit integer")}));
}

// A chain of 100,000 dependent additions is evaluated without recursion.
TEST(IntegerRange, LongChain_IsIterative) {
  std::string body = "%r0 = OpIAdd %uint %uint_1 %uint_1\n";
  const int kLength = 100000;
  for (int i = 1; i < kLength; ++i)
    body += "%a" + std::to_string(i) + " = OpIAdd %uint " +
            (i == 1 ? std::string("%r0") : "%a" + std::to_string(i - 1)) + " %uint_1\n";
  body += "%r1 = OpCopyObject %uint %a" + std::to_string(kLength - 1) + "\n";
  EXPECT_EQ(NamedRanges(body, RangeAnalysisMode::kFull, 2),
            (Ranges{test::Range(2, 2), test::Range(kLength + 1, kLength + 1)}));
}

// --- Soundness on random expressions ---------------------------------------------------
//
// Random chains of the supported operations over lid.x (workgroup sizes 1..256) and an
// unknown value (a Private variable), evaluated exactly for every invocation with
// SPIR-V's 32-bit semantics. An operation that is undefined for some sample (division
// by zero, shift by 32 or more, INT_MIN / -1, clamp with lo > hi, bitfield past bit 31)
// yields an arbitrary value (a random one here, which later operations then use), so it
// must not get a range itself; every value that has a range must hold it everywhere.

struct Sampled {
  std::string name;
  bool is_signed;
  std::vector<uint32_t> bits;
  std::vector<bool> undefined;
};

class RandomProgram {
 public:
  RandomProgram(uint32_t seed, uint32_t width) : rng_(seed), width_(width) {
    for (uint32_t x = 0; x < width; ++x)
      for (int r = 0; r < 3; ++r) {
        lid_.push_back(x);
        unknown_.push_back(r == 0 ? 0u : r == 1 ? 0xffffffffu : uint32_t(rng_()));
      }
    Sampled x{"x", false, lid_, std::vector<bool>(lid_.size())};
    Sampled u{"u", false, unknown_, std::vector<bool>(lid_.size())};
    values_ = {x, u};
  }

  void Generate(int steps) {
    for (int i = 0; i < steps; ++i) Step();
  }

  std::string Assembly() const {
    std::string text =
        "OpCapability Shader\n%glsl = OpExtInstImport \"GLSL.std.450\"\n"
        "OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\" %lid %priv\n"
        "OpExecutionMode %main LocalSize " +
        std::to_string(width_) + " 1 1\n";
    for (const Sampled& value : values_)
      text += "OpName %" + value.name + " \"" + value.name + "\"\n";
    text +=
        "OpDecorate %lid BuiltIn LocalInvocationId\n"
        "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n"
        "%int = OpTypeInt 32 1\n%v3uint = OpTypeVector %uint 3\n"
        "%ptr_in_v3 = OpTypePointer Input %v3uint\n%ptr_in = OpTypePointer Input %uint\n"
        "%ptr_priv = OpTypePointer Private %uint\n%lid = OpVariable %ptr_in_v3 Input\n"
        "%priv = OpVariable %ptr_priv Private\n%zero = OpConstant %uint 0\n" +
        constants_ +
        "%main = OpFunction %void None %fn\n%entry = OpLabel\n"
        "%xp = OpAccessChain %ptr_in %lid %zero\n%x = OpLoad %uint %xp\n"
        "%u = OpLoad %uint %priv\n" +
        code_ + "OpReturn\nOpFunctionEnd\n";
    return text;
  }

  const std::vector<Sampled>& values() const { return values_; }

 private:
  uint32_t Pick(uint32_t n) { return uint32_t(rng_() % n); }

  // An existing value, or a new constant of either signedness.
  const Sampled& Operand() {
    if (Pick(10) < 7)
      return values_[values_.size() - 1 - Pick(std::min<size_t>(values_.size(), 4))];
    static const uint32_t kInteresting[] = {
        0,    1,     2,          3,          4,          5,          7,          8,         15,
        16,   31,    32,         33,         63,         64,         100,        255,       256,
        1000, 65535, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff};
    uint32_t bits = Pick(8) == 0 ? uint32_t(rng_()) : kInteresting[Pick(26)];
    bool is_signed = Pick(2) == 0;
    std::string name = "c" + std::to_string(constant_count_++);
    constants_ += "%" + name + " = OpConstant " + (is_signed ? "%int " : "%uint ") +
                  (is_signed ? std::to_string(int32_t(bits)) : std::to_string(bits)) + "\n";
    values_.push_back({name, is_signed, std::vector<uint32_t>(lid_.size(), bits),
                       std::vector<bool>(lid_.size())});
    return values_.back();
  }

  // `value` as the given signedness (an OpBitcast when it differs).
  Sampled As(const Sampled& value, bool is_signed) {
    if (value.is_signed == is_signed) return value;
    Sampled cast = value;
    cast.name = "v" + std::to_string(values_.size());
    cast.is_signed = is_signed;
    code_ += "%" + cast.name + " = OpBitcast " + (is_signed ? "%int " : "%uint ") + "%" +
             value.name + "\n";
    values_.push_back(cast);
    return cast;
  }

  void Step();

  std::mt19937 rng_;
  uint32_t width_;
  std::vector<uint32_t> lid_, unknown_;
  std::vector<Sampled> values_;
  std::string constants_, code_;
  int constant_count_ = 0;
};

struct OpSpec {
  const char* spelling;  // "OpIAdd" or "GLSL SMin"
  int arity;
  int result;      // 0: either signedness, 1: signed only (with same-type operands), 2: unsigned
  bool same_type;  // GLSL.std.450 and OpBitFieldUExtract's base: operands of the result type
};

const OpSpec kOps[] = {
    {"OpIAdd", 2, 0, false},
    {"OpISub", 2, 0, false},
    {"OpIMul", 2, 0, false},
    {"OpUDiv", 2, 2, true},
    {"OpSDiv", 2, 0, false},
    {"OpUMod", 2, 2, true},
    {"OpSMod", 2, 0, false},
    {"OpSRem", 2, 0, false},
    {"OpShiftLeftLogical", 2, 0, false},
    {"OpShiftRightLogical", 2, 0, false},
    {"OpShiftRightArithmetic", 2, 0, false},
    {"OpBitwiseAnd", 2, 0, false},
    {"OpBitcast", 1, 0, false},
    {"GLSL SMin", 2, 1, true},
    {"GLSL SMax", 2, 1, true},
    {"GLSL UMin", 2, 2, true},
    {"GLSL UMax", 2, 2, true},
    {"GLSL SClamp", 3, 1, true},
    {"GLSL UClamp", 3, 2, true},
    {"OpBitFieldUExtract", 3, 2, true},
    {"OpBitCount", 1, 0, false},
    {"GLSL FindILsb", 1, 0, false},
    {"GLSL FindUMsb", 1, 0, false},
    {"GLSL FindSMsb", 1, 0, false},
};

// The highest set bit of `bits`, -1 for 0.
int32_t HighestBit(uint32_t bits) {
  int32_t highest = -1;
  for (int32_t i = 0; i < 32; ++i)
    if (bits & (1u << i)) highest = i;
  return highest;
}

// Exact 32-bit result; false when the operation is undefined for these operands.
bool Evaluate(const std::string& op, const uint32_t* v, uint32_t* out) {
  auto s = [&](int i) { return int32_t(v[i]); };
  if (op == "OpIAdd")
    *out = v[0] + v[1];
  else if (op == "OpISub")
    *out = v[0] - v[1];
  else if (op == "OpIMul")
    *out = v[0] * v[1];
  else if (op == "OpUDiv" || op == "OpUMod") {
    if (!v[1]) return false;
    *out = op == "OpUDiv" ? v[0] / v[1] : v[0] % v[1];
  } else if (op == "OpSDiv" || op == "OpSMod" || op == "OpSRem") {
    if (!v[1] || (s(0) == INT32_MIN && s(1) == -1)) return false;
    int32_t r = op == "OpSDiv" ? s(0) / s(1) : s(0) % s(1);
    if (op == "OpSMod" && r != 0 && ((r < 0) != (s(1) < 0))) r += s(1);
    *out = uint32_t(r);
  } else if (op.rfind("OpShift", 0) == 0) {
    if (v[1] >= 32) return false;
    *out = op == "OpShiftLeftLogical"    ? v[0] << v[1]
           : op == "OpShiftRightLogical" ? v[0] >> v[1]
                                         : uint32_t(s(0) >> v[1]);
  } else if (op == "OpBitwiseAnd")
    *out = v[0] & v[1];
  else if (op == "OpBitcast")
    *out = v[0];
  else if (op == "GLSL SMin")
    *out = uint32_t(std::min(s(0), s(1)));
  else if (op == "GLSL SMax")
    *out = uint32_t(std::max(s(0), s(1)));
  else if (op == "GLSL UMin")
    *out = std::min(v[0], v[1]);
  else if (op == "GLSL UMax")
    *out = std::max(v[0], v[1]);
  else if (op == "GLSL SClamp") {
    if (s(1) > s(2)) return false;
    *out = uint32_t(std::min(std::max(s(0), s(1)), s(2)));
  } else if (op == "GLSL UClamp") {
    if (v[1] > v[2]) return false;
    *out = std::min(std::max(v[0], v[1]), v[2]);
  } else if (op == "OpBitFieldUExtract") {
    if (uint64_t(v[1]) + v[2] > 32) return false;
    *out = v[2] == 0 ? 0 : uint32_t((uint64_t(v[0]) >> v[1]) & ((uint64_t(1) << v[2]) - 1));
  } else if (op == "OpBitCount") {
    uint32_t count = 0;
    for (uint32_t bits = v[0]; bits; bits &= bits - 1) ++count;
    *out = count;
  } else if (op == "GLSL FindILsb") {
    int32_t lowest = -1;
    for (int32_t i = 31; i >= 0; --i)
      if (v[0] & (1u << i)) lowest = i;
    *out = uint32_t(lowest);
  } else if (op == "GLSL FindUMsb") {
    *out = uint32_t(HighestBit(v[0]));
  } else if (op == "GLSL FindSMsb") {
    *out = uint32_t(HighestBit(s(0) < 0 ? ~v[0] : v[0]));
  } else {
    return false;
  }
  return true;
}

void RandomProgram::Step() {
  const OpSpec& op = kOps[Pick(sizeof(kOps) / sizeof(kOps[0]))];
  bool is_signed = op.result == 1 || (op.result == 0 && Pick(2) == 0);
  std::vector<Sampled> operands;
  for (int i = 0; i < op.arity; ++i) {
    Sampled operand = Operand();
    bool needs_cast = op.same_type && (std::string(op.spelling) != "OpBitFieldUExtract" || i == 0);
    operands.push_back(needs_cast ? As(operand, is_signed) : operand);
  }
  if (std::string(op.spelling) == "OpBitcast") is_signed = !operands[0].is_signed;
  Sampled result{"v" + std::to_string(values_.size()), is_signed, {}, {}};
  std::string spelling = op.spelling;
  code_ += "%" + result.name + " = " +
           (spelling.rfind("GLSL ", 0) == 0 ? "OpExtInst " : spelling + " ") +
           (is_signed ? "%int" : "%uint") +
           (spelling.rfind("GLSL ", 0) == 0 ? " %glsl " + spelling.substr(5) : "");
  for (const Sampled& operand : operands) code_ += " %" + operand.name;
  code_ += "\n";
  for (size_t k = 0; k < lid_.size(); ++k) {
    uint32_t in[3] = {0, 0, 0};
    for (size_t i = 0; i < operands.size(); ++i) in[i] = operands[i].bits[k];
    uint32_t out = 0;
    bool undefined = !Evaluate(spelling, in, &out);
    result.bits.push_back(undefined ? uint32_t(rng_()) : out);
    result.undefined.push_back(undefined);
  }
  values_.push_back(result);
}

TEST(IntegerRange, RandomExpressions_RangesHoldForEveryInvocation) {
  const uint32_t kWidths[] = {1, 7, 64, 256};
  int proven = 0;
  for (uint32_t seed = 0; seed < 200; ++seed) {
    RandomProgram program(seed, kWidths[seed % 4]);
    program.Generate(12);
    std::vector<uint32_t> words = test::Assemble(program.Assembly());
    ASSERT_FALSE(words.empty()) << program.Assembly();
    ASSERT_EQ(test::ValidateFor(words, TargetEnv::kUniversal), "") << program.Assembly();
    std::string error;
    std::optional<Module> module = ParseModule(words, &error);
    ASSERT_TRUE(module) << error;
    AnalysisContext analyses(*module);  // both modes share its def-use, CFGs and value flow
    std::unordered_map<std::string, uint32_t> ids;
    for (const Instruction& inst : module->debug_names) ids[inst.StringAt(1)] = inst.words[0];
    for (RangeAnalysisMode mode : {RangeAnalysisMode::kReference, RangeAnalysisMode::kFull}) {
      IntegerRangeAnalysis& analysis = analyses.GetIntegerRanges({mode, 0});
      for (const Sampled& value : program.values()) {
        IntegerRange range = analysis.RangeOf(ids.at(value.name));
        if (!range.valid) continue;
        ++proven;
        ASSERT_EQ(range.is_signed, value.is_signed) << value.name;
        for (size_t k = 0; k < value.bits.size(); ++k) {
          ASSERT_FALSE(value.undefined[k])
              << "seed " << seed << ": %" << value.name << " may be undefined yet has a range\n"
              << program.Assembly();
          int64_t concrete = value.is_signed ? int64_t(int32_t(value.bits[k])) : value.bits[k];
          ASSERT_TRUE(concrete >= range.min && concrete <= range.max)
              << "seed " << seed << ": %" << value.name << " = " << concrete << " outside ["
              << range.min << ", " << range.max << "]\n"
              << program.Assembly();
        }
      }
    }
  }
  EXPECT_GT(proven, 1000);  // the programs do exercise the rules
}

// Random for-loops: the range given to the body's loads of i must hold for every value
// the body sees, simulated exactly (32-bit wrap-around, at most 5000 iterations per
// invocation) for every invocation of the workgroup.
TEST(IntegerRange, RandomLoops_RangesHoldForEveryIteration) {
  std::mt19937 rng(7);
  auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
  static const uint32_t kValues[] = {0,          1,          2,          3,          5,
                                     9,          10,         16,         63,         64,
                                     100,        255,        0x7ffffff0, 0x7ffffffe, 0x7fffffff,
                                     0x80000000, 0x80000001, 0xfffffff0, 0xfffffffe, 0xffffffff};
  static const uint32_t kSteps[] = {1, 1, 2, 3, 6, 64, 0x7fffffff, 0xffffffff};
  static const char* kCompares[] = {"<", "<=", ">", ">="};
  int proven = 0;
  for (int round = 0; round < 120; ++round) {
    bool is_signed = pick(2) == 0;
    uint32_t width = (const uint32_t[]){1, 4, 64}[pick(3)];
    uint32_t init_offset = kValues[pick(20)], bound = kValues[pick(20)];
    uint32_t step = kSteps[pick(8)];
    bool from_lid = pick(2) == 0, add = pick(2) == 0, bound_left = pick(3) == 0;
    int compare = int(pick(4));
    std::string type = is_signed ? "int" : "uint";
    auto literal = [&](uint32_t bits) { return type + "(" + std::to_string(bits) + "u)"; };
    std::string init = from_lid ? type + "(gl_LocalInvocationID.x) + " + literal(init_offset)
                                : literal(init_offset);
    std::string condition = bound_left
                                ? literal(bound) + " " + kCompares[(compare + 2) % 4] + " i"
                                : std::string("i ") + kCompares[compare] + " " + literal(bound);
    std::string body = "for (" + type + " i = " + init + "; " + condition + "; i " +
                       (add ? "+= " : "-= ") + literal(step) + ") { probe[i] = 0u; }";
    std::string source = "#version 440\nlayout(local_size_x = " + std::to_string(width) +
                         ") in;\nlayout(std430, binding = 1) buffer Probe { uint probe[]; };\n"
                         "void main() {\n" +
                         body + "\n}\n";
    std::vector<uint32_t> words = test::CompileGlsl(source, "comp");
    for (RangeAnalysisMode mode : {RangeAnalysisMode::kReference, RangeAnalysisMode::kFull}) {
      Options options;
      options.range_analysis = mode;
      std::vector<test::ProbedRange> ranges = test::ObjectRanges(words, options);
      ASSERT_FALSE(ranges.empty()) << source;
      const test::ProbedRange* record = &ranges.back();
      if (!record->valid) continue;
      ++proven;
      for (uint32_t x = 0; x < (from_lid ? width : 1); ++x) {
        uint32_t i = from_lid ? x + init_offset : init_offset;
        for (int iteration = 0; iteration < 5000; ++iteration) {
          int64_t a = is_signed ? int64_t(int32_t(i)) : int64_t(i);
          int64_t b = is_signed ? int64_t(int32_t(bound)) : int64_t(bound);
          bool runs = compare == 0 ? a < b : compare == 1 ? a <= b : compare == 2 ? a > b : a >= b;
          if (!runs) break;
          ASSERT_TRUE(a >= record->min && a <= record->max)
              << "i = " << a << " outside " << *record << "\n"
              << source;
          i = add ? i + step : i - step;
        }
      }
    }
  }
  EXPECT_GT(proven, 40);
}

// Random while-loops with general updates through a second local (integer_range_fixed_
// point.cpp): `while (x CMP B) { probe[x]; y = F(x); probe[y]; x = G(y); } probe[x];`
// with F and G random chains of u32 operators over constants. Every proven range must
// hold for every value the loop reads, simulated exactly (32-bit wrap-around, at most
// 400 iterations per invocation, every invocation of the workgroup).
struct UpdateStep {
  std::string text;  // GLSL over `v`
  uint32_t (*apply)(uint32_t v, uint32_t c);
  uint32_t c;
};

UpdateStep RandomUpdateStep(std::mt19937& rng) {
  static const uint32_t kConstants[] = {1, 2, 3, 5, 7, 16, 63, 100, 1000, 0x7fffffff, 0xfffffff0};
  uint32_t c = kConstants[rng() % 11];
  switch (rng() % 8) {
    case 0:
      return {"(v + " + std::to_string(c) + "u)", [](uint32_t v, uint32_t k) { return v + k; }, c};
    case 1:
      return {"(v - " + std::to_string(c) + "u)", [](uint32_t v, uint32_t k) { return v - k; }, c};
    case 2:
      return {"(v * " + std::to_string(c % 5 + 1) + "u)",
              [](uint32_t v, uint32_t k) { return v * (k % 5 + 1); }, c};
    case 3:
      return {"(v / " + std::to_string(c) + "u)", [](uint32_t v, uint32_t k) { return v / k; }, c};
    case 4:
      return {"(v >> " + std::to_string(c % 4) + "u)",
              [](uint32_t v, uint32_t k) { return v >> (k % 4); }, c};
    case 5:
      return {"(v % " + std::to_string(c) + "u)", [](uint32_t v, uint32_t k) { return v % k; }, c};
    case 6:
      return {"(v & " + std::to_string(c) + "u)", [](uint32_t v, uint32_t k) { return v & k; }, c};
    default:
      return {"min(v, " + std::to_string(c) + "u)",
              [](uint32_t v, uint32_t k) { return std::min(v, k); }, c};
  }
}

struct UpdateChain {
  std::vector<UpdateStep> steps;
  std::string Text(const std::string& operand) const {
    std::string text = operand;
    for (const UpdateStep& step : steps) {
      std::string next = step.text;
      next.replace(next.find('v'), 1, text);
      text = next;
    }
    return text;
  }
  uint32_t Apply(uint32_t v) const {
    for (const UpdateStep& step : steps) v = step.apply(v, step.c);
    return v;
  }
};

TEST(IntegerRange, RandomGeneralUpdates_RangesHoldForEveryIteration) {
  std::mt19937 rng(11);
  static const uint32_t kValues[] = {0, 1, 2, 5, 10, 64, 100, 1000, 0x7fffffff, 0xfffffff0};
  static const char* kCompares[] = {"<", "<=", ">", ">=", "!="};
  int proven = 0, proven_x = 0, rounds = 0;
  for (; rounds < 150; ++rounds) {
    uint32_t width = (const uint32_t[]){1, 8, 64}[rng() % 3];
    uint32_t init = kValues[rng() % 10], bound = kValues[rng() % 10];
    int compare = int(rng() % 5);
    UpdateChain f, g;
    for (uint32_t n = 1 + rng() % 2; n > 0; --n) f.steps.push_back(RandomUpdateStep(rng));
    for (uint32_t n = rng() % 2; n > 0; --n) g.steps.push_back(RandomUpdateStep(rng));
    bool from_lid = rng() % 2 == 0;
    std::string start = from_lid ? "gl_LocalInvocationID.x + " + std::to_string(init) + "u"
                                 : std::to_string(init) + "u";
    std::string body = "uint x = " + start + ";\nwhile (x " + kCompares[compare] + " " +
                       std::to_string(bound) + "u) {\n  probe[x] = 0u;\n  uint y = " + f.Text("x") +
                       ";\n  probe[y] = 0u;\n  x = " + g.Text("y") + ";\n}\nprobe[x] = 0u;";
    std::string source = ComputeShader("local_size_x = " + std::to_string(width), body);
    std::vector<uint32_t> words = test::CompileGlsl(source, "comp");
    Options options;
    options.range_analysis = RangeAnalysisMode::kFull;
    std::vector<test::ProbedRange> records = test::ObjectRanges(words, options);
    ASSERT_EQ(records.size(), 3u) << source;
    for (const test::ProbedRange& record : records) proven += record.valid;
    proven_x += records[0].valid;  // x itself: only the fixed point bounds it
    auto check = [&](int which, uint32_t value) {
      const test::ProbedRange& r = records[which];
      ASSERT_TRUE(!r.valid || (int64_t(value) >= r.min && int64_t(value) <= r.max))
          << "probe #" << which << " = " << value << " outside " << r << "\n"
          << source;
    };
    for (uint32_t lid = 0; lid < (from_lid ? width : 1); ++lid) {
      uint32_t x = from_lid ? lid + init : init;
      for (int iteration = 0; iteration < 400; ++iteration) {
        bool runs = compare == 0   ? x < bound
                    : compare == 1 ? x <= bound
                    : compare == 2 ? x > bound
                    : compare == 3 ? x >= bound
                                   : x != bound;
        if (!runs) {
          check(2, x);
          break;
        }
        check(0, x);
        uint32_t y = f.Apply(x);
        check(1, y);
        x = g.Apply(y);
      }
    }
  }
  EXPECT_GT(proven, 150) << "of " << rounds * 3;
  EXPECT_GT(proven_x, 40) << "of " << rounds;
}

// The full-mode access records of the Probe accesses of a 4-invocation kernel around
// `body`, in order (the random counter tests below).
std::vector<test::ProbedRange> FullModeProbeRecords(const std::string& body) {
  std::vector<uint32_t> words = test::CompileGlsl(ComputeShader("local_size_x = 4", body), "comp");
  Options options;
  options.range_analysis = RangeAnalysisMode::kFull;
  return test::ObjectRanges(words, options);
}

// Whether `bits`, read as the probe's type, lies in the record's range (or it has none).
::testing::AssertionResult SeenWithin(const test::ProbedRange& record, uint32_t bits,
                                      bool is_signed) {
  int64_t value = is_signed ? int64_t(int32_t(bits)) : int64_t(bits);
  if (!record.valid || (value >= record.min && value <= record.max))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << value << " outside [" << record.min << ", " << record.max << "]";
}

// Random counters in nested counted loops (integer_range_trip_counts.cpp): `n` starts
// from a constant or the invocation id, may be reset before the inner loop, and moves
// by a constant step (either sign, near the type's edges too) once per inner
// iteration; sometimes the outer loop is a while loop (no trip count). Every proven
// range must hold for every value each probe sees, simulated exactly for every
// invocation of the workgroup.
TEST(IntegerRange, RandomCounters_RangesHoldForEveryRun) {
  std::mt19937 rng(23);
  static const int64_t kStarts[] = {-5, -1, 0, 1, 7, 100, 2147483600, -2147483600};
  static const int64_t kSteps[] = {1, 1, 2, 3, -1, -2, 7, 1000000, -1000000, 400000000};
  int proven = 0;
  for (int round = 0; round < 100; ++round) {
    bool is_signed = rng() % 2 == 0, from_lid = rng() % 2 == 0, reset = rng() % 3 == 0;
    bool outer_while = rng() % 5 == 0;
    int64_t start = kStarts[rng() % 8], step = kSteps[rng() % 10];
    if (!is_signed && start < 0) start += int64_t(1) << 32;
    int outer = int(rng() % 5), inner_from = int(rng() % 4) - 2, inner_to = int(rng() % 6);
    int inner_step = 1 + int(rng() % 2);
    std::string type = is_signed ? "int" : "uint";
    auto literal = [&](int64_t v) {
      return is_signed ? type + "(" + std::to_string(v) + ")" : std::to_string(v) + "u";
    };
    std::string init = (from_lid ? type + "(gl_LocalInvocationID.x) + " : "") + literal(start);
    std::string update = step >= 0 ? "n += " + literal(step) : "n -= " + literal(-step);
    std::string body =
        type + " n = " + init + ";\nint o = 0;\n" +
        (outer_while ? "while (o < " + std::to_string(outer) + ") {\n  o++;\n"
                     : "for (int i = 0; i < " + std::to_string(outer) + "; i++) {\n") +
        (reset ? "  n = " + init + ";\n" : "") + "  for (int j = " + std::to_string(inner_from) +
        "; j < " + std::to_string(inner_to) + "; j += " + std::to_string(inner_step) + ") {\n    " +
        update + ";\n    probe[n] = 0u;\n  }\n}\nprobe[n] = 0u;";
    std::vector<test::ProbedRange> records = FullModeProbeRecords(body);
    ASSERT_EQ(records.size(), 2u) << body;
    proven += records[0].valid;
    auto check = [&](int which, uint32_t bits) {
      EXPECT_TRUE(SeenWithin(records[which], bits, is_signed)) << "probe #" << which << "\n"
                                                               << body;
    };
    for (uint32_t lid = 0; lid < 4; ++lid) {
      uint32_t first = uint32_t(start) + (from_lid ? lid : 0u), n = first;
      for (int o = 0; o < outer; ++o) {
        if (reset) n = first;
        for (int j = inner_from; j < inner_to; j += inner_step) {
          n += uint32_t(step);
          check(0, n);
        }
      }
      check(1, n);
    }
  }
  EXPECT_GT(proven, 50);
}

// Random loops tested at their top on a counter j (loop_exit_counters.cpp) with a
// counter n stepped beside it, before or after j's step: j starts from a constant or
// the invocation id, moves by a constant of either sign, and is compared with <, <=, >
// or >= against a constant on either side (directions that never stop the loop
// included: those must stay unproven). Every proven range must hold for every value
// each probe sees, simulated exactly for every invocation (at most 5,000 iterations).
TEST(IntegerRange, RandomExitCounters_RangesHoldForEveryRun) {
  std::mt19937 rng(41);
  static const int64_t kStarts[] = {-7, -1, 0, 1, 5, 100, 2147483640, -2147483640};
  static const int64_t kSteps[] = {1, 2, 3, -1, -2, 5, 1000000, -1000000, 700000000};
  static const char* kRelations[] = {"<", "<=", ">", ">="};
  int proven = 0;
  for (int round = 0; round < 120; ++round) {
    bool is_signed = rng() % 2 == 0, from_lid = rng() % 2 == 0, n_first = rng() % 2 == 0;
    bool counter_left = rng() % 4 != 0;
    int64_t j_start = kStarts[rng() % 8], j_step = kSteps[rng() % 9];
    int64_t n_start = kStarts[rng() % 8], n_step = kSteps[rng() % 9];
    int64_t bound = kStarts[rng() % 8] + int64_t(rng() % 20) - 10;
    if (!is_signed) {
      j_start = j_start < 0 ? j_start + (int64_t(1) << 32) : j_start;
      n_start = n_start < 0 ? n_start + (int64_t(1) << 32) : n_start;
      bound = bound < 0 ? bound + (int64_t(1) << 32) : bound;
    }
    std::string relation = kRelations[rng() % 4];
    std::string type = is_signed ? "int" : "uint";
    auto literal = [&](int64_t v) {
      return is_signed ? type + "(" + std::to_string(v) + ")" : std::to_string(v) + "u";
    };
    auto step_text = [&](const char* name, int64_t step) {
      return std::string(name) + (step >= 0 ? " += " + literal(step) : " -= " + literal(-step)) +
             ";\n";
    };
    std::string test = counter_left ? "j " + relation + " " + literal(bound)
                                    : literal(bound) + " " +
                                          (relation == "<"    ? ">"
                                           : relation == "<=" ? ">="
                                           : relation == ">"  ? "<"
                                                              : "<=") +
                                          " j";
    std::string n_part = step_text("  n", n_step) + "  probe[n] = 0u;\n";
    std::string body = type + " j = " + (from_lid ? type + "(gl_LocalInvocationID.x) + " : "") +
                       literal(j_start) + ";\n" + type + " n = " + literal(n_start) + ";\nwhile (" +
                       test + ") {\n" + (n_first ? n_part : "") + step_text("  j", j_step) +
                       (n_first ? "" : n_part) + "}\nprobe[n] = 0u;";
    std::vector<test::ProbedRange> records = FullModeProbeRecords(body);
    ASSERT_EQ(records.size(), 2u) << body;
    proven += records[0].valid;
    auto check = [&](int which, uint32_t bits) {
      EXPECT_TRUE(SeenWithin(records[which], bits, is_signed)) << "probe #" << which << "\n"
                                                               << body;
    };
    auto reading = [&](uint32_t bits) {
      return is_signed ? int64_t(int32_t(bits)) : int64_t(bits);
    };
    auto holds = [&](uint32_t j_bits) {
      int64_t j = reading(j_bits), b = reading(uint32_t(bound));
      return relation == "<" ? j < b : relation == "<=" ? j <= b : relation == ">" ? j > b : j >= b;
    };
    for (uint32_t lid = 0; lid < 4; ++lid) {
      uint32_t j = uint32_t(j_start) + (from_lid ? lid : 0u), n = uint32_t(n_start);
      for (int iteration = 0; iteration < 5000 && holds(j); ++iteration) {
        if (n_first) {
          n += uint32_t(n_step);
          check(0, n);
        }
        j += uint32_t(j_step);
        if (!n_first) {
          n += uint32_t(n_step);
          check(0, n);
        }
      }
      check(1, n);
    }
  }
  EXPECT_GT(proven, 30);
}

// A reason chain through many locals, parameters and returns keeps its first three
// hops, the last hop and the root cause; the middle is counted, also when an elided
// reason is wrapped and elided again. Six hops or fewer stay as they are.
TEST(IntegerRangeReasons, LongChainsAreElidedInTheMiddle) {
  auto chain = [](int hops) {
    std::string reason = "value read from Uniform memory";
    for (int i = hops; i > 0; --i) reason = "hop " + std::to_string(i) + " has no range: " + reason;
    return reason;
  };
  EXPECT_EQ(IntegerRange::None(chain(6)).reason, chain(6));
  EXPECT_EQ(IntegerRange::None(chain(10)).reason,
            "hop 1 has no range: hop 2 has no range: hop 3 has no range: [6 more steps] hop 10 "
            "has no range: value read from Uniform memory");
  // Wrapped hop by hop, as a chain of calls builds it: the count goes on.
  std::string reason = IntegerRange::None(chain(10)).reason;
  for (int i = 0; i < 5; ++i) reason = IntegerRange::None("outer has no range: " + reason).reason;
  // 15 hops in all: five outer ones, nine elided (three of the first eliding, six of
  // the second) and hop 10.
  EXPECT_EQ(reason,
            "outer has no range: outer has no range: outer has no range: outer has no range: "
            "outer has no range: [9 more steps] hop 10 has no range: value read from Uniform "
            "memory");
}

}  // namespace
}  // namespace glint::spirv
