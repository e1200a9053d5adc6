// Tests of hoist-constant-tables: glslang's per-access-site Function copies of a constant
// table become one Private variable per constant, for every target environment; every
// variable the pass must leave alone stays byte-identical, with its refusal asserted.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <ostream>

#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/hoist_constant_tables.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// glslangValidator --target-env spellings accepted by test::CompileGlsl ("spirv1.4" is
// vulkan1.1 with SPIR-V 1.4).
const char* const kEnvs[] = {"opengl",   "vulkan1.0", "vulkan1.1",
                             "spirv1.4", "vulkan1.2", "vulkan1.3"};

TargetEnv ValidationEnv(const std::string& env) {
  if (env == "opengl") return TargetEnv::kOpenGL45;
  if (env == "vulkan1.0") return TargetEnv::kVulkan10;
  if (env == "vulkan1.1" || env == "spirv1.4") return TargetEnv::kVulkan11;
  if (env == "vulkan1.2") return TargetEnv::kVulkan12;
  return TargetEnv::kVulkan13;
}

struct Outcome {
  std::vector<uint32_t> before;
  std::vector<uint32_t> after;
  PassResult result;
  std::vector<ConstantTableDecision> decisions;
  std::string text;        // disassembly of `after`
  std::string validation;  // spirv-val's first message on `after`, empty when valid
  std::optional<Module> module;
};

Outcome Hoist(const std::vector<uint32_t>& words, TargetEnv env) {
  Outcome outcome;
  outcome.before = words;
  std::string error;
  outcome.module = ParseModule(words, &error);
  EXPECT_TRUE(outcome.module) << error;
  if (!outcome.module) return outcome;
  outcome.result = HoistConstantTables(*outcome.module, &outcome.decisions);
  outcome.after = outcome.module->Encode();
  outcome.text = test::Disassemble(outcome.after);
  outcome.validation = test::ValidateFor(outcome.after, env);
  return outcome;
}

Outcome HoistGlsl(const std::string& source, const std::string& stage, const std::string& env,
                  bool hlsl = false) {
  return Hoist(test::CompileGlsl(source, stage, env, hlsl), ValidationEnv(env));
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++count;
  return count;
}

std::string Refusals(const Outcome& outcome) {
  std::string all;
  for (const ConstantTableDecision& d : outcome.decisions)
    all += "%" + std::to_string(d.variable) + ": " + (d.refusal.empty() ? "hoisted" : d.refusal) +
           "\n";
  return all;
}

