// Tests of ParameterArguments (SPIRV/analysis/memory/parameter_arguments.h), asked directly:
// the values glslang stores into a parameter's argument variable at each call, in call
// order, and each refusal with its reason.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/parser.h"
#include "support/module_queries.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// The OpFunctionParameter instructions of the module's functions, in module order.
std::vector<const Instruction*> Parameters(const Module& module) {
  std::vector<const Instruction*> parameters;
  for (const Function& function : module.functions)
    for (const Instruction& inst : function.parameters)
      if (inst.opcode == spv::OpFunctionParameter) parameters.push_back(&inst);
  return parameters;
}

// The integer constant each argument value is, in order (the test shaders pass
// constants, which glslang keeps as OpConstant ids).
std::vector<uint64_t> ConstantValues(AnalysisContext& analyses, const CallArguments& arguments) {
  std::vector<uint64_t> values;
  for (uint32_t id : arguments.values) {
    uint64_t value = 0;
    EXPECT_TRUE(analyses.GetDefUse().IntConstant(id, &value)) << "argument %" << id;
    values.push_back(value);
  }
  return values;
}

Module Compile(const std::string& source) { return test::CompileModule(source, "comp"); }

TEST(ParameterArguments, ValuesStoredAtEachCallInCallOrder) {
  Module module = Compile(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint data[]; };
uint pick(uint k) { return data[k]; }
void main() { data[0] = pick(3u) + pick(7u); data[1] = pick(5u); })");
  AnalysisContext analyses(module);
  std::vector<const Instruction*> parameters = Parameters(module);
  ASSERT_EQ(parameters.size(), 1u);
  const CallArguments& found = analyses.GetParameterArguments().Of(*parameters[0]);
  EXPECT_EQ(found.reason, "");
  EXPECT_EQ(ConstantValues(analyses, found), (std::vector<uint64_t>{3, 7, 5}));
  ASSERT_EQ(found.stores.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_NE(found.stores[i], nullptr);
    EXPECT_EQ(found.stores[i]->opcode, spv::OpStore);
    EXPECT_EQ(StoreView(*found.stores[i]).object(), found.values[i]);
  }
  // Memoized: the same object on the next query, one build per context.
  EXPECT_EQ(&analyses.GetParameterArguments().Of(*parameters[0]), &found);
  EXPECT_EQ(analyses.builds().parameter_arguments, 1u);
}

TEST(ParameterArguments, ParameterWrittenInItsFunctionIsRefused) {
  Module module = Compile(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint data[]; };
uint bump(uint k) { k = k + 1u; return data[k]; }
void main() { data[0] = bump(3u); })");
  AnalysisContext analyses(module);
  std::vector<const Instruction*> parameters = Parameters(module);
  ASSERT_EQ(parameters.size(), 1u);
  const CallArguments& found = analyses.GetParameterArguments().Of(*parameters[0]);
  EXPECT_EQ(found.reason, "the parameter is not only loaded in its function");
  EXPECT_TRUE(found.values.empty());
  EXPECT_TRUE(found.stores.empty());
}

// Every call site is listed, however many (the readers budget what they do per value).
TEST(ParameterArguments, EveryCallSiteIsListed) {
  std::string calls;
  for (size_t i = 0; i < 300; ++i) calls += "  total += pick(" + std::to_string(i) + "u);\n";
  Module module = Compile(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint data[]; };
uint pick(uint k) { return data[k]; }
void main() {
  uint total = 0u;
)" + calls + R"(  data[0] = total;
})");
  AnalysisContext analyses(module);
  std::vector<const Instruction*> parameters = Parameters(module);
  ASSERT_EQ(parameters.size(), 1u);
  const CallArguments& found = analyses.GetParameterArguments().Of(*parameters[0]);
  EXPECT_EQ(found.reason, "");
  std::vector<uint64_t> expected;
  for (uint64_t i = 0; i < 300; ++i) expected.push_back(i);
  EXPECT_EQ(ConstantValues(analyses, found), expected);
}

// Hand-written SPIR-V for what glslang does not emit: an argument variable stored after
// the call (it holds the previous value at the call), stored twice, and a function
// nothing calls.
const char kOddArguments[] = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ptr = OpTypePointer Function %uint
%fn = OpTypeFunction %void
%fnp = OpTypeFunction %uint %ptr
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%main = OpFunction %void None %fn
%m0 = OpLabel
%late = OpVariable %ptr Function
%twice = OpVariable %ptr Function
%r1 = OpFunctionCall %uint %after %late
OpStore %late %u1
OpStore %twice %u1
OpStore %twice %u2
%r2 = OpFunctionCall %uint %double %twice
OpReturn
OpFunctionEnd
%after = OpFunction %uint None %fnp
%pa = OpFunctionParameter %ptr
%a0 = OpLabel
%la = OpLoad %uint %pa
OpReturnValue %la
OpFunctionEnd
%double = OpFunction %uint None %fnp
%pd = OpFunctionParameter %ptr
%d0 = OpLabel
%ld = OpLoad %uint %pd
OpReturnValue %ld
OpFunctionEnd
%never = OpFunction %uint None %fnp
%pn = OpFunctionParameter %ptr
%n0 = OpLabel
%ln = OpLoad %uint %pn
OpReturnValue %ln
OpFunctionEnd
)";

TEST(ParameterArguments, ArgumentsThatAreNotStoredOnceRightBeforeTheCall) {
  std::optional<Module> module = test::AssembleModule(kOddArguments);
  ASSERT_TRUE(module);
  AnalysisContext analyses(*module);
  std::vector<const Instruction*> parameters = Parameters(*module);
  ASSERT_EQ(parameters.size(), 3u);
  ParameterArguments& arguments = analyses.GetParameterArguments();
  EXPECT_EQ(arguments.Of(*parameters[0]).reason,
            "an argument is not a local stored once right before the call");
  EXPECT_EQ(arguments.Of(*parameters[1]).reason,
            "an argument is not a local stored once right before the call");
  EXPECT_EQ(arguments.Of(*parameters[2]).reason, "function is never called");
  // Not a parameter at all (the entry point's OpFunction).
  EXPECT_EQ(arguments.Of(module->functions.front().definition).reason,
            "parameter of an unknown function");
}

}  // namespace
}  // namespace glint::spirv
