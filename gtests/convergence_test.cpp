// Tests of the convergence classes (SPIRV/analysis/convergence/convergence_classes.h) and the
// convergence checker (SPIRV/analysis/convergence/convergence_checker.h): the table covers every
// opcode of the grammar, each class is what the definitions say, functions inherit
// their callees' classes, the checker catches passes that add control dependence to a
// convergent instruction or change the guards of a cross-thread one, and every pass
// in SPIRV/passes/ keeps the rules on shaders with derivatives, subgroup operations
// and barriers.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <ostream>
#include <set>

#include "SPIRV/analysis/convergence/convergence_classes.h"
#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/audit_instrumentation.h"
#include "SPIRV/passes/convergence_checked_pass.h"
#include "SPIRV/passes/hoist_constant_tables.h"
#include "SPIRV/passes/range_report.h"
#include "SPIRV/passes/robust_access.h"
#include "SPIRV/passes/uniformity_check.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

Module Parse(const std::vector<uint32_t>& words) {
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  EXPECT_TRUE(module) << error;
  return module ? std::move(*module) : Module();
}

// --- The table. ---

TEST(ConvergenceTable, EveryGrammarOpcodeIsClassified) {
  int grammar_opcodes = 0;
  std::string missing;
  for (uint32_t opcode = 0; opcode <= 0xffff; ++opcode) {
    if (!grammar::FindOpcode(opcode)) continue;
    ++grammar_opcodes;
    if (!ClassifyOpcode(opcode)) missing += std::string(" ") + grammar::OpcodeName(opcode);
  }
  EXPECT_EQ(missing, "") << "opcodes without a convergence class";
  EXPECT_GT(grammar_opcodes, 600);
}

TEST(ConvergenceTable, RowsAreGrammarOpcodesWithoutDuplicates) {
  std::set<uint32_t> seen;
  for (uint32_t opcode : ConvergenceTableOpcodes()) {
    EXPECT_NE(grammar::FindOpcode(opcode), nullptr)
        << "row for opcode " << opcode << " not in the grammar";
    EXPECT_TRUE(seen.insert(opcode).second) << "two rows for " << grammar::OpcodeName(opcode);
  }
}

TEST(ConvergenceTable, UnknownOpcodeHasNoClass) { EXPECT_FALSE(ClassifyOpcode(0x7fff)); }

// The definitions: cross-thread and uniform-control imply convergent; uniform-control
// rows say over which scope.
TEST(ConvergenceTable, ClassesAreConsistent) {
  for (uint32_t opcode : ConvergenceTableOpcodes()) {
    OpcodeConvergence row = *ClassifyOpcode(opcode);
    const char* name = grammar::OpcodeName(opcode);
    if (row.flags & (kCrossThread | kUniformControl)) {
      EXPECT_TRUE(row.flags & kConvergent) << name;
    }
    if (opcode == spv::OpFunctionCall) continue;
    EXPECT_EQ((row.flags & kUniformControl) != 0, row.scope != UniformScope::kNone) << name;
  }
}

// RequiredScope reads a kExecutionOperand row's scope through ExecutionScopedView: each
// such opcode's first operand must be an execution scope.
TEST(ConvergenceTable, ExecutionOperandRowsHaveTheScopeFirst) {
  int rows = 0;
  for (uint32_t opcode : ConvergenceTableOpcodes()) {
    if (ClassifyOpcode(opcode)->scope != UniformScope::kExecutionOperand) continue;
    ++rows;
    EXPECT_TRUE(ExecutionScopedView<const Instruction>::Accepts(spv::Op(opcode)))
        << grammar::OpcodeName(opcode);
  }
  EXPECT_GT(rows, 20);  // the group and non-uniform operations
}

struct ClassCase {
  spv::Op opcode;
  ConvergenceFlags flags;
  UniformScope scope;
};

// Failure messages name the case, not its bytes.
void PrintTo(const ClassCase& c, std::ostream* out) { *out << grammar::OpcodeName(c.opcode); }

class ConvergenceClass : public ::testing::TestWithParam<ClassCase> {};

TEST_P(ConvergenceClass, IsAsDefined) {
  std::optional<OpcodeConvergence> row = ClassifyOpcode(GetParam().opcode);
  ASSERT_TRUE(row);
  EXPECT_EQ(ConvergenceFlagsText(row->flags), ConvergenceFlagsText(GetParam().flags));
  EXPECT_EQ(static_cast<int>(row->scope), static_cast<int>(GetParam().scope));
}

