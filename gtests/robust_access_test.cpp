// Tests of the robust-access pass: before/after patterns for each access kind, the
// things it leaves alone, the report records, "no new block", and validation.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstring>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/robust_access.h"
#include "SPIRV/validate.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

struct Outcome {
  PassResult result;
  std::vector<uint32_t> words;
  std::string text;  // disassembly of the output
  Report report;
  size_t blocks_before = 0, blocks_after = 0;
};

size_t CountBlocks(const Module& module) {
  size_t blocks = 0;
  for (const Function& function : module.functions) blocks += function.blocks.size();
  return blocks;
}

Outcome RunRobustAccess(const std::vector<uint32_t>& input,
                        RangeAnalysisMode mode = RangeAnalysisMode::kOff,
                        std::array<uint32_t, 3> max_workgroups = {}) {
  Outcome outcome;
  std::string error;
  std::optional<Module> module = ParseModule(input, &error);
  EXPECT_TRUE(module) << error;
  if (!module) return outcome;
  outcome.blocks_before = CountBlocks(*module);
  Options options;
  options.robust_access = true;
  options.range_analysis = mode;
  options.max_workgroups = max_workgroups;
  options.collect_ranges = true;
  PassContext context{options, &outcome.report};
  RobustAccessPass pass;
  outcome.result = pass.Run(*module, context);
  outcome.blocks_after = CountBlocks(*module);
  outcome.words = module->Encode();
  outcome.text = test::Disassemble(outcome.words);
  return outcome;
}

// Compiles `glsl` for Vulkan 1.0, runs the pass, and checks the output against
// `patterns`, validity and the block count.
Outcome ClampGlsl(const std::string& glsl, const std::string& stage, const std::string& patterns,
                  RangeAnalysisMode mode = RangeAnalysisMode::kOff) {
  Outcome outcome = RunRobustAccess(test::CompileGlsl(glsl, stage), mode);
  EXPECT_EQ(outcome.result.status, PassStatus::kChanged) << outcome.result.message;
  EXPECT_TRUE(test::FileCheck(outcome.text, patterns));
  EXPECT_EQ(test::ValidateFor(outcome.words, TargetEnv::kVulkan10), "") << outcome.text;
  EXPECT_EQ(outcome.blocks_after, outcome.blocks_before) << "the pass added a block";
  return outcome;
}

const AccessRecord* FindRecord(const Report& report, AccessVerdict verdict) {
  for (const AccessRecord& record : report.accesses)
    if (record.verdict == verdict) return &record;
  return nullptr;
}

// #version 440
// layout(local_size_x = 64) in;
// layout(std430, binding = 0) buffer Data { int index; float result; float values[8]; };
// void main() { result = values[index]; }
TEST(RobustAccess, Array_SignedDynamicIndexIsBitcastAndClamped) {
  Outcome outcome = ClampGlsl(R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { int index; float result; float values[8]; };
void main() { result = values[index]; }
)",
                              "comp", R"(
CHECK: %[[GLSL:[0-9]+]] = OpExtInstImport "GLSL.std.450"
CHECK: %uint_7 = OpConstant %uint 7
CHECK: %[[LOADED:[0-9]+]] = OpLoad %int
CHECK-NEXT: %[[INDEX:[0-9]+]] = OpBitcast %uint %[[LOADED]]
CHECK-NEXT: %[[CLAMP:[0-9]+]] = OpExtInst %uint %[[GLSL]] UMin %[[INDEX]] %uint_7
CHECK-NEXT: OpAccessChain %_ptr_Uniform_float %_ %int_2 %[[CLAMP]]{{$}}
)");
  EXPECT_EQ(outcome.result.rewrites, 1u);
  const AccessRecord* record = FindRecord(outcome.report, AccessVerdict::kClamped);
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->limit, 7);
  EXPECT_EQ(record->object, "Data") << "an unnamed block instance is named by its block";
  EXPECT_EQ(record->instruction, "OpAccessChain");
  EXPECT_EQ(record->reason, "range analysis is off");
}

// An unsigned index needs no bitcast.
TEST(RobustAccess, Array_UnsignedDynamicIndexIsClampedWithoutBitcast) {
  ClampGlsl(R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint index; float result; float values[8]; };
void main() { result = values[index]; }
)",
            "comp", R"(
CHECK: %[[INDEX:[0-9]+]] = OpLoad %uint
CHECK-NEXT: %[[CLAMP:[0-9]+]] = OpExtInst %uint %1 UMin %[[INDEX]] %uint_7
CHECK-NEXT: OpAccessChain %_ptr_Uniform_float %_ %int_2 %[[CLAMP]]{{$}}
)");
}

// A matrix column and a vector element through a pointer, both dynamic.
TEST(RobustAccess, MatrixColumnAndVectorElement_AreClampedToTheirCounts) {
  Outcome outcome = ClampGlsl(R"(#version 440
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data { int column; int row; float result; mat4x3 m; };
void main() { result = m[column][row]; }
)",
                              "comp", R"(
CHECK: %uint_3 = OpConstant %uint 3
CHECK: %uint_2 = OpConstant %uint 2
CHECK: %[[COLUMN_AT:[0-9]+]] = OpAccessChain %_ptr_Uniform_int %_ %int_0{{$}}
CHECK-NEXT: %[[COLUMN:[0-9]+]] = OpLoad %int %[[COLUMN_AT]]
CHECK-NEXT: %[[ROW_AT:[0-9]+]] = OpAccessChain %_ptr_Uniform_int %_ %int_1{{$}}
CHECK-NEXT: %[[ROW:[0-9]+]] = OpLoad %int %[[ROW_AT]]
CHECK-NEXT: %[[UCOLUMN:[0-9]+]] = OpBitcast %uint %[[COLUMN]]
CHECK-NEXT: %[[CCOLUMN:[0-9]+]] = OpExtInst %uint %1 UMin %[[UCOLUMN]] %uint_3
CHECK-NEXT: %[[UROW:[0-9]+]] = OpBitcast %uint %[[ROW]]
CHECK-NEXT: %[[CROW:[0-9]+]] = OpExtInst %uint %1 UMin %[[UROW]] %uint_2
CHECK-NEXT: OpAccessChain %_ptr_Uniform_float %_ %int_3 %[[CCOLUMN]] %[[CROW]]{{$}}
)");
  EXPECT_EQ(outcome.result.rewrites, 2u);
}

