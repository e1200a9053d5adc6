// The installed package, used the way embedders use it: `cmake --install` this build
// (component "glint") into a temporary prefix, then build the examples (examples/: a C++
// and a C program) out of tree against it, every way an embedder would:
//   - CMake, find_package(glint): glint::glint (static) and glint::glint_shared;
//   - pkg-config: `glint` (libglint.so) and `glint-static`, each for C and C++;
//   - the 0.1.0 C example compiled against the 0.1.0 header (gtests/abi/0.1.0), linked
//     with today's libglint.so: an old caller keeps working.
// Every program runs and writes SPIR-V that must pass spirv-val; a shared build must
// load libglint.so.MAJOR.MINOR and a static one must not. Uses the build's own cmake,
// generator and compilers (read from CMakeCache.txt).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "glint/version.h"
#include "support/test_support.h"

namespace glint {
namespace {

namespace fs = std::filesystem;

// The value of `key` in a CMakeCache.txt ("KEY:TYPE=value"), or "" when absent.
std::string CacheValue(const std::string& cache, const std::string& key) {
  std::istringstream lines(cache);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(key + ":", 0) != 0) continue;
    size_t equals = line.find('=');
    if (equals != std::string::npos) return line.substr(equals + 1);
  }
  return "";
}

std::string Quote(const std::string& text) { return "'" + text + "'"; }

// Runs a shell command; returns its exit status and appends its output to `log`.
int RunCommand(const std::string& command, std::string* log) {
  *log += "$ " + command + "\n";
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) log->append(buffer, n);
  int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The first file named `name` under `root`, or an empty path.
fs::path FindFile(const fs::path& root, const std::string& name) {
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root))
    if ((entry.is_regular_file() || entry.is_symlink()) && entry.path().filename() == name)
      return entry.path();
  return {};
}

std::vector<uint32_t> ReadWords(const fs::path& path) {
  std::string bytes = fs::exists(path) ? test::ReadFile(path.string()) : "";
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

const std::string kSoname = "libglint.so." + std::to_string(GLINT_VERSION_MAJOR) + "." +
                            std::to_string(GLINT_VERSION_MINOR);

// One installed prefix per test program, shared by its tests.
class Install : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cache_ = test::ReadFile(test::BinaryDir() + "/CMakeCache.txt");
    std::string pattern = (fs::temp_directory_path() / "glint-install-XXXXXX").string();
    if (!mkdtemp(pattern.data())) return;
    scratch_ = pattern;
    std::string log;
    int status = RunCommand(Quote(CacheValue(cache_, "CMAKE_COMMAND")) + " --install " +
                                Quote(test::BinaryDir()) + " --prefix " + Quote(Prefix().string()) +
                                " --component glint",
                            &log);
    install_log_ = status == 0 ? "" : log;
  }
  static void TearDownTestSuite() {
    if (!failed_ && !scratch_.empty()) fs::remove_all(scratch_);
  }
  void SetUp() override {
    ASSERT_FALSE(scratch_.empty()) << "no temporary directory";
    ASSERT_EQ(install_log_, "") << "cmake --install failed";
  }
  void TearDown() override {
    if (HasFailure()) {
      failed_ = true;
      ADD_FAILURE() << "kept " << scratch_ << " for inspection";
    }
  }

  static fs::path Prefix() { return scratch_ / "prefix"; }
  static fs::path LibDir() { return FindFile(Prefix(), "libglint.a").parent_path(); }
  static std::string Tool(const char* key) { return CacheValue(cache_, key); }
  // "pkg-config " reading the installed prefix's .pc files.
  static std::string PkgConfig() {
    return "PKG_CONFIG_PATH=" + Quote(FindFile(Prefix(), "glint.pc").parent_path().string()) +
           " pkg-config ";
  }

  // Runs `program` (with the prefix's libraries on the loader path) writing SPIR-V to
  // `spirv`, and checks its output mentions `expect`; returns the words it wrote.
  std::vector<uint32_t> RunProgram(const fs::path& program, const fs::path& spirv,
                                   const std::string& expect, std::string* log) {
    std::string output;
    int status = RunCommand("LD_LIBRARY_PATH=" + Quote(LibDir().string()) + " " +
                                Quote(program.string()) + " " + Quote(spirv.string()),
                            &output);
    *log += output;
    EXPECT_EQ(status, 0) << *log;
    EXPECT_NE(output.find(expect), std::string::npos) << output;
    return ReadWords(spirv);
  }

  // Whether `program` needs libglint.so.MAJOR.MINOR (readelf's NEEDED entries).
  bool LoadsSharedGlint(const fs::path& program) {
    std::string dynamic;
    RunCommand("readelf -d " + Quote(program.string()), &dynamic);
    return dynamic.find("[" + kSoname + "]") != std::string::npos;
  }

  // Both examples built in `build`, run, their SPIR-V validated.
  void RunBothExamples(const fs::path& build, bool shared, std::string* log) {
    std::vector<uint32_t> cpp =
        RunProgram(build / "embed_glint", build / "cpp.spv", "clamped", log);
    ASSERT_GT(cpp.size(), 5u) << *log;
    EXPECT_EQ(test::ValidateFor(cpp, TargetEnv::kVulkan10), "");
    std::vector<uint32_t> c =
        RunProgram(build / "embed_glint_c", build / "c.spv", "(material.frag:6): clamped", log);
    ASSERT_GT(c.size(), 5u) << *log;
    EXPECT_EQ(test::ValidateFor(c, TargetEnv::kVulkan11), "");
    EXPECT_EQ(LoadsSharedGlint(build / "embed_glint_c"), shared);
    EXPECT_EQ(LoadsSharedGlint(build / "embed_glint"), shared);
  }

  static std::string cache_;
  static fs::path scratch_;
  static std::string install_log_;
  static bool failed_;
};

