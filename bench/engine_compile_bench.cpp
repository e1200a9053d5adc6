// The compile an engine pays: one process, glslang's built-in symbol tables already set
// up, each shader parsed (TShader), linked (TProgram) and turned into SPIR-V once with
// glslang 12 alone (glslang::GlslangToSpv) and once through Glint: with the defaults in
// glslang's own call shape (what an engine gets by renaming its call), and with robust
// access, full range analysis and the range report (the text report formatted too, as
// --dump-ranges prints it). Each shader is first compiled once on every side unmeasured,
// so what is measured is a compile after the first.
//
// Instructions are counted by callgrind: run under
//   valgrind --tool=callgrind --dump-instr=no --dump-line=no
// the bench zeroes the counts before each measured step and dumps them after it
// ("<row> <side> <step>"), so each dump holds one step of one shader with its call
// graph (the share of each pass and analysis). Each step is measured in two rounds. bench/engine_compile_cost.py runs it in
// shards, reads the dumps and prints the tables. Without valgrind the bench prints CPU
// microseconds per step instead (noisy; the instruction counts are the measure).
//
// Usage: engine_compile_bench [--sides glslang,default,robust] MANIFEST [FIRST LAST]
// MANIFEST is a TSV of "path<TAB>stage<TAB>target_env" rows (the corpus's OK_manifest.tsv
// format; '#' starts a comment), paths relative to the manifest's folder; FIRST..LAST
// (0-based, inclusive) selects rows. Stages are glslangValidator's names (vert, frag,
// comp, ...); target environments vulkan1.0 .. vulkan1.3 and opengl, as --target-env.
// Prints one line per shader and side: "row<TAB>side<TAB>step<TAB>cpu_us<TAB>words".
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "glint/glint.h"
#include "glint/report_format.h"

