// Tests of PointerOrigins (SPIRV/analysis/memory/pointer_origins.h), asked directly on a small
// module: the root each kind of derivation reaches, the path from the root outwards,
// what ends a walk, and the budget.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "SPIRV/analysis/memory/pointer_origins.h"
#include "SPIRV/ir/def_use.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

const char kModule[] = R"(
OpCapability Shader
OpCapability VariablePointers
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %ssbo "ssbo"
OpName %local "local"
OpName %holder "holder"
OpName %i "i"
OpName %row "row"
OpName %cell "cell"
OpName %copied "copied"
OpName %step "step"
OpName %stepped_cell "stepped_cell"
OpName %local_cell "local_cell"
OpName %loaded "loaded"
OpName %loaded_cell "loaded_cell"
OpName %param "param"
OpName %param_cell "param_cell"
OpName %u0 "u0"
OpName %u1 "u1"
OpName %u2 "u2"
OpName %u3 "u3"
OpDecorate %arr ArrayStride 16
OpMemberDecorate %block 0 Offset 0
OpDecorate %block Block
OpDecorate %ssbo DescriptorSet 0
OpDecorate %ssbo Binding 0
OpDecorate %ptr_sb_v4 ArrayStride 16
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%v4 = OpTypeVector %uint 4
%arr = OpTypeArray %v4 %u4
%block = OpTypeStruct %arr
%ptr_sb_block = OpTypePointer StorageBuffer %block
%ptr_sb_v4 = OpTypePointer StorageBuffer %v4
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%ssbo = OpVariable %ptr_sb_block StorageBuffer
%ptr_fn_arr = OpTypePointer Function %arr
%ptr_fn_uint = OpTypePointer Function %uint
%ptr_fn_ptr = OpTypePointer Function %ptr_sb_uint
%helper_fn = OpTypeFunction %uint %ptr_fn_arr
%main = OpFunction %void None %fn
%entry = OpLabel
%local = OpVariable %ptr_fn_arr Function
%holder = OpVariable %ptr_fn_ptr Function
%first = OpAccessChain %ptr_sb_uint %ssbo %u0 %u0 %u0
%i = OpLoad %uint %first
%row = OpAccessChain %ptr_sb_v4 %ssbo %u0 %i
%cell = OpAccessChain %ptr_sb_uint %row %u2
%copied = OpCopyObject %ptr_sb_uint %cell
%step = OpPtrAccessChain %ptr_sb_v4 %row %u1
%stepped_cell = OpAccessChain %ptr_sb_uint %step %u1
%local_cell = OpInBoundsAccessChain %ptr_fn_uint %local %i %u0
%loaded = OpLoad %ptr_sb_uint %holder
%loaded_cell = OpCopyObject %ptr_sb_uint %loaded
OpReturn
OpFunctionEnd
%helper = OpFunction %uint None %helper_fn
%param = OpFunctionParameter %ptr_fn_arr
%helper_entry = OpLabel
%param_cell = OpAccessChain %ptr_fn_uint %param %u1 %u3
%value = OpLoad %uint %param_cell
OpReturnValue %value
OpFunctionEnd
)";

class PointerOriginsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    module_ = test::AssembleModule(kModule);
    ASSERT_TRUE(module_);
    def_use_.emplace(*module_);
  }
  uint32_t Id(const std::string& name) const { return test::IdNamed(*module_, name); }
  PointerOrigins Origins() const { return PointerOrigins(*def_use_); }

  std::optional<Module> module_;
  std::optional<DefUse> def_use_;
};

TEST_F(PointerOriginsTest, ChainsOfChainsReachTheVariableWithThePathFromItOutwards) {
  PointerOrigin origin;
  std::vector<uint32_t> path;
  ASSERT_TRUE(Origins().PathOf(Id("cell"), &origin, &path));
  EXPECT_EQ(origin.kind, PointerOrigin::Kind::kVariable);
  EXPECT_EQ(origin.root_id(), Id("ssbo"));
  EXPECT_EQ(origin.variable_id(), Id("ssbo"));
  EXPECT_EQ(origin.chain_count, 2);
  EXPECT_FALSE(origin.through_copy);
  EXPECT_FALSE(origin.through_element);
  EXPECT_EQ(path, (std::vector<uint32_t>{Id("u0"), Id("i"), Id("u2")}));
  std::vector<const Instruction*> chains;
  Origins().Of(Id("cell"), &chains);
  ASSERT_EQ(chains.size(), 2u);
  EXPECT_EQ(chains[0]->result_id, Id("row"));
  EXPECT_EQ(chains[1]->result_id, Id("cell"));
}

