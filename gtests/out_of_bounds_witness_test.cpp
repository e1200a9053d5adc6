// Tests of OutOfBoundsWitnesses (SPIRV/analysis/access/out_of_bounds_witness.h), asked
// directly on compiled GLSL: for each fixed-size index site, the invocation that goes
// out of bounds and its index, or none. Each sound form has its near-miss beside it: an
// access some invocation skips, a size the application may change, an index that is
// not a pure function of the invocation. (That the witness's index is the one a device
// computes is range_traps_execution_test's OutOfBoundsWitness, on lavapipe.)
#include "SPIRV/analysis/access/out_of_bounds_witness.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/passes/hoist_constant_tables.h"
#include "support/module_queries.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// "(x, y, z) value" for each fixed-size site with a dynamic index: its witness, or
// "none"; in site order.
std::vector<std::string> WitnessesIn(Module& module) {
  AnalysisContext analyses(module);
  OutOfBoundsWitnesses witnesses(
      module, analyses.GetDefUse(), analyses.GetBuiltIns(),
      [&analyses](Function& function) -> const Cfg& { return analyses.GetCfg(function); });
  std::vector<std::string> found;
  for (const IndexSite& site : analyses.GetIndexSites().sites()) {
    uint64_t constant = 0;  // gl_LocalInvocationID.x is a site too: leave constants out
    if (site.bound != IndexBound::kFixed || analyses.GetDefUse().IntConstant(site.index(), &constant))
      continue;
    std::optional<OutOfBoundsWitness> witness = witnesses.Find(site);
    found.push_back(!witness ? "none"
                             : "(" + std::to_string(witness->invocation[0]) + ", " +
                                   std::to_string(witness->invocation[1]) + ", " +
                                   std::to_string(witness->invocation[2]) + ") " +
                                   std::to_string(witness->value));
  }
  return found;
}

std::vector<std::string> Witnesses(const std::string& glsl, const std::string& stage = "comp",
                                   bool hoist_tables = false) {
  Module module = test::CompileModule(glsl, stage);
  std::vector<ConstantTableDecision> decisions;
  if (hoist_tables) HoistConstantTables(module, &decisions);
  return WitnessesIn(module);
}

std::string Kernel(const std::string& size, const std::string& body,
                   const std::string& array = "uint t[32];") {
  return "#version 450\nlayout(" + size + ") in;\nlayout(std430, binding = 0) buffer B { " + array +
         " };\nvoid main() {\n" + body + "\n}\n";
}

using Found = std::vector<std::string>;

// One past the end, by the last invocation: glslang's mesh tests' `iid + 1` shape,
// through the local glslang stores the id in.
TEST(OutOfBoundsWitness, OnePastTheEnd_LastInvocation) {
  EXPECT_EQ(Witnesses(Kernel("local_size_x = 32",
                             "uint iid = gl_LocalInvocationID.x;\nt[iid + 1u] = 0u;")),
            (Found{"(31, 0, 0) 32"}));
  // In bounds for every invocation: t[iid] and t[31 - iid].
  EXPECT_EQ(Witnesses(Kernel("local_size_x = 32",
                             "uint iid = gl_LocalInvocationID.x;\n"
                             "t[iid] = 0u;\nt[31u - iid] = 1u;")),
            (Found{"none", "none"}));
}

// A negative signed index is out of bounds: invocation 0 computes -1.
TEST(OutOfBoundsWitness, NegativeSignedIndex) {
  EXPECT_EQ(Witnesses(Kernel("local_size_x = 8",
                             "int i = int(gl_LocalInvocationID.x) - 1;\n"
                             "t[i] = 0u;")),
            (Found{"(0, 0, 0) -1"}));
}

// Invocations are tried in LocalInvocationIndex order (x fastest): the first one out of
// bounds of t[31] is (7, 3, 0), index 31.
TEST(OutOfBoundsWitness, TwoDimensions_LocalIndexOrder) {
  EXPECT_EQ(
      Witnesses(Kernel("local_size_x = 8, local_size_y = 4",
                       "uvec3 l = gl_LocalInvocationID;\nt[l.y * 8u + l.x] = 0u;", "uint t[31];")),
      (Found{"(7, 3, 0) 31"}));
  EXPECT_EQ(Witnesses(Kernel("local_size_x = 8, local_size_y = 4",
                             "t[gl_LocalInvocationIndex] = 0u;", "uint t[31];")),
            (Found{"(7, 3, 0) 31"}));
}

