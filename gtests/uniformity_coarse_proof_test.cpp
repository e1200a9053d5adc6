// The uniformity coarse proof (SPIRV/analysis/uniformity/uniformity_coarse_proof.cpp): it proves a
// module only where the full analysis (every fact computed) finds nothing, and it
// proves the kernels it exists for: barriers in loops bounded by uniform values from
// push constants, specialization constants, uniform and read-only buffers and helpers.
// Each case that it does not prove is the near miss of one it does: the same bound read
// from writable memory, a parameter written through, a helper called under a branch.
// Some it leaves to the analysis are fine in fact (shared memory read after a barrier):
// the proof is coarser there by design.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/analysis/uniformity/uniformity_coarse_proof.h"
#include "SPIRV/ir/parser.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

struct ProofCase {
  const char* name;
  const char* stage;
  bool proven;       // the coarse proof shows there is nothing to report
  bool has_finding;  // the full analysis reports something (never with `proven`)
  const char* source;
  const char* env = "vulkan1.0";
};

void PrintTo(const ProofCase& c, std::ostream* out) { *out << c.name; }

// The proof's inputs from the analysis context of `module`.
CoarseProofInputs InputsFrom(Module& module, AnalysisContext& analyses) {
  return {module, analyses.GetConvergenceClasses(), analyses.GetCallGraph(), analyses.GetBuiltIns(),
          [&analyses](Function& function) -> const Cfg& { return analyses.GetCfg(function); }};
}

const char* const kCompHead = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint n; uint data[]; };
layout(std430, binding = 2) readonly buffer R { uint fixed_count; uint table[]; };
layout(binding = 1) uniform P { uint m; };
layout(push_constant) uniform Push { uint k; int w; };
layout(constant_id = 0) const uint TILE = 4u;
shared uint tile[64];
)";

const char* const kFragHead = R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 1) flat in int layer;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) uniform U { float level; int count; };
)";