// SPIR-V 1.4+: each entry point lists each hoisted variable exactly once (for modules
// whose every entry point uses every table); below 1.4 the OpEntryPoint instructions
// are exactly glslang's.
void ExpectInterfaces(const Outcome& outcome) {
  std::string error;
  std::optional<Module> before = ParseModule(outcome.before, &error);
  ASSERT_TRUE(before) << error;
  const Module& after = *outcome.module;
  if (!after.VersionAtLeast(1, 4)) {
    ASSERT_EQ(after.entry_points.size(), before->entry_points.size());
    auto old_entry = before->entry_points.begin();
    for (const Instruction& entry : after.entry_points)
      EXPECT_EQ(entry.words, (old_entry++)->words);
    return;
  }
  for (const Instruction& entry : after.entry_points) {
    EntryPointInterfaceView view(entry);
    for (const ConstantTableDecision& d : outcome.decisions) {
      if (!d.hoisted_to) continue;
      EXPECT_EQ(std::count(view.interface().begin(), view.interface().end(), d.hoisted_to), 1)
          << "interface of " << view.name() << " and %" << d.hoisted_to;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Shaders the pass rewrites, each compiled for every environment.

struct HoistCase {
  const char* name;
  const char* stage;
  bool hlsl;
  uint32_t tables;       // Private variables expected
  uint32_t reads;        // access chains expected on them
  const char* patterns;  // CHECK lines on the disassembly
  const char* source;
};

const HoistCase kHoistCases[] = {
    {"SeedMinimal", "frag", false, 1, 1,
     R"(CHECK: %[[TABLE:[0-9]+]] = OpConstantComposite %_arr_float_uint_16 %float_1 %float_2 {{.*}} %float_16{{$}}
        CHECK: %indexable = OpVariable %_ptr_Private__arr_float_uint_16 Private %[[TABLE]]{{$}}
        CHECK-LABEL: %main = OpFunction
        CHECK-NOT: OpStore %indexable
        CHECK: %[[INDEX:[0-9]+]] = OpLoad %int %index
        CHECK-NEXT: %[[ELEMENT:[0-9]+]] = OpAccessChain %_ptr_Private_float %indexable %[[INDEX]]{{$}}
        CHECK-NEXT: OpLoad %float %[[ELEMENT]]{{$}})",
     R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out float color;
const float table[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
void main() { color = table[index]; }
)"},
    // The seed's memoization example: two tables, eight access sites, two functions.
    {"SeedTwoTablesSharedWithHelper", "frag", false, 2, 8,
     R"(CHECK: %[[A:[0-9]+]] = OpConstantComposite %_arr_float_uint_8 %float_1 %float_2 {{.*}} %float_8{{$}}
        CHECK: %[[B:[0-9]+]] = OpConstantComposite %_arr_float_uint_8 %float_8 %float_7 {{.*}} %float_1{{$}}
        CHECK: %[[TABLE_A:indexable]] = OpVariable %_ptr_Private__arr_float_uint_8 Private %[[A]]{{$}}
        CHECK: %[[TABLE_B:indexable_0]] = OpVariable %_ptr_Private__arr_float_uint_8 Private %[[B]]{{$}}
        CHECK-LABEL: %main = OpFunction
        CHECK: %[[I:[0-9]+]] = OpLoad %int %index
        CHECK-NEXT: OpAccessChain %_ptr_Private_float %[[TABLE_A]] %[[I]]{{$}}
        CHECK: %[[I:[0-9]+]] = OpBitwiseAnd %int
        CHECK-NEXT: OpAccessChain %_ptr_Private_float %[[TABLE_A]] %[[I]]{{$}}
        CHECK: %[[I:[0-9]+]] = OpLoad %int %index
        CHECK-NEXT: OpAccessChain %_ptr_Private_float %[[TABLE_B]] %[[I]]{{$}}
        CHECK-COUNT-3: OpAccessChain %_ptr_Private_float %[[TABLE_B]] %{{[0-9]+$}}
        CHECK: OpFunctionCall %float %helper_i1_
        CHECK-LABEL: %helper_i1_ = OpFunction
        CHECK-COUNT-2: OpAccessChain %_ptr_Private_float %[[TABLE_A]] %{{[0-9]+$}})",
     R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
const float tableA[8] = { 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0 };
const float tableB[8] = { 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0 };
float helper(int i) {
    return tableA[i & 7] + tableA[(i + 1) & 7];
}
void main() {
    float a0 = tableA[index];
    float a1 = tableA[(index + 1) & 7];
    float b0 = tableB[index];
    float b1 = tableB[(index + 1) & 7];
    float b2 = tableB[(index + 2) & 7];
    float b3 = tableB[(index + 3) & 7];
    float h  = helper(index);
    color = vec4(a0 + a1 + h, b0 + b1 + b2 + b3, 0.0, 1.0);
}
)"},
    {"NestedArrays", "frag", false, 1, 1,
     R"(CHECK: %[[ROW0:[0-9]+]] = OpConstantComposite %_arr_int_uint_3 %int_1 %int_2 %int_3{{$}}
        CHECK: %[[ROW1:[0-9]+]] = OpConstantComposite %_arr_int_uint_3 %int_4 %int_5 %int_6{{$}}
        CHECK: %[[TABLE:[0-9]+]] = OpConstantComposite %_arr__arr_int_uint_3_uint_2 %[[ROW0]] %[[ROW1]]{{$}}
        CHECK: %indexable = OpVariable %_ptr_Private__arr__arr_int_uint_3_uint_2 Private %[[TABLE]]{{$}}
        CHECK: %[[X:[0-9]+]] = OpLoad %int
        CHECK: %[[Y:[0-9]+]] = OpLoad %int
        CHECK-NEXT: %[[ELEMENT:[0-9]+]] = OpAccessChain %_ptr_Private_int %indexable %[[X]] %[[Y]]{{$}}
        CHECK-NEXT: OpLoad %int %[[ELEMENT]]{{$}})",
     R"(#version 440
layout(location = 0) flat in ivec2 index;
layout(location = 0) out vec4 color;
const int t[2][3] = int[2][3](int[3](1, 2, 3), int[3](4, 5, 6));
void main() { color = vec4(float(t[index.x][index.y])); }
)"},
    {"ArrayOfStructs", "frag", false, 1, 1,
     R"(CHECK: %[[TABLE:[0-9]+]] = OpConstantComposite %_arr_Light_uint_3 %
        CHECK: %indexable = OpVariable %_ptr_Private__arr_Light_uint_3 Private %[[TABLE]]{{$}}
        CHECK: %[[INDEX:[0-9]+]] = OpLoad %int %index
        CHECK-NEXT: %[[COLOR:[0-9]+]] = OpAccessChain %_ptr_Private_v3float %indexable %[[INDEX]] %int_0{{$}}
        CHECK-NEXT: OpLoad %v3float %[[COLOR]]{{$}})",
     R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
struct Light { vec3 color; float radius; };
const Light lights[3] = Light[3](Light(vec3(1, 0, 0), 1.0), Light(vec3(0, 1, 0), 2.0),
                                 Light(vec3(0, 0, 1), 3.0));
void main() { color = vec4(lights[index].color, 1.0); }
)"},
    // A matrix indexed by column at run time, and an array of matrices.
    {"MatrixTables", "vert", false, 2, 2,
     R"(CHECK: %[[ROTATIONS:[0-9]+]] = OpConstantComposite %_arr_mat2v2float_uint_2 %
        CHECK: %[[BASIS:[0-9]+]] = OpConstantComposite %mat4v4float %
        CHECK: %[[TABLE_R:indexable]] = OpVariable %_ptr_Private__arr_mat2v2float_uint_2 Private %[[ROTATIONS]]{{$}}
        CHECK: %[[TABLE_B:indexable_0]] = OpVariable %_ptr_Private_mat4v4float Private %[[BASIS]]{{$}}
        CHECK: %[[X:[0-9]+]] = OpLoad %int
        CHECK: %[[Y:[0-9]+]] = OpLoad %int
        CHECK-NEXT: OpAccessChain %_ptr_Private_v2float %[[TABLE_R]] %[[X]] %[[Y]]{{$}}
        CHECK: %[[X:[0-9]+]] = OpLoad %int
        CHECK-NEXT: OpAccessChain %_ptr_Private_v4float %[[TABLE_B]] %[[X]]{{$}})",
     R"(#version 440
layout(location = 0) in ivec2 index;
const mat4 basis = mat4(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0,
                        9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0);
const mat2 rotations[2] = mat2[2](mat2(1.0), mat2(0.0, 1.0, -1.0, 0.0));
void main() {
  vec2 r = rotations[index.x][index.y];
  gl_Position = basis[index.x] + vec4(r, 0.0, 0.0);
}
)"},
    {"VectorTable", "frag", false, 1, 1,
     R"(CHECK: %[[PALETTE:[0-9]+]] = OpConstantComposite %_arr_v4float_uint_4 %
        CHECK: %indexable = OpVariable %_ptr_Private__arr_v4float_uint_4 Private %[[PALETTE]]{{$}}
        CHECK: %[[MASKED:[0-9]+]] = OpBitwiseAnd %int %{{[0-9]+}} %int_3
        CHECK-NEXT: OpAccessChain %_ptr_Private_v4float %indexable %[[MASKED]]{{$}})",
     R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
const vec4 palette[4] = vec4[4](vec4(1, 0, 0, 1), vec4(0, 1, 0, 1), vec4(0, 0, 1, 1), vec4(1));
void main() { color = palette[index & 3]; }
)"},
    // glslang folds `params.weights` to the member's constant array before indexing it.
    {"StructWithArrayMember", "frag", false, 1, 1,
     R"(CHECK: %[[WEIGHTS:[0-9]+]] = OpConstantComposite %_arr_float_uint_4 %
        CHECK: %indexable = OpVariable %_ptr_Private__arr_float_uint_4 Private %[[WEIGHTS]]{{$}}
        CHECK: %[[INDEX:[0-9]+]] = OpSMod %int
        CHECK-NEXT: OpAccessChain %_ptr_Private_float %indexable %[[INDEX]]{{$}})",
     R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