// Operators are evaluated with SPIR-V's 32-bit semantics: min, shifts, select, vectors.
TEST(OutOfBoundsWitness, Operators) {
  EXPECT_EQ(Witnesses(Kernel("local_size_x = 16",
                             "uvec2 v = uvec2(gl_LocalInvocationID.x, 3u) << 1u;\n"
                             "uint i = min(v.x + v.y, 40u);\n"
                             "t[gl_LocalInvocationID.x > 12u ? i : 0u] = 0u;")),
            (Found{"(13, 0, 0) 32"}));
}

// Near-misses: the access is skipped by the invocation that would go out of bounds (a
// guard, an early return), or might be skipped (a loop that may run no iteration).
TEST(OutOfBoundsWitness, AccessSomeInvocationSkips_NoWitness) {
  EXPECT_EQ(Witnesses(Kernel("local_size_x = 32",
                             "uint iid = gl_LocalInvocationID.x;\n"
                             "if (iid < 31u) t[iid + 1u] = 0u;")),
            (Found{"none"}));
  EXPECT_EQ(Witnesses(Kernel("local_size_x = 32",
                             "uint iid = gl_LocalInvocationID.x;\n"
                             "if (iid == 31u) return;\nt[iid + 1u] = 0u;")),
            (Found{"none"}));
  EXPECT_EQ(
      Witnesses(Kernel("local_size_x = 32",
                       "for (uint k = 0u; k < t[0]; ++k) t[gl_LocalInvocationID.x + 1u] = k;")),
      (Found{"none"}));
}

// Near-misses: what the shader alone does not decide. A workgroup size given by a
// specialization constant (the application may make it smaller), a specialization
// constant in the index, WorkgroupID (a dispatch may start at any base workgroup), a
// fragment shader (no workgroup whose invocations all run).
TEST(OutOfBoundsWitness, WhatTheApplicationDecides_NoWitness) {
  EXPECT_EQ(Witnesses(Kernel("local_size_x_id = 0", "t[gl_LocalInvocationID.x + 1u] = 0u;")),
            (Found{"none"}));
  EXPECT_EQ(Witnesses("#version 450\nlayout(local_size_x = 4) in;\n"
                      "layout(constant_id = 1) const uint k = 40u;\n"
                      "layout(std430, binding = 0) buffer B { uint t[32]; };\n"
                      "void main() { t[gl_LocalInvocationID.x + k] = 0u; }\n"),
            (Found{"none"}));
  EXPECT_EQ(Witnesses(Kernel("local_size_x = 4", "t[gl_WorkGroupID.x + 40u] = 0u;")),
            (Found{"none"}));
  EXPECT_EQ(Witnesses("#version 450\nlayout(location = 0) out vec4 color;\n"
                      "layout(std430, binding = 0) buffer B { uint t[32]; };\n"
                      "void main() { int k = 40; t[k] = 0u; color = vec4(1.0); }\n",
                      "frag"),
            (Found{"none"}));
}

// Near-misses: a local stored twice (which store reaches depends on the branch), a
// value read from memory, a division by zero (undefined) and a signed modulo of a
// negative value (its sign is the driver's choice).
TEST(OutOfBoundsWitness, NotAPureFunctionOfTheInvocation_NoWitness) {
  EXPECT_EQ(Witnesses(Kernel("local_size_x = 32",
                             "uint i = gl_LocalInvocationID.x + 1u;\n"
                             "if (t[0] == 0u) i = 0u;\nt[i] = 0u;")),
            (Found{"none"}));
  EXPECT_EQ(Witnesses(Kernel("local_size_x = 32", "t[t[1] + 40u] = 0u;")), (Found{"none"}));
  EXPECT_EQ(Witnesses(Kernel("local_size_x = 32", "t[64u / gl_LocalInvocationID.x] = 0u;")),
            (Found{"none"}));
  EXPECT_EQ(
      Witnesses(Kernel("local_size_x = 32", "t[(int(gl_LocalInvocationID.x) - 40) % 33] = 0u;")),
      (Found{"none"}));
}