const ProofCase kCases[] = {
    {"BarrierInLoopOverUniformBlock", "comp", true, false, R"(
void main() {
  for (uint i = 0u; i < m; ++i) { tile[gl_LocalInvocationID.x] = i; barrier(); }
})"},
    {"BarrierInLoopOverPushAndSpecConstants", "comp", true, false, R"(
void main() {
  uint bound = (k == 0u ? TILE : k) * TILE;
  for (uint i = 0u; i < bound; i += 2u) {
    tile[gl_LocalInvocationID.x] = data[i + gl_GlobalInvocationID.x];
    barrier();
    data[gl_GlobalInvocationID.x] += tile[63u - gl_LocalInvocationID.x];
    barrier();
  }
})"},
    {"BarrierInLoopOverReadonlyBuffer", "comp", true, false, R"(
void main() {
  for (uint i = 0u; i < fixed_count; ++i) { tile[gl_LocalInvocationID.x] = table[i]; barrier(); }
})"},
    {"BarrierInLoopOverWritableBuffer", "comp", false, true, R"(
void main() {
  for (uint i = 0u; i < n; ++i) { tile[gl_LocalInvocationID.x] = i; barrier(); }
})"},
    {"BarrierInLoopOverWorkgroupId", "comp", true, false, R"(
void main() {
  for (uint i = 0u; i < gl_WorkGroupID.x + gl_NumWorkGroups.y; ++i) barrier();
})"},
    {"BarrierInLoopOverInvocationId", "comp", false, true, R"(
void main() {
  for (uint i = 0u; i < gl_LocalInvocationID.x; ++i) barrier();
})"},
    {"BarrierAfterDivergentReturn", "comp", false, true, R"(
void main() {
  if (gl_LocalInvocationID.x >= m) return;
  tile[gl_LocalInvocationID.x] = 1u;
  barrier();
})"},
    {"BarrierAfterUniformReturn", "comp", true, false, R"(
void main() {
  if (gl_WorkGroupID.x >= m) return;
  tile[gl_LocalInvocationID.x] = 1u;
  barrier();
})"},
    // The helper's argument varies, but the barrier's control does not depend on it.
    {"HelperWithBarrierTakesVaryingArgument", "comp", true, false, R"(
void publish(uint value) { tile[gl_LocalInvocationID.x] = value; barrier(); }
void main() {
  for (uint i = 0u; i < m; ++i) publish(data[gl_GlobalInvocationID.x] + i);
})"},
    {"HelperWithBarrierUnderVaryingBranch", "comp", false, true, R"(
void publish(uint value) { tile[gl_LocalInvocationID.x] = value; barrier(); }
void main() {
  if (data[gl_GlobalInvocationID.x] > 3u) publish(1u);
})"},
    {"LoopBoundFromUniformHelper", "comp", true, false, R"(
uint rows(uint scale) { return m * scale + k; }
void main() {
  for (uint i = 0u; i < rows(TILE); ++i) barrier();
})"},
    {"LoopBoundFromVaryingHelper", "comp", false, true, R"(
uint rows(uint scale) { return data[gl_LocalInvocationID.x] * scale; }
void main() {
  for (uint i = 0u; i < rows(TILE); ++i) barrier();
})"},
    // A helper returns in varying control: its result varies though each return is a
    // constant.
    {"LoopBoundFromHelperReturningUnderVaryingBranch", "comp", false, true, R"(
uint rows() { if (gl_LocalInvocationID.x > 7u) return 2u; return 3u; }
void main() {
  for (uint i = 0u; i < rows(); ++i) barrier();
})"},
    {"LoopBoundWrittenThroughInoutParameter", "comp", false, true, R"(
void widen(inout uint bound) { bound += gl_LocalInvocationID.x; }
void main() {
  uint bound = m;
  widen(bound);
  for (uint i = 0u; i < bound; ++i) barrier();
})"},
    {"LoopBoundWrittenThroughUniformInoutParameter", "comp", true, false, R"(
void widen(inout uint bound) { bound += k; }
void main() {
  uint bound = m;
  widen(bound);
  for (uint i = 0u; i < bound; ++i) barrier();
})"},
    {"LocalAssignedUnderVaryingBranch", "comp", false, true, R"(
void main() {
  uint bound = m;
  if (gl_LocalInvocationID.x > 3u) bound = 1u;
  for (uint i = 0u; i < bound; ++i) barrier();
})"},
    // Both values are uniform, but which one is kept depends on the invocation (a phi
    // or a select after the short circuit).
    {"ShortCircuitOnVaryingValue", "comp", false, true, R"(
void main() {
  bool go = gl_LocalInvocationID.x > 1u && m > 0u;
  if (go) barrier();
})"},
    {"ShortCircuitOnUniformValues", "comp", true, false, R"(
void main() {
  bool go = m > 1u && k < 9u || w == 2;
  if (go) barrier();
})"},
    {"LoopBoundFromAtomic", "comp", false, true, R"(
void main() {
  uint bound = atomicAdd(n, 0u);
  for (uint i = 0u; i < bound; ++i) barrier();
})"},
    // Shared memory read after a barrier is uniform here (the analysis proves it with
    // barrier phases); the coarse proof takes all shared memory as varying.
    {"LoopBoundFromSharedMemoryAfterBarrier", "comp", false, false, R"(
void main() {
  if (gl_LocalInvocationID.x == 0u) tile[0] = m;
  barrier();
  uint bound = tile[0];
  for (uint i = 0u; i < bound; ++i) barrier();
})"},
    {"SampleUnderUniformBranch", "frag", true, false, R"(
void main() {
  color = vec4(0.0);
  if (level > 0.5 && count > 2) color = texture(tex, uv);
})"},
    {"SampleInUniformLoopWithSizeQuery", "frag", true, false, R"(
void main() {
  color = vec4(0.0);
  ivec2 size = textureSize(tex, 0);
  for (int i = 0; i < size.x / 64 + count; ++i) color += texture(tex, uv + float(i));
})"},
    {"SampleUnderVaryingBranch", "frag", false, true, R"(
void main() {
  color = vec4(0.0);
  if (uv.x > 0.5) color = texture(tex, uv);
})"},
    // Flat inputs and gl_FrontFacing are uniform within a quad, which is all a sample
    // needs.
    {"SampleUnderFlatInputBranch", "frag", true, false, R"(
void main() {
  color = vec4(0.0);
  if (layer > 2) color = texture(tex, uv);
})"},
    {"SampleInLoopUnderFrontFacing", "frag", true, false, R"(
void main() {
  color = vec4(0.0);
  if (gl_FrontFacing)
    for (int x = -2; x <= 2; ++x) color += texture(tex, uv + vec2(float(x) / 512.0));
})"},
    // A material chosen by a flat index into a read-only buffer (bindless renderers).
    {"SampleUnderMaterialFromFlatIndex", "frag", true, false, R"(
struct Material { int albedo; float scale; };
layout(std430, binding = 2) readonly buffer Materials { Material materials[]; };
void main() {
  Material material = materials[layer];
  color = vec4(material.scale);
  if (material.albedo > 0) color *= texture(tex, uv);
})"},
    // The same index into a buffer other invocations may write.
    {"SampleUnderMaterialFromWritableBuffer", "frag", false, true, R"(
struct Material { int albedo; float scale; };
layout(std430, binding = 2) buffer Materials { Material materials[]; };
void main() {
  Material material = materials[layer];
  color = vec4(material.scale);
  if (material.albedo > 0) color *= texture(tex, uv);
})"},
    // gl_SubgroupID is uniform within a subgroup: enough for a subgroup barrier, not for
    // a workgroup one.
    {"SubgroupBarrierUnderSubgroupIdBranch", "comp", true, false, R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  if (gl_SubgroupID == 0u) { data[gl_LocalInvocationID.x] = 1u; subgroupBarrier(); }
})",
     "vulkan1.1"},
    {"WorkgroupBarrierUnderSubgroupIdBranch", "comp", false, true, R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  if (gl_SubgroupID == 0u) { data[gl_LocalInvocationID.x] = 1u; barrier(); }
})",
     "vulkan1.1"},
    {"SampleAfterDiscardInHelperUnderVaryingBranch", "frag", false, true, R"(
void clip_below(float x) { if (x < 0.5) discard; }
void main() {
  clip_below(uv.x);
  color = texture(tex, uv);
})"},
    {"SampleAfterUniformDiscardInHelper", "frag", true, false, R"(
void clip_below(float x) { if (x < 0.5) discard; }
void main() {
  clip_below(level);
  color = texture(tex, uv);
})"},
};

