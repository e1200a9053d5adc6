// Tests of the Vulkan execution harness (Execution/vk_runner.h) on lavapipe. A missing
// device is a failure, never a skip: CI installs mesa-vulkan-drivers.
// Built only with the harness (-DGLINT_BUILD_VULKAN=ON, the default); a build without
// it has no Vulkan tests at all rather than tests that skip.
#ifdef GLINT_HAVE_VULKAN
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "Execution/shader_interface.h"
#include "Execution/vk_runner.h"
#include "support/test_support.h"

namespace glint::vk {
namespace {

std::vector<uint32_t> Words(const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// Compiles and checks the module with spirv-val before the harness sees it.
Shader CompileShader(const std::string& source, const std::string& stage,
                     const std::string& env = "vulkan1.0") {
  Shader shader;
  shader.spirv = test::CompileGlsl(source, stage, env);
  TargetEnv target = env == "vulkan1.3" ? TargetEnv::kVulkan13 : TargetEnv::kVulkan10;
  EXPECT_EQ(test::ValidateFor(shader.spirv, target), "");
  return shader;
}

class VkRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    context_ = Context::Create(DeviceOptions{}, &error);
    ASSERT_NE(context_, nullptr) << "no Vulkan device (install mesa-vulkan-drivers): " << error;
  }

  ComputeResult RunOk(const ComputeRun& run) {
    ComputeResult result;
    std::string error;
    EXPECT_TRUE(context_->RunCompute(run, &result, &error)) << error;
    return result;
  }

  std::string Refusal(const ComputeRun& run) {
    ComputeResult result;
    std::string error;
    EXPECT_FALSE(context_->RunCompute(run, &result, &error));
    return error;
  }

  std::unique_ptr<Context> context_;
};

BufferBinding Buffer(uint32_t binding, uint64_t size,
                     BufferContents contents = BufferContents::Zeros()) {
  BufferBinding buffer;
  buffer.binding = binding;
  buffer.size = size;
  buffer.contents = std::move(contents);
  return buffer;
}

// #version 440
// layout(local_size_x = 16) in;
// layout(std430, binding = 0) buffer Output { uint values[]; } out_data;
// void main() { out_data.values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u + 1u; }
const char kIndexShader[] = R"(#version 440
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Output { uint values[]; } out_data;
void main() { out_data.values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u + 1u; }
)";

TEST_F(VkRunnerTest, Device_DefaultIsLavapipe) {
  if (std::getenv("GLINT_VK_DEVICE")) GTEST_SKIP() << "GLINT_VK_DEVICE chooses another device";
  EXPECT_TRUE(context_->IsLavapipe()) << context_->DeviceName();
  EXPECT_FALSE(context_->Lost());
}

TEST_F(VkRunnerTest, Compute_WritesEveryInvocation) {
  ComputeRun run;
  run.shader = CompileShader(kIndexShader, "comp");
  run.buffers = {Buffer(0, 64 * 4)};
  run.group_count = {4, 1, 1};
  run.repetitions = 3;
  run.warmup_runs = 1;
  ComputeResult result = RunOk(run);
  ASSERT_EQ(result.buffers.size(), 1u);
  std::vector<uint32_t> values = Words(result.buffers[0].bytes);
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(values[i], i * 3 + 1) << i;
  EXPECT_EQ(result.timing.runs, 3u);  // the warm-up is not counted
  EXPECT_GT(result.timing.first_ms, 0.0);
  EXPECT_LE(result.timing.min_ms, result.timing.median_ms);
  EXPECT_LE(result.timing.median_ms, result.timing.max_ms);
  EXPECT_GT(result.timing.max_ms, 0.0);
  EXPECT_EQ(result.timing.method, "timestamp queries");
  // Lavapipe runs the dispatch on this process's threads: its processor time is counted.
  EXPECT_GT(result.timing.cpu_median_ms, 0.0);
}

