// Glint's libshaderc (libshaderc/): libshaderc 2023.2's C API over the compile Glint's
// glslc uses. With Glint's passes off (glint_shaderc_compile_options_set_glint) every
// output and message equals what Debian's glslc gives for the same settings, byte for
// byte; with them on, Glint's passes run and the modules validate. A C program compiled
// against Debian's own <shaderc/shaderc.h> and linked with Glint's libshaderc.so.1
// (gtests/libshaderc_probe/probe.c) builds and gives the same results, which shows the
// two agree on names, enum values and calling conventions; a C++ program for
// shaderc.hpp (probe.cpp) builds against Debian's header and Glint's and prints the same.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "shaderc/shaderc.h"
#include "shaderc/shaderc.hpp"
#include "support/test_support.h"

namespace glint {
namespace {

namespace fs = std::filesystem;

const char* const kFragment = R"(#version 450
layout(location = 0) out vec4 color;
void main() { color = vec4(SCALE); }
)";
const char* const kTable = R"(#version 450
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
const float table[4] = float[](1.0, 2.0, 3.0, 4.0);
void main() { color = vec4(table[index & 3]); }
)";
const char* const kIncluding = R"(#version 450
#extension GL_GOOGLE_include_directive : require
#include "a.glsl"
#include <b.glsl>
layout(location = 0) out vec4 color;
void main() { color = vec4(A + B); }
)";
const char* const kWarning = R"(#version 450
#extension GL_EXT_no_such_thing : enable
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0); }
)";

// What Debian's glslc prints and writes for `source` (as f.frag or `name`) and `args`.
struct GlslcRun {
  int exit_code = -1;
  std::string output, err;
};
GlslcRun RunDebianGlslc(const std::string& source, const std::string& name,
                        const std::string& args) {
  char pattern[] = "/tmp/glint-libshaderc-XXXXXX";
  std::string dir = mkdtemp(pattern);
  std::ofstream(dir + "/" + name, std::ios::binary) << source;
  std::ofstream(dir + "/a.glsl") << "const float A = 1.0;\n";
  std::ofstream(dir + "/b.glsl") << "const float B = 2.0;\n";
  std::string command = "cd '" + dir + "' && /usr/bin/glslc " + args + " " + name +
                        " -o out 2>err";
  int status = std::system(command.c_str());
  GlslcRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.output = fs::exists(dir + "/out") ? test::ReadFile(dir + "/out") : "";
  run.err = test::ReadFile(dir + "/err");
  fs::remove_all(dir);
  return run;
}

// The glslc message text without the summary line ("1 error generated.").
std::string WithoutSummary(const std::string& err) {
  size_t last = err.rfind(" generated.\n");
  if (last == std::string::npos) return err;
  size_t start = err.rfind('\n', last);
  return err.substr(0, start == std::string::npos ? 0 : start + 1);
}

class Libshaderc : public ::testing::Test {
 protected:
  void SetUp() override {
    compiler_ = shaderc_compiler_initialize();
    options_ = shaderc_compile_options_initialize();
    glint_shaderc_compile_options_set_glint(options_, false);
  }
  void TearDown() override {
    shaderc_compile_options_release(options_);
    shaderc_compiler_release(compiler_);
  }
  struct Result {
    shaderc_compilation_status status;
    size_t warnings, errors;
    std::string bytes, messages;
  };
  Result Take(shaderc_compilation_result_t result) {
    Result taken{shaderc_result_get_compilation_status(result),
                 shaderc_result_get_num_warnings(result), shaderc_result_get_num_errors(result),
                 std::string(), shaderc_result_get_error_message(result)};
    if (shaderc_result_get_length(result))
      taken.bytes.assign(shaderc_result_get_bytes(result), shaderc_result_get_length(result));
    shaderc_result_release(result);
    return taken;
  }
  Result Spv(const char* source, shaderc_shader_kind kind, const char* name = "f.frag") {
    return Take(shaderc_compile_into_spv(compiler_, source, strlen(source), kind, name, "main",
                                         options_));
  }
  shaderc_compiler_t compiler_ = nullptr;
  shaderc_compile_options_t options_ = nullptr;
};