// Indexing an rvalue vector gives OpVectorExtractDynamic.
TEST(RobustAccess, VectorExtractDynamic_IndexIsClampedToWidth) {
  ClampGlsl(R"(#version 440
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data { int index; float result; vec3 a; vec3 b; };
void main() { result = (a + b)[index]; }
)",
            "comp", R"(
CHECK: %[[SUM:[0-9]+]] = OpFAdd %v3float
CHECK: %[[INDEX:[0-9]+]] = OpBitcast %uint
CHECK-NEXT: %[[CLAMP:[0-9]+]] = OpExtInst %uint %1 UMin %[[INDEX]] %uint_2
CHECK-NEXT: OpVectorExtractDynamic %float %[[SUM]] %[[CLAMP]]{{$}}
)");
}

// Runtime-sized array: the limit is max(OpArrayLength, 1) - 1.
TEST(RobustAccess, RuntimeArray_ClampsToArrayLengthAndEmptyGivesZero) {
  Outcome outcome = ClampGlsl(R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint header; uint values[]; };
void main() { values[gl_GlobalInvocationID.x * 3u] = header; }
)",
                              "comp", R"(
CHECK-LABEL: %main = OpFunction
CHECK-NEXT: OpLabel
CHECK-NEXT: %[[LENGTH:[0-9]+]] = OpArrayLength %uint %_ 1
CHECK-NEXT: %[[AT_LEAST_1:[0-9]+]] = OpExtInst %uint %1 UMax %[[LENGTH]] %uint_1
CHECK-NEXT: %[[LAST:[0-9]+]] = OpISub %uint %[[AT_LEAST_1]] %uint_1
CHECK: %[[INDEX:[0-9]+]] = OpIMul %uint
CHECK: %[[CLAMP:[0-9]+]] = OpExtInst %uint %1 UMin %[[INDEX]] %[[LAST]]
CHECK-NEXT: OpAccessChain %_ptr_Uniform_uint %_ %int_1 %[[CLAMP]]{{$}}
)");
  const AccessRecord* record = FindRecord(outcome.report, AccessVerdict::kClamped);
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->limit, -1) << "a runtime length";
}

// The length of a buffer variable cannot change while the shader runs: it is computed
// once at the top of the function, and every clamp in the loop is a single UMin.
TEST(RobustAccess, RuntimeArray_LengthComputedOncePerFunction) {
  Outcome outcome = ClampGlsl(R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
layout(std430, binding = 1) buffer Out { uint sums[]; };
void main() {
  uint sum = 0u;
  for (int k = 0; k < 16; ++k) sum += values[gl_GlobalInvocationID.x * 16u + uint(k)];
  sums[gl_GlobalInvocationID.x] = sum;
}
)",
                              "comp", R"(
CHECK-LABEL: %main = OpFunction
CHECK-NEXT: OpLabel
CHECK-NEXT: OpVariable
CHECK-NEXT: OpVariable
CHECK-NEXT: %[[OUT_LENGTH:[0-9]+]] = OpArrayLength %uint %__0 0
CHECK-NEXT: %[[OUT_AT_LEAST_1:[0-9]+]] = OpExtInst %uint %1 UMax %[[OUT_LENGTH]] %uint_1
CHECK-NEXT: %[[OUT_LAST:[0-9]+]] = OpISub %uint %[[OUT_AT_LEAST_1]] %uint_1
CHECK-NEXT: %[[IN_LENGTH:[0-9]+]] = OpArrayLength %uint %_ 0
CHECK-NEXT: %[[IN_AT_LEAST_1:[0-9]+]] = OpExtInst %uint %1 UMax %[[IN_LENGTH]] %uint_1
CHECK-NEXT: %[[IN_LAST:[0-9]+]] = OpISub %uint %[[IN_AT_LEAST_1]] %uint_1
CHECK-NOT: OpArrayLength
CHECK: OpLoopMerge
CHECK-NOT: OpArrayLength
CHECK: %[[INDEX:[0-9]+]] = OpIAdd %uint
CHECK-NEXT: %[[CLAMP:[0-9]+]] = OpExtInst %uint %1 UMin %[[INDEX]] %[[IN_LAST]]
CHECK-NEXT: OpAccessChain %_ptr_Uniform_uint %_ %int_0 %[[CLAMP]]{{$}}
CHECK-NOT: OpArrayLength
CHECK: %[[OUT_CLAMP:[0-9]+]] = OpExtInst %uint %1 UMin %{{[0-9]+}} %[[OUT_LAST]]
CHECK-NEXT: OpAccessChain %_ptr_Uniform_uint %__0 %int_0 %[[OUT_CLAMP]]{{$}}
CHECK-NOT: OpArrayLength
CHECK: OpFunctionEnd
)");
  EXPECT_EQ(outcome.result.rewrites, 2u);
  EXPECT_EQ(outcome.blocks_after, outcome.blocks_before);
}

// A runtime array inside an element of a descriptor array: OpArrayLength needs a
// pointer to that element's block; the descriptor index itself is left alone.
TEST(RobustAccess, RuntimeArray_InDescriptorArrayElement) {
  Outcome outcome = ClampGlsl(R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; } buffers[4];
layout(push_constant) uniform P { int which; int index; };
void main() { buffers[which].values[index] = 1u; }
)",
                              "comp", R"(
CHECK: %[[WHICH:[0-9]+]] = OpLoad %int
CHECK: %[[INDEX:[0-9]+]] = OpBitcast %uint
CHECK-NEXT: %[[ELEMENT:[0-9]+]] = OpAccessChain %_ptr_Uniform_Data %buffers %[[WHICH]]{{$}}
CHECK-NEXT: %[[LENGTH:[0-9]+]] = OpArrayLength %uint %[[ELEMENT]] 0
CHECK-NEXT: %[[AT_LEAST_1:[0-9]+]] = OpExtInst %uint %1 UMax %[[LENGTH]] %uint_1
CHECK-NEXT: %[[LAST:[0-9]+]] = OpISub %uint %[[AT_LEAST_1]] %uint_1
CHECK-NEXT: %[[CLAMP:[0-9]+]] = OpExtInst %uint %1 UMin %[[INDEX]] %[[LAST]]
CHECK-NEXT: OpAccessChain %_ptr_Uniform_uint %buffers %[[WHICH]] %int_0 %[[CLAMP]]{{$}}
)");
  EXPECT_EQ(outcome.result.rewrites, 1u);
  const AccessRecord* unbounded = FindRecord(outcome.report, AccessVerdict::kUnbounded);
  ASSERT_NE(unbounded, nullptr);
  EXPECT_EQ(unbounded->reason, "descriptor array indexed at run time");
  EXPECT_EQ(unbounded->object, "buffers");
}

