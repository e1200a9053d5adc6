// Tests of the specialize-constants pass: values applied by SpecId, spec constant
// operations and composites folded, SpecId decorations removed, the output valid, and
// the range analysis seeing the specialized workgroup size and loop bound.
#include <gtest/gtest.h>

#include <map>

#include "SPIRV/analysis/range/integer_range_analysis.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/specialize_constants.h"
#include "support/range_probe.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// GLSL:
//   layout(local_size_x_id = 0) in;
//   layout(constant_id = 1) const uint N = 4u;
//   layout(constant_id = 2) const bool B = false;
//   const uint M = N * 2u;            // OpSpecConstantOp IMul
//   for (uint i = 0u; i < M; i++) probe[i] = 0u;
//   probe[gl_LocalInvocationID.x] = B ? 1u : 0u;
const char* kShader = R"(#version 440
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint N = 4u;
layout(constant_id = 2) const bool B = false;
const uint M = N * 2u;
layout(std430, binding = 1) buffer Probe { uint probe[]; };
void main() {
  for (uint i = 0u; i < M; i++) probe[i] = 0u;
  probe[gl_LocalInvocationID.x] = B ? 1u : 0u;
}
)";

struct Specialized {
  std::vector<uint32_t> words;
  Report report;
  PassResult result;
};

Specialized Specialize(const std::vector<uint32_t>& input, const Options& options) {
  Specialized out;
  std::string error;
  std::optional<Module> module = ParseModule(input, &error);
  EXPECT_TRUE(module) << error;
  if (!module) return out;
  PassContext context{options, &out.report};
  out.result = SpecializeConstantsPass().Run(*module, context);
  out.words = module->Encode();
  return out;
}

// The ranges of every index of the module, in module order.
std::vector<test::ProbedRange> ProbeRanges(const std::vector<uint32_t>& words) {
  return test::ObjectRanges(words, Options{}, "");
}

TEST(SpecializeConstants, WithoutValues_NothingIsKnown) {
  std::vector<uint32_t> words = test::CompileGlsl(kShader, "comp");
  EXPECT_EQ(
      ProbeRanges(words),
      (std::vector<test::ProbedRange>{
          // full mode follows the loop counter through its local (value flow) and
          // widens it: `i < bound` keeps i++ from wrapping, but with the bound
          // unknown nothing smaller than the whole u32 domain is proven.
          test::Range(0, 4294967295), test::Range(0, 0),
          test::NoRange("workgroup size is a specialization constant without a value (an input: "
                        "the application may specialize it; use --spec-constant)")}));
  Specialized out = Specialize(words, Options{});  // no values: unchanged
  EXPECT_EQ(out.result.status, PassStatus::kUnchanged);
  EXPECT_EQ(out.words, words);
}

TEST(SpecializeConstants, Values_BecomeConstantsAndRanges) {
  for (const char* env : {"vulkan1.0", "vulkan1.3", "opengl"}) {
    std::vector<uint32_t> words = test::CompileGlsl(kShader, "comp", env);
    Options options;
    options.spec_constants = {{0, 32}, {1, 5}, {2, 1}};
    Specialized out = Specialize(words, options);
    EXPECT_EQ(out.result.status, PassStatus::kChanged);
    // x, N, B, M = N * 2, B ? 1u : 0u, the workgroup size composite (and, for SPIR-V
    // 1.6, a second x for LocalSizeId): every spec constant is gone.
    EXPECT_GE(out.result.rewrites, 6u);
    std::string text = test::Disassemble(out.words);
    EXPECT_EQ(text.find("SpecId"), std::string::npos) << text;
    EXPECT_EQ(text.find("OpSpecConstant"), std::string::npos) << text;
    for (const char* expected :
         {"%N = OpConstant %uint 5\n", "%M = OpConstant %uint 10\n", "%B = OpConstantTrue %bool\n",
          "OpConstant %uint 32\n", "OpConstantComposite %v3uint %uint_32"})
      EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
    std::vector<TargetEnv> envs =
        std::string(env) == "opengl"
            ? std::vector<TargetEnv>{TargetEnv::kOpenGL45}
            : std::vector<TargetEnv>{TargetEnv::kVulkan10, TargetEnv::kVulkan11,
                                     TargetEnv::kVulkan12, TargetEnv::kVulkan13,
                                     TargetEnv::kUniversal};
    if (std::string(env) == "vulkan1.3") envs = {TargetEnv::kVulkan13, TargetEnv::kUniversal};
    for (TargetEnv target : envs) EXPECT_EQ(test::ValidateFor(out.words, target), "") << env;
    EXPECT_EQ(
        ProbeRanges(out.words),
        (std::vector<test::ProbedRange>{test::Range(0, 9), test::Range(0, 0), test::Range(0, 31)}))
        << env;
  }
}

