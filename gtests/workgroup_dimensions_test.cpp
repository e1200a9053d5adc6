// Workgroup dimensions (SPIRV/analysis/uniformity/workgroup_dimensions.cpp) and the
// per-dimension workgroup size it reads (SPIRV/ir/workgroup_size.h): a built-in, or a
// component of one, is workgroup-uniform exactly where the module fixes the workgroup at
// one invocation in its dimension. Each case the rule proves has its near miss (a size of
// 2, a size given by a specialization constant, the dimension that is wider), and the
// analysis, its coarse proof and the pipeline agree on every case. The execution test in
// uniformity_execution_test.cpp runs the shapes on lavapipe.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/analysis/uniformity/uniformity_coarse_proof.h"
#include "SPIRV/analysis/uniformity/workgroup_dimensions.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/ir/workgroup_size.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

std::optional<Module> Compile(const std::string& source, const std::string& env = "vulkan1.0") {
  std::string error;
  std::optional<Module> module = ParseModule(test::CompileGlsl(source, "comp", env), &error);
  EXPECT_TRUE(module) << error;
  return module;
}

uint32_t EntryFunction(const Module& module) {
  return EntryPointInterfaceView(module.entry_points.front()).function();
}

// FixedWorkgroupDimensions' mask and sizes, as "mask:x,y,z" with unfixed sizes as "?".
std::string Fixed(const std::string& layout) {
  std::optional<Module> module = Compile("#version 450\n" + layout +
                                        "\nlayout(std430, binding = 0) buffer B { uint v; };\n"
                                        "void main() { v = gl_GlobalInvocationID.x; }\n");
  if (!module) return "no module";
  AnalysisContext analyses(*module);
  const DefUse& def_use = analyses.GetDefUse();
  int64_t size[3] = {-1, -1, -1};
  uint32_t mask = FixedWorkgroupDimensions(
      *module, analyses.GetBuiltIns(), EntryFunction(*module),
      [&def_use](uint32_t id) -> const Instruction* { return def_use.Definition(id); }, size);
  std::string text = std::to_string(mask) + ":";
  for (int i = 0; i < 3; ++i)
    text += (i ? "," : "") + ((mask & (1u << i)) ? std::to_string(size[i]) : std::string("?"));
  return text;
}

TEST(WorkgroupSize, FixedDimensionsByDeclaration) {
  EXPECT_EQ(Fixed("layout(local_size_x = 8, local_size_y = 8) in;"), "7:8,8,1");
  EXPECT_EQ(Fixed("layout(local_size_x = 64) in;"), "7:64,1,1");
  // glslang keeps the dimensions without an id as plain constants of gl_WorkGroupSize.
  EXPECT_EQ(Fixed("layout(local_size_x_id = 0, local_size_y = 4) in;"), "6:?,4,1");
  EXPECT_EQ(Fixed("layout(local_size_x = 8, local_size_z_id = 2) in;"), "3:8,1,?");
  EXPECT_EQ(Fixed("layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;"),
            "0:?,?,?");
}

// The part's answers for each load and extract of `module`'s entry function, as
// "name:L" (LoadsShared) or "name:E" (ExtractsShared) for each that holds, in order.
std::string SharedReads(const Module& module) {
  AnalysisContext analyses(const_cast<Module&>(module));
  const DefUse& def_use = analyses.GetDefUse();
  const Instruction& entry = module.entry_points.front();
  WorkgroupDimensions dimensions(
      module, analyses.GetBuiltIns(), EntryPointInterfaceView(entry).model(), EntryFunction(module),
      [&def_use](uint32_t id) -> const Instruction* { return def_use.Definition(id); });
  std::string text;
  for (const Function& function : module.functions)
    for (const Block& block : function.blocks)
      for (const Instruction& inst : block.instructions) {
        if (dimensions.LoadsShared(inst)) text += "L ";
        if (dimensions.ExtractsShared(inst)) text += "E ";
      }
  return text;
}