class UniformityCoarseProof : public ::testing::TestWithParam<ProofCase> {};

TEST_P(UniformityCoarseProof, ProvesOnlyWhereTheAnalysisFindsNothing) {
  const ProofCase& c = GetParam();
  // A case that starts with #version brings its own declarations.
  std::string source =
      std::string(c.source).rfind("#version", 0) == 0
          ? std::string(c.source)
          : std::string(std::string(c.stage) == "comp" ? kCompHead : kFragHead) + c.source;
  std::vector<uint32_t> words = test::CompileGlsl(source, c.stage, c.env);
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  AnalysisContext analyses(*module);
  CoarseProofResult proof = ProveNothingToReport(InputsFrom(*module, analyses));
  EXPECT_EQ(proof.proven, c.proven);
  EXPECT_GE(proof.rounds, 1u);

  UniformityOptions every_fact;
  every_fact.every_fact = true;
  UniformityResult full = AnalyzeUniformity(*module, every_fact);
  EXPECT_TRUE(full.refusal.empty()) << full.refusal;
  EXPECT_EQ(!full.findings.empty(), c.has_finding);
  // What the pipeline gets (proven where the proof holds) is the full analysis's.
  UniformityResult pipeline = AnalyzeUniformity(*module);
  EXPECT_EQ(pipeline.findings.size(), full.findings.size());
  EXPECT_EQ(pipeline.refusal, full.refusal);
}