TEST_F(PointerOriginsTest, InBoundsChainsAndCopiesAreFollowed) {
  PointerOrigin copied = Origins().Of(Id("copied"));
  EXPECT_EQ(copied.root_id(), Id("ssbo"));
  EXPECT_TRUE(copied.through_copy);
  PointerOrigin local;
  std::vector<uint32_t> path;
  ASSERT_TRUE(Origins().PathOf(Id("local_cell"), &local, &path));
  EXPECT_EQ(local.variable_id(), Id("local"));
  EXPECT_EQ(path, (std::vector<uint32_t>{Id("i"), Id("u0")}));
}

TEST_F(PointerOriginsTest, AnElementStepKeepsTheRootButHasNoPath) {
  PointerOrigin origin = Origins().Of(Id("stepped_cell"));
  EXPECT_EQ(origin.kind, PointerOrigin::Kind::kVariable);
  EXPECT_EQ(origin.root_id(), Id("ssbo"));
  EXPECT_TRUE(origin.through_element);
  EXPECT_EQ(origin.chain_count, 3);
  std::vector<uint32_t> path;
  EXPECT_FALSE(Origins().PathOf(Id("stepped_cell"), &origin, &path));
  EXPECT_TRUE(path.empty());
}

TEST_F(PointerOriginsTest, AParameterIsARootButNoVariable) {
  PointerOrigin origin;
  std::vector<uint32_t> path;
  ASSERT_TRUE(Origins().PathOf(Id("param_cell"), &origin, &path));
  EXPECT_EQ(origin.kind, PointerOrigin::Kind::kParameter);
  EXPECT_EQ(origin.root_id(), Id("param"));
  EXPECT_EQ(origin.variable_id(), 0u);
  EXPECT_EQ(path, (std::vector<uint32_t>{Id("u1"), Id("u3")}));
}

TEST_F(PointerOriginsTest, ALoadedPointerEndsTheWalkWhereItStops) {
  PointerOrigin origin = Origins().Of(Id("loaded_cell"));
  EXPECT_EQ(origin.kind, PointerOrigin::Kind::kUnfollowed);
  EXPECT_FALSE(origin.followed());
  EXPECT_EQ(origin.root_id(), 0u);
  ASSERT_NE(origin.root, nullptr);
  EXPECT_EQ(origin.root->opcode, spv::OpLoad);
  EXPECT_EQ(origin.last_id, Id("loaded"));
  EXPECT_EQ(Origins().RootOf(Id("loaded_cell")), 0u);
  // An id with no definition: nothing to follow, and the id itself is the last reached.
  PointerOrigin undefined = Origins().Of(999999);
  EXPECT_EQ(undefined.kind, PointerOrigin::Kind::kUnfollowed);
  EXPECT_EQ(undefined.root, nullptr);
  EXPECT_EQ(undefined.last_id, 999999u);
}

// A derivation longer than the budget is not followed, and says which budget.
TEST(PointerOriginsBudget, ALongerDerivationNamesItsBudget) {
  std::vector<Instruction> copies(PointerOrigin::kMaxPointerHops + 1);
  Instruction variable;
  variable.opcode = spv::OpVariable;
  variable.result_id = 1;
  for (size_t k = 0; k < copies.size(); ++k) {
    copies[k].opcode = spv::OpCopyObject;
    copies[k].result_id = uint32_t(k + 2);
    copies[k].words = {uint32_t(k + 1)};  // the operand: the previous id
  }
  auto definition_of = [&](uint32_t id) -> const Instruction* {
    if (id == 1) return &variable;
    return id >= 2 && id - 2 < copies.size() ? &copies[id - 2] : nullptr;
  };
  // 63 copies and the variable are 64 steps: followed. One copy more is not.
  PointerOrigin over = TracePointer(copies[copies.size() - 2].result_id, definition_of);
  EXPECT_EQ(over.kind, PointerOrigin::Kind::kOverBudget)
      << "64 copies and the variable are 65 steps";
  PointerOrigin shorter = TracePointer(copies[copies.size() - 3].result_id, definition_of);
  EXPECT_EQ(shorter.kind, PointerOrigin::Kind::kVariable);
  EXPECT_EQ(shorter.root_id(), 1u);
  EXPECT_NE(std::string(PointerOrigin::kOverBudgetText).find("kMaxPointerHops"),
            std::string::npos);
}

}  // namespace
}  // namespace glint::spirv
