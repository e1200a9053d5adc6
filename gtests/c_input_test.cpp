// Tests of the C API's input builder and glint_compile (glslang/api/c_input.cpp): every
// setter's effect on the output (HLSL, stages, entry points, -D/-U, -I, the include
// callback and its depth limit, -g variants, SPIR-V version), refusals of values outside
// their enums, and byte-for-byte equality with glslangValidator (Debian's glslang 12 and
// Glint's) for an HLSL shader and a GLSL shader with includes, compiled with the same flags.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <ostream>
#include <thread>
#include <tuple>

#include "glint/glint_c.h"
#include "support/test_support.h"

namespace glint {
namespace {

namespace fs = std::filesystem;

struct InputDeleter {
  void operator()(glint_input_t* input) const { glint_input_free(input); }
};
struct OptionsDeleter {
  void operator()(glint_options_t* options) const { glint_options_free(options); }
};
struct ResultDeleter {
  void operator()(glint_result_t* result) const { glint_result_free(result); }
};
using InputHandle = std::unique_ptr<glint_input_t, InputDeleter>;
using OptionsHandle = std::unique_ptr<glint_options_t, OptionsDeleter>;
using ResultHandle = std::unique_ptr<glint_result_t, ResultDeleter>;

const char* kFragment = R"(#version 440
layout(location = 0) in vec4 tint;
layout(location = 0) out vec4 color;
void main() { color = tint * 2.0; }
)";

InputHandle MakeInput(const char* source, int stage, const char* file_name = nullptr) {
  InputHandle input(glint_input_create());
  EXPECT_EQ(glint_input_set_source(input.get(), source), 1);
  EXPECT_EQ(glint_input_set_stage(input.get(), stage), 1);
  if (file_name) {
    EXPECT_EQ(glint_input_set_file_name(input.get(), file_name), 1);
  }
  return input;
}

ResultHandle Compile(const glint_input_t* input, const glint_options_t* options = nullptr) {
  return ResultHandle(glint_compile(input, options));
}

std::vector<uint32_t> Words(const glint_result_t* result) {
  const uint32_t* words = glint_result_spirv(result);
  return std::vector<uint32_t>(words, words + glint_result_spirv_size(result));
}

std::string AllDiagnostics(const glint_result_t* result) {
  std::string text;
  glint_diagnostic_t diagnostic;
  for (size_t i = 0; glint_report_diagnostic(glint_result_report(result), i, &diagnostic); ++i)
    text += std::string(diagnostic.text) + "\n";
  return text;
}

// Compiles and expects success; returns the disassembly.
std::string CompileToText(const glint_input_t* input, const glint_options_t* options = nullptr) {
  ResultHandle result = Compile(input, options);
  EXPECT_EQ(glint_result_succeeded(result.get()), 1) << AllDiagnostics(result.get());
  return test::Disassemble(Words(result.get()));
}

OptionsHandle OptionsFor(int target) {
  OptionsHandle options(glint_options_create());
  EXPECT_EQ(glint_options_set_target_env(options.get(), target), 1);
  return options;
}

// A temporary directory removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "glint-c-input-XXXXXX").string();
    root_ = mkdtemp(pattern.data()) ? pattern : "";
  }
  ~TempDir() {
    if (!root_.empty()) fs::remove_all(root_);
  }
  std::string Write(const std::string& name, const std::string& text) const {
    fs::path path = fs::path(root_) / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }
  const std::string& path() const { return root_; }

 private:
  std::string root_;
};

// ---------------------------------------------------------------------------------
// Setters refuse what they cannot use, and leave the input as it was.

