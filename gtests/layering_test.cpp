// The layers of the source tree, checked on the sources themselves. kLayers lists every
// folder of product code and the folders its includes may name; an include that names
// any other folder of the project fails the test. docs/ARCHITECTURE.md draws the same
// table. The order, lowest first:
//   glslang/types/   the public value types (options, diagnostics, reports), shared by
//                    the API and the SPIR-V layer; include nothing of the project.
//   SPIRV/ir/        the IR; no analysis, no pass.
//   SPIRV/analysis/  by job: facts/ (shared facts: control dependence, loop shapes, the
//                    relation and interval vocabulary), memory/ (value flow, pointer
//                    origins, what parameters hold), then access/, convergence/, range/
//                    and uniformity/, which never include each other except uniformity
//                    on convergence; the analysis context (analysis_context.h) on top.
//   SPIRV/passes/    the passes; SPIRV/ (validation) beside them.
//   glslang/...      front_end/ (drives glslang), reports/ (the formatters: the public
//                    report only), api/ (the public API), worker/ (the glint-compile
//                    process and its host side: takes from api/ only the compile it
//                    runs, c_api_internal.h), isolation/ (the isolated entry points).
//   StandAlone/, glslc/, Audit/, Execution/, examples/: the programs (glslc/ may take
//                    StandAlone/'s output-file writer).
// "<glslang>" stands for the glslang package's headers (<glslang/...>): only the folders
// that drive glslang include them, so the SPIR-V layer never sees glslang. Within the
// range analysis, its parts include its shared types (range_types.h), never the
// analysis they serve (integer_range_analysis.h) or its evaluator.
// The build enforces part of this too (SPIRV's targets see only glslang/types/ of the
// public headers); this test covers every folder, <glslang/...> included.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace glint::test {
namespace {

namespace fs = std::filesystem;

constexpr char kGlslangPackage[] = "<glslang>";

// Each folder of product code (relative to the root; a folder's own files only, its
// subfolders are layers of their own) and the folders it may include besides itself.
const std::map<std::string, std::set<std::string>>& Layers() {
  static const auto* layers = new std::map<std::string, std::set<std::string>>{
      {"glslang/types/glint", {}},
      {"glslang/include/glint", {"glslang/types/glint"}},
      {"SPIRV/ir", {"glslang/types/glint"}},
      {"SPIRV/analysis/facts", {"SPIRV/ir", "glslang/types/glint"}},
      {"SPIRV/analysis/memory", {"SPIRV/analysis/facts", "SPIRV/ir", "glslang/types/glint"}},
      {"SPIRV/analysis/access",
       {"SPIRV/analysis/memory", "SPIRV/analysis/facts", "SPIRV/ir", "glslang/types/glint"}},
      {"SPIRV/analysis/convergence", {"SPIRV/analysis/facts", "SPIRV/ir", "glslang/types/glint"}},
      {"SPIRV/analysis/range",
       {"SPIRV/analysis/memory", "SPIRV/analysis/facts", "SPIRV/ir", "glslang/types/glint"}},
      {"SPIRV/analysis/uniformity",
       {"SPIRV/analysis/convergence", "SPIRV/analysis/memory", "SPIRV/analysis/facts",
        "SPIRV/ir", "glslang/types/glint"}},
      {"SPIRV/analysis",
       {"SPIRV/analysis/access", "SPIRV/analysis/convergence", "SPIRV/analysis/facts",
        "SPIRV/analysis/memory", "SPIRV/analysis/range", "SPIRV/analysis/uniformity", "SPIRV/ir",
        "glslang/types/glint"}},
      {"SPIRV/passes",
       {"SPIRV/analysis", "SPIRV/analysis/access", "SPIRV/analysis/convergence",
        "SPIRV/analysis/facts", "SPIRV/analysis/memory", "SPIRV/analysis/range",
        "SPIRV/analysis/uniformity", "SPIRV/ir", "glslang/types/glint"}},
      {"SPIRV", {"SPIRV/ir", "glslang/types/glint"}},
      {"glslang/front_end", {"glslang/include/glint", "glslang/types/glint", kGlslangPackage}},
      {"glslang/reports", {"glslang/include/glint", "glslang/types/glint"}},
      {"glslang/api",
       {"glslang/front_end", "glslang/include/glint", "glslang/types/glint", "SPIRV", "SPIRV/ir",
        "SPIRV/passes", kGlslangPackage}},
      {"glslang/worker",
       {"glslang/api", "glslang/front_end", "glslang/include/glint", "glslang/types/glint", kGlslangPackage}},
      {"glslang/isolation", {"glslang/api", "glslang/worker", "glslang/include/glint", "glslang/types/glint"}},
      {"StandAlone",
       {"glslang/worker", "glslang/front_end", "glslang/include/glint", "glslang/types/glint", "SPIRV",
        "SPIRV/ir", "SPIRV/passes", kGlslangPackage}},
      {"glslc",
       {"StandAlone", "glslang/front_end", "glslang/include/glint", "glslang/types/glint",
        kGlslangPackage}},
      {"libshaderc", {"libshaderc/include/shaderc", "glslc", "glslang/front_end",
                      "glslang/include/glint", "glslang/types/glint", kGlslangPackage}},
      {"libshaderc/include/shaderc", {}},
      {"Execution",
       {"glslang/front_end", "glslang/include/glint", "glslang/types/glint", "SPIRV", "SPIRV/ir",
        kGlslangPackage}},
      {"Audit",
       {"Execution", "glslang/front_end", "glslang/include/glint", "glslang/types/glint", "SPIRV", "SPIRV/ir",
        "SPIRV/passes", kGlslangPackage}},
      {"examples", {"glslang/include/glint", "glslang/types/glint", kGlslangPackage}},
      {"examples/engine", {"glslang/include/glint", "glslang/types/glint", kGlslangPackage}},
  };
  return *layers;
}

// The one header of api/ the worker takes: the compile it runs and the input it carries.
constexpr char kWorkerTakesFromApi[] = "glslang/api/c_api_internal.h";

// The layer holding `path` (relative to the root): the longest listed folder that is
// the path's own directory. Empty when none is.
std::string LayerOf(const std::string& path) {
  std::string folder = fs::path(path).parent_path().generic_string();
  return Layers().count(folder) ? folder : std::string();
}

struct Include {
  std::string file;    // the including file, relative to the root
  int line = 0;
  std::string text;    // the include line
  std::string target;  // the included file relative to the root, or kGlslangPackage
};

// Every include of the project's own headers (and of <glslang/...>) in the files under
// `root` (relative paths against `root`), resolved to the file it names: against the
// root, the including file's folder, or glslang/types/ and glslang/include/ for
// "glint/..." (the public headers' include directories). Only files under `subdir`.
std::vector<Include> IncludesUnder(const fs::path& root, const std::string& subdir = "") {
  static const std::regex kInclude(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  std::vector<Include> found;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root / subdir)) {
    const std::string extension = entry.path().extension().string();
    if (!entry.is_regular_file() ||
        (extension != ".h" && extension != ".cpp" && extension != ".inc" && extension != ".c"))
      continue;
    std::string file = fs::relative(entry.path(), root).generic_string();
    std::ifstream in(entry.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::smatch match;
      if (!std::regex_search(line, match, kInclude)) continue;
      std::string named = match[2].str();
      Include include{file, number, line, ""};
      if (match[1].str() == "<") {
        if (named.rfind("glslang/", 0) != 0) continue;  // the standard library, SPIRV-Tools, ...
        include.target = kGlslangPackage;
      } else {
        std::vector<fs::path> candidates = {root / named, entry.path().parent_path() / named};
        if (named.rfind("glint/", 0) == 0) {
          candidates.push_back(root / "glslang" / "types" / named);
          candidates.push_back(root / "glslang" / "include" / named);
        }
        for (const fs::path& candidate : candidates)
          if (fs::exists(candidate)) {
            include.target = fs::relative(fs::weakly_canonical(candidate), root).generic_string();
            break;
          }
        // Generated at build time from glslang/include/glint/version.h.in.
        if (named == "glint/version.h") include.target = "glslang/include/glint/version.h";
        if (include.target.empty()) continue;  // generated at build time (grammar tables)
      }
      found.push_back(include);
    }
  }
  return found;
}

