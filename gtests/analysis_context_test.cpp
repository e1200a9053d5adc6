// Tests of the analysis context (SPIRV/analysis/analysis_context.h) and of how the pass
// manager uses it: analyses are built once and shared, a pass that changes the module
// gets fresh ones unless it preserved them, and the pipeline builds the range analysis
// once per module whatever the flags.
#include <gtest/gtest.h>

#include <functional>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/pass.h"
#include "SPIRV/passes/pipeline.h"
#include "glint/types.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// #version 440
// layout(local_size_x = 16) in;
// layout(constant_id = 0) const uint kCount = 8;
// layout(std430, binding = 0) buffer Data { uint key; float result[16]; };
// void main() { table lookup at a run-time index, a loop, a barrier }
const char* kShader = R"(#version 440
layout(local_size_x = 16) in;
layout(constant_id = 0) const uint kCount = 8;
layout(std430, binding = 0) buffer Data { uint key; float result[16]; };
void main() {
  const float table[4] = float[4](1.0, 2.0, 3.0, 4.0);
  float sum = table[key & 3u];
  for (uint i = 0u; i < kCount; ++i) sum += result[i];
  barrier();
  result[gl_LocalInvocationID.x] = sum;
}
)";

Module ParseShader() {
  std::string error;
  std::optional<Module> module = ParseModule(test::CompileGlsl(kShader, "comp"), &error);
  EXPECT_TRUE(module) << error;
  return module ? std::move(*module) : Module();
}

// A pass made of a function, which sees the run's analysis context.
class ProbePass : public Pass {
 public:
  using Body = std::function<PassResult(Module&, AnalysisContext&)>;
  explicit ProbePass(Body body) : body_(std::move(body)) {}
  const char* name() const override { return "probe"; }

 protected:
  PassResult Process(Module& module, PassContext& context) override {
    return body_(module, *context.analyses);
  }

 private:
  Body body_;
};

// Asks for def-use, every function's CFG and the full range analysis of every value.
PassResult ReadEverything(Module& module, AnalysisContext& analyses) {
  const DefUse& def_use = analyses.GetDefUse();
  for (Function& function : module.functions) analyses.GetCfg(function);
  IntegerRangeAnalysis& ranges = analyses.GetIntegerRanges({RangeAnalysisMode::kFull, 0});
  module.ForEachInstruction([&](const Instruction& inst) {
    if (inst.result_id && def_use.Definition(inst.result_id) == &inst)
      ranges.RangeOf(inst.result_id);
  });
  return PassResult::Unchanged();
}

// Adds a uint constant the module did not have; returns its id through `added`.
PassResult AddConstant(Module& module, uint32_t* added) {
  *added = module.FindOrAddConstant(module.FindOrAddIntType(32, false), 123456);
  return PassResult::Changed(1);
}

PassResult RunPasses(Module& module, AnalysisContext& analyses,
                     std::vector<ProbePass::Body> bodies) {
  PassManager manager;
  for (ProbePass::Body& body : bodies) manager.Add(std::make_unique<ProbePass>(std::move(body)));
  Options options;
  PassContext context{options, nullptr, &analyses};
  return manager.Run(module, context);
}

TEST(AnalysisContext, ReadOnlyPasses_ShareOneBuildOfEachAnalysis) {
  Module module = ParseShader();
  AnalysisContext analyses(module);
  RunPasses(module, analyses, {ReadEverything, ReadEverything, ReadEverything});
  EXPECT_EQ(analyses.builds().def_use, 1u);
  EXPECT_EQ(analyses.builds().cfg, module.functions.size());
  EXPECT_EQ(analyses.builds().integer_ranges, 1u);
  // One table of block positions, for the range analysis and parameter arguments both.
  EXPECT_EQ(analyses.builds().block_positions, 1u);
  EXPECT_EQ(&analyses.GetRangeInputs().positions, &analyses.GetBlockPositions());
}