namespace {

struct Row {
  std::string path;
  std::string stage;
  std::string env;
};

const std::map<std::string, EShLanguage>& Stages() {
  static const std::map<std::string, EShLanguage> kStages = {
      {"vert", EShLangVertex},       {"tesc", EShLangTessControl},
      {"tese", EShLangTessEvaluation}, {"geom", EShLangGeometry},
      {"frag", EShLangFragment},     {"comp", EShLangCompute},
      {"rgen", EShLangRayGen},       {"rint", EShLangIntersect},
      {"rahit", EShLangAnyHit},      {"rchit", EShLangClosestHit},
      {"rmiss", EShLangMiss},        {"rcall", EShLangCallable},
      {"task", EShLangTask},         {"mesh", EShLangMesh}};
  return kStages;
}

// How glslangValidator -V --target-env ENV sets up a compile.
struct Environment {
  glslang::EShClient client = glslang::EShClientVulkan;
  glslang::EShTargetClientVersion client_version = glslang::EShTargetVulkan_1_0;
  glslang::EShTargetLanguageVersion spirv_version = glslang::EShTargetSpv_1_0;
  EShMessages messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
};

bool EnvironmentFor(const std::string& name, Environment* env) {
  if (name == "opengl") {
    env->client = glslang::EShClientOpenGL;
    env->client_version = glslang::EShTargetOpenGL_450;
    env->messages = EShMsgSpvRules;
    return true;
  }
  static const std::map<std::string, std::pair<glslang::EShTargetClientVersion,
                                               glslang::EShTargetLanguageVersion>>
      kVulkan = {{"vulkan1.0", {glslang::EShTargetVulkan_1_0, glslang::EShTargetSpv_1_0}},
                 {"vulkan1.1", {glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3}},
                 {"vulkan1.2", {glslang::EShTargetVulkan_1_2, glslang::EShTargetSpv_1_5}},
                 {"vulkan1.3", {glslang::EShTargetVulkan_1_3, glslang::EShTargetSpv_1_6}}};
  auto found = kVulkan.find(name);
  if (found == kVulkan.end()) return false;
  env->client_version = found->second.first;
  env->spirv_version = found->second.second;
  return true;
}

std::string ReadFile(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  *ok = static_cast<bool>(in) || in.eof();
  return text.str();
}

std::string Folder(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// #include "x" relative to the including file's folder (then the shader's), as
// glslangValidator resolves it; engines bring an includer of their own like this one.
class FolderIncluder : public glslang::TShader::Includer {
 public:
  explicit FolderIncluder(std::string folder) : folder_(std::move(folder)) {}

  IncludeResult* includeLocal(const char* name, const char* includer, size_t) override {
    std::string from = includer && *includer ? Folder(includer) : folder_;
    for (const std::string& base : {from, folder_}) {
      std::string path = base + "/" + name;
      bool ok = false;
      std::string text = ReadFile(path, &ok);
      if (!ok || text.empty()) continue;
      auto* held = new std::string(std::move(text));
      return new IncludeResult(path, held->data(), held->size(), held);
    }
    return nullptr;
  }
  IncludeResult* includeSystem(const char* name, const char* includer, size_t depth) override {
    return includeLocal(name, includer, depth);
  }
  void releaseInclude(IncludeResult* result) override {
    if (!result) return;
    delete static_cast<std::string*>(result->userData);
    delete result;
  }

 private:
  std::string folder_;
};

double CpuMicroseconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return now.tv_sec * 1e6 + now.tv_nsec / 1e3;
}

// One measured step: callgrind counts exactly it, then dumps under `label`.
template <typename Step>
auto Measure(const std::string& label, double* cpu_us, Step step) {
  // Zeroing and dumping cover every thread (Glint runs glslang's code generation on a
  // big-stack thread of its own); toggling collection would cover the calling one only.
  CALLGRIND_ZERO_STATS;
  double start = CpuMicroseconds();
  auto result = step();
  *cpu_us = CpuMicroseconds() - start;
  CALLGRIND_DUMP_STATS_AT(label.c_str());
  return result;
}

enum class Side { kGlslang, kGlintDefaults, kGlintRobust };

const char* SideName(Side side) {
  switch (side) {
    case Side::kGlslang: return "glslang";
    case Side::kGlintDefaults: return "default";
    case Side::kGlintRobust: return "robust";
  }
  return "?";
}

// The SPIR-V step of one side; returns the module's word count (0: failed).
size_t ToSpirv(Side side, const glslang::TIntermediate& intermediate) {
  glslang::SpvOptions spv_options;
  spv::SpvBuildLogger logger;
  std::vector<unsigned int> words;
  switch (side) {
    case Side::kGlslang:
      glslang::GlslangToSpv(intermediate, words, &logger, &spv_options);
      return words.size();
    case Side::kGlintDefaults:
      glint::GlslangToSpv(intermediate, words, &logger, &spv_options);
      return words.size();
    case Side::kGlintRobust: {
      glint::Options options;
      options.robust_access = true;
      options.range_analysis = glint::RangeAnalysisMode::kFull;
      options.collect_ranges = true;
      glint::Report report;
      std::vector<uint32_t> out;
      if (!glint::GlslangToSpv(intermediate, out, &spv_options, options, &report)) return 0;
      std::string text = glint::FormatRangeReport(report, /*json=*/false);
      return text.empty() && report.accesses.size() ? 0 : out.size();
    }
  }
  return 0;
}

// Parse, link and SPIR-V of one shader on one side; `label` is null for the unmeasured
// first compile. Returns false when glslang refuses the shader.
bool Compile(const Row& row, const std::string& root, Side side, const std::string* label) {
  Environment env;
  auto stage = Stages().find(row.stage);
  if (stage == Stages().end() || !EnvironmentFor(row.env, &env)) return false;
  bool ok = false;
  std::string path = root + "/" + row.path;
  std::string source = ReadFile(path, &ok);
  if (!ok) return false;
  const char* text = source.c_str();
  const char* name = path.c_str();
  auto shader = std::make_unique<glslang::TShader>(stage->second);
  shader->setStringsWithLengthsAndNames(&text, nullptr, &name, 1);
  shader->setEnvInput(glslang::EShSourceGlsl, stage->second, env.client, 100);
  shader->setEnvClient(env.client, env.client_version);
  shader->setEnvTarget(glslang::EShTargetSpv, env.spirv_version);
  FolderIncluder includer(Folder(path));
  double us[3] = {};
  auto step = [&](int index, const char* step_name, auto body) {
    if (!label) return body();
    return Measure(*label + " " + step_name, &us[index], body);
  };
  bool parsed = step(0, "parse", [&] {
    return shader->parse(GetDefaultResources(), 100, false, env.messages, includer);
  });
  if (!parsed) return false;
  glslang::TProgram program;
  program.addShader(shader.get());
  if (!step(1, "link", [&] { return program.link(env.messages); })) return false;
  size_t words = step(2, "spirv", [&] {
    return ToSpirv(side, *program.getIntermediate(stage->second));
  });
  if (label)
    std::printf("%s\tparse %.0f\tlink %.0f\tspirv %.0f\twords %zu\n", label->c_str(), us[0],
                us[1], us[2], words);
  return words != 0;
}

std::vector<Row> ReadManifest(const std::string& path) {
  std::vector<Row> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Row row;
    if (std::getline(fields, row.path, '\t') && std::getline(fields, row.stage, '\t') &&
        std::getline(fields, row.env, '\t'))
      rows.push_back(row);
  }
  return rows;
}

