// Semantic equivalence on a real Vulkan driver (lavapipe): Glint's output
// (glint::Process with default Options for the module's target environment) and
// glslang 12's output compute identical buffers (or images) from the same inputs.
//   (a) shaders with run-time-indexed constant tables (the seed's shaders adapted to
//       compute, nested arrays, arrays of structs, matrix and vector tables, tables
//       read from several functions, a table holding a spec constant), in every
//       Vulkan target environment, plus fragment variants rendered to images;
//   (b) the corpus suite (docs/CORPUS.md): the corpus's compute shaders that need only
//       buffers. Every other one (images or samplers, capabilities the harness refuses,
//       an interface it cannot read) is skipped with a recorded reason and counted, so
//       any corpus runs; on the reference corpus the number of runnable ones is
//       asserted, so the test cannot silently shrink.
// Every module that runs is validated with spirv-val first. No device is a failure.
// Built only with the harness (-DGLINT_BUILD_VULKAN=ON, the default); a build without
// it has no Vulkan tests at all rather than tests that skip.
#ifdef GLINT_HAVE_VULKAN
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <thread>

#include "Execution/shader_interface.h"
#include "Execution/vk_runner.h"
#include "SPIRV/validate.h"
#include "support/test_support.h"

namespace glint::vk {
namespace {

std::unique_ptr<Context> MakeContext() {
  std::string error;
  std::unique_ptr<Context> context = Context::Create(DeviceOptions{}, &error);
  EXPECT_NE(context, nullptr) << "no Vulkan device (install mesa-vulkan-drivers): " << error;
  return context;
}

TargetEnv TargetOf(const std::string& env) {
  spirv::TargetEnv target = spirv::TargetEnv::kVulkan10;
  if (env == "spirv1.4") return TargetEnv::kVulkan11;  // validated as vulkan1.1spv1.4
  EXPECT_TRUE(spirv::ParseTargetEnv(env, &target)) << env;
  return target;
}

// Glint's passes with default options (for the module's environment).
std::vector<uint32_t> GlintOutput(const std::vector<uint32_t>& glslang_words, TargetEnv target) {
  std::vector<uint32_t> words = glslang_words;
  Options options;
  options.target_env = target;
  Report report;
  EXPECT_TRUE(Process(words, options, &report));
  for (const Diagnostic& diagnostic : report.diagnostics)
    EXPECT_NE(diagnostic.severity, Severity::kError) << FormatDiagnostic(diagnostic);
  return words;
}

// --- (a) constant-table shaders -------------------------------------------------

struct TableShader {
  const char* name;
  const char* body;      // after the common header: tables, helpers, main
  bool expect_hoisting;  // Glint must change the module (false: spec constants)
};

// Failure messages name the case, not its bytes.
void PrintTo(const TableShader& c, std::ostream* out) { *out << c.name; }

// Common header of the compute variants: 256 invocations read an index each.
const char kComputeHeader[] = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Indices { uint idx[]; };
layout(std430, binding = 1) buffer Output { vec4 result[]; };
)";

const TableShader kTableShaders[] = {
    // The seed's minimal repro, adapted: one 16-entry float table, read once.
    {"SeedMinimal", R"(
const float table[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
void main() { uint i = gl_GlobalInvocationID.x; result[i] = vec4(table[idx[i]]); }
)",
     true},
    // The seed's spv.privateHoist.frag, adapted: two tables, six sites in main, two in a helper.
    {"SeedPrivateHoist", R"(
const float tableA[8] = { 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0 };
const float tableB[8] = { 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0 };
float helper(int i) { return tableA[i & 7] + tableA[(i + 1) & 7]; }
void main() {
  uint g = gl_GlobalInvocationID.x;
  int index = int(idx[g]) & 7;
  float a0 = tableA[index];
  float a1 = tableA[(index + 1) & 7];
  float b0 = tableB[index];
  float b1 = tableB[(index + 1) & 7];
  float b2 = tableB[(index + 2) & 7];
  float b3 = tableB[(index + 3) & 7];
  float h = helper(index);
  result[g] = vec4(a0 + a1 + h, b0 + b1 + b2 + b3, 0.0, 1.0);
}
)",
     true},
    {"NestedArrays", R"(
const int grid[4][8] = int[4][8](int[8](0, 1, 2, 3, 4, 5, 6, 7), int[8](10, 11, 12, 13, 14, 15, 16, 17),
                                 int[8](-1, -2, -3, -4, -5, -6, -7, -8), int[8](99, 98, 97, 96, 95, 94, 93, 92));
void main() {
  uint g = gl_GlobalInvocationID.x;
  uint k = idx[g];
  int row[8] = grid[k & 3u];
  result[g] = vec4(grid[k & 3u][(k >> 1) & 7u], grid[(k + 1u) & 3u][k & 7u], row[(k + 3u) & 7u], 0);
}
)",
     true},
    {"ArrayOfStructs", R"(
struct Light { vec3 color; float radius; int kind; };
const Light lights[5] = Light[](Light(vec3(1, 0, 0), 1.5, 0), Light(vec3(0, 1, 0), 2.5, 1),
                                Light(vec3(0, 0, 1), 3.5, 2), Light(vec3(1, 1, 0), 4.5, 3),
                                Light(vec3(0.25, 0.5, 0.75), 5.5, 4));
void main() {
  uint g = gl_GlobalInvocationID.x;
  Light l = lights[idx[g] % 5u];
  result[g] = vec4(l.color * l.radius, float(l.kind) + lights[(idx[g] + 2u) % 5u].color.g);
}
)",
     true},
    {"MatrixAndVectorTables", R"(
const mat3 rotations[4] = mat3[](mat3(1.0), mat3(0, 1, 0, -1, 0, 0, 0, 0, 1), mat3(-1, 0, 0, 0, -1, 0, 0, 0, 1),
                                 mat3(0, -1, 0, 1, 0, 0, 0, 0, 1));
const vec4 palette[8] = vec4[](vec4(0), vec4(1, 0, 0, 1), vec4(0, 1, 0, 1), vec4(0, 0, 1, 1), vec4(1, 1, 0, 1),
                               vec4(0, 1, 1, 1), vec4(1, 0, 1, 1), vec4(0.5));
void main() {
  uint g = gl_GlobalInvocationID.x;
  uint k = idx[g];
  vec3 turned = rotations[k & 3u] * vec3(1, 2, 3);
  result[g] = vec4(turned, palette[k & 7u][k & 3u]) + palette[(k + 5u) & 7u];
}
)",
     true},
    // Two 32-entry vec3 tables read at four sites inside two helpers (the seed's
    // real-world shape, smaller), helpers called twice.
    {"TablesInSeveralFunctions", R"(
const vec3 warm[32] = vec3[](
  vec3(0.0, 0.1, 0.2), vec3(0.1, 0.2, 0.3), vec3(0.2, 0.3, 0.4), vec3(0.3, 0.4, 0.5), vec3(0.4, 0.5, 0.6),
  vec3(0.5, 0.6, 0.7), vec3(0.6, 0.7, 0.8), vec3(0.7, 0.8, 0.9), vec3(0.8, 0.9, 1.0), vec3(0.9, 1.0, 1.1),
  vec3(1.0, 1.1, 1.2), vec3(1.1, 1.2, 1.3), vec3(1.2, 1.3, 1.4), vec3(1.3, 1.4, 1.5), vec3(1.4, 1.5, 1.6),
  vec3(1.5, 1.6, 1.7), vec3(1.6, 1.7, 1.8), vec3(1.7, 1.8, 1.9), vec3(1.8, 1.9, 2.0), vec3(1.9, 2.0, 2.1),
  vec3(2.0, 2.1, 2.2), vec3(2.1, 2.2, 2.3), vec3(2.2, 2.3, 2.4), vec3(2.3, 2.4, 2.5), vec3(2.4, 2.5, 2.6),
  vec3(2.5, 2.6, 2.7), vec3(2.6, 2.7, 2.8), vec3(2.7, 2.8, 2.9), vec3(2.8, 2.9, 3.0), vec3(2.9, 3.0, 3.1),
  vec3(3.0, 3.1, 3.2), vec3(3.1, 3.2, 3.3));
const vec3 cold[32] = vec3[](
  vec3(-0.0), vec3(-0.1), vec3(-0.2), vec3(-0.3), vec3(-0.4), vec3(-0.5), vec3(-0.6), vec3(-0.7),
  vec3(-0.8), vec3(-0.9), vec3(-1.0), vec3(-1.1), vec3(-1.2), vec3(-1.3), vec3(-1.4), vec3(-1.5),
  vec3(-1.6), vec3(-1.7), vec3(-1.8), vec3(-1.9), vec3(-2.0), vec3(-2.1), vec3(-2.2), vec3(-2.3),
  vec3(-2.4), vec3(-2.5), vec3(-2.6), vec3(-2.7), vec3(-2.8), vec3(-2.9), vec3(-3.0), vec3(-3.1));
vec3 shade(uint k) { return warm[k & 31u] + cold[(k * 3u) & 31u] * 0.5; }
vec3 blend(uint k, float t) { return mix(warm[(k + 7u) & 31u], cold[(k + 11u) & 31u], t); }
void main() {
  uint g = gl_GlobalInvocationID.x;
  uint k = idx[g] + g;
  vec3 c = shade(k) + shade(k + 1u) + blend(k, 0.25) + blend(k * 5u, 0.75);
  result[g] = vec4(c, 1.0);
}
)",
     true},
    // A table indexed by a loop counter.
    {"LoopIndexedTable", R"(
const uint weights[8] = uint[](3u, 1u, 4u, 1u, 5u, 9u, 2u, 6u);
void main() {
  uint g = gl_GlobalInvocationID.x;
  uint sum = 0u;
  for (uint k = 0u; k < idx[g] + 2u; ++k) sum += weights[(g + k) & 7u] * (k + 1u);
  result[g] = vec4(float(sum));
}
)",
     true},
    // Integer vector and bool tables.
    {"IntegerAndBoolTables", R"(
const uvec2 pairs[6] = uvec2[](uvec2(1, 2), uvec2(3, 4), uvec2(5, 6), uvec2(7, 8), uvec2(9, 10), uvec2(11, 12));
const bool enabled[6] = bool[](true, false, true, true, false, true);
void main() {
  uint g = gl_GlobalInvocationID.x;
  uint k = idx[g] % 6u;
  uvec2 p = pairs[k];
  result[g] = vec4(enabled[k] ? float(p.x) : -float(p.y), float(pairs[(k + 1u) % 6u].y), 0, 0);
}
)",
     true},
    // A table holding a specialization constant: the seed excludes it from hoisting.
    {"SpecConstantTable", R"(
layout(constant_id = 0) const float kScale = 2.0;
void main() {
  uint g = gl_GlobalInvocationID.x;
  float t[4] = float[](1.0, kScale, 3.0, 4.0);
  result[g] = vec4(t[idx[g] & 3u], kScale, 0, 0);
}
)",
     false},
};

