// Tests of the uniformity analysis (SPIRV/analysis/uniformity/uniformity.h) and the
// uniformity-check pass: each uniform-control class in non-uniform control flow is
// reported with its location and chain of reasons; uniform branches, loops with
// uniform trip counts and code after reconvergence are not; severities; the output
// never changes; the round budget refuses by name.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>

#include "SPIRV/analysis/convergence/convergence_classes.h"
#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/outside_lines.h"
#include "SPIRV/ir/parser.h"
#include "glslang/front_end/compile_driver.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// The source is named "u.<stage>" so that findings read "u.<stage>:<line>".
frontend::SourceCompile Source(const std::string& source, const std::string& stage,
                               const std::string& env = "vulkan1.0") {
  frontend::SourceCompile request(source, stage, env);
  request.name = "u." + stage;
  return request;
}

// Parses and links `source` for glint::GlslangToSpv (no debug information asked for).
std::unique_ptr<frontend::Compilation> ParseGlsl(const std::string& source,
                                                 const std::string& stage) {
  std::string error;
  std::unique_ptr<frontend::Compilation> compilation =
      frontend::CompileSource(Source(source, stage), &error);
  EXPECT_TRUE(compilation) << error << source;
  return compilation;
}

// Like test::CompileGlsl, with OpLine debug info (glslangValidator -g) so that findings
// have locations. Vulkan 1.0 / SPIR-V 1.0, or Vulkan 1.1 / SPIR-V 1.3.
std::vector<uint32_t> CompileWithLines(const std::string& source, const std::string& stage,
                                       bool vulkan11 = false, const std::string& env = "") {
  frontend::SourceCompile request = Source(source, stage,
                                           !env.empty() ? env
                                           : vulkan11   ? "vulkan1.1"
                                                        : "vulkan1.0");
  request.debug_info = true;
  std::vector<uint32_t> words;
  std::string error;
  EXPECT_TRUE(frontend::CompileSourceToSpirv(request, &words, &error)) << error << source;
  return words;
}

struct Outcome {
  std::vector<std::string> warnings;  // FormatDiagnostic text, one per finding
  std::string refusal;
  std::string All() const {
    std::string all;
    for (const std::string& warning : warnings) all += warning + "\n";
    return all;
  }
};

Outcome Analyze(const std::vector<uint32_t>& words, const UniformityOptions& options = {}) {
  Outcome outcome;
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  if (!module) {
    ADD_FAILURE() << error;
    return outcome;
  }
  UniformityResult result = AnalyzeUniformity(*module, options);
  outcome.refusal = result.refusal;
  for (const Diagnostic& diagnostic : UniformityDiagnostics(result, Severity::kWarning))
    outcome.warnings.push_back(FormatDiagnostic(diagnostic));
  EXPECT_EQ(module->Encode(), words) << "the analysis must not change the module";
  return outcome;
}

Outcome AnalyzeGlsl(const std::string& source, const std::string& stage, bool vulkan11 = false) {
  return Analyze(CompileWithLines(source, stage, vulkan11));
}

const char* kFragmentHeader = R"(#version 450
#extension GL_ARB_sparse_texture2 : enable
vec4 sparseTexel;
layout(location = 0) in vec2 uv;
layout(location = 1) flat in int flatIndex;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) uniform sampler2DShadow shadowTex;
layout(binding = 2) uniform Params { float threshold; int count; };
layout(push_constant) uniform Push { float pushed; };
)";

// --- Each uniform-control class in a branch on an interpolated input. ---

struct OpcodeCase {
  const char* name;
  const char* expression;  // a float
  const char* opcode;      // in the warning; "" when no warning is expected
};

// Failure messages name the case, not its bytes.
void PrintTo(const OpcodeCase& c, std::ostream* out) { *out << c.name; }

class UniformityOpcode : public ::testing::TestWithParam<OpcodeCase> {};

// GLSL (line 10 holds the expression):
//   if (uv.x > 0.5) {
//     color.x = <expression>;
//   }
TEST_P(UniformityOpcode, UnderDivergentBranch) {
  std::string source = std::string(kFragmentHeader) +
                       "void main() {\n"
                       "  if (uv.x > 0.5) {\n"
                       "    color.x = " +
                       GetParam().expression +
                       ";\n"
                       "  }\n"
                       "}\n";
  Outcome outcome = AnalyzeGlsl(source, "frag");
  EXPECT_EQ(outcome.refusal, "");
  if (std::string(GetParam().opcode).empty()) {
    EXPECT_TRUE(outcome.warnings.empty()) << outcome.All();
    return;
  }
  ASSERT_EQ(outcome.warnings.size(), 1u) << outcome.All();
  EXPECT_TRUE(test::FileCheck(outcome.warnings[0],
                              std::string("CHECK: WARNING: u.frag:13: ") + GetParam().opcode +
                                  "\nCHECK: only some invocations take the branch at u.frag:12"
                                  "\nCHECK: fragment input `uv` is interpolated (not flat)"));
}

INSTANTIATE_TEST_SUITE_P(
    Classes, UniformityOpcode,
    ::testing::Values(OpcodeCase{"DPdx", "dFdx(uv.y)", "derivative (OpDPdx)"},
                      OpcodeCase{"DPdy", "dFdy(uv.y)", "derivative (OpDPdy)"},
                      OpcodeCase{"Fwidth", "fwidth(uv.y)", "derivative (OpFwidth)"},
                      OpcodeCase{"DPdxFine", "dFdxFine(uv.y)", "derivative (OpDPdxFine)"},
                      OpcodeCase{"DPdyCoarse", "dFdyCoarse(uv.y)", "derivative (OpDPdyCoarse)"},
                      OpcodeCase{"FwidthFine", "fwidthFine(uv.y)", "derivative (OpFwidthFine)"},
                      OpcodeCase{"Sample", "texture(tex, uv).x",
                                 "implicit-LOD texture sample (OpImageSampleImplicitLod)"},
                      OpcodeCase{"SampleBias", "texture(tex, uv, 1.0).x",
                                 "implicit-LOD texture sample (OpImageSampleImplicitLod)"},
                      OpcodeCase{"SampleProj", "textureProj(tex, vec3(uv, 1.0)).x",
                                 "implicit-LOD texture sample (OpImageSampleProjImplicitLod)"},
                      OpcodeCase{"SampleDref", "texture(shadowTex, vec3(uv, 0.5))",
                                 "implicit-LOD texture sample (OpImageSampleDrefImplicitLod)"},
                      OpcodeCase{"SampleProjDref", "textureProj(shadowTex, vec4(uv, 0.5, 1.0))",
                                 "implicit-LOD texture sample (OpImageSampleProjDrefImplicitLod)"},
                      OpcodeCase{"QueryLod", "textureQueryLod(tex, uv).x",
                                 "implicit-LOD texture sample (OpImageQueryLod)"},
                      OpcodeCase{"SparseSample", "float(sparseTextureARB(tex, uv, sparseTexel))",
                                 "implicit-LOD texture sample (OpImageSparseSampleImplicitLod)"},
                      // Explicit levels of detail and fetches take no derivatives.
                      OpcodeCase{"SampleLod_NoWarning", "textureLod(tex, uv, 0.0).x", ""},
                      OpcodeCase{"SampleGrad_NoWarning",
                                 "textureGrad(tex, uv, vec2(0.1), vec2(0.1)).x", ""},
                      OpcodeCase{"Fetch_NoWarning", "texelFetch(tex, ivec2(uv), 0).x", ""},
                      OpcodeCase{"Arithmetic_NoWarning", "sin(uv.y)", ""}),
    [](const auto& info) { return std::string(info.param.name); });

// --- Branch conditions: which are uniform enough for derivatives. ---

struct ConditionCase {
  const char* name;
  const char* condition;
  bool warns;
};