TEST(CInput, Setters_RefuseNullHandlesAndOutOfRangeValues) {
  EXPECT_EQ(glint_input_set_source(nullptr, "x"), 0);
  EXPECT_EQ(glint_input_set_file_name(nullptr, "x"), 0);
  EXPECT_EQ(glint_input_set_language(nullptr, GLINT_LANGUAGE_HLSL), 0);
  EXPECT_EQ(glint_input_set_stage(nullptr, GLINT_STAGE_VERTEX), 0);
  EXPECT_EQ(glint_input_set_entry_point(nullptr, "x"), 0);
  EXPECT_EQ(glint_input_set_source_entry_point(nullptr, "x"), 0);
  EXPECT_EQ(glint_input_add_define(nullptr, "X", "1"), 0);
  EXPECT_EQ(glint_input_add_undefine(nullptr, "X"), 0);
  EXPECT_EQ(glint_input_add_include_directory(nullptr, "."), 0);
  EXPECT_EQ(glint_input_set_debug_info(nullptr, GLINT_DEBUG_INFO_LINES), 0);
  EXPECT_EQ(glint_input_set_spirv_version(nullptr, 0x10300), 0);
  EXPECT_EQ(glint_input_set_include_callback(nullptr, nullptr, nullptr), 0);
  EXPECT_EQ(glint_include_set_content(nullptr, "a", "b", 1), 0);
  glint_input_free(nullptr);

  InputHandle input(glint_input_create());
  EXPECT_EQ(glint_input_set_source(input.get(), nullptr), 0);
  for (int stage : {-1, 14, 77, 0x7fffffff})
    EXPECT_EQ(glint_input_set_stage(input.get(), stage), 0);
  for (int language : {-1, 2, 1000}) EXPECT_EQ(glint_input_set_language(input.get(), language), 0);
  for (int debug : {-1, 5}) EXPECT_EQ(glint_input_set_debug_info(input.get(), debug), 0);
  for (uint32_t version : {0x10700u, 0x20000u, 0x10001u, 0x00000100u, 0x01010000u})
    EXPECT_EQ(glint_input_set_spirv_version(input.get(), version), 0) << std::hex << version;
  EXPECT_EQ(glint_input_add_define(input.get(), nullptr, "1"), 0);
  EXPECT_EQ(glint_input_add_define(input.get(), "", nullptr), 0);
  EXPECT_EQ(glint_input_add_undefine(input.get(), nullptr), 0);
  EXPECT_EQ(glint_input_add_include_directory(input.get(), nullptr), 0);

  // Nothing above took: no source and no stage are still refused, in that order.
  ResultHandle result = Compile(input.get());
  EXPECT_EQ(glint_result_succeeded(result.get()), 0);
  EXPECT_NE(AllDiagnostics(result.get()).find("glint_compile: no source text"), std::string::npos);
  ASSERT_EQ(glint_input_set_source(input.get(), kFragment), 1);
  result = Compile(input.get());
  EXPECT_NE(AllDiagnostics(result.get()).find("glint_compile: no stage"), std::string::npos);
  ASSERT_EQ(glint_input_set_stage(input.get(), GLINT_STAGE_FRAGMENT), 1);
  result = Compile(input.get());
  EXPECT_EQ(glint_result_succeeded(result.get()), 1) << AllDiagnostics(result.get());
  EXPECT_EQ(Words(result.get())[1], 0x10000u);  // the refused SPIR-V versions did not stick
}

TEST(CInput, Compile_RefusesUnusableTargetsAndNull) {
  ResultHandle none(glint_compile(nullptr, nullptr));
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(glint_result_succeeded(none.get()), 0);
  EXPECT_NE(AllDiagnostics(none.get()).find("glint_compile: no input"), std::string::npos);

  InputHandle input = MakeInput(kFragment, GLINT_STAGE_FRAGMENT);
  OptionsHandle universal = OptionsFor(GLINT_TARGET_UNIVERSAL);
  ResultHandle result = Compile(input.get(), universal.get());
  EXPECT_NE(AllDiagnostics(result.get()).find("OpenGL 4.5 or Vulkan 1.0-1.3"), std::string::npos);

  ASSERT_EQ(glint_input_set_language(input.get(), GLINT_LANGUAGE_HLSL), 1);
  OptionsHandle opengl = OptionsFor(GLINT_TARGET_OPENGL_4_5);
  result = Compile(input.get(), opengl.get());
  EXPECT_NE(AllDiagnostics(result.get()).find("HLSL input under OpenGL"), std::string::npos);
}

// ---------------------------------------------------------------------------------
// Each setter's effect.

TEST(CInput, FileNameAndSyntaxError_DiagnosticNamesFileAndLine) {
  InputHandle input =
      MakeInput("#version 440\nvoid main() {\n  x = 1;\n}\n", GLINT_STAGE_COMPUTE, "broken.comp");
  ResultHandle result = Compile(input.get());
  EXPECT_EQ(glint_result_succeeded(result.get()), 0);
  EXPECT_EQ(glint_result_spirv(result.get()), nullptr);
  glint_diagnostic_t first;
  ASSERT_EQ(glint_report_diagnostic(glint_result_report(result.get()), 0, &first), 1);
  EXPECT_EQ(first.severity, GLINT_SEVERITY_ERROR);
  EXPECT_STREQ(first.file, "broken.comp");
  EXPECT_EQ(first.line, 3u);
  EXPECT_EQ(std::string(first.text).rfind("ERROR: broken.comp:3: ", 0), 0u) << first.text;
}

