// Tests of LoopShapes::ExitCounterOf (SPIRV/analysis/facts/loop_exit_counters.cpp), asked
// directly: the counter a loop's top test reads, its one update, its step and the
// relation that keeps the body running, or the first part that differs. Stepped
// counters (SteppedCounterOf) are the same shape with any step.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/ir/instruction_views.h"
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

// The exit counter of the outermost loop of main (the first in reverse post-order).
const ExitCounter& OuterCounter(AnalysisContext& analyses, Module& module) {
  Function& main = module.functions.front();
  std::string why;
  const std::vector<NaturalLoop>& loops = analyses.GetLoopShapes().NaturalLoopsOf(main, &why);
  EXPECT_EQ(why, "");
  EXPECT_FALSE(loops.empty());
  return analyses.GetLoopShapes().ExitCounterOf(analyses.GetCfg(main), loops.front());
}

TEST(LoopExitCounters, WhileLoopSteppedInItsBody) {
  Module module =
      Compile("  uint i = 0u, j = 0u;\n  while (j < n) { data[i] = 0u; i++; j += 2u; }\n");
  AnalysisContext analyses(module);
  const ExitCounter& counter = OuterCounter(analyses, module);
  ASSERT_TRUE(counter.ok) << counter.reason;
  EXPECT_EQ(counter.variable, test::VariableNamed(module, "j"));
  EXPECT_FALSE(counter.is_signed);
  EXPECT_EQ(counter.step, 2);
  EXPECT_EQ(counter.relation, Relation::kLess);
  ASSERT_NE(counter.test_load, nullptr);
  EXPECT_EQ(LoadView(*counter.test_load).pointer(), counter.variable);
  ASSERT_NE(counter.update, nullptr);
  EXPECT_EQ(StoreView(*counter.update).pointer(), counter.variable);
  // The bound is the load of the buffer's n, not a constant.
  const Instruction* bound = analyses.GetDefUse().Definition(counter.bound);
  ASSERT_NE(bound, nullptr);
  EXPECT_EQ(bound->opcode, spv::OpLoad);
  // Memoized per loop.
  EXPECT_EQ(&OuterCounter(analyses, module), &counter);
}

TEST(LoopExitCounters, DecreasingCounterOnTheRightOfTheTest) {
  Module module = Compile("  int j = 9;\n  while (2 < j) { data[j] = 0u; j -= 3; }\n");
  AnalysisContext analyses(module);
  const ExitCounter& counter = OuterCounter(analyses, module);
  ASSERT_TRUE(counter.ok) << counter.reason;
  EXPECT_TRUE(counter.is_signed);
  EXPECT_EQ(counter.step, -3);
  EXPECT_EQ(counter.relation, Relation::kGreater);  // 2 < j is j > 2
}

TEST(LoopExitCounters, ForLoopWithAConstantBoundHasOneToo) {
  Module module = Compile("  for (uint k = 0u; k < 8u; ++k) data[k] = 0u;\n");
  AnalysisContext analyses(module);
  const ExitCounter& counter = OuterCounter(analyses, module);
  ASSERT_TRUE(counter.ok) << counter.reason;
  EXPECT_EQ(counter.variable, test::VariableNamed(module, "k"));
  EXPECT_EQ(counter.step, 1);
  EXPECT_EQ(counter.relation, Relation::kLess);
}

TEST(LoopExitCounters, CounterComparedThroughAReinterpretation) {
  Module module = Compile("  int j = 0;\n  while (uint(j) < n) { data[j] = 0u; j++; }\n");
  AnalysisContext analyses(module);
  const ExitCounter& counter = OuterCounter(analyses, module);
  ASSERT_TRUE(counter.ok) << counter.reason;
  EXPECT_EQ(counter.variable, test::VariableNamed(module, "j"));
  EXPECT_TRUE(counter.reinterpreted);
  EXPECT_FALSE(counter.is_signed);  // the comparison's reading, not j's
  EXPECT_EQ(counter.step, 1);
}