// Failure messages name the case, not its bytes.
void PrintTo(const ConditionCase& c, std::ostream* out) { *out << c.name; }

class UniformityFragmentCondition : public ::testing::TestWithParam<ConditionCase> {};

TEST_P(UniformityFragmentCondition, DerivativeUnderIf) {
  std::string source = std::string(kFragmentHeader) +
                       "#extension GL_KHR_shader_subgroup_vote : require\n"
                       "#extension GL_KHR_shader_subgroup_ballot : require\n"
                       "void main() {\n"
                       "  float t = uv.x;\n"
                       "  if (" +
                       GetParam().condition +
                       ") {\n"
                       "    color = texture(tex, uv);\n"
                       "  }\n"
                       "}\n";
  Outcome outcome = AnalyzeGlsl(source, "frag", /*vulkan11=*/true);
  EXPECT_EQ(outcome.refusal, "");
  EXPECT_EQ(outcome.warnings.size(), GetParam().warns ? 1u : 0u) << outcome.All();
}

INSTANTIATE_TEST_SUITE_P(
    Conditions, UniformityFragmentCondition,
    ::testing::Values(ConditionCase{"InterpolatedInput", "uv.y > 0.5", true},
                      ConditionCase{"LocalCopyOfInput", "t > 0.5", true},
                      ConditionCase{"FragCoord", "gl_FragCoord.x > 10.0", true},
                      ConditionCase{"HelperInvocation", "!gl_HelperInvocation", true},
                      ConditionCase{"SubgroupInvocationId", "gl_SubgroupInvocationID == 0u", true},
                      ConditionCase{"UniformBuffer", "threshold > 0.5", false},
                      ConditionCase{"PushConstant", "pushed > 0.5", false},
                      ConditionCase{"Constant", "2 > 1", false},
                      // Flat inputs and FrontFacing are the same for the whole quad.
                      ConditionCase{"FlatInput", "flatIndex > 2", false},
                      ConditionCase{"FrontFacing", "gl_FrontFacing", false},
                      // Subgroup votes and broadcasts are the same for the subgroup.
                      ConditionCase{"SubgroupAny", "subgroupAny(uv.x > 0.5)", false},
                      ConditionCase{"BroadcastFirst", "subgroupBroadcastFirst(uv.x) > 0.5", false}),
    [](const auto& info) { return std::string(info.param.name); });

// --- Compute barriers. ---

const char* kComputeHeader = R"(#version 440
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(std430, binding = 1) readonly buffer Sizes { uint size; };
layout(binding = 2) uniform Params { uint count; };
shared uint scratch[64];
)";

class UniformityComputeCondition : public ::testing::TestWithParam<ConditionCase> {};

TEST_P(UniformityComputeCondition, BarrierUnderIf) {
  std::string source = std::string(kComputeHeader) +
                       "void main() {\n"
                       "  if (" +
                       GetParam().condition +
                       ") {\n"
                       "    barrier();\n"
                       "  }\n"
                       "}\n";
  Outcome outcome = AnalyzeGlsl(source, "comp", /*vulkan11=*/true);
  EXPECT_EQ(outcome.refusal, "");
  ASSERT_EQ(outcome.warnings.size(), GetParam().warns ? 1u : 0u) << outcome.All();
  if (GetParam().warns) {
    EXPECT_TRUE(test::FileCheck(outcome.warnings[0],
                                "CHECK: WARNING: u.comp:10: barrier (OpControlBarrier, "
                                "workgroup scope) in non-uniform control flow"));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Conditions, UniformityComputeCondition,
    ::testing::Values(ConditionCase{"LocalInvocationId", "gl_LocalInvocationID.x < 32u", true},
                      ConditionCase{"GlobalInvocationId", "gl_GlobalInvocationID.x < 32u", true},
                      ConditionCase{"WritableBuffer", "data[0] > 3u", true},
                      ConditionCase{"SharedMemory", "scratch[0] > 3u", true},
                      ConditionCase{"Atomic", "atomicAdd(data[0], 1u) == 0u", true},
                      // Uniform per subgroup is not uniform per workgroup.
                      ConditionCase{"SubgroupVote", "subgroupAny(gl_LocalInvocationID.x < 3u)",
                                    true},
                      ConditionCase{"SubgroupId", "gl_SubgroupID == 0u", true},
                      ConditionCase{"WorkGroupId", "gl_WorkGroupID.x == 0u", false},
                      ConditionCase{"NumWorkGroups", "gl_NumWorkGroups.x > 2u", false},
                      ConditionCase{"UniformBuffer", "count > 2u", false},
                      ConditionCase{"ReadonlyBuffer", "size > 2u", false}),
    [](const auto& info) { return std::string(info.param.name); });

// GLSL cannot put a tessellation control barrier() under flow control (glslang refuses),
// so this is SPIR-V from another front end:
//   if (<built-in> == 0) barrier();
std::string TessellationControl(const std::string& builtin) {
  return R"(OpCapability Tessellation
OpMemoryModel Logical GLSL450
OpEntryPoint TessellationControl %main "main" %input
OpExecutionMode %main OutputVertices 4
OpName %main "main"
OpDecorate %input BuiltIn )" +
         builtin + R"(
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%ptr = OpTypePointer Input %int
%input = OpVariable %ptr Input
%zero = OpConstant %int 0
%workgroup = OpConstant %uint 2
%semantics = OpConstant %uint 0
%main = OpFunction %void None %fn
%entry = OpLabel
%value = OpLoad %int %input
%first = OpIEqual %bool %value %zero
OpSelectionMerge %merge None
OpBranchConditional %first %then %merge
%then = OpLabel
OpControlBarrier %workgroup %workgroup %semantics
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)";
}

TEST(Uniformity, TessellationControlBarrier_InvocationId) {
  std::vector<uint32_t> words = test::Assemble(TessellationControl("InvocationId"));
  ASSERT_EQ(test::ValidateFor(words, TargetEnv::kUniversal), "");
  Outcome outcome = Analyze(words);
  ASSERT_EQ(outcome.warnings.size(), 1u) << outcome.All();
  EXPECT_TRUE(test::FileCheck(outcome.warnings[0],
                              "CHECK: barrier (OpControlBarrier, workgroup scope)"
                              "\nCHECK: built-in InvocationId differs between invocations"));
}

// gl_PrimitiveID is the same for the whole patch, which is one tessellation workgroup.
TEST(Uniformity, TessellationControlBarrier_PrimitiveId_NoWarning) {
  Outcome outcome = Analyze(test::Assemble(TessellationControl("PrimitiveId")));
  EXPECT_TRUE(outcome.warnings.empty()) << outcome.All();
}

// SPIR-V 1.0 group operations need every invocation of their scope, like barriers.
TEST(Uniformity, GroupOperationUnderDivergentBranch) {
  std::vector<uint32_t> words = test::Assemble(R"(OpCapability Shader
OpCapability Groups
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %id
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %id BuiltIn LocalInvocationIndex
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%ptr = OpTypePointer Input %uint
%id = OpVariable %ptr Input
%zero = OpConstant %uint 0
%workgroup = OpConstant %uint 2
%main = OpFunction %void None %fn
%entry = OpLabel
%index = OpLoad %uint %id
%first = OpIEqual %bool %index %zero
OpSelectionMerge %merge None
OpBranchConditional %first %then %merge
%then = OpLabel
%sum = OpGroupIAdd %uint %workgroup Reduce %index
OpBranch %merge
%merge = OpLabel
%total = OpGroupIAdd %uint %workgroup Reduce %index
OpReturn
OpFunctionEnd
)");
  Outcome outcome = Analyze(words);
  ASSERT_EQ(outcome.warnings.size(), 1u) << outcome.All();
  EXPECT_TRUE(test::FileCheck(
      outcome.warnings[0],
      "CHECK: group operation (OpGroupIAdd) must be executed in uniform control flow"
      "\nCHECK: built-in LocalInvocationIndex"));
}

