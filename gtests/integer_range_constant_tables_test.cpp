// Tests of constant tables in the range analysis (integer_range_constant_tables.cpp):
// a value read at any index from a variable that only ever holds its constant
// initializer lies in the hull of the parts the indices may select. Modules are glslang's
// output after Glint's constant-table pass (which gives `const` arrays a Private variable
// with the constant as initializer), or written by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/hoist_constant_tables.h"
#include "support/range_probe.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

using Ranges = std::vector<test::ProbedRange>;

std::string Shader(const std::string& globals, const std::string& body) {
  return "#version 450\nlayout(local_size_x = 64) in;\n"
         "layout(std430, binding = 0) buffer Probe { uint probe[]; };\n" +
         globals + "void main() {\n  uint t = gl_LocalInvocationID.x;\n" + body + "}\n";
}

// The ranges of the indices into `probe`, in full mode, after the constant-table pass.
Ranges ProbeRanges(const std::string& source, RangeAnalysisMode mode = RangeAnalysisMode::kFull) {
  std::vector<uint32_t> words = test::CompileGlsl(source, "comp");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  EXPECT_TRUE(module) << error;
  if (!module) return {};
  std::vector<ConstantTableDecision> decisions;
  HoistConstantTables(*module, &decisions);
  Options options;
  options.range_analysis = mode;
  return test::ObjectRanges(*module, options);
}

TEST(ConstantTables, ScalarTableAtADynamicIndex) {
  EXPECT_EQ(ProbeRanges(Shader("const int kFace[6] = int[](4, 1, 2, 2, 3, 7);\n",
                               "  probe[kFace[t % 6u]] = 0u;\n")),
            (Ranges{test::Range(1, 7)}));
  // A table declared in the function is hoisted too.
  EXPECT_EQ(ProbeRanges(Shader("",
                               "  const uint k[3] = uint[](9u, 20u, 11u);\n"
                               "  probe[k[t & 1u]] = 0u;\n")),
            (Ranges{test::Range(9, 20)}));
}

TEST(ConstantTables, ComponentsOfAVectorTable) {
  std::string globals =
      "const ivec2 kOff[4] = ivec2[](ivec2(0, 10), ivec2(2, 13), ivec2(4, 15), ivec2(6, 17));\n";
  // One component through the chain, and one of the whole vector kept in a local.
  EXPECT_EQ(ProbeRanges(Shader(globals,
                               "  probe[kOff[t % 4u].y] = 0u;\n"
                               "  ivec2 o = kOff[t & 3u];\n  probe[o.x] = 0u;\n")),
            (Ranges{test::Range(10, 17), test::Range(0, 6)}));
}

TEST(ConstantTables, NestedTablesAndConstantIndices) {
  std::string globals = "const int kRows[2][3] = int[2][3](int[3](1, 2, 3), int[3](40, 50, 60));\n";
  // A constant first index selects one row; a dynamic one, both.
  EXPECT_EQ(ProbeRanges(Shader(globals,
                               "  probe[kRows[0][t % 3u]] = 0u;\n"
                               "  probe[kRows[t & 1u][1]] = 0u;\n")),
            (Ranges{test::Range(1, 3), test::Range(2, 50)}));
}

// A global with a non-constant GLSL initializer and then written is stored by glslang
// at the top of main (no OpVariable initializer): it is not a table, and keeps its
// storage class's reason.
TEST(ConstantTables, GlobalsGlslangInitializesByStoreAreNotTables) {
  std::string globals = "int gTable[4] = int[](0, 1, 2, 3);\n";
  Ranges ranges =
      ProbeRanges(Shader(globals, "  gTable[1] = 100;\n  probe[gTable[t & 3u]] = 0u;\n"));
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0],
            test::NoRange("value read from Private memory (a global of this invocation)"));
}

TEST(ConstantTables, ReferenceModeIsUnchanged) {
  Ranges ranges = ProbeRanges(
      Shader("const int kFace[6] = int[](4, 1, 2, 2, 3, 7);\n", "  probe[kFace[t % 6u]] = 0u;\n"),
      RangeAnalysisMode::kReference);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_FALSE(ranges[0].valid) << ranges[0];
}

