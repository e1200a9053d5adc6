// Tests of the range report: one record per index operand in a stable order, keyed by
// (access_id, index_position), with the limit read off the type, the location of the
// OpLine in effect, and no change to the module.
#include <gtest/gtest.h>

#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/range_report.h"
#include "support/range_probe.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// A compute shader with every kind of access the report records:
//   shared uint table[16]; uvec4 v; mat3 m; buffer { uint data[]; } b;
//   struct S { uint pad; uint arr[4]; } s (Function), a PtrAccessChain on a
//   workgroup pointer (hand-written; GLSL has none).
const char* kAccesses = R"(
OpCapability Shader
OpCapability VariablePointers
OpExtension "SPV_KHR_variable_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid %table
OpExecutionMode %main LocalSize 16 1 1
%file = OpString "shader.comp"
OpName %lid "lid"
OpName %table "table"
OpName %v4zero "v4zero"
OpName %s "s"
OpDecorate %lid BuiltIn LocalInvocationId
OpDecorate %ptr_wg_uint ArrayStride 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_4 = OpConstant %uint 4
%uint_16 = OpConstant %uint 16
%v3uint = OpTypeVector %uint 3
%v4uint = OpTypeVector %uint 4
%ptr_in_v3 = OpTypePointer Input %v3uint
%ptr_in_uint = OpTypePointer Input %uint
%lid = OpVariable %ptr_in_v3 Input
%table_t = OpTypeArray %uint %uint_16
%ptr_wg_table = OpTypePointer Workgroup %table_t
%ptr_wg_uint = OpTypePointer Workgroup %uint
%table = OpVariable %ptr_wg_table Workgroup
%arr4 = OpTypeArray %uint %uint_4
%S = OpTypeStruct %uint %arr4
%ptr_fn_S = OpTypePointer Function %S
%ptr_fn_uint = OpTypePointer Function %uint
%v4zero = OpConstantNull %v4uint
%main = OpFunction %void None %fn
%entry = OpLabel
%s = OpVariable %ptr_fn_S Function
OpLine %file 10 3
%x_ptr = OpAccessChain %ptr_in_uint %lid %uint_0
%x = OpLoad %uint %x_ptr
%a0 = OpAccessChain %ptr_wg_uint %table %x
OpLine %file 11 5
%a1 = OpAccessChain %ptr_fn_uint %s %uint_1 %x
OpNoLine
%e = OpVectorExtractDynamic %uint %v4zero %x
%i = OpVectorInsertDynamic %v4uint %v4zero %uint_1 %x
%p = OpPtrAccessChain %ptr_wg_uint %a0 %uint_1
OpReturn
OpFunctionEnd
)";

std::string Describe(const AccessRecord& r) {
  std::string range = test::DescribeRange(r);
  return r.location.file + ":" + std::to_string(r.location.line) + " " + r.instruction + " " +
         r.object + " pos " + std::to_string(r.index_position) + " " + range + " limit " +
         std::to_string(r.limit);
}

TEST(RangeReport, Records_OneRecordPerIndexInModuleOrder) {
  std::vector<uint32_t> words = test::Assemble(kAccesses);
  ASSERT_EQ(test::ValidateFor(words, TargetEnv::kUniversal), "");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  Report report;
  CollectAccessRecords(*module, Options{}, &report);
  std::vector<std::string> described;
  for (const AccessRecord& record : report.accesses) described.push_back(Describe(record));
  EXPECT_EQ(described,
            (std::vector<std::string>{
                "shader.comp:10 OpAccessChain lid pos 0 [0, 0] limit 2",
                "shader.comp:10 OpAccessChain table pos 0 [0, 15] limit 15",
                "shader.comp:11 OpAccessChain s pos 1 [0, 15] limit 3",  // member 1 skipped
                ":0 OpVectorExtractDynamic v4zero pos 0 [0, 15] limit 3",
                ":0 OpVectorInsertDynamic v4zero pos 0 [0, 15] limit 3",
                ":0 OpPtrAccessChain table pos 0 [1, 1] limit -1",
            }));
  // Records are keyed by (access id, index position); verdicts are left to robust access.
  EXPECT_NE(report.accesses[2].access_id, 0u);
  EXPECT_EQ(report.accesses[2].index_position, 1u);
  for (const AccessRecord& record : report.accesses)
    EXPECT_EQ(record.verdict, AccessVerdict::kNone);
}

TEST(RangeReport, Pass_ChangesNothingAndRunsOnlyWhenAsked) {
  std::vector<uint32_t> words = test::Assemble(kAccesses);
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  Options options;
  Report report;
  PassContext context{options, &report};
  EXPECT_EQ(RangeReportPass().Run(*module, context).status, PassStatus::kUnchanged);
  EXPECT_TRUE(report.accesses.empty());
  options.collect_ranges = true;
  options.range_analysis = RangeAnalysisMode::kReference;
  PassContext collecting{options, &report};
  EXPECT_EQ(RangeReportPass().Run(*module, collecting).status, PassStatus::kUnchanged);
  EXPECT_EQ(report.accesses.size(), 6u);
  EXPECT_EQ(module->Encode(), words);
}

}  // namespace
}  // namespace glint::spirv
