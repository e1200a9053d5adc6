// Tests of the one control-dependence rule (SPIRV/analysis/facts/control_dependence.h): what a
// branch is, which blocks depend on it through which successor, and where the walk stops.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "SPIRV/analysis/facts/control_dependence.h"
#include "SPIRV/analysis/uniformity/uniformity_internal.h"
#include "SPIRV/ir/cfg.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

const char kModule[] = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %entry "entry"
OpName %then "then"
OpName %else "else"
OpName %join "join"
OpName %same "same"
OpName %after_same "after_same"
OpName %switch_block "switch_block"
OpName %case_a "case_a"
OpName %merge "merge"
OpName %spin_test "spin_test"
OpName %spin "spin"
OpName %out "out"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%true = OpConstantTrue %bool
%u0 = OpConstant %uint 0
%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %join None
OpBranchConditional %true %then %else
%then = OpLabel
OpBranch %join
%else = OpLabel
OpBranch %join
%join = OpLabel
OpSelectionMerge %after_same None
OpBranchConditional %true %same %same
%same = OpLabel
OpBranch %after_same
%after_same = OpLabel
OpSelectionMerge %switch_block None
OpSwitch %u0 %switch_block 1 %switch_block 2 %switch_block
%switch_block = OpLabel
OpSelectionMerge %merge None
OpSwitch %u0 %merge 1 %case_a 2 %case_a
%case_a = OpLabel
OpBranch %merge
%merge = OpLabel
OpSelectionMerge %out None
OpBranchConditional %true %spin_test %out
%spin_test = OpLabel
OpLoopMerge %out %spin None
OpBranch %spin
%spin = OpLabel
OpBranch %spin_test
%out = OpLabel
OpReturn
OpFunctionEnd
)";

class ControlDependenceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    module_ = test::AssembleModule(kModule);
    ASSERT_TRUE(module_);
    cfg_.emplace(module_->functions.front());
  }
  const Block* Named(const std::string& name) const {
    const Block* block = cfg_->BlockById(test::IdNamed(*module_, name));
    EXPECT_NE(block, nullptr) << name;
    return block;
  }
  std::string NameOf(const Block* block) const { return module_->NameOf(block->id()); }
  // (successor, dependent) pairs, by name.
  std::set<std::pair<std::string, std::string>> Dependents(const std::string& branch) const {
    std::set<std::pair<std::string, std::string>> found;
    ForEachControlDependent(*cfg_, Named(branch), [&](const Block* successor, const Block* dependent) {
      found.insert({NameOf(successor), NameOf(dependent)});
    });
    return found;
  }

  std::optional<Module> module_;
  std::optional<Cfg> cfg_;
};

TEST_F(ControlDependenceTest, EachArmDependsOnItsBranchUpToTheJoin) {
  EXPECT_TRUE(HasDistinctTargets(*Named("entry")));
  EXPECT_EQ(Dependents("entry"), (std::set<std::pair<std::string, std::string>>{
                                     {"then", "then"}, {"else", "else"}}));
}

TEST_F(ControlDependenceTest, ABranchToOneTargetTwiceDecidesNothing) {
  EXPECT_FALSE(HasDistinctTargets(*Named("join")));
  EXPECT_TRUE(Dependents("join").empty());
  EXPECT_FALSE(HasDistinctTargets(*Named("then")));  // an unconditional branch
  EXPECT_TRUE(Dependents("then").empty());
}

TEST_F(ControlDependenceTest, ASwitchWhoseCasesAreAllItsDefaultDecidesNothing) {
  EXPECT_FALSE(HasDistinctTargets(*Named("after_same")));
  EXPECT_TRUE(Dependents("after_same").empty());
}

TEST_F(ControlDependenceTest, ASwitchArmReachedByTwoCasesIsOneDependent) {
  EXPECT_TRUE(HasDistinctTargets(*Named("switch_block")));
  EXPECT_EQ(Dependents("switch_block"),
            (std::set<std::pair<std::string, std::string>>{{"case_a", "case_a"}}));
}

