// Glint's glslc (glslc/): side by side with Debian's glslc 2023.2 and with -fno-glint,
// every case must give the same exit code, standard output, standard error and files,
// byte for byte; without it, Glint's passes run (constant tables, robust access,
// uniformity warnings in glslc's message form, counted like glslc's own warnings), and
// every output validates with spirv-val for its target environment. shaderc's own test
// suite runs beside this one (ctest glslc_shaderc_suite, glslc/run_shaderc_suite.py).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace glint {
namespace {

namespace fs = std::filesystem;

const char* const kRealGlslc = "/usr/bin/glslc";
std::string OurGlslc() { return test::BinaryDir() + "/glslc/glslc"; }

const char* const kCompute = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_GlobalInvocationID.x] += 1u; }
)";
const char* const kFragment = R"(#version 450
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0); }
)";
// A constant table read at a run-time index: Glint's hoisting rewrites it.
const char* const kTable = R"(#version 450
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
const float table[4] = float[](1.0, 2.0, 3.0, 4.0);
void main() { color = vec4(table[index & 3]); }
)";
// A barrier after an early return some invocations take: Glint's uniformity warning.
const char* const kDivergentBarrier = R"(#version 450
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
const char* const kErrors = R"(#version 450
layout(location = 0) out vec4 color;
void main() { color = x; y; }
)";
const char* const kWarning = R"(#version 130
attribute vec4 p;
void main() { gl_Position = p; }
)";
const char* const kPragma = R"(#version 450
#pragma shader_stage(fragment)
layout(location = 0) out vec4 color;
void main() { color = vec4(0.5); }
)";
const char* const kIncluding = R"(#version 450
#extension GL_GOOGLE_include_directive : require
#include "sub/a.glsl"
#include <b.glsl>
layout(location = 0) out vec4 color;
void main() { color = vec4(A + B); }
)";

struct ToolResult {
  int exit_code = -1;
  std::string out, err;
  std::map<std::string, std::string> files;  // what the run left, by relative path
  bool operator==(const ToolResult& other) const {
    return exit_code == other.exit_code && out == other.out && err == other.err &&
           files == other.files;
  }
};

std::ostream& operator<<(std::ostream& stream, const ToolResult& result) {
  stream << "exit " << result.exit_code << "\n--- stdout\n"
         << result.out.substr(0, 2000) << "\n--- stderr\n"
         << result.err.substr(0, 2000) << "\n--- files:";
  for (const auto& [name, content] : result.files) stream << " " << name << " (" << content.size() << ")";
  return stream;
}

// A scratch directory with the inputs; each run gets a fresh copy of them.
class Scratch {
 public:
  Scratch() {
    char pattern[] = "/tmp/glint-glslc-XXXXXX";
    root_ = mkdtemp(pattern);
    fs::create_directories(root_ + "/inputs/sub");
    fs::create_directories(root_ + "/inputs/inc");
    Write("c.comp", kCompute);
    Write("f.frag", kFragment);
    Write("table.frag", kTable);
    Write("barrier.comp", kDivergentBarrier);
    Write("errors.frag", kErrors);
    Write("old.vert", kWarning);
    Write("p.glsl", kPragma);
    Write("plain.glsl", kFragment);
    Write("i.frag", kIncluding);
    Write("sub/a.glsl", "const float A = 1.0;\n");
    Write("inc/b.glsl", "const float B = 2.0;\n");
  }
  ~Scratch() { fs::remove_all(root_); }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(root_ + "/inputs/" + name, std::ios::binary) << text;
  }
  ToolResult Run(const std::string& tool, const std::string& args, const std::string& tag) const {
    std::string dir = root_ + "/" + tag;
    fs::remove_all(dir);
    fs::copy(root_ + "/inputs", dir, fs::copy_options::recursive);
    std::string command = "cd '" + dir + "' && '" + tool + "' " + args + " >../" + tag +
                          ".out 2>../" + tag + ".err <f.frag";
    int status = std::system(command.c_str());
    ToolResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = test::ReadFile(root_ + "/" + tag + ".out");
    result.err = test::ReadFile(root_ + "/" + tag + ".err");
    for (const auto& entry : fs::recursive_directory_iterator(dir))
      if (entry.is_regular_file()) {
        std::string name = fs::relative(entry.path(), dir).string();
        if (!fs::exists(root_ + "/inputs/" + name))
          result.files[name] = test::ReadFile(entry.path().string());
      }
    return result;
  }
  std::string Path(const std::string& relative) const { return root_ + "/" + relative; }

 private:
  std::string root_;
};

// ---------------------------------------------------------------------------------
// With -fno-glint: what Debian's glslc gives, byte for byte.