// #version 440 ... push constants (a uint and a float) and a uniform block
TEST_F(VkRunnerTest, Compute_PushConstantsAndUniformBuffer) {
  ComputeRun run;
  run.shader = CompileShader(R"(#version 440
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Output { float values[]; } out_data;
layout(std140, binding = 1) uniform Params { float scale; } params;
layout(push_constant) uniform Push { uint offset; float bias; } push;
void main() {
  uint i = gl_GlobalInvocationID.x;
  out_data.values[i] = float(i + push.offset) * params.scale + push.bias;
}
)",
                             "comp");
  float scale = 0.5f;
  std::vector<uint8_t> uniform(16, 0);
  std::memcpy(uniform.data(), &scale, 4);
  run.buffers = {Buffer(0, 8 * 4), Buffer(1, 0, BufferContents::Bytes(uniform))};
  uint32_t offset = 10;
  float bias = 0.25f;
  run.push_constants.resize(8);
  std::memcpy(run.push_constants.data(), &offset, 4);
  std::memcpy(run.push_constants.data() + 4, &bias, 4);
  ComputeResult result = RunOk(run);
  std::vector<float> values(8);
  std::memcpy(values.data(), result.buffers[0].bytes.data(), 32);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_FLOAT_EQ(values[i], (i + 10) * 0.5f + 0.25f) << i;
}

// Spec constants: a 32-bit multiplier and the workgroup size (local_size_x_id).
TEST_F(VkRunnerTest, Compute_SpecializationConstants) {
  ComputeRun run;
  run.shader = CompileShader(R"(#version 440
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint kMultiplier = 1u;
layout(std430, binding = 0) buffer Output { uint values[]; } out_data;
void main() { out_data.values[gl_GlobalInvocationID.x] = gl_WorkGroupSize.x * 1000u + kMultiplier; }
)",
                             "comp");
  run.shader.spec_constants = {{0, 32}, {1, 7}};
  run.buffers = {Buffer(0, 64 * 4)};
  ComputeResult result = RunOk(run);
  std::vector<uint32_t> values = Words(result.buffers[0].bytes);
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(values[i], 32007u) << i;
  for (uint32_t i = 32; i < 64; ++i) EXPECT_EQ(values[i], 0u) << i;  // local size 32: no more
}

// vkCmdDispatchBase: one group (2, 1) of a 4x3 grid runs on its own; only it writes.
TEST_F(VkRunnerTest, Compute_DispatchBaseRunsOnlyTheChosenGroup) {
  ComputeRun run;
  run.shader = CompileShader(R"(#version 440
layout(local_size_x = 4, local_size_y = 2) in;
layout(std430, binding = 0) buffer Output { uint values[]; } out_data;
void main() {
  uvec3 id = gl_GlobalInvocationID;
  out_data.values[id.y * 16u + id.x] = 1000u + gl_WorkGroupID.y * 10u + gl_WorkGroupID.x;
}
)",
                             "comp");
  run.buffers = {Buffer(0, 16 * 6 * 4)};
  run.base_group = {2, 1, 0};
  run.group_count = {1, 1, 1};
  ComputeResult result = RunOk(run);
  std::vector<uint32_t> values = Words(result.buffers[0].bytes);
  for (uint32_t y = 0; y < 6; ++y)
    for (uint32_t x = 0; x < 16; ++x) {
      bool in_group = x >= 8 && x < 12 && y >= 2 && y < 4;
      EXPECT_EQ(values[y * 16 + x], in_group ? 1012u : 0u) << x << "," << y;
    }
}

// Seeded contents reach the shader (copied through) and are the same bytes FillContents gives.
TEST_F(VkRunnerTest, Buffers_FromSeedAndFile) {
  ComputeRun run;
  run.shader = CompileShader(R"(#version 440
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer Input { uint values[]; } in_data;
layout(std430, binding = 1) readonly buffer Other { uint values[]; } other;
layout(std430, binding = 2) buffer Output { uint values[]; } out_data;
void main() {
  uint i = gl_GlobalInvocationID.x;
  out_data.values[i] = in_data.values[i] ^ other.values[i];
}
)",
                             "comp");
  std::string path = test::BinaryDir() + "/vk_runner_test_input.bin";
  std::vector<uint8_t> file_bytes(128);
  for (size_t i = 0; i < file_bytes.size(); ++i) file_bytes[i] = static_cast<uint8_t>(i * 7);
  FILE* file = std::fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  std::fwrite(file_bytes.data(), 1, file_bytes.size(), file);
  std::fclose(file);
  BufferContents seeded = BufferContents::Seeded(42, BufferContents::Pattern::kBytes);
  run.buffers = {Buffer(0, 128, seeded), Buffer(1, 0, BufferContents::File(path)), Buffer(2, 128)};
  ComputeResult result = RunOk(run);
  std::vector<uint8_t> expected_seed;
  std::string error;
  ASSERT_TRUE(FillContents(seeded, 128, &expected_seed, &error)) << error;
  EXPECT_EQ(result.buffers[0].bytes, expected_seed);
  EXPECT_NE(expected_seed, std::vector<uint8_t>(128, 0));
  for (size_t i = 0; i < 128; ++i)
    ASSERT_EQ(result.buffers[2].bytes[i], expected_seed[i] ^ file_bytes[i]) << i;
  std::remove(path.c_str());
}

