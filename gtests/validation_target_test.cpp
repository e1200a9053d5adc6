// validation_target.h: the environment and layout rules Options::validate checks the
// output against — the input's target unless the caller names one, and the layout
// rules the input declares plus the caller's.
#include <gtest/gtest.h>

#include <glslang/MachineIndependent/localintermediate.h>

#include "SPIRV/validate.h"
#include "glslang/api/validation_target.h"
#include "glslang/front_end/compile_driver.h"
#include "support/test_support.h"

namespace glint {
namespace {

const char* kCompute = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Values { uint values[]; };
void main() { values[gl_GlobalInvocationID.x] += 1u; }
)";

// Needs scalarBlockLayout: vec3 at offset 4 breaks std430.
const char* kScalarCompute = R"(#version 440
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
layout(scalar, binding = 0) buffer Particles { float mass; vec3 position[]; };
void main() { position[gl_GlobalInvocationID.x] += vec3(mass); }
)";

std::unique_ptr<frontend::Compilation> Compile(const char* source, const char* env) {
  std::string error;
  auto compiled = frontend::CompileSource(frontend::SourceCompile(source, "comp", env), &error);
  EXPECT_TRUE(compiled) << error;
  return compiled;
}

// glint::GlslangToSpv of the compute stage with `options`.
bool Generate(frontend::Compilation& compiled, const Options& options, std::vector<uint32_t>& words,
              Report& report) {
  return GlslangToSpv(*compiled.Intermediate(EShLangCompute), words, nullptr, options, &report);
}

TEST(ValidationTarget, TargetEnvOfTheIntermediate) {
  const std::pair<const char*, TargetEnv> kEnvs[] = {
      {"vulkan1.0", TargetEnv::kVulkan10}, {"vulkan1.1", TargetEnv::kVulkan11},
      {"spirv1.4", TargetEnv::kVulkan11},  {"vulkan1.2", TargetEnv::kVulkan12},
      {"vulkan1.3", TargetEnv::kVulkan13}, {"opengl", TargetEnv::kOpenGL45}};
  for (const auto& [env, target] : kEnvs) {
    auto compiled = Compile(kCompute, env);
    ASSERT_TRUE(compiled);
    EXPECT_EQ(TargetEnvOf(*compiled->Intermediate(EShLangCompute)), target) << env;
  }
}

// The issue's failure: a Vulkan 1.2 engine (SPIR-V 1.5) with validate on and the
// target left alone was validated as Vulkan 1.0 and refused.
TEST(ValidationTarget, DefaultOptionsValidateForTheIntermediatesTarget) {
  for (const char* env :
       {"vulkan1.0", "vulkan1.1", "spirv1.4", "vulkan1.2", "vulkan1.3", "opengl"}) {
    auto compiled = Compile(kCompute, env);
    ASSERT_TRUE(compiled);
    Options options;
    options.validate = true;
    std::vector<uint32_t> words;
    Report report;
    EXPECT_TRUE(Generate(*compiled, options, words, report))
        << env << ": " << (report.diagnostics.empty() ? "" : report.diagnostics[0].message);
  }
}

TEST(ValidationTarget, AnExplicitTargetStillWins) {
  auto compiled = Compile(kCompute, "vulkan1.2");
  ASSERT_TRUE(compiled);
  Options options;
  options.validate = true;
  options.target_env = TargetEnv::kVulkan10;
  std::vector<uint32_t> words;
  Report report;
  EXPECT_FALSE(Generate(*compiled, options, words, report));
  ASSERT_TRUE(report.HasErrors());
  EXPECT_EQ(report.diagnostics.back().origin, "spirv-val");
  EXPECT_NE(report.diagnostics.back().message.find("Vulkan 1.0"), std::string::npos)
      << report.diagnostics.back().message;
}

