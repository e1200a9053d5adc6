// Tests of the call contexts' shared state (SPIRV/analysis/uniformity/call_contexts.h):
// a kept result is found again only for equal inputs and its own key, each key keeps
// its latest kResultsPerKey results, the run budget refuses once it is spent, and the
// contexts' value-level tables are reused.
#include <gtest/gtest.h>

#include "SPIRV/analysis/uniformity/call_contexts.h"

namespace glint::spirv::uniformity_detail {
namespace {

CallContexts::Inputs InputsWith(Divergence argument, int depth = 0) {
  CallContexts::Inputs inputs;
  inputs.depth = depth;
  inputs.arguments = {argument};
  inputs.alias_lists = {CallContexts::kCallerLocal, 0};
  inputs.memory = {Divergence::kUniform};
  return inputs;
}

TEST(CallContexts, FindsAResultOnlyForEqualInputsAndItsKey) {
  CallContexts contexts;
  Instruction call(spv::OpFunctionCall, 1, 2, {3}), other(spv::OpFunctionCall, 1, 4, {3});
  EXPECT_FALSE(contexts.Known(&call, InputsWith(Divergence::kUniform)));
  contexts.Keep(&call, InputsWith(Divergence::kUniform), Divergence::kSubgroupUniform);
  EXPECT_EQ(contexts.Known(&call, InputsWith(Divergence::kUniform)),
            Divergence::kSubgroupUniform);
  EXPECT_FALSE(contexts.Known(&call, InputsWith(Divergence::kDivergent)));
  EXPECT_FALSE(contexts.Known(&call, InputsWith(Divergence::kUniform, 2)));  // another depth
  EXPECT_FALSE(contexts.Known(&other, InputsWith(Divergence::kUniform)));
  CallContexts::Inputs other_memory = InputsWith(Divergence::kUniform);
  other_memory.memory = {Divergence::kDivergent};
  EXPECT_FALSE(contexts.Known(&call, other_memory));
}

TEST(CallContexts, KeepsTheLatestResultsPerKey) {
  CallContexts contexts;
  Instruction call(spv::OpFunctionCall, 1, 2, {3});
  const int kept = int(CallContexts::kResultsPerKey);
  for (int depth = 0; depth <= kept; ++depth)
    contexts.Keep(&call, InputsWith(Divergence::kUniform, depth), Divergence::kDivergent);
  EXPECT_FALSE(contexts.Known(&call, InputsWith(Divergence::kUniform, 0)));  // the oldest
  for (int depth = 1; depth <= kept; ++depth)
    EXPECT_TRUE(contexts.Known(&call, InputsWith(Divergence::kUniform, depth))) << depth;
}

// A context's table of value levels is all uniform and as long as the bound; one given
// back is the next one taken (its storage reused, not cleared again), and tables taken
// together are distinct.
TEST(CallContexts, ReusesTheValueLevelTablesGivenBack) {
  CallContexts contexts;
  std::vector<Divergence> first = contexts.TakeUniformLevels(100);
  ASSERT_EQ(first.size(), 100u);
  for (Divergence level : first) EXPECT_EQ(level, Divergence::kUniform);
  std::vector<Divergence> second = contexts.TakeUniformLevels(100);
  EXPECT_NE(first.data(), second.data());
  const Divergence* storage = first.data();
  contexts.GiveBackUniformLevels(std::move(first));
  std::vector<Divergence> again = contexts.TakeUniformLevels(100);
  EXPECT_EQ(again.data(), storage);
  EXPECT_EQ(again.size(), 100u);
}

TEST(CallContexts, RefusesRunsPastTheBudgetAndCountsRounds) {
  CallContexts contexts;
  for (uint32_t run = 0; run < kContextRunBudget; ++run) ASSERT_TRUE(contexts.StartRun()) << run;
  EXPECT_FALSE(contexts.StartRun());
  EXPECT_EQ(contexts.runs(), kContextRunBudget);
  contexts.Ran(3);
  contexts.Ran(7);
  contexts.Ran(5);
  EXPECT_EQ(contexts.most_rounds(), 7u);
}

}  // namespace
}  // namespace glint::spirv::uniformity_detail