// A specialization-constant length: the limit follows the specialized value.
TEST(RobustAccess, SpecConstantLength_LimitIsSpecConstantOp) {
  ClampGlsl(R"(#version 440
layout(local_size_x = 64) in;
layout(constant_id = 0) const int kCount = 16;
shared float tile[kCount];
layout(std430, binding = 0) buffer Data { int index; float result; };
void main() { tile[gl_LocalInvocationID.x] = 1.0; barrier(); result = tile[index]; }
)",
            "comp", R"(
CHECK: %[[LAST:[0-9]+]] = OpSpecConstantOp %uint ISub %kCount %uint_1
CHECK-LABEL: %main = OpFunction
CHECK: %[[LID:[0-9]+]] = OpLoad %uint
CHECK-NEXT: %[[CLAMP_LID:[0-9]+]] = OpExtInst %uint %1 UMin %[[LID]] %[[LAST]]
CHECK-NEXT: OpAccessChain %_ptr_Workgroup_float %tile %[[CLAMP_LID]]{{$}}
CHECK: %[[INDEX:[0-9]+]] = OpBitcast %uint
CHECK-NEXT: %[[CLAMP_INDEX:[0-9]+]] = OpExtInst %uint %1 UMin %[[INDEX]] %[[LAST]]
CHECK-NEXT: OpAccessChain %_ptr_Workgroup_float %tile %[[CLAMP_INDEX]]{{$}}
)");
}

// Constant in-bounds indices, struct members and constant vector components stay.
TEST(RobustAccess, ConstantInBounds_Unchanged) {
  std::vector<uint32_t> input = test::CompileGlsl(R"(#version 440
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data { float result; float values[8]; mat4 m; vec4 v; };
void main() { result = values[7] + m[3][2] + v.w + v[1]; }
)",
                                                  "comp");
  Outcome outcome = RunRobustAccess(input);
  EXPECT_EQ(outcome.result.status, PassStatus::kUnchanged);
  EXPECT_EQ(outcome.words, input);
}