TEST(BufferContentsTest, SeededPatterns_AreDeterministicAndInRange) {
  std::vector<uint8_t> a, b, c;
  std::string error;
  ASSERT_TRUE(FillContents(BufferContents::Seeded(7, BufferContents::Pattern::kSmallUints), 4096,
                           &a, &error));
  ASSERT_TRUE(FillContents(BufferContents::Seeded(7, BufferContents::Pattern::kSmallUints), 4096,
                           &b, &error));
  ASSERT_TRUE(FillContents(BufferContents::Seeded(8, BufferContents::Pattern::kSmallUints), 4096,
                           &c, &error));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (uint32_t word : Words(a)) EXPECT_LT(word, 16u);
  ASSERT_TRUE(FillContents(BufferContents::Seeded(7, BufferContents::Pattern::kUnitFloats), 4096,
                           &a, &error));
  std::vector<float> floats(1024);
  std::memcpy(floats.data(), a.data(), 4096);
  for (float value : floats) EXPECT_TRUE(value >= 0.0f && value < 1.0f) << value;
  EXPECT_FALSE(FillContents(BufferContents::File("/nonexistent/glint"), 0, &a, &error));
  EXPECT_NE(error.find("cannot read buffer contents from '/nonexistent/glint'"), std::string::npos)
      << error;
}

// A gradient over a 64x32 target: red follows x, green follows y, row 0 is the top.
TEST_F(VkRunnerTest, Fragment_ImageAndPng) {
  FragmentRun run;
  run.shader = CompileShader(R"(#version 440
layout(location = 0) out vec4 color;
layout(push_constant) uniform Push { float blue; } push;
void main() { color = vec4(floor(gl_FragCoord.x) / 255.0, floor(gl_FragCoord.y) / 255.0, push.blue, 1.0); }
)",
                             "frag");
  run.width = 64;
  run.height = 32;
  float blue = 1.0f;
  run.push_constants.resize(4);
  std::memcpy(run.push_constants.data(), &blue, 4);
  FragmentResult result;
  std::string error;
  ASSERT_TRUE(context_->RunFragment(run, &result, &error)) << error;
  ASSERT_EQ(result.image.pixels.size(), 64u * 32u * 4u);
  for (uint32_t y = 0; y < 32; y += 7)
    for (uint32_t x = 0; x < 64; x += 9) {
      const uint8_t* pixel = &result.image.pixels[(y * 64 + x) * 4];
      EXPECT_EQ(pixel[0], x) << x << "," << y;
      EXPECT_EQ(pixel[1], y) << x << "," << y;
      EXPECT_EQ(pixel[2], 255);
      EXPECT_EQ(pixel[3], 255);
    }
  std::string path = test::BinaryDir() + "/vk_runner_test.png";
  ASSERT_TRUE(WritePng(result.image, path, &error)) << error;
  std::string png = test::ReadFile(path);
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  std::remove(path.c_str());
  EXPECT_FALSE(WritePng(result.image, "/nonexistent/dir/x.png", &error));
  EXPECT_NE(
      error.find("cannot open '/nonexistent/dir/x.png' for writing: No such file or directory"),
      std::string::npos)
      << error;
}

TEST_F(VkRunnerTest, Fragment_FloatTarget) {
  FragmentRun run;
  run.shader = CompileShader(R"(#version 440
layout(location = 0) out vec4 color;
void main() { color = vec4(gl_FragCoord.xy, -1.5, 1e6); }
)",
                             "frag");
  run.width = 8;
  run.height = 4;
  run.format = ColorFormat::kRgba32Float;
  FragmentResult result;
  std::string error;
  ASSERT_TRUE(context_->RunFragment(run, &result, &error)) << error;
  std::vector<float> pixels(8 * 4 * 4);
  ASSERT_EQ(result.image.pixels.size(), pixels.size() * 4);
  std::memcpy(pixels.data(), result.image.pixels.data(), result.image.pixels.size());
  EXPECT_FLOAT_EQ(pixels[(3 * 8 + 5) * 4 + 0], 5.5f);
  EXPECT_FLOAT_EQ(pixels[(3 * 8 + 5) * 4 + 1], 3.5f);
  EXPECT_FLOAT_EQ(pixels[(3 * 8 + 5) * 4 + 2], -1.5f);
  EXPECT_FLOAT_EQ(pixels[(3 * 8 + 5) * 4 + 3], 1e6f);
}

