// hoist-constant-tables on a corpus (docs/CORPUS.md): the pass's share of compile time, measured
// side by side in one run, and a corpus-wide check that it never makes a module invalid.
//
// For every shader listed in <corpus>/<folder>/OK_manifest.tsv and every requested
// target environment, it compiles once with glslang in-process (parse, link,
// GlslangToSpv: the time glslang itself takes), then times Glint's parse of the words,
// the pass, and the encode of a changed module. It validates glslang's output and the
// pass's output with spirv-val for that environment (outside the timed regions) and
// counts the tables hoisted per folder and environment.
//
// Usage: hoist_constant_tables_bench [--envs manifest|all|<env>[,<env>...]] [--corpus DIR]
//                                    [--repeat N]
//   --repeat N (default 3): each shader is compiled N times and each part's fastest
//   time is kept, so that a preempted run on a shared machine does not skew the ratio;
//   manifest (default): each shader's own environment from OK_manifest.tsv;
//   all: opengl, vulkan1.0, vulkan1.1, spirv1.4 (vulkan1.1 + SPIR-V 1.4), vulkan1.2,
//   vulkan1.3 (a shader glslang rejects for an environment is counted, not an error).
// Exit status 1 when the pass turned a module glslang made valid into an invalid one.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <glslang/Public/ShaderLang.h>

#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/hoist_constant_tables.h"
#include "SPIRV/validate.h"
#include "glslang/front_end/compile_driver.h"

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point begin, Clock::time_point end) {
  return std::chrono::duration<double>(end - begin).count();
}

std::string ReadText(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = static_cast<bool>(in);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

struct EnvSpec {
  std::string name;  // a --target-env spelling frontend::SetTargetEnvironment knows
  glint::TargetEnv target;
};

const std::vector<EnvSpec>& AllEnvs() {
  static const std::vector<EnvSpec> envs = {
      {"opengl", glint::TargetEnv::kOpenGL45},    {"vulkan1.0", glint::TargetEnv::kVulkan10},
      {"vulkan1.1", glint::TargetEnv::kVulkan11}, {"spirv1.4", glint::TargetEnv::kVulkan11},
      {"vulkan1.2", glint::TargetEnv::kVulkan12}, {"vulkan1.3", glint::TargetEnv::kVulkan13},
  };
  return envs;
}

const EnvSpec* FindEnv(const std::string& name) {
  for (const EnvSpec& env : AllEnvs())
    if (env.name == name) return &env;
  return nullptr;
}

// glslangValidator -V -S <stage> --target-env <env> <path>, in-process, through the
// library's compile driver (its includer resolves #include "x" as glslangValidator does).
bool CompileWithGlslang(const std::string& path, const std::string& source, EShLanguage stage,
                        const EnvSpec& env, std::vector<uint32_t>* words) {
  glint::frontend::SourceCompile request(source, glint::frontend::StageName(stage), env.name);
  request.name = path;
  std::string error;
  return glint::frontend::CompileSourceToSpirv(request, words, &error);
}

struct Tally {
  int shaders = 0, compiled = 0, glslang_valid = 0, changed = 0, still_valid = 0, broken = 0;
  uint64_t tables = 0;
  double glslang_s = 0, parse_s = 0, pass_s = 0, encode_s = 0;

  void Add(const Tally& o) {
    shaders += o.shaders, compiled += o.compiled, glslang_valid += o.glslang_valid;
    changed += o.changed, still_valid += o.still_valid, broken += o.broken, tables += o.tables;
    glslang_s += o.glslang_s, parse_s += o.parse_s, pass_s += o.pass_s, encode_s += o.encode_s;
  }
};

struct ManifestRow {
  std::string path, stage, env;
};

std::vector<ManifestRow> ReadManifest(const std::string& folder_path) {
  bool ok = false;
  std::istringstream in(ReadText(folder_path + "/OK_manifest.tsv", &ok));
  std::vector<ManifestRow> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    ManifestRow row;
    std::getline(fields, row.path, '\t');
    std::getline(fields, row.stage, '\t');
    std::getline(fields, row.env, '\t');
    rows.push_back(row);
  }
  return rows;
}