TEST(CInput, Hlsl_EntryPointAndSourceEntryPoint) {
  const char* source = R"(
float4 PixelMain(float4 position : SV_Position) : SV_Target { return position * 0.5; }
float4 Other() : SV_Target { return 1.0; }
)";
  InputHandle input = MakeInput(source, GLINT_STAGE_FRAGMENT);
  ASSERT_EQ(glint_input_set_language(input.get(), GLINT_LANGUAGE_HLSL), 1);
  // Without an entry point HLSL has no "main": glslang warns (and emits no entry point).
  ResultHandle missing = Compile(input.get());
  EXPECT_NE(
      AllDiagnostics(missing.get()).find("WARNING: Linking fragment stage: Entry point not found"),
      std::string::npos)
      << AllDiagnostics(missing.get());

  ASSERT_EQ(glint_input_set_entry_point(input.get(), "PixelMain"), 1);
  EXPECT_TRUE(test::FileCheck(CompileToText(input.get()), R"(
    CHECK: OpEntryPoint Fragment %PixelMain "PixelMain"
    CHECK: OpSource HLSL 500
  )"));
  // -e names the module's entry point, --sep the HLSL function compiled as it (Other
  // returns 1.0; legalization inlines it).
  ASSERT_EQ(glint_input_set_entry_point(input.get(), "renamed"), 1);
  ASSERT_EQ(glint_input_set_source_entry_point(input.get(), "Other"), 1);
  std::string text = CompileToText(input.get());
  EXPECT_TRUE(test::FileCheck(text, R"(
    CHECK: OpEntryPoint Fragment %renamed "renamed"
    CHECK-NOT: OpConstant %float 0.5
    CHECK: OpConstant %float 1
  )")) << text;
  // Back to GLSL: the HLSL source no longer parses.
  ASSERT_EQ(glint_input_set_language(input.get(), GLINT_LANGUAGE_GLSL), 1);
  EXPECT_EQ(glint_result_succeeded(Compile(input.get()).get()), 0);
}

TEST(CInput, DefinesAndUndefines_ApplyInOrder) {
  const char* source = R"(#version 440
#ifndef SCALE
#error SCALE missing
#endif
#ifdef DROPPED
#error DROPPED still defined
#endif
layout(location = 0) out vec4 color;
void main() { color = vec4(SCALE); }
)";
  InputHandle input = MakeInput(source, GLINT_STAGE_FRAGMENT);
  ResultHandle missing = Compile(input.get());
  EXPECT_NE(AllDiagnostics(missing.get()).find("SCALE missing"), std::string::npos);

  ASSERT_EQ(glint_input_add_define(input.get(), "SCALE", "7.5"), 1);
  ASSERT_EQ(glint_input_add_define(input.get(), "DROPPED", nullptr), 1);
  ResultHandle still = Compile(input.get());
  EXPECT_NE(AllDiagnostics(still.get()).find("DROPPED still defined"), std::string::npos);

  ASSERT_EQ(glint_input_add_undefine(input.get(), "DROPPED"), 1);
  ASSERT_EQ(glint_input_set_debug_info(input.get(), GLINT_DEBUG_INFO_LINES),
            1);  // -g lists them in OpSource
  EXPECT_TRUE(test::FileCheck(CompileToText(input.get()), R"(
    CHECK: // OpModuleProcessed define-macro SCALE=7.5
    CHECK-NEXT: // OpModuleProcessed define-macro DROPPED
    CHECK-NEXT: // OpModuleProcessed undef-macro DROPPED
    CHECK: OpConstant %float 7.5
  )"));
}

TEST(CInput, DebugInfo_EachLevel) {
  InputHandle input = MakeInput(kFragment, GLINT_STAGE_FRAGMENT, "tint.frag");
  std::string plain = CompileToText(input.get());
  EXPECT_EQ(plain.find("OpLine"), std::string::npos);
  EXPECT_NE(plain.find("OpName %main \"main\""), std::string::npos);

  ASSERT_EQ(glint_input_set_debug_info(input.get(), GLINT_DEBUG_INFO_LINES), 1);
  EXPECT_TRUE(test::FileCheck(CompileToText(input.get()), R"(
    CHECK: OpString "tint.frag"
    CHECK: OpLine
  )"));
  ASSERT_EQ(glint_input_set_debug_info(input.get(), GLINT_DEBUG_INFO_STRIP), 1);
  std::string stripped = CompileToText(input.get());
  EXPECT_EQ(stripped.find("OpName"), std::string::npos);
  EXPECT_EQ(stripped.find("OpSource"), std::string::npos);
  ASSERT_EQ(glint_input_set_debug_info(input.get(), GLINT_DEBUG_INFO_NON_SEMANTIC), 1);
  std::string non_semantic = CompileToText(input.get());
  EXPECT_NE(non_semantic.find("NonSemantic.Shader.DebugInfo.100"), std::string::npos);
  EXPECT_EQ(non_semantic.find("color = tint * 2.0"), std::string::npos)
      << "no source text with -gV";
  ASSERT_EQ(glint_input_set_debug_info(input.get(), GLINT_DEBUG_INFO_NON_SEMANTIC_SOURCE), 1);
  EXPECT_NE(CompileToText(input.get()).find("color = tint * 2.0"), std::string::npos);
}

TEST(CInput, SpirvVersion_OverridesTheTargetsDefault) {
  InputHandle input = MakeInput(kFragment, GLINT_STAGE_FRAGMENT);
  OptionsHandle vulkan11 = OptionsFor(GLINT_TARGET_VULKAN_1_1);
  ResultHandle by_target = Compile(input.get(), vulkan11.get());
  EXPECT_EQ(Words(by_target.get())[1], 0x10300u);
  ASSERT_EQ(glint_input_set_spirv_version(input.get(), 0x10400), 1);
  ResultHandle explicit_version = Compile(input.get(), vulkan11.get());
  std::vector<uint32_t> words = Words(explicit_version.get());
  ASSERT_GT(words.size(), 5u);
  EXPECT_EQ(words[1], 0x10400u);
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan11), "");
  ASSERT_EQ(glint_input_set_spirv_version(input.get(), 0), 1);  // back to the target's
  EXPECT_EQ(Words(Compile(input.get(), vulkan11.get()).get())[1], 0x10300u);
}

