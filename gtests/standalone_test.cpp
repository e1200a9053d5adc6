// Tests of the glslangValidator command line: flag parsing in-process, and the built
// tool side by side with Debian's /usr/bin/glslangValidator 12.0.0 (same stdout, stderr,
// exit code and output files for the same flags), --no-glint identity, .spv inputs,
// bad input (one-line error, non-zero exit, no output file left behind), and output
// targets (devices, FIFOs, symlinks, modes, a full device and a full file system).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include <glslang/SPIRV/GlslangToSpv.h>

#include "SPIRV/validate.h"
#include "child_compiles.h"
#include "command_line.h"
#include "glslang/front_end/front_end.h"
#include "spirv_file_format.h"
#include "support/test_support.h"

namespace glint::standalone {
namespace {

namespace fs = std::filesystem;

// fragment shader without constant tables (Glint changes nothing)
const char* kPlainFrag = R"(#version 440
layout(location = 0) in vec4 color_in;
layout(location = 0) out vec4 color;
void main() { color = color_in * 2.0; }
)";

const char* kPlainVert = R"(#version 440
layout(location = 0) in vec4 position;
void main() { gl_Position = position; }
)";

// HLSL whose result depends on -D macros
const char* kHlsl = R"(cbuffer Params : register(b0) { float4 tint; };
float4 main(float2 uv : TEXCOORD0) : SV_Target { return tint * SCALE; }
)";

// a constant table read at a run-time index: the hoisting pass rewrites it
const char* kTableFrag = R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
const float table[4] = float[](1.0, 2.0, 3.0, 4.0);
void main() { color = vec4(table[index & 3]); }
)";

struct ToolResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string OurTool() { return test::BinaryDir() + "/StandAlone/glslangValidator"; }
const char* kRealTool = "/usr/bin/glslangValidator";

// A scratch directory holding the test shaders; each tool runs in a fresh copy of it.
class Scratch {
 public:
  Scratch() {
    char pattern[] = "/tmp/glint-standalone-XXXXXX";
    root_ = mkdtemp(pattern);
    fs::create_directories(Inputs());
    Write("plain.frag", kPlainFrag);
    Write("plain.vert", kPlainVert);
    Write("shader.hlsl", kHlsl);
    Write("table.frag", kTableFrag);
    Write("junk.spv", "not SPIR-V at all");
  }
  ~Scratch() { fs::remove_all(root_); }
  std::string Inputs() const { return root_ + "/inputs"; }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(Inputs() + "/" + name, std::ios::binary) << text;
  }
  // Copies the inputs to <root>/<tag> and runs `tool args` there (after `launcher`, a
  // shell prefix such as "umask 027 && ").
  ToolResult Run(const std::string& tool, const std::string& args, const std::string& tag,
                 const std::string& launcher = "") const {
    std::string dir = root_ + "/" + tag;
    fs::remove_all(dir);
    fs::copy(Inputs(), dir, fs::copy_options::recursive);
    // Without a redirection of its own, stdin is empty (glslang 12 reads an empty
    // --stdin shader nondeterministically, so tests give it a file).
    std::string input = args.find('<') == std::string::npos ? " </dev/null" : "";
    std::string command = "cd '" + dir + "' && " + launcher + "'" + tool + "' " + args +
                          " >.stdout 2>.stderr" + input;
    ToolResult result;
    int status = std::system(command.c_str());
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = test::ReadFile(dir + "/.stdout");
    result.err = test::ReadFile(dir + "/.stderr");
    fs::remove(dir + "/.stdout");
    fs::remove(dir + "/.stderr");
    return result;
  }
  std::string Dir(const std::string& tag) const { return root_ + "/" + tag; }
  std::string Root() const { return root_; }

 private:
  std::string root_;
};

// The files a run left in its directory (name -> content).
std::map<std::string, std::string> FilesIn(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file())
      files[fs::relative(entry.path(), dir).string()] = test::ReadFile(entry.path().string());
  return files;
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  return text;
}

// ---------------------------------------------------------------------------------
// Side by side with glslang 12's glslangValidator.

class SameAsGlslang : public ::testing::TestWithParam<const char*> {
 protected:
  static Scratch* scratch_;
  static void SetUpTestSuite() { scratch_ = new Scratch; }
  static void TearDownTestSuite() { delete scratch_; }
};
Scratch* SameAsGlslang::scratch_ = nullptr;

// Both tools on `args` in copies of `scratch`'s inputs: same exit code, stdout, stderr
// (the tool's path aside) and files.
void ExpectSameAsGlslang(const Scratch& scratch, const std::string& args) {
  ToolResult real = scratch.Run(kRealTool, args, "real");
  ToolResult ours = scratch.Run(OurTool(), args, "ours");
  EXPECT_EQ(ours.exit_code, real.exit_code) << args;
  EXPECT_EQ(ours.out, real.out) << args;
  EXPECT_EQ(Replace(ours.err, OurTool(), kRealTool), real.err) << args;
  EXPECT_EQ(FilesIn(scratch.Dir("ours")), FilesIn(scratch.Dir("real"))) << args;
}

TEST_P(SameAsGlslang, OutputErrorsExitCodeAndFiles) { ExpectSameAsGlslang(*scratch_, GetParam()); }

INSTANTIATE_TEST_SUITE_P(
    Flags, SameAsGlslang,
    ::testing::Values(
        // SPIR-V generation, output names and formats (--no-glint is not needed: Glint
        // changes nothing in these shaders, so the output must be glslang's anyway).
        "-V plain.frag", "-V plain.vert plain.frag", "-G plain.frag", "-H plain.frag",
        "-V -o out.spv plain.frag", "-V -x -o out.txt plain.frag",
        "-V --vn shader_words -o out.h plain.frag", "-V --spirv-dis plain.frag",
        "-V --spirv-val plain.frag", "--target-env vulkan1.1 plain.frag",
        "-V --target-env vulkan1.1 --target-env spirv1.4 plain.frag",
        "--target-env vulkan1.2 -H plain.frag", "--target-env vulkan1.3 plain.frag",
        "--target-env opengl plain.frag", "--client vulkan100 plain.frag",
        "-G --target-env spirv1.3 plain.frag", "-V -g plain.frag", "-V -g0 plain.frag",
        "-V -gV plain.frag", "-V -gVS plain.frag", "-V -Od plain.frag", "-V -Os plain.frag",
        "-V -e main plain.frag", "-V --sep foo plain.frag", "-V -DSCALE=2 -UFOO -H plain.frag",
        "-V --depfile deps.d plain.frag", "-V --glsl-version 460 plain.frag", "-V --iy plain.vert",
        "-G --nan-clamp --amb --aml -H plain.frag", "-V --enhanced-msgs plain.frag",
        "-V --quiet plain.frag", "-V -w plain.frag", "-V -d plain.frag", "-V -R plain.frag",
        "-V -t plain.frag", "-V -S frag plain.frag", "-V --stdin -S frag <plain.frag",
        "-H --stdin -S vert <plain.vert",
        // HLSL
        "-D -V -S frag -e main -DSCALE=2 shader.hlsl",
        "-D -V -S frag -e main -DSCALE=2 -Od -H shader.hlsl",
        "-D -V -S frag -e main -DSCALE=2 --shift-UBO-binding 4 --auto-sampled-textures -H "
        "shader.hlsl",
        "-D -V -S frag -e main -DSCALE=2 --rsb 3 --shift-ssbo-binding frag 1 2 -H shader.hlsl",
        "-D -E -S frag -DSCALE=2 shader.hlsl",
        // Without SPIR-V generation
        "plain.frag", "-l plain.frag plain.vert", "-E plain.frag", "-i plain.frag", "-c", "-v",
        "-dumpversion", "-l -q plain.frag",
        // Errors
        "-V missing.frag", "--bogus plain.frag", "-o", "-V -e", "--stdin", "-D plain.frag",
        "-V --target-env vulkan9 plain.frag", "-V -Ox plain.frag", "-q plain.frag",
        "-o out.spv plain.frag", "-E -V plain.frag", "--client foo plain.frag", "-S", "-I",
        "--depfile", "-D -G plain.frag", "--fua -V plain.frag", "-V200 plain.frag",
        "-Vx plain.frag", "--sep", "--vn", "-uname plain.frag", "-fx plain.frag",
        "--target-env spirv1.3 plain.frag", "--D", "-U plain.frag", "-DX plain.frag",
        "-g plain.frag", "--glsl-version 999 -V plain.frag"),
    // The index keeps names of argument lists that differ only in punctuation apart.
    [](const auto& info) {
      return std::to_string(info.index) + "_" + test::ParamName(info.param);
    });

// Shaders of real shape (includes, mesh stage, Vulkan 1.3; Test/command_line/) with the
// flags whose output shows glslang's work most fully: -g (OpString/OpLine with include
// file names), -H, --spirv-dis.
class RealShapeSameAsGlslang : public ::testing::TestWithParam<const char*> {};

TEST_P(RealShapeSameAsGlslang, NoGlintWithDebugInfoAndDisassembly) {
  Scratch scratch;
  const std::string inputs = test::SourceRoot() + "/Test/command_line/";
  // Glint's default (without --no-glint) must give the same bytes too: no tables here.
  for (std::string flags : {"-g -H", "--spirv-dis", "-g0"}) {
    std::string args = std::string(GetParam()) + " " + flags + " -o out.spv ";
    size_t space = args.find(' ');  // the first word is the file under Test/command_line
    args = args.substr(space + 1) + inputs + args.substr(0, space);
    ToolResult real = scratch.Run(kRealTool, args, "real");
    ToolResult ours = scratch.Run(OurTool(), (flags == "-g0" ? "" : "--no-glint ") + args, "ours");
    ASSERT_EQ(real.exit_code, 0) << args << real.out;
    EXPECT_EQ(ours.exit_code, 0) << args;
    EXPECT_EQ(ours.out, real.out) << args;
    EXPECT_EQ(FilesIn(scratch.Dir("ours")), FilesIn(scratch.Dir("real"))) << args;
  }
}

INSTANTIATE_TEST_SUITE_P(Shaders, RealShapeSameAsGlslang,
                         ::testing::Values("meshlets.mesh.glsl -V --target-env vulkan1.3 -S mesh",
                                           "shade.frag.glsl -V --target-env vulkan1.0 -S frag",
                                           "cull.comp.glsl -V --target-env vulkan1.0 -S comp",
                                           "overlay.vert -V --target-env vulkan1.1 -S vert"),
                         [](const auto& info) { return test::ParamName(info.param); });

