// The installed package, used the way an embedder uses it: `cmake --install` this build
// (component "glint") into a temporary prefix, then configure, build and run
// examples/ (a C++ and a C program) as a project of its own, out of tree, with
// find_package(glint) and glint::glint, and validate the SPIR-V the C++ one writes. Uses the build's own cmake, generator
// and compilers (read from CMakeCache.txt).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/wait.h>

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
    if (entry.is_regular_file() && entry.path().filename() == name) return entry.path();
  return {};
}

std::vector<uint32_t> ReadWords(const fs::path& path) {
  std::string bytes = test::ReadFile(path.string());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// `cmake --install` of this build's "glint" component into `prefix`, and the files an
// embedder needs are there.
void InstallPackage(const std::string& cmake, const fs::path& prefix, std::string* log) {
  ASSERT_EQ(RunCommand(Quote(cmake) + " --install " + Quote(test::BinaryDir()) + " --prefix " +
                           Quote(prefix.string()) + " --component glint",
                       log), 0) << *log;
  for (const char* header : {"glint.h", "glint_c.h", "isolated.h"})
    EXPECT_TRUE(fs::exists(prefix / "include" / "glint" / header)) << header << "\n" << *log;
  for (const char* file : {"libglint.a", "libglint_passes.a", "libglint_ir.a", "glintConfig.cmake",
                           "glintConfigVersion.cmake", "glintTargets.cmake", "glint-compile"})
    EXPECT_FALSE(FindFile(prefix, file).empty()) << file << " not installed\n" << *log;
}

// Configures and builds examples/ out of tree against `prefix`, with this build's
// generator and compilers, and checks the package came from `prefix`.
void BuildConsumer(const std::string& cache, const fs::path& prefix, const fs::path& build,
                   std::string* log) {
  const std::string cmake = CacheValue(cache, "CMAKE_COMMAND");
  std::string configure = Quote(cmake) + " -S " + Quote(test::SourceRoot() + "/examples") +
                          " -B " + Quote(build.string()) + " -G " +
                          Quote(CacheValue(cache, "CMAKE_GENERATOR")) +
                          " -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=" + Quote(prefix.string());
  for (const char* tool : {"CMAKE_MAKE_PROGRAM", "CMAKE_C_COMPILER", "CMAKE_CXX_COMPILER"})
    if (!CacheValue(cache, tool).empty())
      configure += std::string(" -D") + tool + "=" + Quote(CacheValue(cache, tool));
  ASSERT_EQ(RunCommand(configure, log), 0) << *log;
  std::string glint_dir = CacheValue(test::ReadFile((build / "CMakeCache.txt").string()), "glint_DIR");
  EXPECT_EQ(glint_dir.rfind(prefix.string(), 0), 0u) << glint_dir;
  ASSERT_EQ(RunCommand(Quote(cmake) + " --build " + Quote(build.string()) + " --parallel 2", log), 0)
      << *log;
}

TEST(Install, ConsumerBuildsAgainstInstalledPackageAndRuns) {
  const std::string cache = test::ReadFile(test::BinaryDir() + "/CMakeCache.txt");
  const std::string cmake = CacheValue(cache, "CMAKE_COMMAND");
  ASSERT_FALSE(cmake.empty()) << "no CMAKE_COMMAND in " << test::BinaryDir();
  std::string pattern = (fs::temp_directory_path() / "glint-install-XXXXXX").string();
  ASSERT_NE(mkdtemp(pattern.data()), nullptr);
  const fs::path scratch = pattern, prefix = scratch / "prefix", build = scratch / "consumer";
  std::string log;
  ASSERT_NO_FATAL_FAILURE(InstallPackage(cmake, prefix, &log));
  ASSERT_NO_FATAL_FAILURE(BuildConsumer(cache, prefix, build, &log));

  // The C++ program writes SPIR-V that must validate.
  const fs::path spirv = scratch / "embed.spv";
  std::string output;
  ASSERT_EQ(RunCommand(Quote((build / "embed_glint").string()) + " " + Quote(spirv.string()), &output), 0)
      << output;
  EXPECT_NE(output.find(" SPIR-V words"), std::string::npos) << output;
  EXPECT_NE(output.find("clamped"), std::string::npos) << output;  // robust access was on
  std::vector<uint32_t> words = ReadWords(spirv);
  ASSERT_GT(words.size(), 5u);
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "");

  // The C program: a C executable linking the package's static C++ libraries.
  std::string c_output;
  ASSERT_EQ(RunCommand(Quote((build / "embed_glint_c").string()), &c_output), 0) << c_output;
  EXPECT_NE(c_output.find("embed_glint_c: "), std::string::npos) << c_output;
  EXPECT_NE(c_output.find("(material.frag:5): clamped"), std::string::npos) << c_output;

  if (!HasFailure()) fs::remove_all(scratch);
  else ADD_FAILURE() << "kept " << scratch << " for inspection";
}

}  // namespace
}  // namespace glint
