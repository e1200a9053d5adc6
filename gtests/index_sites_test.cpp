// Tests of IndexSites (SPIRV/analysis/access/index_sites.h), asked directly on small modules:
// which index operands are sites, what bounds each, what the type alone says, the root
// it names and the line it is at.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/access/index_sites.h"
#include "SPIRV/ir/parser.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// One line per site: "<opcode> pos <p> <bound> last <last> type_last <t> root <name>
// line <l> [reason]", where names come from OpName.
std::vector<std::string> Describe(const std::string& assembly) {
  std::optional<Module> module = test::AssembleModule(assembly);
  if (!module) return {};  // the test has failed already
  AnalysisContext analyses(*module);
  const char* kBounds[] = {"fixed", "spec", "runtime", "unbounded", "unfollowed", "image"};
  std::vector<std::string> lines;
  for (const IndexSite& site : analyses.GetIndexSites().sites()) {
    std::string text = std::string(grammar::OpcodeName(site.access->opcode)) + " pos " +
                       std::to_string(site.position) + " " + kBounds[static_cast<int>(site.bound)] +
                       " last " + std::to_string(site.last) + " type_last " +
                       std::to_string(site.type_last) + " root " + module->NameOf(site.root) +
                       " line " + std::to_string(site.location.line);
    if (site.bound == IndexBound::kUnbounded)
      text += std::string(" [") + site.unbounded_reason + "]";
    if (site.bound == IndexBound::kSpecLength) text += " length " + module->NameOf(site.length_id);
    if (site.bound == IndexBound::kRuntimeLength)
      text += " block member " + std::to_string(site.block_path.member) + " path " +
              std::to_string(site.block_path.path_length);
    lines.push_back(text);
  }
  return lines;
}

const char kHeader[] = R"(
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpCapability VariablePointers
OpExtension "SPV_KHR_physical_storage_buffer"
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "s.comp"
OpName %local "local"
OpName %ssbo "ssbo"
OpName %images "images"
OpName %copy "copy"
OpName %psb "psb"
OpName %spec "spec"
OpDecorate %rt ArrayStride 4
OpDecorate %arr4 ArrayStride 4
OpMemberDecorate %block 0 Offset 0
OpMemberDecorate %block 1 Offset 16
OpDecorate %block Block
OpDecorate %ssbo DescriptorSet 0
OpDecorate %ssbo Binding 0
OpDecorate %images DescriptorSet 0
OpDecorate %images Binding 1
OpDecorate %spec SpecId 0
OpDecorate %psb_block Block
OpMemberDecorate %psb_block 0 Offset 0
OpDecorate %ptr_psb_block ArrayStride 16
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%mat = OpTypeMatrix %v4float 3
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_4 = OpConstant %uint 4
%spec = OpSpecConstant %uint 8
%arr4 = OpTypeArray %uint %uint_4
%arr_spec = OpTypeArray %float %spec
%rt = OpTypeRuntimeArray %uint
%block = OpTypeStruct %arr4 %rt
%inner = OpTypeStruct %mat %arr_spec
%ptr_block = OpTypePointer StorageBuffer %block
%ptr_rt = OpTypePointer StorageBuffer %rt
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%ptr_inner = OpTypePointer Function %inner
%ptr_fn_float = OpTypePointer Function %float
%ssbo = OpVariable %ptr_block StorageBuffer
%image = OpTypeImage %float 2D 0 0 0 2 R32f
%images_arr = OpTypeArray %image %uint_2
%ptr_images = OpTypePointer UniformConstant %images_arr
%ptr_image = OpTypePointer UniformConstant %image
%images = OpVariable %ptr_images UniformConstant
%v2int = OpTypeVector %int 2
%psb_block = OpTypeStruct %arr4
%ptr_psb_block = OpTypePointer PhysicalStorageBuffer %psb_block
%ptr_psb_uint = OpTypePointer PhysicalStorageBuffer %uint
%ptr_fn_psb = OpTypePointer Function %ptr_psb_block
)";