// Compute shaders have derivatives only with a derivative group (NV_compute_shader_derivatives).
TEST(Uniformity, ComputeDerivativeGroup) {
  const char* source = R"(#version 450
#extension GL_NV_compute_shader_derivatives : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(derivative_group_quadsNV) in;
layout(std430, binding = 0) buffer Data { float data[]; };
void main() {
  float x = data[gl_LocalInvocationIndex];
  if (x > 0.5) data[0] = dFdx(x);
}
)";
  Outcome outcome = AnalyzeGlsl(source, "comp");
  ASSERT_EQ(outcome.warnings.size(), 1u) << outcome.All();
  EXPECT_TRUE(test::FileCheck(outcome.warnings[0], "CHECK: u.comp:8: derivative (OpDPdx)"));
}

// [[subgroup_uniform_control_flow]]: glslang 12 emits the SubgroupUniformControlFlowKHR
// execution mode; it does not make a workgroup barrier in divergent control flow valid.
TEST(Uniformity, SubgroupUniformControlFlowAttribute_KeepsMeaning) {
  const char* source = R"(#version 440
#extension GL_EXT_subgroup_uniform_control_flow : require
layout(local_size_x = 64) in;
void main() [[subgroup_uniform_control_flow]] {
  if (gl_LocalInvocationID.x < 3u) barrier();
}
)";
  std::vector<uint32_t> words = CompileWithLines(source, "comp");
  EXPECT_TRUE(test::FileCheck(test::Disassemble(words),
                              "CHECK: OpExecutionMode %main SubgroupUniformControlFlowKHR"));
  Outcome outcome = Analyze(words);
  EXPECT_EQ(outcome.warnings.size(), 1u) << outcome.All();
  // Through the whole pipeline: the mode survives, the output validates.
  glint::Options options;
  glint::Report report;
  std::vector<uint32_t> output = words;
  ASSERT_TRUE(Process(output, options, &report));
  EXPECT_EQ(output, words) << "warnings never change the output";
  EXPECT_EQ(test::ValidateFor(output, TargetEnv::kVulkan10), "");
  ASSERT_EQ(report.diagnostics.size(), 1u);
  EXPECT_EQ(report.diagnostics[0].severity, glint::Severity::kWarning);
}

// glint::GlslangToSpv without debug info: the output is glslang's, and the report is
// located from a second module with OpLine (reasons included).
TEST(UniformityCheck, LocatedWithoutDebugInfo) {
  const char* source = R"(#version 440
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
  color = vec4(0.0);
  float t = uv.x;
  if (t > 0.5) {
    color.x = dFdx(uv.y);
  }
}
)";
  std::unique_ptr<frontend::Compilation> program = ParseGlsl(source, "frag");
  ASSERT_TRUE(program);
  std::vector<uint32_t> words;
  glint::Options options;
  glint::Report report;
  ASSERT_TRUE(
      GlslangToSpv(*program->Intermediate(EShLangFragment), words, nullptr, options, &report));
  EXPECT_TRUE(test::FileCheck(test::Disassemble(words), "CHECK-NOT: OpLine\nCHECK: OpDPdx"));
  ASSERT_EQ(report.diagnostics.size(), 1u);
  EXPECT_TRUE(test::FileCheck(FormatDiagnostic(report.diagnostics[0]),
                              "CHECK: :8: derivative (OpDPdx)"
                              "\nCHECK-NEXT: only some invocations take the branch at u.frag:7: "
                              "its condition is non-uniform"
                              "\nCHECK-NEXT: `t` is loaded at u.frag:7"
                              "\nCHECK-NEXT: it is assigned a non-uniform value at u.frag:6"));
  // --uniformity=error: compilation fails, and the error names its line as well.
  options.uniformity = glint::Severity::kError;
  glint::Report failed;
  std::vector<uint32_t> unchanged = {1, 2, 3};
  EXPECT_FALSE(
      GlslangToSpv(*program->Intermediate(EShLangFragment), unchanged, nullptr, options, &failed));
  EXPECT_EQ(unchanged, (std::vector<uint32_t>{1, 2, 3}));
  ASSERT_GE(failed.diagnostics.size(), 1u);
  EXPECT_TRUE(test::FileCheck(
      FormatDiagnostic(failed.diagnostics[0]),
      "CHECK: ERROR: u.frag:8: derivative (OpDPdx)\nCHECK-NEXT: branch at u.frag:7"));
}

// --- Severity through glint::Process. ---

const char* kDivergentBarrier = R"(#version 440
layout(local_size_x = 64) in;
void main() {
  if (gl_LocalInvocationID.x < 3u) barrier();
}
)";

TEST(UniformityCheck, Severity_Warning_OutputUnchanged) {
  std::vector<uint32_t> words = test::CompileGlsl(kDivergentBarrier, "comp");
  std::vector<uint32_t> output = words;
  glint::Options options;
  options.uniformity = glint::Severity::kWarning;
  glint::Report report;
  ASSERT_TRUE(Process(output, options, &report));
  EXPECT_EQ(output, words);
  ASSERT_EQ(report.diagnostics.size(), 1u);
  EXPECT_EQ(report.diagnostics[0].origin, "uniformity");
  // Without line info the message still says where: the function.
  EXPECT_TRUE(test::FileCheck(FormatDiagnostic(report.diagnostics[0]),
                              "CHECK: WARNING: barrier (OpControlBarrier, workgroup scope)"
                              "\nCHECK: the branch in `main` (no line information)"));
}

TEST(UniformityCheck, Severity_Error_FailsCompilation) {
  std::vector<uint32_t> words = test::CompileGlsl(kDivergentBarrier, "comp");
  std::vector<uint32_t> output = words;
  glint::Options options;
  options.uniformity = glint::Severity::kError;
  glint::Report report;
  EXPECT_FALSE(Process(output, options, &report));
  EXPECT_EQ(output, words);
  EXPECT_TRUE(report.HasErrors());
  bool uniformity_error = false;
  for (const glint::Diagnostic& d : report.diagnostics)
    uniformity_error |= d.origin == "uniformity" && d.severity == glint::Severity::kError;
  EXPECT_TRUE(uniformity_error);
}

TEST(UniformityCheck, Severity_Off_Silent) {
  std::vector<uint32_t> words = test::CompileGlsl(kDivergentBarrier, "comp");
  glint::Options options;
  options.uniformity = glint::Severity::kOff;
  glint::Report report;
  ASSERT_TRUE(Process(words, options, &report));
  EXPECT_TRUE(report.diagnostics.empty());
}

TEST(UniformityCheck, Severity_Error_CleanShaderCompiles) {
  std::vector<uint32_t> words = test::CompileGlsl(R"(#version 440
layout(local_size_x = 64) in;
void main() { if (gl_WorkGroupID.x == 0u) barrier(); }
)",
                                                  "comp");
  glint::Options options;
  options.uniformity = glint::Severity::kError;
  glint::Report report;
  EXPECT_TRUE(Process(words, options, &report));
  EXPECT_TRUE(report.diagnostics.empty());
}

TEST(Uniformity, RoundBudget_RefusesByName) {
  std::vector<uint32_t> words = test::CompileGlsl(kDivergentBarrier, "comp");
  UniformityOptions options;
  options.round_budget = 1;
  Outcome outcome = Analyze(words, options);
  EXPECT_NE(outcome.refusal.find("round budget (1 rounds)"), std::string::npos) << outcome.refusal;
  // A refusal claims no findings; it is one note.
  ASSERT_EQ(outcome.warnings.size(), 1u) << outcome.All();
  EXPECT_EQ(outcome.warnings[0].rfind("NOTE: uniformity analysis of entry point `main`", 0), 0u)
      << outcome.warnings[0];
  options.round_budget = 64;
  EXPECT_EQ(Analyze(words, options).warnings.size(), 1u);
}