// The range analysis (loop counter `i`, a Function variable) and uniformity read the
// context's value flow: each function's is built once, for both.
TEST(AnalysisContext, RangesAndUniformity_ShareOneValueFlowPerFunction) {
  Module module = ParseShader();
  AnalysisContext analyses(module);
  RunPasses(module, analyses, {ReadEverything});
  EXPECT_EQ(analyses.builds().value_flow, module.functions.size());
  analyses.GetUniformity();
  RunPasses(module, analyses, {ReadEverything});
  EXPECT_EQ(analyses.builds().value_flow, module.functions.size());
  EXPECT_EQ(analyses.builds().cfg, module.functions.size());
  EXPECT_EQ(analyses.builds().uniformity, 1u);
  EXPECT_EQ(analyses.builds().value_flow_module_index, 1u);
}

// Every function's view reads the module's constants from one index, built once (per
// view, a module of many helpers was read once per helper), and follows what a view
// with an index of its own follows.
TEST(AnalysisContext, ValueFlow_OneModuleIndexForEveryFunction) {
  std::string error;
  std::optional<Module> module = ParseModule(test::CompileGlsl(R"(#version 450
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer B { uint data[]; };
uint first(uint x) { uint t[4] = uint[](1u, 2u, 3u, 4u); t[1] = x; return t[1] + t[x & 3u]; }
uint second(uint x) { uint s = x; for (uint i = 0u; i < 3u; ++i) s += i; return s; }
uint third(uint x) { uint v[2]; v[0] = x; v[1] = x + 1u; return v[0] * v[1]; }
void main() {
  uint i = gl_LocalInvocationID.x;
  data[i] = first(i) + second(i) + third(i);
})",
                                                               "comp"),
                                             &error);
  ASSERT_TRUE(module) << error;
  ASSERT_EQ(module->functions.size(), 4u);
  AnalysisContext analyses(*module);
  for (Function& function : module->functions) {
    const ValueFlow& shared = analyses.GetValueFlow(function);
    ValueFlow own(*module, function, analyses.GetCfg(function));
    EXPECT_EQ(shared.Variables(), own.Variables());
    for (uint32_t variable : own.Variables())
      EXPECT_EQ(shared.IsFollowed(variable), own.IsFollowed(variable)) << variable;
  }
  EXPECT_EQ(analyses.builds().value_flow, 4u);
  EXPECT_EQ(analyses.builds().value_flow_module_index, 1u);
}

// A module with no uniform-control instruction has nothing the uniformity check could
// report: its result is empty and neither def-use nor value flow is built for it. Nor
// does one whose barrier runs where no branch decides (kShader: after its loop,
// uniformity_screen.h). A shader with a barrier under a branch builds def-use; its
// findings build a value-flow view of the variables they read themselves
// (uniformity_relevance.cpp), so the context's full views are built only where every
// fact is asked for.
TEST(AnalysisContext, UniformityWithoutUniformControl_BuildsNoInputs) {
  const char* without = R"(#version 440
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Data { float result[16]; };
void main() { if (result[gl_LocalInvocationID.x] > 0.0) result[0] = 1.0; }
)";
  std::string error;
  std::optional<Module> plain = ParseModule(test::CompileGlsl(without, "comp"), &error);
  ASSERT_TRUE(plain) << error;
  AnalysisContext plain_analyses(*plain);
  EXPECT_TRUE(plain_analyses.GetUniformity().findings.empty());
  EXPECT_TRUE(plain_analyses.GetUniformity().refusal.empty());
  EXPECT_EQ(plain_analyses.builds().uniformity, 1u);
  EXPECT_EQ(plain_analyses.builds().def_use, 0u);
  EXPECT_EQ(plain_analyses.builds().value_flow, 0u);

  Module unconditional = ParseShader();
  AnalysisContext screened(unconditional);
  EXPECT_TRUE(screened.GetUniformity().findings.empty());
  EXPECT_EQ(screened.builds().def_use, 0u);
  EXPECT_EQ(screened.builds().value_flow, 0u);

  const char* conditional = R"(#version 440
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Data { uint key; float result[16]; };
void main() {
  float sum = result[key & 15u];
  if (key > 2u) barrier();
  result[gl_LocalInvocationID.x] = sum;
}
)";
  std::optional<Module> with_barrier = ParseModule(test::CompileGlsl(conditional, "comp"), &error);
  ASSERT_TRUE(with_barrier) << error;
  AnalysisContext analyses(*with_barrier);
  analyses.GetUniformity();
  EXPECT_EQ(analyses.builds().def_use, 1u);
  EXPECT_EQ(analyses.builds().value_flow, 0u);
  UniformityOptions every_fact;
  every_fact.every_fact = true;
  analyses.GetUniformity(every_fact);
  EXPECT_EQ(analyses.builds().uniformity, 2u) << "each mode is its own result";
  EXPECT_EQ(analyses.builds().value_flow, with_barrier->functions.size());
}