// Every output kind, side by side with glslc -c / -S / -E for the same settings.
TEST_F(Libshaderc, OutputsAreGlslcs) {
  shaderc_compile_options_add_macro_definition(options_, "SCALE", 5, "2.0", 3);
  const std::pair<shaderc_env_version, const char*> kEnvs[] = {
      {shaderc_env_version_vulkan_1_0, "vulkan1.0"}, {shaderc_env_version_vulkan_1_1, "vulkan1.1"},
      {shaderc_env_version_vulkan_1_2, "vulkan1.2"}, {shaderc_env_version_vulkan_1_3, "vulkan1.3"}};
  for (const auto& [version, env] : kEnvs) {
    SCOPED_TRACE(env);
    shaderc_compile_options_set_target_env(options_, shaderc_target_env_vulkan, version);
    std::string args = std::string("-DSCALE=2.0 --target-env=") + env;
    Result spv = Spv(kFragment, shaderc_glsl_fragment_shader);
    EXPECT_EQ(spv.status, shaderc_compilation_status_success) << spv.messages;
    EXPECT_EQ(spv.bytes, RunDebianGlslc(kFragment, "f.frag", "-c " + args).output);
    Result text = Take(shaderc_compile_into_spv_assembly(
        compiler_, kFragment, strlen(kFragment), shaderc_glsl_fragment_shader, "f.frag", "main",
        options_));
    EXPECT_EQ(text.bytes, RunDebianGlslc(kFragment, "f.frag", "-S " + args).output);
    Result preprocessed = Take(shaderc_compile_into_preprocessed_text(
        compiler_, kFragment, strlen(kFragment), shaderc_glsl_fragment_shader, "f.frag", "main",
        options_));
    EXPECT_EQ(preprocessed.bytes, RunDebianGlslc(kFragment, "f.frag", "-E " + args).output);
  }
  shaderc_compile_options_set_target_env(options_, shaderc_target_env_opengl,
                                         shaderc_env_version_opengl_4_5);
  shaderc_compile_options_set_optimization_level(options_, shaderc_optimization_level_performance);
  shaderc_compile_options_set_generate_debug_info(options_);
  EXPECT_EQ(Spv(kFragment, shaderc_glsl_fragment_shader).bytes,
            RunDebianGlslc(kFragment, "f.frag", "-c -DSCALE=2.0 --target-env=opengl -O -g").output);
}

TEST_F(Libshaderc, MessagesAndCountsAreGlslcs) {
  const char* broken = "#version 450\nvoid main() { x; y; }\n";
  Result result = Spv(broken, shaderc_glsl_fragment_shader, "b.frag");
  GlslcRun glslc = RunDebianGlslc(broken, "b.frag", "-c");
  EXPECT_EQ(result.status, shaderc_compilation_status_compilation_error);
  EXPECT_EQ(result.errors, 2u);
  EXPECT_EQ(result.messages, WithoutSummary(glslc.err));
  EXPECT_NE(glslc.err.find("2 errors generated."), std::string::npos) << glslc.err;

  Result warned = Spv(kWarning, shaderc_glsl_fragment_shader);
  glslc = RunDebianGlslc(kWarning, "f.frag", "-c");
  EXPECT_EQ(warned.status, shaderc_compilation_status_success) << warned.messages;
  EXPECT_EQ(warned.warnings, 1u);
  EXPECT_EQ(warned.messages, WithoutSummary(glslc.err));
  shaderc_compile_options_set_warnings_as_errors(options_);
  Result failed = Spv(kWarning, shaderc_glsl_fragment_shader);
  EXPECT_EQ(failed.status, shaderc_compilation_status_compilation_error);
  EXPECT_EQ(failed.messages, WithoutSummary(RunDebianGlslc(kWarning, "f.frag", "-c -Werror").err));
}

// A pragma decides a "default" kind; infer-from-source without one is a stage error.
TEST_F(Libshaderc, StagesFromKindsAndPragmas) {
  const char* pragma = "#version 450\n#pragma shader_stage(compute)\nvoid main() {}\n";
  Result chosen = Spv(pragma, shaderc_glsl_default_vertex_shader, "p.glsl");
  EXPECT_EQ(chosen.status, shaderc_compilation_status_success) << chosen.messages;
  EXPECT_EQ(chosen.bytes, RunDebianGlslc(pragma, "p.glsl", "-c").output);
  const char* plain = "#version 450\nvoid main() {}\n";
  EXPECT_EQ(Spv(plain, shaderc_glsl_default_compute_shader, "p.glsl").bytes,
            RunDebianGlslc(plain, "p.glsl", "-c -fshader-stage=compute").output);
  Result none = Spv(plain, shaderc_glsl_infer_from_source, "n.glsl");
  EXPECT_EQ(none.status, shaderc_compilation_status_invalid_stage);
  EXPECT_NE(none.messages.find("no shader stage"), std::string::npos) << none.messages;
}

