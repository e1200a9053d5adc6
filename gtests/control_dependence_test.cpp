// Tests of the one control-dependence rule (SPIRV/analysis/facts/control_dependence.h): what a
// branch is, which blocks depend on it through which successor, and where the walk stops.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <utility>

#include "SPIRV/analysis/facts/control_dependence.h"
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
OpBranch %switch_block
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

}  // namespace
}  // namespace glint::spirv