// A constant index out of bounds in a block every invocation runs: invocation (0, 0, 0).
TEST(OutOfBoundsWitness, ConstantIndex_FirstInvocation) {
  EXPECT_EQ(Witnesses(Kernel("local_size_x = 2", "int k = 40;\nt[k] = 0u;")),
            (Found{"(0, 0, 0) 40"}));
}

// A value read from a constant table (Glint's constant-table pass gives a `const` array
// read at a run-time index a Private variable with the constant as initializer) at an
// index the invocation computes. Near misses: every element in bounds; the table is a
// global written before the read, so it is not a constant table.
TEST(OutOfBoundsWitness, ConstantTableElementPastTheEnd) {
  EXPECT_EQ(Witnesses(Kernel("local_size_x = 4",
                             "const uint k[3] = uint[](5u, 40u, 7u);\n"
                             "t[k[gl_LocalInvocationID.x % 3u]] = 0u;"),
                      "comp", /*hoist_tables=*/true),
            (Found{"none", "(1, 0, 0) 40"}));
  EXPECT_EQ(Witnesses(Kernel("local_size_x = 4",
                             "const uint k[3] = uint[](5u, 31u, 7u);\n"
                             "t[k[gl_LocalInvocationID.x % 3u]] = 0u;"),
                      "comp", true),
            (Found{"none", "none"}));
}

// Written by hand: a Private table whose initializer holds 40 at element 1, but which
// main writes 2 into before reading it; with the store taken out, invocation 1 reads 40.
TEST(OutOfBoundsWitness, TableWrittenBeforeTheRead_NoWitness) {
  auto module_text = [](bool write) {
    return std::string(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
OpExecutionMode %main LocalSize 4 1 1
OpDecorate %lid BuiltIn LocalInvocationId
OpDecorate %arr32 ArrayStride 4
OpMemberDecorate %B 0 Offset 0
OpDecorate %B Block
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_5 = OpConstant %uint 5
%uint_7 = OpConstant %uint 7
%uint_32 = OpConstant %uint 32
%uint_40 = OpConstant %uint 40
%arr3 = OpTypeArray %uint %uint_3
%arr32 = OpTypeArray %uint %uint_32
%B = OpTypeStruct %arr32
%ptr_B = OpTypePointer StorageBuffer %B
%b = OpVariable %ptr_B StorageBuffer
%ptr_lid = OpTypePointer Input %v3uint
%lid = OpVariable %ptr_lid Input
%ptr_in_uint = OpTypePointer Input %uint
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%ptr_priv_arr = OpTypePointer Private %arr3
%ptr_priv_uint = OpTypePointer Private %uint
%init = OpConstantComposite %arr3 %uint_5 %uint_40 %uint_7
%table = OpVariable %ptr_priv_arr Private %init
%main = OpFunction %void None %fn
%entry = OpLabel
)") + (write ? "%pw = OpAccessChain %ptr_priv_uint %table %uint_1\nOpStore %pw %uint_2\n" : "") +
           R"(%px = OpAccessChain %ptr_in_uint %lid %uint_0
%x = OpLoad %uint %px
%i = OpUMod %uint %x %uint_3
%pe = OpAccessChain %ptr_priv_uint %table %i
%e = OpLoad %uint %pe
%pt = OpAccessChain %ptr_sb_uint %b %uint_0 %e
OpStore %pt %uint_0
OpReturn
OpFunctionEnd
)";
  };
  std::optional<Module> written = test::AssembleModule(module_text(true));
  std::optional<Module> read_only = test::AssembleModule(module_text(false));
  ASSERT_TRUE(written && read_only);
  EXPECT_EQ(WitnessesIn(*read_only), (Found{"none", "(1, 0, 0) 40"}));
  EXPECT_EQ(WitnessesIn(*written), (Found{"none", "none"}));
}

}  // namespace
}  // namespace glint::spirv