std::vector<Side> ParseSides(const std::string& list) {
  std::vector<Side> sides;
  std::istringstream names(list);
  std::string name;
  while (std::getline(names, name, ',')) {
    for (Side side : {Side::kGlslang, Side::kGlintDefaults, Side::kGlintRobust})
      if (name == SideName(side)) sides.push_back(side);
  }
  return sides;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Side> sides = {Side::kGlslang, Side::kGlintDefaults, Side::kGlintRobust};
  int arg = 1;
  if (arg + 1 < argc && std::strcmp(argv[arg], "--sides") == 0) {
    sides = ParseSides(argv[arg + 1]);
    arg += 2;
  }
  if (arg >= argc || sides.empty()) {
    std::fprintf(stderr,
                 "usage: engine_compile_bench [--sides glslang,default,robust] MANIFEST "
                 "[FIRST LAST]\n");
    return 2;
  }
  std::string manifest = argv[arg];
  std::vector<Row> rows = ReadManifest(manifest);
  size_t first = arg + 2 < argc ? std::stoul(argv[arg + 1]) : 0;
  size_t last = arg + 2 < argc ? std::stoul(argv[arg + 2]) : rows.size() - 1;
  if (rows.empty()) {
    std::fprintf(stderr, "no rows in %s\n", manifest.c_str());
    return 2;
  }
  glslang::InitializeProcess();
  std::string root = Folder(manifest);
  int failed = 0;
  for (size_t i = first; i <= last && i < rows.size(); ++i) {
    // The first compile of each shader (and of the process) is not measured.
    bool compiles = true;
    for (Side side : sides) compiles = Compile(rows[i], root, side, nullptr) && compiles;
    if (!compiles) {
      std::printf("%zu\t%s\tskipped: does not compile on every side\n", i, rows[i].path.c_str());
      ++failed;
      continue;
    }
    // Two measured rounds: callgrind may charge the first dump after unmeasured work on
    // Glint's big-stack thread with some of that work; the driver keeps each step's
    // smaller count.
    for (int round = 0; round < 2; ++round) {
      for (Side side : sides) {
        std::string label = std::to_string(i) + " " + SideName(side);
        Compile(rows[i], root, side, &label);
      }
    }
  }
  glslang::FinalizeProcess();
  std::fprintf(stderr, "%d rows skipped\n", failed);
  return 0;
}