struct IncludeLog {
  std::vector<std::string> requests;
  std::vector<std::string> contents;
};

shaderc_include_result* Resolve(void* user_data, const char* requested, int type,
                                const char* requesting, size_t depth) {
  auto* log = static_cast<IncludeLog*>(user_data);
  log->requests.push_back(std::string(requested) + (type == shaderc_include_type_relative ? " relative " : " standard ") +
                          requesting + " " + std::to_string(depth));
  auto* result = new shaderc_include_result{};
  std::string name = requested;
  log->contents.push_back(name == "a.glsl" ? "const float A = 1.0;\n" : "const float B = 2.0;\n");
  auto* stored = new std::string(name);
  result->source_name = stored->c_str();
  result->source_name_length = stored->size();
  result->content = log->contents.back().c_str();
  result->content_length = log->contents.back().size();
  result->user_data = stored;
  return result;
}

void Release(void*, shaderc_include_result* result) {
  delete static_cast<std::string*>(result->user_data);
  delete result;
}

TEST_F(Libshaderc, IncludesGoToTheCallbacks) {
  IncludeLog log;
  log.contents.reserve(8);
  shaderc_compile_options_set_include_callbacks(options_, Resolve, Release, &log);
  Result result = Spv(kIncluding, shaderc_glsl_fragment_shader, "i.frag");
  ASSERT_EQ(result.status, shaderc_compilation_status_success) << result.messages;
  EXPECT_EQ(log.requests,
            (std::vector<std::string>{"a.glsl relative i.frag 1", "b.glsl standard i.frag 1"}));
  EXPECT_EQ(result.bytes, RunDebianGlslc(kIncluding, "i.frag", "-c -I.").output);
  // Without callbacks an include fails as libshaderc's does.
  shaderc_compile_options_set_include_callbacks(options_, nullptr, nullptr, nullptr);
  Result failed = Spv(kIncluding, shaderc_glsl_fragment_shader, "i.frag");
  EXPECT_EQ(failed.status, shaderc_compilation_status_compilation_error);
  EXPECT_NE(failed.messages.find("i.frag:3: error: '#include' : #error unexpected include "
                                 "directive for header name: a.glsl"),
            std::string::npos)
      << failed.messages;
}

// With Glint's passes (the default): a constant table becomes one Private variable and
// the module validates in every environment; robust access through Glint's option.
TEST(LibshadercGlint, PassesRunAndModulesValidate) {
  shaderc_compiler_t compiler = shaderc_compiler_initialize();
  const std::pair<shaderc_target_env, std::pair<uint32_t, TargetEnv>> kEnvs[] = {
      {shaderc_target_env_vulkan, {shaderc_env_version_vulkan_1_0, TargetEnv::kVulkan10}},
      {shaderc_target_env_vulkan, {shaderc_env_version_vulkan_1_1, TargetEnv::kVulkan11}},
      {shaderc_target_env_vulkan, {shaderc_env_version_vulkan_1_2, TargetEnv::kVulkan12}},
      {shaderc_target_env_vulkan, {shaderc_env_version_vulkan_1_3, TargetEnv::kVulkan13}},
      {shaderc_target_env_opengl, {shaderc_env_version_opengl_4_5, TargetEnv::kOpenGL45}}};
  for (const auto& [target, version] : kEnvs) {
    for (bool robust : {false, true}) {
      shaderc_compile_options_t options = shaderc_compile_options_initialize();
      shaderc_compile_options_set_target_env(options, target, version.first);
      glint_shaderc_compile_options_set_robust_access(options, robust);
      shaderc_compilation_result_t result = shaderc_compile_into_spv(
          compiler, kTable, strlen(kTable), shaderc_glsl_fragment_shader, "t.frag", "main", options);
      ASSERT_EQ(shaderc_result_get_compilation_status(result), shaderc_compilation_status_success)
          << shaderc_result_get_error_message(result);
      std::vector<uint32_t> words(shaderc_result_get_length(result) / 4);
      memcpy(words.data(), shaderc_result_get_bytes(result), words.size() * 4);
      EXPECT_EQ(test::ValidateFor(words, version.second), "");
      EXPECT_NE(test::Disassemble(words).find("Private"), std::string::npos);
      shaderc_result_release(result);
      shaderc_compile_options_release(options);
    }
  }
  shaderc_compiler_release(compiler);
}