std::string Install::cache_;
fs::path Install::scratch_;
std::string Install::install_log_;
bool Install::failed_ = false;

TEST_F(Install, PackageHoldsHeadersLibrariesAndPackageFiles) {
  for (const char* header :
       {"glint.h", "glint_c.h", "export.h", "version.h", "report_format.h", "isolated.h"})
    EXPECT_TRUE(fs::exists(Prefix() / "include" / "glint" / header)) << header;
  const std::vector<std::string> files = {"libglint.a",
                                          "libglint_passes.a",
                                          "libglint_ir.a",
                                          "libglint.so",
                                          kSoname,
                                          std::string("libglint.so.") + GLINT_VERSION_STRING,
                                          "glintConfig.cmake",
                                          "glintConfigVersion.cmake",
                                          "glintTargets.cmake",
                                          "glint.pc",
                                          "glint-static.pc",
                                          "glint-compile"};
  for (const std::string& file : files)
    EXPECT_FALSE(FindFile(Prefix(), file).empty()) << file << " not installed";
  std::string dynamic;
  RunCommand("readelf -d " + Quote((LibDir() / "libglint.so").string()), &dynamic);
  EXPECT_NE(dynamic.find("Library soname: [" + kSoname + "]"), std::string::npos) << dynamic;
  // glslang and SPIRV-Tools are inside: the library needs only the C and C++ runtimes.
  for (const char* outside : {"glslang", "SPIRV", "libglint_"})
    EXPECT_EQ(dynamic.find(outside), std::string::npos) << outside << "\n" << dynamic;

  const std::string version =
      test::ReadFile((Prefix() / "include" / "glint" / "version.h").string());
  EXPECT_NE(version.find("#define GLINT_VERSION_STRING \"" + Tool("CMAKE_PROJECT_VERSION") + "\""),
            std::string::npos)
      << version;
}

class InstallCMake : public Install, public ::testing::WithParamInterface<const char*> {};

// find_package(glint) from an out-of-tree project: examples/ with GLINT_EXAMPLES_LINK.
TEST_P(InstallCMake, ConsumerBuildsRunsAndValidates) {
  const std::string link = GetParam();
  const fs::path build = scratch_ / ("cmake-" + link);
  std::string log;
  std::string configure = Quote(Tool("CMAKE_COMMAND")) + " -S " +
                          Quote(test::SourceRoot() + "/examples") + " -B " + Quote(build.string()) +
                          " -G " + Quote(Tool("CMAKE_GENERATOR")) +
                          " -DCMAKE_BUILD_TYPE=Release -DGLINT_EXAMPLES_LINK=" + link +
                          " -DCMAKE_PREFIX_PATH=" + Quote(Prefix().string());
  for (const char* tool : {"CMAKE_MAKE_PROGRAM", "CMAKE_C_COMPILER", "CMAKE_CXX_COMPILER"})
    if (!Tool(tool).empty()) configure += std::string(" -D") + tool + "=" + Quote(Tool(tool));
  ASSERT_EQ(RunCommand(configure, &log), 0) << log;
  std::string glint_dir =
      CacheValue(test::ReadFile((build / "CMakeCache.txt").string()), "glint_DIR");
  EXPECT_EQ(glint_dir.rfind(Prefix().string(), 0), 0u) << glint_dir;
  ASSERT_EQ(RunCommand(Quote(Tool("CMAKE_COMMAND")) + " --build " + Quote(build.string()), &log), 0)
      << log;
  RunBothExamples(build, link == "shared", &log);
}

INSTANTIATE_TEST_SUITE_P(Link, InstallCMake, ::testing::Values("static", "shared"),
                         [](const auto& info) {
                           return std::string(info.param) == "shared" ? "Shared" : "Static";
                         });