constexpr ConvergenceFlags kUniformControlFlags = kConvergent | kUniformControl;
constexpr ConvergenceFlags kCrossThreadFlags = kConvergent | kCrossThread;
constexpr ConvergenceFlags kAllFlags = kConvergent | kCrossThread | kUniformControl;

INSTANTIATE_TEST_SUITE_P(
    Opcodes, ConvergenceClass,
    ::testing::Values(
        // Derivatives and implicit-LOD sampling: uniform-control over the quad.
        ClassCase{spv::OpDPdx, kUniformControlFlags, UniformScope::kQuad},
        ClassCase{spv::OpFwidthCoarse, kUniformControlFlags, UniformScope::kQuad},
        ClassCase{spv::OpImageSampleImplicitLod, kUniformControlFlags, UniformScope::kQuad},
        ClassCase{spv::OpImageSparseSampleProjDrefImplicitLod, kUniformControlFlags,
                  UniformScope::kQuad},
        ClassCase{spv::OpImageQueryLod, kUniformControlFlags, UniformScope::kQuad},
        ClassCase{spv::OpImageSampleExplicitLod, kNotConvergent, UniformScope::kNone},
        ClassCase{spv::OpImageFetch, kNotConvergent, UniformScope::kNone},
        // Barriers: the Execution scope operand decides.
        ClassCase{spv::OpControlBarrier, kUniformControlFlags, UniformScope::kExecutionOperand},
        ClassCase{spv::OpMemoryBarrier, kNotConvergent, UniformScope::kNone},
        // Subgroup operations over the active invocations.
        ClassCase{spv::OpGroupNonUniformElect, kCrossThreadFlags, UniformScope::kNone},
        ClassCase{spv::OpGroupNonUniformBallot, kCrossThreadFlags, UniformScope::kNone},
        ClassCase{spv::OpGroupNonUniformIAdd, kCrossThreadFlags, UniformScope::kNone},
        ClassCase{spv::OpGroupNonUniformQuadSwap, kCrossThreadFlags, UniformScope::kNone},
        ClassCase{spv::OpGroupNonUniformShuffleXor, kCrossThreadFlags, UniformScope::kNone},
        // Reading bits of a ballot value involves no other invocation.
        ClassCase{spv::OpGroupNonUniformBallotBitCount, kNotConvergent, UniformScope::kNone},
        ClassCase{spv::OpGroupNonUniformInverseBallot, kNotConvergent, UniformScope::kNone},
        // KHR / AMD / NV / INTEL subgroup opcodes.
        ClassCase{spv::OpSubgroupBallotKHR, kCrossThreadFlags, UniformScope::kNone},
        ClassCase{spv::OpSubgroupAnyKHR, kCrossThreadFlags, UniformScope::kNone},
        ClassCase{spv::OpSubgroupReadInvocationKHR, kCrossThreadFlags, UniformScope::kNone},
        ClassCase{spv::OpGroupIAddNonUniformAMD, kCrossThreadFlags, UniformScope::kNone},
        ClassCase{spv::OpGroupNonUniformPartitionNV, kCrossThreadFlags, UniformScope::kNone},
        ClassCase{spv::OpSubgroupShuffleINTEL, kCrossThreadFlags, UniformScope::kNone},
        ClassCase{spv::OpSubgroupBlockReadINTEL, kAllFlags, UniformScope::kSubgroup},
        // SPIR-V 1.0 group operations: every invocation of the scope must take part.
        ClassCase{spv::OpGroupAll, kAllFlags, UniformScope::kExecutionOperand},
        ClassCase{spv::OpGroupIAdd, kAllFlags, UniformScope::kExecutionOperand},
        ClassCase{spv::OpGroupAsyncCopy, kAllFlags, UniformScope::kExecutionOperand},
        ClassCase{spv::OpCooperativeMatrixMulAddNV, kAllFlags, UniformScope::kSubgroup},
        // Control flow and per-invocation effects are not classes.
        ClassCase{spv::OpKill, kNotConvergent, UniformScope::kNone},
        ClassCase{spv::OpTerminateInvocation, kNotConvergent, UniformScope::kNone},
        ClassCase{spv::OpDemoteToHelperInvocation, kNotConvergent, UniformScope::kNone},
        ClassCase{spv::OpAtomicIAdd, kNotConvergent, UniformScope::kNone},
        ClassCase{spv::OpFAdd, kNotConvergent, UniformScope::kNone}),
    [](const auto& info) { return std::string(grammar::OpcodeName(info.param.opcode)).substr(2); });