// Uniformity findings are warnings in the result (counted), errors with
// glint_shaderc_uniformity_error or set_warnings_as_errors, and absent when off; the C++
// class says the same through SetUniformity. Range analysis off clamps what full proves.
TEST(LibshadercGlint, UniformityAndRangeAnalysisSettings) {
  const char* barrier = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
shared uint tile[64];
void main() {
  if (gl_LocalInvocationID.x >= data[0]) return;
  tile[gl_LocalInvocationID.x] = 1u;
  barrier();
  data[gl_LocalInvocationID.x] = tile[0];
}
)";
  shaderc_compiler_t compiler = shaderc_compiler_initialize();
  auto compile = [&](shaderc_compile_options_t options) {
    shaderc_compilation_result_t result = shaderc_compile_into_spv(
        compiler, barrier, strlen(barrier), shaderc_glsl_compute_shader, "k.comp", "main", options);
    auto taken = std::make_tuple(shaderc_result_get_compilation_status(result),
                                 shaderc_result_get_num_warnings(result),
                                 shaderc_result_get_num_errors(result),
                                 std::string(shaderc_result_get_error_message(result)));
    shaderc_result_release(result);
    return taken;
  };
  shaderc_compile_options_t options = shaderc_compile_options_initialize();
  auto [status, warnings, errors, messages] = compile(options);
  EXPECT_EQ(status, shaderc_compilation_status_success);
  EXPECT_EQ(warnings, 1u);
  EXPECT_EQ(messages.rfind("k.comp:8: warning: barrier (OpControlBarrier, workgroup scope) in "
                           "non-uniform control flow",
                           0),
            0u)
      << messages;
  glint_shaderc_compile_options_set_uniformity(options, glint_shaderc_uniformity_error);
  std::tie(status, warnings, errors, messages) = compile(options);
  EXPECT_EQ(status, shaderc_compilation_status_compilation_error);
  EXPECT_EQ(errors, 1u);
  glint_shaderc_compile_options_set_uniformity(options, glint_shaderc_uniformity_off);
  std::tie(status, warnings, errors, messages) = compile(options);
  EXPECT_EQ(status, shaderc_compilation_status_success);
  EXPECT_EQ(warnings, 0u);
  EXPECT_EQ(messages, "");
  shaderc_compile_options_release(options);

  // The data[gl_LocalInvocationID.x] index: proven in bounds of nothing (a runtime array),
  // so robust access clamps it either way; tile[gl_LocalInvocationID.x] is proven by full
  // range analysis and clamped with it off.
  auto clamps = [&](glint_shaderc_range_analysis mode) {
    shaderc::CompileOptions cpp;
    cpp.SetUniformity(glint_shaderc_uniformity_off);
    cpp.SetRobustAccess(true);
    cpp.SetRangeAnalysis(mode);
    shaderc::Compiler cpp_compiler;
    shaderc::SpvCompilationResult result =
        cpp_compiler.CompileGlslToSpv(barrier, shaderc_glsl_compute_shader, "k.comp", cpp);
    std::vector<uint32_t> words(result.cbegin(), result.cend());
    std::string text = test::Disassemble(words);
    size_t count = 0;
    for (size_t at = 0; (at = text.find("UMin", at)) != std::string::npos; ++at) ++count;
    return count;
  };
  EXPECT_LT(clamps(glint_shaderc_range_analysis_full), clamps(glint_shaderc_range_analysis_off));
  shaderc_compiler_release(compiler);
}

