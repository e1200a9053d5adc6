// Tests of the starting levels (SPIRV/analysis/uniformity/starting_levels.h), asked
// directly on compiled shaders: where each kind of module-scope variable starts, the
// reason the solver's findings name, the lane partition for built-ins, and that the
// solver's lookup (def-use) and the coarse proof's (any id table) give one answer.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "SPIRV/analysis/uniformity/starting_levels.h"
#include "SPIRV/ir/builtin_index.h"
#include "SPIRV/ir/def_use.h"
#include "support/module_queries.h"

namespace glint::spirv::uniformity_detail {
namespace {

class StartingLevels : public ::testing::Test {
 protected:
  void Compile(const std::string& source, const std::string& stage, spv::ExecutionModel model) {
    module_ = test::CompileModule(source, stage, "vulkan1.1");
    def_use_ = std::make_unique<DefUse>(module_);
    builtins_ = std::make_unique<BuiltInIndex>(module_);
    decorations_ = StorageDecorations::Of(module_);
    model_ = model;
  }
  const Instruction& Variable(const std::string& name) const {
    const Instruction* variable = def_use_->Definition(test::VariableNamed(module_, name));
    EXPECT_NE(variable, nullptr) << name;
    return *variable;
  }
  VariableStart Start(const std::string& name, bool lanes = false) const {
    return StartOf(Variable(name), model_, lanes, decorations_, *builtins_,
                   [this](uint32_t id) { return def_use_->Definition(id); });
  }

  Module module_;
  std::unique_ptr<DefUse> def_use_;
  std::unique_ptr<BuiltInIndex> builtins_;
  StorageDecorations decorations_;
  spv::ExecutionModel model_ = spv::ExecutionModelGLCompute;
};

const char kCompute[] = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform Params { uint n; } params;
layout(push_constant) uniform Push { uint k; } push;
layout(set = 0, binding = 1) readonly buffer In { uint data[]; } in_buffer;
layout(set = 0, binding = 2) buffer Out { uint data[]; } out_buffer;
layout(set = 0, binding = 3) buffer Half { readonly uint a; uint b; } half_readonly;
shared uint tile[64];
void main() {
  uint i = gl_LocalInvocationID.x + gl_WorkGroupID.x + gl_SubgroupInvocationID;
  tile[i % 64u] = in_buffer.data[i] + params.n + push.k + half_readonly.a;
  barrier();
  out_buffer.data[i] = tile[(i + 1u) % 64u];
  half_readonly.b = i;
}
)";

TEST_F(StartingLevels, ComputeMemoryByStorageClassAndDecoration) {
  Compile(kCompute, "comp", spv::ExecutionModelGLCompute);
  EXPECT_EQ(Start("params").level, Divergence::kUniform);
  EXPECT_EQ(Start("push").level, Divergence::kUniform);
  EXPECT_EQ(Start("in_buffer").level, Divergence::kUniform) << "every member NonWritable";
  VariableStart out = Start("out_buffer");
  EXPECT_EQ(out.level, Divergence::kDivergent);
  EXPECT_EQ(out.reason, StartReason::kWritableBuffer);
  EXPECT_EQ(StartText(out, "out_buffer"),
            "storage buffer out_buffer may be written by other invocations");
  EXPECT_EQ(Start("half_readonly").reason, StartReason::kWritableBuffer)
      << "one writable member makes the block writable";
  VariableStart tile = Start("tile");
  EXPECT_EQ(tile.level, Divergence::kDivergent);
  EXPECT_EQ(StartText(tile, "tile"), "shared variable tile is written by other invocations");
}

TEST_F(StartingLevels, BuiltInsStartWhereTheirOwnTableSaysAndTheLanePartitionDiffers) {
  Compile(kCompute, "comp", spv::ExecutionModelGLCompute);
  VariableStart local = Start("gl_LocalInvocationID");
  EXPECT_EQ(local.level, Divergence::kDivergent);
  EXPECT_EQ(local.reason, StartReason::kBuiltIn);
  EXPECT_EQ(StartText(local, "gl_LocalInvocationID"),
            "built-in LocalInvocationId differs between invocations");
  EXPECT_EQ(Start("gl_WorkGroupID").level, Divergence::kUniform);
  EXPECT_EQ(Start("gl_WorkGroupID").reason, StartReason::kUniform);
  // The lane a value is computed in is the same in lane-equivalent invocations.
  EXPECT_EQ(Start("gl_SubgroupInvocationID").level, Divergence::kDivergent);
  EXPECT_EQ(Start("gl_SubgroupInvocationID", /*lanes=*/true).level, Divergence::kUniform);
}

TEST_F(StartingLevels, FragmentInputsAndOutputs) {
  Compile(R"(#version 450
layout(location = 0) flat in uint material;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = vec4(uv, float(material), gl_FrontFacing ? 1.0 : 0.0); }
)",
          "frag", spv::ExecutionModelFragment);
  VariableStart flat = Start("material");
  EXPECT_EQ(flat.level, Divergence::kQuadUniform);
  EXPECT_EQ(StartText(flat, "material"), "flat fragment input material differs between primitives");
  VariableStart smooth = Start("uv");
  EXPECT_EQ(smooth.level, Divergence::kDivergent);
  EXPECT_EQ(StartText(smooth, "uv"), "fragment input uv is interpolated (not flat)");
  VariableStart output = Start("color");
  EXPECT_EQ(output.reason, StartReason::kOutput);
  EXPECT_EQ(StartText(output, "color"), "output color is written per invocation");
  EXPECT_EQ(Start("gl_FrontFacing").level, Divergence::kQuadUniform);
}

