// Tests of RuntimeLengthReads (SPIRV/analysis/access/runtime_length_reads.h), asked directly on
// compiled GLSL: for each runtime-array index site, whether the module may read that
// buffer's length. "Never read" is claimed only where no `.length()` can reach the
// buffer: each case that reads it some other way (a helper function, a variable bound to
// the same descriptor, one element of a descriptor array, a pointer that does not lead
// to a variable) stays "may be read".
#include "SPIRV/analysis/access/runtime_length_reads.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "SPIRV/analysis/analysis_context.h"
#include "support/module_queries.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// "name: read" or "name: never read" for each runtime-array index site, in site order.
std::vector<std::string> LengthReadsIn(Module& module) {
  AnalysisContext analyses(module);
  RuntimeLengthReads reads(module, analyses.GetDefUse());
  std::vector<std::string> found;
  for (const IndexSite& site : analyses.GetIndexSites().sites()) {
    if (site.bound != IndexBound::kRuntimeLength) continue;
    found.push_back(module.NameOf(site.root) + ": " +
                    (reads.MayBeRead(site.object) ? "read" : "never read"));
  }
  return found;
}

std::vector<std::string> LengthReads(const std::string& glsl) {
  Module module = test::CompileModule(glsl, "comp");
  return LengthReadsIn(module);
}

using Found = std::vector<std::string>;

const char* const kHead =
    "#version 450\nlayout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) buffer Data { uint count; uint data[]; } src;\n"
    "layout(std430, binding = 1) buffer Out { uint outv[]; } dst;\n";

TEST(RuntimeLengthReads, NoLengthAnywhere_NeverRead) {
  EXPECT_EQ(LengthReads(std::string(kHead) + "void main() { uint i = gl_GlobalInvocationID.x;\n"
                                             "  dst.outv[i] = src.data[i]; }\n"),
            (Found{"src: never read", "dst: never read"}));
}

// A test of one buffer's length says nothing of the other's.
TEST(RuntimeLengthReads, LengthOfOneBuffer_OnlyThatOneRead) {
  EXPECT_EQ(LengthReads(std::string(kHead) +
                        "void main() { uint i = gl_GlobalInvocationID.x;\n"
                        "  if (i < uint(src.data.length())) dst.outv[i] = src.data[i]; }\n"),
            (Found{"src: read", "dst: never read"}));
}

// The length may be read anywhere in the module: in a helper, after the access, in a
// branch the access is not under. Any of them may shape the index.
TEST(RuntimeLengthReads, LengthReadInAHelper_Read) {
  EXPECT_EQ(LengthReads(std::string(kHead) + "uint size() { return uint(dst.outv.length()); }\n"
                                             "void main() { uint i = gl_GlobalInvocationID.x;\n"
                                             "  dst.outv[i % size()] = src.data[i]; }\n"),
            (Found{"src: never read", "dst: read"}));
}

// Two blocks bound to one descriptor are one buffer: reading either length reads both.
TEST(RuntimeLengthReads, AliasOnTheSameBinding_Read) {
  EXPECT_EQ(LengthReads("#version 450\nlayout(local_size_x = 64) in;\n"
                        "layout(std430, set = 0, binding = 2) buffer A { float a[]; } ia;\n"
                        "layout(std430, set = 0, binding = 2) buffer B { uint b[]; } ib;\n"
                        "layout(std430, set = 1, binding = 2) buffer C { uint c[]; } ic;\n"
                        "void main() { uint i = gl_GlobalInvocationID.x;\n"
                        "  if (i < uint(ia.a.length())) { ib.b[i] = 1u; ic.c[i] = 2u; } }\n"),
            (Found{"ib: read", "ic: never read"}));
}

// One element's length of a descriptor array counts for every element.
TEST(RuntimeLengthReads, DescriptorArrayElementLength_Read) {
  EXPECT_EQ(LengthReads("#version 450\nlayout(local_size_x = 64) in;\n"
                        "layout(std430, binding = 0) buffer D { uint d[]; } bufs[4];\n"
                        "layout(std430, binding = 1) buffer E { uint e[]; } others[4];\n"
                        "layout(push_constant) uniform P { uint which; };\n"
                        "void main() { uint i = gl_GlobalInvocationID.x;\n"
                        "  if (i < uint(bufs[1].d.length())) bufs[which].d[i] = 1u;\n"
                        "  others[which].e[i] = 2u; }\n"),
            (Found{"bufs: read", "others: never read"}));
}

// A length read through a pointer that reaches no variable (a variable pointer chosen
// by OpSelect) may be any buffer's: nothing is claimed never read.
TEST(RuntimeLengthReads, LengthThroughAnUnfollowedPointer_EverythingRead) {
  std::optional<Module> module = test::AssembleModule(R"(
               OpCapability Shader
               OpCapability VariablePointersStorageBuffer
               OpExtension "SPV_KHR_variable_pointers"
               OpExtension "SPV_KHR_storage_buffer_storage_class"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %id
               OpExecutionMode %main LocalSize 64 1 1
               OpName %first "first"
               OpName %second "second"
               OpDecorate %id BuiltIn GlobalInvocationId
               OpDecorate %array ArrayStride 4
               OpMemberDecorate %block 0 Offset 0
               OpDecorate %block Block
               OpDecorate %first DescriptorSet 0
               OpDecorate %first Binding 0
               OpDecorate %second DescriptorSet 0
               OpDecorate %second Binding 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %int_0 = OpConstant %uint 0
     %v3uint = OpTypeVector %uint 3
   %in_v3uint = OpTypePointer Input %v3uint
         %id = OpVariable %in_v3uint Input
      %array = OpTypeRuntimeArray %uint
      %block = OpTypeStruct %array
   %ptr_block = OpTypePointer StorageBuffer %block
   %ptr_uint = OpTypePointer StorageBuffer %uint
      %first = OpVariable %ptr_block StorageBuffer
     %second = OpVariable %ptr_block StorageBuffer
       %main = OpFunction %void None %fn
      %entry = OpLabel
     %global = OpLoad %v3uint %id
          %x = OpCompositeExtract %uint %global 0
       %pick = OpULessThan %bool %x %int_0
     %chosen = OpSelect %ptr_block %pick %first %second
     %length = OpArrayLength %uint %chosen 0
    %element = OpAccessChain %ptr_uint %first %int_0 %x
               OpStore %element %length
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(module.has_value());
  EXPECT_EQ(LengthReadsIn(*module), (Found{"first: read"}));
}

}  // namespace
}  // namespace glint::spirv