// One compiler, one options object, four threads compiling at once: each gets what one
// thread alone gets.
TEST(LibshadercThreads, ConcurrentCompilesMatchOneThread) {
  shaderc_compiler_t compiler = shaderc_compiler_initialize();
  shaderc_compile_options_t options = shaderc_compile_options_initialize();
  auto compile = [&] {
    shaderc_compilation_result_t result = shaderc_compile_into_spv(
        compiler, kTable, strlen(kTable), shaderc_glsl_fragment_shader, "t.frag", "main", options);
    std::string bytes(shaderc_result_get_bytes(result), shaderc_result_get_length(result));
    shaderc_result_release(result);
    return bytes;
  };
  std::string alone = compile();
  ASSERT_FALSE(alone.empty());
  std::vector<std::string> outputs(4);
  std::vector<std::thread> threads;
  for (std::string& output : outputs)
    threads.emplace_back([&output, &compile] {
      for (int i = 0; i < 3; ++i) output = compile();
    });
  for (std::thread& thread : threads) thread.join();
  for (const std::string& output : outputs) EXPECT_EQ(output, alone);
  shaderc_compile_options_release(options);
  shaderc_compiler_release(compiler);
}

// What a probe program prints (it must exit 0).
std::string RunProbe(const std::string& name) {
  std::string probe = test::BinaryDir() + "/gtests/" + name;
  char pattern[] = "/tmp/glint-libshaderc-probe-XXXXXX";
  std::string dir = mkdtemp(pattern);
  int status = std::system(("'" + probe + "' >'" + dir + "/out' 2>&1").c_str());
  std::string out = test::ReadFile(dir + "/out");
  fs::remove_all(dir);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << name << "\n" << out;
  return out;
}

// The C program built against Debian's header and linked with Glint's libshaderc.so.1;
// built against Glint's own header (strict C99) it prints the same.
TEST(LibshadercAbi, ProgramBuiltAgainstDebiansHeaderRuns) {
  std::string out = RunProbe("libshaderc_probe_debian_header");
  EXPECT_EQ(RunProbe("libshaderc_probe_glint_header"), out);
  for (const char* line :
       {"spv: status 0, 0 warnings, 0 errors, ", "assembly: status 0, 0 warnings, 0 errors, ",
        "preprocessed: status 0, ", "broken: status 2, 0 warnings, 1 errors, 0 bytes",
        "b.frag:2: error: 'x' : undeclared identifier\n", "pragma: status 0, ",
        "no stage: status 1, ", "assemble: status 0, 0 warnings, 0 errors, 40 bytes",
        "optimized: status 0, ", "parse 310es: 1 310 3\n"})
    EXPECT_NE(out.find(line), std::string::npos) << line << "\n" << out;
}

#ifdef GLINT_PROBE_BUILT_FOR_DEBIAN
// The same C program built against Debian's libshaderc.so.1 (with the link flags
// Debian's package needs) runs with Glint's library put in its place.
TEST(LibshadercAbi, BinaryBuiltForDebiansLibraryRunsWithGlints) {
  char pattern[] = "/tmp/glint-libshaderc-probe-XXXXXX";
  std::string dir = mkdtemp(pattern);
  std::string probe = test::BinaryDir() + "/gtests/libshaderc_probe_built_for_debian";
  std::string libraries = test::BinaryDir() + "/libshaderc";
  int status = std::system(("LD_LIBRARY_PATH='" + libraries + "' '" + probe + "' >'" + dir +
                            "/out' 2>&1")
                               .c_str());
  std::string out = test::ReadFile(dir + "/out");
  fs::remove_all(dir);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  EXPECT_NE(out.find("spv: status 0, 0 warnings, 0 errors, "), std::string::npos) << out;
  EXPECT_NE(out.find("b.frag:2: error: 'x' : undeclared identifier\n"), std::string::npos) << out;
  EXPECT_NE(out.find("parse 310es: 1 310 3\n"), std::string::npos) << out;
}
#endif

// C++ code written for shaderc.hpp builds against Glint's header as against Debian's,
// and the two programs (both on Glint's library) print the same.
TEST(LibshadercAbi, CppProgramBuildsAgainstBothHeadersAlike) {
  std::string debian = RunProbe("libshaderc_probe_cpp_debian_header");
  std::string glint = RunProbe("libshaderc_probe_cpp_glint_header");
  EXPECT_EQ(glint, debian);
  for (const char* line : {"include common.glsl (relative) from shader.frag at depth 1\n",
                           "spv status 0, ", "version 00010500\n", "#line 1 \"common.glsl\"\n",
                           "void main(){ color = vec4(kScale * 2.0);}\n",
                           "broken status 2, 1 errors: b.vert:2: error: 'x' : undeclared identifier\n",
                           "assembled status 0, 10 words\n"})
    EXPECT_NE(glint.find(line), std::string::npos) << line << "\n" << glint;
}

}  // namespace
}  // namespace glint