struct StageCase {
  int stage;
  int target;
  const char* source;
  const char* execution_model;
};

// Failure messages name the case, not its bytes.
void PrintTo(const StageCase& c, std::ostream* out) { *out << c.execution_model; }

class CInputStages : public ::testing::TestWithParam<StageCase> {};

TEST_P(CInputStages, Compile_EmitsTheExecutionModel) {
  OptionsHandle options = OptionsFor(GetParam().target);
  ASSERT_EQ(glint_options_set_validate(options.get(), 1), 1);
  InputHandle input = MakeInput(GetParam().source, GetParam().stage);
  std::string text = CompileToText(input.get(), options.get());
  EXPECT_NE(text.find(std::string("OpEntryPoint ") + GetParam().execution_model), std::string::npos)
      << text;
}

const char* kVertex = "#version 440\nvoid main() { gl_Position = vec4(1.0); }\n";
const char* kCompute = "#version 440\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
const char* kMiss = R"(#version 460
#extension GL_EXT_ray_tracing : require
layout(location = 0) rayPayloadInEXT vec4 payload;
void main() { payload = vec4(0.0); }
)";
const char* kMesh = R"(#version 450
#extension GL_EXT_mesh_shader : require
layout(local_size_x = 1) in;
layout(triangles, max_vertices = 3, max_primitives = 1) out;
void main() { SetMeshOutputsEXT(0, 0); }
)";

INSTANTIATE_TEST_SUITE_P(
    Stages, CInputStages,
    ::testing::Values(StageCase{GLINT_STAGE_VERTEX, GLINT_TARGET_VULKAN_1_0, kVertex, "Vertex"},
                      StageCase{GLINT_STAGE_COMPUTE, GLINT_TARGET_OPENGL_4_5, kCompute,
                                "GLCompute"},
                      StageCase{GLINT_STAGE_MISS, GLINT_TARGET_VULKAN_1_2, kMiss, "MissNV"},
                      StageCase{GLINT_STAGE_MESH, GLINT_TARGET_VULKAN_1_3, kMesh, "MeshEXT"}),
    [](const auto& info) { return std::string(info.param.execution_model); });

// ---------------------------------------------------------------------------------
// Includes: directories, the callback, and the depth limit.

const char* kIncluding = R"(#version 440
#extension GL_GOOGLE_include_directive : require
#include "scale.glsl"
layout(location = 0) out vec4 color;
void main() { color = vec4(kScale); }
)";

TEST(CInput, IncludeDirectories_SearchedAfterTheFilesOwnDirectory) {
  TempDir dir;
  dir.Write("a/scale.glsl", "const float kScale = 3.0;\n");
  dir.Write("b/scale.glsl", "const float kScale = 5.0;\n");
  InputHandle input = MakeInput(kIncluding, GLINT_STAGE_FRAGMENT, "memory.frag");
  ResultHandle unresolved = Compile(input.get());
  EXPECT_NE(AllDiagnostics(unresolved.get()).find("scale.glsl"), std::string::npos);

  ASSERT_EQ(glint_input_add_include_directory(input.get(), (dir.path() + "/a").c_str()), 1);
  ASSERT_EQ(glint_input_add_include_directory(input.get(), (dir.path() + "/b").c_str()), 1);
  EXPECT_NE(CompileToText(input.get()).find("OpConstant %float 3"), std::string::npos);
  // The including file's own directory wins over -I.
  std::string own = dir.Write("c/shader.frag", kIncluding);
  dir.Write("c/scale.glsl", "const float kScale = 9.0;\n");
  ASSERT_EQ(glint_input_set_file_name(input.get(), own.c_str()), 1);
  EXPECT_NE(CompileToText(input.get()).find("OpConstant %float 9"), std::string::npos);
}

// An in-memory file system for the callback, which records how it was asked.
struct MemoryFiles {
  std::map<std::string, std::string> files;
  std::vector<std::string> calls;  // "requested|includer|depth|system"
};

int MemoryInclude(void* user_data, const char* requested, const char* includer, size_t depth,
                  int is_system, glint_include_t* include) {
  auto* memory = static_cast<MemoryFiles*>(user_data);
  memory->calls.push_back(std::string(requested) + "|" + includer + "|" + std::to_string(depth) +
                          "|" + std::to_string(is_system));
  auto found = memory->files.find(requested);
  if (found == memory->files.end()) return 0;
  std::string resolved = "mem/" + found->first;
  return glint_include_set_content(include, resolved.c_str(), found->second.data(),
                                   found->second.size());
}