// The call graph, block positions and what parameters hold are built once for ranges
// and uniformity, and dropped with def-use (a change to the module may add or move
// calls and instructions).
TEST(AnalysisContext, CallGraphAndParameterArguments_SharedAndDroppedWithDefUse) {
  Module module = ParseShader();
  AnalysisContext analyses(module);
  const CallGraph* first = nullptr;
  uint32_t added = 0;
  RunPasses(module, analyses,
            {[&](Module& m, AnalysisContext& a) {
               ReadEverything(m, a);
               a.GetUniformity();
               first = &a.GetCallGraph();
               return PassResult::Unchanged();
             },
             [&](Module& m, AnalysisContext&) {
               return AddConstant(m, &added).Preserving(Analysis::kCfg);
             },
             [&](Module& m, AnalysisContext& a) {
               ReadEverything(m, a);
               EXPECT_EQ(a.GetCallGraph().FunctionById(m.functions.front().id()),
                         &m.functions.front());
               return PassResult::Unchanged();
             }});
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(analyses.builds().call_graph, 2u);
  EXPECT_EQ(analyses.builds().parameter_arguments, 2u);
  EXPECT_EQ(analyses.builds().block_positions, 2u);
  EXPECT_EQ(analyses.builds().integer_ranges, 2u);
  EXPECT_EQ(analyses.builds().uniformity, 1u);
}

// Uniformity locates its findings with the context's SourceLines, the one OpLine reader:
// a later reader gets the same object, and a change that drops def-use drops it.
TEST(AnalysisContext, SourceLines_SharedByUniformityAndLaterReaders_DroppedWithDefUse) {
  Module module = ParseShader();
  AnalysisContext analyses(module);
  SourceLines* first = nullptr;
  uint32_t added = 0;
  RunPasses(module, analyses,
            {[&](Module&, AnalysisContext& a) {
               a.GetUniformity();
               first = &a.GetSourceLines();
               return PassResult::Unchanged();
             },
             [&](Module&, AnalysisContext& a) {
               EXPECT_EQ(&a.GetSourceLines(), first);
               return PassResult::Unchanged();
             },
             [&](Module& m, AnalysisContext&) {
               return AddConstant(m, &added).Preserving(Analysis::kCfg);
             },
             [&](Module&, AnalysisContext& a) {
               a.GetSourceLines();
               return PassResult::Unchanged();
             }});
  EXPECT_EQ(analyses.builds().uniformity, 1u);
  EXPECT_EQ(analyses.builds().source_lines, 2u);
}

TEST(AnalysisContext, ChangingPassThatPreservesNothing_NextPassGetsFreshAnalyses) {
  Module module = ParseShader();
  AnalysisContext analyses(module);
  uint32_t added = 0;
  const Instruction* seen = nullptr;
  RunPasses(module, analyses,
            {ReadEverything, [&](Module& m, AnalysisContext&) { return AddConstant(m, &added); },
             [&](Module& m, AnalysisContext& a) {
               seen = a.GetDefUse().Definition(added);  // only a fresh def-use knows it
               return ReadEverything(m, a);
             }});
  ASSERT_NE(added, 0u);
  ASSERT_NE(seen, nullptr);
  EXPECT_EQ(seen->result_id, added);
  EXPECT_EQ(analyses.builds().def_use, 2u);
  EXPECT_EQ(analyses.builds().cfg, 2 * module.functions.size());
  EXPECT_EQ(analyses.builds().integer_ranges, 2u);
}