const char* const kEnvironments[] = {"vulkan1.0", "vulkan1.1", "spirv1.4", "vulkan1.2",
                                     "vulkan1.3"};

std::vector<BufferBinding> TableInputs() {
  BufferBinding indices;
  indices.binding = 0;
  indices.size = 256 * 4;
  indices.contents = BufferContents::Seeded(2026, BufferContents::Pattern::kSmallUints);
  BufferBinding output;
  output.binding = 1;
  output.size = 256 * 16;
  output.contents =
      BufferContents::Seeded(7, BufferContents::Pattern::kBytes);  // not zeros: every write shows
  return {indices, output};
}

class TableEquivalenceTest : public ::testing::TestWithParam<std::tuple<TableShader, const char*>> {
 protected:
  static void SetUpTestSuite() { context_ = MakeContext().release(); }
  static void TearDownTestSuite() {
    delete context_;
    context_ = nullptr;
  }
  static Context* context_;
};
Context* TableEquivalenceTest::context_ = nullptr;

ComputeResult RunOnDevice(Context& context, const std::vector<uint32_t>& words, TargetEnv target,
                          const std::vector<BufferBinding>& buffers,
                          std::map<uint32_t, uint64_t> spec = {}) {
  EXPECT_EQ(test::ValidateFor(words, target), "");
  ComputeRun run;
  run.shader.spirv = words;
  run.shader.spec_constants = std::move(spec);
  run.buffers = buffers;
  run.group_count = {4, 1, 1};
  ComputeResult result;
  std::string error;
  EXPECT_TRUE(context.RunCompute(run, &result, &error)) << error;
  return result;
}