// -s / --quiet with a shader Glint warns about (uniformity), .conf files that omit keys,
// and -gV / -gVS where glslang 12 records lines outside every function, in the default
// isolated compile.
const char* kNonUniformDerivativeFrag = R"(#version 440
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
  color = vec4(0.0);
  if (uv.x > 0.5) color.x = dFdx(uv.y);
}
)";
const char* kClipDistancesFrag = R"(#version 440
layout(location = 0) out vec4 color;
void main() { color = vec4(float(gl_MaxClipDistances), float(gl_MaxDrawBuffers), 0.0, 1.0); }
)";
// Its built-ins declare arrays of gl_MaxDrawBuffers and other limits: with a .conf that
// leaves them 0, glslang 12 cannot parse them and says so.
const char* kEs100Frag = "#version 100\nvoid main() { gl_FragColor = vec4(0.0); }\n";
const char* kGlobalInitializerVert = R"(#version 440
layout(location = 0) in vec2 position;
vec2 offset = position * 0.5;
void main() { gl_Position = vec4(position + offset, 0.0, 1.0); }
)";
const char* kSpecConstantAfterMainVert = R"(#version 440
layout(constant_id = 0) const int kScale = 2;
const int kDouble = kScale * 2;
void main() { gl_Position = vec4(float(kScale)); }
)";

class QuietConfAndDebugInfo : public ::testing::TestWithParam<const char*> {
 protected:
  static Scratch* scratch_;
  static void SetUpTestSuite() {
    scratch_ = new Scratch;
    scratch_->Write("nonuniform.frag", kNonUniformDerivativeFrag);
    scratch_->Write("clip.frag", kClipDistancesFrag);
    scratch_->Write("es100.frag", kEs100Frag);
    scratch_->Write("global.vert", kGlobalInitializerVert);
    scratch_->Write("spec.vert", kSpecConstantAfterMainVert);
    scratch_->Write("draw_buffers.conf", "MaxDrawBuffers 3\n");
    scratch_->Write("empty.conf", "");
  }
  static void TearDownTestSuite() { delete scratch_; }
};
Scratch* QuietConfAndDebugInfo::scratch_ = nullptr;

TEST_P(QuietConfAndDebugInfo, SameAsGlslang) { ExpectSameAsGlslang(*scratch_, GetParam()); }

INSTANTIATE_TEST_SUITE_P(
    Flags, QuietConfAndDebugInfo,
    ::testing::Values("-V -s nonuniform.frag", "-V --quiet nonuniform.frag",
                      "-V -s -H nonuniform.frag plain.frag",
                      "-V --quiet -o out.spv nonuniform.frag", "-V clip.frag draw_buffers.conf",
                      "-V -H clip.frag draw_buffers.conf", "-G -H clip.frag empty.conf",
                      "es100.frag empty.conf", "es100.frag draw_buffers.conf",
                      "-V es100.frag draw_buffers.conf", "es100.frag plain.frag empty.conf",
                      "es100.frag es100.frag empty.conf", "-l es100.frag empty.conf",
                      "-V -gV global.vert", "-V -gVS global.vert", "-V -gV spec.vert",
                      "-V -gVS -H spec.vert"),
    [](const auto& info) {
      return std::to_string(info.index) + "_" + test::ParamName(info.param);
    });

// Without -s Glint does warn about nonuniform.frag (so the cases above silence something),
// and a silenced warning still fails the compile under --uniformity=error.
TEST(QuietConfAndDebugInfo, SilencedWarningsStillCount) {
  Scratch scratch;
  scratch.Write("nonuniform.frag", kNonUniformDerivativeFrag);
  ToolResult warned = scratch.Run(OurTool(), "-V -o out.spv nonuniform.frag", "warned");
  EXPECT_EQ(warned.exit_code, 0);
  EXPECT_NE(warned.out.find("WARNING: nonuniform.frag:6: "), std::string::npos) << warned.out;
  for (const char* quiet : {"-s", "--quiet"}) {
    ToolResult failed = scratch.Run(
        OurTool(), std::string("-V ") + quiet + " --uniformity=error -o out.spv nonuniform.frag",
        "failed");
    EXPECT_EQ(failed.exit_code, 2) << quiet;
    EXPECT_FALSE(fs::exists(scratch.Dir("failed") + "/out.spv")) << quiet;
    // -s prints nothing of Glint's; --quiet keeps errors (glslang's errors too).
    if (std::string(quiet) == "-s")
      EXPECT_EQ(failed.out, "") << quiet;
    else
      EXPECT_EQ(failed.out.rfind("ERROR: nonuniform.frag:6: ", 0), 0u) << failed.out;
  }
}

// --uniformity-off silences the warning on its line (no -g: the line comes from the
// located report), keeps it in the SARIF report as suppressed, lets --uniformity=error
// pass, and writes the same bytes; a filter on the next line silences nothing.
TEST(UniformityFilterFlags, SilenceOneLineAndReportIt) {
  Scratch scratch;
  scratch.Write("nonuniform.frag", kNonUniformDerivativeFrag);
  ToolResult warned = scratch.Run(OurTool(), "-V -o out.spv nonuniform.frag", "warned");
  ASSERT_NE(warned.out.find("WARNING: nonuniform.frag:6: "), std::string::npos) << warned.out;
  ToolResult silenced = scratch.Run(
      OurTool(),
      "-V --uniformity=error \"--uniformity-off=nonuniform.frag:6=uv.x is the same per quad\" "
      "--report=sarif out.sarif -o out.spv nonuniform.frag",
      "silenced");
  EXPECT_EQ(silenced.exit_code, 0) << silenced.out;
  EXPECT_EQ(silenced.out.find("nonuniform.frag:6"), std::string::npos) << silenced.out;
  EXPECT_EQ(test::ReadFile(scratch.Dir("silenced") + "/out.spv"),
            test::ReadFile(scratch.Dir("warned") + "/out.spv"));
  EXPECT_TRUE(test::FileCheck(test::ReadFile(scratch.Dir("silenced") + "/out.sarif"),
                              "CHECK: \"startLine\": 6\n"
                              "CHECK: \"suppressions\": [{\"kind\": \"external\", \"status\": "
                              "\"accepted\", \"justification\": \"uv.x is the same per quad\", "
                              "\"properties\": {\"filter\": \"--uniformity-off=nonuniform.frag:6\"}}]"));
  ToolResult missed = scratch.Run(
      OurTool(), "-V --uniformity-off=nonuniform.frag:7 -o out.spv nonuniform.frag", "missed");
  EXPECT_NE(missed.out.find("WARNING: nonuniform.frag:6: "), std::string::npos) << missed.out;
}

// glslang 12 under -gVS writes the source text as one OpString; past 65,535 words its
// word count wraps and the module is not SPIR-V, which Debian's tool writes and exits 0.
// Glint writes the same bytes and warns once that its passes did not run; where an
// option needs the passes (robust access), it refuses and writes nothing.
TEST(QuietConfAndDebugInfo, SourceTextOverAnOpStringsLimit_WrittenAsGlslangWritesIt) {
  Scratch scratch;
  std::string text = "#version 440\nlayout(location = 0) in vec4 position;\n";
  const std::string comment = "// " + std::string(76, 'x') + "\n";
  while (text.size() < 300000) text += comment;  // 65,535 words are 262,140 bytes
  text += "void main() { gl_Position = position; }\n";
  scratch.Write("long.vert", text);
  const std::string args = "-V -gVS -o out.spv long.vert";
  ToolResult reference = scratch.Run(kRealTool, args, "reference");
  ToolResult ours = scratch.Run(OurTool(), args, "ours");
  ASSERT_EQ(reference.exit_code, 0) << reference.out;
  const std::string written = test::ReadFile(scratch.Dir("reference") + "/out.spv");
  std::vector<uint32_t> words(written.size() / 4);
  std::memcpy(words.data(), written.data(), words.size() * 4);
  ASSERT_FALSE(spirv::Validate(words, spirv::TargetEnv::kVulkan10).empty())
      << "Debian's module was expected to be invalid";
  EXPECT_EQ(ours.exit_code, 0) << ours.out;
  EXPECT_EQ(test::ReadFile(scratch.Dir("ours") + "/out.spv"),
            test::ReadFile(scratch.Dir("reference") + "/out.spv"));
  EXPECT_EQ(ours.err, reference.err);
  const std::string warning = "glslang wrote a module that is not valid SPIR-V";
  ASSERT_EQ(ours.out.rfind(reference.out, 0), 0u) << ours.out;
  std::string added = ours.out.substr(reference.out.size());
  EXPECT_NE(added.find(warning), std::string::npos) << added;
  EXPECT_EQ(std::count(added.begin(), added.end(), '\n'), 1) << added;

  ToolResult robust = scratch.Run(OurTool(), "--robust-access " + args, "robust");
  EXPECT_NE(robust.exit_code, 0);
  EXPECT_NE(robust.out.find("malformed SPIR-V from glslang"), std::string::npos) << robust.out;
  EXPECT_FALSE(fs::exists(scratch.Dir("robust") + "/out.spv"));
}

// Two stages linked with -gV, one of them with a global initializer: Debian's tool read
// its empty debug-scope stack here and died (SIGSEGV) when this test was written, so
// each stage is compared with Debian's compile of that file alone.
TEST(QuietConfAndDebugInfo, TwoStagesLinkedWithDebugInfo_EachStageAsDebianCompilesIt) {
  Scratch scratch;
  scratch.Write("global.vert", kGlobalInitializerVert);
  ToolResult ours = scratch.Run(OurTool(), "-V -gV global.vert plain.frag", "ours");
  ASSERT_EQ(ours.exit_code, 0) << ours.out << ours.err;
  for (const char* stage : {"vert", "frag"}) {
    const std::string file = stage == std::string("vert") ? "global.vert" : "plain.frag";
    ToolResult real = scratch.Run(kRealTool, "-V -gV " + file, stage);
    ASSERT_EQ(real.exit_code, 0) << real.out << real.err;
    const std::string name = std::string(stage) + ".spv";
    const std::string bytes = test::ReadFile(scratch.Dir("ours") + "/" + name);
    EXPECT_EQ(bytes, test::ReadFile(scratch.Dir(stage) + "/" + name)) << name;
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "") << name;
  }
}