// --- Refusals: each names what is wrong. ---

TEST(VkRunnerRefusalTest, NoDevice_NamesTheChoice) {
  std::string error;
  DeviceOptions options;
  options.device = "no-such-device-glint";
  EXPECT_EQ(Context::Create(options, &error), nullptr);
  EXPECT_NE(error.find("no Vulkan device matches 'no-such-device-glint'"), std::string::npos)
      << error;
  EXPECT_NE(error.find("llvmpipe"), std::string::npos) << "lists the devices: " << error;
}

TEST_F(VkRunnerTest, Refusal_MissingBinding) {
  ComputeRun run;
  run.shader = CompileShader(R"(#version 440
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Input { uint a[4]; } in_data;
layout(std430, binding = 1) buffer Output { uint b[4]; } out_data;
void main() { out_data.b[0] = in_data.a[1]; }
)",
                             "comp");
  run.buffers = {Buffer(0, 16)};
  EXPECT_EQ(
      Refusal(run),
      "the shader declares binding (set 0, binding 1) 'out_data' (a storage buffer of 16 bytes) "
      "but the run describes no buffer for it");
  ComputeRun runtime_array;
  runtime_array.shader = CompileShader(kIndexShader, "comp");
  EXPECT_EQ(Refusal(runtime_array),
            "the shader declares binding (set 0, binding 0) 'out_data' (a storage buffer of 0 "
            "bytes plus 4 per "
            "run-time array element) but the run describes no buffer for it");
  run.buffers = {Buffer(0, 16), Buffer(1, 16), Buffer(5, 16)};
  EXPECT_EQ(Refusal(run),
            "the run describes a buffer for (set 0, binding 5), which the shader does not declare");
  run.buffers = {Buffer(0, 16), Buffer(1, 8)};
  EXPECT_EQ(
      Refusal(run),
      "buffer (set 0, binding 1) 'out_data' has 8 bytes; the shader's block needs at least 16");
}

TEST_F(VkRunnerTest, Refusal_PushConstantsAndSpecConstants) {
  ComputeRun run;
  run.shader = CompileShader(kIndexShader, "comp");
  run.buffers = {Buffer(0, 64)};
  run.push_constants = {1, 2, 3, 4};
  EXPECT_EQ(Refusal(run), "the shader's push-constant block has 0 bytes but the run gives 4");
  run.push_constants.clear();
  run.shader.spec_constants = {{9, 1}};
  EXPECT_EQ(Refusal(run),
            "the run sets specialization constant 9, which the module does not declare");
}

TEST_F(VkRunnerTest, Refusal_ImageBinding) {
  ComputeRun run;
  run.shader = CompileShader(R"(#version 440
layout(local_size_x = 1) in;
layout(binding = 0) uniform sampler2D tex;
layout(std430, binding = 1) buffer Output { vec4 v; } out_data;
void main() { out_data.v = textureLod(tex, vec2(0.5), 0.0); }
)",
                             "comp");
  run.buffers = {Buffer(1, 16)};
  EXPECT_EQ(Refusal(run),
            "the shader declares binding (set 0, binding 0) 'tex' as a combined image sampler; the "
            "harness backs "
            "only uniform and storage buffers");
}