TEST_P(TableEquivalenceTest, Compute_GlintMatchesGlslang) {
  ASSERT_NE(context_, nullptr);
  const auto& [shader, env] = GetParam();
  TargetEnv target = TargetOf(env);
  std::vector<uint32_t> glslang_words =
      test::CompileGlsl(std::string(kComputeHeader) + shader.body, "comp", env);
  ASSERT_FALSE(glslang_words.empty());
  std::vector<uint32_t> glint_words = GlintOutput(glslang_words, target);
  if (shader.expect_hoisting) {
    EXPECT_NE(glint_words, glslang_words) << "Glint left the table where glslang put it";
  }
  std::map<uint32_t, uint64_t> spec;
  if (std::string(shader.name) == "SpecConstantTable") spec[0] = 0x40400000;  // 3.0f
  ComputeResult expected = RunOnDevice(*context_, glslang_words, target, TableInputs(), spec);
  ComputeResult actual = RunOnDevice(*context_, glint_words, target, TableInputs(), spec);
  ASSERT_EQ(expected.buffers.size(), 2u);
  ASSERT_EQ(actual.buffers.size(), 2u);
  std::vector<uint8_t> initial;
  std::string error;
  ASSERT_TRUE(FillContents(TableInputs()[1].contents, TableInputs()[1].size, &initial, &error))
      << error;
  EXPECT_NE(expected.buffers[1].bytes, initial) << "the shader wrote nothing";
  EXPECT_EQ(actual.buffers[1].bytes, expected.buffers[1].bytes);
}