// --- Classes in a module: function summaries, scopes, extended instructions. ---

const Instruction* FindFirst(const Module& module, spv::Op opcode, uint32_t function_id = 0) {
  for (const Function& function : module.functions) {
    if (function_id && function.id() != function_id) continue;
    for (const Block& block : function.blocks)
      for (const Instruction& inst : block.instructions)
        if (inst.opcode == opcode) return &inst;
  }
  return nullptr;
}

// GLSL:
//   void sync() { barrier(); }            void outer() { sync(); }
//   uint total(uint v) { return subgroupAdd(v); }
//   void main() { outer(); data[0] = total(data[1]); subgroupBarrier(); memoryBarrier(); }
TEST(ConvergenceClasses, FunctionsInheritTheirCallees) {
  std::vector<uint32_t> words = test::CompileGlsl(R"(#version 440
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
void sync() { barrier(); }
void outer() { sync(); }
uint total(uint v) { return subgroupAdd(v); }
void main() {
  outer();
  data[0] = total(data[1]);
  subgroupBarrier();
  memoryBarrier();
}
)",
                                                  "comp", "vulkan1.1");
  Module module = Parse(words);
  ConvergenceClasses classes(module);
  ASSERT_TRUE(classes.ok()) << classes.error();
  uint32_t main_id = EntryPointInterfaceView(module.entry_points.front()).function();
  std::set<std::string> call_classes;
  for (const Block& block : module.FindFunction(main_id)->blocks)
    for (const Instruction& inst : block.instructions)
      if (inst.opcode == spv::OpFunctionCall)
        call_classes.insert(ConvergenceFlagsText(classes.Of(inst)));
  EXPECT_EQ(call_classes,
            (std::set<std::string>{"convergent uniform-control", "convergent cross-thread"}));
  EXPECT_EQ(ConvergenceFlagsText(classes.OfFunction(main_id)),
            "convergent cross-thread uniform-control");
  // barrier() is workgroup scope, subgroupBarrier() subgroup scope.
  std::vector<UniformScope> barrier_scopes;
  module.ForEachInstruction([&](const Instruction& inst) {
    if (inst.opcode == spv::OpControlBarrier) barrier_scopes.push_back(classes.RequiredScope(inst));
  });
  std::sort(barrier_scopes.begin(), barrier_scopes.end());
  EXPECT_EQ(barrier_scopes,
            (std::vector<UniformScope>{UniformScope::kSubgroup, UniformScope::kInvocationGroup}));
  EXPECT_EQ(classes.Of(*FindFirst(module, spv::OpMemoryBarrier)), kNotConvergent);
}

// An extended instruction set the table does not know is an error, not a default.
TEST(ConvergenceClasses, UnknownExtendedSet_IsAnError) {
  std::vector<uint32_t> words = test::Assemble(R"(OpCapability Shader
%ext = OpExtInstImport "SPV_AMD_gcn_shader"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%one = OpConstant %float 1
%ones = OpConstantComposite %v3float %one %one %one
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpExtInst %float %ext CubeFaceIndexAMD %ones
OpReturn
OpFunctionEnd
)");
  Module module = Parse(words);
  ASSERT_EQ(module.ext_inst_imports.size(), 1u);
  {
    ConvergenceClasses known(module);
    EXPECT_TRUE(known.ok()) << known.error();
  }
  // spirv-as knows only registered sets; rename the import after assembly.
  module.ext_inst_imports.front().words = EncodeString("Unknown.set");
  ConvergenceClasses classes(module);
  EXPECT_FALSE(classes.ok());
  EXPECT_EQ(classes.error(), "extended instruction set \"Unknown.set\" is not classified");
  EXPECT_NE(TakeConvergenceSnapshot(module).error, "");
}