// Where the usage text is printed and the exit code (its words: glslang_spellings_test).
TEST(Usage, PrintedOnStdoutWithExitCode1) {
  Scratch scratch;
  for (const char* args : {"", "-h", "--help", "-V", "-S frag", "--target-env",
                           "-V -S nope plain.frag", "-V plain.xyz", "--rsb frag 0 plain.frag"}) {
    ToolResult real = scratch.Run(kRealTool, args, "real");
    ToolResult ours = scratch.Run(OurTool(), args, "ours");
    EXPECT_EQ(ours.exit_code, 1) << args;
    EXPECT_EQ(real.exit_code, 1) << args;
    EXPECT_EQ(ours.out.rfind("Usage: glslangValidator [option]... [file]...", 0), 0u) << args;
    EXPECT_NE(ours.out.find("--no-glint"), std::string::npos);
    EXPECT_EQ(ours.err, "") << args;
  }
}

// ---------------------------------------------------------------------------------
// Glint's side.

TEST(NoGlint, TableShader_IsGlslangsOutputWhileDefaultIsRewrittenAndValid) {
  Scratch scratch;
  ToolResult real = scratch.Run(kRealTool, "-V -o out.spv table.frag", "real");
  ToolResult plain = scratch.Run(OurTool(), "-V --no-glint -o out.spv table.frag", "plain");
  ToolResult glint = scratch.Run(OurTool(), "-V -o out.spv table.frag", "glint");
  ASSERT_EQ(real.exit_code, 0);
  ASSERT_EQ(glint.exit_code, 0) << glint.out;
  std::string reference = test::ReadFile(scratch.Dir("real") + "/out.spv");
  EXPECT_EQ(test::ReadFile(scratch.Dir("plain") + "/out.spv"), reference);
  std::string rewritten = test::ReadFile(scratch.Dir("glint") + "/out.spv");
  EXPECT_NE(rewritten, reference) << "the hoisting pass should rewrite the table";
  std::vector<uint32_t> words(rewritten.size() / 4);
  std::memcpy(words.data(), rewritten.data(), words.size() * 4);
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "");
}

TEST(Report, AskingForOneNeverChangesTheOutput) {
  Scratch scratch;
  ToolResult quiet = scratch.Run(OurTool(), "-V -o out.spv table.frag", "quiet");
  ToolResult loud = scratch.Run(OurTool(), "-V --dump-ranges -o out.spv table.frag", "loud");
  ASSERT_EQ(quiet.exit_code, 0);
  ASSERT_EQ(loud.exit_code, 0) << loud.out;
  EXPECT_EQ(test::ReadFile(scratch.Dir("loud") + "/out.spv"),
            test::ReadFile(scratch.Dir("quiet") + "/out.spv"));
  // Without -g the report still names the source line (from lines kept outside the module).
  EXPECT_NE(loud.out.find("table.frag:5:"), std::string::npos) << loud.out;
}

// --passes runs just the named passes: uniformity alone leaves glslang's words, hoisting
// alone gives the default output, robust access runs without --robust-access.
TEST(Passes, RunsJustTheNamedPasses) {
  Scratch scratch;
  ToolResult real = scratch.Run(kRealTool, "-V -o out.spv table.frag", "real");
  ToolResult fallback = scratch.Run(OurTool(), "-V -o out.spv table.frag", "default");
  ToolResult check =
      scratch.Run(OurTool(), "-V --passes=uniformity -o out.spv table.frag", "check");
  ToolResult hoist =
      scratch.Run(OurTool(), "-V --passes=hoist-constant-tables -o out.spv table.frag", "hoist");
  ToolResult clamp = scratch.Run(
      OurTool(), "-V --passes=robust-access --dump-ranges -o out.spv table.frag", "clamp");
  for (const ToolResult* result : {&real, &fallback, &check, &hoist, &clamp})
    ASSERT_EQ(result->exit_code, 0) << result->out;
  std::string reference = test::ReadFile(scratch.Dir("real") + "/out.spv");
  EXPECT_EQ(test::ReadFile(scratch.Dir("check") + "/out.spv"), reference);
  EXPECT_EQ(test::ReadFile(scratch.Dir("hoist") + "/out.spv"),
            test::ReadFile(scratch.Dir("default") + "/out.spv"));
  EXPECT_NE(test::ReadFile(scratch.Dir("hoist") + "/out.spv"), reference);
  // A verdict is printed only where robust access ran.
  EXPECT_NE(clamp.out.find("limit 3: proven in bounds"), std::string::npos) << clamp.out;
  ToolResult typo = scratch.Run(OurTool(), "-V --passes=robust_access table.frag", "typo");
  EXPECT_EQ(typo.exit_code, 1);
  EXPECT_NE((typo.out + typo.err).find("--passes: unknown pass 'robust_access'"), std::string::npos)
      << typo.out << typo.err;
}

TEST(SpirvInput, RunsGlintOnlyAndWritesNameDotGlintDotSpv) {
  Scratch scratch;
  ToolResult plain = scratch.Run(OurTool(), "-V --no-glint -o table.spv table.frag", "plain");
  ASSERT_EQ(plain.exit_code, 0);
  scratch.Write("table.spv", test::ReadFile(scratch.Dir("plain") + "/table.spv"));
  ToolResult from_spv = scratch.Run(OurTool(), "table.spv", "spv");
  ToolResult from_glsl = scratch.Run(OurTool(), "-V -o glint.spv table.frag", "glsl");
  EXPECT_EQ(from_spv.exit_code, 0) << from_spv.out;
  EXPECT_EQ(from_spv.out, "table.spv\n");
  EXPECT_EQ(test::ReadFile(scratch.Dir("spv") + "/table.glint.spv"),
            test::ReadFile(scratch.Dir("glsl") + "/glint.spv"));
  ToolResult named = scratch.Run(OurTool(), "table.spv -o named.spv --no-glint", "named");
  EXPECT_EQ(named.exit_code, 0);
  EXPECT_EQ(test::ReadFile(scratch.Dir("named") + "/named.spv"),
            test::ReadFile(scratch.Inputs() + "/table.spv"));
}

// A .spv input whose id bound is already SPIR-V's maximum (0x3FFFFF; valid): a pass
// that needs a new id fails with the limit in its message and nothing is written; run
// without such a pass the module comes out as it was, valid.
TEST(SpirvInput, IdBoundAtTheMaximum_APassNeedingAnIdFailsAndWritesNothing) {
  Scratch scratch;
  scratch.Write("dynamic.frag", R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
const float table[4] = float[](1.0, 2.0, 3.0, 4.0);
void main() { color = vec4(table[index]); }
)");
  ASSERT_EQ(
      scratch.Run(OurTool(), "-V --no-glint -o dynamic.spv dynamic.frag", "compile").exit_code, 0);
  std::string bytes = test::ReadFile(scratch.Dir("compile") + "/dynamic.spv");
  const uint32_t max_bound = 0x3FFFFF;
  std::memcpy(bytes.data() + 12, &max_bound, 4);
  scratch.Write("max.spv", bytes);
  for (const char* pass : {"hoist-constant-tables", "robust-access"}) {
    std::string flags =
        std::string(pass) == "robust-access" ? "--robust-access --no-hoist-constant-tables" : "";
    ToolResult result = scratch.Run(OurTool(), "max.spv -o out.spv " + flags, "max");
    EXPECT_EQ(result.exit_code, 2) << pass;
    EXPECT_EQ(result.out,
              "max.spv\nERROR: max.spv: " + std::string(pass) +
                  ": cannot allocate a new id: the module's id bound is already 4194303, SPIR-V's "
                  "maximum id bound (4194303, 0x3FFFFF)\n");
    EXPECT_FALSE(fs::exists(scratch.Dir("max") + "/out.spv")) << pass;
  }
  ToolResult untouched =
      scratch.Run(OurTool(), "max.spv -o out.spv --no-hoist-constant-tables", "untouched");
  EXPECT_EQ(untouched.exit_code, 0) << untouched.out;
  std::string out = test::ReadFile(scratch.Dir("untouched") + "/out.spv");
  EXPECT_EQ(out, bytes);
  std::vector<uint32_t> words(out.size() / 4);
  std::memcpy(words.data(), out.data(), words.size() * 4);
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kUniversal), "");
}

// A .spv over the IR's size limit (spirv::kMaxModuleWords, 32 MiB) is refused from its
// size, without reading it: a sparse 64 MB file costs no disk and no time.
TEST(SpirvInput, OverTheSizeLimit_RefusedAtOnceByName) {
  Scratch scratch;
  std::string big = scratch.Root() + "/big.spv";  // outside the inputs, which each run copies
  std::ofstream(big).close();
  fs::resize_file(big, size_t{64} << 20);
  auto start = std::chrono::steady_clock::now();
  ToolResult result = scratch.Run(OurTool(), big + " -o out.spv", "big");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, big + "\nERROR: " + big +
                            ": the module has 16777216 words, more than 8388608 (32 MiB, "
                            "Glint's input limit kMaxModuleWords)\n");
  EXPECT_FALSE(fs::exists(scratch.Dir("big") + "/out.spv"));
}

TEST(BadInput, MalformedSpirv_OneLineExit2NoOutput) {
  Scratch scratch;
  ToolResult result = scratch.Run(OurTool(), "junk.spv -o out.spv", "junk");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(
      result.out,
      "junk.spv\nERROR: junk.spv: malformed SPIR-V: 17 bytes is not a whole number of words\n");
  EXPECT_FALSE(fs::exists(scratch.Dir("junk") + "/out.spv"));
  scratch.Write("magic.spv", std::string(20, '\x01'));
  result = scratch.Run(OurTool(), "magic.spv -o out.spv", "magic");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.out.find("ERROR: magic.spv: malformed SPIR-V: word 0: bad magic"),
            std::string::npos)
      << result.out;
  EXPECT_FALSE(fs::exists(scratch.Dir("magic") + "/out.spv"));
}

TEST(BadInput, UnwritableOutput_Exit1NoFileNoTemporary) {
  Scratch scratch;
  ToolResult result = scratch.Run(OurTool(), "-V -o no/such/dir/out.spv plain.frag", "unwritable");
  // glslang 12 prints the same line but exits 0; Glint treats it as the error it is.
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "plain.frag\nERROR: Failed to open file: no/such/dir/out.spv\n");
  fs::create_directories(scratch.Inputs() + "/dir.spv");
  result = scratch.Run(OurTool(), "-V -o dir.spv plain.frag", "directory");
  EXPECT_EQ(result.exit_code, 1);
  for (const auto& entry : fs::directory_iterator(scratch.Dir("directory")))
    EXPECT_EQ(entry.path().filename().string().find("glint-tmp"), std::string::npos);
}