std::string TableName(const ::testing::TestParamInfo<std::tuple<TableShader, const char*>>& info) {
  std::string env = std::get<1>(info.param);
  for (char& c : env)
    if (c == '.') c = '_';
  return std::string(std::get<0>(info.param).name) + "_" + env;
}

INSTANTIATE_TEST_SUITE_P(Tables, TableEquivalenceTest,
                         ::testing::Combine(::testing::ValuesIn(kTableShaders),
                                            ::testing::ValuesIn(kEnvironments)),
                         TableName);

// Fragment variants (the seed's two shaders as fragment shaders, and a matrix/vector
// table): the index comes from gl_FragCoord; 64x64 float images must match.
const char* const kFragmentShaders[] = {
    R"(#version 440
layout(location = 0) out vec4 color;
const float table[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
void main() { int index = int(gl_FragCoord.x) & 15; color = vec4(table[index], table[int(gl_FragCoord.y) & 15], 0, 1); }
)",
    R"(#version 440
layout(location = 0) out vec4 color;
const float tableA[8] = { 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0 };
const float tableB[8] = { 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0 };
float helper(int i) { return tableA[i & 7] + tableA[(i + 1) & 7]; }
void main() {
  int index = (int(gl_FragCoord.x) ^ int(gl_FragCoord.y)) & 7;
  float a0 = tableA[index];
  float b0 = tableB[index];
  float b1 = tableB[(index + 1) & 7];
  color = vec4(a0 + helper(index), b0 + b1, helper(index + 3), 1.0);
}
)",
    R"(#version 440
layout(location = 0) out vec4 color;
const mat2 spins[4] = mat2[](mat2(1.0), mat2(0, 1, -1, 0), mat2(-1.0), mat2(0, -1, 1, 0));
const vec3 tints[3] = vec3[](vec3(1, 0.5, 0.25), vec3(0.25, 1, 0.5), vec3(0.5, 0.25, 1));
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec2 v = spins[(p.x + p.y) & 3] * (gl_FragCoord.xy / 64.0);
  color = vec4(v, tints[p.y % 3][p.x % 3], 1.0);
}
)",
};

using FragmentParam = std::tuple<const char*, const char*>;

class FragmentTableTest : public ::testing::TestWithParam<FragmentParam> {
 protected:
  static void SetUpTestSuite() { context_ = MakeContext().release(); }
  static void TearDownTestSuite() {
    delete context_;
    context_ = nullptr;
  }
  static Context* context_;
};
Context* FragmentTableTest::context_ = nullptr;

Image RenderOnDevice(Context& context, const std::vector<uint32_t>& words, TargetEnv target) {
  EXPECT_EQ(test::ValidateFor(words, target), "");
  FragmentRun run;
  run.shader.spirv = words;
  run.format = ColorFormat::kRgba32Float;
  FragmentResult result;
  std::string error;
  EXPECT_TRUE(context.RunFragment(run, &result, &error)) << error;
  return result.image;
}