// GLSL.std.450 is never convergent; AMD_shader_ballot's swizzles are cross-thread.
TEST(ConvergenceClasses, ExtendedInstructions) {
  std::vector<uint32_t> words = test::CompileGlsl(R"(#version 450
#extension GL_AMD_shader_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float data[]; };
void main() {
  float x = sin(data[gl_LocalInvocationID.x]);
  data[0] = swizzleInvocationsAMD(x, uvec4(1, 0, 3, 2));
}
)",
                                                  "comp");
  Module module = Parse(words);
  ConvergenceClasses classes(module);
  ASSERT_TRUE(classes.ok()) << classes.error();
  std::vector<std::string> ext_classes;
  module.ForEachInstruction([&](const Instruction& inst) {
    if (inst.opcode == spv::OpExtInst)
      ext_classes.push_back(ConvergenceFlagsText(classes.Of(inst)));
  });
  EXPECT_EQ(ext_classes, (std::vector<std::string>{"none", "convergent cross-thread"}));
}

// --- The checker. ---

// A pass made of a function, for checker tests.
class LambdaPass : public Pass {
 public:
  explicit LambdaPass(std::function<PassResult(Module&)> run) : run_(std::move(run)) {}
  const char* name() const override { return "test-pass"; }

 protected:
  PassResult Process(Module& module, PassContext&) override { return run_(module); }

 private:
  std::function<PassResult(Module&)> run_;
};

// Moves the first `opcode` instruction of the entry point to just before the
// terminator (or merge instruction) of `destination(function)`.
PassResult MoveFirst(Module& module, spv::Op opcode,
                     const std::function<Block*(Function&)>& destination) {
  Function& function =
      *module.FindFunction(EntryPointInterfaceView(module.entry_points.front()).function());
  for (Block& block : function.blocks)
    for (auto it = block.instructions.begin(); it != block.instructions.end(); ++it) {
      if (it->opcode != opcode) continue;
      Block* target = destination(function);
      auto before = std::prev(target->instructions.end());
      if (target->MergeInstruction()) --before;
      target->instructions.splice(before, block.instructions, it);
      return PassResult::Changed(1);
    }
  return PassResult::Failed("nothing to move");
}

Block* ThenBlock(Function& function) {
  for (Block& block : function.blocks)
    if (block.Terminator()->opcode == spv::OpBranchConditional)
      return function.FindBlock(block.Terminator()->words[1]);
  return nullptr;
}

Block* IfHeader(Function& function) {
  for (Block& block : function.blocks)
    if (block.Terminator()->opcode == spv::OpBranchConditional) return &block;
  return nullptr;
}

std::string RunChecked(const std::vector<uint32_t>& words,
                       const std::function<PassResult(Module&)>& body) {
  Module module = Parse(words);
  LambdaPass pass(body);
  Options options;
  PassContext context{options, nullptr};
  return RunUnderConvergenceChecker(pass, module, context);
}

// GLSL (fragment):
//   if (uv.x > 0.5) color.x = 1.0;
//   color.y = dFdx(uv.y);
const char* kDerivativeAfterIf = R"(#version 440
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
  color = vec4(0.0);
  if (uv.x > 0.5) color.x = 1.0;
  color.y = dFdx(uv.y);
}
)";

// GLSL (compute):
//   if (gl_LocalInvocationID.x > 3u) data[0] = subgroupAdd(data[1]);
//   else data[2] = 1u;
const char* kSubgroupAddInIf = R"(#version 440
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
void main() {
  if (gl_LocalInvocationID.x > 3u) data[0] = subgroupAdd(data[1]);
  else data[2] = 1u;
}
)";

TEST(ConvergenceChecker, UnchangedModule_Passes) {
  EXPECT_EQ(RunChecked(test::CompileGlsl(kDerivativeAfterIf, "frag"),
                       [](Module&) { return PassResult::Unchanged(); }),
            "");
}

TEST(ConvergenceChecker, SinkingDerivativeIntoBranch_Fails) {
  std::string problem = RunChecked(test::CompileGlsl(kDerivativeAfterIf, "frag"),
                                   [](Module& m) { return MoveFirst(m, spv::OpDPdx, ThenBlock); });
  EXPECT_NE(problem.find("test-pass: OpDPdx"), std::string::npos) << problem;
  EXPECT_NE(problem.find("(convergent uniform-control) gained control dependence on"),
            std::string::npos)
      << problem;
  EXPECT_NE(problem.find("-> true"), std::string::npos) << problem;
}

TEST(ConvergenceChecker, HoistingConvergentOutOfBranch_Passes) {
  // Removing control dependence from a convergent (not cross-thread) instruction is fine.
  const char* source = R"(#version 440
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
  color = vec4(0.0);
  if (uv.x > 0.5) color.x = dFdx(uv.y);
}
)";
  EXPECT_EQ(RunChecked(test::CompileGlsl(source, "frag"),
                       [](Module& m) { return MoveFirst(m, spv::OpDPdx, IfHeader); }),
            "");
}