// A successor that never reaches the exit has no post-dominator below the root: every
// block on its way depends on the branch.
TEST_F(ControlDependenceTest, ARegionThatNeverExitsDependsUpToTheRoot) {
  std::set<std::pair<std::string, std::string>> found = Dependents("merge");
  EXPECT_TRUE(found.count({"spin_test", "spin_test"}));
  EXPECT_FALSE(found.count({"out", "out"})) << "the exit post-dominates nothing it decides";
  for (const auto& [successor, dependent] : found) EXPECT_EQ(successor, "spin_test");
}

// The uniformity analysis's table of the same rule: each block's branches, each once,
// in reverse post-order; nothing for a block no branch decides or of another function.
TEST_F(ControlDependenceTest, TheTableListsEachBlocksBranchesOnce) {
  uniformity_detail::ControlDependence table(*cfg_);
  auto names = [&](const std::string& block) {
    std::vector<std::string> found;
    for (const Block* branch : table.ControllersOf(Named(block))) found.push_back(NameOf(branch));
    return found;
  };
  using Names = std::vector<std::string>;
  EXPECT_EQ(names("then"), Names{"entry"});
  EXPECT_EQ(names("else"), Names{"entry"});
  EXPECT_EQ(names("case_a"), Names{"switch_block"});
  EXPECT_EQ(names("spin_test"), Names{"merge"});
  EXPECT_TRUE(names("spin").empty()) << "beyond the walk: spin_test has no post-dominator";
  EXPECT_TRUE(names("join").empty());
  EXPECT_TRUE(names("same").empty()) << "a branch to one target twice decides nothing";
  EXPECT_TRUE(names("out").empty());
  Block outsider;
  EXPECT_TRUE(table.ControllersOf(&outsider).empty());
}

const char kLoopInBranchModule[] = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %outer "outer"
OpName %header "header"
OpName %body "body"
OpName %latch "latch"
OpName %loop_merge "loop_merge"
OpName %outer_join "outer_join"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%main = OpFunction %void None %fn
%outer = OpLabel
OpSelectionMerge %outer_join None
OpBranchConditional %true %header %outer_join
%header = OpLabel
OpLoopMerge %loop_merge %latch None
OpBranch %body
%body = OpLabel
OpBranch %latch
%latch = OpLabel
OpBranchConditional %true %header %loop_merge
%loop_merge = OpLabel
OpBranch %outer_join
%outer_join = OpLabel
OpReturn
OpFunctionEnd
)";

// A do-while loop's blocks inside a branch depend on that branch and on the loop's own
// latch: the earlier in reverse post-order (the branch) first. Control dependence is
// direct: the loop's merge depends on the branch only.
TEST(ControlDependenceTable, TwoBranchesInReversePostOrder) {
  std::optional<Module> module = test::AssembleModule(kLoopInBranchModule);
  ASSERT_TRUE(module);
  Cfg cfg(module->functions.front());
  uniformity_detail::ControlDependence table(cfg);
  auto names = [&](const char* block) {
    std::vector<std::string> found;
    for (const Block* branch : table.ControllersOf(cfg.BlockById(test::IdNamed(*module, block))))
      found.push_back(module->NameOf(branch->id()));
    return found;
  };
  using Names = std::vector<std::string>;
  EXPECT_EQ(names("header"), (Names{"outer", "latch"}));
  EXPECT_EQ(names("body"), (Names{"outer", "latch"}));
  EXPECT_EQ(names("latch"), (Names{"outer", "latch"}));
  EXPECT_EQ(names("loop_merge"), Names{"outer"});
  EXPECT_TRUE(names("outer").empty());
  EXPECT_TRUE(names("outer_join").empty());
}

}  // namespace
}  // namespace glint::spirv