TEST(AnalysisContext, ChangingPassThatPreservesTheCfg_KeepsOnlyTheCfg) {
  Module module = ParseShader();
  AnalysisContext analyses(module);
  uint32_t added = 0;
  RunPasses(module, analyses,
            {ReadEverything,
             [&](Module& m, AnalysisContext&) {
               return AddConstant(m, &added).Preserving(Analysis::kCfg);
             },
             ReadEverything});
  EXPECT_EQ(analyses.builds().cfg, module.functions.size());
  EXPECT_EQ(analyses.builds().def_use, 2u);
  EXPECT_EQ(analyses.builds().integer_ranges, 2u);  // built on the dropped def-use
}

TEST(AnalysisContext, Invalidate_DropsWhatIsBuiltOnADroppedAnalysis) {
  Module module = ParseShader();
  AnalysisContext analyses(module);
  analyses.GetUniformity();
  analyses.GetIntegerRanges({RangeAnalysisMode::kFull, 0});
  analyses.Invalidate(PreservedAnalyses::None()
                          .Preserve(Analysis::kIntegerRanges)
                          .Preserve(Analysis::kCfg)
                          .Preserve(Analysis::kConvergence));  // def-use dropped
  analyses.GetUniformity();
  analyses.GetIntegerRanges({RangeAnalysisMode::kFull, 0});
  EXPECT_EQ(analyses.builds().def_use, 2u);
  EXPECT_EQ(analyses.builds().integer_ranges, 2u);
  EXPECT_EQ(analyses.builds().uniformity, 2u);
  EXPECT_EQ(analyses.builds().convergence, 1u);
  EXPECT_EQ(analyses.builds().cfg, module.functions.size());
}

// Uniformity results are answers: a change that says they still hold keeps them, even
// though what they were computed from is rebuilt.
TEST(AnalysisContext, Invalidate_KeepsUniformityResultsTheChangeSaysStillHold) {
  Module module = ParseShader();
  AnalysisContext analyses(module);
  const UniformityResult* before = &analyses.GetUniformity();
  analyses.Invalidate(PreservedAnalyses::None().Preserve(Analysis::kUniformity));
  EXPECT_EQ(&analyses.GetUniformity(), before);
  EXPECT_EQ(analyses.builds().uniformity, 1u);
  analyses.Invalidate(PreservedAnalyses::None().Preserve(Analysis::kDefUse));
  analyses.GetUniformity();
  EXPECT_EQ(analyses.builds().uniformity, 2u);
}

TEST(AnalysisContext, ValueFlow_OnePerFunctionDroppedWithTheCfg) {
  Module module = ParseShader();
  AnalysisContext analyses(module);
  Function& main = module.functions.front();
  const ValueFlow& flow = analyses.GetValueFlow(main);
  EXPECT_EQ(&analyses.GetValueFlow(main), &flow);
  EXPECT_FALSE(flow.Variables().empty());  // `sum` and `i` live in Function variables
  analyses.Invalidate(PreservedAnalyses::None().Preserve(Analysis::kValueFlow));  // CFG dropped
  analyses.GetValueFlow(main);
  EXPECT_EQ(analyses.builds().value_flow, 2u);
  EXPECT_EQ(analyses.builds().cfg, 2u);
  // A change may add constants: the module is indexed again for the next view.
  EXPECT_EQ(analyses.builds().value_flow_module_index, 2u);
}