TEST(ConvergenceChecker, HoistingCrossThreadOutOfBranch_Fails) {
  std::string problem =
      RunChecked(test::CompileGlsl(kSubgroupAddInIf, "comp", "vulkan1.1"),
                 [](Module& m) { return MoveFirst(m, spv::OpGroupNonUniformIAdd, IfHeader); });
  EXPECT_NE(problem.find("OpGroupNonUniformIAdd"), std::string::npos) << problem;
  EXPECT_NE(problem.find("lost its guard"), std::string::npos) << problem;
}

TEST(ConvergenceChecker, MovingCrossThreadToOtherArm_Fails) {
  std::vector<uint32_t> words = test::CompileGlsl(kSubgroupAddInIf, "comp", "vulkan1.1");
  std::string problem = RunChecked(words, [](Module& m) {
    return MoveFirst(m, spv::OpGroupNonUniformIAdd, [](Function& f) {
      Block* header = IfHeader(f);
      return f.FindBlock(header->Terminator()->words[2]);  // the else arm
    });
  });
  EXPECT_NE(problem.find("gained control dependence on"), std::string::npos) << problem;
  EXPECT_NE(problem.find("-> false"), std::string::npos) << problem;
}

TEST(ConvergenceChecker, RemovingInstruction_Passes) {
  EXPECT_EQ(RunChecked(test::CompileGlsl(kDerivativeAfterIf, "frag"),
                       [](Module& m) {
                         for (Function& f : m.functions)
                           for (Block& b : f.blocks)
                             b.instructions.remove_if(
                                 [](const Instruction& i) { return i.opcode == spv::OpDPdx; });
                         return PassResult::Changed(1);
                       }),
            "");
}

// A rewrite that rebuilds an instruction under a new id stands in for the old one only
// where the old one was.
TEST(ConvergenceChecker, RebuiltInstruction_MatchesOnlyInPlace) {
  std::vector<uint32_t> words = test::CompileGlsl(kDerivativeAfterIf, "frag");
  auto renumber = [](Module& m) {
    const Instruction* dpdx = FindFirst(m, spv::OpDPdx);
    const_cast<Instruction*>(dpdx)->result_id = m.TakeNextId();
  };
  EXPECT_EQ(RunChecked(words,
                       [&](Module& m) {
                         renumber(m);
                         return PassResult::Changed(1);
                       }),
            "");
  std::string problem = RunChecked(words, [&](Module& m) {
    renumber(m);
    return MoveFirst(m, spv::OpDPdx, ThenBlock);
  });
  EXPECT_NE(problem.find("is new and replaces no removed instruction"), std::string::npos)
      << problem;
}

TEST(ConvergenceChecker, WrapperFailsThePassInAManager) {
  Module module = Parse(test::CompileGlsl(kDerivativeAfterIf, "frag"));
  PassManager manager;
  manager.Add(WithConvergenceChecker(std::make_unique<LambdaPass>(
      [](Module& m) { return MoveFirst(m, spv::OpDPdx, ThenBlock); })));
  Options options;
  PassContext context{options, nullptr};
  PassResult result = manager.Run(module, context);
  EXPECT_EQ(result.status, PassStatus::kFailed);
  EXPECT_NE(result.message.find("test-pass: convergence checker: test-pass: OpDPdx"),
            std::string::npos)
      << result.message;
}

// --- Every pass of SPIRV/passes/ under the checker. ---

std::vector<std::unique_ptr<Pass>> EveryPass() {
  std::vector<std::unique_ptr<Pass>> passes;
  passes.push_back(std::make_unique<HoistConstantTablesPass>());
  passes.push_back(std::make_unique<RobustAccessPass>());
  passes.push_back(std::make_unique<RangeReportPass>());
  passes.push_back(std::make_unique<AuditInstrumentationPass>());
  passes.push_back(std::make_unique<UniformityCheckPass>());
  return passes;
}

struct ShaderCase {
  const char* name;
  const char* stage;
  const char* env;
  TargetEnv target;
  const char* source;
};

