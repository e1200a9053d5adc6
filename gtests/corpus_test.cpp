// The corpus suite's corpus-wide test (docs/CORPUS.md; every shader the corpus's
// OK_manifest.tsv files list; built only when a corpus is configured):
//   (a) glslang's code generation as Glint drives it (= `glslangValidator --no-glint`)
//       is byte-identical to Debian's /usr/bin/glslangValidator 12.0.0 for the
//       manifest's stage and target environment;
//   (b) where no Glint pass changed anything, Glint's output is glslang's, byte for
//       byte, and asking for a report (--dump-ranges) never changes the output;
//   (c) the IR round trip (parse + encode) is word-identical for every shader in
//       every target environment it compiles for (opengl, vulkan1.0, vulkan1.1,
//       vulkan1.1 + spirv1.4, vulkan1.2, vulkan1.3);
//   (d) Glint's output passes spirv-val for each of those environments wherever
//       glslang's own output does (where glslang's does not, it is only counted);
//   (e) no pass adds or removes a block, in any flag set;
//   (f) uniformity warnings per corpus folder and rule (manifest environment), each
//       with its reasons in <build>/uniformity_corpus.txt for hand checking; a rule the
//       counter does not name fails; the analysis finishes within its round budget on
//       every shader and the largest number of rounds is printed.
//   (g) lines kept outside the module (SPIRV/ir/outside_lines.h: how a report is located
//       when the module has no OpLine) locate every instruction as the OpLine of the
//       module generated with lines do, in every environment;
//   (h) the module generated with lines and stripped (how robust access and the range
//       report compile) is glslang's module without lines, word for word, and so is
//       the stripping parse's module, encoded;
//   (i) the uniformity findings computed from the facts they can depend on are those
//       computed from every fact;
//   (j) the uniformity screen (uniformity_screen.h) passes only shaders on which the
//       full analysis finds nothing; the count says how many it spares the analysis.
// Each shader is compiled once per environment, in-process, on two threads; only (a)
// starts the real glslangValidator (once per shader, cached in the build directory).
// Glint's flag sets are command-line flags (FlagSets(): the default, and --robust-access
// in each analysis mode; plus GLINT_CORPUS_FLAGSETS="name=--flag --flag;name2=..."), so
// a new option is validated corpus-wide by adding one line, on the same compile. The
// test prints counts (modules each pass changed, rewrites such as tables hoisted or
// clamps emitted, identical modules, warnings) for closing notes.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include <glslang/Public/ResourceLimits.h>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/analysis/uniformity/uniformity_coarse_proof.h"
#include "SPIRV/analysis/uniformity/uniformity_screen.h"
#include "SPIRV/ir/outside_lines.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/validate.h"
#include "command_line.h"
#include "glslang/front_end/front_end.h"
#include "support/outside_lines_check.h"
#include "support/test_support.h"
#include "support/uniformity_relevance_check.h"
#include "support/uniformity_rerun_check.h"