struct Timings {
  double glslang_s = 0, parse_s = 0, pass_s = 0, encode_s = 0;
  void KeepFaster(const Timings& o) {
    glslang_s = std::min(glslang_s, o.glslang_s), parse_s = std::min(parse_s, o.parse_s);
    pass_s = std::min(pass_s, o.pass_s), encode_s = std::min(encode_s, o.encode_s);
  }
};

// One timed compile + pass. `words`/`output` get glslang's and the pass's words.
bool TimeOnce(const std::string& path, const std::string& source, EShLanguage stage,
              const EnvSpec& env, Timings* timings, std::vector<uint32_t>* words,
              std::vector<uint32_t>* output, glint::spirv::PassResult* result,
              std::vector<glint::spirv::ConstantTableDecision>* decisions) {
  words->clear();
  output->clear();
  Clock::time_point t0 = Clock::now();
  bool compiled = CompileWithGlslang(path, source, stage, env, words);
  Clock::time_point t1 = Clock::now();
  if (!compiled) return false;
  std::string error;
  std::optional<glint::spirv::Module> module = glint::spirv::ParseModule(*words, &error);
  Clock::time_point t2 = Clock::now();
  if (!module) {
    std::printf("PARSE FAILED %s (%s): %s\n", path.c_str(), env.name.c_str(), error.c_str());
    return false;
  }
  decisions->clear();
  *result = glint::spirv::HoistConstantTables(*module, decisions);
  Clock::time_point t3 = Clock::now();
  if (result->status == glint::spirv::PassStatus::kChanged) *output = module->Encode();
  Clock::time_point t4 = Clock::now();
  *timings = {Seconds(t0, t1), Seconds(t1, t2), Seconds(t2, t3), Seconds(t3, t4)};
  return true;
}

// Compiles, times (fastest of `repeat` runs, each part separately) and validates one
// shader for one environment.
void Measure(const std::string& path, const std::string& source, EShLanguage stage,
             const EnvSpec& env, int repeat, Tally* tally) {
  ++tally->shaders;
  std::vector<uint32_t> words, output;
  glint::spirv::PassResult result;
  std::vector<glint::spirv::ConstantTableDecision> decisions;
  Timings best;
  if (!TimeOnce(path, source, stage, env, &best, &words, &output, &result, &decisions)) return;
  for (int i = 1; i < repeat; ++i) {
    Timings again;
    if (TimeOnce(path, source, stage, env, &again, &words, &output, &result, &decisions))
      best.KeepFaster(again);
  }
  for (const glint::spirv::ConstantTableDecision& decision : decisions)
    if (!decision.hoisted_to && decision.refusal.find("not a lookup table") == std::string::npos)
      std::printf("KEPT %%%u in %s (%s): %s\n", decision.variable, path.c_str(), env.name.c_str(),
                  decision.refusal.c_str());
  ++tally->compiled;
  tally->glslang_s += best.glslang_s, tally->parse_s += best.parse_s;
  tally->pass_s += best.pass_s, tally->encode_s += best.encode_s;
  bool valid_before = glint::spirv::Validate(words, env.target).empty();
  tally->glslang_valid += valid_before;
  if (result.status != glint::spirv::PassStatus::kChanged) return;
  ++tally->changed;
  tally->tables += result.rewrites;
  std::string problem = glint::spirv::Validate(output, env.target);
  tally->still_valid += problem.empty();
  std::printf("HOISTED %u table(s) in %s (%s)%s\n", result.rewrites, path.c_str(), env.name.c_str(),
              problem.empty() ? ""
              : valid_before  ? " -> INVALID"
                              : " (glslang's output was invalid)");
  if (valid_before && !problem.empty()) {
    ++tally->broken;
    std::printf("INVALID AFTER PASS %s (%s): %s\n", path.c_str(), env.name.c_str(),
                problem.c_str());
  }
}