// The scalar layout comes from the intermediate (GlslangToSpv) or from the module's
// OpSourceExtension (Process); without it the module is invalid.
TEST(ValidationTarget, ScalarLayoutFromWhatTheInputDeclares) {
  auto compiled = Compile(kScalarCompute, "vulkan1.2");
  ASSERT_TRUE(compiled);
  Options options;
  options.validate = true;
  std::vector<uint32_t> words;
  Report report;
  ASSERT_TRUE(Generate(*compiled, options, words, report));
  EXPECT_NE(spirv::Validate(words, spirv::TargetEnv::kVulkan12), "");
  EXPECT_TRUE(spirv::DeclaredValidationRules(words).scalar_block_layout);
  options.target_env = TargetEnv::kVulkan12;
  std::vector<uint32_t> copy = words;
  EXPECT_TRUE(Process(copy, options, &report));
}

TEST(ValidationTarget, CallersLayoutsAreAddedToTheDeclaredOnes) {
  Options options;
  options.validator_layouts.uniform_buffer_standard_layout = true;
  options.validator_layouts.skip_block_layout = true;
  ValidationTarget target = ValidationTargetFor(options, nullptr, nullptr, {});
  EXPECT_EQ(target.env, spirv::TargetEnv::kUniversal);
  EXPECT_TRUE(target.rules.uniform_buffer_standard_layout);
  EXPECT_TRUE(target.rules.skip_block_layout);
  EXPECT_FALSE(target.rules.scalar_block_layout);
  EXPECT_FALSE(target.rules.relaxed_block_layout);
}

TEST(ValidationTarget, HlslSourceDeclaresRelaxedLayout) {
  const char* hlsl = R"(RWStructuredBuffer<uint> values : register(u0);
[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { values[id.x] += 1; }
)";
  std::vector<uint32_t> words = test::CompileGlsl(hlsl, "comp", "vulkan1.0", /*hlsl=*/true);
  EXPECT_TRUE(spirv::DeclaredValidationRules(words).relaxed_block_layout);
  EXPECT_FALSE(
      spirv::DeclaredValidationRules(test::CompileGlsl(kCompute, "comp")).relaxed_block_layout);
}

TEST(ValidationTarget, MalformedStreamsDeclareNothing) {
  EXPECT_FALSE(spirv::DeclaredValidationRules({}).scalar_block_layout);
  EXPECT_FALSE(
      spirv::DeclaredValidationRules({0x07230203, 0x10000, 0, 10, 0, 0}).scalar_block_layout);
  EXPECT_FALSE(spirv::DeclaredValidationRules({0x07230203, 0x10000, 0, 10, 0, 0xffff0004})
                   .scalar_block_layout);
}

// spirv::Validate decides without the validator's friendly names (they cost memory and
// time) and validates a failing module again with them, so its message names ids as
// spirv-val does.
TEST(ValidationTarget, FailureMessagesNameIdsAsSpirvValDoes) {
  std::vector<uint32_t> words = test::CompileGlsl(R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Values { uint values[]; } data;
void main() { data.values[gl_GlobalInvocationID.x] += 1u; }
)",
                                                  "comp");
  ASSERT_EQ(spirv::Validate(words, spirv::TargetEnv::kVulkan10), "");
  // The entry point made to name the buffer variable instead of a function.
  uint32_t buffer = 0;
  size_t entry_point = 0;
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    const uint32_t opcode = words[at] & 0xffff;
    if (opcode == spv::OpEntryPoint) entry_point = at;
    if (opcode == spv::OpVariable && words[at + 3] == spv::StorageClassStorageBuffer)
      buffer = words[at + 2];
    if (opcode == spv::OpVariable && words[at + 3] == spv::StorageClassUniform)
      buffer = words[at + 2];
  }
  ASSERT_NE(entry_point, 0u);
  ASSERT_NE(buffer, 0u);
  words[entry_point + 2] = buffer;
  std::string message = spirv::Validate(words, spirv::TargetEnv::kVulkan10);
  // Without friendly names the validator would say '<id>[%<id>]'.
  EXPECT_NE(message.find("'" + std::to_string(buffer) + "[%data]'"), std::string::npos) << message;
}

}  // namespace
}  // namespace glint