struct Params { float weights[4]; int count; };
const Params params = Params(float[4](0.1, 0.2, 0.3, 0.4), 4);
void main() { color = vec4(params.weights[index % params.count]); }
)"},
    {"SameTableInSeveralFunctions", "comp", false, 1, 3,
     R"(CHECK: %[[MASKS:[0-9]+]] = OpConstantComposite %_arr_uint_uint_4 %uint_1 %uint_3 %uint_7 %uint_15{{$}}
        CHECK: %indexable = OpVariable %_ptr_Private__arr_uint_uint_4 Private %[[MASKS]]{{$}}
        CHECK-NOT: OpVariable %_ptr_Private__arr_uint_uint_4
        CHECK-LABEL: %main = OpFunction
        CHECK: %[[I:[0-9]+]] = OpBitwiseAnd %uint %{{[0-9]+}} %uint_3
        CHECK-NEXT: OpAccessChain %_ptr_Private_uint %indexable %[[I]]{{$}}
        CHECK-LABEL: %low_u1_ = OpFunction
        CHECK: %[[I:[0-9]+]] = OpBitwiseAnd %uint %{{[0-9]+}} %uint_3
        CHECK-NEXT: OpAccessChain %_ptr_Private_uint %indexable %[[I]]{{$}}
        CHECK-LABEL: %high_u1_ = OpFunction
        CHECK: %[[I:[0-9]+]] = OpBitwiseAnd %uint %{{[0-9]+}} %uint_3
        CHECK-NEXT: OpAccessChain %_ptr_Private_uint %indexable %[[I]]{{$}})",
     R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
const uint masks[4] = uint[4](0x1u, 0x3u, 0x7u, 0xfu);
uint low(uint i) { return masks[i & 3u]; }
uint high(uint i) { return masks[(i >> 2) & 3u] << 4; }
void main() {
  uint i = gl_GlobalInvocationID.x;
  values[i] = masks[values[i] & 3u] | low(i) | high(i);
}
)"},
    // A local array initialized once and only read is a table as well; it keeps its name.
    {"ReadOnlyLocalArray", "frag", false, 1, 1,
     R"(CHECK: %[[WEIGHTS:[0-9]+]] = OpConstantComposite %_arr_float_uint_3 %float_0_25 %float_0_5 %float_0_25{{$}}
        CHECK: %weights = OpVariable %_ptr_Private__arr_float_uint_3 Private %[[WEIGHTS]]{{$}}
        CHECK-NOT: OpStore %weights
        CHECK: %[[INDEX:[0-9]+]] = OpLoad %int %index
        CHECK-NEXT: OpAccessChain %_ptr_Private_float %weights %[[INDEX]]{{$}})",
     R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
void main() {
  float weights[3] = float[3](0.25, 0.5, 0.25);
  color = vec4(weights[index]);
}
)"},
    // ES mediump: the local carries RelaxedPrecision, which is dropped with it (the loads
    // keep their own RelaxedPrecision).
    {"RelaxedPrecisionLocal", "frag", false, 1, 1,
     R"(CHECK-NOT: OpDecorate %weights
        CHECK: %[[WEIGHTS:[0-9]+]] = OpConstantComposite %_arr_float_uint_3 %float_0_25 %float_0_5 %float_0_25{{$}}
        CHECK: %weights = OpVariable %_ptr_Private__arr_float_uint_3 Private %[[WEIGHTS]]{{$}}
        CHECK: %[[INDEX:[0-9]+]] = OpLoad %int %index
        CHECK-NEXT: OpAccessChain %_ptr_Private_float %weights %[[INDEX]]{{$}})",
     R"(#version 310 es
precision mediump float;
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
void main() {
  float weights[3] = float[3](0.25, 0.5, 0.25);
  color = vec4(weights[index]);
}
)"},
    // `u` is a copy of the table that is then modified: `t` is only read (whole, then
    // indexed) and is hoisted; `u` holds no constant and stays.
    {"CopyOfTableModified", "frag", false, 1, 1,
     R"(CHECK: %[[TABLE:[0-9]+]] = OpConstantComposite %_arr_float_uint_4 %float_1 %float_2 %float_3 %float_4{{$}}
        CHECK: %t = OpVariable %_ptr_Private__arr_float_uint_4 Private %[[TABLE]]{{$}}
        CHECK: %u = OpVariable %_ptr_Function__arr_float_uint_4 Function{{$}}
        CHECK: %[[COPY:[0-9]+]] = OpLoad %_arr_float_uint_4 %t
        CHECK-NEXT: OpStore %u %[[COPY]]{{$}}
        CHECK: %[[INDEX:[0-9]+]] = OpLoad %int %index
        CHECK-NEXT: OpAccessChain %_ptr_Private_float %t %[[INDEX]]{{$}}
        CHECK: %[[INDEX:[0-9]+]] = OpLoad %int %index
        CHECK-NEXT: OpAccessChain %_ptr_Function_float %u %[[INDEX]]{{$}})",
     R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
void main() {
  float t[4] = float[4](1.0, 2.0, 3.0, 4.0);
  float u[4] = t;
  u[1] = color.x;
  color = vec4(t[index] + u[index]);
}
)"},
    {"HlslStaticConst", "frag", true, 1, 1,
     R"(CHECK: %[[TABLE:[0-9]+]] = OpConstantComposite %_arr_float_uint_4 %float_1 %float_2 %float_3 %float_4{{$}}
        CHECK: %[[VARIABLE:[A-Za-z0-9_]+]] = OpVariable %_ptr_Private__arr_float_uint_4 Private %[[TABLE]]{{$}}
        CHECK: OpAccessChain %_ptr_Private_float %[[VARIABLE]] %{{[0-9]+$}})",
     R"(static const float table[4] = { 1, 2, 3, 4 };
float4 main(int i : TEXCOORD0) : SV_Target { return table[i]; }
)"},
};

void PrintTo(const HoistCase& c, std::ostream* out) { *out << c.name; }

class HoistTables : public ::testing::TestWithParam<std::tuple<HoistCase, const char*>> {};