// A constant out-of-bounds index (only reachable from SPIR-V; GLSL rejects it) is
// folded to the last element; a negative one too.
TEST(RobustAccess, ConstantOutOfBounds_FoldedToLastElement) {
  Outcome outcome = RunRobustAccess(test::Assemble(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %a "a"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%uint_4 = OpConstant %uint 4
%int_9 = OpConstant %int 9
%int_m1 = OpConstant %int -1
%arr = OpTypeArray %float %uint_4
%ptr_arr = OpTypePointer Function %arr
%ptr_float = OpTypePointer Function %float
%main = OpFunction %void None %fn
%entry = OpLabel
%a = OpVariable %ptr_arr Function
%p = OpAccessChain %ptr_float %a %int_9
%q = OpAccessChain %ptr_float %a %int_m1
%x = OpLoad %float %p
OpStore %q %x
OpReturn
OpFunctionEnd
)"));
  EXPECT_EQ(outcome.result.status, PassStatus::kChanged);
  EXPECT_EQ(outcome.result.rewrites, 2u);
  EXPECT_TRUE(test::FileCheck(outcome.text, R"(
CHECK: %int_3 = OpConstant %int 3
CHECK: OpAccessChain %_ptr_Function_float %a %int_3{{$}}
CHECK-NEXT: OpAccessChain %_ptr_Function_float %a %int_3{{$}}
CHECK-NOT: UMin
)"));
  EXPECT_EQ(test::ValidateFor(outcome.words, TargetEnv::kUniversal), "");
}

// OpVectorInsertDynamic (GLSL has no way to ask for it) and a one-element array,
// where every clamped index is 0.
TEST(RobustAccess, VectorInsertDynamicAndSingleElementArray) {
  Outcome outcome = RunRobustAccess(test::Assemble(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %a "a"
OpName %v "v"
OpName %i "i"
OpName %index "index"
OpName %vec "vec"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%float_1 = OpConstant %float 1
%arr = OpTypeArray %float %uint_1
%ptr_arr = OpTypePointer Function %arr
%ptr_float = OpTypePointer Function %float
%ptr_v4 = OpTypePointer Function %v4float
%ptr_int = OpTypePointer Function %int
%main = OpFunction %void None %fn
%entry = OpLabel
%a = OpVariable %ptr_arr Function
%v = OpVariable %ptr_v4 Function
%i = OpVariable %ptr_int Function
%index = OpLoad %int %i
%vec = OpLoad %v4float %v
%inserted = OpVectorInsertDynamic %v4float %vec %float_1 %index
OpStore %v %inserted
%p = OpAccessChain %ptr_float %a %index
OpStore %p %float_1
OpReturn
OpFunctionEnd
)"));
  EXPECT_EQ(outcome.result.rewrites, 2u);
  EXPECT_TRUE(test::FileCheck(outcome.text, R"(
CHECK: %index = OpLoad %int %i
CHECK: %[[INDEX:[0-9]+]] = OpBitcast %uint %index
CHECK-NEXT: %[[CLAMP:[0-9]+]] = OpExtInst %uint %{{[0-9]+}} UMin %[[INDEX]] %uint_3
CHECK-NEXT: OpVectorInsertDynamic %v4float %vec %float_1 %[[CLAMP]]{{$}}
CHECK: OpAccessChain %_ptr_Function_float %a %int_0{{$}}
)"));
  EXPECT_EQ(test::ValidateFor(outcome.words, TargetEnv::kUniversal), "");
}

// texelFetch: level clamped to the level count, then the coordinate to the size of
// that level. texelFetchOffset: the offset is folded into the coordinate first.
TEST(RobustAccess, ImageFetch_LevelThenCoordinate) {
  Outcome outcome = ClampGlsl(R"(#version 440
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) flat in ivec3 where;
layout(location = 0) out vec4 color;
void main() { color = texelFetch(tex, where.xy, where.z) + texelFetchOffset(tex, where.xy, 0, ivec2(1, -1)); }
)",
                              "frag", R"(
CHECK: OpCapability ImageQuery
CHECK: %[[WHERE:[0-9]+]] = OpLoad %v3int %where
CHECK-NEXT: %[[XY:[0-9]+]] = OpVectorShuffle %v2int %[[WHERE]] %[[WHERE]] 0 1
CHECK: %[[LOD:[0-9]+]] = OpLoad %int
CHECK-NEXT: %[[IMAGE:[0-9]+]] = OpImage
CHECK-NEXT: %[[LEVELS:[0-9]+]] = OpImageQueryLevels %uint %[[IMAGE]]
CHECK-NEXT: %[[ULOD:[0-9]+]] = OpBitcast %uint %[[LOD]]
CHECK-NEXT: %[[LAST_LEVEL:[0-9]+]] = OpISub %uint %[[LEVELS]] %uint_1
CHECK-NEXT: %[[LEVEL:[0-9]+]] = OpExtInst %uint %1 UMin %[[ULOD]] %[[LAST_LEVEL]]
CHECK-NEXT: %[[SIZE:[0-9]+]] = OpImageQuerySizeLod %v2uint %[[IMAGE]] %[[LEVEL]]
CHECK-NEXT: %[[LAST_XY:[0-9]+]] = OpISub %v2uint %[[SIZE]]
CHECK-NEXT: %[[UXY:[0-9]+]] = OpBitcast %v2uint %[[XY]]
CHECK-NEXT: %[[COORD:[0-9]+]] = OpExtInst %v2uint %1 UMin %[[UXY]] %[[LAST_XY]]
CHECK-NEXT: OpImageFetch %v4float %[[IMAGE]] %[[COORD]] Lod %[[LEVEL]]{{$}}
CHECK-NOT: OpImageQueryLevels
CHECK: %[[IMAGE2:[0-9]+]] = OpImage
CHECK-NEXT: %[[MOVED:[0-9]+]] = OpIAdd %v2int
CHECK-NEXT: %[[SIZE2:[0-9]+]] = OpImageQuerySizeLod %v2uint %[[IMAGE2]] %int_0
CHECK-NEXT: %[[LAST2:[0-9]+]] = OpISub %v2uint %[[SIZE2]]
CHECK-NEXT: %[[UMOVED:[0-9]+]] = OpBitcast %v2uint %[[MOVED]]
CHECK-NEXT: %[[COORD2:[0-9]+]] = OpExtInst %v2uint %1 UMin %[[UMOVED]] %[[LAST2]]
CHECK-NEXT: OpImageFetch %v4float %[[IMAGE2]] %[[COORD2]] Lod %int_0{{$}}
CHECK-NOT: ConstOffset
)");
  EXPECT_EQ(outcome.result.rewrites, 3u) << "one level (the other is 0), two coordinates";
}

// An arrayed image's offset has no layer component: it is widened with 0 before it is
// added to the coordinate (found on glslang's spv.floatFetch.frag for SPIR-V 1.4+).
TEST(RobustAccess, ImageFetchOffset_ArrayedOffsetIsWidenedWithZero) {
  for (const char* env : {"vulkan1.0", "spirv1.4", "vulkan1.3"}) {
    Outcome outcome = RunRobustAccess(test::CompileGlsl(R"(#version 440
layout(binding = 0) uniform sampler1DArray lines;
layout(binding = 1) uniform sampler2DArray layers;
layout(location = 0) flat in ivec4 where;
layout(location = 0) out vec4 color;
void main() {
  color = texelFetchOffset(lines, where.xy, where.z, 1) + texelFetchOffset(layers, where.xyz, 0, ivec2(-1, 2));
}
)",
                                                        "frag", env));
    SCOPED_TRACE(env);
    EXPECT_TRUE(test::FileCheck(outcome.text, R"(
CHECK: %[[OFFSET:[0-9]+]] = OpCompositeConstruct %v2int %int_1 %int_0
CHECK-NEXT: %[[MOVED:[0-9]+]] = OpIAdd %v2int %{{[0-9]+}} %[[OFFSET]]
CHECK: %[[UMOVED:[0-9]+]] = OpBitcast %v2uint %[[MOVED]]
CHECK-NEXT: %[[COORD:[0-9]+]] = OpExtInst %v2uint %1 UMin %[[UMOVED]]
CHECK-NEXT: OpImageFetch %v4float %{{[0-9]+}} %[[COORD]] Lod
CHECK: %[[OFFSET2:[0-9]+]] = OpCompositeConstruct %v3int %{{[0-9]+}} %int_0
CHECK-NEXT: %[[MOVED2:[0-9]+]] = OpIAdd %v3int %{{[0-9]+}} %[[OFFSET2]]
CHECK: %[[UMOVED2:[0-9]+]] = OpBitcast %v3uint %[[MOVED2]]
CHECK-NEXT: %[[COORD2:[0-9]+]] = OpExtInst %v3uint %1 UMin %[[UMOVED2]]
CHECK-NEXT: OpImageFetch %v4float %{{[0-9]+}} %[[COORD2]] Lod %int_0{{$}}
CHECK-NOT: ConstOffset
)"));
    TargetEnv target = std::string(env) == "vulkan1.3"  ? TargetEnv::kVulkan13
                       : std::string(env) == "spirv1.4" ? TargetEnv::kVulkan11
                                                        : TargetEnv::kVulkan10;
    EXPECT_EQ(test::ValidateFor(outcome.words, target), "");
  }
}

TEST(RobustAccess, StorageImages_ReadWriteCubeArrayMultisampleBuffer) {
  Outcome outcome = ClampGlsl(R"(#version 440
layout(local_size_x = 1) in;
layout(binding = 0, rgba8) uniform image2D plain;
layout(binding = 1, rgba8) uniform imageCube cube;
layout(binding = 2, rgba8) uniform imageCubeArray cubes;
layout(binding = 3, rgba8) uniform image2DMS multi;
layout(binding = 4, rgba8) uniform imageBuffer texels;
layout(push_constant) uniform P { ivec4 at; };
void main() {
  vec4 sum = imageLoad(plain, at.xy) + imageLoad(cube, at.xyz) + imageLoad(cubes, at.xyz)
           + imageLoad(multi, at.xy, at.w) + imageLoad(texels, at.x);
  imageStore(plain, at.yx, sum);
}
)",
                              "comp", R"(
CHECK-LABEL: %main = OpFunction
CHECK: %[[SIZE:[0-9]+]] = OpImageQuerySize %v2uint %[[PLAIN:[0-9]+]]
CHECK-NEXT: %[[LAST:[0-9]+]] = OpISub %v2uint %[[SIZE]]
CHECK-NEXT: %[[XY:[0-9]+]] = OpBitcast %v2uint
CHECK-NEXT: %[[C:[0-9]+]] = OpExtInst %v2uint %1 UMin %[[XY]] %[[LAST]]
CHECK-NEXT: OpImageRead %v4float %[[PLAIN]] %[[C]]{{$}}
CHECK: %[[SIZE:[0-9]+]] = OpImageQuerySize %v2uint %[[CUBE:[0-9]+]]
CHECK-NEXT: %[[LAST:[0-9]+]] = OpISub %v2uint %[[SIZE]]
CHECK-NEXT: %[[X:[0-9]+]] = OpCompositeExtract %uint %[[LAST]] 0
CHECK-NEXT: %[[Y:[0-9]+]] = OpCompositeExtract %uint %[[LAST]] 1
CHECK-NEXT: %[[LIMIT:[0-9]+]] = OpCompositeConstruct %v3uint %[[X]] %[[Y]] %uint_5
CHECK-NEXT: %[[XYZ:[0-9]+]] = OpBitcast %v3uint
CHECK-NEXT: %[[C:[0-9]+]] = OpExtInst %v3uint %1 UMin %[[XYZ]] %[[LIMIT]]
CHECK-NEXT: OpImageRead %v4float %[[CUBE]] %[[C]]{{$}}
CHECK: %[[SIZE:[0-9]+]] = OpImageQuerySize %v3uint %[[CUBES:[0-9]+]]
CHECK-NEXT: %[[LAST:[0-9]+]] = OpISub %v3uint %[[SIZE]]
CHECK-NEXT: %[[X:[0-9]+]] = OpCompositeExtract %uint %[[LAST]] 0
CHECK-NEXT: %[[Y:[0-9]+]] = OpCompositeExtract %uint %[[LAST]] 1
CHECK-NEXT: %[[LAYERS:[0-9]+]] = OpCompositeExtract %uint %[[SIZE]] 2
CHECK-NEXT: %[[FACES:[0-9]+]] = OpIMul %uint %[[LAYERS]] %uint_6
CHECK-NEXT: %[[LAST_FACE:[0-9]+]] = OpISub %uint %[[FACES]] %uint_1
CHECK-NEXT: %[[LIMIT:[0-9]+]] = OpCompositeConstruct %v3uint %[[X]] %[[Y]] %[[LAST_FACE]]
CHECK-NEXT: %[[XYZ:[0-9]+]] = OpBitcast %v3uint
CHECK-NEXT: %[[C:[0-9]+]] = OpExtInst %v3uint %1 UMin %[[XYZ]] %[[LIMIT]]
CHECK-NEXT: OpImageRead %v4float %[[CUBES]] %[[C]]{{$}}
CHECK: %[[SAMPLES:[0-9]+]] = OpImageQuerySamples %uint %[[MULTI:[0-9]+]]
CHECK-NEXT: %[[S:[0-9]+]] = OpBitcast %uint
CHECK-NEXT: %[[LAST_SAMPLE:[0-9]+]] = OpISub %uint %[[SAMPLES]] %uint_1
CHECK-NEXT: %[[SAMPLE:[0-9]+]] = OpExtInst %uint %1 UMin %[[S]] %[[LAST_SAMPLE]]
CHECK-NEXT: %[[SIZE:[0-9]+]] = OpImageQuerySize %v2uint %[[MULTI]]
CHECK-NEXT: %[[LAST:[0-9]+]] = OpISub %v2uint %[[SIZE]]
CHECK-NEXT: %[[XY:[0-9]+]] = OpBitcast %v2uint
CHECK-NEXT: %[[C:[0-9]+]] = OpExtInst %v2uint %1 UMin %[[XY]] %[[LAST]]
CHECK-NEXT: OpImageRead %v4float %[[MULTI]] %[[C]] Sample %[[SAMPLE]]{{$}}
CHECK: %[[SIZE:[0-9]+]] = OpImageQuerySize %uint %[[TEXELS:[0-9]+]]
CHECK-NEXT: %[[LAST:[0-9]+]] = OpISub %uint %[[SIZE]] %uint_1
CHECK-NEXT: %[[X:[0-9]+]] = OpBitcast %uint
CHECK-NEXT: %[[C:[0-9]+]] = OpExtInst %uint %1 UMin %[[X]] %[[LAST]]
CHECK-NEXT: OpImageRead %v4float %[[TEXELS]] %[[C]]{{$}}
CHECK: %[[SIZE:[0-9]+]] = OpImageQuerySize %v2uint %[[WRITTEN:[0-9]+]]
CHECK-NEXT: %[[LAST:[0-9]+]] = OpISub %v2uint %[[SIZE]]
CHECK-NEXT: %[[YX:[0-9]+]] = OpBitcast %v2uint
CHECK-NEXT: %[[C:[0-9]+]] = OpExtInst %v2uint %1 UMin %[[YX]] %[[LAST]]
CHECK-NEXT: OpImageWrite %[[WRITTEN]] %[[C]] %{{[0-9]+}}{{$}}
)");
  EXPECT_EQ(outcome.result.rewrites, 7u) << "six coordinates and one sample index";
}

TEST(RobustAccess, SparseFetch_IsClampedLikeFetch) {
  ClampGlsl(R"(#version 450
#extension GL_ARB_sparse_texture2 : require
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) flat in ivec3 where;
layout(location = 0) out vec4 color;
void main() { vec4 texel; sparseTexelFetchARB(tex, where.xy, where.z, texel); color = texel; }
)",
            "frag", R"(
CHECK: OpImageQueryLevels
CHECK: %[[LEVEL:[0-9]+]] = OpExtInst %uint %1 UMin
CHECK-NEXT: OpImageQuerySizeLod %v2uint %{{[0-9]+}} %[[LEVEL]]
CHECK: %[[COORD:[0-9]+]] = OpExtInst %v2uint %1 UMin
CHECK-NEXT: OpImageSparseFetch %ResType %{{[0-9]+}} %[[COORD]] Lod %[[LEVEL]]{{$}}
)");
}

