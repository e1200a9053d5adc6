// Tests of ForwardedStores (SPIRV/analysis/uniformity/forwarded_stores.h), asked
// directly on a small module: which store a load through a Function pointer parameter
// reads, what ends the search, and what may write through a parameter.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "SPIRV/analysis/uniformity/forwarded_stores.h"
#include "SPIRV/ir/def_use.h"
#include "support/test_support.h"

namespace glint::spirv::uniformity_detail {
namespace {

const char kModule[] = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %store_first "store_first"
OpName %forwarded "forwarded"
OpName %after_call "after_call"
OpName %after_local_store "after_local_store"
OpName %store_other "store_other"
OpName %after_other_store "after_other_store"
OpName %call "call"
OpName %from_local "from_local"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%c5 = OpConstant %uint 5
%c7 = OpConstant %uint 7
%ptr = OpTypePointer Function %uint
%fn = OpTypeFunction %void
%helper_fn = OpTypeFunction %uint %ptr %ptr
%main = OpFunction %void None %fn
%main_entry = OpLabel
%a = OpVariable %ptr Function
%b = OpVariable %ptr Function
%r = OpFunctionCall %uint %helper %a %b
OpReturn
OpFunctionEnd
%nothing = OpFunction %void None %fn
%nothing_entry = OpLabel
OpReturn
OpFunctionEnd
%helper = OpFunction %uint None %helper_fn
%p = OpFunctionParameter %ptr
%q = OpFunctionParameter %ptr
%entry = OpLabel
%local = OpVariable %ptr Function
OpStore %p %c5
%forwarded = OpLoad %uint %p
OpStore %local %c7
%after_local_store = OpLoad %uint %p
OpStore %q %c7
%after_other_store = OpLoad %uint %p
OpStore %p %c7
%call = OpFunctionCall %void %nothing
%after_call = OpLoad %uint %p
%from_local = OpLoad %uint %local
OpReturnValue %forwarded
OpFunctionEnd
)";

class ForwardedStoresTest : public ::testing::Test {
 protected:
  void SetUp() override {
    module_ = test::AssembleModule(kModule);
    ASSERT_TRUE(module_);
    def_use_.emplace(*module_);
    stores_.emplace(*def_use_);
    block_ = &module_->functions.back().blocks.front();
  }
  const Instruction& Named(const std::string& name) const {
    return *def_use_->Definition(test::IdNamed(*module_, name));
  }
  // The `k`-th OpStore of the helper.
  const Instruction* Store(int k) const {
    for (const Instruction& inst : block_->instructions)
      if (inst.opcode == spv::OpStore && k-- == 0) return &inst;
    return nullptr;
  }

  std::optional<Module> module_;
  std::optional<DefUse> def_use_;
  std::optional<ForwardedStores> stores_;
  const Block* block_ = nullptr;
};

TEST_F(ForwardedStoresTest, ALoadReadsTheStoreBeforeItThroughTheSameParameter) {
  EXPECT_EQ(stores_->StoreRead(*block_, Named("forwarded")), Store(0));
}

TEST_F(ForwardedStoresTest, WritesToTheFunctionsOwnVariablesCannotReachAParameter) {
  EXPECT_EQ(stores_->StoreRead(*block_, Named("after_local_store")), Store(0));
  EXPECT_FALSE(stores_->MayWriteThroughParameter(*Store(1)));
}

TEST_F(ForwardedStoresTest, AStoreThroughAnotherParameterOrACallEndsTheSearch) {
  EXPECT_TRUE(stores_->MayWriteThroughParameter(*Store(2))) << "q may alias p";
  EXPECT_EQ(stores_->StoreRead(*block_, Named("after_other_store")), nullptr);
  EXPECT_TRUE(stores_->MayWriteThroughParameter(Named("call")));
  EXPECT_EQ(stores_->StoreRead(*block_, Named("after_call")), nullptr);
}

TEST_F(ForwardedStoresTest, OnlyLoadsThroughFunctionPointerParametersAreForwarded) {
  EXPECT_EQ(stores_->StoreRead(*block_, Named("from_local")), nullptr);
  // Asked again: the memo answers the same.
  EXPECT_EQ(stores_->StoreRead(*block_, Named("forwarded")), Store(0));
  EXPECT_EQ(stores_->StoreRead(*block_, Named("from_local")), nullptr);
}

}  // namespace
}  // namespace glint::spirv::uniformity_detail