// Glint's libshaderc through the CMake package: find_package(glint) and glint::shaderc
// build a program written for shaderc.hpp (gtests/libshaderc_probe/probe.cpp), which runs.
TEST_F(Install, FindPackageShadercConsumerBuildsAndRuns) {
  const fs::path project = scratch_ / "shaderc-consumer";
  const fs::path build = scratch_ / "shaderc-consumer-build";
  fs::create_directories(project);
  std::ofstream(project / "CMakeLists.txt")
      << "cmake_minimum_required(VERSION 3.20)\nproject(shaderc_consumer CXX)\n"
         "find_package(glint REQUIRED)\nadd_executable(app \""
      << test::SourceRoot() << "/gtests/libshaderc_probe/probe.cpp\")\n"
         "target_link_libraries(app PRIVATE glint::shaderc)\n";
  std::string log;
  std::string configure = Quote(Tool("CMAKE_COMMAND")) + " -S " + Quote(project.string()) +
                          " -B " + Quote(build.string()) + " -G " + Quote(Tool("CMAKE_GENERATOR")) +
                          " -DCMAKE_PREFIX_PATH=" + Quote(Prefix().string());
  for (const char* tool : {"CMAKE_MAKE_PROGRAM", "CMAKE_CXX_COMPILER"})
    if (!Tool(tool).empty()) configure += std::string(" -D") + tool + "=" + Quote(Tool(tool));
  ASSERT_EQ(RunCommand(configure, &log), 0) << log;
  ASSERT_EQ(RunCommand(Quote(Tool("CMAKE_COMMAND")) + " --build " + Quote(build.string()), &log), 0)
      << log;
  std::string output;
  EXPECT_EQ(RunCommand(Quote((build / "app").string()), &output), 0) << output;
  EXPECT_NE(output.find("spv status 0, "), std::string::npos) << output;
  EXPECT_NE(output.find("assembled status 0, 10 words"), std::string::npos) << output;
}

class InstallPkgConfig : public Install, public ::testing::WithParamInterface<const char*> {};

// `cc app.c $(pkg-config --cflags --libs glint)` and the same with glint-static; the C++
// example also drives glslang itself, so it adds glslang's own flags.
TEST_P(InstallPkgConfig, ConsumerBuildsRunsAndValidates) {
  const std::string package = GetParam();
  const fs::path build = scratch_ / ("pkg-config-" + package);
  fs::create_directories(build);
  const std::string pkg_config = PkgConfig() + "--cflags --libs ";
  const std::string examples = test::SourceRoot() + "/examples/";
  std::string log;
  ASSERT_EQ(
      RunCommand(Quote(Tool("CMAKE_C_COMPILER")) + " -std=c99 -pedantic-errors -Werror " +
                     Quote(examples + "embed_glint_c.c") + " -o " +
                     Quote((build / "embed_glint_c").string()) + " $(" + pkg_config + package + ")",
                 &log),
      0)
      << log;
  std::string glslang = package == "glint" ? " glslang) -lglslang-default-resource-limits" : ")";
  ASSERT_EQ(RunCommand(Quote(Tool("CMAKE_CXX_COMPILER")) + " -std=c++17 " +
                           Quote(examples + "embed_glint.cpp") + " -o " +
                           Quote((build / "embed_glint").string()) + " $(" + pkg_config + package +
                           glslang,
                       &log),
            0)
      << log;
  RunBothExamples(build, package == "glint", &log);
}

INSTANTIATE_TEST_SUITE_P(Package, InstallPkgConfig, ::testing::Values("glint", "glint-static"),
                         [](const auto& info) {
                           return std::string(info.param) == "glint" ? "Shared" : "Static";
                         });

// docs/EMBEDDING.md's way to run a program built against libglint.so in a prefix the
// loader does not search: the rpath from pkg-config's libdir, no LD_LIBRARY_PATH.
TEST_F(Install, RpathFromPkgConfigRunsWithoutLibraryPath) {
  const fs::path program = scratch_ / "embed_glint_c_rpath";
  const std::string pkg_config = PkgConfig();
  std::string log;
  ASSERT_EQ(RunCommand(Quote(Tool("CMAKE_C_COMPILER")) + " " +
                           Quote(test::SourceRoot() + "/examples/embed_glint_c.c") + " -o " +
                           Quote(program.string()) + " $(" + pkg_config +
                           "--cflags --libs glint) -Wl,-rpath,$(" + pkg_config +
                           "--variable=libdir glint)",
                       &log),
            0)
      << log;
  std::string output;
  EXPECT_EQ(RunCommand("env -u LD_LIBRARY_PATH " + Quote(program.string()), &output), 0) << output;
  EXPECT_NE(output.find("embed_glint_c: "), std::string::npos) << output;
}