// Left alone: buffer_reference (PhysicalStorageBuffer) chains; descriptor array index.
TEST(RobustAccess, PhysicalStorageBuffer_LeftAloneAndReportedUnbounded) {
  std::vector<uint32_t> input = test::CompileGlsl(R"(#version 440
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 1) in;
layout(buffer_reference, std430) buffer Values { float v[16]; };
layout(push_constant) uniform P { Values values; int index; };
void main() { values.v[index] = 1.0; }
)",
                                                  "comp", "vulkan1.2");
  Outcome outcome = RunRobustAccess(input);
  EXPECT_EQ(outcome.result.status, PassStatus::kUnchanged);
  EXPECT_EQ(outcome.words, input);
  const AccessRecord* record = FindRecord(outcome.report, AccessVerdict::kUnbounded);
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, "physical storage buffer pointers are not bounded by Glint");
}

TEST(RobustAccess, DescriptorArray_LeftAloneAndReportedUnbounded) {
  std::vector<uint32_t> input = test::CompileGlsl(R"(#version 440
#extension GL_EXT_nonuniform_qualifier : require
layout(binding = 0) uniform sampler2D textures[];
layout(location = 0) flat in int which;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = texture(textures[nonuniformEXT(which)], uv); }
)",
                                                  "frag", "vulkan1.2");
  Outcome outcome = RunRobustAccess(input);
  EXPECT_EQ(outcome.result.status, PassStatus::kUnchanged);
  ASSERT_EQ(outcome.report.accesses.size(), 1u);
  EXPECT_EQ(outcome.report.accesses[0].verdict, AccessVerdict::kUnbounded);
  EXPECT_EQ(outcome.report.accesses[0].object, "textures");
}