// The analysis reads operands through the typed views, by position (the parser checks
// word counts, not operand lists): an instruction that lacks one is a refusal naming it,
// found before anything is solved - not a crash, not an exception caught on the way, and
// not a silent "no warning".
TEST(Uniformity, InstructionLackingAnOperand_Refuses) {
  std::string error;
  std::optional<Module> module = ParseModule(test::CompileGlsl(kDivergentBarrier, "comp"), &error);
  ASSERT_TRUE(module) << error;
  Instruction* load = nullptr;
  for (Block& block : module->functions.front().blocks)
    for (Instruction& inst : block.instructions)
      if (inst.opcode == spv::OpLoad && !load) load = &inst;
  ASSERT_NE(load, nullptr);
  load->words.clear();
  {
    DefUse def_use(*module);
    std::string why;
    EXPECT_EQ(def_use.FirstMalformed(&why), load);
    EXPECT_EQ(why, "missing operand IdRef");
  }
  UniformityResult result = AnalyzeUniformity(*module);
  EXPECT_NE(result.refusal.find("an instruction lacks an operand (OpLoad %" +
                                std::to_string(load->result_id) + ": missing operand IdRef)"),
            std::string::npos)
      << result.refusal;
  EXPECT_TRUE(result.findings.empty());
  // A module whose every instruction fits the grammar has none.
  std::optional<Module> whole = ParseModule(test::CompileGlsl(kDivergentBarrier, "comp"), &error);
  ASSERT_TRUE(whole) << error;
  EXPECT_EQ(DefUse(*whole).FirstMalformed(), nullptr);
}

// --- Barrier phases: shared values read by every invocation after a barrier. ---

const char* kSharedHeader = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(std430, binding = 1) readonly buffer Sizes { uint size; };
shared uint count;
shared uint vs[64];
)";

// Compiles kSharedHeader + `body` (line 7 onwards) and analyses it.
Outcome AnalyzeShared(const std::string& body) {
  return AnalyzeGlsl(std::string(kSharedHeader) + body, "comp");
}

// Only a barrier whose execution scope is the workgroup starts a phase: a subgroup-scope
// control barrier (even with workgroup memory scope and shared-memory semantics) does not
// wait for the writer's subgroup.
TEST(UniformityPhases, SubgroupScopeBarrier_IsNotAPhase) {
  Outcome outcome = AnalyzeGlsl(
      "#version 440\n"
      "#extension GL_KHR_memory_scope_semantics : require\n"
      "layout(local_size_x = 64) in;\n"
      "layout(std430, binding = 1) readonly buffer Sizes { uint size; };\n"
      "shared uint count;\n"
      "void main() {\n"
      "  if (gl_LocalInvocationIndex == 0u) count = 1u;\n"
      "  controlBarrier(gl_ScopeSubgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, "
      "gl_SemanticsAcquireRelease);\n"
      "  if (count == size) { barrier(); }\n"
      "}\n",
      "comp", /*vulkan11=*/true);
  ASSERT_EQ(outcome.warnings.size(), 1u) << outcome.All();
  EXPECT_NE(outcome.All().find("no workgroup barrier comes before its load at u.comp:9"),
            std::string::npos)
      << outcome.All();
}

// Reasons about shared loads name where the load, its barrier and the write after it
// are. They are put into words when a finding is explained, never while the solver
// runs: a compile with nothing to report asks no line (for a module generated without
// lines, asking costs glslang a second code generation).
class CountedLines : public OutsideLinesSource {
 public:
  int made = 0;

 protected:
  std::optional<OutsideLines> Make() override {
    ++made;
    return std::nullopt;
  }
};

TEST(UniformityPhases, NothingToReport_NoLineAsked) {
  // A tree reduction in shared memory; two invocations then turn the sum into digits
  // with a helper (whose call the solver weighs for a context of its own, so the
  // argument's level, and the shared load's reason, are computed), and all copy them out
  // after a last barrier. Every barrier is in uniform control: nothing to report.
  const std::string source = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float samples[128]; float total; uint text[32]; };
shared float partial[64];
shared uint digits[2][16];
shared uint lengths[2];
uint NextDigit(inout float number) {
  float rest = floor(number / 10.0);
  uint digit = uint(number - 10.0 * rest);
  number = rest;
  return digit;
}
void main() {
  uint tid = gl_LocalInvocationIndex;
  partial[tid] = samples[2u * tid] + samples[2u * tid + 1u];
  barrier();
  uint count = 64u;
  while (count > 1u) {
    uint half_count = (count + 1u) / 2u;
    if (tid + half_count < count) partial[tid] += partial[tid + half_count];
    barrier();
    count = half_count;
  }
  float sum = partial[0];
  if (tid == 0u) total = sum;
  if (tid < 2u) {
    uint len = 0u;
    float number = floor(sum) + float(tid);
    while (number > 0.0 && len < 16u) digits[tid][len++] = NextDigit(number);
    lengths[tid] = len;
  }
  barrier();
  uint which = tid / 16u, at = tid % 16u;
  if (which < 2u && at < lengths[which]) text[tid] = digits[which][lengths[which] - at - 1u];
})";
  std::vector<uint32_t> words = test::CompileGlsl(source, "comp");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  auto lines = std::make_shared<CountedLines>();
  module->outside_lines = lines;
  UniformityResult result = AnalyzeUniformity(*module, {});
  EXPECT_EQ(result.refusal, "");
  EXPECT_TRUE(UniformityDiagnostics(result, Severity::kWarning).empty());
  EXPECT_EQ(lines->made, 0);
}

struct PhaseCase {
  const char* name;
  const char* body;    // main's body, from line 9 (a helper may sit on line 7)
  const char* helper;  // functions before main, one line
  const char* reason;  // expected in the warning's reasons
};

void PrintTo(const PhaseCase& c, std::ostream* os) { *os << c.name; }

class UniformityPhaseFailure : public ::testing::TestWithParam<PhaseCase> {};

TEST_P(UniformityPhaseFailure, WarnsNamingTheCondition) {
  const PhaseCase& c = GetParam();
  Outcome outcome = AnalyzeShared(std::string(c.helper) + "\nvoid main() {\n" + c.body + "}\n");
  ASSERT_GE(outcome.warnings.size(), 1u) << outcome.All();
  EXPECT_NE(outcome.All().find(c.reason), std::string::npos) << outcome.All();
}