TEST_P(HoistTables, OnePrivateVariablePerConstant) {
  const auto& [c, env] = GetParam();
  Outcome outcome = HoistGlsl(c.source, c.stage, env, c.hlsl);
  ASSERT_EQ(outcome.result.status, PassStatus::kChanged) << Refusals(outcome) << outcome.text;
  EXPECT_EQ(outcome.result.rewrites, c.tables) << Refusals(outcome);
  EXPECT_EQ(outcome.validation, "") << outcome.text;
  EXPECT_TRUE(test::FileCheck(outcome.text, c.patterns));
  EXPECT_EQ(Count(outcome.text, "OpVariable %_ptr_Private_"), c.tables);
  EXPECT_EQ(Count(outcome.text, "OpAccessChain %_ptr_Private_"), c.reads);
  EXPECT_EQ(Count(outcome.text, "OpDecorate %indexable NonWritable"), 0u);
  ExpectInterfaces(outcome);
  // A second run finds nothing left to do and leaves the words alone.
  Outcome again = Hoist(outcome.after, ValidationEnv(env));
  EXPECT_EQ(again.result.status, PassStatus::kUnchanged);
  EXPECT_EQ(again.after, outcome.after);
}

INSTANTIATE_TEST_SUITE_P(Shaders, HoistTables,
                         ::testing::Combine(::testing::ValuesIn(kHoistCases),
                                            ::testing::ValuesIn(kEnvs)),
                         [](const auto& info) {
                           std::string env = std::get<1>(info.param);
                           env.erase(std::remove(env.begin(), env.end(), '.'), env.end());
                           return std::string(std::get<0>(info.param).name) + "_" + env;
                         });

// ---------------------------------------------------------------------------------------
// Shaders the pass must leave byte-identical, each compiled for every environment.

struct KeepCase {
  const char* name;
  const char* refusal;  // expected in the decision for the variable
  const char* source;   // fragment shader
};

const KeepCase kKeepCases[] = {
    {"PartialStore", "partial OpStore",
     R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
void main() {
  float t[4] = float[4](1.0, 2.0, 3.0, 4.0);
  t[index & 1] = 5.0;
  color = vec4(t[index]);
}
)"},
    {"WrittenAgain", "also written with",
     R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
void main() {
  float t[2] = float[2](1.0, 2.0);
  if (index > 3) t = float[2](3.0, 4.0);
  color = vec4(t[index]);
}
)"},
    {"StoreDoesNotDominateRead", "no OpStore of its content dominates a read",
     R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
void main() {
  float t[2];
  if (index > 3) t = float[2](3.0, 4.0);
  color = vec4(t[index]);
}
)"},
    {"OnlyConstantIndices", "not a lookup table",
     R"(#version 440
layout(location = 0) out vec4 color;
void main() {
  float t[3] = float[3](1.0, 2.0, 3.0);
  color = vec4(t[0], t[1], t[2], 1.0);
}
)"},
};

void PrintTo(const KeepCase& c, std::ostream* out) { *out << c.name; }

class KeepTables : public ::testing::TestWithParam<std::tuple<KeepCase, const char*>> {};

TEST_P(KeepTables, ModuleIsUntouched) {
  const auto& [c, env] = GetParam();
  Outcome outcome = HoistGlsl(c.source, "frag", env);
  EXPECT_EQ(outcome.result.status, PassStatus::kUnchanged) << outcome.text;
  EXPECT_EQ(outcome.after, outcome.before);
  EXPECT_EQ(outcome.validation, "");
  ASSERT_FALSE(outcome.decisions.empty());
  for (const ConstantTableDecision& d : outcome.decisions) {
    EXPECT_EQ(d.hoisted_to, 0u);
    EXPECT_NE(d.refusal.find(c.refusal), std::string::npos) << d.refusal;
  }
}

INSTANTIATE_TEST_SUITE_P(Shaders, KeepTables,
                         ::testing::Combine(::testing::ValuesIn(kKeepCases),
                                            ::testing::ValuesIn(kEnvs)),
                         [](const auto& info) {
                           std::string env = std::get<1>(info.param);
                           env.erase(std::remove(env.begin(), env.end(), '.'), env.end());
                           return std::string(std::get<0>(info.param).name) + "_" + env;
                         });

TEST(HoistConstantTables, NoTables_IsUnchangedAndNotParsedFurther) {
  // #version 440
  // layout(location = 0) in vec4 v; layout(location = 0) out vec4 color;
  // void main() { color = v * 2.0; }
  Outcome outcome = HoistGlsl(
      "#version 440\nlayout(location = 0) in vec4 v; layout(location = 0) out vec4 color;\n"
      "void main() { color = v * 2.0; }\n",
      "frag", "vulkan1.0");
  EXPECT_EQ(outcome.result.status, PassStatus::kUnchanged);
  EXPECT_TRUE(outcome.decisions.empty());
  EXPECT_EQ(outcome.after, outcome.before);
}

// glslang 12 builds a table that holds a specialization constant at run time
// (OpCompositeConstruct), so there is no constant to hoist: nothing changes. The
// OpSpecConstantComposite form other front ends emit is refused below (SpecConstantTable).
TEST(HoistConstantTables, SpecConstantBuiltTable_IsUntouched) {
  const char* source = R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
layout(constant_id = 0) const float scale = 2.0;
void main() {
  const vec2 t[2] = vec2[2](vec2(scale), vec2(1.0));
  color = vec4(t[index], 0.0, 1.0);
}
)";
  for (const char* env : kEnvs) {
    Outcome outcome = HoistGlsl(source, "frag", env);
    EXPECT_EQ(outcome.result.status, PassStatus::kUnchanged) << env;
    EXPECT_EQ(outcome.after, outcome.before) << env;
    EXPECT_EQ(outcome.validation, "") << env;
    EXPECT_NE(outcome.text.find("OpSpecConstantComposite"), std::string::npos) << env;
  }
}

// Stages: the same table read from vertex, fragment and compute shaders of one program
// style; each validates for every environment through the parameterised cases above, and
// here the entry point interface of a 1.4 vertex shader is checked in the text.
TEST(HoistConstantTables, VertexShader_Spirv14InterfaceListsTable) {
  // #version 440
  // layout(location = 0) in int index;
  // const vec2 corners[4] = vec2[4](vec2(-1), vec2(1, -1), vec2(-1, 1), vec2(1));
  // void main() { gl_Position = vec4(corners[index], 0.0, 1.0); }
  Outcome outcome = HoistGlsl(R"(#version 440
layout(location = 0) in int index;
const vec2 corners[4] = vec2[4](vec2(-1), vec2(1, -1), vec2(-1, 1), vec2(1));
void main() { gl_Position = vec4(corners[index], 0.0, 1.0); }
)",
                              "vert", "spirv1.4");
  ASSERT_EQ(outcome.result.status, PassStatus::kChanged);
  EXPECT_EQ(outcome.validation, "");
  EXPECT_TRUE(test::FileCheck(outcome.text, R"(
    CHECK: OpEntryPoint Vertex %main "main" {{.*}}%indexable
    CHECK: %[[CORNERS:[0-9]+]] = OpConstantComposite %_arr_v2float_uint_4 %
    CHECK: %indexable = OpVariable %_ptr_Private__arr_v2float_uint_4 Private %[[CORNERS]]{{$}}
    CHECK: %[[INDEX:[0-9]+]] = OpLoad %int %index
    CHECK-NEXT: OpAccessChain %_ptr_Private_v2float %indexable %[[INDEX]]{{$}})"));
  size_t entry = outcome.text.find("OpEntryPoint");
  std::string entry_line = outcome.text.substr(entry, outcome.text.find('\n', entry) - entry);
  EXPECT_NE(entry_line.find(" %indexable"), std::string::npos) << entry_line;
}