TEST(RobustAccess, PtrAccessChain_LeftAloneAndReportedUnbounded) {
  Outcome outcome = RunRobustAccess(test::Assemble(R"(
OpCapability Shader
OpCapability VariablePointers
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buffer
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %arr ArrayStride 4
OpDecorate %ptr_float ArrayStride 4
OpMemberDecorate %block 0 Offset 0
OpDecorate %block Block
OpDecorate %buffer DescriptorSet 0
OpDecorate %buffer Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%uint_4 = OpConstant %uint 4
%uint_0 = OpConstant %uint 0
%arr = OpTypeArray %float %uint_4
%block = OpTypeStruct %arr
%ptr_block = OpTypePointer StorageBuffer %block
%ptr_float = OpTypePointer StorageBuffer %float
%buffer = OpVariable %ptr_block StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%first = OpAccessChain %ptr_float %buffer %uint_0 %uint_0
%bits = OpLoad %float %first
%n = OpConvertFToU %uint %bits
%p = OpPtrAccessChain %ptr_float %first %n
%x = OpLoad %float %p
OpStore %first %x
OpReturn
OpFunctionEnd
)"));
  EXPECT_EQ(outcome.result.status, PassStatus::kUnchanged);
  const AccessRecord* record = FindRecord(outcome.report, AccessVerdict::kUnbounded);
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->instruction, "OpPtrAccessChain");
}

TEST(RobustAccess, KernelModule_IsRefused) {
  Outcome outcome = RunRobustAccess(test::Assemble(R"(
OpCapability Kernel
OpCapability Addresses
OpMemoryModel Physical32 OpenCL
%void = OpTypeVoid
)"));
  EXPECT_EQ(outcome.result.status, PassStatus::kFailed);
  EXPECT_EQ(outcome.result.message,
            "Kernel modules are not supported (the clamps use GLSL.std.450)");
}

// The pass imports GLSL.std.450 when the module lacks it.
TEST(RobustAccess, MissingGlslImport_IsAdded) {
  Outcome outcome = RunRobustAccess(test::Assemble(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %index "index"
OpName %vec "vec"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%uint = OpTypeInt 32 0
%ptr_v4 = OpTypePointer Function %v4float
%ptr_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ptr_v4 Function
%i = OpVariable %ptr_uint Function
%index = OpLoad %uint %i
%vec = OpLoad %v4float %v
%x = OpVectorExtractDynamic %float %vec %index
OpReturn
OpFunctionEnd
)"));
  EXPECT_TRUE(test::FileCheck(outcome.text, R"(
CHECK: %[[GLSL:[0-9]+]] = OpExtInstImport "GLSL.std.450"
CHECK: %[[CLAMP:[0-9]+]] = OpExtInst %uint %[[GLSL]] UMin %index %uint_3
CHECK-NEXT: OpVectorExtractDynamic %float %vec %[[CLAMP]]{{$}}
)"));
  EXPECT_EQ(test::ValidateFor(outcome.words, TargetEnv::kUniversal), "");
}

// The analysis modes on one kernel: off clamps every dynamic index; reference proves the
// for-loop counter and the modulo; full also proves indices held in local variables.
// #version 440
// layout(local_size_x = 16, local_size_y = 16) in;
// shared float tile[16][16];
// layout(std430, binding = 0) buffer Data { uint key; float result[]; };
// void main() { uint x = gl_LocalInvocationID.x, y = ...; tile[y][x] = ...; (see below) }
const char kModesKernel[] = R"(#version 440
layout(local_size_x = 16, local_size_y = 16) in;
shared float tile[16][16];
layout(std430, binding = 0) buffer Data { uint key; float result[]; };
void main() {
  uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
  tile[y][x] = float(x + y);
  barrier();
  float sum = 0.0;
  for (int k = 0; k < 16; ++k) sum += tile[gl_LocalInvocationID.y][k];
  sum += tile[key % 16u][gl_LocalInvocationID.x] + tile[key][x];
  result[gl_LocalInvocationIndex] = sum;
}
)";

size_t CountVerdicts(const Report& report, AccessVerdict verdict) {
  size_t count = 0;
  for (const AccessRecord& record : report.accesses) count += record.verdict == verdict;
  return count;
}

TEST(RobustAccess, AnalysisModes_EachProvesMoreThanTheLast) {
  std::vector<uint32_t> input = test::CompileGlsl(kModesKernel, "comp");
  Outcome off = RunRobustAccess(input, RangeAnalysisMode::kOff);
  Outcome reference = RunRobustAccess(input, RangeAnalysisMode::kReference);
  Outcome full = RunRobustAccess(input, RangeAnalysisMode::kFull);
  // tile[y][x], tile[gl_LocalInvocationID.y][k], tile[key % 16][lid.x], tile[key][x], result[]
  EXPECT_EQ(off.result.rewrites, 9u);
  EXPECT_EQ(CountVerdicts(off.report, AccessVerdict::kProvenInBounds), 0u);
  // reference: lid.y, k, key % 16 and lid.x are proven; x and y (locals) and key are not.
  EXPECT_EQ(reference.result.rewrites, 5u);
  EXPECT_EQ(CountVerdicts(reference.report, AccessVerdict::kProvenInBounds), 4u);
  // full: the locals x and y are proven too; key and the runtime array stay clamped.
  EXPECT_EQ(full.result.rewrites, 2u);
  EXPECT_EQ(CountVerdicts(full.report, AccessVerdict::kProvenInBounds), 7u);
  for (const Outcome* outcome : {&off, &reference, &full}) {
    EXPECT_EQ(test::ValidateFor(outcome->words, TargetEnv::kVulkan10), "");
    EXPECT_EQ(outcome->blocks_after, outcome->blocks_before);
  }
  const AccessRecord* proven = FindRecord(reference.report, AccessVerdict::kProvenInBounds);
  ASSERT_NE(proven, nullptr);
  EXPECT_TRUE(proven->has_range);
  EXPECT_EQ(proven->range_min, 0);
  EXPECT_EQ(proven->range_max, 15);
  EXPECT_EQ(proven->limit, 15);
}

// A guard `i < data.length()` on the same buffer variable and member proves data[i]
// in bounds (full mode only); `<=`, another buffer's length, and a signed guard on a
// value that may be negative prove nothing.
const char kLengthGuards[] = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(std430, binding = 1) buffer Other { uint other[]; };
void main() {
  uint g = gl_GlobalInvocationID.x;
  int s = int(g) - 5;
  if (g < uint(data.length())) data[g] = 1u;             // proven
  if (g <= uint(data.length())) data[g] = 2u;            // clamped: <= is one too many
  if (g < uint(other.length())) data[g] = 3u;            // clamped: another buffer
  if (s < data.length()) data[s] = 4u;                   // clamped: s may be negative
  if (s >= 0 && s < data.length()) data[s] = 5u;         // proven
  for (uint i = 0u; i < uint(data.length()); i++) data[i] = 7u;  // proven: the loop's test
  if (g >= uint(data.length())) return;
  data[g] = 6u;                                          // proven after the early return
}
)";

TEST(RobustAccess, RuntimeArray_LengthGuardProvesOnlyTheSameBufferWithLess) {
  std::vector<uint32_t> input = test::CompileGlsl(kLengthGuards, "comp");
  for (RangeAnalysisMode mode : {RangeAnalysisMode::kReference, RangeAnalysisMode::kFull}) {
    Outcome outcome = RunRobustAccess(input, mode);
    std::vector<AccessVerdict> verdicts;
    for (const AccessRecord& record : outcome.report.accesses)
      if (record.object == "Data") verdicts.push_back(record.verdict);
    const AccessVerdict proven = AccessVerdict::kProvenInBounds, clamped = AccessVerdict::kClamped;
    std::vector<AccessVerdict> expected = {proven, clamped, clamped, clamped,
                                           proven, proven,  proven};
    if (mode == RangeAnalysisMode::kReference) expected.assign(7, clamped);
    EXPECT_EQ(verdicts, expected);
    EXPECT_EQ(test::ValidateFor(outcome.words, TargetEnv::kVulkan10), "");
    EXPECT_EQ(outcome.blocks_after, outcome.blocks_before);
  }
}

// --max-workgroups: the promise proves exactly the accesses it bounds. tile[4] indexed by
// the workgroup id and by the global id over 4 groups of 8: proven with a promise of 4
// groups, clamped with 5 (the trap: a promise one group too large), with none, and in
// reference mode; the count and the runtime array are never proven by it.
const char kDispatchKernel[] = R"(#version 440
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Data { uint tile[4]; uint wide[32]; uint counts[5]; uint rest[]; };
void main() {
  tile[gl_WorkGroupID.x] = 1u;
  wide[gl_GlobalInvocationID.x] = 2u;
  counts[gl_NumWorkGroups.x] = 3u;
  rest[gl_GlobalInvocationID.x] = 4u;
}
)";

