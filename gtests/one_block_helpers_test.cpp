// Tests of the one-block helper rule (SPIRV/analysis/uniformity/one_block_helpers.h),
// asked directly after the entry point's fixed point: a call of a one-block helper is as
// uniform as what it reads at that call, whatever its other calls pass; a callee with a
// store, or of more than one block, is left to the other rule (nullopt).
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/uniformity/one_block_helpers.h"
#include "SPIRV/ir/instruction_views.h"
#include "support/module_queries.h"

namespace glint::spirv::uniformity_detail {
namespace {

const char kShader[] = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(push_constant) uniform P { uint n; } pc;
uint twice(uint x) { return x * 2u; }
uint stored(uint x) { data[0] = x; return x; }
uint branchy(uint x) { if (x > 3u) return 1u; return 2u; }
void main() {
  uint a = twice(pc.n);
  uint b = twice(gl_LocalInvocationIndex);
  uint c = stored(pc.n);
  uint d = branchy(pc.n);
  data[a + b + c + d] = 1u;
}
)";

TEST(OneBlockHelpers, EachCallIsAsUniformAsWhatItReads) {
  Module module = test::CompileModule(kShader, "comp");
  ASSERT_FALSE(module.entry_points.empty());
  AnalysisContext analyses(module);
  std::unique_ptr<ModuleFacts> facts =
      CollectModuleFacts(module, analyses.GetUniformityInputs(), /*findings_only=*/false);
  UniformityOptions options;
  options.every_fact = true;
  UniformitySolver solver(*facts, module.entry_points.front(), options);
  uint32_t rounds = 0;
  ASSERT_EQ(solver.Run(&rounds), "");
  std::vector<std::optional<Fact>> results;
  const Function* first_callee = nullptr;
  for (const Function& function : module.functions)
    for (const Block& block : function.blocks)
      for (const Instruction& inst : block.instructions) {
        if (inst.opcode != spv::OpFunctionCall) continue;
        const Function* callee = facts->calls.FunctionById(FunctionCallView(inst).callee());
        ASSERT_NE(callee, nullptr);
        results.push_back(OneBlockHelperResult(solver, nullptr, *callee, block, inst));
        if (!first_callee) first_callee = callee;
      }
  ASSERT_EQ(results.size(), 4u);  // twice, twice, stored, branchy, in main's order
  ASSERT_TRUE(results[0]);
  EXPECT_EQ(results[0]->level, Divergence::kUniform);
  ASSERT_TRUE(results[1]);
  EXPECT_EQ(results[1]->level, Divergence::kDivergent);
  EXPECT_FALSE(results[2]) << "a helper with a store is not one this rule evaluates";
  EXPECT_FALSE(results[3]) << "a helper of several blocks is not one this rule evaluates";
  // The fixed point itself joins every call site's argument: the parameter diverges.
  const Function* twice = first_callee;
  ASSERT_NE(twice, nullptr);
  ASSERT_FALSE(twice->parameters.empty());
  EXPECT_EQ(solver.MemoryFact(twice->parameters.front().result_id).level, Divergence::kDivergent);
}

}  // namespace
}  // namespace glint::spirv::uniformity_detail