TEST_F(StartingLevels, AnInputOutsideFragmentShadersDiffersPerInvocation) {
  Compile(R"(#version 450
layout(location = 0) in uint id;
void main() { gl_Position = vec4(float(id)); }
)",
          "vert", spv::ExecutionModelVertex);
  VariableStart input = Start("id");
  EXPECT_EQ(input.level, Divergence::kDivergent);
  EXPECT_EQ(StartText(input, "id"), "input id differs between invocations");
  // Flat only lowers a fragment input: the same decorated variable read by another
  // stage's rule differs per invocation.
  Compile(R"(#version 450
layout(location = 0) flat in uint material;
layout(location = 0) out vec4 color;
void main() { color = vec4(float(material)); }
)",
          "frag", spv::ExecutionModelGeometry);
  EXPECT_EQ(Start("material").level, Divergence::kDivergent);
  EXPECT_EQ(Start("material").reason, StartReason::kInput);
}

// The coarse proof reads definitions from a table of its own: the same rule over any
// lookup gives the same start.
TEST_F(StartingLevels, OneAnswerWhateverTheDefinitionLookup) {
  Compile(kCompute, "comp", spv::ExecutionModelGLCompute);
  std::vector<const Instruction*> table(module_.header.bound, nullptr);
  for (const Instruction& inst : module_.types_values)
    if (inst.result_id) table[inst.result_id] = &inst;
  for (const Instruction& inst : module_.types_values) {
    if (inst.opcode != spv::OpVariable) continue;
    VariableStart by_def_use = StartOf(inst, model_, false, decorations_, *builtins_,
                                       [this](uint32_t id) { return def_use_->Definition(id); });
    VariableStart by_table = StartOf(inst, model_, false, decorations_, *builtins_,
                                     [&](uint32_t id) { return id < table.size() ? table[id] : nullptr; });
    EXPECT_EQ(by_def_use.level, by_table.level) << module_.NameOf(inst.result_id);
    EXPECT_EQ(by_def_use.reason, by_table.reason) << module_.NameOf(inst.result_id);
  }
}

}  // namespace
}  // namespace glint::spirv::uniformity_detail
