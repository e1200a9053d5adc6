// NestedEvaluations (SPIRV/analysis/range/integer_range_nesting.h): a scope refuses what is
// already in progress and what would nest past its budget, says which, and leaves on
// every path out. OperandSubstitutions: a re-evaluation's operand ranges, innermost
// first.
#include "SPIRV/analysis/range/integer_range_nesting.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <vector>

namespace glint::spirv {
namespace {

using Refusal = NestedEvaluations::Refusal;

TEST(NestedEvaluations, AValueInProgressIsRefusedUntilItsScopeEnds) {
  NestedEvaluations nested({8, 8});
  {
    NestedEvaluations::Scope outer = nested.Value(7);
    ASSERT_TRUE(outer.entered());
    NestedEvaluations::Scope again = nested.Value(7);
    EXPECT_EQ(Refusal::kAlreadyInProgress, again.refusal());
    EXPECT_TRUE(nested.Value(8).entered());  // another value may start meanwhile
  }
  EXPECT_TRUE(nested.Idle());
  EXPECT_TRUE(nested.Value(7).entered());
}

TEST(NestedEvaluations, FixedPointsRefuseTheirOwnVariableAndShareTheWideningDepth) {
  NestedEvaluations nested({2, 8});
  std::optional<NestedEvaluations::Scope> first(nested.FixedPoint(100));
  ASSERT_TRUE(first->entered());
  EXPECT_EQ(Refusal::kAlreadyInProgress, nested.FixedPoint(100).refusal());
  {
    NestedEvaluations::Scope widening = nested.Widening();  // depth 2 of 2
    ASSERT_TRUE(widening.entered());
    EXPECT_EQ(Refusal::kTooDeep, nested.FixedPoint(101).refusal());
    EXPECT_EQ(Refusal::kTooDeep, nested.Widening().refusal());
  }
  EXPECT_TRUE(nested.FixedPoint(101).entered());
  first.reset();
  EXPECT_TRUE(nested.Idle());
}

TEST(NestedEvaluations, CalleesRefuseRecursionBeforeDepth) {
  NestedEvaluations nested({8, 1});
  Function a, b;
  NestedEvaluations::Scope outer = nested.Callee(&a);
  ASSERT_TRUE(outer.entered());
  EXPECT_TRUE(nested.Following(&a));
  EXPECT_FALSE(nested.Following(&b));
  EXPECT_EQ(Refusal::kAlreadyInProgress, nested.Callee(&a).refusal());  // not kTooDeep
  EXPECT_EQ(Refusal::kTooDeep, nested.Callee(&b).refusal());
  EXPECT_FALSE(nested.Following(&b));  // a refused scope holds nothing
}

TEST(NestedEvaluations, AMovedScopeLeavesOnce) {
  NestedEvaluations nested({8, 8});
  {
    NestedEvaluations::Scope first = nested.Value(3);
    NestedEvaluations::Scope moved(std::move(first));
    EXPECT_TRUE(moved.entered());
    EXPECT_EQ(Refusal::kAlreadyInProgress, nested.Value(3).refusal());
  }
  EXPECT_TRUE(nested.Idle());
}

TEST(OperandSubstitutions, AnInnerSetHidesTheOuterUntilItEnds) {
  OperandSubstitutions<int> substituted;
  EXPECT_EQ(substituted.Find(7), nullptr);  // none open: the memo answers
  {
    auto outer = substituted.Open();
    OperandSubstitutions<int>::Set& outer_set = outer.set();
    outer_set[7] = 70;
    {
      auto inner = substituted.Open();
      EXPECT_EQ(substituted.Find(7), nullptr) << "an inner re-evaluation starts empty";
      inner.set()[7] = 71;
      // Many sets open at once (more than a vector would keep in place).
      std::vector<std::unique_ptr<OperandSubstitutions<int>::Scope>> deeper;
      for (uint32_t id = 100; id < 200; ++id) {
        deeper.push_back(std::make_unique<OperandSubstitutions<int>::Scope>(substituted));
        deeper.back()->set()[id] = int(id);
      }
      EXPECT_EQ(substituted.Find(7), nullptr);
      EXPECT_EQ(*substituted.Find(199), 199);
      while (!deeper.empty()) deeper.pop_back();
      ASSERT_NE(substituted.Find(7), nullptr);
      EXPECT_EQ(*substituted.Find(7), 71);
    }
    {
      auto reused = substituted.Open();  // takes the ended inner scope's set, emptied
      EXPECT_EQ(substituted.Find(7), nullptr);
      EXPECT_EQ(reused.set().count(7), 0u);
    }
    outer_set[8] = 80;  // the outer set's reference stayed valid
    ASSERT_NE(substituted.Find(7), nullptr);
    EXPECT_EQ(*substituted.Find(7), 70);
    EXPECT_EQ(*substituted.Find(8), 80);
  }
  EXPECT_TRUE(substituted.Idle());
  EXPECT_EQ(substituted.Find(7), nullptr);
}

}  // namespace
}  // namespace glint::spirv