// Through the public API: on by default, off with Options::hoist_constant_tables.
TEST(HoistConstantTables, Process_OnByDefaultAndSwitchable) {
  // The seed's minimal shader.
  std::vector<uint32_t> words = test::CompileGlsl(kHoistCases[0].source, "frag", "vulkan1.0");
  std::vector<uint32_t> hoisted = words;
  glint::Options options;
  glint::Report report;
  ASSERT_TRUE(Process(hoisted, options, &report));
  EXPECT_NE(hoisted, words);
  bool seen = false;
  for (const glint::PassStatistic& statistic : report.passes)
    if (statistic.pass == "hoist-constant-tables") {
      seen = true;
      EXPECT_TRUE(statistic.changed);
      EXPECT_EQ(statistic.rewrites, 1u);
    }
  EXPECT_TRUE(seen);
  std::vector<uint32_t> kept = words;
  options.hoist_constant_tables = false;
  glint::Report off_report;
  ASSERT_TRUE(Process(kept, options, &off_report));
  for (const glint::PassStatistic& statistic : off_report.passes)
    EXPECT_NE(statistic.pass, "hoist-constant-tables");
}

// ---------------------------------------------------------------------------------------
// Uses glslang never emits for its temporaries, written as assembly. Each body runs in
// main of a SPIR-V 1.4 fragment shader that has %table (float[4]) and %index (int).
// Some of these inputs are not valid for any client API (an atomic or OpPtrEqual on
// Function storage); what is tested is that the pass leaves such a module untouched.

const char* const kAssemblyPrologue = R"(
               OpCapability Shader
               OpCapability VariablePointers
               OpExtension "SPV_KHR_variable_pointers"
               OpMemoryModel Logical GLSL450
               OpEntryPoint Fragment %main "main" %in_index %color
               OpExecutionMode %main OriginUpperLeft
               OpDecorate %in_index Flat
               OpDecorate %in_index Location 0
               OpDecorate %color Location 0
               OpDecorate %spec_one SpecId 0
       %void = OpTypeVoid
     %void_f = OpTypeFunction %void
      %float = OpTypeFloat 32
        %int = OpTypeInt 32 1
       %uint = OpTypeInt 32 0
     %uint_4 = OpConstant %uint 4
      %int_1 = OpConstant %int 1
        %arr = OpTypeArray %float %uint_4
    %float_1 = OpConstant %float 1
    %float_2 = OpConstant %float 2
      %table = OpConstantComposite %arr %float_1 %float_2 %float_1 %float_2
   %spec_one = OpSpecConstant %float 1
 %spec_table = OpSpecConstantComposite %arr %spec_one %float_2 %float_1 %float_2
 %null_table = OpConstantNull %arr
   %ptr_farr = OpTypePointer Function %arr
 %ptr_ffloat = OpTypePointer Function %float
   %ptr_iint = OpTypePointer Input %int
  %ptr_ofloat = OpTypePointer Output %float
   %in_index = OpVariable %ptr_iint Input
      %color = OpVariable %ptr_ofloat Output
       %bool = OpTypeBool
  %true = OpConstantTrue %bool
%ptr_fptr_float = OpTypePointer Function %ptr_ffloat
%ptr_fptr_arr = OpTypePointer Function %ptr_farr
 %take_arr_f = OpTypeFunction %float %ptr_farr
       %take = OpFunction %float None %take_arr_f
      %param = OpFunctionParameter %ptr_farr
 %take_entry = OpLabel
   %take_ptr = OpAccessChain %ptr_ffloat %param %int_1
   %take_val = OpLoad %float %take_ptr
               OpReturnValue %take_val
               OpFunctionEnd
       %main = OpFunction %void None %void_f
      %entry = OpLabel
          %v = OpVariable %ptr_farr Function
      %other = OpVariable %ptr_farr Function
 %holder_arr = OpVariable %ptr_fptr_arr Function
%holder_elem = OpVariable %ptr_fptr_float Function
      %index = OpLoad %int %in_index
)";

const char* const kAssemblyEpilogue = R"(
               OpReturn
               OpFunctionEnd
)";

struct AssemblyCase {
  const char* name;
  const char* body;
  const char* refusal;
};

