// Tests of GuardConditions (SPIRV/analysis/range/guard_conditions.h), asked directly: which
// comparisons the edge into a block proves, read from structure alone.
#include "SPIRV/analysis/range/guard_conditions.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "SPIRV/ir/instruction_views.h"
#include "support/range_parts.h"

namespace glint::spirv {
namespace {

// A module's guard conditions, with the parts they are built from.
class Conditions : public test::RangeParts {
 public:
  explicit Conditions(const std::string& source)
      : RangeParts(source), conditions_(def_use(), canonical()) {}

  const Cfg& cfg() { return MainCfg(); }
  // The conditions into the target of the first conditional branch on `test` (an
  // opcode), on its true or false edge.
  std::vector<GuardCondition> Into(spv::Op test, bool true_edge) {
    return conditions_.Into(cfg(), Target(test, true_edge));
  }
  std::vector<GuardCondition> IntoBlock(const Block* block) {
    return conditions_.Into(cfg(), block);
  }

 private:
  GuardConditions conditions_;
};

constexpr char kLessThan[] = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint i = data[0], n = data[1];
  if (i < n) data[i] = 1u; else data[2] = i;
})";

TEST(GuardConditions, AComparisonProvesItsRelationAndItsMirrorOnTheTrueEdge) {
  Conditions conditions(kLessThan);
  auto [i, n] = conditions.OperandsOf(spv::OpULessThan);
  const std::vector<GuardCondition> taken = conditions.Into(spv::OpULessThan, true);
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(taken[0].kind, GuardCondition::Kind::kCompare);
  EXPECT_EQ(taken[0].x, i);
  EXPECT_EQ(taken[0].y, n);
  EXPECT_EQ(taken[0].relation, Relation::kLess);
  EXPECT_FALSE(taken[0].is_signed);
  EXPECT_EQ(taken[1].x, n);
  EXPECT_EQ(taken[1].y, i);
  EXPECT_EQ(taken[1].relation, Relation::kGreater);
  EXPECT_TRUE(taken[0].defined_above.empty());
}

TEST(GuardConditions, TheFalseEdgeProvesTheNegation) {
  Conditions conditions(kLessThan);
  const std::vector<GuardCondition> not_taken = conditions.Into(spv::OpULessThan, false);
  ASSERT_EQ(not_taken.size(), 2u);
  EXPECT_EQ(not_taken[0].relation, Relation::kGreaterEqual);
  EXPECT_EQ(not_taken[1].relation, Relation::kLessEqual);
}

TEST(GuardConditions, AMergeReachedFromBothSidesProvesNothing) {
  Conditions conditions(kLessThan);
  const Block* merge = nullptr;
  for (const Block& block : conditions.module().functions.front().blocks)
    if (const Instruction* merge_instruction = block.MergeInstruction())
      merge = conditions.cfg().BlockById(merge_instruction->words[0]);
  ASSERT_NE(merge, nullptr);
  EXPECT_EQ(conditions.cfg().Predecessors(merge).size(), 2u);
  EXPECT_TRUE(conditions.IntoBlock(merge).empty());
}

TEST(GuardConditions, ShortCircuitAndHoldsBothTestsForValuesAboveTheFirst) {
  Conditions conditions(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint i = data[0];
  if (i < 8u && data[i] > 2u) data[i + 1u] = 1u;
})");
  // glslang's && with a right side that reads memory: a branch on i < 8, then a phi.
  const std::vector<GuardCondition> both = conditions.Into(spv::OpPhi, true);
  // i < 8 (and 8 > i) from the edge into the second test, data[i] > 2 (and 2 < data[i])
  // from the phi's one possible incoming; facts about data[i], loaded below the first
  // test, are dropped when drawn (range_guards_test).
  ASSERT_EQ(both.size(), 4u);
  EXPECT_EQ(both[0].relation, Relation::kLess);
  EXPECT_EQ(both[2].relation, Relation::kGreater);
  const Block* first_test = conditions.Branching(spv::OpULessThan);
  for (const GuardCondition& condition : both) {
    ASSERT_EQ(condition.defined_above.size(), 1u);
    EXPECT_EQ(condition.defined_above[0], first_test);
  }
  EXPECT_TRUE(conditions.Into(spv::OpPhi, false).empty()) << "a false && says nothing";
}

TEST(GuardConditions, ASwitchCaseIsAnEdgeOfItsSelector) {
  Conditions conditions(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint k = data[0];
  switch (k) {
    case 1u: data[k] = 1u; break;
    case 2u: data[k] = 2u; break;
    default: data[0] = 3u; break;
  }
})");
  const Block* with_switch = nullptr;
  for (const Block& block : conditions.module().functions.front().blocks)
    if (block.Terminator() && block.Terminator()->opcode == spv::OpSwitch) with_switch = &block;
  ASSERT_NE(with_switch, nullptr);
  SwitchView<const Instruction> view(*with_switch->Terminator());
  for (uint32_t label : {view.case_label(0), view.default_label()}) {
    const std::vector<GuardCondition> edge =
        conditions.IntoBlock(conditions.cfg().BlockById(label));
    ASSERT_EQ(edge.size(), 1u);
    EXPECT_EQ(edge[0].kind, GuardCondition::Kind::kSwitchEdge);
    EXPECT_EQ(edge[0].x, view.selector());
    EXPECT_EQ(edge[0].target->id(), label);
  }
}

TEST(GuardConditions, AllOfAVectorComparisonNamesEachComponentAgainstItsScalarBound) {
  Conditions conditions(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uvec2 p; uint data[]; };
void main() {
  uvec2 q = p;
  if (all(lessThan(q, uvec2(4u, 8u)))) data[q.x + q.y] = 1u;
})");
  const std::vector<GuardCondition> each = conditions.Into(spv::OpAll, true);
  // Per component: q[c] < bound (about q's component), and nothing about the constant
  // vector's side, whose other side has no scalar.
  ASSERT_EQ(each.size(), 2u);
  for (uint32_t c = 0; c < 2; ++c) {
    EXPECT_EQ(each[c].kind, GuardCondition::Kind::kComponentCompare);
    EXPECT_EQ(each[c].component, c);
    EXPECT_EQ(each[c].relation, Relation::kLess);
    int64_t bound = 0;
    ASSERT_TRUE(conditions.canonical().ConstantValue(each[c].y, &bound));
    EXPECT_EQ(bound, c == 0 ? 4 : 8);
  }
  EXPECT_TRUE(conditions.Into(spv::OpAll, false).empty()) << "some component failed: unknown";
}

}  // namespace
}  // namespace glint::spirv
