// Tests of LoopShapes (SPIRV/analysis/facts/loop_shapes.h), asked directly: the for-loop shape
// around a variable (direction, step, normalized bound, initializer, body) or the first
// part that differs, the loop a header declares, and a function's natural loops.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/ir/parser.h"
#include "support/module_queries.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

Module Compile(const std::string& body) {
  return test::CompileModule(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint n; uint data[]; };
void main() {
)" + body + "}\n",
                             "comp");
}

// The local named `name` (glslang names locals with OpName; no global here shares one).
uint32_t Local(const Module& module, const std::string& name) {
  return test::VariableNamed(module, name);
}

uint64_t ConstantOf(AnalysisContext& analyses, uint32_t id) {
  uint64_t value = 0;
  EXPECT_TRUE(analyses.GetDefUse().IntConstant(id, &value)) << "%" << id;
  return value;
}

TEST(LoopShapes, IncreasingForLoop) {
  Module module = Compile("  for (uint i = 2u; i < 10u; i += 3u) data[i] = 0u;\n");
  AnalysisContext analyses(module);
  const LoopShape& shape = analyses.GetLoopShapes().ForLoopOf(Local(module, "i"));
  ASSERT_TRUE(shape.ok) << shape.reason;
  EXPECT_FALSE(shape.is_signed);
  EXPECT_TRUE(shape.increasing);
  EXPECT_EQ(shape.step, 3);
  EXPECT_EQ(shape.bound, 9);  // i < 10 is i <= 9
  EXPECT_EQ(ConstantOf(analyses, shape.init_value), 2u);
  ASSERT_NE(shape.body, nullptr);
  EXPECT_EQ(shape.function, &module.functions.front());
  // Memoized: one object per variable.
  EXPECT_EQ(&analyses.GetLoopShapes().ForLoopOf(Local(module, "i")), &shape);
}

TEST(LoopShapes, DecreasingForLoop) {
  Module module = Compile("  for (int i = 9; i > 0; --i) data[i] = 0u;\n");
  AnalysisContext analyses(module);
  const LoopShape& shape = analyses.GetLoopShapes().ForLoopOf(Local(module, "i"));
  ASSERT_TRUE(shape.ok) << shape.reason;
  EXPECT_TRUE(shape.is_signed);
  EXPECT_FALSE(shape.increasing);
  EXPECT_EQ(shape.step, 1);
  EXPECT_EQ(shape.bound, 1);  // i > 0 is i >= 1
}

TEST(LoopShapes, EachRefusalNamesThePartThatDiffers) {
  struct Case {
    const char* body;
    const char* reason;
  } cases[] = {
      {"  for (uint i = 0u; i < n; ++i) data[i] = 0u;\n", "loop bound is not a constant"},
      {"  for (uint i = 0u; i <= 4294967295u; ++i) data[i] = 0u;\n",
       "loop condition is always true, so the loop variable can wrap"},
      {"  for (uint i = 0u; i < 8u; i += n) data[i] = 0u;\n", "loop step is not a constant"},
      {"  for (uint i = 8u; i > 0u; ++i) data[i] = 0u;\n",
       "loop direction does not match the comparison (increasing variable compared with > or "
       ">=)"},
      {"  for (uint i = 0u; i < 8u; ++i) { data[i] = 0u; i = i + 1u; }\n",
       "loop variable is stored outside its initializer and continuing block"},
      {"  uint i = n; data[i] = 0u;\n",
       "load from a local variable that is not a for-loop control variable (no update in a "
       "continuing block)"},
  };
  for (const Case& c : cases) {
    Module module = Compile(c.body);
    AnalysisContext analyses(module);
    const LoopShape& shape = analyses.GetLoopShapes().ForLoopOf(Local(module, "i"));
    EXPECT_FALSE(shape.ok) << c.body;
    EXPECT_EQ(shape.reason, c.reason) << c.body;
  }
}

TEST(LoopShapes, NaturalLoopsNestAndHeadersDeclareTheirForLoops) {
  Module module = Compile(R"(  for (uint i = 0u; i < 4u; ++i)
    for (uint j = 0u; j < 8u; ++j) data[i * 8u + j] = 0u;
  uint k = 0u;
  while (data[k] != 0u) k = k + 1u;
)");
  AnalysisContext analyses(module);
  LoopShapes& loops = analyses.GetLoopShapes();
  Function& main = module.functions.front();
  std::string why;
  const std::vector<NaturalLoop>& natural = loops.NaturalLoopsOf(main, &why);
  EXPECT_EQ(why, "");
  ASSERT_EQ(natural.size(), 3u);
  // Which loop is which: the one whose header declares i's for-loop, j's, and neither.
  const Cfg& cfg = analyses.GetCfg(main);
  const LoopShape* i_loop = &loops.ForLoopOf(Local(module, "i"));
  const LoopShape* j_loop = &loops.ForLoopOf(Local(module, "j"));
  const NaturalLoop *outer = nullptr, *inner = nullptr, *other = nullptr;
  for (const NaturalLoop& loop : natural) {
    const LoopShape* declared = loops.ForLoopAt(cfg, loop.header);
    (declared == i_loop ? outer : declared == j_loop ? inner : other) = &loop;
  }
  ASSERT_TRUE(outer && inner && other);
  EXPECT_EQ(loops.ForLoopAt(cfg, other->header), nullptr);  // k is not a for-loop variable
  EXPECT_GT(outer->blocks.size(), inner->blocks.size());
  for (const Block* block : inner->blocks) EXPECT_TRUE(outer->blocks.count(block));
  for (const Block* block : other->blocks) EXPECT_FALSE(outer->blocks.count(block));
  EXPECT_TRUE(outer->blocks.count(i_loop->body));
  EXPECT_TRUE(inner->blocks.count(j_loop->body));
  EXPECT_FALSE(inner->blocks.count(i_loop->body));
  // InSomeNaturalLoop: exactly the blocks of some loop (the entry block is in none).
  for (const Block& block : main.blocks)
    EXPECT_EQ(loops.InSomeNaturalLoop(&block),
              outer->blocks.count(&block) || other->blocks.count(&block));
  EXPECT_FALSE(loops.InSomeNaturalLoop(&main.blocks.front()));
  std::vector<const Instruction*> stores;
  EXPECT_TRUE(loops.StoresOf(Local(module, "k"), &stores, &why));
  EXPECT_EQ(stores.size(), 2u);
  EXPECT_EQ(analyses.builds().loop_shapes, 1u);
}

// A back edge to a block that declares no loop (not structured; glslang never emits it).
TEST(LoopShapes, BackEdgeToAnUndeclaredLoopIsRefused) {
  std::optional<Module> module = test::AssembleModule(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%bool = OpTypeBool
%true = OpConstantTrue %bool
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %again
%again = OpLabel
OpBranchConditional %true %again %done
%done = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(module);
  AnalysisContext analyses(*module);
  std::string why;
  EXPECT_TRUE(analyses.GetLoopShapes().NaturalLoopsOf(module->functions.front(), &why).empty());
  EXPECT_EQ(why, "a back edge targets a block that declares no loop");
  why.clear();  // asked again: the same refusal, from the memo
  analyses.GetLoopShapes().NaturalLoopsOf(module->functions.front(), &why);
  EXPECT_EQ(why, "a back edge targets a block that declares no loop");
  for (const Block& block : module->functions.front().blocks)  // refused: in no loop
    EXPECT_FALSE(analyses.GetLoopShapes().InSomeNaturalLoop(&block));
}

}  // namespace
}  // namespace glint::spirv