TEST(BadInput, MixedSpirvAndSourceInputs_AreRefused) {
  Scratch scratch;
  ToolResult result = scratch.Run(OurTool(), "junk.spv plain.frag", "mixed");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("cannot mix .spv inputs with shader sources"), std::string::npos);
}

// ---------------------------------------------------------------------------------
// Output files (output_file.h): devices and pipes written in place, symlinks written
// through, a replaced file keeps its mode and owner, a failed write leaves nothing.
// Every target is made by the test in its own directory; never the machine's
// /dev/null or /dev/full (a regression would replace them for the whole machine).

// The bytes of glslang's writers for these words, read back from a file in `dir`.
std::string GlslangWriterBytes(const std::vector<uint32_t>& words, bool hex, const char* name,
                               const std::string& dir) {
  std::string path = dir + "/glslang_writer.out";
  std::vector<unsigned int> spirv(words.begin(), words.end());
  if (hex)
    glslang::OutputSpvHex(spirv, path.c_str(), name);
  else
    glslang::OutputSpvBin(spirv, path.c_str());
  return test::ReadFile(path);
}

TEST(OutputFormat, SameBytesAsGlslangsWriters) {
  Scratch scratch;
  std::vector<uint32_t> words;
  // Every line-filling case: 0 words, a partial line, exactly one and two full lines.
  for (uint32_t count = 0; count <= 25; ++count) {
    for (const char* name : {static_cast<const char*>(nullptr), "shader_words"}) {
      EXPECT_EQ(SpirvHexText(words, name), GlslangWriterBytes(words, true, name, scratch.Root()))
          << count << " words, name " << (name ? name : "(none)");
    }
    EXPECT_EQ(SpirvBinaryBytes(words), GlslangWriterBytes(words, false, nullptr, scratch.Root()))
        << count;
    words.push_back(0x9e3779b9u * (count + 1) ^ (count << 28));
  }
}

class OutputTarget : public ::testing::Test {
 protected:
  void SetUp() override {
    targets_ = scratch_.Root() + "/targets";
    fs::create_directories(targets_);
    ToolResult reference = scratch_.Run(kRealTool, "-V -o out.spv plain.frag", "reference");
    ASSERT_EQ(reference.exit_code, 0) << reference.out;
    expected_ = test::ReadFile(scratch_.Dir("reference") + "/out.spv");
    ASSERT_FALSE(expected_.empty());
  }
  // `-V -o PATH plain.frag` with Glint's tool.
  ToolResult WriteTo(const std::string& path, const std::string& launcher = "") {
    return scratch_.Run(OurTool(), "-V -o '" + path + "' plain.frag", "run", launcher);
  }
  // A character device node made here (as `mknod NAME c MAJOR MINOR`); false without
  // the privilege to make one.
  bool MakeCharacterDevice(const std::string& name, unsigned major, unsigned minor) {
    std::string path = targets_ + "/" + name;
    // chmod: mknod's mode is cut by the umask, and anyone may write /dev/null.
    return mknod(path.c_str(), S_IFCHR | 0666, makedev(major, minor)) == 0 &&
           chmod(path.c_str(), 0666) == 0;
  }
  bool IsCharacterDevice(const std::string& name, unsigned major, unsigned minor) {
    struct stat status;
    return lstat((targets_ + "/" + name).c_str(), &status) == 0 && S_ISCHR(status.st_mode) &&
           status.st_rdev == makedev(major, minor);
  }
  // Names under `dir` that a writer left behind (its temporaries).
  static std::vector<std::string> Temporaries(const std::string& dir) {
    std::vector<std::string> found;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
      if (entry.path().filename().string().find("glint-tmp") != std::string::npos)
        found.push_back(entry.path());
    return found;
  }

  Scratch scratch_;
  std::string targets_;
  std::string expected_;  // glslang 12's output for plain.frag (Glint changes nothing in it)
};

TEST_F(OutputTarget, NullDevice_StaysACharacterDevice) {
  if (!MakeCharacterDevice("null", 1, 3)) GTEST_SKIP() << "mknod needs CAP_MKNOD (CI runs as root)";
  ToolResult result = WriteTo(targets_ + "/null");
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_TRUE(IsCharacterDevice("null", 1, 3)) << "the device node was replaced";
  EXPECT_EQ(Temporaries(targets_), std::vector<std::string>{});
}

// A user who may write the device but not its directory (as anyone and /dev/null):
// glslang writes it; a writer that needs a temporary beside it cannot.
TEST_F(OutputTarget, NullDeviceInUnwritableDirectory_WorksForANormalUser) {
  if (geteuid() != 0)
    GTEST_SKIP() << "needs root to make the node and to run the tool as another user";
  ASSERT_TRUE(MakeCharacterDevice("null", 1, 3));
  ASSERT_EQ(chmod(targets_.c_str(), 0555), 0);
  ASSERT_EQ(chmod(scratch_.Root().c_str(), 0755), 0);
  ToolResult result =
      WriteTo(targets_ + "/null", "setpriv --reuid=65534 --regid=65534 --clear-groups ");
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_EQ(result.out, "plain.frag\n");
  EXPECT_TRUE(IsCharacterDevice("null", 1, 3));
}

TEST_F(OutputTarget, FullDevice_Exit1WithTheReasonNodeKept) {
  if (!MakeCharacterDevice("full", 1, 7)) GTEST_SKIP() << "mknod needs CAP_MKNOD (CI runs as root)";
  ToolResult result = WriteTo(targets_ + "/full");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "plain.frag\nERROR: Failed to write file: " + targets_ +
                            "/full: No space left on device\n");
  EXPECT_TRUE(IsCharacterDevice("full", 1, 7));
  // The depfile too (glslang does not check it at all).
  result = scratch_.Run(OurTool(), "-V -o out.spv --depfile '" + targets_ + "/full' plain.frag",
                        "depfile");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out,
            "plain.frag\nERROR: cannot write '" + targets_ + "/full': No space left on device\n");
  EXPECT_TRUE(IsCharacterDevice("full", 1, 7));
  EXPECT_EQ(Temporaries(targets_), std::vector<std::string>{});
}

TEST_F(OutputTarget, Symlinks_WrittenThroughAndKept) {
  fs::create_directories(targets_ + "/sub");
  std::ofstream(targets_ + "/sub/real.spv") << "old";
  fs::create_symlink("sub/real.spv", targets_ + "/link.spv");           // relative
  fs::create_symlink(targets_ + "/link.spv", targets_ + "/chain.spv");  // absolute, to a link
  fs::create_symlink("sub/created.spv", targets_ + "/dangling.spv");
  EXPECT_EQ(WriteTo(targets_ + "/chain.spv").exit_code, 0);
  EXPECT_EQ(WriteTo(targets_ + "/dangling.spv").exit_code, 0);
  EXPECT_TRUE(fs::is_symlink(targets_ + "/chain.spv"));
  EXPECT_TRUE(fs::is_symlink(targets_ + "/link.spv"));
  EXPECT_TRUE(fs::is_symlink(targets_ + "/dangling.spv"));
  EXPECT_EQ(test::ReadFile(targets_ + "/sub/real.spv"), expected_);
  EXPECT_EQ(test::ReadFile(targets_ + "/sub/created.spv"), expected_);
  EXPECT_EQ(Temporaries(targets_), std::vector<std::string>{});
}