std::string Describe(const Include& include) {
  return include.file + ":" + std::to_string(include.line) + ": " + include.text;
}

// The includes under `root` that kLayers does not allow.
std::vector<std::string> Violations(const fs::path& root) {
  std::vector<std::string> found;
  for (const Include& include : IncludesUnder(root)) {
    std::string from = LayerOf(include.file);
    if (from.empty()) continue;  // tests, benchmarks, tools: not product layers
    std::string to = include.target == kGlslangPackage ? include.target : LayerOf(include.target);
    if (to.empty() || to == from) continue;
    const std::set<std::string>& allowed = Layers().at(from);
    if (!allowed.count(to)) {
      found.push_back(Describe(include) + "   [" + from + " may not include " + to + "]");
      continue;
    }
    if (from == "glslang/worker" && to == "glslang/api" && include.target != kWorkerTakesFromApi)
      found.push_back(Describe(include) + "   [the worker takes only " + kWorkerTakesFromApi + "]");
  }
  return found;
}

std::string Lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

TEST(Layering, EveryIncludeFollowsTheLayers) {
  std::vector<std::string> found = Violations(fs::path(SourceRoot()));
  EXPECT_TRUE(found.empty()) << Lines(found);
}

// Every folder of product code is a layer: a new folder must be placed in the table
// (and in docs/ARCHITECTURE.md) before its includes are checked.
TEST(Layering, EveryProductFolderIsALayer) {
  const fs::path root = SourceRoot();
  std::vector<std::string> missing;
  for (const char* top :
       {"SPIRV", "glslang", "StandAlone", "glslc", "libshaderc", "Audit", "Execution",
        "examples"}) {
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root / top)) {
      const std::string extension = entry.path().extension().string();
      if (!entry.is_regular_file() || (extension != ".h" && extension != ".cpp")) continue;
      std::string folder = fs::relative(entry.path().parent_path(), root).generic_string();
      if (!Layers().count(folder) &&
          std::find(missing.begin(), missing.end(), folder) == missing.end())
        missing.push_back(folder);
    }
  }
  EXPECT_TRUE(missing.empty()) << Lines(missing);
}