const AssemblyCase kAssemblyCases[] = {
    {"SpecConstantTable",
     R"(OpStore %v %spec_table
        %p = OpAccessChain %ptr_ffloat %v %index
        %x = OpLoad %float %p
        OpStore %color %x)",
     "specialization constant"},
    {"PassedToFunction",
     R"(OpStore %v %table
        %r = OpFunctionCall %float %take %v
        %p = OpAccessChain %ptr_ffloat %v %index
        %x = OpLoad %float %p
        OpStore %color %x)",
     "used by OpFunctionCall"},
    {"PointerCompared",
     R"(OpStore %v %table
        %p = OpAccessChain %ptr_ffloat %v %index
        %q = OpAccessChain %ptr_ffloat %v %int_1
        %same = OpPtrEqual %bool %p %q
        %x = OpLoad %float %p
        OpStore %color %x)",
     "used by OpPtrEqual through an access chain"},
    {"PointerStored",
     R"(OpStore %v %table
        OpStore %holder_arr %v
        %p = OpAccessChain %ptr_ffloat %v %index
        %x = OpLoad %float %p
        OpStore %color %x)",
     "its pointer is stored"},
    {"ElementPointerStored",
     R"(OpStore %v %table
        %p = OpAccessChain %ptr_ffloat %v %index
        OpStore %holder_elem %p
        %x = OpLoad %float %p
        OpStore %color %x)",
     "a pointer into it is stored"},
    {"PointerSelected",
     R"(OpStore %v %table
        %p = OpAccessChain %ptr_ffloat %v %index
        %q = OpAccessChain %ptr_ffloat %v %int_1
        %s = OpSelect %ptr_ffloat %true %p %q
        %x = OpLoad %float %s
        OpStore %color %x)",
     "used by OpSelect through an access chain"},
    {"PointerCopied",
     R"(OpStore %v %table
        %p = OpAccessChain %ptr_ffloat %v %index
        %c = OpCopyObject %ptr_farr %v
        %q = OpAccessChain %ptr_ffloat %c %int_1
        %x = OpLoad %float %p
        OpStore %q %x
        OpStore %color %x)",
     "used by OpCopyObject"},
    {"CopyMemoryFrom",
     R"(OpStore %v %table
        OpCopyMemory %other %v
        %p = OpAccessChain %ptr_ffloat %v %index
        %x = OpLoad %float %p
        OpStore %color %x)",
     "used by OpCopyMemory"},
    {"CopyMemoryInto",
     R"(OpStore %v %table
        %p = OpAccessChain %ptr_ffloat %v %index
        %x = OpLoad %float %p
        OpCopyMemory %v %v
        OpStore %color %x)",
     "used by OpCopyMemory"},
    {"PartialStoreThroughChain",
     R"(OpStore %v %table
        %p = OpAccessChain %ptr_ffloat %v %index
        OpStore %p %float_2
        %x = OpLoad %float %p
        OpStore %color %x)",
     "partial OpStore"},
    {"AtomicOnElement",
     R"(OpStore %v %table
        %p = OpAccessChain %ptr_ffloat %v %index
        %x = OpAtomicLoad %float %p %int_1 %int_1
        OpStore %color %x)",
     "used by OpAtomicLoad through an access chain"},
    {"LoadBeforeStore",
     R"(%p = OpAccessChain %ptr_ffloat %v %index
        %x = OpLoad %float %p
        OpStore %v %table
        OpStore %color %x)",
     "no OpStore of its content dominates a read"},
    {"VolatileStore",
     R"(OpStore %v %table Volatile
        %p = OpAccessChain %ptr_ffloat %v %index
        %x = OpLoad %float %p
        OpStore %color %x)",
     "memory operands"},
};

void PrintTo(const AssemblyCase& c, std::ostream* out) { *out << c.name; }

class KeepAssembly : public ::testing::TestWithParam<AssemblyCase> {};

TEST_P(KeepAssembly, ModuleIsUntouched) {
  std::string text = std::string(kAssemblyPrologue) + GetParam().body + kAssemblyEpilogue;
  std::vector<uint32_t> words = test::Assemble(text);
  words[1] = 0x00010400;  // SPIR-V 1.4 (OpPtrEqual)
  Outcome outcome = Hoist(words, TargetEnv::kUniversal);
  EXPECT_EQ(outcome.result.status, PassStatus::kUnchanged);
  EXPECT_EQ(outcome.after, outcome.before);
  ASSERT_EQ(outcome.decisions.size(), 1u);
  EXPECT_NE(outcome.decisions[0].refusal.find(GetParam().refusal), std::string::npos)
      << outcome.decisions[0].refusal;
}

INSTANTIATE_TEST_SUITE_P(Uses, KeepAssembly, ::testing::ValuesIn(kAssemblyCases),
                         [](const auto& info) { return std::string(info.param.name); });

// Two entry points at SPIR-V 1.4: %uses_table reaches the table through %lookup, %plain
// does not. Only the first lists the hoisted variable (once, although two Function
// variables in two functions were merged into it).
TEST(HoistConstantTables, TwoEntryPoints_OnlyTheUserListsTheTable) {
  std::vector<uint32_t> words = test::Assemble(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %uses_table "uses_table" %out_value
               OpEntryPoint GLCompute %plain "plain" %out_value
               OpExecutionMode %uses_table LocalSize 1 1 1
               OpExecutionMode %plain LocalSize 1 1 1
       %void = OpTypeVoid
     %void_f = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
        %arr = OpTypeArray %uint %uint_4
      %table = OpConstantComposite %arr %uint_3 %uint_4 %uint_3 %uint_4
   %ptr_farr = OpTypePointer Function %arr
  %ptr_fuint = OpTypePointer Function %uint
  %ptr_puint = OpTypePointer Private %uint
  %out_value = OpVariable %ptr_puint Private
     %uint_f = OpTypeFunction %uint
     %lookup = OpFunction %uint None %uint_f
%lookup_entry = OpLabel
     %temp_a = OpVariable %ptr_farr Function
     %index = OpLoad %uint %out_value
               OpStore %temp_a %table
         %pa = OpAccessChain %ptr_fuint %temp_a %index
         %va = OpLoad %uint %pa
               OpReturnValue %va
               OpFunctionEnd
 %uses_table = OpFunction %void None %void_f
 %uses_entry = OpLabel
     %temp_b = OpVariable %ptr_farr Function
    %index_b = OpLoad %uint %out_value
               OpStore %temp_b %table
         %pb = OpAccessChain %ptr_fuint %temp_b %index_b
         %vb = OpLoad %uint %pb
         %vc = OpFunctionCall %uint %lookup
        %sum = OpIAdd %uint %vb %vc
               OpStore %out_value %sum
               OpReturn
               OpFunctionEnd
      %plain = OpFunction %void None %void_f
%plain_entry = OpLabel
               OpStore %out_value %uint_3
               OpReturn
               OpFunctionEnd
)");
  words[1] = 0x00010400;  // SPIR-V 1.4
  ASSERT_EQ(test::ValidateFor(words, TargetEnv::kUniversal), "");
  Outcome outcome = Hoist(words, TargetEnv::kUniversal);
  ASSERT_EQ(outcome.result.status, PassStatus::kChanged) << Refusals(outcome);
  EXPECT_EQ(outcome.result.rewrites, 1u);
  EXPECT_EQ(outcome.validation, "") << outcome.text;
  ASSERT_EQ(outcome.decisions.size(), 2u);
  uint32_t table = outcome.decisions[0].hoisted_to;
  EXPECT_EQ(outcome.decisions[1].hoisted_to, table);
  for (const Instruction& entry : outcome.module->entry_points) {
    EntryPointInterfaceView view(entry);
    auto listed = std::count(view.interface().begin(), view.interface().end(), table);
    EXPECT_EQ(listed, view.name() == "uses_table" ? 1 : 0) << view.name();
  }
}