TEST_F(OutputTarget, ReplacedFile_KeepsModeAndOwner) {
  std::string path = targets_ + "/out.spv";
  std::ofstream(path) << "old";
  ASSERT_EQ(chmod(path.c_str(), 0640), 0);
  bool as_root = geteuid() == 0;  // only root can give the file to someone else
  if (as_root) {
    ASSERT_EQ(chown(path.c_str(), 12345, 23456), 0);
  }
  ToolResult result = WriteTo(path);
  ASSERT_EQ(result.exit_code, 0) << result.out;
  EXPECT_EQ(test::ReadFile(path), expected_);
  struct stat status;
  ASSERT_EQ(stat(path.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0640u);
  if (as_root) {
    EXPECT_EQ(std::make_pair(status.st_uid, status.st_gid), std::make_pair(12345u, 23456u));
  }
  // A new file's mode is the umask's.
  ToolResult created = WriteTo(targets_ + "/new.spv", "umask 027 && ");
  ASSERT_EQ(created.exit_code, 0) << created.out;
  ASSERT_EQ(stat((targets_ + "/new.spv").c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0640u);
}

// A FIFO is written in place and read, while the tool runs, by a thread of the test.
TEST_F(OutputTarget, Fifo_ReadByAThread) {
  std::string fifo = targets_ + "/pipe";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // Opened before the tool runs, non-blocking: a tool that never opens the FIFO ends
  // the test with nothing read instead of hanging it.
  int fd = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(fd, 0);
  std::atomic<bool> tool_done{false};
  std::string read_bytes;
  std::thread reader([&] {
    for (;;) {
      struct pollfd ready = {fd, POLLIN, 0};
      poll(&ready, 1, 50);
      char buffer[4096];
      ssize_t got = read(fd, buffer, sizeof(buffer));
      if (got > 0)
        read_bytes.append(buffer, static_cast<size_t>(got));
      else if (got == 0 && tool_done)
        break;  // the writer closed (or never came)
    }
  });
  ToolResult result = WriteTo(fifo);
  tool_done = true;
  reader.join();
  close(fd);
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_EQ(read_bytes, expected_);
  struct stat status;
  ASSERT_EQ(lstat(fifo.c_str(), &status), 0);
  EXPECT_TRUE(S_ISFIFO(status.st_mode));
}

// /dev/fd/1 (/proc's link to the open stdout, here a pipe) is written in place, as
// glslang's tool writes it. (/dev/fd/N rather than /dev/stdout: a writer that renamed
// over it would fail on /proc instead of replacing the machine's /dev/stdout.) glslang
// prints its log line after the module only because its piped stdout is flushed at
// exit; Glint flushes the log before writing, so the line comes first.
TEST_F(OutputTarget, DevFdOfAPipe_WrittenInPlaceLikeGlslang) {
  std::map<std::string, std::string> piped;
  for (const char* tool : {kRealTool, "ours"}) {
    std::string path = tool == kRealTool ? kRealTool : OurTool();
    std::string dir = scratch_.Inputs();
    std::string command =
        "cd '" + dir + "' && { '" + path +
        "' -V -o /dev/fd/1 plain.frag </dev/null 2>.err; echo $? >.status; } | cat >.piped";
    ASSERT_EQ(std::system(command.c_str()), 0);
    EXPECT_EQ(test::ReadFile(dir + "/.status"), "0\n") << tool;
    piped[tool] = test::ReadFile(dir + "/.piped");
  }
  EXPECT_EQ(piped[kRealTool], expected_ + "plain.frag\n");
  EXPECT_EQ(piped["ours"], "plain.frag\n" + expected_);
}

// A file system that is full, made for the test: a 64 KiB tmpfs mounted in a mount
// namespace of its own, so that the mount ends with the namespace whatever happens
// (root: `unshare --mount`; a normal user: with a user namespace too).
TEST_F(OutputTarget, FullFileSystem_Exit1OldFileKeptNoTemporary) {
  std::string mount_point = targets_ + "/mnt", results = targets_ + "/results";
  fs::create_directories(mount_point);
  fs::create_directories(results);
  std::string run_dir = scratch_.Dir("fullfs");
  fs::copy(scratch_.Inputs(), run_dir, fs::copy_options::recursive);
  std::string script =
      "mount -t tmpfs -o size=64k glint-test '" + mount_point +
      "' || exit 0\n"
      "cd '" +
      mount_point + "' && touch '" + results +
      "/mounted' && printf old > out.spv\n"
      "head -c 1048576 /dev/zero > filler 2>'" +
      results +
      "/fill.err'\n"
      "cd '" +
      run_dir +
      "'\n"
      "'" +
      OurTool() + "' -V -o '" + mount_point + "/out.spv' plain.frag > '" + results +
      "/replace.out' 2>&1\n"
      "echo $? > '" +
      results +
      "/replace.status'\n"
      "'" +
      OurTool() + "' -V -o '" + mount_point + "/new.spv' plain.frag > '" + results +
      "/new.out' 2>&1\n"
      "echo $? > '" +
      results +
      "/new.status'\n"
      "cat '" +
      mount_point + "/out.spv' > '" + results +
      "/out.spv'\n"
      "ls -A '" +
      mount_point + "' > '" + results +
      "/listing'\n"
      "cd / && umount '" +
      mount_point + "'\n";
  std::ofstream(targets_ + "/fullfs.sh") << script;
  std::string namespaces = geteuid() == 0 ? "--mount" : "--user --map-root-user --mount";
  std::string command = "unshare " + namespaces + " --propagation private sh '" + targets_ +
                        "/fullfs.sh' 2>'" + results + "/unshare.err'";
  std::system(command.c_str());
  if (!fs::exists(results + "/mounted"))
    GTEST_SKIP() << "cannot mount a tmpfs in a private namespace here: "
                 << test::ReadFile(results + "/unshare.err");
  EXPECT_NE(test::ReadFile(results + "/fill.err"), "")
      << "the filler should have filled the file system";
  EXPECT_EQ(test::ReadFile(results + "/replace.status"), "1\n");
  EXPECT_EQ(test::ReadFile(results + "/replace.out"),
            "plain.frag\nERROR: Failed to write file: " + mount_point +
                "/out.spv: No space left on device\n");
  EXPECT_EQ(test::ReadFile(results + "/out.spv"), "old");
  EXPECT_EQ(test::ReadFile(results + "/new.status"), "1\n");
  EXPECT_EQ(test::ReadFile(results + "/listing"), "filler\nout.spv\n");
  EXPECT_TRUE(fs::is_empty(mount_point)) << "the tmpfs must be gone with its namespace";
}

// ---------------------------------------------------------------------------------
// Includes: what cannot be read is glslang's include error, never a crash; nesting is
// limited (DirectoryIncluder::kMaxIncludeDepth, 64) so that a cycle ends at once.

class Includes : public ::testing::Test {
 protected:
  // `name` as a fragment shader whose body is `includes` (one #include line each).
  void WriteShader(const std::string& name, const std::string& includes) {
    scratch_.Write(
        name, "#version 440\n#extension GL_GOOGLE_include_directive : require\n" + includes +
                  "layout(location = 0) out vec4 color;\nvoid main() { color = vec4(1.0); }\n");
  }
  // A chain top.frag -> d1.h -> ... -> d<depth>.h.
  void WriteChain(size_t depth) {
    WriteShader("top.frag", "#include \"d1.h\"\n");
    for (size_t i = 1; i <= depth; ++i)
      scratch_.Write(
          "d" + std::to_string(i) + ".h",
          i < depth ? "#include \"d" + std::to_string(i + 1) + ".h\"\n" : "// the end\n");
  }
  // The tool under `timeout` (a regression that hangs fails instead of hanging the test).
  ToolResult Compile(const std::string& file, double* seconds = nullptr) {
    auto start = std::chrono::steady_clock::now();
    ToolResult result = scratch_.Run(OurTool(), "-V -o out.spv " + file, "run", "timeout 20 ");
    if (seconds)
      *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  }
  Scratch scratch_;
};

TEST_F(Includes, Directory_IsAnIncludeError) {
  WriteShader("dir.frag", "#include \".\"\n");
  ToolResult result = Compile("dir.frag");
  EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
  EXPECT_NE(result.out.find(
                "ERROR: dir.frag:3: '#include' : cannot read included file './.': Is a directory "
                "for header name: ."),
            std::string::npos)
      << result.out;
  EXPECT_FALSE(fs::exists(scratch_.Dir("run") + "/out.spv"));
}

// A file whose read fails. chmod 000 stops no one when the tests run as root (CI), so
// the failing read comes from /proc/self/mem (open succeeds, reading address 0 gives
// EIO), through a symlink the test makes; a FIFO is refused too (never waited for).
// They lie in a directory of their own, found through -I.
TEST_F(Includes, UnreadableFiles_AreIncludeErrors) {
  std::string special = scratch_.Root() + "/special";
  fs::create_directories(special);
  fs::create_symlink("/proc/self/mem", special + "/mem.h");
  ASSERT_EQ(mkfifo((special + "/fifo.h").c_str(), 0600), 0);
  struct Case {
    std::string header;
    std::string why;
  };
  std::vector<Case> cases = {{"mem.h", "Input/output error"}, {"fifo.h", "not a regular file"}};
  if (geteuid() != 0) {
    std::ofstream(special + "/secret.h") << "// unreadable\n";
    ASSERT_EQ(chmod((special + "/secret.h").c_str(), 0), 0);
    cases.push_back({"secret.h", "Permission denied"});
  }
  for (const Case& c : cases) {
    WriteShader("user.frag", "#include \"" + c.header + "\"\n");
    ToolResult result =
        scratch_.Run(OurTool(), "-V -o out.spv -I" + special + " user.frag", "run", "timeout 20 ");
    EXPECT_EQ(result.exit_code, 2) << c.header << result.out << result.err;
    EXPECT_NE(
        result.out.find("ERROR: user.frag:3: '#include' : cannot read included file '" + special +
                        "/" + c.header + "': " + c.why + " for header name: " + c.header),
        std::string::npos)
        << result.out;
  }
}

TEST_F(Includes, DepthLimit_64FilesCompile65AreRefusedWithTheChain) {
  WriteChain(frontend::DirectoryIncluder::kMaxIncludeDepth);
  ToolResult deep = Compile("top.frag");
  EXPECT_EQ(deep.exit_code, 0) << deep.out;
  WriteChain(frontend::DirectoryIncluder::kMaxIncludeDepth + 1);
  ToolResult deeper = Compile("top.frag");
  EXPECT_EQ(deeper.exit_code, 2);
  EXPECT_NE(
      deeper.out.find(
          "ERROR: ./d64.h:1: '#include' : #include nested more than 64 files deep (the include "
          "depth limit; an #include cycle?): top.frag -> ./d1.h -> ./d2.h -> ... (57 more) -> "
          "./d60.h -> ./d61.h -> ./d62.h -> ./d63.h -> ./d64.h -> d65.h for header name: d65.h"),
      std::string::npos)
      << deeper.out;
}

TEST_F(Includes, Cycle_EndsAtOnceWithTheLimit_GuardedCycleCompiles) {
  WriteShader("cycle.frag", "#include \"a.h\"\n");
  scratch_.Write("a.h", "#include \"b.h\"\n");
  scratch_.Write("b.h", "#include \"a.h\"\n");
  double seconds = 0;
  ToolResult result = Compile("cycle.frag", &seconds);
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_LT(seconds, 5.0);
  EXPECT_NE(
      result.out.find(
          "the include depth limit; an #include cycle?): cycle.frag -> ./a.h -> ./b.h -> ... "),
      std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("-> ./a.h -> ./b.h -> a.h for header name: a.h"), std::string::npos)
      << result.out;
  // With include guards the same cycle is an ordinary program.
  scratch_.Write("a.h", "#ifndef A_H\n#define A_H\n#include \"b.h\"\n#endif\n");
  scratch_.Write("b.h", "#ifndef B_H\n#define B_H\n#include \"a.h\"\n#endif\n");
  EXPECT_EQ(Compile("cycle.frag").exit_code, 0);
}

// ---------------------------------------------------------------------------------
// Hostile inputs: streams that never end, directories, sizes, memory, values that do
// not fit (glint/input_limits.h). Every input is made here, in the scratch directory:
// FIFOs by mkfifo, large files sparse, never a device of the machine.

// Writes zeros into a FIFO until its reader closes it (EPIPE) or 10 s pass: a stream
// that never ends, as far as the reader can tell.
class EndlessWriter {
 public:
  explicit EndlessWriter(const std::string& fifo) : fifo_(fifo) {
    EXPECT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    signal(SIGPIPE, SIG_IGN);  // a closed reader is EPIPE, not the end of the test
    thread_ = std::thread([this] { Write(); });
  }
  ~EndlessWriter() {
    stop_ = true;
    thread_.join();
  }
  uint64_t written() const { return written_; }

 private:
  void Write() {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    int fd = -1;
    while (fd < 0 && !stop_ && std::chrono::steady_clock::now() < deadline) {
      fd = open(fifo_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);  // ENXIO until a reader
      if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (fd < 0) return;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    static const char kZeros[65536] = {};
    while (!stop_ && std::chrono::steady_clock::now() < deadline) {
      ssize_t put = write(fd, kZeros, sizeof kZeros);
      if (put <= 0) break;
      written_ += static_cast<uint64_t>(put);
    }
    close(fd);
  }
  std::string fifo_;
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> written_{0};
  std::thread thread_;
};

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A .spv that is a FIFO (or, as root, a character device like /dev/zero, made by
// mknod in the scratch directory) is refused at once, never read without end.
TEST(HostileInput, SpirvFromAFifoOrDevice_IsRefusedAtOnce) {
  Scratch scratch;
  std::vector<std::string> inputs = {scratch.Root() + "/endless.spv"};
  EndlessWriter writer(inputs[0]);
  if (geteuid() == 0 && mknod((scratch.Root() + "/zero.spv").c_str(), S_IFCHR | 0600,
                              makedev(1, 5)) == 0)
    inputs.push_back(scratch.Root() + "/zero.spv");
  for (const std::string& input : inputs) {
    auto start = std::chrono::steady_clock::now();
    ToolResult result = scratch.Run(OurTool(), input + " -o out.spv", "spv", "timeout 60 ");
    EXPECT_LT(SecondsSince(start), 10.0) << input;
    EXPECT_EQ(result.exit_code, 2) << input;
    EXPECT_EQ(result.out,
              input + "\nERROR: " + input + ": cannot read the module: not a regular file\n");
    EXPECT_FALSE(fs::exists(scratch.Dir("spv") + "/out.spv"));
  }
}

// A directory given as a shader: glslang's exit for an input it cannot open (1), one
// line saying why, isolated or not; never "internal error in glslang".
TEST(HostileInput, DirectoryAsSource_OneLineExit1LikeAnUnopenableFile) {
  Scratch scratch;
  fs::create_directories(scratch.Inputs() + "/adir.h");
  ToolResult missing = scratch.Run(kRealTool, "-V -S frag missing.frag", "real");
  for (const char* isolation : {"", "--no-isolate "}) {
    ToolResult result =
        scratch.Run(OurTool(), std::string("-V ") + isolation + "-S frag adir.h", "dir");
    EXPECT_EQ(result.exit_code, missing.exit_code) << isolation;
    EXPECT_EQ(result.exit_code, 1) << isolation;
    EXPECT_EQ(result.out, "") << isolation;
    EXPECT_EQ(result.err, OurTool() + ": Error: unable to read input file adir.h: Is a "
                                      "directory (use -h for usage)\n")
        << isolation;
  }
}

// A .conf whose last name has no value: glslang 12's decoder throws std::out_of_range
// (Debian's tool aborts, exit 134); Glint refuses it by file and name, exit 1. A value
// that is not a number, before the end, stays glslang's own message, byte for byte.
TEST(HostileInput, ConfNameWithoutValue_OneLineExit1) {
  Scratch scratch;
  scratch.Write("last.conf", "MaxLights 32\nMaxClipPlanes");
  scratch.Write("alone.conf", "  MaxLights\n\n");
  scratch.Write("word.conf", "MaxLights x MaxClipPlanes");
  for (const char* isolation : {"", "--no-isolate "}) {
    for (auto [conf, name] :
         {std::pair{"last.conf", "MaxClipPlanes"}, {"alone.conf", "MaxLights"}}) {
      ToolResult result = scratch.Run(
          OurTool(), std::string("-V ") + isolation + "-o out.spv plain.frag " + conf, "conf");
      EXPECT_EQ(result.exit_code, 1) << conf;
      EXPECT_EQ(result.out, "") << conf;
      EXPECT_EQ(result.err, OurTool() + ": Error: bad .conf file " + conf + ": its last name, '" +
                                name + "', is not followed by a number (use -h for usage)\n");
      EXPECT_FALSE(fs::exists(scratch.Dir("conf") + "/out.spv")) << conf;
    }
  }
  ToolResult ours = scratch.Run(OurTool(), "-V -o out.spv plain.frag word.conf", "ours");
  ToolResult real = scratch.Run(kRealTool, "-V -o out.spv plain.frag word.conf", "real");
  EXPECT_EQ(ours.exit_code, real.exit_code);
  EXPECT_EQ(ours.out, real.out);
  EXPECT_NE(ours.out.find("bad .conf file"), std::string::npos) << ours.out;
}

// An output that names an input or another output of the run (after symlinks and
// "..") is refused before anything is written: the report used to replace the shader
// or the module, exit 0.
TEST(HostileInput, OutputNamingAnInputOrAnotherOutput_IsRefused) {
  Scratch scratch;
  fs::create_directories(scratch.Inputs() + "/sub");
  scratch.Write("link.frag", kPlainFrag);  // made a symlink to plain.frag in its run
  scratch.Write("limits.conf", "MaxDrawBuffers 8\n");
  struct Case {
    std::string args, clash, launcher = "";
  };
  for (const Case& c : std::vector<Case>{
           {"-V --report=html plain.frag plain.frag",
            "--report=html plain.frag would overwrite the input plain.frag"},
           {"-V --report=sarif o.spv -o o.spv plain.frag",
            "--report=sarif o.spv would overwrite -o o.spv"},
           {"-V --report=html link.frag plain.frag",
            "--report=html link.frag would overwrite the input plain.frag",
            "rm link.frag && ln -s plain.frag link.frag && "},
           {"-V --report=sarif sub/../plain.frag plain.frag",
            "--report=sarif sub/../plain.frag would overwrite the input plain.frag"},
           {"-V -o plain.frag plain.frag", "-o plain.frag would overwrite the input plain.frag"},
           {"-V --depfile o.spv -o o.spv plain.frag", "--depfile o.spv would overwrite -o o.spv"},
           {"-V --depfile limits.conf plain.frag limits.conf",
            "--depfile limits.conf would overwrite the .conf file limits.conf"},
           {"-V --report=html frag.spv plain.frag",
            "--report=html frag.spv would overwrite the output frag.spv"},
           {"-V --report=html r --report=sarif ./sub/../r plain.frag",
            "--report=sarif ./sub/../r would overwrite --report=html r"},
           {"--report=html junk.glint.spv junk.spv",
            "--report=html junk.glint.spv would overwrite the output junk.glint.spv"},
           {"-o junk.spv junk.spv", "-o junk.spv would overwrite the input junk.spv"}}) {
    ToolResult result = scratch.Run(OurTool(), c.args, "clash", c.launcher);
    EXPECT_EQ(result.exit_code, 1) << c.args;
    EXPECT_EQ(result.out, "") << c.args;
    EXPECT_EQ(result.err,
              OurTool() + ": Error: " + c.clash + "; nothing written (use -h for usage)\n")
        << c.args;
    EXPECT_EQ(test::ReadFile(scratch.Dir("clash") + "/plain.frag"), kPlainFrag) << c.args;
    if (c.launcher.empty()) {
      EXPECT_EQ(FilesIn(scratch.Dir("clash")), FilesIn(scratch.Inputs())) << c.args;
    }
  }
  // Distinct names still work, and so do two outputs on a pipe, written in place (here
  // stdout is a pipe to cat; a regular file there would be replaced, and is refused).
  ToolResult distinct =
      scratch.Run(OurTool(), "-V --report=sarif r.sarif -o o.spv plain.frag", "distinct");
  EXPECT_EQ(distinct.exit_code, 0) << distinct.out << distinct.err;
  EXPECT_TRUE(fs::exists(scratch.Dir("distinct") + "/r.sarif"));
  ToolResult in_place = scratch.Run(OurTool(),
                                    "-V --report=sarif /dev/stdout --report=html /dev/stdout -o "
                                    "o.spv plain.frag </dev/null | cat",
                                    "in_place");
  EXPECT_NE(in_place.out.find("<html"), std::string::npos) << in_place.out;
  EXPECT_NE(in_place.out.find("\"version\": \"2.1.0\""), std::string::npos) << in_place.out;
}

// Sources over the limit (64 MiB by default; a sparse 100 MB file costs no disk) are
// refused from their size, quickly: a file, an include, stdin.
TEST(HostileInput, SourcesOverTheLimit_AreRefusedBeforeReading) {
  Scratch scratch;
  std::string huge = scratch.Root() + "/huge/huge.h";
  fs::create_directories(scratch.Root() + "/huge");
  std::ofstream(huge).close();
  fs::resize_file(huge, size_t{100} << 20);
  scratch.Write("includer.frag",
                "#version 440\n#extension GL_GOOGLE_include_directive : require\n"
                "#include \"huge.h\"\nvoid main() {}\n");
  const std::string too_large =
      "larger than 67108864 bytes, Glint's source size limit (--max-source-bytes)";
  auto start = std::chrono::steady_clock::now();
  ToolResult file = scratch.Run(OurTool(), "-V -S frag " + huge, "file");
  EXPECT_EQ(file.exit_code, 1);
  EXPECT_EQ(file.err, OurTool() + ": Error: unable to read input file " + huge + ": " + too_large +
                          " (use -h for usage)\n");
  ToolResult include = scratch.Run(OurTool(), "-V -o out.spv -I" + scratch.Root() +
                                                  "/huge includer.frag",
                                   "include");
  EXPECT_EQ(include.exit_code, 2);
  EXPECT_NE(include.out.find("ERROR: includer.frag:3: '#include' : cannot read included file '" +
                             huge + "': " + too_large + " for header name: huge.h"),
            std::string::npos)
      << include.out;
  EXPECT_FALSE(fs::exists(scratch.Dir("include") + "/out.spv"));
  ToolResult stdin_input = scratch.Run(OurTool(), "-V --stdin -S frag < " + huge, "stdin");
  EXPECT_EQ(stdin_input.exit_code, 1);
  EXPECT_EQ(stdin_input.err,
            OurTool() + ": Error: unable to read stdin: " + too_large + " (use -h for usage)\n");
  EXPECT_LT(SecondsSince(start), 30.0);
}

// A FIFO as a shader (`<(generate)` works) is read only up to the limit.
TEST(HostileInput, SourceFromAnEndlessFifo_StopsAtTheLimit) {
  Scratch scratch;
  std::string fifo = scratch.Root() + "/endless.frag";
  EndlessWriter writer(fifo);
  ToolResult result = scratch.Run(OurTool(), "-V --max-source-bytes 1000000 " + fifo, "fifo",
                                  "timeout 60 ");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, OurTool() + ": Error: unable to read input file " + fifo +
                            ": larger than 1000000 bytes, Glint's source size limit "
                            "(--max-source-bytes) (use -h for usage)\n");
}

// The flags lower and raise the limits; the total counts every source of the compile.
TEST(HostileInput, SourceLimitFlags_LowerAndRaiseTheLimits) {
  Scratch scratch;
  const uint64_t frag = std::strlen(kPlainFrag), vert = std::strlen(kPlainVert);
  std::string just_below = std::to_string(frag - 1);
  ToolResult lowered = scratch.Run(OurTool(), "-V --max-source-bytes " + just_below + " plain.frag",
                                   "lowered");
  EXPECT_EQ(lowered.exit_code, 1);
  EXPECT_NE(lowered.err.find("plain.frag: larger than " + just_below + " bytes"),
            std::string::npos)
      << lowered.err;
  ToolResult exact = scratch.Run(
      OurTool(), "-V --max-source-bytes " + std::to_string(frag) + " plain.frag", "exact");
  EXPECT_EQ(exact.exit_code, 0) << exact.out << exact.err;
  std::string total = std::to_string(frag + vert - 1);
  ToolResult over_total = scratch.Run(
      OurTool(), "-V --max-total-source-bytes " + total + " plain.vert plain.frag", "total");
  EXPECT_EQ(over_total.exit_code, 1);
  EXPECT_NE(over_total.err.find("plain.frag: larger than " + std::to_string(frag - 1) +
                                " bytes, what is left of Glint's total source limit for this "
                                "compile (--max-total-source-bytes)"),
            std::string::npos)
      << over_total.err;
  for (const char* bad : {"0", "-5", "x", "99999999999999999999"}) {
    ToolResult refused =
        scratch.Run(OurTool(), std::string("-V --max-source-bytes ") + bad + " plain.frag", "bad");
    EXPECT_EQ(refused.exit_code, 1) << bad;
    EXPECT_NE(refused.err.find("--max-source-bytes: expected a positive number of bytes"),
              std::string::npos)
        << bad << refused.err;
  }
}

// A macro that doubles 40 times (2^40 tokens) grows without end; the isolated compile
// is stopped at its memory budget and says so.
TEST(HostileInput, MacroExplosion_EndsAtTheMemoryBudgetByName) {
  if (DefaultCompileMemoryMb() == 0)  // the AddressSanitizer build (child_compiles.h)
    GTEST_SKIP() << "AddressSanitizer's allocator aborts on a refused allocation itself";
  Scratch scratch;
  scratch.Write("bomb.frag", test::MacroExplosion());
  auto start = std::chrono::steady_clock::now();
  ToolResult result = scratch.Run(
      OurTool(), "-V --max-memory-mb 256 --timeout-ms 120000 -o out.spv bomb.frag", "bomb");
  EXPECT_LT(SecondsSince(start), 100.0);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out,
            "ERROR: bomb.frag: compile exceeded its memory budget (--max-memory-mb 256); no "
            "output written\n");
  EXPECT_FALSE(fs::exists(scratch.Dir("bomb") + "/out.spv"));
}

// Specialization values are written as their type's literal; one that does not fit is
// an error by SpecId, type and range (it used to write OpConstant %char 300, exit 0).
const char* kNarrowSpecConstants = R"(#version 440
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(constant_id = 1) const int8_t i8 = int8_t(1);
layout(constant_id = 6) const uint64_t u64 = 1ul;
layout(std430, binding = 0) buffer B { int x[]; };
void main() { x[0] = int(i8) + int(u64); }
)";

TEST(HostileInput, SpecConstantValues_FitTheirTypeOrAreRefused) {
  Scratch scratch;
  scratch.Write("narrow.comp", kNarrowSpecConstants);
  const std::string flags = "-V --target-env vulkan1.3 --spirv-val -o out.spv ";
  ToolResult refused = scratch.Run(OurTool(), flags + "--spec-constant 1=300 narrow.comp", "300");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.out.find("--spec-constant 1=300: does not fit the constant's type int8 (8-bit "
                             "signed integer): the value must be in -128..255"),
            std::string::npos)
      << refused.out;
  EXPECT_FALSE(fs::exists(scratch.Dir("300") + "/out.spv"));
  ToolResult fits = scratch.Run(
      OurTool(), flags + "--spec-constant 1=255 --spec-constant 6=18446744073709551615 narrow.comp",
      "fits");
  EXPECT_EQ(fits.exit_code, 0) << fits.out;
  EXPECT_EQ(fits.out.find("Validation"), std::string::npos) << fits.out;
  std::string bytes = test::ReadFile(scratch.Dir("fits") + "/out.spv");
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan13), "");
  ToolResult wide = scratch.Run(OurTool(), flags + "--spec-constant 6=99999999999999999999 narrow.comp",
                                "wide");
  EXPECT_EQ(wide.exit_code, 1);
  EXPECT_NE(wide.err.find("--spec-constant: 99999999999999999999 does not fit in 64 bits"),
            std::string::npos)
      << wide.err;
}