TEST_F(VkRunnerTest, Refusal_PipelineCreation) {
  // glslang refuses local_size_x = 4096 itself; other front ends may not.
  ComputeRun run;
  run.shader.spirv = test::Assemble(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 4096 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_EQ(test::ValidateFor(run.shader.spirv, TargetEnv::kVulkan13), "");
  std::string error = Refusal(run);
  EXPECT_EQ(
      error.rfind("pipeline creation refused: local size 4096 along axis 0 exceeds the device's "
                  "maxComputeWorkGroupSize",
                  0),
      0u)
      << error;

  // GLCompute without a workgroup size is invalid for Vulkan: spirv-val stops it before
  // the driver sees it.
  run.shader.spirv = test::Assemble(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  run.buffers.clear();
  error = Refusal(run);
  EXPECT_EQ(error.rfind("pipeline creation refused: the module fails spirv-val: ", 0), 0u) << error;
  EXPECT_NE(error.find("LocalSize"), std::string::npos) << error;
}

TEST_F(VkRunnerTest, Refusal_WrongStageAndEntryPoint) {
  ComputeRun run;
  run.shader = CompileShader(
      "#version 440\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1); }\n", "frag");
  EXPECT_EQ(Refusal(run), "the entry point is a fragment shader; this run needs a compute shader");
  run.shader.entry_point = "other";
  EXPECT_EQ(Refusal(run), "the module has no entry point named 'other'");
  run.shader.spirv = {1, 2, 3};
  EXPECT_EQ(Refusal(run).rfind("malformed SPIR-V: ", 0), 0u);
}

TEST_F(VkRunnerTest, Refusal_UnsupportedCapability) {
  ComputeRun run;
  run.shader.spirv = test::Assemble(R"(
               OpCapability Shader
               OpCapability Geometry
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  EXPECT_EQ(Refusal(run),
            "the module declares capability Geometry, which the harness does not support");
}

// A dispatch that runs past its budget: refused with the budget named, the context is
// lost and refuses further work; teardown waits (bounded) for the device to finish.
TEST_F(VkRunnerTest, Refusal_TimeBudget) {
  ComputeRun run;
  run.shader = CompileShader(R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Output { uint v[]; } out_data;
layout(push_constant) uniform Push { uint iterations; } push;
void main() {
  uint x = gl_GlobalInvocationID.x;
  for (uint i = 0u; i < push.iterations; ++i) x = x * 1664525u + 1013904223u;
  out_data.v[gl_GlobalInvocationID.x] = x;
}
)",
                             "comp");
  run.buffers = {Buffer(0, 64 * 16 * 4)};
  run.group_count = {16, 1, 1};
  uint32_t iterations = 400000;
  run.push_constants.resize(4);
  std::memcpy(run.push_constants.data(), &iterations, 4);
  run.time_budget_ms = 1;
  EXPECT_EQ(Refusal(run),
            "the submission exceeded its time budget of 1 ms; the context is now lost and refuses "
            "further work");
  EXPECT_TRUE(context_->Lost());
  run.time_budget_ms = 20000;
  std::string error = Refusal(run);
  EXPECT_EQ(error.rfind("the Vulkan context is lost", 0), 0u) << error;
}

// --- The device's robust buffer access (DeviceOptions, glint-run --robust-buffer-access). ---

// Out-of-bounds loads far past a 16-word buffer, and stores just past it.
const char kOutOfBounds[] = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint values[]; };
layout(std430, binding = 1) buffer Out { uint result[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  result[i] = values[i * 1000003u];
  values[i + 16u] = 0xdeadbeefu;
}
)";

std::unique_ptr<Context> CreateContext(const DeviceOptions& options) {
  std::string error;
  std::unique_ptr<Context> context = Context::Create(options, &error);
  EXPECT_NE(context, nullptr) << error;
  return context;
}

// The out-of-bounds kernel on `context`; the input's 16 words and the 64 results.
void RunOutOfBounds(Context& context, std::vector<uint32_t>* input,
                    std::vector<uint32_t>* results) {
  ComputeRun run;
  run.shader = CompileShader(kOutOfBounds, "comp");
  run.buffers = {Buffer(0, 16 * 4, BufferContents::Seeded(3, BufferContents::Pattern::kSmallUints)),
                 Buffer(1, 64 * 4)};
  ComputeResult result;
  std::string error;
  ASSERT_TRUE(context.RunCompute(run, &result, &error)) << error;
  *input = Words(result.buffers[0].bytes);
  *results = Words(result.buffers[1].bytes);
}

// What each option enables on the device lavapipe (which has robustBufferAccess and
// VK_EXT_robustness2), as the context reports it from the device it created.
TEST(VkRobustnessTest, Options_EnableWhatTheyName) {
  if (std::getenv("GLINT_VK_DEVICE")) GTEST_SKIP() << "GLINT_VK_DEVICE chooses another device";
  DeviceOptions options;
  std::unique_ptr<Context> automatic = CreateContext(options);
  ASSERT_TRUE(automatic);
  EXPECT_TRUE(automatic->RobustBufferAccess());
  EXPECT_FALSE(automatic->RobustBufferAccess2());
  options.robust_buffer_access = false;
  std::unique_ptr<Context> off = CreateContext(options);
  ASSERT_TRUE(off);
  EXPECT_FALSE(off->RobustBufferAccess());
  EXPECT_FALSE(off->RobustBufferAccess2());
  options.robust_buffer_access2 = true;  // implies robustBufferAccess
  std::unique_ptr<Context> both = CreateContext(options);
  ASSERT_TRUE(both);
  EXPECT_TRUE(both->RobustBufferAccess());
  EXPECT_TRUE(both->RobustBufferAccess2());
}

// robustBufferAccess2's promise: loads out of bounds read zero, stores out of bounds are
// dropped (the 16 input words come back as they were filled).
TEST(VkRobustnessTest, RobustBufferAccess2_ZeroLoadsAndDroppedStores) {
  DeviceOptions options;
  options.robust_buffer_access2 = true;
  std::unique_ptr<Context> context = CreateContext(options);
  ASSERT_TRUE(context);
  std::vector<uint32_t> input, results;
  RunOutOfBounds(*context, &input, &results);
  std::vector<uint8_t> filled;
  std::string error;
  ASSERT_TRUE(FillContents(BufferContents::Seeded(3, BufferContents::Pattern::kSmallUints), 16 * 4,
                           &filled, &error));
  EXPECT_EQ(input, Words(filled));
  ASSERT_EQ(results.size(), 64u);
  EXPECT_EQ(results[0], input[0]);  // index 0 is in bounds
  for (uint32_t i = 1; i < 64; ++i) EXPECT_EQ(results[i], 0u) << i;
}

// robustBufferAccess (1) promises less: a load out of bounds reads zero or some value of
// the buffer; nothing outside the buffer is read or written.
TEST(VkRobustnessTest, RobustBufferAccess_LoadsStayWithinTheBuffer) {
  DeviceOptions options;
  options.require_robust_buffer_access = true;
  std::unique_ptr<Context> context = CreateContext(options);
  ASSERT_TRUE(context);
  EXPECT_TRUE(context->RobustBufferAccess());
  std::vector<uint32_t> input, results;
  RunOutOfBounds(*context, &input, &results);
  ASSERT_EQ(input.size(), 16u);
  for (uint32_t value : results)
    EXPECT_TRUE(value == 0 || value == 0xdeadbeefu || value < 16) << value;  // kSmallUints are < 16
}

// glint-run's flag: the line it prints names what the device enabled, and with `2` the
// out-of-bounds loads read zero; a bad value is a usage error (exit status 2).
TEST(GlintRunTest, RobustBufferAccessFlag) {
  if (std::getenv("GLINT_VK_DEVICE")) GTEST_SKIP() << "GLINT_VK_DEVICE chooses another device";
  char pattern[] = "/tmp/glint-run-robust-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  { std::ofstream(dir + "/oob.comp") << kOutOfBounds; }
  auto run = [&](const std::string& value, int* status) {
    std::string command =
        "cd '" + dir + "' && '" + test::BinaryDir() + "/Execution/glint-run' oob.comp " +
        "--robust-buffer-access " + value +
        " --buffer 0:0:64:seed:3:small --buffer 0:1:256:zeros --print-words 8 > out.txt 2>&1";
    *status = std::system(command.c_str());
    return test::ReadFile(dir + "/out.txt");
  };
  int status = 0;
  std::string two = run("2", &status);
  EXPECT_EQ(status, 0) << two;
  EXPECT_NE(two.find("robust buffer access: robustBufferAccess2\n"), std::string::npos) << two;
  EXPECT_NE(two.find("buffer (set 0, binding 1): 256 bytes"), std::string::npos) << two;
  std::string on = run("on", &status);
  EXPECT_EQ(status, 0) << on;
  EXPECT_NE(on.find("robust buffer access: robustBufferAccess\n"), std::string::npos) << on;
  std::string bad = run("sometimes", &status);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << bad;
  EXPECT_NE(bad.find("bad value for --robust-buffer-access: 'sometimes'"), std::string::npos)
      << bad;
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
}

// --- The interface read from SPIR-V. ---

TEST(ShaderInterfaceTest, Std140Std430AndRuntimeArrays) {
  std::vector<uint32_t> words = test::CompileGlsl(R"(#version 440
layout(local_size_x = 8, local_size_y = 2) in;
layout(std140, set = 1, binding = 3) uniform U { vec3 a; float b; mat4 m; vec2 arr[3]; } u;
layout(std430, binding = 0) buffer S { uint count; vec4 items[]; } s;
layout(push_constant) uniform P { vec2 x; uint y; } p;
layout(constant_id = 4) const bool kFlag = true;
layout(constant_id = 5) const double kScale = 1.0;
void main() { s.items[s.count] = vec4(u.a, u.b) * u.m[1].x + vec4(u.arr[2], p.x) * float(p.y) * float(kScale) * float(kFlag); }
)",
                                                  "comp");
  std::string error;
  std::optional<ShaderInterface> interface = ReadShaderInterface(words, "main", &error);
  ASSERT_TRUE(interface) << error;
  EXPECT_EQ(interface->stage, ShaderStage::kCompute);
  EXPECT_EQ(interface->local_size[0], 8u);
  EXPECT_EQ(interface->local_size[1], 2u);
  ASSERT_EQ(interface->bindings.size(), 2u);
  const BindingInfo& s = interface->bindings[0];
  EXPECT_EQ(s.kind, BindingKind::kStorageBuffer);
  EXPECT_EQ(s.static_size, 16u);
  EXPECT_EQ(s.runtime_array_stride, 16u);
  const BindingInfo& u = interface->bindings[1];
  EXPECT_EQ(u.set, 1u);
  EXPECT_EQ(u.binding, 3u);
  EXPECT_EQ(u.kind, BindingKind::kUniformBuffer);
  EXPECT_EQ(u.static_size, 16u + 64u + 48u);
  EXPECT_EQ(interface->push_constant_size, 12u);
  EXPECT_EQ(interface->spec_constant_sizes.at(4), 4u);
  EXPECT_EQ(interface->spec_constant_sizes.at(5), 8u);
  EXPECT_NE(std::find(interface->capabilities.begin(), interface->capabilities.end(), "Float64"),
            interface->capabilities.end());
}