TEST(WorkgroupDimensions, ComponentsOfOneWideDimensions) {
  const std::string body =
      "layout(std430, binding = 0) buffer B { uint v[]; };\n"
      "void main() { v[0] = gl_GlobalInvocationID.x; v[1] = gl_GlobalInvocationID.y;\n"
      "  v[2] = gl_GlobalInvocationID.z; v[3] = gl_LocalInvocationID.z;\n"
      "  v[4] = gl_LocalInvocationIndex; }\n";
  std::optional<Module> wide = Compile("#version 450\nlayout(local_size_x = 8, local_size_y = 8) in;\n" + body);
  ASSERT_TRUE(wide);
  EXPECT_EQ(SharedReads(*wide), "L L ");  // the two z components
  std::optional<Module> flat = Compile("#version 450\nlayout(local_size_x = 64) in;\n" + body);
  ASSERT_TRUE(flat);
  EXPECT_EQ(SharedReads(*flat), "L L L ");  // y and z of the global id, z of the local
  // 1 x 1 x 1 is what a shader that declares no size gets (and engines rewrite it later):
  // not a shape.
  std::optional<Module> one = Compile("#version 450\nlayout(local_size_x = 1) in;\n" + body);
  ASSERT_TRUE(one);
  EXPECT_EQ(SharedReads(*one), "");
  std::optional<Module> undeclared = Compile("#version 450\n" + body);
  ASSERT_TRUE(undeclared);
  EXPECT_EQ(SharedReads(*undeclared), "");
  std::optional<Module> two = Compile("#version 450\nlayout(local_size_x = 8, local_size_z = 2) in;\n" + body);
  ASSERT_TRUE(two);
  EXPECT_EQ(SharedReads(*two), "L ");  // only y of the global id
  std::optional<Module> spec =
      Compile("#version 450\nlayout(local_size_x = 8, local_size_y = 8, local_size_z_id = 3) in;\n" + body);
  ASSERT_TRUE(spec);
  EXPECT_EQ(SharedReads(*spec), "");
}

// Optimized SPIR-V (another front end, spirv-opt) loads the whole vector and extracts:
// the z component of an 8x8x1 workgroup's global id is shared, x is not.
const char* const kExtractingModule = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid
               OpExecutionMode %main LocalSize 8 8 SIZE_Z
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %Push Block
               OpMemberDecorate %Push 0 Offset 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %v3int = OpTypeVector %uint 3
     %in_ptr = OpTypePointer Input %v3int
        %gid = OpVariable %in_ptr Input
       %Push = OpTypeStruct %uint
   %push_ptr = OpTypePointer PushConstant %Push
       %push = OpVariable %push_ptr PushConstant
   %uint_ptr = OpTypePointer PushConstant %uint
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
   %uint_264 = OpConstant %uint 264
       %bool = OpTypeBool
       %main = OpFunction %void None %fn
      %entry = OpLabel
     %vector = OpLoad %v3int %gid
  %component = OpCompositeExtract %uint %vector COMPONENT
     %bound_p = OpAccessChain %uint_ptr %push %uint_0
      %bound = OpLoad %uint %bound_p
        %out = OpUGreaterThanEqual %bool %component %bound
               OpSelectionMerge %merge None
               OpBranchConditional %out %leave %merge
      %leave = OpLabel
               OpReturn
      %merge = OpLabel
               OpControlBarrier %uint_2 %uint_2 %uint_264
               OpReturn
               OpFunctionEnd
)";

// The same, with the load and extract in a one-block helper (one_block_helpers.h gives
// its result per call site by the same rule).
const char* const kExtractingHelperModule = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid
               OpExecutionMode %main LocalSize 8 8 SIZE_Z
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %Push Block
               OpMemberDecorate %Push 0 Offset 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
    %uint_fn = OpTypeFunction %uint
      %v3int = OpTypeVector %uint 3
     %in_ptr = OpTypePointer Input %v3int
        %gid = OpVariable %in_ptr Input
       %Push = OpTypeStruct %uint
   %push_ptr = OpTypePointer PushConstant %Push
       %push = OpVariable %push_ptr PushConstant
   %uint_ptr = OpTypePointer PushConstant %uint
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
   %uint_264 = OpConstant %uint 264
       %bool = OpTypeBool
     %helper = OpFunction %uint None %uint_fn
       %body = OpLabel
     %vector = OpLoad %v3int %gid
      %taken = OpCompositeExtract %uint %vector COMPONENT
               OpReturnValue %taken
               OpFunctionEnd
       %main = OpFunction %void None %fn
      %entry = OpLabel
  %component = OpFunctionCall %uint %helper
    %bound_p = OpAccessChain %uint_ptr %push %uint_0
      %bound = OpLoad %uint %bound_p
        %out = OpUGreaterThanEqual %bool %component %bound
               OpSelectionMerge %merge None
               OpBranchConditional %out %leave %merge
      %leave = OpLabel
               OpReturn
      %merge = OpLabel
               OpControlBarrier %uint_2 %uint_2 %uint_264
               OpReturn
               OpFunctionEnd
)";