// A value that makes an array's length 0 is refused by value, constant and array, GLSL
// or .spv, without --spirv-val; nothing is written (it wrote an array of length 0, exit 0).
TEST(HostileInput, SpecConstantZeroArrayLength_IsRefusedByName) {
  Scratch scratch;
  scratch.Write("zero.comp", R"(#version 440
layout(local_size_x = 1) in;
layout(constant_id = 3) const uint N = 4u;
shared uint s[N];
layout(std430, binding = 0) buffer B { uint x[]; };
void main() { s[0] = 1u; barrier(); x[0] = s[0]; }
)");
  const std::string refusal =
      "specialize-constants: --spec-constant 3=0: makes N the length 0 "
      "of the array s; an array's length must be at least 1\n";
  ToolResult glsl = scratch.Run(OurTool(), "-V --spec-constant 3=0 -o out.spv zero.comp", "glsl");
  EXPECT_EQ(glsl.exit_code, 2);
  EXPECT_EQ(glsl.out, "zero.comp\nERROR: " + refusal);
  EXPECT_FALSE(fs::exists(scratch.Dir("glsl") + "/out.spv"));
  ASSERT_EQ(scratch.Run(OurTool(), "-V --no-glint -o zero.spv zero.comp", "compile").exit_code, 0);
  scratch.Write("zero.spv", test::ReadFile(scratch.Dir("compile") + "/zero.spv"));
  ToolResult spv = scratch.Run(OurTool(), "--spec-constant 3=0 -o out.spv zero.spv", "spv");
  EXPECT_EQ(spv.exit_code, 2);
  EXPECT_EQ(spv.out, "zero.spv\nERROR: zero.spv: " + refusal);
  EXPECT_FALSE(fs::exists(scratch.Dir("spv") + "/out.spv"));
  ToolResult one = scratch.Run(OurTool(), "--spec-constant 3=1 -o out.spv zero.spv", "one");
  EXPECT_EQ(one.exit_code, 0) << one.out;
  EXPECT_TRUE(fs::exists(scratch.Dir("one") + "/out.spv"));
}