INSTANTIATE_TEST_SUITE_P(
    Conditions, UniformityPhaseFailure,
    ::testing::Values(
        PhaseCase{"NoBarrier",
                  "  if (gl_LocalInvocationIndex == 0u) count = 1u;\n  if (count == size) { "
                  "barrier(); }\n",
                  "",
                  "shared variable `count` is written by other invocations and no workgroup "
                  "barrier comes "
                  "before its load at u.comp:10"},
        PhaseCase{"StoreAfterBarrierInAnotherBranch",
                  "  barrier();\n  if (gl_LocalInvocationIndex == 5u) count = 2u;\n"
                  "  if (count == size) { barrier(); }\n",
                  "",
                  "shared variable `count` may be written after the barrier at u.comp:9 (by the "
                  "OpStore at u.comp:10)"},
        PhaseCase{"StoreAfterTheLoad_OtherInvocationsMayBeAhead",
                  "  barrier();\n  if (count == size) { barrier(); }\n  count = 3u;\n", "",
                  "may be written after the barrier at u.comp:9 (by the OpStore at u.comp:11)"},
        PhaseCase{"NonUniformAddress",
                  "  vs[gl_LocalInvocationIndex] = 1u;\n  barrier();\n"
                  "  if (vs[gl_LocalInvocationIndex] == 1u) { barrier(); }\n",
                  "", "built-in LocalInvocationIndex differs between invocations"},
        PhaseCase{"DynamicIndexAliases",
                  "  barrier();\n  vs[data[gl_LocalInvocationIndex]] = 0u;\n  if (vs[3] == 1u) { "
                  "barrier(); }\n",
                  "",
                  "shared variable `vs` may be written after the barrier at u.comp:9 (by the "
                  "OpStore at u.comp:10)"},
        PhaseCase{
            "CallBetweenBarrierAndLoadWrites",
            "  barrier();\n  reset();\n  if (count == size) { barrier(); }\n",
            "void reset() { count = 0u; }",
            "may be written after the barrier at u.comp:9 (by the OpFunctionCall at u.comp:10)"},
        PhaseCase{
            "Atomic",
            "  barrier();\n  atomicAdd(count, 1u);\n  if (count == size) { barrier(); }\n", "",
            "may be written after the barrier at u.comp:9 (by the OpAtomicIAdd at u.comp:10)"},
        PhaseCase{
            "BarrierInNonUniformFlow",
            "  uint i = 0u;\n  do {\n    barrier();\n    if (i >= gl_LocalInvocationIndex) break;\n"
            "    i++;\n  } while (true);\n  if (count == size) { barrier(); }\n",
            "",
            "shared variable `count` is read after the barrier at u.comp:11, which is in "
            "non-uniform control flow"},
        PhaseCase{"LoadInNonUniformFlow",
                  "  barrier();\n  uint c = 0u;\n  if (gl_LocalInvocationIndex < 5u) c = count;\n"
                  "  if (c == size) { barrier(); }\n",
                  "", "shared variable `count` is loaded at u.comp:11 in non-uniform control flow"},
        PhaseCase{"StorageBufferIsNotShared",
                  "  barrier();\n  if (data[0] == size) { barrier(); }\n", "",
                  "storage buffer %13 may be written by other invocations"}),
    [](const ::testing::TestParamInfo<PhaseCase>& info) { return std::string(info.param.name); });

// --- One warning per cause. ---

// A barrier controlled by two divergent branches shows both chains.
TEST(UniformityCallSites, IndependentReasonChains) {
  Outcome outcome = AnalyzeGlsl(std::string(kComputeHeader) +
                                    "void main() {\n"
                                    "  for (uint i = 0u; i < 4u; ++i) {\n"
                                    "    if (gl_LocalInvocationIndex < 3u) break;\n"
                                    "    if (data[i] > 60u) break;\n"
                                    "    barrier();\n"
                                    "  }\n"
                                    "}\n",
                                "comp");
  ASSERT_EQ(outcome.warnings.size(), 1u) << outcome.All();
  EXPECT_TRUE(test::FileCheck(outcome.warnings[0],
                              "CHECK: u.comp:12: barrier"
                              "\nCHECK-NEXT: only some invocations take the branch at u.comp:11"
                              "\nCHECK: storage buffer"
                              "\nCHECK-NEXT: also: it is inside the branch at u.comp:11"
                              "\nCHECK-NEXT: only some invocations take the branch at u.comp:10"));
  EXPECT_NE(outcome.All().find("built-in LocalInvocationIndex"), std::string::npos)
      << outcome.All();
  EXPECT_NE(outcome.All().find("storage buffer"), std::string::npos) << outcome.All();
}

// --- Whole shaders with one warning, checked with FileCheck: a header's declarations,
// then `source` (line numbers continue after the header). ---

struct WarningCase {
  const char* name;
  const char* header;  // kFragmentHeader or kComputeHeader
  const char* stage;
  const char* source;
  const char* checks;  // FileCheck patterns on the one warning
  bool vulkan11;
};

void PrintTo(const WarningCase& c, std::ostream* out) { *out << c.name; }

class UniformityWarning : public ::testing::TestWithParam<WarningCase> {};

TEST_P(UniformityWarning, OneWarningMatches) {
  const WarningCase& c = GetParam();
  Outcome outcome = AnalyzeGlsl(std::string(c.header) + c.source, c.stage, c.vulkan11);
  ASSERT_EQ(outcome.warnings.size(), 1u) << outcome.All();
  EXPECT_TRUE(test::FileCheck(outcome.warnings[0], c.checks));
}