void PrintRow(const std::string& label, const Tally& t) {
  std::printf("%-34s %6d %8d %6d %7d %7llu %6d %10.1f %9.2f %8.2f %7.3f%%\n", label.c_str(),
              t.shaders, t.compiled, t.glslang_valid, t.changed,
              static_cast<unsigned long long>(t.tables), t.broken, t.glslang_s * 1e3,
              t.parse_s * 1e3, t.pass_s * 1e3,
              t.glslang_s > 0 ? 100.0 * t.pass_s / t.glslang_s : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string corpus = GLINT_CORPUS_DIR;  // the configured corpus, or --corpus
  std::string env_choice = "manifest";
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--envs" && i + 1 < argc)
      env_choice = argv[++i];
    else if (arg == "--corpus" && i + 1 < argc)
      corpus = argv[++i];
    else if (arg == "--repeat" && i + 1 < argc)
      repeat = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr,
                   "usage: %s [--envs manifest|all|<env>[,<env>...]] [--corpus DIR] "
                   "[--repeat N]\n",
                   argv[0]);
      return 2;
    }
  }
  std::vector<const EnvSpec*> chosen;
  if (env_choice == "all") {
    for (const EnvSpec& env : AllEnvs()) chosen.push_back(&env);
  } else if (env_choice != "manifest") {
    std::istringstream names(env_choice);
    for (std::string name; std::getline(names, name, ',');) {
      const EnvSpec* env = FindEnv(name);
      if (!env) {
        std::fprintf(stderr, "unknown environment '%s'\n", name.c_str());
        return 2;
      }
      chosen.push_back(env);
    }
  }

  if (corpus.empty()) {
    std::fprintf(stderr,
                 "no corpus configured (GLINT_CORPUS, docs/CORPUS.md): pass --corpus DIR\n");
    return 2;
  }
  glslang::InitializeProcess();
  const char* const kFolders[] = {"glslang", "SaschaWillems-Vulkan", "niagara", "dxvk"};
  std::map<std::string, Tally> by_row;  // "<folder> <env>"
  Tally total;
  for (const char* folder : kFolders) {
    std::string folder_path = corpus + "/" + folder;
    std::vector<ManifestRow> rows = ReadManifest(folder_path);
    if (rows.empty()) std::printf("no OK_manifest.tsv rows under %s\n", folder_path.c_str());
    for (const ManifestRow& row : rows) {
      bool ok = false;
      std::string path = folder_path + "/" + row.path;
      std::string source = ReadText(path, &ok);
      std::optional<EShLanguage> stage = glint::frontend::StageFromName(row.stage);
      if (!ok || !stage) {
        std::printf("SKIPPED %s (unreadable or unknown stage %s)\n", path.c_str(),
                    row.stage.c_str());
        continue;
      }
      std::vector<const EnvSpec*> envs = chosen;
      if (envs.empty() && FindEnv(row.env)) envs.push_back(FindEnv(row.env));
      for (const EnvSpec* env : envs) {
        Tally one;
        Measure(path, source, *stage, *env, repeat, &one);
        by_row[std::string(folder) + " " + env->name].Add(one);
        total.Add(one);
      }
    }
  }
  glslang::FinalizeProcess();

  std::printf("%-34s %6s %8s %6s %7s %7s %6s %10s %9s %8s %8s\n", "folder env", "shaders",
              "compiled", "valOK", "changed", "tables", "broken", "glslang_ms", "parse_ms",
              "pass_ms", "pass/gl");
  for (const auto& [label, tally] : by_row) PrintRow(label, tally);
  PrintRow("TOTAL", total);
  std::printf(
      "pass share of glslang compile time: %.3f%% (pass alone), %.3f%% (with parse and "
      "encode)\n",
      total.glslang_s > 0 ? 100.0 * total.pass_s / total.glslang_s : 0.0,
      total.glslang_s > 0
          ? 100.0 * (total.parse_s + total.pass_s + total.encode_s) / total.glslang_s
          : 0.0);
  std::printf(
      "modules changed: %d, tables hoisted: %llu, changed modules valid after the pass: %d, "
      "made invalid: %d\n",
      total.changed, static_cast<unsigned long long>(total.tables), total.still_valid,
      total.broken);
  return total.broken ? 1 : 0;
}
