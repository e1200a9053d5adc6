// Runs the uniformity analysis over every shader that ../shared/corpus/*/OK_manifest.tsv
// lists, prints the warnings per folder (by class) and writes each warning with its
// reasons to <build>/uniformity_corpus.txt for hand checking. It asserts what must hold
// for real shaders: each compiles, the analysis never refuses, never changes the module,
// and reports only the classes it knows. Two workers; each shader compiled once (with
// -g for line numbers; a module Glint's parser refuses with -g is compiled again
// without, and counted).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "SPIRV/analysis/uniformity.h"
#include "SPIRV/ir/parser.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// --- The corpus: warnings per folder of ../shared/corpus. ---

struct CorpusShader {
  std::string folder, path, stage, env;
};

std::vector<CorpusShader> ReadCorpusManifests() {
  std::vector<CorpusShader> shaders;
  for (const char* folder : {"glslang", "SaschaWillems-Vulkan", "niagara", "dxvk"}) {
    std::istringstream manifest(test::ReadFile(test::SharedRoot() + "/corpus/" + folder + "/OK_manifest.tsv"));
    for (std::string line; std::getline(manifest, line);) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      CorpusShader shader{folder, "", "", ""};
      fields >> shader.path >> shader.stage >> shader.env;
      shaders.push_back(shader);
    }
  }
  return shaders;
}

struct CorpusResult {
  bool compiled = false;
  bool without_lines = false;  // compiled again without -g
  std::string refusal;
  std::vector<std::string> warnings;
  std::string class_of_each;  // 'd' derivative, 's' sample, 'b' barrier, 'o' other
};

// Compiles one shader with the real glslangValidator (with -g, for line numbers; the
// corpus uses #include, which the in-process helper does not) and analyses it once.
bool CompileWithValidator(const CorpusShader& shader, const std::string& scratch, bool line_info,
                          std::vector<uint32_t>* words) {
  std::string dir = test::SharedRoot() + "/corpus/" + shader.folder;
  std::string command = "cd '" + dir + "' && glslangValidator -V " + (line_info ? "-g " : "") + "-S " +
                        shader.stage + " --target-env " + shader.env + " '" + shader.path + "' -o '" + scratch +
                        "' > /dev/null 2>&1";
  if (std::system(command.c_str()) != 0) return false;
  std::string bytes = test::ReadFile(scratch);
  words->resize(bytes.size() / 4);
  std::memcpy(words->data(), bytes.data(), words->size() * 4);
  return true;
}

CorpusResult AnalyzeCorpusShader(const CorpusShader& shader, const std::string& scratch) {
  CorpusResult result;
  std::vector<uint32_t> words;
  if (!CompileWithValidator(shader, scratch, true, &words)) return result;
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  if (!module) {
    // Glint's parser refuses some -g output (an OpLine after a block terminator).
    result.without_lines = true;
    if (!CompileWithValidator(shader, scratch, false, &words)) return result;
    module = ParseModule(words, &error);
    if (!module) {
      result.refusal = "parse: " + error;
      return result;
    }
  }
  result.compiled = true;
  UniformityResult analysis = AnalyzeUniformity(*module);
  result.refusal = analysis.refusal;
  for (const UniformityFinding& finding : analysis.findings) {
    Diagnostic diagnostic;
    diagnostic.severity = Severity::kWarning;
    diagnostic.location = finding.location;
    diagnostic.message = finding.message;
    diagnostic.reasons = finding.reasons;
    result.warnings.push_back(FormatDiagnostic(diagnostic));
    const std::string& m = finding.message;
    result.class_of_each += m.rfind("derivative", 0) == 0 ? 'd' : m.rfind("implicit-LOD", 0) == 0 ? 's'
                            : m.rfind("barrier", 0) == 0 ? 'b' : 'o';
  }
  if (module->Encode() != words) result.refusal += " (the analysis changed the module)";
  return result;
}

// Prints warnings per corpus folder and writes every warning to
// <build>/uniformity_corpus.txt for hand checking. Two workers; each shader compiled once.
TEST(UniformityCorpus, WarningCountsPerFolder) {
  std::vector<CorpusShader> shaders = ReadCorpusManifests();
  ASSERT_GT(shaders.size(), 700u);
  std::vector<CorpusResult> results(shaders.size());
  std::atomic<size_t> next{0};
  auto work = [&](int worker) {
    std::string scratch = test::BinaryDir() + "/uniformity_corpus_" + std::to_string(worker) + ".spv";
    for (size_t i = next++; i < shaders.size(); i = next++) results[i] = AnalyzeCorpusShader(shaders[i], scratch);
  };
  std::thread second(work, 1);
  work(0);
  second.join();

  struct Counts {
    int shaders = 0, compiled = 0, without_lines = 0, with_warnings = 0, warnings = 0, d = 0, s = 0, b = 0, o = 0;
  };
  std::map<std::string, Counts> per_folder;
  std::ofstream log(test::BinaryDir() + "/uniformity_corpus.txt");
  for (size_t i = 0; i < shaders.size(); ++i) {
    Counts& counts = per_folder[shaders[i].folder];
    const CorpusResult& result = results[i];
    ++counts.shaders;
    counts.compiled += result.compiled;
    counts.without_lines += result.without_lines;
    EXPECT_EQ(result.refusal, "") << shaders[i].folder << "/" << shaders[i].path;
    if (result.warnings.empty()) continue;
    ++counts.with_warnings;
    counts.warnings += static_cast<int>(result.warnings.size());
    for (char c : result.class_of_each) (c == 'd' ? counts.d : c == 's' ? counts.s : c == 'b' ? counts.b : counts.o)++;
    log << "== " << shaders[i].folder << "/" << shaders[i].path << "\n";
    for (const std::string& warning : result.warnings) log << warning << "\n";
  }
  std::printf("%-22s %8s %8s %8s %14s %9s %11s %8s %8s\n", "folder", "shaders", "compiled", "no -g", "with warnings",
              "warnings", "derivative", "sample", "barrier");
  for (const auto& [folder, c] : per_folder) {
    std::printf("%-22s %8d %8d %8d %14d %9d %11d %8d %8d\n", folder.c_str(), c.shaders, c.compiled, c.without_lines,
                c.with_warnings, c.warnings, c.d, c.s, c.b);
    EXPECT_EQ(c.compiled, c.shaders) << folder << ": every shader of OK_manifest.tsv compiles";
    EXPECT_EQ(c.o, 0) << folder;
  }
}

}  // namespace
}  // namespace glint::spirv
