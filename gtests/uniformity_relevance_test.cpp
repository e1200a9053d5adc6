// Relevance (SPIRV/analysis/uniformity/uniformity_relevance.cpp): the uniformity findings computed
// from the facts they can depend on are those computed from every fact, on shaders that
// exercise each rule the relevance follows (helpers with pointer parameters and call
// results, shared memory after barriers, kills in callees, private globals, lane
// broadcasts, locals the value flow does not follow); and arithmetic that reaches no
// branch is not transferred at all.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/uniformity/uniformity_internal.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/parser.h"
#include "support/glsl_case.h"
#include "support/test_support.h"
#include "support/uniformity_relevance_check.h"
#include "support/uniformity_rerun_check.h"

namespace glint::spirv {
namespace {

const test::GlslCase kCases[] = {
    {"HelpersSharedMemoryAndLoops", "comp", "vulkan1.0", R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
shared uint tile[64];
void bump(inout uint v, uint by) { v += by; }
uint pick(uint i) { return data[i] * 3u; }
void main() {
  uint i = gl_LocalInvocationID.x;
  uint n = 0u;
  bump(n, data[0]);
  tile[i] = pick(i);
  barrier();
  uint t = tile[0];
  float acc = 0.0;
  for (uint k = 0u; k < n; ++k) { acc += float(tile[k % 64u]) * 0.5; barrier(); }
  if (t > 4u) barrier();
  if (pick(i) > 2u) barrier();
  data[i] = uint(acc);
}
)"},
    {"KillInHelperPrivateGlobalAndCallResult", "frag", "vulkan1.0", R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 1) flat in int mode;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;
float g;
void maybeKill(float x) { if (x < 0.0) discard; }
float shade(vec2 p) { return p.x * p.y; }
void main() {
  g = uv.x;
  maybeKill(g);
  vec4 c = texture(tex, uv);
  if (mode > 2) c += texture(tex, uv * 2.0);
  float s = shade(uv);
  if (s > 0.5) c.x += dFdx(s);
  if (g > 0.1) c.y += fwidth(uv.y);
  color = c;
}
)"},
    // Phis of && and ?: feeding barrier conditions, a local stored under a divergent
    // branch and read by a loop bound, a helper returning under a branch, a shared
    // load under a branch: the branches each reads are relevant, those guarding only
    // data are not.
    {"MergesReturnsAndGuardedLoads", "comp", "vulkan1.0", R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
layout(push_constant) uniform P { uint count; uint limit; } pc;
shared uint tile[64];
uint clampTo(uint v, uint hi) { if (v > hi) return hi; return v; }
void main() {
  uint lane = gl_LocalInvocationID.x;
  uint v = 0u;
  if (lane < pc.limit) v = data[lane];
  uint n = pc.count;
  if (lane > 7u) n = n + 1u;
  bool both = pc.count > 2u && lane < 4u;
  uint pick = pc.limit > 3u ? lane : 0u;
  uint m = clampTo(pc.count, pick);
  tile[lane] = v;
  barrier();
  uint t = 0u;
  if (pc.limit > 1u) t = tile[0];
  for (uint k = 0u; k < n; ++k) { data[k] = v; barrier(); }
  if (both) barrier();
  for (uint k = 0u; k < m; ++k) barrier();
  if (t > 2u) barrier();
}
)"},
    {"LaneBroadcasts", "comp", "vulkan1.1", R"(#version 450
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint lane = gl_SubgroupInvocationID;
  uint v = subgroupBroadcast(data[lane], 0u);
  if (v > 3u) barrier();
  uint w = subgroupBroadcastFirst(lane);
  if (w == 0u) { data[lane] = 1u; barrier(); }
  if (lane == 0u) barrier();
}
)"},
    {"DynamicallyIndexedLocalsAndPushConstants", "comp", "vulkan1.0", R"(#version 450
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { uint data[]; };
layout(push_constant) uniform P { uint count; } pc;
void main() {
  uint idx[4];
  for (int j = 0; j < 4; ++j) idx[j] = data[j + int(gl_LocalInvocationID.x)];
  uint sum = 0u;
  for (uint k = 0u; k < pc.count; ++k) { sum += data[k]; barrier(); }
  if (idx[gl_LocalInvocationID.x & 3u] > 1u) barrier();
  data[gl_LocalInvocationID.x] = sum;
}
)"},
    {"OutParameterChainsAndReturnedPointersData", "frag", "vulkan1.0", R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;
void split(vec2 p, out float a, out float b) { a = p.x; b = 0.5; }
float twice(float x) { float y = x; y *= 2.0; return y; }
void main() {
  float a, b;
  split(uv, a, b);
  vec4 c = vec4(0.0);
  if (b > 0.25) c = texture(tex, uv);
  if (twice(a) > 1.0) c += texture(tex, uv.yx);
  if (twice(b) > 1.0) c.z = dFdy(uv.x);
  color = c;
}
)"},
};