TEST(IndexSites, EveryKindOfBound_WithItsLimitRootAndLine) {
  std::vector<std::string> sites = Describe(std::string(kHeader) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%local = OpVariable %ptr_inner Function
%psb = OpVariable %ptr_fn_psb Function
%n = OpUndef %uint
%coord = OpUndef %v2int
%v = OpUndef %v4float
%loose = OpUndef %ptr_rt
OpLine %file 3 1
%fixed = OpAccessChain %ptr_sb_uint %ssbo %uint_0 %n
%runtime = OpAccessChain %ptr_sb_uint %ssbo %uint_1 %n
%constant = OpAccessChain %ptr_sb_uint %ssbo %uint_0 %uint_2
OpLine %file 4 1
%column = OpAccessChain %ptr_fn_float %local %uint_0 %n %n
%spec_elem = OpAccessChain %ptr_fn_float %local %uint_1 %n
%copy = OpCopyObject %ptr_block %ssbo
%array = OpAccessChain %ptr_rt %copy %uint_1
%chained = OpAccessChain %ptr_sb_uint %array %n
%lost = OpAccessChain %ptr_sb_uint %loose %n
%too_deep = OpAccessChain %ptr_fn_float %local %uint_0 %n %n %n
%img_ptr = OpAccessChain %ptr_image %images %n
%img = OpLoad %image %img_ptr
%texel = OpImageRead %v4float %img %coord
%e = OpVectorExtractDynamic %float %v %n
%pointer = OpLoad %ptr_psb_block %psb
%through_psb = OpAccessChain %ptr_psb_uint %pointer %uint_0 %n
%element = OpPtrAccessChain %ptr_psb_block %pointer %n
OpReturn
OpFunctionEnd
)");
  EXPECT_EQ(
      sites,
      (std::vector<std::string>{
          "OpAccessChain pos 1 fixed last 3 type_last 3 root ssbo line 3",
          "OpAccessChain pos 1 runtime last 0 type_last -1 root ssbo line 3 block member 1 path 0",
          // Constants are sites too: the reader decides what they need.
          "OpAccessChain pos 1 fixed last 3 type_last 3 root ssbo line 3",
          "OpAccessChain pos 1 fixed last 2 type_last 2 root local line 4",
          "OpAccessChain pos 2 fixed last 3 type_last 3 root local line 4",
          "OpAccessChain pos 1 spec last 0 type_last -1 root local line 4 length spec",
          // A chain of chains finds the block through its base chain; the root goes
          // through the chain and the copy.
          "OpAccessChain pos 0 runtime last 0 type_last -1 root ssbo line 4 block member 1 path 0",
          "OpAccessChain pos 0 unbounded last 0 type_last -1 root  line 4 [runtime array not "
          "reached through its block]",
          "OpAccessChain pos 1 fixed last 2 type_last 2 root local line 4",
          "OpAccessChain pos 2 fixed last 3 type_last 3 root local line 4",
          "OpAccessChain pos 3 unfollowed last 0 type_last -1 root local line 4",
          "OpAccessChain pos 0 unbounded last 0 type_last 1 root images line 4 [descriptor array "
          "indexed at run time]",
          "OpImageRead pos 0 image last 0 type_last -1 root  line 4",
          "OpVectorExtractDynamic pos 0 fixed last 3 type_last 3 root  line 4",
          "OpAccessChain pos 1 unbounded last 0 type_last 3 root  line 4 [physical storage buffer "
          "pointers are not bounded by Glint]",
          "OpPtrAccessChain pos 0 unbounded last 0 type_last -1 root  line 4 [OpPtrAccessChain is "
          "not bounded by Glint]",
      }));
}

// After a step the walk cannot follow, every later index of the chain is unfollowed,
// even one whose type is known again (robust access leaves them alone; the report
// records them with what the type says).
TEST(IndexSites, AfterARuntimeArrayOutsideItsBlock_LaterIndicesAreUnfollowed) {
  std::vector<std::string> sites = Describe(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rt ArrayStride 16
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%rt = OpTypeRuntimeArray %v4float
%ptr_rt = OpTypePointer StorageBuffer %rt
%ptr_float = OpTypePointer StorageBuffer %float
%main = OpFunction %void None %fn
%entry = OpLabel
%n = OpUndef %uint
%loose = OpUndef %ptr_rt
%x = OpAccessChain %ptr_float %loose %n %n
OpReturn
OpFunctionEnd
)");
  EXPECT_EQ(sites,
            (std::vector<std::string>{
                "OpAccessChain pos 0 unbounded last 0 type_last -1 root  line 0 [runtime array not "
                "reached through its block]",
                "OpAccessChain pos 1 unfollowed last 0 type_last 3 root  line 0",
            }));
}

// Built once per module by the context and shared by its readers; dropped with def-use.
TEST(IndexSites, OwnedByTheContext_BuiltOnceDroppedWithDefUse) {
  std::optional<Module> module = test::AssembleModule(std::string(kHeader) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%local = OpVariable %ptr_inner Function
%psb = OpVariable %ptr_fn_psb Function
%n = OpUndef %uint
%column = OpAccessChain %ptr_fn_float %local %uint_0 %n %n
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(module);
  AnalysisContext analyses(*module);
  const IndexSites* first = &analyses.GetIndexSites();
  EXPECT_EQ(&analyses.GetIndexSites(), first);
  EXPECT_EQ(first->sites().size(), 2u);
  analyses.Invalidate(PreservedAnalyses::None().Preserve(Analysis::kCfg));
  analyses.GetIndexSites();
  EXPECT_EQ(analyses.builds().index_sites, 2u);
}

}  // namespace
}  // namespace glint::spirv