INSTANTIATE_TEST_SUITE_P(
    Shaders, UniformityWarning,
    ::testing::Values(
        // An early return of some invocations, then barrier().
        WarningCase{"BarrierAfterDivergentReturn", kComputeHeader, "comp",
                    "void main() {\n"
                    "  if (gl_LocalInvocationID.x > 10u) return;\n"
                    "  barrier();\n"
                    "}\n",
                    "CHECK: WARNING: u.comp:10: barrier"
                    "\nCHECK: only some invocations take the branch at u.comp:9, where some "
                    "invocations return"
                    "\nCHECK: built-in LocalInvocationId differs between invocations",
                    false},
        // A loop whose exit depends on a storage buffer value indexed per invocation.
        WarningCase{"LoopWithDivergentExit", kComputeHeader, "comp",
                    "void main() {\n"
                    "  for (uint i = 0u; i < data[gl_LocalInvocationID.x]; ++i) {\n"
                    "    barrier();\n"
                    "  }\n"
                    "}\n",
                    "CHECK: u.comp:10: barrier\nCHECK: branch at u.comp:9", false},
        // A loop that breaks for some invocations; the barrier after the loop is fine,
        // the one inside is not.
        WarningCase{"LoopWithDivergentBreak_AfterLoopIsReconverged", kComputeHeader, "comp",
                    "void main() {\n"
                    "  for (uint i = 0u; i < count; ++i) {\n"
                    "    if (data[i] == gl_LocalInvocationID.x) break;\n"
                    "    barrier();\n"
                    "  }\n"
                    "  barrier();\n"
                    "}\n",
                    "CHECK: u.comp:11: barrier", false},
        // A value assigned in a divergent branch is non-uniform after the merge.
        // glslang emits no OpLine for a condition that is a bare variable: the load and
        // the branch of line 14 sit in the merge block of line 13's `if`, without a line
        // of their own, and take that `if`'s line (SourceLines' rule), marked "near".
        WarningCase{"VariableAssignedUnderDivergentBranch", kFragmentHeader, "frag",
                    "void main() {\n"
                    "  bool near = false;\n"
                    "  if (uv.x > 0.5) near = true;\n"
                    "  if (near) color = texture(tex, uv);\n"
                    "}\n",
                    "CHECK: u.frag:14: implicit-LOD"
                    "\nCHECK: branch near u.frag:13"
                    "\nCHECK: `near` is loaded"
                    "\nCHECK: assigned at u.frag:13 only on one side of the branch at u.frag:13: its "
                    "condition is non-uniform"
                    "\nCHECK: fragment input `uv`",
                    false},
        // A discard of some invocations ends uniform control flow; a demote does not
        // (demoted invocations keep running as helpers, so derivatives stay defined).
        WarningCase{"DiscardBeforeDerivative", kFragmentHeader, "frag",
                    "void main() {\n"
                    "  if (uv.x > 0.5) discard;\n"
                    "  color = vec4(dFdx(uv.y));\n"
                    "}\n",
                    "CHECK: u.frag:13: derivative\nCHECK: branch at u.frag:12, where some "
                    "invocations discard",
                    false},
        // The barrier sits in a helper; the helper is called under a divergent if, and a
        // second helper decides the condition from the invocation id. The warning is at the call
        // (one per cause), naming the barrier inside.
        WarningCase{"AcrossFunctionCalls", kComputeHeader, "comp",
                    "bool firstHalf() { return gl_LocalInvocationIndex < 32u; }\n"
                    "void sync() {\n"
                    "  barrier();\n"
                    "}\n"
                    "void main() {\n"
                    "  if (firstHalf()) sync();\n"
                    "}\n",
                    "CHECK: u.comp:13: call of `sync(` in non-uniform control flow, "
                    "but it needs uniform control flow for: barrier "
                    "(OpControlBarrier, workgroup scope) at u.comp:10"
                    "\nCHECK-NEXT: branch at u.comp:13"
                    "\nCHECK-NEXT: `gl_LocalInvocationIndex` is loaded at u.comp:8"
                    "\nCHECK: built-in LocalInvocationIndex",
                    false},
        // The discard is inside a helper, the derivative after the call.
        WarningCase{"DiscardInCallee", kFragmentHeader, "frag",
                    "void clip(float v) { if (v < 0.0) discard; }\n"
                    "void main() {\n"
                    "  clip(uv.x);\n"
                    "  color = vec4(dFdx(uv.y));\n"
                    "}\n",
                    "CHECK: u.frag:14: derivative"
                    "\nCHECK: the call of `clip(f1;` at u.frag:13 may end only some"
                    "\nCHECK: the discard at u.frag:11 is in non-uniform control flow",
                    false},
        // subgroupBarrier() needs the subgroup, not the workgroup, to agree.
        WarningCase{"SubgroupBarrier_SubgroupUniformConditionIsEnough", kComputeHeader, "comp",
                    "#extension GL_KHR_shader_subgroup_basic : require\n"
                    "void main() {\n"
                    "  if (subgroupAny(data[gl_LocalInvocationID.x] > 3u)) subgroupBarrier();\n"
                    "  if (gl_SubgroupInvocationID == 0u) subgroupBarrier();\n"
                    "}\n",
                    "CHECK: u.comp:11: barrier (OpControlBarrier, subgroup scope)"
                    "\nCHECK: built-in SubgroupLocalInvocationId",
                    /*vulkan11=*/true},
        // GLSL out parameters: a value stored through a pointer parameter reaches the caller's
        // variable (the caller's `t` becomes non-uniform inside `pick`).
        WarningCase{"OutParameterCarriesDivergence", kFragmentHeader, "frag",
                    "void pick(out float v) { v = uv.x; }\n"
                    "void main() {\n"
                    "  float t = 0.0;\n"
                    "  pick(t);\n"
                    "  if (t > 0.5) color = texture(tex, uv);\n"
                    "}\n",
                    "CHECK: u.frag:15: implicit-LOD\nCHECK: `t` is loaded"
                    "\nCHECK: fragment input `uv`",
                    false},
        // Locals: a divergent store that still reaches the use on one path (compare
        // Locals_OverwrittenBeforeUse_NoWarning in UniformityShader).
        WarningCase{"Locals_DivergentStoreStillReaches_Warns", kFragmentHeader, "frag",
                    "void main() {\n"
                    "  bool near = uv.x > 0.5;\n"
                    "  if (count > 2) near = threshold > 0.5;\n"
                    "  if (near) color = texture(tex, uv);\n"
                    "}\n",
                    "CHECK: u.frag:14: implicit-LOD"
                    "\nCHECK: `near` is loaded near u.frag:13"
                    "\nCHECK-NEXT: it is assigned a non-uniform value at u.frag:12"
                    "\nCHECK: fragment input `uv`",
                    false},
        // The helper's barrier is reported at the one divergent call, not at the uniform one,
        // and not inside the helper.
        WarningCase{"CallSites_OnlyTheDivergentCallIsReported", kComputeHeader, "comp",
                    "void sync() { barrier(); }\n"
                    "void main() {\n"
                    "  sync();\n"
                    "  if (gl_LocalInvocationIndex < 7u) sync();\n"
                    "}\n",
                    "CHECK: u.comp:11: call of `sync(` in non-uniform control flow, but it "
                    "needs uniform control flow for: barrier (OpControlBarrier, "
                    "workgroup scope) at u.comp:8"
                    "\nCHECK: branch at u.comp:11",
                    false},
        // Through two levels: main calls outer() divergently, outer calls inner() uniformly;
        // inner's barrier and derivative-free body are listed at main's call.
        WarningCase{
            "CallSites_NeedsPassThroughUniformCalls", kComputeHeader, "comp",
            "void inner() { barrier(); memoryBarrierShared(); barrier(); }\n"
            "void outer() { inner(); }\n"
            "void main() {\n"
            "  if (gl_LocalInvocationIndex < 7u) outer();\n"
            "}\n",
            "CHECK: u.comp:11: call of `outer(` in non-uniform control flow, but it needs "
            "uniform control flow for: barrier (OpControlBarrier, workgroup scope) at u.comp:8; "
            "barrier (OpControlBarrier, workgroup scope) at u.comp:8",
            false}),
    [](const auto& info) { return std::string(info.param.name); });

// --- Whole shaders with at most one warning: a header's declarations, then `source`
// (line numbers continue after the header). ---

struct ShaderCase {
  const char* name;
  const char* header;  // kFragmentHeader, kComputeHeader or kSharedHeader
  const char* stage;
  const char* source;
  const char* warning;  // the one warning starts with it; "" when none is expected
  const char* reason;   // also in the warning; "" when only its start is checked
  bool vulkan11;
};

void PrintTo(const ShaderCase& c, std::ostream* out) { *out << c.name; }

class UniformityShader : public ::testing::TestWithParam<ShaderCase> {};

TEST_P(UniformityShader, AtMostOneWarning) {
  const ShaderCase& c = GetParam();
  Outcome outcome = AnalyzeGlsl(std::string(c.header) + c.source, c.stage, c.vulkan11);
  EXPECT_EQ(outcome.refusal, "");
  if (std::string(c.warning).empty()) {
    EXPECT_EQ(outcome.All(), "");
    return;
  }
  ASSERT_EQ(outcome.warnings.size(), 1u) << outcome.All();
  EXPECT_EQ(outcome.warnings[0].rfind(c.warning, 0), 0u) << outcome.All();
  EXPECT_NE(outcome.All().find(c.reason), std::string::npos) << outcome.All();
}