std::vector<AccessVerdict> DataVerdicts(const Outcome& outcome) {
  std::vector<AccessVerdict> verdicts;
  for (const AccessRecord& record : outcome.report.accesses)
    if (record.object == "Data") verdicts.push_back(record.verdict);
  return verdicts;
}

TEST(RobustAccess, MaxWorkgroups_ProvesOnlyWithinThePromise) {
  std::vector<uint32_t> input = test::CompileGlsl(kDispatchKernel, "comp");
  const AccessVerdict proven = AccessVerdict::kProvenInBounds, clamped = AccessVerdict::kClamped;
  struct Case {
    RangeAnalysisMode mode;
    std::array<uint32_t, 3> promise;
    std::vector<AccessVerdict> expected;
  } cases[] = {
      {RangeAnalysisMode::kFull, {4, 1, 1}, {proven, proven, proven, clamped}},
      {RangeAnalysisMode::kFull, {5, 1, 1}, {clamped, clamped, clamped, clamped}},
      {RangeAnalysisMode::kFull, {4, 9, 9}, {proven, proven, proven, clamped}},
      {RangeAnalysisMode::kFull, {0, 0, 0}, {clamped, clamped, clamped, clamped}},
      {RangeAnalysisMode::kReference, {4, 1, 1}, {clamped, clamped, clamped, clamped}},
  };
  for (const Case& c : cases) {
    Outcome outcome = RunRobustAccess(input, c.mode, c.promise);
    EXPECT_EQ(DataVerdicts(outcome), c.expected)
        << "promise " << c.promise[0] << "," << c.promise[1] << "," << c.promise[2];
    EXPECT_EQ(test::ValidateFor(outcome.words, TargetEnv::kVulkan10), "");
    EXPECT_EQ(outcome.blocks_after, outcome.blocks_before);
  }
}

// A signed counter compared with a runtime length: widening the loop-carried local
// (integer_range_loop_locals.cpp) proves it non-negative, which the signed length
// guard needs. Traps: a start that may be negative, a step without a range.
const char kSignedLengthLoops[] = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
void main() {
  for (int i = 0; i < data.length(); i++) data[i] = 1u;             // proven
  for (int j = int(data[0]); j < data.length(); j++) data[j] = 2u;  // clamped: j may be < 0
  int k = 0;
  while (k < data.length()) { data[k] = 3u; k += int(data[0]); }    // clamped: any step
}
)";

TEST(RobustAccess, RuntimeArray_SignedLoopToLengthIsProvenByWidening) {
  std::vector<uint32_t> input = test::CompileGlsl(kSignedLengthLoops, "comp");
  for (RangeAnalysisMode mode : {RangeAnalysisMode::kReference, RangeAnalysisMode::kFull}) {
    Outcome outcome = RunRobustAccess(input, mode);
    std::vector<AccessVerdict> verdicts;
    for (const AccessRecord& record : outcome.report.accesses)
      if (record.object == "Data" && record.verdict != AccessVerdict::kNotClamped)
        verdicts.push_back(record.verdict);
    const AccessVerdict proven = AccessVerdict::kProvenInBounds, clamped = AccessVerdict::kClamped;
    std::vector<AccessVerdict> expected = {proven, clamped, clamped};
    if (mode == RangeAnalysisMode::kReference) expected.assign(3, clamped);
    EXPECT_EQ(verdicts, expected);
    EXPECT_EQ(test::ValidateFor(outcome.words, TargetEnv::kVulkan10), "");
    EXPECT_EQ(outcome.blocks_after, outcome.blocks_before);
  }
}