// Initializer plus OpStore of the same constant: what HLSL legalization (spirv-opt's
// inliner) makes of glslang's 1.4 form. The content never changes, so it is hoisted;
// a store of anything else keeps the variable.
std::string WithInitializer(std::string text) {
  const std::string plain_variable = "%v = OpVariable %ptr_farr Function";
  return text.replace(text.find(plain_variable), plain_variable.size(), plain_variable + " %table");
}

TEST(HoistConstantTables, InitializerAndStoreOfOtherValue_IsKept) {
  std::string text = WithInitializer(std::string(kAssemblyPrologue) +
                                     R"(%whole = OpLoad %arr %v
                                        OpStore %v %whole
                                        %p = OpAccessChain %ptr_ffloat %v %index
                                        %x = OpLoad %float %p
                                        OpStore %color %x)" +
                                     kAssemblyEpilogue);
  Outcome outcome = Hoist(test::Assemble(text), TargetEnv::kUniversal);
  EXPECT_EQ(outcome.result.status, PassStatus::kUnchanged);
  EXPECT_EQ(outcome.after, outcome.before);
  EXPECT_EQ(outcome.validation, "");
  EXPECT_NE(Refusals(outcome).find("also written with"), std::string::npos) << Refusals(outcome);
}

// ---------------------------------------------------------------------------------------
// Safety promises that an earlier suite left unguarded (each was broken on purpose in a
// scratch build and nothing failed; see /work/notes/spirv-deps.md). Each module is valid
// in every environment, and the pass must leave it byte-identical.

// A minimal fragment shader whose Function variable %v holds `content` (stored at the top
// of main) and is read at a run-time index; `decorations` and `constants` are spliced in.
std::string TableModule(const std::string& decorations, const std::string& constants,
                        const std::string& content) {
  return R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint Fragment %main "main" %in_index %color
               OpExecutionMode %main OriginUpperLeft
               OpDecorate %in_index Flat
               OpDecorate %in_index Location 0
               OpDecorate %color Location 0
               OpDecorate %spec_one SpecId 0
)" + decorations +
         R"(
       %void = OpTypeVoid
     %void_f = OpTypeFunction %void
      %float = OpTypeFloat 32
        %int = OpTypeInt 32 1
       %uint = OpTypeInt 32 0
     %uint_4 = OpConstant %uint 4
        %arr = OpTypeArray %float %uint_4
    %float_1 = OpConstant %float 1
    %float_2 = OpConstant %float 2
   %spec_one = OpSpecConstant %float 1
      %table = OpConstantComposite %arr %float_1 %float_2 %float_1 %float_2
)" + constants +
         R"(
   %ptr_farr = OpTypePointer Function %arr
 %ptr_ffloat = OpTypePointer Function %float
   %ptr_iint = OpTypePointer Input %int
 %ptr_ofloat = OpTypePointer Output %float
   %in_index = OpVariable %ptr_iint Input
      %color = OpVariable %ptr_ofloat Output
       %main = OpFunction %void None %void_f
      %entry = OpLabel
          %v = OpVariable %ptr_farr Function
      %index = OpLoad %int %in_index
               OpStore %v )" +
         content + R"(
          %p = OpAccessChain %ptr_ffloat %v %index
          %x = OpLoad %float %p
               OpStore %color %x
               OpReturn
               OpFunctionEnd
)";
}

const TargetEnv kAllTargets[] = {TargetEnv::kUniversal, TargetEnv::kOpenGL45, TargetEnv::kVulkan10,
                                 TargetEnv::kVulkan11,  TargetEnv::kVulkan12, TargetEnv::kVulkan13};

// Hoists `text` and expects it left alone with `refusal`, the module valid in every
// environment (so the case is one a real front end may produce).
void ExpectKept(const std::string& text, const std::string& refusal) {
  std::vector<uint32_t> words = test::Assemble(text);
  words[1] = 0x00010000;  // SPIR-V 1.0: valid for every target
  Outcome outcome = Hoist(words, TargetEnv::kUniversal);
  EXPECT_EQ(outcome.result.status, PassStatus::kUnchanged) << outcome.text;
  EXPECT_EQ(outcome.after, outcome.before);
  ASSERT_EQ(outcome.decisions.size(), 1u);
  EXPECT_EQ(outcome.decisions[0].hoisted_to, 0u);
  EXPECT_NE(outcome.decisions[0].refusal.find(refusal), std::string::npos)
      << outcome.decisions[0].refusal;
  for (TargetEnv env : kAllTargets)
    EXPECT_EQ(test::ValidateFor(outcome.after, env), "") << static_cast<int>(env);
}

// ---------------------------------------------------------------------------------------
// Modules written by hand that the pass hoists: each case's module, the SPIR-V version
// it is given (0: as assembled), what the hoisted module must hold (FileCheck), and
// whether it must also validate in every environment.

const char kReadsTheTable[] = R"(OpStore %v %table
                        %p = OpAccessChain %ptr_ffloat %v %index
                        %x = OpLoad %float %p
                        OpStore %color %x)";

struct HoistedCase {
  const char* name;
  std::function<std::string()> text;
  uint32_t version;
  const char* checks;
  bool every_environment;
};

void PrintTo(const HoistedCase& c, std::ostream* out) { *out << c.name; }

const char kHoistedPlainTable[] = R"(
    CHECK: %[[TABLE:[0-9]+]] = OpConstantComposite %_arr_float_uint_4 %float_1 %float_2 %float_1 %float_2{{$}}
    CHECK: %[[HOISTED:[0-9]+]] = OpVariable %_ptr_Private__arr_float_uint_4 Private %[[TABLE]]{{$}}
    CHECK: = OpFunction %void
    CHECK-NOT: OpStore %
    CHECK: OpAccessChain %_ptr_Private_float %[[HOISTED]] %{{[0-9]+$}})";