TEST(CInput, IncludeCallback_SuppliesNestedFilesAndDeclinesToDirectories) {
  const char* source = R"(#version 440
#extension GL_GOOGLE_include_directive : require
#include "outer.glsl"
#include <system.glsl>
layout(location = 0) out vec4 color;
void main() { color = vec4(kOuter + kInner + kSystem + kScale); }
)";
  MemoryFiles memory;
  memory.files["outer.glsl"] = "#include \"inner.glsl\"\nconst float kOuter = 1.0;\n";
  memory.files["inner.glsl"] = "const float kInner = 2.0;\n";
  memory.files["system.glsl"] = "const float kSystem = 4.0;\n#include \"scale.glsl\"\n";
  TempDir dir;
  dir.Write("scale.glsl", "const float kScale = 8.0;\n");  // declined by the callback
  InputHandle input = MakeInput(source, GLINT_STAGE_FRAGMENT, "root.frag");
  ASSERT_EQ(glint_input_set_include_callback(input.get(), MemoryInclude, &memory), 1);
  ASSERT_EQ(glint_input_add_include_directory(input.get(), dir.path().c_str()), 1);
  ASSERT_EQ(glint_input_set_debug_info(input.get(), GLINT_DEBUG_INFO_LINES), 1);
  std::string text = CompileToText(input.get());
  EXPECT_NE(text.find("OpConstant %float 15"), std::string::npos) << text;  // 1 + 2 + 4 + 8
  EXPECT_NE(text.find("OpString \"mem/inner.glsl\""), std::string::npos);
  std::vector<std::string> expected = {"outer.glsl|root.frag|1|0", "inner.glsl|mem/outer.glsl|2|0",
                                       "system.glsl|root.frag|1|1",
                                       "scale.glsl|mem/system.glsl|2|0"};
  EXPECT_EQ(memory.calls, expected);

  // Without the callback nothing resolves outer.glsl.
  ASSERT_EQ(glint_input_set_include_callback(input.get(), nullptr, nullptr), 1);
  ResultHandle failed = Compile(input.get());
  EXPECT_EQ(glint_result_succeeded(failed.get()), 0);
  EXPECT_NE(AllDiagnostics(failed.get()).find("outer.glsl"), std::string::npos);
}

TEST(CInput, IncludeCallback_CycleStopsAtTheDepthLimitWithTheChain) {
  MemoryFiles memory;
  memory.files["loop.glsl"] = "#include \"loop.glsl\"\n";
  InputHandle input = MakeInput(
      "#version 440\n#extension GL_GOOGLE_include_directive : require\n#include \"loop.glsl\"\n"
      "void main() {}\n",
      GLINT_STAGE_FRAGMENT, "cycle.frag");
  ASSERT_EQ(glint_input_set_include_callback(input.get(), MemoryInclude, &memory), 1);
  ResultHandle result = Compile(input.get());
  EXPECT_EQ(glint_result_succeeded(result.get()), 0);
  std::string text = AllDiagnostics(result.get());
  EXPECT_NE(text.find("#include nested more than 64 files deep (the include depth limit; an "
                      "#include cycle?): cycle.frag -> mem/loop.glsl -> mem/loop.glsl -> ... ("),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("-> mem/loop.glsl -> loop.glsl"), std::string::npos) << text;
  EXPECT_EQ(memory.calls.size(), 64u);  // the callback is not asked past the limit
}

// ---------------------------------------------------------------------------------
// Byte for byte like the command line with the same flags.

struct ToolRun {
  int exit_code = -1;
  std::vector<uint32_t> words;
};

ToolRun RunTool(const std::string& tool, const std::string& args, const std::string& dir) {
  std::string out = dir + "/tool.spv";
  fs::remove(out);
  std::string command = "cd '" + dir + "' && '" + tool + "' " + args + " -o '" + out + "' >'" +
                        dir + "/tool.log' 2>&1";
  int status = std::system(command.c_str());
  ToolRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (fs::exists(out)) {
    std::string bytes = test::ReadFile(out);
    run.words.resize(bytes.size() / 4);
    std::memcpy(run.words.data(), bytes.data(), run.words.size() * 4);
  }
  return run;
}

// Debian's glslang 12 and Glint's command line: the C API must match both (the shaders
// have nothing Glint rewrites or warns about, so the two tools agree too).
void ExpectSameAsTools(const glint_input_t* input, const glint_options_t* options,
                       const std::string& args, const std::string& dir) {
  ResultHandle result = Compile(input, options);
  ASSERT_EQ(glint_result_succeeded(result.get()), 1) << AllDiagnostics(result.get());
  std::vector<uint32_t> words = Words(result.get());
  for (const std::string& tool : {std::string("/usr/bin/glslangValidator"),
                                  test::BinaryDir() + "/StandAlone/glslangValidator"}) {
    ToolRun run = RunTool(tool, args, dir);
    ASSERT_EQ(run.exit_code, 0) << tool << " " << args << "\n" << test::ReadFile(dir + "/tool.log");
    EXPECT_EQ(words, run.words) << tool << " " << args;
  }
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan11), "");
}

