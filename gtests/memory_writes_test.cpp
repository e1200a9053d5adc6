// Tests of WriteOf (SPIRV/analysis/memory/memory_writes.h), asked directly on a small
// hand-written function with one instruction of each kind: what each may write.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "SPIRV/analysis/memory/memory_writes.h"
#include "SPIRV/ir/def_use.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

const char kModule[] = R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %local "local"
OpName %other "other"
OpName %whole "whole"
OpName %counter "counter"
OpName %ssbo "ssbo"
OpName %cell "cell"
OpName %fraction "fraction"
OpName %sum "sum"
OpDecorate %rt ArrayStride 4
OpMemberDecorate %block 0 Offset 0
OpDecorate %block Block
OpDecorate %ssbo DescriptorSet 0
OpDecorate %ssbo Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%f1 = OpConstant %float 1.5
%rt = OpTypeRuntimeArray %uint
%block = OpTypeStruct %rt
%ptr_sb_block = OpTypePointer StorageBuffer %block
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%ptr_fn_uint = OpTypePointer Function %uint
%ptr_fn_float = OpTypePointer Function %float
%ssbo = OpVariable %ptr_sb_block StorageBuffer
%helper = OpFunction %void None %fn
%helper_entry = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%local = OpVariable %ptr_fn_uint Function
%other = OpVariable %ptr_fn_uint Function
%whole = OpVariable %ptr_fn_float Function
%cell = OpAccessChain %ptr_sb_uint %ssbo %u0 %u1
%counter = OpLoad %uint %local
%sum = OpIAdd %uint %counter %u1
OpStore %local %sum
OpCopyMemory %other %local
%old = OpAtomicIAdd %uint %cell %u1 %u0 %u1
%fraction = OpExtInst %float %glsl Modf %f1 %whole
%call = OpFunctionCall %void %helper
OpReturn
OpFunctionEnd
)";

class MemoryWritesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    module_ = test::AssembleModule(kModule);
    ASSERT_TRUE(module_);
    def_use_.emplace(*module_);
  }
  uint32_t Id(const std::string& name) const { return test::IdNamed(*module_, name); }
  // The first instruction of `opcode` in main.
  const Instruction& First(spv::Op opcode) const {
    for (const Instruction& inst : module_->functions.back().blocks.front().instructions)
      if (inst.opcode == opcode) return inst;
    ADD_FAILURE() << "no instruction of opcode " << opcode;
    return module_->functions.back().blocks.front().instructions.front();
  }
  MemoryWrite Write(spv::Op opcode) const { return WriteOf(*def_use_, First(opcode)); }

  std::optional<Module> module_;
  std::optional<DefUse> def_use_;
};

TEST_F(MemoryWritesTest, ReadsArithmeticAndPointerDerivationsWriteNothing) {
  for (spv::Op opcode : {spv::OpLoad, spv::OpIAdd, spv::OpAccessChain, spv::OpVariable})
    EXPECT_EQ(Write(opcode).kind, MemoryWrite::Kind::kNothing) << opcode;
}

TEST_F(MemoryWritesTest, StoresCopiesAndAtomicsWriteThroughTheirTarget) {
  MemoryWrite store = Write(spv::OpStore);
  EXPECT_EQ(store.kind, MemoryWrite::Kind::kThrough);
  EXPECT_EQ(store.pointer, Id("local"));
  MemoryWrite copy = Write(spv::OpCopyMemory);
  EXPECT_EQ(copy.kind, MemoryWrite::Kind::kThrough);
  EXPECT_EQ(copy.pointer, Id("other"));  // the target; the source is only read
  MemoryWrite atomic = Write(spv::OpAtomicIAdd);
  EXPECT_EQ(atomic.kind, MemoryWrite::Kind::kThrough);
  EXPECT_EQ(atomic.pointer, Id("cell"));
}

// modf writes its whole part through the pointer it is given; a call may write anything.
TEST_F(MemoryWritesTest, CallsAndInstructionsGivenAPointerMayWriteAnything) {
  EXPECT_EQ(Write(spv::OpExtInst).kind, MemoryWrite::Kind::kAnything);
  EXPECT_EQ(Write(spv::OpFunctionCall).kind, MemoryWrite::Kind::kAnything);
}

}  // namespace
}  // namespace glint::spirv