// Array lengths from spec-constant expressions are sized with the constants' defaults
// (glslang emits SDiv, SMod, SNegate, a comparison and Select, shifts and masks, and a
// signed-to-unsigned conversion as OpSpecConstantOp). One block each: glslang lays out
// members after such an array as if it had one element.
TEST(ShaderInterfaceTest, ArrayLengthsFromSpecConstantDefaults) {
  std::vector<uint32_t> words = test::CompileGlsl(R"(#version 440
layout(local_size_x = 1) in;
layout(constant_id = 0) const int N = 12;
layout(constant_id = 1) const uint M = 6u;
layout(std430, binding = 0) buffer B0 { uint quotient[N / 5]; };
layout(std430, binding = 1) buffer B1 { uint remainder[N % 5 + 1]; };
layout(std430, binding = 2) buffer B2 { uint negated[-N + 20]; };
layout(std430, binding = 3) buffer B3 { uint chosen[N > 10 ? 3 : 1]; };
layout(std430, binding = 4) buffer B4 { uint masked[(M >> 1u) & 7u]; };
layout(std430, binding = 5) buffer B5 { uint converted[uint(N) - 9u]; };
void main() {
  quotient[0] = remainder[0] + negated[0] + chosen[0] + masked[0] + converted[0];
}
)",
                                                  "comp");
  std::string error;
  std::optional<ShaderInterface> interface = ReadShaderInterface(words, "main", &error);
  ASSERT_TRUE(interface) << error;
  const uint64_t expected_lengths[] = {2, 3, 8, 3, 3, 3};
  ASSERT_EQ(interface->bindings.size(), std::size(expected_lengths));
  for (uint32_t binding = 0; binding < std::size(expected_lengths); ++binding) {
    const BindingInfo* info = interface->Find(0, binding);
    ASSERT_NE(info, nullptr) << binding;
    EXPECT_EQ(info->static_size, expected_lengths[binding] * 4) << "binding " << binding;
  }
}

}  // namespace
}  // namespace glint::vk

#endif  // GLINT_HAVE_VULKAN