// One scratch directory per suite (Base: ::testing::Test or TestWithParam).
template <class Base>
class WithScratch : public Base {
 protected:
  static inline Scratch* scratch_ = nullptr;
  static void SetUpTestSuite() { scratch_ = new Scratch; }
  static void TearDownTestSuite() {
    delete scratch_;
    scratch_ = nullptr;
  }
};

class SameAsGlslc : public WithScratch<::testing::TestWithParam<const char*>> {};

TEST_P(SameAsGlslc, ExitOutputsAndFiles) {
  std::string args = GetParam();
  ToolResult real = scratch_->Run(kRealGlslc, args, "real");
  ToolResult ours = scratch_->Run(OurGlslc(), "-fno-glint " + args, "ours");
  EXPECT_EQ(ours, real) << "glslc " << args;
}

INSTANTIATE_TEST_SUITE_P(
    Glslc, SameAsGlslc,
    ::testing::Values(
        // outputs, names and formats
        "c.comp", "-c c.comp f.frag", "-S c.comp", "-c -S f.frag", "-E c.comp", "-E -S f.frag",
        "-c c.comp -o out.spv", "-c -o - c.comp", "-mfmt=num -c c.comp", "-mfmt=c -c f.frag",
        "-mfmt=bin -c f.frag", "-c p.glsl", "-c -fshader-stage=frag plain.glsl",
        "-c -fshader-stage=vert -", "-c -fshader-stage=frag -o out.spv -", "-S -O c.comp",
        "-c -Os f.frag", "-c -O0 f.frag", "-c -g f.frag", "-S -g -O f.frag",
        // target environments and versions
        "-c --target-env=vulkan1.1 c.comp", "-c --target-env=vulkan1.2 c.comp",
        "-c --target-env=vulkan1.3 c.comp", "-c --target-env=opengl f.frag",
        "-c --target-env=opengl4.5 f.frag", "-c --target-env=vulkan1.0 --target-spv=spv1.3 c.comp",
        "-c -std=450core f.frag", "-c -std=310es f.frag",
        // macros, includes, dependencies
        "-c -DX=1 -DY -DZ=2 f.frag", "-E -DFOO=bar -DBAZ c.comp", "-c -Iinc i.frag",
        "-E -Iinc i.frag", "-M -Iinc i.frag", "-MD -c -Iinc i.frag", "-MD -S -Iinc i.frag",
        "-c -MD -MF deps -MT target -Iinc i.frag", "-M c.comp f.frag",
        // messages
        "-c errors.frag", "-c old.vert", "-c -w old.vert", "-c -Werror old.vert",
        "-c errors.frag f.frag old.vert", "-c plain.glsl", "-c nothere.vert",
        "-c -fshader-stage=vert -fauto-bind-uniforms -fubo-binding-base 3 f.frag",
        "-c -fauto-map-locations -fnan-clamp -finvert-y f.frag",
        "-flimit=MaxDrawBuffers 4 -c f.frag", "--show-limits", "--version", "--help",
        // argument errors
        "", "c.comp f.frag", "-c c.comp f.frag -o x", "-o", "-fshader-stage=pixel c.comp",
        "-std=451 f.frag", "--target-env=vulkan9 f.frag", "--target-spv=spv2.0 f.frag",
        "-mfmt=hex -c f.frag", "-S -mfmt=num f.frag", "-x", "-x cobol f.frag", "-M -MD f.frag",
        "-MF", "-MT", "-MF x -c f.frag", "-O3 f.frag", "--frobnicate", "-frobnicate", "- -",
        "-DGL_X=1 f.frag", "-D__X=1 -c f.frag", "-flimit=MaxFoo 3 f.frag",
        "-flimit=MaxLights x f.frag", "-fubo-binding-base", "-fubo-binding-base vert",
        "-fubo-binding-base -1 f.frag", "-fresource-set-binding"),
    [](const ::testing::TestParamInfo<const char*>& info) {
      return std::to_string(info.index) + "_" + test::ParamName(info.param);
    });

// ---------------------------------------------------------------------------------
// Glint's passes (without -fno-glint).

class GlslcGlint : public WithScratch<::testing::Test> {
 protected:
  static std::vector<uint32_t> Words(const std::string& bytes) {
    std::vector<uint32_t> words(bytes.size() / 4);
    if (!words.empty()) memcpy(words.data(), bytes.data(), words.size() * 4);
    return words;
  }
};

// Where Glint changes nothing, the output is glslc's.
TEST_F(GlslcGlint, UnchangedModulesAreGlslcs) {
  for (const char* args : {"-c c.comp", "-c -O f.frag", "-S f.frag", "-c --target-env=vulkan1.3 c.comp"}) {
    ToolResult real = scratch_->Run(kRealGlslc, args, "real");
    ToolResult ours = scratch_->Run(OurGlslc(), args, "ours");
    EXPECT_EQ(ours, real) << args;
  }
}