INSTANTIATE_TEST_SUITE_P(Shapes, UniformityCoarseProof, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<ProofCase>& info) {
                           return std::string(info.param.name);
                         });

// A compute shader of kCompHead with a barrier in a loop bounded by the uniform `m`
// (kUniformLoop) or the writable buffer's `n` (kBufferLoop).
const char* const kUniformLoop = "void main() { for (uint i = 0u; i < m; ++i) barrier(); }";
const char* const kBufferLoop = "void main() { for (uint i = 0u; i < n; ++i) barrier(); }";

std::optional<Module> CompileCompute(const char* body) {
  std::string error;
  std::optional<Module> module =
      ParseModule(test::CompileGlsl(std::string(kCompHead) + body, "comp"), &error);
  EXPECT_TRUE(module) << error;
  return module;
}

// Where the proof holds, the analysis's inputs (def-use, value flow) are not built;
// where it does not, they are. The earlier screen does not pass either module (both
// barriers are in loops).
TEST(UniformityCoarseProof, SkipsTheAnalysisInputsOnlyWhenItProves) {
  std::optional<Module> uniform = CompileCompute(kUniformLoop);
  ASSERT_TRUE(uniform);
  AnalysisContext uniform_analyses(*uniform);
  EXPECT_TRUE(uniform_analyses.GetUniformity().findings.empty());
  EXPECT_EQ(uniform_analyses.builds().coarse_uniformity_proofs, 1u);
  EXPECT_EQ(uniform_analyses.builds().def_use, 0u);
  EXPECT_EQ(uniform_analyses.builds().value_flow, 0u);

  std::optional<Module> varying = CompileCompute(kBufferLoop);
  ASSERT_TRUE(varying);
  AnalysisContext varying_analyses(*varying);
  EXPECT_EQ(varying_analyses.GetUniformity().findings.size(), 1u);
  EXPECT_EQ(varying_analyses.builds().coarse_uniformity_proofs, 1u);
  EXPECT_EQ(varying_analyses.builds().def_use, 1u);
}

// Every fact asked for (tests, the corpus suite) still runs the analysis.
TEST(UniformityCoarseProof, NotTriedWhenEveryFactIsAsked) {
  std::optional<Module> module = CompileCompute(kUniformLoop);
  ASSERT_TRUE(module);
  AnalysisContext analyses(*module);
  UniformityOptions every_fact;
  every_fact.every_fact = true;
  EXPECT_TRUE(analyses.GetUniformity(every_fact).findings.empty());
  EXPECT_EQ(analyses.builds().coarse_uniformity_proofs, 0u);
  EXPECT_EQ(analyses.builds().def_use, 1u);
}