// A loop of `blocks` blocks in a chain: spirv-val's time grows quadratically with it
// (20,000 blocks: about 8 s), and Glint validates every .spv input.
std::string LoopOfBlocks(int blocks) {
  std::string text = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %merge %continue None
OpBranch %b0
)";
  for (int i = 0; i < blocks; ++i)
    text += "%b" + std::to_string(i) + " = OpLabel\nOpBranch " +
            (i + 1 < blocks ? "%b" + std::to_string(i + 1) : std::string("%continue")) + "\n";
  return text + R"(%continue = OpLabel
OpBranchConditional %true %header %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)";
}

// --timeout-ms bounds a .spv input too, validation included (it was ignored: a loop of
// 100,000 blocks ran 212 s past a 5,000 ms limit); the run ends within twice the limit.
TEST(HostileInput, SpirvInputTimeLimit_EndsWithinTwiceTheLimit) {
  Scratch scratch;
  std::vector<uint32_t> words = test::Assemble(LoopOfBlocks(20000));
  ASSERT_FALSE(words.empty());
  scratch.Write("loop.spv", std::string(reinterpret_cast<const char*>(words.data()),
                                        words.size() * sizeof(uint32_t)));
  auto start = std::chrono::steady_clock::now();
  ToolResult result = scratch.Run(OurTool(), "--timeout-ms 2000 -o out.spv loop.spv", "loop");
  EXPECT_LT(SecondsSince(start), 4.0);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out,
            "loop.spv\nERROR: loop.spv: compile exceeded --timeout-ms 2000; no output written\n");
  EXPECT_FALSE(fs::exists(scratch.Dir("loop") + "/out.spv"));
  ToolResult in_process =
      scratch.Run(OurTool(), "--no-isolate --timeout-ms 2000 -o out.spv loop.spv", "in_process");
  EXPECT_EQ(in_process.exit_code, 1);
  EXPECT_NE(in_process.err.find("--timeout-ms needs isolation (drop --no-isolate)"),
            std::string::npos);
}

// Shapes where glslang and Glint are slow (20,000 chained functions: 212 s; a loop of
// 30,000 ifs with --robust-access --dump-ranges: 122 s; the growth is another issue's)
// end at --timeout-ms with the message that names it, within twice the limit.
TEST(HostileInput, SlowShapes_EndAtTheTimeLimitByName) {
  Scratch scratch;
  std::string ifs =
      "#version 440\nlayout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) buffer B { uint data[64]; };\nvoid main() {\n"
      "  uint acc = 0u;\n  for (uint i = 0u; i < gl_LocalInvocationID.x; i++) {\n";
  for (int k = 0; k < 30000; ++k)
    ifs += "    if (i == " + std::to_string(k) + "u) acc += data[i % 64u];\n";
  scratch.Write("ifs.comp", ifs + "  }\n  data[gl_LocalInvocationID.x] = acc;\n}\n");
  std::string chain =
      "#version 440\nlayout(local_size_x = 1) in;\n"
      "layout(std430, binding = 0) buffer B { uint data[]; };\n"
      "uint f0(uint x) { return x + 1u; }\n";
  for (int k = 1; k < 20000; ++k)
    chain += "uint f" + std::to_string(k) + "(uint x) { return f" + std::to_string(k - 1) +
             "(x) + 1u; }\n";
  scratch.Write("chain.comp", chain + "void main() { data[0] = f19999(data[1]); }\n");
  for (const char* shader : {"ifs.comp", "chain.comp"}) {
    auto start = std::chrono::steady_clock::now();
    ToolResult result = scratch.Run(
        OurTool(),
        std::string("-V --robust-access --dump-ranges --timeout-ms 3000 -o out.spv ") + shader,
        "slow");
    EXPECT_LT(SecondsSince(start), 6.0) << shader;
    EXPECT_EQ(result.exit_code, 2) << shader;
    EXPECT_EQ(result.out, std::string("ERROR: ") + shader +
                              ": compile exceeded --timeout-ms 3000; no output written\n");
    EXPECT_FALSE(fs::exists(scratch.Dir("slow") + "/out.spv")) << shader;
  }
}

