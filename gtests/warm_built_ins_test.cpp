// Tests of StandAlone/warm_built_ins.h: which version lines the parent may warm glslang
// with, and that a compile-only run over files of several versions prints exactly what
// glslang 12's glslangValidator prints, isolated (warmed parent, one child per file) and
// with --no-isolate.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "support/test_support.h"
#include "warm_built_ins.h"

namespace glint::standalone {
namespace {

namespace fs = std::filesystem;

TEST(VersionLineOf, KnownProfilesAndNumbersOnly) {
  EXPECT_EQ(VersionLineOf("#version 450\nvoid main(){}"), "#version 450");
  EXPECT_EQ(VersionLineOf("// x\n#version 310 es\n"), "#version 310 es");
  EXPECT_EQ(VersionLineOf("#version   450   core  \n"), "#version 450 core");
  EXPECT_EQ(VersionLineOf("#version 150 compatibility"), "#version 150 compatibility");
  EXPECT_EQ(VersionLineOf("void main(){}"), std::nullopt);
  EXPECT_EQ(VersionLineOf("#version 450 hostile\n"), std::nullopt);
  EXPECT_EQ(VersionLineOf("#version 4x0\n"), std::nullopt);
  EXPECT_EQ(VersionLineOf("#version 45000\n"), std::nullopt);
  EXPECT_EQ(VersionLineOf("#version 450 core extra\n"), std::nullopt);
}

std::string RunIn(const std::string& dir, const std::string& command, int* exit_code) {
  int status = std::system(("cd '" + dir + "' && " + command + " >.log 2>&1 <.log").c_str());
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::string out = test::ReadFile(dir + "/.log");
  fs::remove(dir + "/.log");
  return out;
}

TEST(WarmBuiltIns, CompileOnlyRunPrintsWhatGlslangPrints) {
  char pattern[] = "/tmp/glint-warm-XXXXXX";
  const std::string dir = mkdtemp(pattern);
  const char* files[][2] = {
      {"a.frag", "#version 450\nlayout(location=0) out vec4 o;\nvoid main() { o = vec4(1); }\n"},
      {"b.vert", "#version 310 es\nvoid main() { gl_Position = vec4(texture2D); }\n"},
      {"c.frag", "precision mediump float;\nvoid main() { gl_FragColor = vec4(1); }\n"},
      {"d.comp", "#version 460 core\nlayout(local_size_x=1) in;\nvoid main() { barrier(); }\n"},
      {"e.frag", "#version 450\nvoid main() { undeclared(); }\n"},
  };
  std::string names;
  for (const auto& file : files) {
    std::ofstream(dir + "/" + file[0]) << file[1];
    names += std::string(" ") + file[0];
  }
  int real_code = 0, ours_code = 0, in_process_code = 0;
  const std::string ours = test::BinaryDir() + "/StandAlone/glslangValidator";
  std::string real = RunIn(dir, "/usr/bin/glslangValidator" + names, &real_code);
  std::string isolated = RunIn(dir, "'" + ours + "'" + names, &ours_code);
  std::string in_process = RunIn(dir, "'" + ours + "' --no-isolate" + names, &in_process_code);
  fs::remove_all(dir);
  EXPECT_EQ(real_code, 2);
  EXPECT_EQ(ours_code, real_code);
  EXPECT_EQ(in_process_code, real_code);
  EXPECT_EQ(isolated, real);
  EXPECT_EQ(in_process, real);
}

}  // namespace
}  // namespace glint::standalone