TEST(SpecializeConstants, PartialValues_LeaveTheRestSpecializable) {
  std::vector<uint32_t> words = test::CompileGlsl(kShader, "comp");
  Options options;
  options.spec_constants = {{1, 7}};  // N only: M folds, the workgroup size stays open
  Specialized out = Specialize(words, options);
  EXPECT_EQ(out.result.rewrites, 2u);
  std::string text = test::Disassemble(out.words);
  EXPECT_TRUE(test::FileCheck(text, R"(
CHECK: SpecId 0
CHECK: %M = OpConstant %uint 14
CHECK: OpSpecConstant %uint 1
CHECK: OpSpecConstantComposite
)")) << text;
  EXPECT_EQ(test::ValidateFor(out.words, TargetEnv::kVulkan10), "");
  EXPECT_EQ(
      ProbeRanges(out.words),
      (std::vector<test::ProbedRange>{
          test::Range(0, 13), test::Range(0, 0),
          test::NoRange("workgroup size is a specialization constant without a value (an input: "
                        "the application may specialize it; use --spec-constant)")}));
}

TEST(SpecializeConstants, UnknownSpecId_IsAWarning) {
  std::vector<uint32_t> words = test::CompileGlsl(kShader, "comp");
  Options options;
  options.spec_constants = {{9, 1}};
  Specialized out = Specialize(words, options);
  EXPECT_EQ(out.result.status, PassStatus::kUnchanged);
  ASSERT_EQ(out.report.diagnostics.size(), 1u);
  EXPECT_EQ(out.report.diagnostics[0].severity, Severity::kWarning);
  EXPECT_EQ(out.report.diagnostics[0].message,
            "--spec-constant 9: no specialization constant has this SpecId");
}

// Narrow and wide scalar spec constants (SPIR-V 1.6: glslang 12's UConvert of a uint8
// spec constant is invalid before 1.4).
const char* kNarrowShader = R"(#version 440
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(constant_id = 1) const int8_t i8 = int8_t(1);
layout(constant_id = 2) const uint8_t u8 = uint8_t(1);
layout(constant_id = 3) const int16_t i16 = int16_t(1);
layout(constant_id = 4) const float16_t f16 = float16_t(1);
layout(constant_id = 5) const int i32 = 1;
layout(constant_id = 6) const uint64_t u64 = 1ul;
layout(constant_id = 7) const uint u32 = 1u;
layout(std430, binding = 0) buffer B { int x[]; };
void main() { x[0] = int(i8) + int(u8) + int(i16) + int(f16) + i32 + int(u64) + int(u32); }
)";

// The literals spirv-val wants: narrow signed integers sign-extended, the rest with their
// high bits 0, whichever reading of the bits the value was given as.
TEST(SpecializeConstants, NarrowTypes_AreWrittenAsTheSpecSays) {
  std::vector<uint32_t> words = test::CompileGlsl(kNarrowShader, "comp", "vulkan1.3");
  Options options;
  options.spec_constants = {{1, 255},        {2, uint64_t(-1)}, {3, 40000},       {4, 0x3c00},
                            {5, 0x80000000}, {6, uint64_t(-1)}, {7, uint64_t(-2)}};
  Specialized out = Specialize(words, options);
  ASSERT_EQ(out.result.status, PassStatus::kChanged) << out.result.message;
  std::string text = test::Disassemble(out.words);
  EXPECT_TRUE(test::FileCheck(text, R"(
CHECK: %i8 = OpConstant %char -1
CHECK: %u8 = OpConstant %uchar 255
CHECK: %i16 = OpConstant %short -25536
CHECK: %f16 = OpConstant %half 0x1p+0
CHECK: %i32 = OpConstant %int -2147483648
CHECK: %u64 = OpConstant %ulong 18446744073709551615
CHECK: %u32 = OpConstant %uint 4294967294
)")) << text;
  EXPECT_EQ(test::ValidateFor(out.words, TargetEnv::kVulkan13), "");
}

// A value outside the signed and unsigned readings of the type's bits is refused by
// SpecId, type and range, and nothing is written.
TEST(SpecializeConstants, ValueThatDoesNotFit_IsRefusedWithTheRange) {
  std::vector<uint32_t> words = test::CompileGlsl(kNarrowShader, "comp", "vulkan1.3");
  struct Case {
    uint32_t id;
    uint64_t value;
    const char* message;
  };
  const Case cases[] = {
      {1, 300,
       "--spec-constant 1=300: does not fit the constant's type int8 (8-bit signed integer): "
       "the value must be in -128..255 (the signed or unsigned reading of 8 bits)"},
      {1, uint64_t(-129),
       "--spec-constant 1=-129: does not fit the constant's type int8 (8-bit signed integer): "
       "the value must be in -128..255 (the signed or unsigned reading of 8 bits)"},
      {2, 256,
       "--spec-constant 2=256: does not fit the constant's type uint8 (8-bit unsigned "
       "integer): the value must be in -128..255 (the signed or unsigned reading of 8 bits)"},
      {3, 70000,
       "--spec-constant 3=70000: does not fit the constant's type int16 (16-bit signed "
       "integer): the value must be in -32768..65535 (the signed or unsigned reading of 16 "
       "bits)"},
      {4, 131071,
       "--spec-constant 4=131071: does not fit the constant's type float16 (16-bit float): "
       "the value must be in -32768..65535 (the signed or unsigned reading of 16 bits)"},
      {5, uint64_t{1} << 32,
       "--spec-constant 5=4294967296: does not fit the constant's type int32 (32-bit signed "
       "integer): the value must be in -2147483648..4294967295 (the signed or unsigned "
       "reading of 32 bits)"},
  };
  for (const Case& c : cases) {
    Options options;
    options.spec_constants = {{c.id, c.value}};
    Specialized out = Specialize(words, options);
    EXPECT_EQ(out.result.status, PassStatus::kFailed) << c.message;
    EXPECT_EQ(out.result.message, c.message);
  }
}

// A value that makes an array's length 0 or negative, given or folded, is refused by
// the value, the length constant and the array (spirv-val rejects the module); 1 is fine.
const char* kSpecSizedArrays = R"(#version 440
layout(local_size_x = 1) in;
layout(constant_id = 3) const uint N = 4u;
layout(constant_id = 4) const int K = 2;
const int L = K * 2;
shared uint s[N];
shared uint t[L];
layout(std430, binding = 0) buffer B { uint x[]; };
void main() { s[0] = 1u; t[0] = 2u; barrier(); x[0] = s[0] + t[0]; }
)";

