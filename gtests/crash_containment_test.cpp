// glslangValidator's containment of glslang's crashes (StandAlone/child_compiles.h and
// glslang/front_end/big_stack.h), run as a user runs it:
// - inputs glslang 12 crashes on (Test/crashers/, the project's own reproducers): each
//   is the one internal-error line with no output file;
//   the other files of the same run still compile; --no-isolate shows the crash.
// - inputs that overflow an 8 MB stack (100,000 chained additions, a 100,000-step
//   swizzle chain, HLSL nested 100,000 parentheses deep): compiled (the big stack),
//   output valid, where Debian's glslangValidator 12 dies by SIGSEGV.
// - runaway inputs (an #include cycle, a 100,000-element constant array) end within
//   --timeout-ms with the budget named, or are refused.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "SPIRV/validate.h"
#include "support/test_support.h"

namespace glint {
namespace {

namespace fs = std::filesystem;

const char* kPlainFrag = R"(#version 440
layout(location = 0) in vec4 color_in;
layout(location = 0) out vec4 color;
void main() { color = color_in * 2.0; }
)";

struct ToolRun {
  int exit_code = -1;  // -1: ended by a signal
  int signal = 0;
  std::string out;
};

class Scratch {
 public:
  Scratch() {
    char pattern[] = "/tmp/glint-containment-XXXXXX";
    root_ = mkdtemp(pattern);
  }
  ~Scratch() { fs::remove_all(root_); }
  std::string Path(const std::string& name) const { return root_ + "/" + name; }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(Path(name), std::ios::binary) << text;
  }
  void CopyCrasher(const std::string& name) const {
    fs::copy_file(test::SourceRoot() + "/Test/crashers/" + name, Path(name));
  }
  // Runs `tool args` in the scratch directory; stdout and stderr together.
  ToolRun Run(const std::string& args, const std::string& tool = Ours()) const {
    std::string command = "cd '" + root_ + "' && '" + tool + "' " + args + " >.log 2>&1 <.log";
    int status = std::system(command.c_str());
    ToolRun run;
    if (WIFEXITED(status) && WEXITSTATUS(status) < 128)
      run.exit_code = WEXITSTATUS(status);
    else
      run.signal = WIFEXITED(status) ? WEXITSTATUS(status) - 128 : WTERMSIG(status);
    run.out = test::ReadFile(Path(".log"));
    fs::remove(Path(".log"));
    return run;
  }
  static std::string Ours() { return test::BinaryDir() + "/StandAlone/glslangValidator"; }

 private:
  std::string root_;
};

std::string InternalError(const std::string& name) {
  return "ERROR: " + name +
         ": internal error in glslang 12 (signal SIGSEGV) while compiling; "
         "no output written\n";
}

// glslang 12.0.0 dies on each of these (null dereferences and reads past the end on
// erroneous code; HLSL with -D -e main): the project's own minimal reproducers in
// Test/crashers/, one per kind of crash. The crash sweep (corpus suite) finds the same
// kinds among glslang's own test files.
const char* const kGlslangCrashers[] = {
    "nested_empty_initializer.vert", "atomic_on_expression.comp",
    "string_arithmetic.frag",        "pragma_stdgl_short.vert",
    "hlsl.buffer_load_struct.frag",  "hlsl.ternary_undeclared.frag"};

class KnownCrasher : public ::testing::TestWithParam<const char*> {};

std::string FlagsFor(const std::string& name) {
  return name.rfind("hlsl.", 0) == 0 ? "-V -D -e main " : "-V ";
}

TEST_P(KnownCrasher, OneLineAndNoOutputFile) {
  Scratch scratch;
  const std::string name = GetParam();
  scratch.CopyCrasher(name);
  ToolRun run = scratch.Run(FlagsFor(name) + "-o out.spv " + name);
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_EQ(run.out, InternalError(name));
  EXPECT_FALSE(fs::exists(scratch.Path("out.spv")));
}

// Without linking each file is its own child: the files around a crasher still compile.
TEST(Isolation, OtherFilesOfTheRunStillCompile) {
  Scratch scratch;
  scratch.Write("plain.frag", kPlainFrag);
  scratch.Write("broken.frag", "#version 440\nvoid main() { undeclared = 1; }\n");
  scratch.CopyCrasher("nested_empty_initializer.vert");
  ToolRun run = scratch.Run("plain.frag nested_empty_initializer.vert broken.frag");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "plain.frag\nnested_empty_initializer.vert\n" +
                         InternalError("nested_empty_initializer.vert") +
                         "broken.frag\nERROR: 0:2: 'undeclared' : undeclared identifier \n"
                         "ERROR: 0:2: '' : compilation terminated \n"
                         "ERROR: 2 compilation errors.  No code generated.\n\n\n");
}

// In-process (--no-isolate) glslang's crash is the tool's crash: the contrast.
TEST_P(KnownCrasher, NoIsolateCrashes) {
  Scratch scratch;
  const std::string name = GetParam();
  scratch.CopyCrasher(name);
  ToolRun run = scratch.Run("--no-isolate " + FlagsFor(name) + "-o out.spv " + name);
  EXPECT_EQ(run.signal, SIGSEGV) << "glslang 12 no longer crashes on " << name << ": " << run.out;
}

INSTANTIATE_TEST_SUITE_P(GlslangTestInputs, KnownCrasher, ::testing::ValuesIn(kGlslangCrashers),
                         [](const auto& info) { return test::ParamName(info.param); });

std::string Repeat(const std::string& text, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out += text;
  return out;
}

struct DeepInput {
  const char* name;
  std::string text;
  const char* flags;
};