TEST_P(FragmentTableTest, GlintMatchesGlslang) {
  ASSERT_NE(context_, nullptr);
  const auto& [source, env] = GetParam();
  TargetEnv target = TargetOf(env);
  std::vector<uint32_t> glslang_words = test::CompileGlsl(source, "frag", env);
  std::vector<uint32_t> glint_words = GlintOutput(glslang_words, target);
  EXPECT_NE(glint_words, glslang_words) << "Glint left the table where glslang put it";
  Image expected = RenderOnDevice(*context_, glslang_words, target);
  Image actual = RenderOnDevice(*context_, glint_words, target);
  ASSERT_EQ(expected.pixels.size(), 64u * 64u * 16u);
  EXPECT_NE(expected.pixels, std::vector<uint8_t>(expected.pixels.size(), 0));
  EXPECT_EQ(actual.pixels, expected.pixels);
}

std::string FragmentName(const ::testing::TestParamInfo<FragmentParam>& info) {
  std::string env = std::get<1>(info.param);
  for (char& c : env)
    if (c == '.') c = '_';
  return "Shader" + std::to_string(info.index / std::size(kEnvironments)) + "_" + env;
}

INSTANTIATE_TEST_SUITE_P(Tables, FragmentTableTest,
                         ::testing::Combine(::testing::ValuesIn(kFragmentShaders),
                                            ::testing::ValuesIn(kEnvironments)),
                         FragmentName);

// --- (b) corpus compute shaders that need only buffers ----------------------------

struct CorpusEntry {
  std::string path;  // absolute
  std::string env;
  bool glslang_valid = false;
};

std::vector<CorpusEntry> CorpusComputeShaders() {
  std::vector<CorpusEntry> entries;
  for (const test::CorpusShader& shader : test::ReadCorpusManifests())
    if (shader.stage == "comp")
      entries.push_back({shader.path, shader.manifest_env, shader.glslang_valid});
  return entries;
}

// Debian's glslangValidator, as the manifest says the shader compiles (includes resolve
// beside the file). Empty when it fails.
std::vector<uint32_t> CompileWithGlslangValidator(const CorpusEntry& entry,
                                                  const std::string& out_path) {
  std::string command = "/usr/bin/glslangValidator -V -S comp --target-env " + entry.env + " -o '" +
                        out_path + "' '" + entry.path + "' > /dev/null 2>&1";
  if (std::system(command.c_str()) != 0) return {};
  std::string bytes = test::ReadFile(out_path);
  std::remove(out_path.c_str());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// Seeded small values for every declared buffer and the push-constant block.
ComputeRun CorpusRun(const std::vector<uint32_t>& words, const ShaderInterface& interface) {
  ComputeRun run;
  run.shader.spirv = words;
  for (const BindingInfo& info : interface.bindings) {
    BufferBinding buffer;
    buffer.set = info.set;
    buffer.binding = info.binding;
    buffer.contents = BufferContents::Seeded(info.set * 100 + info.binding + 1,
                                             BufferContents::Pattern::kSmallUints);
    run.buffers.push_back(buffer);
  }
  std::vector<uint8_t> push;
  std::string error;
  FillContents(BufferContents::Seeded(99, BufferContents::Pattern::kSmallUints),
               interface.push_constant_size, &push, &error);
  run.push_constants = push;
  run.time_budget_ms = 10000;
  return run;
}

struct CorpusTally {
  int runnable = 0;
  int modules_differ = 0;
  std::map<std::string, int> skipped;  // reason -> count
};

// Why a module cannot run with buffers only ("" when it can).
std::string NeedsMoreThanBuffers(const ShaderInterface& interface) {
  for (const BindingInfo& info : interface.bindings)
    if (info.kind == BindingKind::kUnsupported)
      return "needs images/samplers (" + info.description + ")";
  return "";
}

// `text` with every "%<id>" as "%id" and digits of set/binding numbers kept, so that
// one refusal reason counts every shader it applies to.
std::string WithoutIds(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] != '%') continue;
    out += "id";
    while (i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) ++i;
  }
  return out;
}