TEST(CInput, GlslWithIncludes_ByteIdenticalToGlslangValidator) {
  TempDir dir;
  std::string root = dir.Write("src/main.frag", R"(#version 440
#extension GL_GOOGLE_include_directive : require
#include "local.glsl"
#include "common/lighting.glsl"
layout(location = 0) in vec3 normal;
layout(location = 0) out vec4 color;
void main() { color = vec4(vec3(Light(normal) * AMBIENT), 1.0); }
)");
  dir.Write("src/local.glsl", "#include \"nested.glsl\"\n");
  dir.Write("src/nested.glsl", "const float kNested = 0.25;\n");
  dir.Write("lib/common/lighting.glsl",
            "float Light(vec3 n) { return max(dot(n, vec3(0.0, 1.0, 0.0)), kNested); }\n");
  InputHandle input = MakeInput(test::ReadFile(root).c_str(), GLINT_STAGE_FRAGMENT, root.c_str());
  ASSERT_EQ(glint_input_add_include_directory(input.get(), (dir.path() + "/lib").c_str()), 1);
  ASSERT_EQ(glint_input_add_define(input.get(), "AMBIENT", "0.5"), 1);
  ASSERT_EQ(glint_input_set_debug_info(input.get(), GLINT_DEBUG_INFO_LINES), 1);
  OptionsHandle options = OptionsFor(GLINT_TARGET_VULKAN_1_1);
  ExpectSameAsTools(
      input.get(), options.get(),
      "-V --target-env vulkan1.1 -g -DAMBIENT=0.5 -I'" + dir.path() + "/lib' '" + root + "'",
      dir.path());
}

TEST(CInput, Hlsl_ByteIdenticalToGlslangValidator) {
  const std::string inputs = test::SourceRoot() + "/Test/c_input/";
  TempDir dir;
  // defines.frag: defines and undefines; include.vert: nested includes beside the file.
  for (const auto& [file, stage, flags] :
       {std::tuple<std::string, int, std::string>{"defines.frag", GLINT_STAGE_FRAGMENT,
                                                  "-DUNDEFED -UIN_SHADER -DFOO=200 -UUNDEFED"},
        {"include.vert", GLINT_STAGE_VERTEX, ""}}) {
    SCOPED_TRACE(file);
    std::string path = inputs + file;
    InputHandle input = MakeInput(test::ReadFile(path).c_str(), stage, path.c_str());
    ASSERT_EQ(glint_input_set_language(input.get(), GLINT_LANGUAGE_HLSL), 1);
    ASSERT_EQ(glint_input_set_entry_point(input.get(), "main"), 1);
    if (!flags.empty()) {
      ASSERT_EQ(glint_input_add_define(input.get(), "UNDEFED", nullptr), 1);
      ASSERT_EQ(glint_input_add_undefine(input.get(), "IN_SHADER"), 1);
      ASSERT_EQ(glint_input_add_define(input.get(), "FOO", "200"), 1);
      ASSERT_EQ(glint_input_add_undefine(input.get(), "UNDEFED"), 1);
    }
    OptionsHandle options = OptionsFor(GLINT_TARGET_VULKAN_1_1);
    ExpectSameAsTools(input.get(), options.get(),
                      "-D -V --target-env vulkan1.1 -e main " + flags + " '" + path + "'",
                      dir.path());
  }
}

// Binding shifts (per kind and per set), auto-mapped bindings and locations, a .conf
// file's limits and -Od, each as glslangValidator applies the flag.
TEST(CInput, MappingLimitsAndOptimizer_ByteIdenticalToGlslangValidator) {
  TempDir dir;
  std::string root = dir.Write("mapped.frag", R"(#version 440
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(binding = 1) uniform Tint { vec4 tint; };
layout(set = 2, binding = 0) uniform Fog { vec4 fog; };
uniform sampler2D unbound_image;
layout(std430) buffer Unbound { vec4 values[]; };
void main() {
  color = texture(unbound_image, uv) * tint + fog + values[gl_MaxDrawBuffers - 1] +
          float(gl_MaxFragmentInputComponents);
}
)");
  const char* conf = "MaxDrawBuffers 3\nMaxTextureUnits 16\n";
  dir.Write("limits.conf", conf);
  InputHandle input = MakeInput(test::ReadFile(root).c_str(), GLINT_STAGE_FRAGMENT, root.c_str());
  ASSERT_EQ(glint_input_set_binding_shift(input.get(), GLINT_RESOURCE_UBO, 10), 1);
  ASSERT_EQ(glint_input_set_binding_shift_for_set(input.get(), GLINT_RESOURCE_UBO, 2, 20), 1);
  ASSERT_EQ(glint_input_set_auto_map_bindings(input.get(), 1), 1);
  ASSERT_EQ(glint_input_set_auto_map_locations(input.get(), 1), 1);
  ASSERT_EQ(glint_input_set_resource_limits(input.get(), conf), 1);
  ASSERT_EQ(glint_input_set_disable_optimizer(input.get(), 1), 1);
  OptionsHandle options = OptionsFor(GLINT_TARGET_VULKAN_1_0);
  ExpectSameAsTools(input.get(), options.get(),
                    "-V -Od --shift-UBO-binding 10 --shift-UBO-binding frag 20 2 "
                    "--auto-map-bindings --auto-map-locations '" +
                        root + "' limits.conf",
                    dir.path());
  // gl_MaxDrawBuffers came from the .conf text: without it the index is 7, not 2; and
  // gl_MaxFragmentInputComponents, which the text does not name, is 0 (glslangValidator
  // starts a .conf from nothing), not glslang's default 128: the tool comparison above
  // fails if the library started from the defaults.
  InputHandle defaults =
      MakeInput(test::ReadFile(root).c_str(), GLINT_STAGE_FRAGMENT, root.c_str());
  ASSERT_EQ(glint_input_set_auto_map_bindings(defaults.get(), 1), 1);
  EXPECT_NE(Words(Compile(defaults.get(), options.get()).get()),
            Words(Compile(input.get(), options.get()).get()));
}

