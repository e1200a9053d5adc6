// The layers of the source tree, checked on the sources themselves:
//   SPIRV/           includes nothing glslang-facing: no glint/ (the public API) and no
//                    glslang/ header (neither Glint's front end nor the glslang
//                    package's <glslang/...>); its options and report types are its own
//                    (SPIRV/passes/pass_options.h, pass_report.h, SPIRV/diagnostics.h).
//   SPIRV/analysis/  includes no pass (SPIRV/passes/): passes ask analyses, never the
//                    other way round.
//   SPIRV/ir/        includes neither analyses nor passes.
//   glslang/front_end/  (driving glslang) includes none of the other jobs' folders.
//   glslang/reports/    (the formatters) reads glint::Report only: no front end, API
//                       implementation or worker.
//   glslang/worker/     (the worker process, its host side, the wire) takes from api/
//                       only the input it carries (c_api_internal.h), and no formatter.
// The build enforces the first for glint/ too (SPIRV's targets do not see
// glslang/include); this test also covers what an include path cannot stop: the
// installed <glslang/...> headers and the analysis/pass direction.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace glint::test {
namespace {

namespace fs = std::filesystem;

// "file:line: #include ..." for every include in the C/C++ sources under `dir` whose
// named path starts with one of `forbidden` (after a leading "../" or "./", so a
// relative climb out of the directory counts too).
std::vector<std::string> ForbiddenIncludes(const fs::path& dir,
                                           const std::vector<std::string>& forbidden) {
  static const std::regex kInclude(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
  std::vector<std::string> found;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir)) {
    const std::string extension = entry.path().extension().string();
    if (!entry.is_regular_file() ||
        (extension != ".h" && extension != ".cpp" && extension != ".inc"))
      continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::smatch match;
      if (!std::regex_search(line, match, kInclude)) continue;
      std::string path = match[1].str();
      while (path.rfind("../", 0) == 0 || path.rfind("./", 0) == 0)
        path.erase(0, path.find('/') + 1);
      for (const std::string& prefix : forbidden)
        if (path.rfind(prefix, 0) == 0)
          found.push_back(entry.path().string() + ":" + std::to_string(number) + ": " + line);
    }
  }
  return found;
}

std::string Lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

TEST(Layering, SpirvIncludesNothingGlslangFacing) {
  std::vector<std::string> found;
  for (const std::string& line :
       ForbiddenIncludes(fs::path(SourceRoot()) / "SPIRV", {"glint/", "glslang/"}))
    if (line.find("\"glint/types.h\"") == std::string::npos &&
        line.find("\"glint/export.h\"") == std::string::npos)
      found.push_back(line);  // the public value types are the SPIR-V layer's too
  EXPECT_TRUE(found.empty()) << Lines(found);
}

TEST(Layering, AnalysesIncludeNoPass) {
  std::vector<std::string> found = ForbiddenIncludes(fs::path(SourceRoot()) / "SPIRV" / "analysis",
                                                     {"SPIRV/passes/", "passes/"});
  EXPECT_TRUE(found.empty()) << Lines(found);
}

TEST(Layering, IrIncludesNoAnalysisOrPass) {
  std::vector<std::string> found =
      ForbiddenIncludes(fs::path(SourceRoot()) / "SPIRV" / "ir",
                        {"SPIRV/passes/", "passes/", "SPIRV/analysis/", "analysis/"});
  EXPECT_TRUE(found.empty()) << Lines(found);
}

TEST(Layering, FrontEndIncludesNoOtherJob) {
  std::vector<std::string> found =
      ForbiddenIncludes(fs::path(SourceRoot()) / "glslang" / "front_end",
                        {"glslang/api/", "glslang/reports/", "glslang/worker/"});
  EXPECT_TRUE(found.empty()) << Lines(found);
}

TEST(Layering, ReportsReadOnlyThePublicReport) {
  std::vector<std::string> found =
      ForbiddenIncludes(fs::path(SourceRoot()) / "glslang" / "reports",
                        {"glslang/front_end/", "glslang/api/", "glslang/worker/", "SPIRV/"});
  EXPECT_TRUE(found.empty()) << Lines(found);
}

TEST(Layering, WorkerTakesOnlyTheInputFromTheApi) {
  std::vector<std::string> found;
  for (const std::string& line :
       ForbiddenIncludes(fs::path(SourceRoot()) / "glslang" / "worker",
                         {"glslang/api/", "glslang/reports/"}))
    if (line.find("\"glslang/api/c_api_internal.h\"") == std::string::npos) found.push_back(line);
  EXPECT_TRUE(found.empty()) << Lines(found);
}

// The scan itself finds what it is meant to find: each spelling of a forbidden include,
// planted in a scratch tree, is reported; an allowed one is not.
TEST(Layering, ScanFindsPlantedIncludes) {
  fs::path root = fs::temp_directory_path() / ("glint_layering_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "analysis");
  std::ofstream(root / "analysis" / "a.h") << "#include \"SPIRV/ir/module.h\"\n"
                                              "#include \"glint/glint.h\"\n"
                                              "  #  include <glslang/Public/ShaderLang.h>\n"
                                              "#include \"../passes/pass.h\"\n";
  std::ofstream(root / "b.cpp") << "#include \"SPIRV/passes/pass.h\"\n";
  std::vector<std::string> glslang_facing = ForbiddenIncludes(root, {"glint/", "glslang/"});
  std::vector<std::string> passes =
      ForbiddenIncludes(root / "analysis", {"SPIRV/passes/", "passes/"});
  fs::remove_all(root);
  EXPECT_EQ(glslang_facing.size(), 2u) << Lines(glslang_facing);
  ASSERT_EQ(passes.size(), 1u) << Lines(passes);
  EXPECT_NE(passes[0].find("a.h:4:"), std::string::npos) << passes[0];
}

}  // namespace
}  // namespace glint::test