std::vector<DeepInput> DeepInputs() {
  std::string additions = "a";
  for (int i = 1; i < 100000; ++i) additions += "+a";
  return {
      {"additions.frag",
       "#version 440\nlayout(location=0) in float a;\nlayout(location=0) out float o;\n"
       "void main() { o = " +
           additions + "; }\n",
       "-V"},
      {"swizzle.frag",
       "#version 440\nlayout(location=0) in vec4 a;\nlayout(location=0) out float o;\n"
       "void main() { o = a" +
           Repeat(".yxwz", 100000) + ".x; }\n",
       "-V"},
      {"nested.frag.hlsl",
       "float4 main(float4 a : COLOR) : SV_Target { return " + Repeat("(", 100000) + "a" +
           Repeat(")", 100000) + "; }\n",
       "-V -D -e main"},
  };
}

// Deep recursion in glslang: compiled on the big stack, in a child and in-process,
// where Debian's glslangValidator 12 overflows its stack.
TEST(DeepRecursion, CompilesWhereGlslangOverflowsItsStack) {
  Scratch scratch;
  for (const DeepInput& input : DeepInputs()) {
    scratch.Write(input.name, input.text);
    for (const char* mode : {"", "--no-isolate "}) {
      fs::remove(scratch.Path("out.spv"));
      ToolRun run = scratch.Run(std::string(mode) + input.flags + " -o out.spv " + input.name);
      EXPECT_EQ(run.exit_code, 0) << mode << input.name << ": " << run.out.substr(0, 500);
      std::string bytes = test::ReadFile(scratch.Path("out.spv"));
      std::vector<uint32_t> words(bytes.size() / 4);
      std::memcpy(words.data(), bytes.data(), words.size() * 4);
      EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "") << mode << input.name;
    }
    ToolRun debian = scratch.Run(std::string(input.flags) + " -o debian.spv " + input.name,
                                 "/usr/bin/glslangValidator");
    EXPECT_EQ(debian.signal, SIGSEGV) << input.name << " no longer overflows glslang 12's stack";
  }
}

// Runaway inputs end within the budget, named in the message, or are refused. A constant
// array of 100,000 elements ends too: glslang 12 writes its OpConstantComposite (over
// 65,535 words) with a word count that wraps to 0, and Debian's tool writes that module
// and exits 0; Glint writes the same bytes and warns that its passes did not run.
TEST(Runaway, IncludeCycleAndHugeConstantArray) {
  Scratch scratch;
  scratch.Write("cycle.frag",
                "#version 440\n#extension GL_GOOGLE_include_directive : require\n#include \"a.h\"\n"
                "layout(location=0) out vec4 o;\nvoid main() { o = vec4(1.0); }\n");
  scratch.Write("a.h", "#include \"b.h\"\n");
  scratch.Write("b.h", "#include \"a.h\"\n");
  std::string elements = "1.0";
  for (int i = 1; i < 100000; ++i) elements += ",1.0";
  scratch.Write("array.frag",
                "#version 440\nlayout(location=0) out vec4 o;\nconst float t[100000] = "
                "float[](" +
                    elements +
                    ");\nlayout(location=0) flat in int i;\n"
                    "void main() { o = vec4(t[i]); }\n");
  ToolRun array = scratch.Run("-V --timeout-ms 3000 -o array.spv array.frag");
  ToolRun debian = scratch.Run("-V -o debian.spv array.frag", "/usr/bin/glslangValidator");
  EXPECT_EQ(debian.exit_code, 0) << debian.out.substr(0, 500);
  EXPECT_EQ(array.exit_code, 0) << array.out.substr(0, 500);
  EXPECT_NE(array.out.find("WARNING: glslang wrote a module that is not valid SPIR-V"),
            std::string::npos)
      << array.out.substr(0, 500);
  EXPECT_EQ(test::ReadFile(scratch.Path("array.spv")), test::ReadFile(scratch.Path("debian.spv")));

  ToolRun cycle = scratch.Run("-V --timeout-ms 3000 -o out.spv cycle.frag");
  EXPECT_EQ(cycle.exit_code, 2) << cycle.out.substr(0, 500);
  bool timed_out =
      cycle.out == "ERROR: cycle.frag: compile exceeded --timeout-ms 3000; no output written\n";
  bool refused = cycle.out.find("ERROR: ") != std::string::npos &&
                 cycle.out.find("internal error") == std::string::npos;
  EXPECT_TRUE(timed_out || refused) << cycle.out.substr(0, 500);
  EXPECT_FALSE(fs::exists(scratch.Path("out.spv")));
}

TEST(Isolation, TimeoutNeedsIsolation) {
  Scratch scratch;
  scratch.Write("plain.frag", kPlainFrag);
  ToolRun run = scratch.Run("-V --no-isolate --timeout-ms 100 plain.frag");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("--timeout-ms needs isolation (drop --no-isolate)"), std::string::npos);
}

// A usage error inside the child (a missing second file) ends the run as it does
// in-process: glslang's message, exit 1, nothing else printed.
TEST(Isolation, UsageErrorInTheChildEndsTheRun) {
  Scratch scratch;
  scratch.Write("plain.frag", kPlainFrag);
  for (const char* mode : {"", "--no-isolate "}) {
    ToolRun run = scratch.Run(std::string(mode) + "plain.frag missing.frag");
    EXPECT_EQ(run.exit_code, 1) << mode;
    EXPECT_EQ(run.out, Scratch::Ours() + ": Error: unable to open input file (use -h for usage)\n");
  }
}

}  // namespace
}  // namespace glint