// Several entry points: each is proven with its own execution model and functions; one
// that cannot be proven sends the module to the analysis.
TEST(UniformityCoarseProof, EveryEntryPointMustBeProven) {
  const char* const kTwoEntryPoints = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %uniform_main "uniform_main" %wg
               OpEntryPoint GLCompute %varying_main "varying_main" %lid
               OpExecutionMode %uniform_main LocalSize 8 1 1
               OpExecutionMode %varying_main LocalSize 8 1 1
               OpDecorate %wg BuiltIn WorkgroupId
               OpDecorate %lid BuiltIn LocalInvocationId
       %void = OpTypeVoid
     %fn_void = OpTypeFunction %void
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
     %v3uint = OpTypeVector %uint 3
 %ptr_in_v3 = OpTypePointer Input %v3uint
         %wg = OpVariable %ptr_in_v3 Input
        %lid = OpVariable %ptr_in_v3 Input
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
   %uint_264 = OpConstant %uint 264
%uniform_main = OpFunction %void None %fn_void
         %u0 = OpLabel
         %u1 = OpLoad %v3uint %wg
         %u2 = OpCompositeExtract %uint %u1 0
         %u3 = OpULessThan %bool %u2 %uint_3
               OpSelectionMerge %u5 None
               OpBranchConditional %u3 %u4 %u5
         %u4 = OpLabel
               OpControlBarrier %uint_2 %uint_2 %uint_264
               OpBranch %u5
         %u5 = OpLabel
               OpReturn
               OpFunctionEnd
%varying_main = OpFunction %void None %fn_void
         %v0 = OpLabel
         %v1 = OpLoad %v3uint %lid
         %v2 = OpCompositeExtract %uint %v1 0
         %v3 = OpULessThan %bool %v2 %uint_3
               OpSelectionMerge %v5 None
               OpBranchConditional %v3 %v4 %v5
         %v4 = OpLabel
               OpControlBarrier %uint_2 %uint_2 %uint_264
               OpBranch %v5
         %v5 = OpLabel
               OpReturn
               OpFunctionEnd
)";
  std::optional<Module> module = test::AssembleModule(kTwoEntryPoints);
  ASSERT_TRUE(module);
  AnalysisContext analyses(*module);
  EXPECT_FALSE(ProveNothingToReport(InputsFrom(*module, analyses)).proven);
  UniformityResult result = AnalyzeUniformity(*module);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].entry_point, "varying_main");
}

// The proof reads operands through the typed views, by position: a module where an
// instruction it reads lacks one is left to the analysis (which refuses it by name), with
// no exception on the way, in code or at module scope. (A decoration that lacks its
// operands stops the built-in index before the proof is asked: hostile input's, not
// the proof's.)
TEST(UniformityCoarseProof, LeavesAnInstructionLackingAnOperandToTheAnalysis) {
  auto first_of = [](InstructionList& list, spv::Op opcode) -> Instruction* {
    for (Instruction& inst : list)
      if (inst.opcode == opcode) return &inst;
    return nullptr;
  };
  for (const char* where : {"load", "store", "member decoration", "variable"}) {
    std::optional<Module> module = CompileCompute(kUniformLoop);
    ASSERT_TRUE(module);
    {
      AnalysisContext analyses(*module);
      ASSERT_TRUE(ProveNothingToReport(InputsFrom(*module, analyses)).proven) << where;
    }
    InstructionList& code = module->functions.front().blocks.front().instructions;
    Instruction* cut = std::string(where) == "load"    ? first_of(code, spv::OpLoad)
                       : std::string(where) == "store" ? first_of(code, spv::OpStore)
                       : std::string(where) == "member decoration"
                           ? first_of(module->annotations, spv::OpMemberDecorate)
                           : first_of(module->types_values, spv::OpVariable);
    if (!cut) {  // the first block may hold no load: any block's
      for (Block& block : module->functions.front().blocks)
        if (!cut)
          cut = first_of(block.instructions,
                         std::string(where) == "load" ? spv::OpLoad : spv::OpStore);
    }
    ASSERT_NE(cut, nullptr) << where;
    cut->words.resize(std::string(where) == "member decoration" ? 2 : 0);
    AnalysisContext analyses(*module);
    CoarseProofResult proof;
    EXPECT_NO_THROW(proof = ProveNothingToReport(InputsFrom(*module, analyses))) << where;
    EXPECT_FALSE(proof.proven) << where;
  }
}

// A budget too small for the fixed point gives up (the analysis then decides).
TEST(UniformityCoarseProof, GivesUpPastItsRoundBudget) {
  std::optional<Module> module = CompileCompute(kUniformLoop);
  ASSERT_TRUE(module);
  AnalysisContext analyses(*module);
  CoarseProofInputs inputs = InputsFrom(*module, analyses);
  CoarseProofResult enough = ProveNothingToReport(inputs);
  ASSERT_TRUE(enough.proven);
  inputs.round_budget = enough.rounds - 1;
  CoarseProofResult short_of_it = ProveNothingToReport(inputs);
  EXPECT_FALSE(short_of_it.proven);
  EXPECT_EQ(short_of_it.rounds, inputs.round_budget);
}