TEST(SpecializeConstants, ArrayLengthBelowOne_IsRefusedByName) {
  std::vector<uint32_t> words = test::CompileGlsl(kSpecSizedArrays, "comp");
  struct Case {
    std::map<uint32_t, uint64_t> values;
    const char* message;
  };
  const Case cases[] = {
      {{{3, 0}},
       "--spec-constant 3=0: makes N the length 0 of the array s; an array's length must be at "
       "least 1"},
      {{{4, uint64_t(-1)}},
       "--spec-constant 4=-1: makes L the length -2 of the array t; an array's length must be "
       "at least 1"},
      {{{3, 1}, {4, 0}},
       "--spec-constant 3=1, 4=0: makes L the length 0 of the array t; an array's length must "
       "be at least 1"},
  };
  for (const Case& c : cases) {
    Options options;
    options.spec_constants = c.values;
    Specialized out = Specialize(words, options);
    EXPECT_EQ(out.result.status, PassStatus::kFailed) << c.message;
    EXPECT_EQ(out.result.message, c.message);
  }
  Options fits;
  fits.spec_constants = {{3, 1}, {4, 1}};
  Specialized out = Specialize(words, fits);
  EXPECT_EQ(out.result.status, PassStatus::kChanged) << out.result.message;
  EXPECT_EQ(test::ValidateFor(out.words, TargetEnv::kVulkan10), "");
}

// LocalSizeId (SPIR-V 1.2+) with a specialized size gives LocalInvocationIndex a range.
TEST(SpecializeConstants, LocalSizeId_IsSpecialized) {
  std::vector<uint32_t> words = test::Assemble(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %idx
OpExecutionModeId %main LocalSizeId %x %one %one
OpDecorate %idx BuiltIn LocalInvocationIndex
OpDecorate %x SpecId 3
OpDecorate %arr ArrayStride 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%x = OpSpecConstant %uint 1
%one = OpConstant %uint 1
%uint_64 = OpConstant %uint 64
%ptr_in = OpTypePointer Input %uint
%idx = OpVariable %ptr_in Input
%arr = OpTypeArray %uint %uint_64
%ptr_fn_arr = OpTypePointer Function %arr
%ptr_fn = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%a = OpVariable %ptr_fn_arr Function
%i = OpLoad %uint %idx
%p = OpAccessChain %ptr_fn %a %i
OpStore %p %one
OpReturn
OpFunctionEnd
)");
  Options options;
  options.spec_constants = {{3, 16}};
  Specialized out = Specialize(words, options);
  EXPECT_EQ(test::ValidateFor(out.words, TargetEnv::kUniversal), "");
  EXPECT_EQ(ProbeRanges(words),
            (std::vector<test::ProbedRange>{test::NoRange(
                "workgroup size is a specialization constant without a value (an input: "
                "the application may specialize it; use --spec-constant)")}));
  EXPECT_EQ(ProbeRanges(out.words), (std::vector<test::ProbedRange>{test::Range(0, 15)}));
}

}  // namespace
}  // namespace glint::spirv