namespace glint {
namespace {

using test::CorpusShader;

struct Environment {
  const char* name;
  std::vector<std::string> flags;  // glslangValidator flags selecting it
};

const Environment kEnvironments[] = {
    {"opengl", {"--target-env", "opengl"}},
    {"vulkan1.0", {"-V", "--target-env", "vulkan1.0"}},
    {"vulkan1.1", {"-V", "--target-env", "vulkan1.1"}},
    {"vulkan1.1spv1.4", {"-V", "--target-env", "vulkan1.1", "--target-env", "spirv1.4"}},
    {"vulkan1.2", {"-V", "--target-env", "vulkan1.2"}},
    {"vulkan1.3", {"-V", "--target-env", "vulkan1.3"}},
};

struct FlagSet {
  std::string name;
  std::vector<std::string> flags;  // Glint flags on top of the environment's
};

// Every option that rewrites is validated corpus-wide here, on the same compile.
std::vector<FlagSet> FlagSets() {
  std::vector<FlagSet> sets = {
      {"default", {}},
      {"robust-off", {"--robust-access", "--range-analysis=off"}},
      {"robust-reference", {"--robust-access", "--range-analysis=reference"}},
      {"robust-full", {"--robust-access", "--range-analysis=full"}},
  };
  const char* extra = std::getenv("GLINT_CORPUS_FLAGSETS");
  std::stringstream list(extra ? extra : "");
  for (std::string item; std::getline(list, item, ';');) {
    size_t equal = item.find('=');
    if (equal == std::string::npos) continue;
    FlagSet set{item.substr(0, equal), {}};
    std::stringstream flags(item.substr(equal + 1));
    for (std::string flag; flags >> flag;) set.flags.push_back(flag);
    sets.push_back(set);
  }
  return sets;
}

standalone::CommandLine ParseFlags(std::vector<std::string> flags) {
  flags.insert(flags.begin(), "glslangValidator");
  std::vector<char*> argv;
  for (std::string& flag : flags) argv.push_back(flag.data());
  return standalone::ParseCommandLine(static_cast<int>(argv.size()), argv.data());
}

std::vector<uint32_t> ReadWords(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// The real glslangValidator's output for the same flags, or empty when it failed.
std::vector<uint32_t> RunReference(const CorpusShader& shader, const Environment& env,
                                   const std::string& scratch) {
  std::string command = "/usr/bin/glslangValidator";
  for (const std::string& flag : env.flags) command += " " + flag;
  command += " -S " + shader.stage + " -o '" + scratch + "' '" + shader.path + "' >/dev/null 2>&1";
  std::remove(scratch.c_str());
  if (std::system(command.c_str()) != 0) return {};
  return ReadWords(scratch);
}

// Reference outputs are cached in the build directory, keyed by the shader's text, the
// flags and the reference binary's size and time, so only the first run pays for
// starting glslangValidator once per shader.
std::string ReferenceCachePath(const CorpusShader& shader, const Environment& env,
                               const std::string& text) {
  struct stat binary {};
  stat("/usr/bin/glslangValidator", &binary);
  std::string key = text + '\0' + shader.stage + '\0' + std::to_string(binary.st_size) + '\0' +
                    std::to_string(binary.st_mtime);
  for (const std::string& flag : env.flags) key += '\0' + flag;
  uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : key) hash = (hash ^ c) * 1099511628211ull;
  char name[32];
  std::snprintf(name, sizeof(name), "%016llx.spv", static_cast<unsigned long long>(hash));
  return test::BinaryDir() + "/corpus_reference/" + name;
}

std::vector<uint32_t> ReferenceOutput(const CorpusShader& shader, const Environment& env,
                                      const std::string& text, const std::string& scratch) {
  std::string cached = ReferenceCachePath(shader, env, text);
  if (access(cached.c_str(), R_OK) == 0) return ReadWords(cached);
  std::vector<uint32_t> words = RunReference(shader, env, scratch);
  mkdir((test::BinaryDir() + "/corpus_reference").c_str(), 0755);
  std::ofstream out(cached + ".tmp", std::ios::binary);
  out.write(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  out.close();
  std::rename((cached + ".tmp").c_str(), cached.c_str());
  return words;
}

// OpLabel count: no Glint pass may add a block (clamps are arithmetic, never branches).
size_t CountLabels(const std::vector<uint32_t>& words) {
  size_t labels = 0;
  for (size_t i = 5; i < words.size() && (words[i] >> 16) != 0; i += words[i] >> 16)
    labels += (words[i] & 0xffff) == spv::OpLabel;
  return labels;
}

// Everything the run found; shared by the worker threads.
struct Tally {
  std::mutex mutex;
  std::map<std::string, int> counts;                         // "<what>" -> number
  std::map<std::string, std::vector<std::string>> failures;  // check -> examples
  std::vector<std::string> uniformity_log;  // every warning with its reasons, per shader

  void Count(const std::string& what, int n = 1) {
    std::lock_guard<std::mutex> lock(mutex);
    counts[what] += n;
  }
  void Max(const std::string& what, int n) {
    std::lock_guard<std::mutex> lock(mutex);
    counts[what] = std::max(counts[what], n);
  }
  void Fail(const std::string& check, const std::string& example) {
    std::lock_guard<std::mutex> lock(mutex);
    failures[check].push_back(example);
  }
};

struct Job {
  const CorpusShader* shader;
  const Environment* env;
};

class CorpusRunner {
 public:
  CorpusRunner(std::vector<FlagSet> flag_sets, Tally& tally)
      : flag_sets_(std::move(flag_sets)), tally_(tally) {}

  void RunJob(const Job& job, const std::string& scratch);

 private:
  // (g) lines kept outside the module locate every instruction as the OpLine of the
  // module generated with lines do.
  void CheckOutsideLines(const Job& job, glslang::TIntermediate& intermediate,
                         const standalone::CommandLine& line, const std::vector<uint32_t>& words);
  void CheckGlint(const Job& job, glslang::TIntermediate& intermediate,
                  const standalone::CommandLine& line, const std::vector<uint32_t>& words,
                  bool glslang_valid);
  void CountUniformity(const Job& job, const Report& report);
  std::vector<FlagSet> flag_sets_;
  Tally& tally_;
};

std::string Describe(const Job& job) { return job.shader->path + " [" + job.env->name + "]"; }

// Uniformity warnings of the shader in its manifest environment, per folder and class,
// and each one with its reasons for the hand-checking log.
void CorpusRunner::CountUniformity(const Job& job, const Report& report) {
  std::string text;
  for (const Diagnostic& diagnostic : report.diagnostics) {
    if (diagnostic.origin != "uniformity" || diagnostic.severity != Severity::kWarning) continue;
    // The finding's stable rule; one the counter does not know fails the test.
    static const std::set<std::string> kRules = {
        "uniformity/derivative", "uniformity/implicit-lod", "uniformity/barrier",
        "uniformity/uniform-control"};
    std::string rule = kRules.count(diagnostic.rule) ? diagnostic.rule : "other";
    tally_.Count("uniformity warnings in " + job.shader->folder + ": " + rule);
    text += FormatDiagnostic(diagnostic) + "\n";
  }
  if (text.empty()) return;
  tally_.Count("uniformity: shaders with warnings in " + job.shader->folder);
  std::lock_guard<std::mutex> lock(tally_.mutex);
  tally_.uniformity_log.push_back("== " + job.shader->path + "\n" + text);
}

void CorpusRunner::RunJob(const Job& job, const std::string& scratch) {
  std::vector<std::string> flags = job.env->flags;
  flags.insert(flags.end(), {"-S", job.shader->stage, job.shader->path});
  standalone::CommandLine line = ParseFlags(flags);
  line.glslang.resources = *GetDefaultResources();
  standalone::FinishGlslangSettings(line);
  std::ifstream file(job.shader->path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  EShLanguage stage = *standalone::StageFromName(job.shader->stage);
  auto compilation = frontend::Compile({{job.shader->path, text.substr(0, text.find('\0')), stage}},
                                       line.glslang, false);
  const bool is_manifest_env = job.env->name == job.shader->manifest_env;
  if (compilation->compile_failed || compilation->link_failed ||
      !compilation->Intermediate(stage)) {
    tally_.Count("env does not compile");
    if (is_manifest_env) tally_.Fail("(a) compiles in the manifest env", Describe(job));
    return;
  }
  tally_.Count("modules compiled");
  glslang::TIntermediate& intermediate = *compilation->Intermediate(stage);
  std::vector<uint32_t> words =
      frontend::GenerateSpirv(intermediate, standalone::SpvOptionsFor(line), nullptr);
  std::string error;
  std::optional<spirv::Module> module = spirv::ParseModule(words, &error);
  if (module && module->Encode() == words)
    tally_.Count("(c) round trip identical");
  else
    tally_.Fail("(c) round trip", Describe(job) + (module ? " differs" : " parse error: " + error));
  if (is_manifest_env && module) {
    // The uniformity analysis finishes within its round budget on every shader (every
    // fact computed: the pipeline's screen would skip some).
    spirv::UniformityOptions every_fact;
    every_fact.every_fact = true;
    spirv::UniformityResult uniformity = spirv::AnalyzeUniformity(*module, every_fact);
    if (!uniformity.refusal.empty())
      tally_.Fail("(f) uniformity analysis finished", Describe(job) + ": " + uniformity.refusal);
    tally_.Max("uniformity: largest number of fixed-point rounds",
               static_cast<int>(uniformity.rounds));
    // The findings computed from the facts they can depend on are those computed from
    // every fact (uniformity_relevance.cpp).
    size_t findings = 0;
    std::string difference = test::CompareRelevantFindings(*module, &findings);
    if (difference.empty())
      tally_.Count("(i) uniformity findings identical with every fact computed");
    else
      tally_.Fail("(i) uniformity findings identical with every fact computed",
                  Describe(job) + ": " + difference);
    tally_.Count("(i) uniformity findings compared", static_cast<int>(findings));
    // The solver's passing over of blocks whose reads did not rise gives every fact with
    // its cause, the rounds and the call-context runs of running every block
    // (fact_reads.h).
    test::RerunComparison rerun = test::CompareRerunEveryBlock(*module);
    if (rerun.difference.empty())
      tally_.Count("(i) uniformity facts identical with every block rerun");
    else
      tally_.Fail("(i) uniformity facts identical with every block rerun",
                  Describe(job) + ": " + rerun.difference);
    tally_.Count("(i) uniformity block passes, every block rerun",
                 static_cast<int>(rerun.passes_every));
    tally_.Count("(i) uniformity block passes, unchanged blocks passed over",
                 static_cast<int>(rerun.passes_tracked));
    // (j) the screen passes only shaders on which the full analysis finds nothing (the
    // comparison (i) holds for them too: the default result is the screened one).
    spirv::AnalysisContext screen_context(*module);
    bool needs = false;
    for (const spirv::Function& function : module->functions)
      needs = needs || (screen_context.GetConvergenceClasses().OfFunction(function.id()) &
                        spirv::kUniformControl);
    if (needs) tally_.Count("(j) shaders with uniform-control instructions");
    if (needs &&
        spirv::NeedsOnlyUnconditionalControl(*module, screen_context.GetConvergenceClasses(),
                                             [&](spirv::Function& function) -> const spirv::Cfg& {
                                               return screen_context.GetCfg(function);
                                             })) {
      tally_.Count("(j) uniformity screen passed (analysis not run)");
      if (!uniformity.findings.empty() || !uniformity.refusal.empty())
        tally_.Fail("(j) screened shaders have no finding", Describe(job));
    } else if (needs && screen_context.GetConvergenceClasses().ok()) {
      // (k) likewise the coarse proof, tried where the screen does not pass.
      spirv::CoarseProofResult proof = spirv::ProveNothingToReport(
          {*module, screen_context.GetConvergenceClasses(), screen_context.GetCallGraph(),
           screen_context.GetBuiltIns(),
           [&](spirv::Function& function) -> const spirv::Cfg& {
             return screen_context.GetCfg(function);
           }});
      tally_.Count("(k) uniformity coarse proof tried");
      if (proof.proven) {
        tally_.Count("(k) uniformity coarse proof held (analysis not run)");
        if (!uniformity.findings.empty() || !uniformity.refusal.empty())
          tally_.Fail("(k) proven shaders have no finding", Describe(job));
      }
    }
  }
  if (is_manifest_env) {
    tally_.Count("(a) shaders compared with glslangValidator");
    std::vector<uint32_t> reference = ReferenceOutput(*job.shader, *job.env, text, scratch);
    if (reference == words)
      tally_.Count("(a) --no-glint identical");
    else if (RunReference(*job.shader, *job.env, scratch) != reference)
      tally_.Count("(a) glslangValidator differs from itself (excluded)");
    else
      tally_.Fail("(a) --no-glint identical to glslangValidator", Describe(job));
  }
  CheckOutsideLines(job, intermediate, line, words);
  TargetEnv env = frontend::GlintTargetEnv(line.glslang);
  bool glslang_valid = spirv::Validate(words, env).empty();
  tally_.Count(glslang_valid ? "glslang output valid" : "glslang output invalid (counted only)");
  if (is_manifest_env && glslang_valid != job.shader->glslang_valid)
    tally_.Count("validity differs from manifest (validator options)");
  CheckGlint(job, intermediate, line, words, glslang_valid);
}

void CorpusRunner::CheckOutsideLines(const Job& job, glslang::TIntermediate& intermediate,
                                     const standalone::CommandLine& line,
                                     const std::vector<uint32_t>& words) {
  glslang::SpvOptions with_lines = standalone::SpvOptionsFor(line);
  if (with_lines.generateDebugInfo) return;  // the flags asked for lines: none kept outside
  with_lines.generateDebugInfo = true;
  std::vector<uint32_t> located = frontend::GenerateSpirv(intermediate, with_lines, nullptr);
  size_t compared = 0;
  std::string problem = test::CompareOutsideLines(words, located, &compared);
  if (problem.empty())
    tally_.Count("(g) outside lines locate every instruction as OpLine does");
  else
    tally_.Fail("(g) outside lines", Describe(job) + ": " + problem);
  // (h) what robust access and the range report compile from: the module with lines,
  // stripped, is glslang's module without them, and its table the aligned one.
  std::string refused;
  std::optional<spirv::StrippedParse> stripped = spirv::ParseModuleStrippingLines(located, &refused);
  if (!stripped) {
    tally_.Count("(h) strip refused (the compile generates twice): " + refused.substr(0, 40));
    return;
  }
  std::optional<spirv::OutsideLines> aligned = spirv::AlignOutsideLines(words, located, &refused);
  if (stripped->words == words && aligned && aligned->size() == stripped->lines.size() &&
      stripped->module.Encode() == words)
    tally_.Count("(h) stripped module is glslang's without lines");
  else
    tally_.Fail("(h) stripped module", Describe(job));
}

void CorpusRunner::CheckGlint(const Job& job, glslang::TIntermediate& intermediate,
                              const standalone::CommandLine& line,
                              const std::vector<uint32_t>& words, bool glslang_valid) {
  TargetEnv env = frontend::GlintTargetEnv(line.glslang);
  for (const FlagSet& set : flag_sets_) {
    Options options = standalone::GlintOptionsFor(ParseFlags(set.flags), env);
    frontend::GlintOutput glint = frontend::GenerateWithGlint(
        intermediate, standalone::SpvOptionsFor(line), options, job.shader->path);
    const std::vector<uint32_t>& output = glint.words;
    const Report& report = glint.report;
    if (!glint.ok) {
      std::string why = report.diagnostics.empty() ? "" : report.diagnostics.front().message;
      // Refusing glslang's invalid output is allowed: it claims nothing about it.
      if (glslang_valid)
        tally_.Fail("[" + set.name + "] Glint refused", Describe(job) + ": " + why);
      else
        tally_.Count("[" + set.name + "] refused glslang's invalid output");
      continue;
    }
    if (!report.diagnostics.empty())
      tally_.Count("[" + set.name + "] modules with Glint diagnostics");
    if (set.name == "default" && job.env->name == job.shader->manifest_env)
      CountUniformity(job, report);
    bool changed = false;
    for (const PassStatistic& pass : report.passes) {
      if (!pass.changed) continue;
      changed = true;
      tally_.Count("[" + set.name + "] changed by " + pass.pass);
      tally_.Count("[" + set.name + "] rewrites by " + pass.pass, static_cast<int>(pass.rewrites));
    }
    if (CountLabels(output) != CountLabels(words))
      tally_.Fail("[" + set.name + "] a pass added or removed a block", Describe(job));
    if (!changed) {
      if (output == words)
        tally_.Count("[" + set.name + "] (b) unchanged and byte-identical");
      else
        tally_.Fail("[" + set.name + "] (b) no pass changed yet output differs", Describe(job));
    }
    if (set.name == "default") {
      Options reporting = options;
      reporting.collect_ranges = true;
      frontend::GlintOutput reported = frontend::GenerateWithGlint(
          intermediate, standalone::SpvOptionsFor(line), reporting, job.shader->path);
      if (!reported.ok || reported.words != output)
        tally_.Fail("[default] (b) a report changes the output", Describe(job));
    }
    if (!glslang_valid) {
      // Nothing is claimed about these; the count shows whether Glint touched them.
      tally_.Count("[" + set.name + "] glslang-invalid modules " +
                   (output == words ? "left as they were" : "rewritten"));
      continue;
    }
    std::string problem = spirv::Validate(output, env);
    if (problem.empty())
      tally_.Count("[" + set.name + "] (d) valid");
    else
      tally_.Fail("[" + set.name + "] (d) spirv-val", Describe(job) + ": " + problem);
  }
}

TEST(Corpus, AllShaders_AllEnvironments) {
  auto start = std::chrono::steady_clock::now();
  std::vector<CorpusShader> shaders = test::ReadCorpusManifests();
  ASSERT_FALSE(shaders.empty()) << "no shader in the manifests under " << test::CorpusRoot();
  std::vector<Job> jobs;
  for (const CorpusShader& shader : shaders)
    for (const Environment& env : kEnvironments) jobs.push_back({&shader, &env});

  frontend::ScopedGlslangProcess process;
  Tally tally;
  CorpusRunner runner(FlagSets(), tally);
  std::atomic<size_t> next{0};
  char scratch_pattern[] = "/tmp/glint-corpus-XXXXXX";
  ASSERT_NE(mkdtemp(scratch_pattern), nullptr);
  const std::string scratch_dir = scratch_pattern;
  auto worker = [&](int id) {
    const std::string scratch = scratch_dir + "/" + std::to_string(id) + ".spv";
    for (size_t i; (i = next++) < jobs.size();) runner.RunJob(jobs[i], scratch);
    std::remove(scratch.c_str());
  };
  std::thread second(worker, 1);
  worker(0);
  second.join();
  rmdir(scratch_dir.c_str());

  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("corpus: %zu shaders x %zu environments = %zu jobs in %.1f s\n", shaders.size(),
              std::size(kEnvironments), jobs.size(), seconds);
  for (const auto& [what, count] : tally.counts) std::printf("  %-60s %d\n", what.c_str(), count);
  std::sort(tally.uniformity_log.begin(), tally.uniformity_log.end());
  std::ofstream log(test::BinaryDir() + "/uniformity_corpus.txt");
  for (const std::string& entry : tally.uniformity_log) log << entry;
  std::printf("uniformity warnings with reasons: %s/uniformity_corpus.txt\n",
              test::BinaryDir().c_str());
  for (const auto& [what, count] : tally.counts)
    EXPECT_TRUE(what.find(": other") == std::string::npos)
        << what << ": a warning of unknown rule";
  for (const auto& [check, examples] : tally.failures) {
    std::string list;
    for (size_t i = 0; i < examples.size() && i < 10; ++i) list += "\n    " + examples[i];
    ADD_FAILURE() << check << ": " << examples.size() << " failures, e.g." << list;
  }
  EXPECT_EQ(tally.counts["(a) --no-glint identical"] +
                tally.counts["(a) glslangValidator differs from itself (excluded)"],
            static_cast<int>(shaders.size()));
  EXPECT_LE(tally.counts["(a) glslangValidator differs from itself (excluded)"], 2);
  // Every shader's findings were compared, and the corpus has findings to compare (19
  // warnings in its manifest environments when this check was written).
  EXPECT_EQ(tally.counts["(i) uniformity findings identical with every fact computed"],
            static_cast<int>(shaders.size()));
  EXPECT_GE(tally.counts["(i) uniformity findings compared"], 10);
  // The screen spares the analysis on most shaders that have something it could report
  // (100 of 141 when it was written: samples and barriers in the body of main).
  EXPECT_GE(2 * tally.counts["(j) uniformity screen passed (analysis not run)"],
            tally.counts["(j) shaders with uniform-control instructions"]);
  // The coarse proof holds where the screen does not on shaders the analysis finds nothing
  // on (23 of the 41 it was tried on when it was written; the other 18 all warn).
  EXPECT_GE(tally.counts["(k) uniformity coarse proof held (analysis not run)"], 10);
}

}  // namespace
}  // namespace glint