// A round that raised only levels nothing had read yet in it is the last: a kernel
// without loops is proven in one round. Where a loop carries a value round its back
// edge, the raise of a level read earlier in the round (the phi read the value before
// the loop body made it divergent) asks for another round, which sees the barrier in
// divergent control: the near miss that a round stopping on "nothing new read" would
// wrongly prove.
TEST(UniformityCoarseProof, StopsOnceEveryReadSawItsFinalLevel) {
  std::optional<Module> straight = CompileCompute(
      "void main() { uint v = m * 2u; tile[gl_LocalInvocationID.x] = v; barrier(); }");
  ASSERT_TRUE(straight);
  AnalysisContext straight_analyses(*straight);
  CoarseProofResult one_round = ProveNothingToReport(InputsFrom(*straight, straight_analyses));
  EXPECT_TRUE(one_round.proven);
  EXPECT_EQ(one_round.rounds, 1u);

  std::optional<Module> carried = CompileCompute(R"(void main() {
  uint j = 0u;
  for (uint i = 0u; i < m; ++i) {
    if (j == 0u) barrier();
    j = gl_LocalInvocationID.x;
  }
})");
  ASSERT_TRUE(carried);
  AnalysisContext carried_analyses(*carried);
  CoarseProofResult back_edge = ProveNothingToReport(InputsFrom(*carried, carried_analyses));
  EXPECT_FALSE(back_edge.proven);
  EXPECT_GE(back_edge.rounds, 2u);
  UniformityOptions every_fact;
  every_fact.every_fact = true;
  EXPECT_FALSE(AnalyzeUniformity(*carried, every_fact).findings.empty())
      << "the analysis reports the barrier the coarse proof leaves to it";
}

// A value that reaches the barrier's condition one copy per round needs more rounds
// than a byte counts: the rounds' read stamps start again and the proof still sees it.
TEST(UniformityCoarseProof, CountsMoreRoundsThanAByteHolds) {
  constexpr int kCopies = 300;
  std::string body = "void main() {\n";
  for (int v = 0; v <= kCopies; ++v) body += "  uint v" + std::to_string(v) + " = 0u;\n";
  body += "  for (uint i = 0u; i < m; ++i) {\n    if (v" + std::to_string(kCopies) +
          " == 0u) barrier();\n";
  for (int v = kCopies; v > 0; --v)
    body += "    v" + std::to_string(v) + " = v" + std::to_string(v - 1) + ";\n";
  body += "    v0 = gl_LocalInvocationID.x;\n  }\n}\n";
  std::optional<Module> chained = CompileCompute(body.c_str());
  ASSERT_TRUE(chained);
  AnalysisContext analyses(*chained);
  CoarseProofInputs inputs = InputsFrom(*chained, analyses);
  inputs.round_budget = 1000;
  CoarseProofResult proof = ProveNothingToReport(inputs);
  EXPECT_FALSE(proof.proven);
  EXPECT_GT(proof.rounds, uint32_t(kCopies));
  EXPECT_LT(proof.rounds, inputs.round_budget) << "it ends by the barrier, not the budget";
}

// The tables are sized by the ids the module defines: a header that claims the largest
// bound a word holds, which tables by bound could not even be allocated for, changes
// nothing.
TEST(UniformityCoarseProof, SizedByDefinedIdsNotTheHeaderBound) {
  for (const char* body : {kUniformLoop, kBufferLoop}) {
    std::optional<Module> module = CompileCompute(body);
    ASSERT_TRUE(module);
    AnalysisContext analyses(*module);
    CoarseProofInputs inputs = InputsFrom(*module, analyses);
    const bool proven = ProveNothingToReport(inputs).proven;
    module->header.bound = 0xffffffffu;
    EXPECT_EQ(ProveNothingToReport(inputs).proven, proven) << body;
  }
}

}  // namespace
}  // namespace glint::spirv