TEST(LoopExitCounters, EachRefusalNamesThePartThatDiffers) {
  struct Case {
    const char* body;
    const char* reason;
  } cases[] = {
      {"  uint j = 0u;\n  do { data[j] = 0u; j++; } while (j < n);\n",
       "loop is not tested at its top"},
      {"  uint j = 0u;\n  while (data[j] != 0u) j++;\n",
       "loop's test is not <, <=, > or >= between two values"},
      {"  uint j = 0u;\n  while ((j = j + 1u) < n) data[j] = 0u;\n",
       "loop's test block stores to memory"},
      {"  uint j = 0u;\n  while (j < n) { data[j] = 0u; j++; if (data[0] == 1u) j = 0u; }\n",
       "loop's counter is stored more than once in the loop"},
      {"  uint j = 0u;\n  while (j < n) { if (data[j] == 0u) { j++; continue; } data[j] = 1u; "
       "j++; }\n",
       "loop's counter is stored more than once in the loop"},
      {"  uint j = 0u;\n  while (j < n) { data[j] = 0u; if (data[1] == 0u) continue; j++; }\n",
       "loop's counter is not stepped on every path back to the loop's top"},
      {"  uint j = 0u;\n  while (j < n) { for (uint k = 0u; k < 2u; k++) j++; }\n",
       "loop's counter is not stepped on every path back to the loop's top"},
      // A do-while's body dominates the outer latch, but runs more than once.
      {"  uint j = 0u;\n  while (j < n) { uint k = 0u; do { j++; k++; } while (k < 2u); }\n",
       "loop's counter is stepped in a nested loop"},
      {"  uint j = 1u;\n  while (j < n) { data[j] = 0u; j = j * 2u; }\n",
       "loop's counter is not stepped by adding or subtracting a constant"},
      {"  uint j = 1u;\n  while (j < n) { data[j] = 0u; j = j + n; }\n",
       "loop's counter is not stepped by adding or subtracting a constant"},
      {"  uint j = 0u;\n  while (j < n) { data[j] = 0u; j = 10u - j; }\n",
       "loop's counter is not stepped by adding or subtracting a constant"},
      {"  uint j = 0u;\n  while (j < n) data[j] = 0u;\n",
       "loop's counter is not stored in the loop"},
      // The bits of a float compared as an integer: not a counter.
      {"  float f = 0.0;\n  while (floatBitsToUint(f) < n) { data[0] = 0u; f += 1.0; }\n",
       "loop's counter is not a local of the comparison's 32-bit integer type"},
  };
  for (const Case& c : cases) {
    Module module = Compile(c.body);
    AnalysisContext analyses(module);
    const ExitCounter& counter = OuterCounter(analyses, module);
    EXPECT_FALSE(counter.ok) << c.body;
    EXPECT_EQ(counter.reason, c.reason) << c.body;
  }
}

// A step that is a value, not a constant: no exit counter, but a stepped counter, which
// names the value and whether it is subtracted.
TEST(LoopExitCounters, SteppedCounterTakesAnyStep) {
  for (const char* op : {"+", "-"}) {
    Module module = Compile(std::string("  uint j = 0u;\n  while (j < n) { data[j] = 0u; j = j ") +
                            op + " n; }\n");
    AnalysisContext analyses(module);
    Function& main = module.functions.front();
    std::string why;
    const std::vector<NaturalLoop>& loops = analyses.GetLoopShapes().NaturalLoopsOf(main, &why);
    ASSERT_EQ(loops.size(), 1u) << why;
    const Cfg& cfg = analyses.GetCfg(main);
    const ExitCounter& exit = analyses.GetLoopShapes().ExitCounterOf(cfg, loops.front());
    EXPECT_FALSE(exit.ok);
    EXPECT_EQ(exit.reason, "loop's counter is not stepped by adding or subtracting a constant");
    const ExitCounter& stepped = analyses.GetLoopShapes().SteppedCounterOf(cfg, loops.front());
    ASSERT_TRUE(stepped.ok) << stepped.reason;
    EXPECT_EQ(stepped.variable, test::VariableNamed(module, "j"));
    EXPECT_EQ(stepped.step, 0);
    EXPECT_EQ(stepped.step_subtracts, std::string(op) == "-");
    const Instruction* step = analyses.GetDefUse().Definition(stepped.step_value);
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(step->opcode, spv::OpLoad);  // of the buffer's n
  }
  // A constant step is kept as the exit counter keeps it; a multiplication is no step.
  Module module = Compile("  uint j = 1u;\n  while (j < n) { data[j] = 0u; j = j * 2u; }\n");
  AnalysisContext analyses(module);
  Function& main = module.functions.front();
  std::string why;
  const std::vector<NaturalLoop>& loops = analyses.GetLoopShapes().NaturalLoopsOf(main, &why);
  ASSERT_EQ(loops.size(), 1u) << why;
  const ExitCounter& stepped =
      analyses.GetLoopShapes().SteppedCounterOf(analyses.GetCfg(main), loops.front());
  EXPECT_FALSE(stepped.ok);
  EXPECT_EQ(stepped.reason, "loop's counter is not stepped by adding or subtracting a value");
}

}  // namespace
}  // namespace glint::spirv