// No folder reaches a folder that reaches it back, through any chain of allowed includes.
TEST(Layering, TheTableHasNoCycle) {
  for (const auto& [start, _] : Layers()) {
    std::set<std::string> seen;
    std::vector<std::string> work(Layers().at(start).begin(), Layers().at(start).end());
    while (!work.empty()) {
      std::string next = work.back();
      work.pop_back();
      EXPECT_NE(next, start) << start << " reaches itself";
      if (next == start || !seen.insert(next).second || !Layers().count(next)) continue;
      for (const std::string& further : Layers().at(next)) work.push_back(further);
    }
  }
}

// Inside the range analysis, a part names the shared types, not the analysis it serves.
TEST(Layering, RangePartsIncludeTheTypesNotTheAnalysis) {
  std::vector<std::string> found;
  for (const Include& include : IncludesUnder(fs::path(SourceRoot()), "SPIRV/analysis/range")) {
    std::string name = fs::path(include.file).filename().string();
    bool evaluator_file = name.rfind("integer_range_", 0) == 0 &&
                          name != "integer_range_memo.h" && name != "integer_range_nesting.h" &&
                          name.rfind("integer_range_origins", 0) != 0;
    std::string target = fs::path(include.target).filename().string();
    if (!evaluator_file &&
        (target == "integer_range_analysis.h" || target == "integer_range_evaluator.h"))
      found.push_back(Describe(include));
  }
  EXPECT_TRUE(found.empty()) << Lines(found);
}

// The scan itself finds what it is meant to find: each spelling of a forbidden include,
// planted in a scratch tree laid out like the project, is reported; an allowed one is not.
TEST(Layering, ScanFindsPlantedIncludes) {
  fs::path root = fs::temp_directory_path() / ("glint_layering_" + std::to_string(::getpid()));
  fs::remove_all(root);
  for (const char* folder : {"SPIRV/ir", "SPIRV/passes", "SPIRV/analysis/range",
                             "SPIRV/analysis/uniformity", "glslang/types/glint",
                             "glslang/include/glint", "glslang/worker", "glslang/api"})
    fs::create_directories(root / folder);
  for (const char* header :
       {"SPIRV/ir/module.h", "SPIRV/passes/pass.h", "SPIRV/analysis/uniformity/uniformity.h",
        "SPIRV/analysis/range/integer_range_analysis.h", "glslang/types/glint/types.h",
        "glslang/include/glint/glint.h", "glslang/api/c_api_internal.h", "glslang/api/process.h"})
    std::ofstream(root / header) << "\n";
  std::ofstream(root / "SPIRV/analysis/range/a.h")
      << "#include \"SPIRV/ir/module.h\"\n"                        // allowed
         "#include \"glint/types.h\"\n"                            // allowed
         "#include \"glint/glint.h\"\n"                            // the public API
         "  #  include <glslang/Public/ShaderLang.h>\n"           // the glslang package
         "#include \"../../passes/pass.h\"\n"                      // a pass, relatively
         "#include \"SPIRV/analysis/uniformity/uniformity.h\"\n"  // a sibling analysis
         "#include \"integer_range_analysis.h\"\n";                // the analysis it serves
  std::ofstream(root / "glslang/worker/w.cpp") << "#include \"glslang/api/c_api_internal.h\"\n"
                                                  "#include \"glslang/api/process.h\"\n";
  std::vector<std::string> found = Violations(root);
  fs::remove_all(root);
  ASSERT_EQ(found.size(), 5u) << Lines(found);
  std::string all = Lines(found);
  EXPECT_NE(all.find("a.h:3:"), std::string::npos) << all;
  EXPECT_NE(all.find("a.h:4:"), std::string::npos) << all;
  EXPECT_NE(all.find("a.h:5:"), std::string::npos) << all;
  EXPECT_NE(all.find("a.h:6:"), std::string::npos) << all;
  EXPECT_NE(all.find("w.cpp:2:"), std::string::npos) << all;
}

}  // namespace
}  // namespace glint::test