TEST(CInput, MappingSetters_RefuseOutOfRangeAndMalformed) {
  InputHandle input = MakeInput(kFragment, GLINT_STAGE_FRAGMENT);
  EXPECT_EQ(glint_input_set_binding_shift(input.get(), GLINT_RESOURCE_UAV + 1, 1), 0);
  EXPECT_EQ(glint_input_set_binding_shift(input.get(), -1, 1), 0);
  EXPECT_EQ(glint_input_set_binding_shift_for_set(input.get(), 77, 0, 1), 0);
  EXPECT_EQ(glint_input_set_binding_shift(nullptr, GLINT_RESOURCE_UBO, 1), 0);
  EXPECT_EQ(glint_input_set_resource_limits(input.get(), "MaxLights"), 0);
  EXPECT_EQ(glint_input_set_resource_limits(input.get(), "MaxLights 3 4"), 0);
  EXPECT_EQ(glint_input_set_resource_limits(input.get(), "3 MaxLights"), 0);
  EXPECT_EQ(glint_input_set_resource_limits(input.get(), "MaxLights x3"), 0);
  EXPECT_EQ(glint_input_set_resource_limits(input.get(), "MaxLights 3\nnonInductiveForLoops 1"), 1);
  EXPECT_EQ(glint_input_set_resource_limits(input.get(), nullptr), 1);
  EXPECT_EQ(glint_input_set_auto_map_bindings(nullptr, 1), 0);
  EXPECT_EQ(glint_input_set_disable_optimizer(nullptr, 1), 0);
}

// glint_shutdown gives back the library's hold on glslang; the next compile takes it again.
TEST(CInput, Shutdown_ThenCompileAgain) {
  InputHandle input = MakeInput(kFragment, GLINT_STAGE_FRAGMENT);
  std::vector<uint32_t> before = Words(Compile(input.get()).get());
  glint_shutdown();
  glint_shutdown();  // nothing held: nothing to do
  std::vector<uint32_t> after = Words(Compile(input.get()).get());
  EXPECT_FALSE(after.empty());
  EXPECT_EQ(after, before);
}

// ---------------------------------------------------------------------------------
// Lifetime and threads.

TEST(CInput, Lifetime_InputReusableAndFreeableBeforeTheResult) {
  InputHandle input = MakeInput(kFragment, GLINT_STAGE_FRAGMENT);
  ResultHandle first = Compile(input.get());
  ResultHandle second = Compile(input.get());
  input.reset();
  ASSERT_EQ(glint_result_succeeded(first.get()), 1);
  EXPECT_EQ(Words(first.get()), Words(second.get()));
}

// A callback that only reads its files (no recording), so that threads may share it.
int ReadOnlyInclude(void* user_data, const char* requested, const char*, size_t, int,
                    glint_include_t* include) {
  const auto* files = static_cast<const std::map<std::string, std::string>*>(user_data);
  auto found = files->find(requested);
  if (found == files->end()) return 0;
  return glint_include_set_content(include, requested, found->second.data(), found->second.size());
}