class UniformityRelevance : public ::testing::TestWithParam<test::GlslCase> {};

TEST_P(UniformityRelevance, FindingsAreThoseOfEveryFact) {
  std::string error;
  std::optional<Module> module = test::ParseGlslCase(GetParam(), &error);
  ASSERT_TRUE(module) << error;
  size_t findings = 0;
  EXPECT_EQ(test::CompareRelevantFindings(*module, &findings), "");
  EXPECT_GT(findings, 0u) << "each case has something to report";
  // Passing over blocks whose reads did not rise is exact here too (fact_reads.h).
  EXPECT_EQ(test::CompareRerunEveryBlock(*module).difference, "");
}

INSTANTIATE_TEST_SUITE_P(Cases, UniformityRelevance, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

// A by-value parameter (SPIR-V from other producers; glslang passes pointers): the
// argument's level reaches the call's result through the helper, so arguments are
// relevant even where nothing in the caller reads them otherwise.
TEST(UniformityRelevance, ByValueArgumentsReachTheCallResult) {
  std::optional<Module> module = test::AssembleModule(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %lid BuiltIn LocalInvocationId
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%v3uint = OpTypeVector %uint 3
%ptr_in_v3 = OpTypePointer Input %v3uint
%lid = OpVariable %ptr_in_v3 Input
%fn_void = OpTypeFunction %void
%fn_uint_uint = OpTypeFunction %uint %uint
%uint_2 = OpConstant %uint 2
%uint_264 = OpConstant %uint 264
%double = OpFunction %uint None %fn_uint_uint
%x = OpFunctionParameter %uint
%body = OpLabel
%r = OpIMul %uint %x %uint_2
OpReturnValue %r
OpFunctionEnd
%main = OpFunction %void None %fn_void
%entry = OpLabel
%l = OpLoad %v3uint %lid
%lx = OpCompositeExtract %uint %l 0
%d = OpFunctionCall %uint %double %lx
%c = OpULessThan %bool %d %uint_2
OpSelectionMerge %merge None
OpBranchConditional %c %then %merge
%then = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_264
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(module);
  size_t findings = 0;
  EXPECT_EQ(test::CompareRelevantFindings(*module, &findings), "");
  EXPECT_EQ(findings, 1u);
}

// A kernel's arithmetic that only reaches a buffer nothing loads is not transferred;
// the loop counter that controls the barrier, and what it is compared with, are.
TEST(UniformityRelevance, ArithmeticReachingNoBranchIsNotTransferred) {
  std::vector<uint32_t> words = test::CompileGlsl(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { float a[]; };
layout(std430, binding = 1) writeonly buffer Out { float o[]; };
layout(push_constant) uniform P { uint count; } pc;
void main() {
  float acc = 0.0;
  for (uint k = 0u; k < pc.count; ++k) {
    acc = acc * 0.5 + a[k] * a[k + 1u];
    barrier();
  }
  o[gl_GlobalInvocationID.x] = acc;
}
)",
                                                  "comp");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  AnalysisContext analyses(*module);
  std::unique_ptr<uniformity_detail::ModuleFacts> facts =
      uniformity_detail::CollectModuleFacts(*module, analyses.GetUniformityInputs(), true);
  ASSERT_NE(facts->relevance, nullptr);
  const uniformity_detail::Relevance& relevance = *facts->relevance;
  int multiplies = 0, relevant_compares = 0;
  for (const Function& function : module->functions)
    for (const Block& block : function.blocks)
      for (const Instruction& inst : block.instructions) {
        if (inst.opcode == spv::OpFMul) {
          ++multiplies;
          EXPECT_FALSE(relevance.Value(inst.result_id));
          EXPECT_FALSE(relevance.Transfers(*facts, function, inst));
        }
        if (inst.opcode == spv::OpULessThan) {
          relevant_compares += relevance.Value(inst.result_id);
          for (uint32_t operand : facts->OperandsOf(inst))
            EXPECT_TRUE(relevance.Value(operand)) << "what the loop condition compares";
        }
        if (inst.opcode == spv::OpBranch || inst.opcode == spv::OpLoopMerge) {
          EXPECT_FALSE(relevance.Transfers(*facts, function, inst)) << "a transfer of nothing";
        }
      }
  EXPECT_EQ(multiplies, 2);
  EXPECT_EQ(relevant_compares, 1);
  // The value flow of the findings follows the loop counter only (`acc` is stored and
  // loaded, but no relevant load reads it).
  const ValueFlow& flow = *facts->flows.at(module->functions.front().id());
  EXPECT_EQ(flow.Variables().size(), 1u);
  size_t every_variable = 0;
  for (const Instruction& inst : module->functions.front().blocks.front().instructions)
    every_variable += inst.opcode == spv::OpVariable;
  EXPECT_EQ(every_variable, 2u);
}

// A branch that guards only data (`if (lane < limit) v = data[lane]`, v never reaching a
// branch) is not read: its condition is not relevant. A branch that stores a loop bound
// controlling a barrier is (its store's control reaches the bound).
TEST(UniformityRelevance, BranchesGuardingOnlyDataAreNotRead) {
  std::vector<uint32_t> words = test::CompileGlsl(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { float a[]; };
layout(std430, binding = 1) writeonly buffer Out { float o[]; };
layout(push_constant) uniform P { uint count; uint limit; } pc;
void main() {
  uint lane = gl_LocalInvocationID.x;
  float v = 0.0;
  if (lane < pc.limit) v = a[lane];
  uint n = pc.count;
  if (lane > 7u) n = n + 1u;
  for (uint k = 0u; k < n; ++k) { o[k] = v; barrier(); }
}
)",
                                                  "comp");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  size_t findings = 0;
  EXPECT_EQ(test::CompareRelevantFindings(*module, &findings), "");
  EXPECT_EQ(findings, 1u) << "the barrier in the loop whose bound differs per invocation";
  AnalysisContext analyses(*module);
  std::unique_ptr<uniformity_detail::ModuleFacts> facts =
      uniformity_detail::CollectModuleFacts(*module, analyses.GetUniformityInputs(), true);
  ASSERT_NE(facts->relevance, nullptr);
  int data_guards = 0, bound_guards = 0;
  for (const Function& function : module->functions)
    for (const Block& block : function.blocks)
      for (const Instruction& inst : block.instructions) {
        if (inst.opcode == spv::OpULessThan && inst.words.size() == 2) {
          // lane < limit (a load of the push constant): data only.
          const Instruction* right = analyses.GetDefUse().Definition(inst.words[1]);
          if (right && right->opcode == spv::OpLoad && inst.words[0] != inst.words[1]) {
            const Instruction* left = analyses.GetDefUse().Definition(inst.words[0]);
            if (left && left->opcode == spv::OpLoad &&
                module->NameOf(LoadView(*left).pointer()) == "lane") {
              ++data_guards;
              EXPECT_FALSE(facts->relevance->Value(inst.result_id)) << "guards data only";
            }
          }
        }
        if (inst.opcode == spv::OpUGreaterThan) {
          ++bound_guards;
          EXPECT_TRUE(facts->relevance->Value(inst.result_id)) << "stores the loop bound";
        }
      }
  EXPECT_EQ(data_guards, 1);
  EXPECT_EQ(bound_guards, 1);
}

}  // namespace
}  // namespace glint::spirv