// --spirv-val on a .spv input: a module invalid for the target is an error and is not
// written (SPIR-V 1.5 for Vulkan 1.0 here).
TEST(HostileInput, SpirvValOnSpirvInput_FailureIsAnError) {
  Scratch scratch;
  ASSERT_EQ(scratch.Run(OurTool(), "-V --target-env vulkan1.2 --no-glint -o new.spv plain.frag",
                        "compile")
                .exit_code,
            0);
  scratch.Write("new.spv", test::ReadFile(scratch.Dir("compile") + "/new.spv"));
  ToolResult result = scratch.Run(
      OurTool(), "--target-env vulkan1.0 --spirv-val -o out.spv new.spv", "validate");
  EXPECT_EQ(result.exit_code, 2) << result.out;
  EXPECT_NE(result.out.find("error: SPIRV-Tools Validation Errors"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("ERROR: new.spv: the output fails spirv-val; no output written"),
            std::string::npos)
      << result.out;
  EXPECT_FALSE(fs::exists(scratch.Dir("validate") + "/out.spv"));
}

// ---------------------------------------------------------------------------------
// Parsing in-process.

CommandLine Parse(std::vector<std::string> args) {
  args.insert(args.begin(), "glslangValidator");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  return ParseCommandLine(static_cast<int>(argv.size()), argv.data());
}

TEST(Parse, GlintFlags_FillOptions) {
  CommandLine line =
      Parse({"-V", "--robust-access", "--range-analysis=reference", "--dump-ranges=json",
             "--uniformity=error", "--subgroup-size", "32", "--spec-constant", "3=7",
             "--spec-constant", "0x10=-1", "--no-hoist-constant-tables", "a.frag"});
  EXPECT_TRUE(line.glint.robust_access);
  EXPECT_EQ(line.glint.range_analysis, RangeAnalysisMode::kReference);
  EXPECT_TRUE(line.dump_ranges && line.dump_ranges_json);
  EXPECT_EQ(line.glint.uniformity, Severity::kError);
  EXPECT_EQ(line.glint.subgroup_size, 32u);
  EXPECT_EQ(line.glint.max_workgroups, (std::array<uint32_t, 3>{0, 0, 0}));
  EXPECT_EQ(Parse({"-V", "--max-workgroups", "64,2,0x10", "a.comp"}).glint.max_workgroups,
            (std::array<uint32_t, 3>{64, 2, 16}));
  EXPECT_EQ(Parse({"-V", "--max-workgroups=4294967295,1,1", "a.comp"}).glint.max_workgroups,
            (std::array<uint32_t, 3>{4294967295u, 1, 1}));
  EXPECT_EQ(line.glint.spec_constants.at(3), 7u);
  EXPECT_EQ(line.glint.spec_constants.at(16), static_cast<uint64_t>(-1));
  EXPECT_FALSE(line.glint.hoist_constant_tables);
  EXPECT_TRUE(line.run_glint);
  EXPECT_FALSE(Parse({"-V", "--no-glint", "a.frag"}).run_glint);
  EXPECT_EQ(Parse({"-V", "--passes=robust-access,uniformity", "a.frag"}).glint.passes,
            (std::vector<std::string>{"robust-access", "uniformity"}));
}

TEST(Parse, UniformityFilters_KeptInOrderWithTheirCase) {
  CommandLine line = Parse({"-V", "--Uniformity-Off=Blur.comp:3-4=Checked", "--uniformity-note=Main",
                            "--uniformity-assume-uniform=broadcast=one lane writes", "a.comp"});
  ASSERT_EQ(line.glint.uniformity_filters.size(), 3u);
  const UniformityFilter& off = line.glint.uniformity_filters[0];
  EXPECT_EQ(off.action, UniformityFilterAction::kOff);
  EXPECT_EQ(off.file, "Blur.comp");
  EXPECT_EQ(off.first_line, 3u);
  EXPECT_EQ(off.last_line, 4u);
  EXPECT_EQ(off.justification, "Checked");
  EXPECT_EQ(line.glint.uniformity_filters[1].action, UniformityFilterAction::kNote);
  EXPECT_EQ(line.glint.uniformity_filters[1].function, "Main");
  EXPECT_EQ(line.glint.uniformity_filters[2].action, UniformityFilterAction::kAssumeUniform);
  EXPECT_EQ(line.glint.uniformity_filters[2].function, "broadcast");
  EXPECT_EQ(line.glint.uniformity_filters[2].justification, "one lane writes");
}

TEST(Parse, GlintFlags_BadValuesAreOneLineErrors) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--range-analysis=some"},
                                               {"--uniformity=loud"},
                                               {"--uniformity"},
                                               {"--subgroup-size"},
                                               {"--subgroup-size", "x"},
                                               {"--spec-constant", "3"},
                                               {"--max-workgroups"},
                                               {"--max-workgroups", "4,4"},
                                               {"--max-workgroups", "4,4,4,4"},
                                               {"--max-workgroups", "4,0,1"},
                                               {"--max-workgroups", "4,,1"},
                                               {"--max-workgroups", "4,1,x"},
                                               {"--max-workgroups", "4294967296,1,1"},
                                               {"--spec-constant", "a=1"},
                                               {"--dump-ranges=xml"},
                                               {"--passes"},
                                               {"--passes="},
                                               {"--passes=robust_access"},
                                               {"--passes=uniformity,,robust-access"},
                                               {"--uniformity-off"},
                                               {"--uniformity-off="},
                                               {"--uniformity-note=a.frag:0"},
                                               {"--uniformity-note=a b"},
                                               {"--uniformity-assume-uniform=a.frag:3"}}) {
    try {
      Parse(args);
      ADD_FAILURE() << args.front() << " was accepted";
    } catch (const CommandLineError& error) {
      EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos) << error.what();
      EXPECT_FALSE(error.bare);
    }
  }
}

// A subgroup size is one Vulkan can report; anything else is refused by name (3 and
// 2^31 were taken as promises).
TEST(Parse, SubgroupSize_PowerOfTwoFrom1To128) {
  for (const char* size : {"1", "2", "4", "8", "16", "32", "64", "128", "0x20"})
    EXPECT_EQ(Parse({"-V", "--subgroup-size", size, "a.comp"}).glint.subgroup_size,
              std::strtoul(size, nullptr, 0))
        << size;
  for (const char* size : {"0", "3", "96", "256", "2147483648", "4294967295", "-32", "x", ""}) {
    try {
      Parse({"-V", "--subgroup-size", size, "a.comp"});
      ADD_FAILURE() << size << " was accepted";
    } catch (const CommandLineError& error) {
      EXPECT_EQ(std::string(error.what()),
                std::string("--subgroup-size: expected a power of two from 1 to 128 (1, 2, 4, 8, "
                            "16, 32, 64 or 128), got '") +
                    size + "'");
    }
  }
}

TEST(Parse, TargetEnv_SetsClientAndSpirvVersion) {
  CommandLine line = Parse({"--target-env", "vulkan1.2", "a.frag"});
  EXPECT_EQ(line.glslang.client, glslang::EShClientVulkan);
  EXPECT_EQ(line.glslang.target_version, glslang::EShTargetSpv_1_5);
  EXPECT_TRUE(line.spirv && line.vulkan_rules && line.link);
  line = Parse({"--target-env", "vulkan1.1", "--target-env", "spirv1.4", "a.frag"});
  EXPECT_EQ(line.glslang.target_version, glslang::EShTargetSpv_1_4);
  line = Parse({"--target-env", "opengl", "a.frag"});
  EXPECT_EQ(line.glslang.client, glslang::EShClientOpenGL);
  EXPECT_FALSE(line.vulkan_rules);
  EXPECT_EQ(frontend::GlintTargetEnv(line.glslang), TargetEnv::kOpenGL45);
}

TEST(Parse, BindingShifts_PerStageAndPerSet) {
  CommandLine line = Parse({"-V", "--sbb", "frag", "1", "2", "3", "4", "--stb", "7", "a.frag"});
  EXPECT_EQ(line.glslang.base_binding_for_set[glslang::EResSsbo][EShLangFragment].at(2), 1u);
  EXPECT_EQ(line.glslang.base_binding_for_set[glslang::EResSsbo][EShLangFragment].at(4), 3u);
  EXPECT_TRUE(line.glslang.base_binding_for_set[glslang::EResSsbo][EShLangVertex].empty());
  for (int stage = 0; stage < EShLangCount; ++stage)
    EXPECT_EQ(line.glslang.base_binding[glslang::EResTexture][stage], 7u);
  EXPECT_EQ(line.files, std::vector<std::string>{"a.frag"});
}

TEST(Parse, Defines_BuildPreambleAndProcesses) {
  CommandLine line = Parse({"-V", "-DA=1", "--define-macro", "B", "-UC", "a.frag"});
  EXPECT_EQ(line.glslang.preamble, "#define A 1\n#define B\n#undef C\n");
  EXPECT_EQ(line.glslang.processes,
            (std::vector<std::string>{"define-macro A=1", "define-macro B", "undef-macro C"}));
}

TEST(Parse, StageFromFileName) {
  bool hlsl = false;
  EXPECT_EQ(StageFromFileName("x/y.comp", &hlsl), EShLangCompute);
  EXPECT_EQ(StageFromFileName("y.rchit.glsl", &hlsl), EShLangClosestHit);
  EXPECT_FALSE(hlsl);
  EXPECT_EQ(StageFromFileName("y.frag.hlsl", &hlsl), EShLangFragment);
  EXPECT_TRUE(hlsl);
  EXPECT_FALSE(StageFromFileName("y.glsl", &hlsl));
  EXPECT_FALSE(StageFromFileName("y.txt", &hlsl));
}

}  // namespace
}  // namespace glint::standalone