// A constant table read at a run-time index becomes one Private variable, and the
// module validates in every target environment glslc offers.
TEST_F(GlslcGlint, HoistsConstantTablesAndValidatesInEveryEnvironment) {
  const std::pair<const char*, TargetEnv> kEnvs[] = {
      {"vulkan1.0", TargetEnv::kVulkan10}, {"vulkan1.1", TargetEnv::kVulkan11},
      {"vulkan1.2", TargetEnv::kVulkan12}, {"vulkan1.3", TargetEnv::kVulkan13},
      {"opengl", TargetEnv::kOpenGL45}};
  for (const auto& [env, target] : kEnvs) {
    SCOPED_TRACE(env);
    ToolResult plain = scratch_->Run(OurGlslc(), std::string("-fno-glint -c -o t.spv --target-env=") + env + " table.frag", "plain");
    ToolResult glint = scratch_->Run(OurGlslc(), std::string("-c -o t.spv --target-env=") + env + " table.frag", "glint");
    ASSERT_EQ(glint.exit_code, 0) << glint;
    std::vector<uint32_t> words = Words(glint.files["t.spv"]);
    ASSERT_GT(words.size(), 5u);
    EXPECT_EQ(words[2] >> 16, 13u) << "shaderc's generator word";
    EXPECT_EQ(test::ValidateFor(words, target), "");
    std::string text = test::Disassemble(words);
    EXPECT_NE(text.find("Private"), std::string::npos) << text;
    EXPECT_EQ(test::Disassemble(Words(plain.files["t.spv"])).find("Private"), std::string::npos);
  }
}

TEST_F(GlslcGlint, RobustAccessClampsAndValidates) {
  ToolResult robust = scratch_->Run(OurGlslc(), "-c -frobust-access -o r.spv c.comp", "robust");
  ASSERT_EQ(robust.exit_code, 0) << robust;
  std::vector<uint32_t> words = Words(robust.files["r.spv"]);
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "");
  EXPECT_NE(test::Disassemble(words).find("OpArrayLength"), std::string::npos);
}

// Uniformity warnings in glslc's form, counted in the summary; -w drops them, -Werror
// and -funiformity=error fail the compile, -funiformity=off and -fno-glint say nothing.
TEST_F(GlslcGlint, UniformityWarningsAreGlslcWarnings) {
  ToolResult warned = scratch_->Run(OurGlslc(), "-c barrier.comp", "warned");
  EXPECT_EQ(warned.exit_code, 0) << warned;
  EXPECT_EQ(warned.err.rfind("barrier.comp:8: warning: barrier (OpControlBarrier, workgroup "
                             "scope) in non-uniform control flow",
                             0),
            0u)
      << warned;
  EXPECT_NE(warned.err.find("\n    only some invocations take the branch at barrier.comp:6"),
            std::string::npos)
      << warned;
  EXPECT_NE(warned.err.find("\n1 warning generated.\n"), std::string::npos) << warned;
  EXPECT_EQ(warned.files.count("barrier.comp.spv"), 1u);

  ToolResult quiet = scratch_->Run(OurGlslc(), "-c -w barrier.comp", "quiet");
  EXPECT_EQ(quiet.exit_code, 0);
  EXPECT_EQ(quiet.err, "");
  for (const char* failing : {"-c -Werror barrier.comp", "-c -funiformity=error barrier.comp"}) {
    ToolResult failed = scratch_->Run(OurGlslc(), failing, "failed");
    EXPECT_EQ(failed.exit_code, 1) << failing;
    EXPECT_NE(failed.err.find("barrier.comp:8: error: barrier"), std::string::npos) << failed;
    EXPECT_NE(failed.err.find("1 error generated.\n"), std::string::npos) << failed;
    EXPECT_EQ(failed.files.count("barrier.comp.spv"), 0u) << "no output after an error";
  }
  for (const char* silent : {"-c -funiformity=off barrier.comp", "-c -fno-glint barrier.comp"}) {
    ToolResult result = scratch_->Run(OurGlslc(), silent, "silent");
    EXPECT_EQ(result.exit_code, 0) << silent;
    EXPECT_EQ(result.err, "") << silent;
  }
}

TEST_F(GlslcGlint, GlintOptionsAreListedAndChecked) {
  ToolResult help = scratch_->Run(OurGlslc(), "--help-glint", "help");
  EXPECT_EQ(help.exit_code, 0);
  for (const char* option : {"-fno-glint", "-frobust-access", "-frange-analysis=", "-funiformity=",
                             "-fno-constant-tables"})
    EXPECT_NE(help.out.find(option), std::string::npos) << option;
  ToolResult bad = scratch_->Run(OurGlslc(), "-funiformity=loud f.frag", "bad");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err, "glslc: error: invalid value 'loud' in '-funiformity=loud'\n");
}

}  // namespace
}  // namespace glint