const ShaderCase kShaders[] = {
    {"FragmentDerivativesAndTables", "frag", "vulkan1.0", TargetEnv::kVulkan10, R"(#version 440
layout(location = 0) in vec2 uv;
layout(location = 1) flat in int index;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex[4];
layout(binding = 1) uniform U { vec4 weights[8]; };
const float table[4] = float[](0.1, 0.2, 0.3, 0.4);
void main() {
  float w = table[index & 3] * weights[index].x;
  if (uv.x > 0.5) {
    color = texture(tex[index & 3], uv) * w;
  } else {
    color = vec4(dFdx(uv.y) * table[index]);
  }
  color.w += fwidth(uv.x);
}
)"},
    {"ComputeBarriersAndSubgroups", "comp", "vulkan1.1", TargetEnv::kVulkan11, R"(#version 440
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
shared uint scratch[64];
const uint table[4] = uint[](1u, 2u, 3u, 4u);
void main() {
  uint i = gl_LocalInvocationID.x;
  scratch[i] = values[i] * table[i & 3u];
  barrier();
  uint v = scratch[(i + 1u) & 63u];
  if (v > 3u) {
    v = subgroupAdd(v) + table[v & 3u];
    values[subgroupBallotFindLSB(subgroupBallot(true))] = v;
  }
  v += subgroupBroadcastFirst(v);
  barrier();
  values[i] = v + scratch[values[i] % 64u];
}
)"},
    {"FragmentQuadsLoopDiscard", "frag", "vulkan1.1", TargetEnv::kVulkan11, R"(#version 440
#extension GL_KHR_shader_subgroup_quad : require
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;
const vec2 offsets[4] = vec2[](vec2(0.0), vec2(1.0, 0.0), vec2(0.0, 1.0), vec2(1.0));
void main() {
  vec4 sum = vec4(0.0);
  for (int k = 0; k < 4; ++k) sum += texture(tex, uv + offsets[k]);
  int j = int(uv.x * 4.0) & 3;
  if (sum.x < 0.1) discard;
  color = subgroupQuadSwapHorizontal(sum) + vec4(offsets[j], 0.0, 0.0);
}
)"},
    {"SubgroupUniformControlFlow", "comp", "vulkan1.1", TargetEnv::kVulkan11, R"(#version 440
#extension GL_EXT_subgroup_uniform_control_flow : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
const uint table[8] = uint[](1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u);
void main() [[subgroup_uniform_control_flow]] {
  uint i = gl_GlobalInvocationID.x;
  if (subgroupAny(values[i] > 7u)) values[i] = table[values[i] & 7u];
  barrier();
  if (values[i] == 0u) values[i % 4u] = uint(subgroupAllEqual(i));
}
)"},
};

TEST(ConvergenceChecker, EveryPassKeepsTheRules) {
  Options options;
  options.robust_access = true;
  options.collect_ranges = true;
  int changed = 0;
  for (const ShaderCase& shader : kShaders) {
    std::vector<uint32_t> words = test::CompileGlsl(shader.source, shader.stage, shader.env);
    ASSERT_FALSE(words.empty()) << shader.name;
    for (std::unique_ptr<Pass>& pass : EveryPass()) {
      SCOPED_TRACE(std::string(shader.name) + " / " + pass->name());
      Module module = Parse(words);
      Report report;
      PassContext context{options, &report};
      PassResult result;
      EXPECT_EQ(RunUnderConvergenceChecker(*pass, module, context, &result), "");
      EXPECT_NE(result.status, PassStatus::kFailed) << result.message;
      if (result.status != PassStatus::kChanged) continue;
      ++changed;
      EXPECT_EQ(test::ValidateFor(module.Encode(), shader.target), "");
    }
  }
  // Hoisting, robust access and the audit rewrite something in these shaders.
  EXPECT_GE(changed, 6);
}

// The pipeline as glint::Process runs it keeps SubgroupUniformControlFlowKHR.
TEST(ConvergenceChecker, PipelineKeepsSubgroupUniformControlFlow) {
  const ShaderCase& shader = kShaders[3];
  std::vector<uint32_t> words = test::CompileGlsl(shader.source, shader.stage, shader.env);
  glint::Options options;
  options.robust_access = true;
  glint::Report report;
  ASSERT_TRUE(Process(words, options, &report));
  EXPECT_TRUE(test::FileCheck(test::Disassemble(words),
                              "CHECK: OpExtension \"SPV_KHR_subgroup_uniform_control_flow\""
                              "\nCHECK: OpExecutionMode %main SubgroupUniformControlFlowKHR"));
  EXPECT_EQ(test::ValidateFor(words, shader.target), "");
}

}  // namespace
}  // namespace glint::spirv