const HoistedCase kHoistedCases[] = {
    // The prologue of the kept cases above with a plain read: they differ from it only
    // by the use they name. At SPIR-V 1.4 the entry point lists the new variable.
    {"AssemblyBaseline",
     [] { return std::string(kAssemblyPrologue) + kReadsTheTable + kAssemblyEpilogue; }, 0x00010400,
     R"(
    CHECK: OpEntryPoint Fragment %1 "main" %2 %3 %[[HOISTED:[0-9]+]]{{$}}
    CHECK: %[[TABLE:[0-9]+]] = OpConstantComposite %_arr_float_uint_4 %float_1 %float_2 %float_1 %float_2{{$}}
    CHECK: %[[HOISTED]] = OpVariable %_ptr_Private__arr_float_uint_4 Private %[[TABLE]]{{$}}
    CHECK: = OpFunction %void
    CHECK-NOT: OpStore
    CHECK: OpAccessChain %_ptr_Private_float %[[HOISTED]] %{{[0-9]+$}})",
     false},
    // OpConstantNull is a constant table too (other front ends emit it for all-zero
    // arrays).
    {"ConstantNullTable",
     [] {
       return std::string(kAssemblyPrologue) +
              R"(OpStore %v %null_table
                 %p = OpAccessChain %ptr_ffloat %v %index
                 %x = OpLoad %float %p
                 OpStore %color %x)" +
              kAssemblyEpilogue;
     },
     0,
     R"(
    CHECK: %[[NULL:[0-9]+]] = OpConstantNull %_arr_float_uint_4
    CHECK: %[[HOISTED:[0-9]+]] = OpVariable %_ptr_Private__arr_float_uint_4 Private %[[NULL]]{{$}}
    CHECK: = OpFunction %void
    CHECK-NOT: OpStore %
    CHECK: OpAccessChain %_ptr_Private_float %[[HOISTED]] %{{[0-9]+$}})",
     false},
    // Initializer plus OpStore of the same constant: what HLSL legalization (spirv-opt's
    // inliner) makes of glslang's 1.4 form. The content never changes, so it is hoisted
    // (a store of anything else keeps the variable: InitializerAndStoreOfOtherValue).
    {"InitializerAndStoreOfSameConstant",
     [] {
       return WithInitializer(std::string(kAssemblyPrologue) + kReadsTheTable + kAssemblyEpilogue);
     },
     0, kHoistedPlainTable, false},
    // The baseline of the table-module cases that are kept: the same module with a plain
    // table and no decoration is hoisted, valid everywhere, so what keeps them is what
    // they add.
    {"TableModuleBaseline", [] { return TableModule("", "", "%table"); }, 0x00010000,
     R"(
    CHECK: %[[TABLE:[0-9]+]] = OpConstantComposite %_arr_float_uint_4 %float_1 %float_2 %float_1 %float_2{{$}}
    CHECK: %[[HOISTED:[0-9]+]] = OpVariable %_ptr_Private__arr_float_uint_4 Private %[[TABLE]]{{$}}
    CHECK: = OpFunction %void
    CHECK-NOT: OpVariable
    CHECK-NOT: OpStore %
    CHECK: OpAccessChain %_ptr_Private_float %[[HOISTED]] %{{[0-9]+$}})",
     true},
    // The store dominates the read from another block (not only from earlier in the same
    // block): hoisted. Guards the direction of the dominance question.
    {"StoreInEntryReadInLaterBlock",
     [] {
       std::string text = TableModule("", "", "%table");
       const std::string read = "          %p = OpAccessChain";
       text.insert(text.find(read), "               OpBranch %next\n       %next = OpLabel\n");
       return text;
     },
     0x00010000,
     R"(
    CHECK: %[[HOISTED:[0-9]+]] = OpVariable %_ptr_Private__arr_float_uint_4 Private %{{[0-9]+$}}
    CHECK: = OpFunction %void
    CHECK-NOT: OpVariable
    CHECK: OpBranch %[[NEXT:[0-9]+]]
    CHECK: %[[NEXT]] = OpLabel
    CHECK-NEXT: OpAccessChain %_ptr_Private_float %[[HOISTED]] %{{[0-9]+$}})",
     true},
};

class HoistAssembly : public ::testing::TestWithParam<HoistedCase> {};

TEST_P(HoistAssembly, OneTableHoisted) {
  const HoistedCase& c = GetParam();
  std::vector<uint32_t> words = test::Assemble(c.text());
  ASSERT_FALSE(words.empty());
  if (c.version) words[1] = c.version;
  Outcome outcome = Hoist(words, TargetEnv::kUniversal);
  ASSERT_EQ(outcome.result.status, PassStatus::kChanged) << Refusals(outcome);
  EXPECT_EQ(outcome.result.rewrites, 1u);
  EXPECT_EQ(outcome.validation, "") << outcome.text;
  EXPECT_TRUE(test::FileCheck(outcome.text, c.checks));
  if (c.every_environment)
    for (TargetEnv env : kAllTargets)
      EXPECT_EQ(test::ValidateFor(outcome.after, env), "") << static_cast<int>(env);
}

INSTANTIATE_TEST_SUITE_P(Modules, HoistAssembly, ::testing::ValuesIn(kHoistedCases),
                         [](const auto& info) { return std::string(info.param.name); });

// Spec constants are left alone even inside a plain OpConstantComposite: the composite's
// value is fixed only at pipeline creation (the taint is carried from its constituents).
TEST(HoistConstantTables, PlainCompositeHoldingSpecConstant_IsKept) {
  ExpectKept(
      TableModule("", "%mixed = OpConstantComposite %arr %spec_one %float_2 %float_1 %float_2",
                  "%mixed"),
      "specialization constant");
}

// A decoration the pass does not know what to do with keeps the variable: dropping a
// Volatile decoration with the Function variable would change what the reads mean.
TEST(HoistConstantTables, VolatileDecoratedTable_IsKept) {
  ExpectKept(TableModule("OpDecorate %v Volatile", "", "%table"), "it is decorated Volatile");
}

// The pass preserves only the CFG: run by the pass manager on a context whose def-use
// was built before, the next user of def-use sees the new Private variable.
TEST(HoistConstantTables, ThroughThePassManager_DefUseIsRebuilt) {
  std::vector<uint32_t> words = test::Assemble(TableModule("", "", "%table"));
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  AnalysisContext analyses(*module);
  analyses.GetDefUse();  // built on the module before the rewrite
  PassManager manager;
  manager.Add(std::make_unique<HoistConstantTablesPass>());
  Options options;
  PassContext context{options, nullptr, &analyses};
  ASSERT_EQ(manager.Run(*module, context).status, PassStatus::kChanged);
  const Instruction& hoisted = module->types_values.back();
  ASSERT_EQ(hoisted.opcode, spv::OpVariable);
  EXPECT_EQ(analyses.GetDefUse().Definition(hoisted.result_id), &hoisted)
      << "hoist-constant-tables changes definitions and must not claim def-use preserved";
}

}  // namespace
}  // namespace glint::spirv