std::string WithReplaced(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

TEST(WorkgroupDimensions, ExtractOfAWholeVectorLoad) {
  struct Shape {
    const char* size_z;
    const char* component;
    bool warns;
  };
  for (const char* text : {kExtractingModule, kExtractingHelperModule})
  for (const Shape& shape : {Shape{"1", "2", false}, Shape{"2", "2", true}, Shape{"1", "0", true},
                             Shape{"1", "1", true}}) {
    SCOPED_TRACE(std::string(text == kExtractingModule ? "in main" : "in a helper") +
                 ", z size " + shape.size_z + ", component " + shape.component);
    std::optional<Module> module = test::AssembleModule(
        WithReplaced(WithReplaced(text, "SIZE_Z", shape.size_z), "COMPONENT", shape.component));
    ASSERT_TRUE(module);
    EXPECT_EQ(SharedReads(*module), shape.warns ? "" : "E ");
    UniformityOptions every_fact;
    every_fact.every_fact = true;
    UniformityResult full = AnalyzeUniformity(*module, every_fact);
    EXPECT_TRUE(full.refusal.empty()) << full.refusal;
    EXPECT_EQ(!full.findings.empty(), shape.warns);
    AnalysisContext analyses(*module);
    CoarseProofResult proof = ProveNothingToReport(
        {*module, analyses.GetConvergenceClasses(), analyses.GetCallGraph(), analyses.GetBuiltIns(),
         [&analyses](Function& function) -> const Cfg& { return analyses.GetCfg(function); }});
    EXPECT_EQ(proof.proven, !shape.warns);
  }
}

struct WarningCase {
  const char* name;
  const char* layout;
  const char* body;  // main's statements before the barrier
  bool warns;
  // The coarse proof keeps one level per variable, so it cannot see a component of a
  // local copy: it leaves such a shader to the analysis (cost, not output).
  bool proof_coarser = false;
};

void PrintTo(const WarningCase& c, std::ostream* out) { *out << c.name; }

const WarningCase kWarningCases[] = {
    // An early return on the batch index of a 2D workgroup: the real kernels' shape.
    {"GlobalZOf8x8x1", "local_size_x = 8, local_size_y = 8",
     "if (gl_GlobalInvocationID.z >= batch) return;", false},
    {"GlobalZOf8x4x2", "local_size_x = 8, local_size_y = 4, local_size_z = 2",
     "if (gl_GlobalInvocationID.z >= batch) return;", true},
    {"GlobalZSizedBySpecConstant", "local_size_x = 8, local_size_y = 8, local_size_z_id = 3",
     "if (gl_GlobalInvocationID.z >= batch) return;", true},
    {"GlobalZWithXSizedBySpecConstant", "local_size_x_id = 0",
     "if (gl_GlobalInvocationID.z >= batch) return;", false},
    {"GlobalYOf64x1x1", "local_size_x = 64", "if (gl_GlobalInvocationID.y >= batch) return;", false},
    {"GlobalXOf64x1x1", "local_size_x = 64", "if (gl_GlobalInvocationID.x >= batch) return;", true},
    {"GlobalXYOf64x1x1", "local_size_x = 64",
     "if (gl_GlobalInvocationID.x + gl_GlobalInvocationID.y >= batch) return;", true},
    {"LocalZOf8x8x1", "local_size_x = 8, local_size_y = 8",
     "if (gl_LocalInvocationID.z != 0u) return;", false},
    {"LocalZOf8x8x2", "local_size_x = 8, local_size_y = 8, local_size_z = 2",
     "if (gl_LocalInvocationID.z != 0u) return;", true},
    {"IndexedComponent", "local_size_x = 8, local_size_y = 8",
     "if (gl_GlobalInvocationID[2] >= batch) return;", false},
    // 1 x 1 x 1: what a shader without a declared size gets; an engine that compiles
    // such shaders (ncnn) rewrites the size in the SPIR-V afterwards, so it is no shape.
    {"GlobalZOf1x1x1", "local_size_x = 1", "if (gl_GlobalInvocationID.z >= batch) return;", true},
    {"IndexOf1x1x1", "local_size_x = 1", "if (gl_LocalInvocationIndex >= batch) return;", true},
    {"WholeVectorOf1x1x1", "local_size_x = 1",
     "if (any(greaterThanEqual(gl_GlobalInvocationID, uvec3(batch)))) return;", true},
    {"IndexOfTwoInvocations", "local_size_x = 2", "if (gl_LocalInvocationIndex >= batch) return;",
     true},
    // A copy in a local vector: its z is still the workgroup's. Near misses: its x, and
    // a z written over with a per-invocation value.
    {"ComponentOfALocalCopy", "local_size_x = 8, local_size_y = 8",
     "uvec3 id = gl_GlobalInvocationID; if (id.z >= batch) return;", false, true},
    {"OtherComponentOfALocalCopy", "local_size_x = 8, local_size_y = 8",
     "uvec3 id = gl_GlobalInvocationID; if (id.x >= batch) return;", true},
    {"LocalCopyWrittenOver", "local_size_x = 8, local_size_y = 8",
     "uvec3 id = gl_GlobalInvocationID; id.z = gl_LocalInvocationID.x; if (id.z >= batch) return;",
     true},
    // Not covered: a copy of the copy is one value, as divergent as its x.
    {"ComponentOfACopiedCopy", "local_size_x = 8, local_size_y = 8",
     "uvec3 id = gl_GlobalInvocationID; uvec3 again = id; if (again.z >= batch) return;", true},
};

class WorkgroupDimensionWarnings : public ::testing::TestWithParam<WarningCase> {};

TEST_P(WorkgroupDimensionWarnings, AnalysisProofAndPipelineAgree) {
  const WarningCase& c = GetParam();
  std::string source = std::string("#version 450\nlayout(") + c.layout +
                       ") in;\n"
                       "layout(push_constant) uniform P { uint batch; };\n"
                       "layout(std430, binding = 0) buffer B { float data[]; };\n"
                       "shared float tile[64];\n"
                       "void main() {\n  " +
                       c.body +
                       "\n  tile[gl_LocalInvocationIndex % 64u] = data[gl_LocalInvocationIndex];\n"
                       "  barrier();\n"
                       "  data[gl_LocalInvocationIndex] = tile[63u - gl_LocalInvocationIndex % 64u];\n"
                       "}\n";
  std::optional<Module> module = Compile(source);
  ASSERT_TRUE(module);
  UniformityOptions every_fact;
  every_fact.every_fact = true;
  UniformityResult full = AnalyzeUniformity(*module, every_fact);
  EXPECT_TRUE(full.refusal.empty()) << full.refusal;
  EXPECT_EQ(!full.findings.empty(), c.warns);
  if (c.warns && !full.findings.empty()) {
    EXPECT_NE(full.findings.front().message.find("barrier"), std::string::npos)
        << full.findings.front().message;
  }
  AnalysisContext analyses(*module);
  CoarseProofResult proof = ProveNothingToReport(
      {*module, analyses.GetConvergenceClasses(), analyses.GetCallGraph(), analyses.GetBuiltIns(),
       [&analyses](Function& function) -> const Cfg& { return analyses.GetCfg(function); }});
  EXPECT_EQ(proof.proven, !c.warns && !c.proof_coarser);
  UniformityResult pipeline = AnalyzeUniformity(*module);
  EXPECT_EQ(pipeline.findings.size(), full.findings.size());
}

INSTANTIATE_TEST_SUITE_P(Shapes, WorkgroupDimensionWarnings, ::testing::ValuesIn(kWarningCases),
                         [](const ::testing::TestParamInfo<WarningCase>& info) {
                           return std::string(info.param.name);
                         });

// Helpers analysed per call context read the entry point's workgroup: the guard inside
// a helper called from main is as uniform as in main.
TEST(WorkgroupDimensions, GuardInAHelper) {
  for (const char* layout : {"local_size_x = 8, local_size_y = 8", "local_size_x = 8, local_size_z = 2"}) {
    SCOPED_TRACE(layout);
    std::optional<Module> module = Compile(
        std::string("#version 450\nlayout(") + layout +
        ") in;\nlayout(push_constant) uniform P { uint batch; };\n"
        "shared float tile[64];\n"
        "bool Outside() { return gl_GlobalInvocationID.z >= batch; }\n"
        "void Step() { if (Outside()) return; tile[gl_LocalInvocationIndex] = 1.0; barrier(); }\n"
        "void main() { Step(); }\n");
    ASSERT_TRUE(module);
    UniformityResult result = AnalyzeUniformity(*module);
    EXPECT_EQ(result.findings.empty(), std::string(layout).find("local_size_z") == std::string::npos);
  }
}

}  // namespace
}  // namespace glint::spirv