TEST(AnalysisContext, RangeAnalysis_OnePerModeAndSubgroupSize) {
  Module module = ParseShader();
  AnalysisContext analyses(module);
  IntegerRangeAnalysis& full = analyses.GetIntegerRanges({RangeAnalysisMode::kFull, 0});
  EXPECT_EQ(&analyses.GetIntegerRanges({RangeAnalysisMode::kFull, 0}), &full);
  EXPECT_NE(&analyses.GetIntegerRanges({RangeAnalysisMode::kReference, 0}), &full);
  EXPECT_NE(&analyses.GetIntegerRanges({RangeAnalysisMode::kFull, 32}), &full);
  EXPECT_EQ(analyses.builds().integer_ranges, 3u);
  EXPECT_EQ(analyses.builds().def_use, 1u);
}

// A pass run alone (outside a manager) works on analyses of its own.
TEST(AnalysisContext, PassRunAlone_GetsAContext) {
  Module module = ParseShader();
  Options options;
  PassContext context{options, nullptr};
  bool had_context = false;
  ProbePass pass([&](Module& m, AnalysisContext& a) {
    had_context = &a.module() == &m;
    return ReadEverything(m, a);
  });
  EXPECT_EQ(pass.Run(module, context).status, PassStatus::kUnchanged);
  EXPECT_TRUE(had_context);
}

struct FlagSet {
  RangeAnalysisMode mode;
  bool hoist;
  bool specialize;
  Severity uniformity;
};

std::string Describe(const FlagSet& flags) {
  return "mode " + std::to_string(static_cast<int>(flags.mode)) + (flags.hoist ? " hoist" : "") +
         (flags.specialize ? " spec" : "") + " uniformity " +
         std::to_string(static_cast<int>(flags.uniformity));
}

// --robust-access --dump-ranges: range-report and robust-access share one range
// analysis in every combination of the other flags.
TEST(AnalysisContext, RobustAccessWithDumpRanges_BuildsRangesOncePerModule) {
  for (RangeAnalysisMode mode :
       {RangeAnalysisMode::kOff, RangeAnalysisMode::kReference, RangeAnalysisMode::kFull})
    for (bool hoist : {false, true})
      for (bool specialize : {false, true})
        for (Severity uniformity : {Severity::kOff, Severity::kWarning}) {
          FlagSet flags{mode, hoist, specialize, uniformity};
          SCOPED_TRACE(Describe(flags));
          Module module = ParseShader();
          Options options;
          options.robust_access = options.collect_ranges = true;
          options.range_analysis = mode;
          options.hoist_constant_tables = hoist;
          options.uniformity = uniformity;
          if (specialize) options.spec_constants[0] = 4;
          Report report;
          AnalysisContext analyses(module);
          PassContext context{options, &report, &analyses};
          PassResult result = RunPipeline(module, context);
          ASSERT_NE(result.status, PassStatus::kFailed) << result.message;
          EXPECT_EQ(analyses.builds().integer_ranges, 1u);
          EXPECT_EQ(report.passes.size(), 2u + hoist + specialize + (uniformity != Severity::kOff));
          EXPECT_FALSE(report.accesses.empty());
          EXPECT_EQ(test::ValidateFor(module.Encode(), TargetEnv::kVulkan10), "");
        }
}

TEST(AnalysisContext, DefaultPipeline_BuildsNoRangeAnalysisAndOneUniformity) {
  Module module = ParseShader();
  Options options;
  AnalysisContext analyses(module);
  Report report;
  PassContext context{options, &report, &analyses};
  ASSERT_NE(RunPipeline(module, context).status, PassStatus::kFailed);
  EXPECT_EQ(analyses.builds().integer_ranges, 0u);
  EXPECT_EQ(analyses.builds().uniformity, 1u);
  EXPECT_EQ(analyses.builds().convergence, 1u);
  // Hoisting kept the CFGs; uniformity reused them.
  EXPECT_EQ(analyses.builds().cfg, module.functions.size());
}

// Robust access computes the uniformity results before its clamps when the uniformity
// pass follows (robust_access.cpp, UniformityBeforeChanges): the check shares the
// def-use, value flow and ranges built for the decisions, and what it reports is what
// the analysis finds on the clamped module from scratch. Each shader warns and has
// clamps (buffer, shared and local indices; image coordinates, levels and samples).
struct ClampedShader {
  const char* stage;
  const char* source;
};