// A program that links the static library but calls only glslang's own GlslangToSpv,
// with -gV's options on a global initializer (where glslang 12 reads past its stack of
// debug scopes): the link options glint-static.pc gives must pull Glint's guard in
// (without --undefined the link fails on an undefined __wrap_ symbol), and the program
// must write a module that passes spirv-val.
TEST_F(Install, StaticLinkCallingOnlyGlslangsGlslangToSpvHasTheGuard) {
  const fs::path source = scratch_ / "glslang_only.cpp";
  std::ofstream(source) << R"(#include <cstdio>
#include <vector>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>
int main(int argc, char** argv) {
  if (argc != 2) return 2;
  glslang::InitializeProcess();
  const char* text = "#version 440\nlayout(location = 0) in vec2 position;\n"
                     "vec2 offset = position * 0.5;\n"
                     "void main() { gl_Position = vec4(position + offset, 0.0, 1.0); }\n";
  std::vector<unsigned int> words;
  {
    glslang::TShader shader(EShLangVertex);
    shader.setStrings(&text, 1);
    shader.setEnvInput(glslang::EShSourceGlsl, EShLangVertex, glslang::EShClientVulkan, 100);
    shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_0);
    shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_0);
    shader.setDebugInfo(true);
    EShMessages messages =
        EShMessages(EShMsgSpvRules | EShMsgVulkanRules | EShMsgDebugInfo);
    if (!shader.parse(GetDefaultResources(), 100, false, messages)) return 1;
    glslang::TProgram program;
    program.addShader(&shader);
    if (!program.link(messages)) return 1;
    glslang::SpvOptions options;
    options.generateDebugInfo = true;
    options.emitNonSemanticShaderDebugInfo = true;
    spv::SpvBuildLogger logger;
    glslang::GlslangToSpv(*program.getIntermediate(EShLangVertex), words, &logger, &options);
  }
  glslang::FinalizeProcess();
  FILE* out = std::fopen(argv[1], "wb");
  if (!out) return 1;
  std::fwrite(words.data(), 4, words.size(), out);
  return std::fclose(out) == 0 ? 0 : 1;
}
)";
  const fs::path program = scratch_ / "glslang_only";
  const std::string pkg_config = PkgConfig() + "--cflags --libs glint-static";
  std::string log;
  ASSERT_EQ(RunCommand(Quote(Tool("CMAKE_CXX_COMPILER")) + " -std=c++17 " +
                           Quote(source.string()) + " -o " + Quote(program.string()) + " $(" +
                           pkg_config + ")",
                       &log),
            0)
      << log;
  std::string symbols;
  ASSERT_EQ(RunCommand("nm " + Quote(program.string()), &symbols), 0) << symbols;
  // Defined in the program's text (T, or t: Glint's objects are hidden, which a static
  // link resolves all the same).
  EXPECT_TRUE(symbols.find(" T __wrap__ZN3spv7Builder7setLineEiPKc\n") != std::string::npos ||
              symbols.find(" t __wrap__ZN3spv7Builder7setLineEiPKc\n") != std::string::npos)
      << "Glint's guard is not in the program";
  const fs::path module = scratch_ / "glslang_only.spv";
  ASSERT_EQ(RunCommand(Quote(program.string()) + " " + Quote(module.string()), &log), 0) << log;
  std::vector<uint32_t> words = ReadWords(module);
  ASSERT_GT(words.size(), 5u);
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "");
}

// ABI: a caller written and compiled against the 0.1.0 header (the public structs
// glint_glsl_input_t, glint_diagnostic_t, glint_access_record_t as they were) runs
// against today's libglint.so.
TEST_F(Install, OldHeaderCallerRunsAgainstNewSharedLibrary) {
  const std::string old = test::SourceRoot() + "/gtests/abi/0.1.0";
  const fs::path program = scratch_ / "embed_glint_c_0_1_0";
  std::string log;
  ASSERT_EQ(RunCommand(Quote(Tool("CMAKE_C_COMPILER")) + " -std=c99 -I" + Quote(old) + " " +
                           Quote(old + "/embed_glint_c.c") + " -o " + Quote(program.string()) +
                           " -L" + Quote(LibDir().string()) + " -lglint",
                       &log),
            0)
      << log;
  EXPECT_TRUE(LoadsSharedGlint(program));
  std::string output;
  ASSERT_EQ(
      RunCommand("LD_LIBRARY_PATH=" + Quote(LibDir().string()) + " " + Quote(program.string()),
                 &output),
      0)
      << output;
  EXPECT_NE(output.find("access OpAccessChain Materials (material.frag:5): clamped"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("embed_glint_c: "), std::string::npos) << output;
}

}  // namespace
}  // namespace glint