// The four full-mode rules of integer_range_rules_test, end to end: a guarded global id
// (any() early exit), a switch case, a call result and a u8 index are proven in full
// mode (their clamps dropped, output valid, no block added); each has a trap beside it
// that stays clamped; reference mode clamps all.
const char* kRuleShapes = R"(#version 440
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 0) buffer Data { uint t[64]; };
layout(std430, binding = 1) buffer In { uint src[]; };
uint pick(uint x) { if (x >= 64u) return 0u; return x; }
uint pick_le(uint x) { if (x > 64u) return 0u; return x; }
void main() {
  uvec2 g = gl_GlobalInvocationID.xy;
  uint s = src[1];
  switch (s) { case 5u: case 9u: t[s] = 1u; break; case 70u: t[0] = 2u; default: t[s] = 3u; }
  t[pick(src[2])] = 4u;
  t[pick_le(src[3])] = 5u;
  t[uint(uint8_t(src[4])) & 63u] = 6u;
  t[uint(uint8_t(src[5]))] = 7u;
  if (all(lessThan(g, uvec2(65u)))) t[g.x] = 8u;
  if (any(greaterThanEqual(g, uvec2(8u)))) return;
  t[g.x * 8u + g.y] = 9u;
}
)";

TEST(RobustAccess, RuleShapes_CallSwitchNarrowAndVectorGuards) {
  std::vector<uint32_t> input = test::CompileGlsl(kRuleShapes, "comp");
  for (RangeAnalysisMode mode : {RangeAnalysisMode::kReference, RangeAnalysisMode::kFull}) {
    Outcome outcome = RunRobustAccess(input, mode);
    std::vector<AccessVerdict> verdicts;
    for (const AccessRecord& record : outcome.report.accesses)
      if (record.object == "Data" && record.verdict != AccessVerdict::kNotClamped)
        verdicts.push_back(record.verdict);
    const AccessVerdict proven = AccessVerdict::kProvenInBounds, clamped = AccessVerdict::kClamped;
    // In module order: the default (also reached by falling through from case 70)
    // clamped, case 5/9 proven; pick proven,
    // pick_le (may return 64) clamped; u8 & 63 proven, u8 alone (up to 255) clamped;
    // g < 65 (g.x may be 64) clamped; after the any() exit g.x * 8 + g.y <= 63 proven.
    std::vector<AccessVerdict> expected = {clamped, proven,  proven,  clamped,
                                           proven,  clamped, clamped, proven};
    if (mode == RangeAnalysisMode::kReference) expected.assign(8, clamped);
    EXPECT_EQ(verdicts, expected) << (mode == RangeAnalysisMode::kFull ? "full" : "reference");
    EXPECT_EQ(test::ValidateFor(outcome.words, TargetEnv::kVulkan10), "");
    EXPECT_EQ(outcome.blocks_after, outcome.blocks_before);
  }
}

// --- The goldens (Test/robust_*): no block added and valid output, in the golden's own
// environment and mode; goldens for the default environment also in every Vulkan one.

struct GoldenCase {
  std::string name, stage, env;
  RangeAnalysisMode mode = RangeAnalysisMode::kFull;
};

std::vector<GoldenCase> RobustGoldens() {
  std::vector<GoldenCase> cases;
  for (const char* name :
       {"robust_array.comp", "robust_vector_dynamic.comp", "robust_runtime_array.comp",
        "robust_spec_constant.comp", "robust_loop_off.comp", "robust_loop_reference.comp",
        "robust_loop_full.comp", "robust_image_fetch.frag", "robust_storage_image.comp",
        "robust_sparse.frag", "robust_left_alone.comp", "robust_opengl.comp",
        "robust_vulkan1_3.comp", "robust_spirv1_4.comp"}) {
    std::string source = test::ReadFile(test::SourceRoot() + "/Test/" + name);
    std::string flags = source.substr(0, source.find('\n'));
    GoldenCase golden{name, std::string(name).substr(std::string(name).rfind('.') + 1), ""};
    if (flags.find("=off") != std::string::npos) golden.mode = RangeAnalysisMode::kOff;
    if (flags.find("=reference") != std::string::npos) golden.mode = RangeAnalysisMode::kReference;
    for (const char* env : {"opengl", "vulkan1.1 --target-env spirv1.4", "vulkan1.2", "vulkan1.3"})
      if (flags.find(std::string("--target-env ") + env) != std::string::npos)
        golden.env = std::string(env) == "vulkan1.1 --target-env spirv1.4" ? "spirv1.4" : env;
    if (!golden.env.empty()) {
      cases.push_back(golden);
      continue;
    }
    for (const char* env : {"vulkan1.0", "vulkan1.1", "spirv1.4", "vulkan1.2", "vulkan1.3"}) {
      golden.env = env;
      cases.push_back(golden);
    }
  }
  return cases;
}

TargetEnv GoldenTarget(const std::string& env) {
  if (env == "spirv1.4") return TargetEnv::kVulkan11;  // validated as vulkan1.1spv1.4
  TargetEnv target = TargetEnv::kVulkan10;
  EXPECT_TRUE(ParseTargetEnv(env, &target)) << env;
  return target;
}

TEST(RobustAccessGoldens, NoNewBlockAndValidInEveryEnvironment) {
  std::vector<GoldenCase> cases = RobustGoldens();
  ASSERT_GT(cases.size(), 40u);
  for (const GoldenCase& golden : cases) {
    SCOPED_TRACE(golden.name + " for " + golden.env);
    std::string source = test::ReadFile(test::SourceRoot() + "/Test/" + golden.name);
    std::vector<uint32_t> input = test::CompileGlsl(source, golden.stage, golden.env);
    ASSERT_EQ(test::ValidateFor(input, GoldenTarget(golden.env)), "") << "glslang's own output";
    Outcome outcome = RunRobustAccess(input, golden.mode);
    EXPECT_NE(outcome.result.status, PassStatus::kFailed) << outcome.result.message;
    EXPECT_EQ(outcome.blocks_after, outcome.blocks_before);
    EXPECT_EQ(test::ValidateFor(outcome.words, GoldenTarget(golden.env)), "");
    bool left_alone_only = golden.name == "robust_left_alone.comp";
    EXPECT_EQ(outcome.result.status,
              left_alone_only ? PassStatus::kUnchanged : PassStatus::kChanged);
  }
}

// The corpus in every environment and analysis mode (valid, no block added, clamps
// counted) is checked by corpus_test, on the same compile as its other checks.

}  // namespace
}  // namespace glint::spirv