// Written by hand: an initializer with a null part (0) and a specialization constant
// (no range of its own: the application may set any value), and a Function variable
// with an initializer that is never stored.
TEST(ConstantTables, NullPartsSpecializationConstantsAndFunctionVariables) {
  const char* kHead = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
OpExecutionMode %main LocalSize 4 1 1
OpName %Probe "Probe"
OpDecorate %lid BuiltIn LocalInvocationId
OpDecorate %spec SpecId 0
OpDecorate %rt ArrayStride 4
OpMemberDecorate %Probe 0 Offset 0
OpDecorate %Probe Block
OpDecorate %probe DescriptorSet 0
OpDecorate %probe Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%uint_0 = OpConstant %uint 0
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%uint_9 = OpConstant %uint 9
%uint_1 = OpConstant %uint 1
%uint_100 = OpConstant %uint 100
%arr = OpTypeArray %uint %uint_4
%null = OpConstantNull %uint
%spec = OpSpecConstant %uint 2
%rt = OpTypeRuntimeArray %uint
%Probe = OpTypeStruct %rt
%ptr_Probe = OpTypePointer StorageBuffer %Probe
%probe = OpVariable %ptr_Probe StorageBuffer
%ptr_lid = OpTypePointer Input %v3uint
%lid = OpVariable %ptr_lid Input
%ptr_in_uint = OpTypePointer Input %uint
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%ptr_func_arr = OpTypePointer Function %arr
)";
  // `write` runs in main before the table is read; `helper` is %helper's body.
  auto ranges_of = [&](const std::string& table_decl, const std::string& storage,
                       const std::string& write = "", const std::string& helper = "OpReturn\n") {
    std::string text =
        std::string(kHead) + table_decl + "%ptr_arr = OpTypePointer " + storage +
        " %arr\n%ptr_elem = OpTypePointer " + storage + " %uint\n" +
        (storage == "Private" ? "%table = OpVariable %ptr_arr Private %init\n" : "") +
        "%main = OpFunction %void None %fn\n%entry = OpLabel\n" +
        (storage == "Function" ? "%table = OpVariable %ptr_arr Function %init\n" : "") +
        "%other = OpVariable %ptr_func_arr Function\n" + write +
        R"(%px = OpAccessChain %ptr_in_uint %lid %uint_0
%x = OpLoad %uint %px
%i = OpBitwiseAnd %uint %x %uint_3
%pe = OpAccessChain %ptr_elem %table %i
%e = OpLoad %uint %pe
%pp = OpAccessChain %ptr_sb_uint %probe %uint_0 %e
OpStore %pp %uint_0
OpReturn
OpFunctionEnd
%helper = OpFunction %void None %fn
%helper_entry = OpLabel
)" + helper +
        "OpFunctionEnd\n";
    std::vector<uint32_t> words = test::Assemble(text);
    EXPECT_FALSE(words.empty()) << text;
    Options options;
    options.range_analysis = RangeAnalysisMode::kFull;
    return test::ObjectRanges(words, options, "Probe");
  };
  const std::string kConstant = "%init = OpConstantComposite %arr %uint_3 %null %uint_9 %uint_4\n";
  EXPECT_EQ(ranges_of(kConstant, "Private"), (Ranges{test::Range(0, 9)}));
  EXPECT_EQ(ranges_of(kConstant, "Function"), (Ranges{test::Range(0, 9)}));
  Ranges spec =
      ranges_of("%init = OpSpecConstantComposite %arr %uint_3 %spec %uint_9 %uint_4\n", "Private");
  ASSERT_EQ(spec.size(), 1u);
  EXPECT_FALSE(spec[0].valid);
  EXPECT_EQ(spec[0].reason.find("a part of the constant table has no range: "), 0u) << spec[0];

  // Traps: the table is written (100 is past every part of the initializer) by a store
  // through a chain, by a store in another function, by a copy into it; each must lose
  // the table's range: no range, or one that holds 100 (a Function variable written at
  // constant indices is a local read at a run-time index: integer_range_indexed_locals).
  struct Write {
    const char* storage;
    const char* in_main;
    const char* helper;
  } writes[] = {
      {"Private", "%pw = OpAccessChain %ptr_elem %table %uint_1\nOpStore %pw %uint_100\n",
       "OpReturn\n"},
      {"Function", "%pw = OpAccessChain %ptr_elem %table %uint_1\nOpStore %pw %uint_100\n",
       "OpReturn\n"},
      {"Private", "%call = OpFunctionCall %void %helper\n",
       "%hw = OpAccessChain %ptr_elem %table %uint_1\nOpStore %hw %uint_100\nOpReturn\n"},
      {"Function", "OpCopyMemory %table %other\n", "OpReturn\n"},
  };
  for (const Write& write : writes) {
    Ranges ranges = ranges_of(kConstant, write.storage, write.in_main, write.helper);
    ASSERT_EQ(ranges.size(), 1u) << write.in_main;
    EXPECT_TRUE(!ranges[0].valid || ranges[0] == test::Range(0, 100)) << write.in_main << ranges[0];
  }
}

}  // namespace
}  // namespace glint::spirv