class RobustAccessThenUniformity : public ::testing::TestWithParam<ClampedShader> {};

TEST_P(RobustAccessThenUniformity, ComputedOnceBeforeTheClampsAndTrueAfterThem) {
  std::string error;
  std::optional<Module> parsed =
      ParseModule(test::CompileGlsl(GetParam().source, GetParam().stage), &error);
  ASSERT_TRUE(parsed) << error;
  Module module = std::move(*parsed);
  for (RangeAnalysisMode mode : {RangeAnalysisMode::kReference, RangeAnalysisMode::kFull}) {
    SCOPED_TRACE(static_cast<int>(mode));
    Module clamped = module;
    Options options;
    options.robust_access = options.collect_ranges = true;
    options.range_analysis = mode;
    Report report;
    AnalysisContext analyses(clamped);
    PassContext context{options, &report, &analyses};
    PassResult result = RunPipeline(clamped, context);
    ASSERT_NE(result.status, PassStatus::kFailed) << result.message;
    EXPECT_EQ(result.status, PassStatus::kChanged);
    EXPECT_EQ(analyses.builds().uniformity, 1u);
    EXPECT_EQ(analyses.builds().def_use, 1u) << "the check rebuilt def-use after the clamps";
    const UniformityResult& ahead = analyses.GetUniformity();
    // The same analysis on the clamped module, from nothing.
    AnalysisContext fresh(clamped);
    const UniformityResult& after = fresh.GetUniformity();
    ASSERT_FALSE(after.findings.empty());
    ASSERT_EQ(ahead.findings.size(), after.findings.size());
    EXPECT_EQ(ahead.refusal, after.refusal);
    for (size_t i = 0; i < after.findings.size(); ++i) {
      const UniformityFinding& a = ahead.findings[i];
      const UniformityFinding& b = after.findings[i];
      EXPECT_EQ(a.instruction, b.instruction);
      EXPECT_EQ(a.message, b.message);
      EXPECT_EQ(a.rule, b.rule);
      EXPECT_EQ(a.reasons, b.reasons);
      EXPECT_EQ(a.location.line, b.location.line);
      EXPECT_EQ(a.triggers, b.triggers);
      ASSERT_EQ(a.reason_locations.size(), b.reason_locations.size());
      for (size_t r = 0; r < a.reason_locations.size(); ++r)
        EXPECT_EQ(a.reason_locations[r].line, b.reason_locations[r].line);
    }
    size_t warnings = 0;
    for (const Diagnostic& diagnostic : report.diagnostics)
      warnings += diagnostic.origin == "uniformity" && diagnostic.severity == Severity::kWarning;
    EXPECT_EQ(warnings, after.findings.size());
    EXPECT_EQ(test::ValidateFor(clamped.Encode(), TargetEnv::kVulkan11), "");
  }
}

INSTANTIATE_TEST_SUITE_P(Shaders, RobustAccessThenUniformity,
                         ::testing::Values(ClampedShader{"comp", R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint n; uint keys[]; };
shared float tile[64];
void main() {
  uint i = keys[gl_LocalInvocationID.x] % 97u;
  float local_table[8];
  for (int k = 0; k < 8; ++k) local_table[k] = float(k);
  tile[i] = local_table[keys[i] & 15u];
  if (keys[i] > n) {
    barrier();
    keys[i + 1u] = uint(tile[keys[i]]);
  }
})"},
                                           ClampedShader{"frag", R"(#version 450
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) uniform sampler2DMS ms;
layout(binding = 2, rgba8) uniform readonly image2D img;
layout(location = 0) flat in ivec2 texel;
layout(location = 1) in vec2 uv;
layout(location = 2) flat in int level;
layout(location = 0) out vec4 color;
void main() {
  vec4 fetched = texelFetch(tex, texel, level) + texelFetch(ms, texel, level) +
                 imageLoad(img, texel + ivec2(level));
  color = fetched;
  if (fetched.x > uv.x) color += texture(tex, uv);
})"}));

}  // namespace
}  // namespace glint::spirv