// 8 threads compile with one shared input (read-only) and callback.
TEST(CInput, Threads_SharedInputAndCallback) {
  std::map<std::string, std::string> files = {{"scale.glsl", "const float kScale = 2.0;\n"}};
  InputHandle input = MakeInput(kIncluding, GLINT_STAGE_FRAGMENT, "threads.frag");
  ASSERT_EQ(glint_input_set_include_callback(input.get(), ReadOnlyInclude, &files), 1);
  ResultHandle reference = Compile(input.get());
  ASSERT_EQ(glint_result_succeeded(reference.get()), 1) << AllDiagnostics(reference.get());
  const std::vector<uint32_t> expected = Words(reference.get());
  std::vector<int> mismatches(8, 0);
  std::vector<std::thread> workers;
  for (int t = 0; t < 8; ++t)
    workers.emplace_back([&, t] {
      for (int round = 0; round < 4; ++round)
        if (Words(Compile(input.get()).get()) != expected) ++mismatches[t];
    });
  for (std::thread& worker : workers) worker.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

TEST(CInput, Version_MatchesTheHeader) {
  EXPECT_STREQ(glint_version(), GLINT_VERSION_STRING);
  EXPECT_EQ(std::string(glint_version()), std::to_string(GLINT_VERSION_MAJOR) + "." +
                                              std::to_string(GLINT_VERSION_MINOR) + "." +
                                              std::to_string(GLINT_VERSION_PATCH));
}

// ---------------------------------------------------------------------------------
// Source size limits (glint/input_limits.h, glint_input_set_source_limits).

const char* kIncludingSource =
    "#version 440\n#extension GL_GOOGLE_include_directive : require\n#include \"big.glsl\"\n"
    "layout(location = 0) out vec4 color;\nvoid main() { color = vec4(kBig); }\n";

TEST(CInput, SourceLimits_DefaultsAndZeroRefused) {
  InputHandle input = MakeInput(kIncludingSource, GLINT_STAGE_FRAGMENT);
  EXPECT_EQ(glint_input_set_source_limits(nullptr, 1, 1), 0);
  EXPECT_EQ(glint_input_set_source_limits(input.get(), 0, 1), 0);
  EXPECT_EQ(glint_input_set_source_limits(input.get(), 1, 0), 0);
  EXPECT_EQ(GLINT_MAX_SOURCE_BYTES, 64ull << 20);
  EXPECT_EQ(GLINT_MAX_TOTAL_SOURCE_BYTES, 256ull << 20);
}

// The source text itself: refused by the limit's name, before glslang runs.
TEST(CInput, SourceLimits_SourceOverTheLimitIsRefused) {
  InputHandle input = MakeInput(kFragment, GLINT_STAGE_FRAGMENT);
  ASSERT_EQ(glint_input_set_source_limits(input.get(), 16, 1 << 20), 1);
  ResultHandle result = Compile(input.get());
  EXPECT_EQ(glint_result_succeeded(result.get()), 0);
  EXPECT_EQ(AllDiagnostics(result.get()),
            "ERROR: glint_compile: the source text is larger than 16 bytes, Glint's source size limit "
            "(--max-source-bytes)\n");
  ASSERT_EQ(glint_input_set_source_limits(input.get(), 1 << 20, 1 << 20), 1);
  ResultHandle raised = Compile(input.get());
  EXPECT_EQ(glint_result_succeeded(raised.get()), 1) << AllDiagnostics(raised.get());
}

// An included file from the directories: over the per-file limit, and over what the
// source itself left of the total.
TEST(CInput, SourceLimits_IncludedFileOverTheLimitIsAnIncludeError) {
  TempDir dir;
  dir.Write("big.glsl", "const float kBig = 1.0;\n" + std::string(4000, ' ') + "\n");
  InputHandle input = MakeInput(kIncludingSource, GLINT_STAGE_FRAGMENT, "top.frag");
  ASSERT_EQ(glint_input_add_include_directory(input.get(), dir.path().c_str()), 1);
  EXPECT_EQ(glint_result_succeeded(Compile(input.get()).get()), 1);  // the defaults
  ASSERT_EQ(glint_input_set_source_limits(input.get(), 4000, 1 << 20), 1);
  ResultHandle per_file = Compile(input.get());
  EXPECT_EQ(glint_result_succeeded(per_file.get()), 0);
  EXPECT_NE(AllDiagnostics(per_file.get())
                .find("cannot read included file '" + dir.path() +
                      "/big.glsl': larger than 4000 bytes, Glint's source size limit "
                      "(--max-source-bytes)"),
            std::string::npos)
      << AllDiagnostics(per_file.get());
  const uint64_t total = std::strlen(kIncludingSource) + 4000;
  ASSERT_EQ(glint_input_set_source_limits(input.get(), 1 << 20, total), 1);
  ResultHandle over_total = Compile(input.get());
  EXPECT_EQ(glint_result_succeeded(over_total.get()), 0);
  EXPECT_NE(AllDiagnostics(over_total.get())
                .find("larger than 4000 bytes, what is left of Glint's total source limit for "
                      "this compile (--max-total-source-bytes)"),
            std::string::npos)
      << AllDiagnostics(over_total.get());
}

// A callback offering more than the limit allows: refused from the length alone (the
// pointer given covers 8 bytes; reading the length it claims would overflow it).
int OversizedInclude(void*, const char*, const char*, size_t, int, glint_include_t* include) {
  static const char kEightBytes[8] = {'/', '/', ' ', 'b', 'i', 'g', '\n', 0};
  EXPECT_EQ(glint_include_set_content(include, "mem/big.glsl", kEightBytes, size_t{1} << 40), 0);
  return 1;
}

TEST(CInput, SourceLimits_CallbackContentOverTheLimitIsNeverRead) {
  InputHandle input = MakeInput(kIncludingSource, GLINT_STAGE_FRAGMENT, "top.frag");
  ASSERT_EQ(glint_input_set_include_callback(input.get(), OversizedInclude, nullptr), 1);
  ResultHandle result = Compile(input.get());
  EXPECT_EQ(glint_result_succeeded(result.get()), 0);
  EXPECT_NE(AllDiagnostics(result.get())
                .find("the content supplied for 'mem/big.glsl' is larger than 67108864 bytes, "
                      "Glint's source size limit (--max-source-bytes) for header name: big.glsl"),
            std::string::npos)
      << AllDiagnostics(result.get());
}

}  // namespace
}  // namespace glint