void RunCorpusShader(std::unique_ptr<Context>& context, const CorpusEntry& entry,
                     const std::vector<uint32_t>& words, CorpusTally* tally) {
  std::string error;
  std::optional<ShaderInterface> interface = ReadShaderInterface(words, "main", &error);
  if (!interface) {
    ++tally->skipped["interface the harness cannot read: " + WithoutIds(error)];
    return;
  }
  std::string reason = NeedsMoreThanBuffers(*interface);
  if (!reason.empty()) {
    ++tally->skipped[reason.substr(0, reason.find(" ("))];
    return;
  }
  TargetEnv target = TargetOf(entry.env);
  std::vector<uint32_t> glint_words = GlintOutput(words, target);
  EXPECT_EQ(test::ValidateFor(glint_words, target), "") << entry.path;
  ComputeRun run = CorpusRun(words, *interface);
  ComputeResult expected, actual;
  if (!context->RunCompute(run, &expected, &error)) {
    ASSERT_FALSE(context->Lost()) << entry.path << ": " << error;
    ++tally->skipped["refused by the harness: " + error.substr(0, error.find(" but device"))];
    return;
  }
  ++tally->runnable;
  if (glint_words == words) return;  // identical words compute identical buffers
  ++tally->modules_differ;
  run.shader.spirv = glint_words;
  ASSERT_TRUE(context->RunCompute(run, &actual, &error)) << entry.path << ": " << error;
  ASSERT_EQ(actual.buffers.size(), expected.buffers.size());
  for (size_t i = 0; i < actual.buffers.size(); ++i)
    EXPECT_EQ(actual.buffers[i].bytes, expected.buffers[i].bytes) << entry.path << " buffer " << i;
}

// The reference corpus (its manifests' digest, test::CorpusManifestDigest) and how many
// of its compute shaders lavapipe runs with buffers only (measured on Mesa 22.3's
// lavapipe with the harness's capability table; see the printed tally).
constexpr uint64_t kReferenceCorpusDigest = 0xe00da6a9214f09aaull;
constexpr int kExpectedRunnableCorpusShaders = 33;

TEST(CorpusEquivalenceTest, BufferOnlyComputeShaders_GlintMatchesGlslang) {
  std::unique_ptr<Context> context = MakeContext();
  ASSERT_NE(context, nullptr);
  std::vector<CorpusEntry> entries = CorpusComputeShaders();
  if (entries.empty()) GTEST_SKIP() << "the corpus manifests list no compute shader";
  // Compile on two threads (Debian's glslangValidator), then run one at a time.
  std::vector<std::vector<uint32_t>> modules(entries.size());
  auto compile_share = [&](size_t first) {
    for (size_t i = first; i < entries.size(); i += 2)
      if (entries[i].glslang_valid)
        modules[i] = CompileWithGlslangValidator(
            entries[i], test::BinaryDir() + "/equivalence_" + std::to_string(i) + ".spv");
  };
  auto start = std::chrono::steady_clock::now();
  std::thread other(compile_share, 1);
  compile_share(0);
  other.join();
  double compile_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CorpusTally tally;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!entries[i].glslang_valid) {
      ++tally.skipped["glslang's own output fails spirv-val (manifest valFAIL)"];
      continue;
    }
    if (modules[i].empty()) {
      ++tally.skipped["Debian's glslangValidator fails on it (the manifest says it compiles)"];
      continue;
    }
    RunCorpusShader(context, entries[i], modules[i], &tally);
  }
  double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "corpus compute shaders: %zu, runnable with buffers only: %d (Glint changed %d of them); "
      "compile %.1f s, total %.1f s\n",
      entries.size(), tally.runnable, tally.modules_differ, compile_s, total_s);
  int skipped = 0;
  for (const auto& [reason, count] : tally.skipped) {
    std::printf("  skipped %3d: %s\n", count, reason.c_str());
    skipped += count;
  }
  EXPECT_EQ(tally.runnable + skipped, static_cast<int>(entries.size()));
  EXPECT_GT(tally.runnable, 0) << "no corpus compute shader ran";
  if (test::CorpusManifestDigest() == kReferenceCorpusDigest)
    EXPECT_EQ(tally.runnable, kExpectedRunnableCorpusShaders);
  else
    std::printf(
        "not the reference corpus (manifest digest %016llx): %d runnable, not compared "
        "with its %d\n",
        static_cast<unsigned long long>(test::CorpusManifestDigest()), tally.runnable,
        kExpectedRunnableCorpusShaders);
}

}  // namespace
}  // namespace glint::vk

#endif  // GLINT_HAVE_VULKAN