INSTANTIATE_TEST_SUITE_P(
    Shaders, UniformityShader,
    ::testing::Values(
        // A loop whose trip count is uniform: its barriers are in uniform control flow.
        ShaderCase{"LoopWithUniformTripCount_NoWarning", kComputeHeader, "comp",
                   "void main() {\n"
                   "  uint sum = 0u;\n"
                   "  for (uint i = 0u; i < count; ++i) {\n"
                   "    scratch[gl_LocalInvocationID.x] = i;\n"
                   "    barrier();\n"
                   "    sum += scratch[(gl_LocalInvocationID.x + 1u) & 63u];\n"
                   "    barrier();\n"
                   "  }\n"
                   "  data[gl_GlobalInvocationID.x] = sum;\n"
                   "}\n",
                   "", "", false},
        // The derivative follows the divergent if, after its merge.
        ShaderCase{"AfterReconvergence_NoWarning", kFragmentHeader, "frag",
                   "void main() {\n"
                   "  color = vec4(0.0);\n"
                   "  if (uv.x > 0.5) color.x = 1.0;\n"
                   "  color.y = dFdx(uv.y);\n"
                   "  color.z = texture(tex, uv).x;\n"
                   "}\n",
                   "", "", false},
        // A demote, unlike a discard (UniformityWarning DiscardBeforeDerivative), does not end
        // uniform control flow: demoted invocations keep running as helpers, so
        // derivatives stay defined.
        ShaderCase{"DemoteBeforeDerivative_NoWarning", kFragmentHeader, "frag",
                   "#extension GL_EXT_demote_to_helper_invocation : require\n"
                   "void main() {\n"
                   "  if (uv.x > 0.5) demote;\n"
                   "  color = vec4(dFdx(uv.y));\n"
                   "}\n",
                   "", "", false},
        // A derivative before the call that may discard is still in uniform control flow.
        ShaderCase{"DerivativeBeforeDiscardingCall_NoWarning", kFragmentHeader, "frag",
                   "void clip(float v) { if (v < 0.0) discard; }\n"
                   "void main() {\n"
                   "  color = vec4(dFdx(uv.y));\n"
                   "  clip(uv.x);\n"
                   "}\n",
                   "", "", false},
        // Flow-sensitive locals (the value-flow view): a divergent value stored first and
        // overwritten by a uniform one before the use; only the store that reaches the
        // load counts.
        ShaderCase{"Locals_OverwrittenBeforeUse_NoWarning", kFragmentHeader, "frag",
                   "void main() {\n"
                   "  bool near = uv.x > 0.5;\n"
                   "  color.x = near ? 1.0 : 0.0;\n"
                   "  near = threshold > 0.5;\n"
                   "  if (near) color = texture(tex, uv);\n"
                   "}\n",
                   "", "", false},
        // Barrier phases: one writer, a barrier, then every
        // invocation reads the same value.
        ShaderCase{"Phases_OneWriterThenBarrier_NoWarning", kSharedHeader, "comp",
                   "void main() {\n"
                   "  if (gl_LocalInvocationIndex == 0u) count = atomicAdd(data[0], 1u);\n"
                   "  barrier();\n"
                   "  if (count == size) { barrier(); }\n"
                   "}\n",
                   "", "", false},
        // Every invocation writes its own element before the barrier; all read one
        // element (and another element is written after the barrier).
        ShaderCase{"Phases_EveryWriterConstantAddress_NoWarning", kSharedHeader, "comp",
                   "void main() {\n"
                   "  vs[gl_LocalInvocationIndex] = data[gl_LocalInvocationIndex];\n"
                   "  barrier();\n"
                   "  vs[5] = 0u;\n"
                   "  if (vs[3] > 7u) { barrier(); }\n"
                   "}\n",
                   "", "", false},
        // A loop counter assigned from the shared value after the barrier stays uniform.
        ShaderCase{"Phases_LoopBoundFromSharedValue_NoWarning", kSharedHeader, "comp",
                   "void main() {\n"
                   "  if (gl_LocalInvocationIndex == 0u) count = data[0];\n"
                   "  barrier();\n"
                   "  uint n = count;\n"
                   "  for (uint i = 0u; i < n; ++i) { barrier(); }\n"
                   "}\n",
                   "", "", false},
        // A call between the barrier and the load that does not write the variable.
        ShaderCase{"Phases_CallThatDoesNotWrite_NoWarning", kSharedHeader, "comp",
                   "void touch() { vs[1] = 2u; }\n"
                   "void main() {\n"
                   "  if (gl_LocalInvocationIndex == 0u) count = 1u;\n"
                   "  barrier();\n"
                   "  touch();\n"
                   "  if (count == size) { barrier(); }\n"
                   "}\n",
                   "", "", false},
        // One warning per cause: a barrier that is divergent within its own function is
        // reported there, once, and not again at the (uniform) calls.
        ShaderCase{"CallSites_DivergentInsideCallee_ReportedInside", kComputeHeader, "comp",
                   "void sync() { if (gl_LocalInvocationIndex < 3u) barrier(); }\n"
                   "void main() { sync(); sync(); }\n",
                   "WARNING: u.comp:8: barrier", "", false},
        // Context: a small helper's result from this call's arguments. `halve` is called
        // with a per-invocation value and with a uniform one; only the first call's
        // result is non-uniform (parameters alone join every call site).
        ShaderCase{"Context_HelperResultPerCallSite", kComputeHeader, "comp",
                   "uint halve(uint v) { return v >> 1u; }\n"
                   "void main() {\n"
                   "  data[gl_LocalInvocationIndex] = halve(gl_LocalInvocationIndex);\n"
                   "  if (halve(count) > 3u) barrier();\n"
                   "  if (halve(gl_LocalInvocationIndex) > 3u) barrier();\n"
                   "}\n",
                   "WARNING: u.comp:12: barrier", "", false},
        // A helper with a branch is analysed again for a call whose arguments are more
        // uniform than the joined call sites' (a call context): the uniform call's
        // result is uniform, the per-invocation call's is not.
        ShaderCase{"Context_HelperWithBranch_ResultPerCallSite", kComputeHeader, "comp",
                   "uint pick(uint v) { if (v > 2u) return v; return 0u; }\n"
                   "void main() {\n"
                   "  data[gl_LocalInvocationIndex] = pick(gl_LocalInvocationIndex);\n"
                   "  if (pick(count) > 3u) barrier();\n"
                   "  if (pick(gl_LocalInvocationIndex) > 3u) barrier();\n"
                   "}\n",
                   "WARNING: u.comp:12: barrier", "`pick(u1;` returns", false},
        // Helpers calling helpers (dxvk_mipgen.comp's get_block_properties): `props` is
        // also called with a per-invocation rectangle, so within the context of
        // `via(count)` its parameter must be bound only by the call inside that context.
        ShaderCase{"Context_NestedHelperBoundElsewhere_ResultPerCallSite", kComputeHeader, "comp",
                   "uvec2 rect(uint mip) { if (mip > 6u) return uvec2(0u); return "
                   "gl_WorkGroupID.xy << (6u - mip); }\n"
                   "uint props(uvec2 r) { uint s = r.x + r.y; if (s > 100u) return 100u; "
                   "return s; }\n"
                   "uint via(uint mip) { return props(rect(mip)); }\n"
                   "void main() {\n"
                   "  data[gl_LocalInvocationIndex] = props(rect(gl_LocalInvocationIndex));\n"
                   "  if (via(count) > 3u) barrier();\n"
                   "  if (via(gl_SubgroupInvocationID) > 3u) barrier();\n"
                   "}\n",
                   "WARNING: u.comp:14: barrier", "", /*vulkan11=*/true},
        // A context makes arguments more uniform, nothing else: what the helper reads
        // from memory another call site writes per invocation stays non-uniform.
        ShaderCase{"Context_HelperReadingDivergentPrivate_StillWarns", kComputeHeader, "comp",
                   "uint last;\n"
                   "uint pick(uint v) { if (v > 2u) return last; last = v; return 0u; }\n"
                   "void main() {\n"
                   "  data[gl_LocalInvocationIndex] = pick(gl_LocalInvocationIndex);\n"
                   "  if (pick(count) > 3u) barrier();\n"
                   "}\n",
                   "WARNING: u.comp:12: barrier", "", false},
        // A context binds every argument of its call, not only the more uniform ones:
        // `b` is per invocation in the call whose `a` is uniform.
        ShaderCase{"Context_OtherArgumentsKeepTheirLevel", kComputeHeader, "comp",
                   "uint two(uint a, uint b) { if (a > 2u) return b; return 0u; }\n"
                   "void main() {\n"
                   "  data[gl_LocalInvocationIndex] = two(gl_LocalInvocationIndex, 1u);\n"
                   "  if (two(count, gl_LocalInvocationIndex) > 3u) barrier();\n"
                   "  if (two(count, 1u) > 3u) barrier();\n"
                   "}\n",
                   "WARNING: u.comp:11: barrier", "", false},
        // A context's result is computed again when memory it may read rises later in
        // the fixed point: `last` only becomes non-uniform once `later`'s result is
        // known, a round after the first context of `pick(count)` saw it uniform.
        ShaderCase{"Context_MemoryRaisedAfterTheContext_ResultFollows", kComputeHeader, "comp",
                   "uint last;\n"
                   "uint pick(uint v) { if (v > 2u) return last; return 0u; }\n"
                   "uint later(uint x) { if (x > 9u) return x; return 1u; }\n"
                   "void main() {\n"
                   "  data[gl_LocalInvocationIndex] = pick(gl_LocalInvocationIndex);\n"
                   "  if (pick(count) > 3u) barrier();\n"
                   "  last = later(gl_LocalInvocationIndex);\n"
                   "}\n",
                   "WARNING: u.comp:13: barrier", "", false},
        // A function called in non-uniform control flow still returns one value to all
        // the invocations of that call when its own returns are uniform.
        ShaderCase{"Context_ReturnInsideDivergentCall_IsUniformForTheCall", kComputeHeader, "comp",
                   "uint limit() { uint n = count; if (n > 9u) return 9u; return n; }\n"
                   "void main() {\n"
                   "  uint m = 0u;\n"
                   "  if (gl_LocalInvocationIndex < 5u) m = limit();\n"
                   "  if (limit() > 3u) barrier();\n"
                   "}\n",
                   "", "", false}),
    [](const auto& info) { return std::string(info.param.name); });

// --- Lanes: a subgroup broadcast of a lane-determined value from a uniform lane. ---

const char* kLanesHeader = R"(#version 440
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(binding = 2) uniform Params { uint count; };
uint table;
shared uint lds[64];
)";

// The source after kLanesHeader: `fill` fills the per-lane table, `lane` is the
// broadcast's lane; the loop's barrier (line 12) needs the broadcast workgroup-uniform.
Outcome AnalyzeLanes(const std::string& fill, const std::string& lane) {
  std::string source =
      std::string(kLanesHeader) +
      "uint entry_of(uint l) { if (l > 2u) return l * 10u + count; return l + 100u; }\n"
      "void main() {\n"
      "  " +
      fill +
      "\n"
      "  uint bound = subgroupBroadcast(table, " +
      lane +
      ");\n"
      "  for (uint i = 0u; i < bound; i += 50u) barrier();\n"
      "  data[gl_LocalInvocationIndex] = bound + entry_of(count);\n"
      "}\n";
  std::vector<uint32_t> words = CompileWithLines(source, "comp", false, "vulkan1.2");
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan12), "");
  return Analyze(words);
}

// dxvk_mipgen.comp's pattern: every subgroup fills lane k's entry from uniform values and
// the lane id (through a multi-block helper also called with a uniform argument), then
// every invocation reads entry k.
TEST(UniformityLanes, TableFilledPerLane_UniformLane_NoWarning) {
  EXPECT_EQ(AnalyzeLanes("table = entry_of(gl_SubgroupInvocationID);", "count % 4u").All(), "");
  EXPECT_EQ(AnalyzeLanes("table = gl_SubgroupInvocationID * gl_SubgroupSize;", "3u").All(), "");
}

// The lane analysis proves nothing about shared memory: here the barrier before the
// load runs in control flow that is the same for every subgroup's lane k but not for the
// workgroup, so it synchronizes nothing (and is itself reported), and lane 1 of one
// subgroup may read lds[3] before invocation 0 wrote it while another reads it after.
TEST(UniformityLanes, SharedLoadAfterLaneUniformBarrier_StaysNonUniform) {
  Outcome outcome = AnalyzeLanes(
      "if (gl_LocalInvocationIndex == 0u) lds[3] = 5u; if (gl_SubgroupInvocationID < 2u) { "
      "barrier(); table = lds[3]; }",
      "1u");
  ASSERT_EQ(outcome.warnings.size(), 2u) << outcome.All();
  EXPECT_EQ(outcome.warnings[0].rfind("WARNING: u.comp:10: barrier", 0), 0u) << outcome.All();
  EXPECT_EQ(outcome.warnings[1].rfind("WARNING: u.comp:12: barrier", 0), 0u) << outcome.All();
}

struct LaneCase {
  const char* name;
  const char* fill;
  const char* lane;
  const char* reason;  // in the warning's reasons
};
void PrintTo(const LaneCase& c, std::ostream* out) { *out << c.name; }

class UniformityLaneFailure : public ::testing::TestWithParam<LaneCase> {};

TEST_P(UniformityLaneFailure, BroadcastStaysSubgroupUniform) {
  Outcome outcome = AnalyzeLanes(GetParam().fill, GetParam().lane);
  ASSERT_EQ(outcome.warnings.size(), 1u) << outcome.All();
  EXPECT_EQ(outcome.warnings[0].rfind("WARNING: u.comp:12: barrier", 0), 0u) << outcome.All();
  EXPECT_NE(outcome.All().find(GetParam().reason), std::string::npos) << outcome.All();
}

INSTANTIATE_TEST_SUITE_P(
    Conditions, UniformityLaneFailure,
    ::testing::Values(
        LaneCase{"EntryDiffersBetweenSubgroups",
                 "table = gl_SubgroupID * 4u + gl_SubgroupInvocationID;", "3u",
                 "OpGroupNonUniformBroadcast differs between subgroups"},
        LaneCase{"EntryFromInvocationIndex", "table = entry_of(gl_LocalInvocationIndex);", "3u",
                 "OpGroupNonUniformBroadcast differs between subgroups"},
        LaneCase{"NonUniformLane", "table = gl_SubgroupInvocationID;",
                 "gl_LocalInvocationIndex % 4u",
                 "OpGroupNonUniformBroadcast differs between subgroups"},
        LaneCase{"FilledInSubgroupDivergentControl",
                 "if (gl_SubgroupID == 0u) table = gl_SubgroupInvocationID;", "3u",
                 "OpGroupNonUniformBroadcast differs between subgroups"},
        LaneCase{
            "EntryFromSharedMemoryWithoutBarrier",
            "if (gl_LocalInvocationIndex == 0u) lds[3] = 5u; table = lds[gl_SubgroupInvocationID];",
            "3u", "OpGroupNonUniformBroadcast differs between subgroups"}),
    [](const ::testing::TestParamInfo<LaneCase>& info) { return std::string(info.param.name); });

// --- Rules: every uniform-control row of the convergence table has one of the four. ---

TEST(UniformityRules, EveryUniformControlOpcodeHasAStableRule) {
  const std::set<std::string> kRules = {"uniformity/derivative", "uniformity/implicit-lod",
                                        "uniformity/barrier", "uniformity/uniform-control"};
  std::map<std::string, int> seen;
  for (uint32_t opcode : ConvergenceTableOpcodes()) {
    std::optional<OpcodeConvergence> row = ClassifyOpcode(opcode);
    if (!row || !(row->flags & kUniformControl) || opcode == spv::OpFunctionCall) continue;
    Instruction inst(static_cast<spv::Op>(opcode), 0, 0, {});
    UniformScope scope =
        row->scope == UniformScope::kExecutionOperand ? UniformScope::kInvocationGroup : row->scope;
    std::string rule = UniformityRuleOf(inst, scope);
    EXPECT_EQ(kRules.count(rule), 1u) << grammar::OpcodeName(inst.opcode) << ": " << rule;
    ++seen[rule];
  }
  EXPECT_EQ(seen.size(), kRules.size());  // each rule has an opcode
  EXPECT_EQ(std::string(UniformityRuleOf(Instruction(spv::OpDPdx, 0, 0, {}), UniformScope::kQuad)),
            "uniformity/derivative");
  EXPECT_EQ(std::string(UniformityRuleOf(Instruction(spv::OpImageSampleImplicitLod, 0, 0, {}),
                                         UniformScope::kQuad)),
            "uniformity/implicit-lod");
  EXPECT_EQ(std::string(UniformityRuleOf(Instruction(spv::OpControlBarrier, 0, 0, {}),
                                         UniformScope::kInvocationGroup)),
            "uniformity/barrier");
  EXPECT_EQ(std::string(UniformityRuleOf(Instruction(spv::OpEmitMeshTasksEXT, 0, 0, {}),
                                         UniformScope::kInvocationGroup)),
            "uniformity/uniform-control");
}

}  // namespace
}  // namespace glint::spirv
