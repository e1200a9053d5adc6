// libFuzzer target: Glint's SPIR-V path (glint::Process and the IR under it).
//
// The input bytes are SPIR-V words (little-endian; trailing bytes that do not fill a
// word are dropped). For every input:
//   1. the parser either refuses with a message, or parses; a parsed module encodes back
//      to exactly the input words (the IR round trip the corpus test also checks);
//   2. when spirv-val accepts the input (universal environment of its own version,
//      Process's own entry check), the full pipeline runs in every mode below, and
//      each run either fails with an error diagnostic, or succeeds with an output that
//      spirv-val accepts too. An invalid output from a valid input is a crash here.
//   3. when spirv-val refuses the input, Process must refuse it as well.
// A broken property aborts with a message on stderr, which libFuzzer reports as a crash
// and saves the input (see Test/fuzz/README.md).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "SPIRV/ir/parser.h"
#include "SPIRV/validate.h"
#include "glint/glint.h"

namespace {

[[noreturn]] void Broken(const char* property, const std::string& detail) {
  std::fprintf(stderr, "spirv_fuzzer: broken property: %s\n%s\n", property, detail.c_str());
  std::fflush(stderr);
  std::abort();
}

std::vector<uint32_t> ToWords(const uint8_t* data, size_t size) {
  std::vector<uint32_t> words(size / 4);
  if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
  return words;
}

// A small hash of the input, so the spec-constant values vary with it.
uint64_t Mix(const std::vector<uint32_t>& words) {
  uint64_t h = 1469598103934665603ull;
  for (uint32_t w : words) h = (h ^ w) * 1099511628211ull;
  return h;
}

// Every value of every option appears in at least one mode: hoisting on and off,
// robust access off and with each range analysis, uniformity warn / error / off,
// range collection, a promised subgroup size and specialization.
std::vector<glint::Options> Modes(uint64_t hash) {
  using glint::RangeAnalysisMode;
  using glint::Severity;
  std::vector<glint::Options> modes(5);
  modes[1].hoist_constant_tables = false;
  modes[1].robust_access = true;
  modes[1].range_analysis = RangeAnalysisMode::kOff;
  modes[1].uniformity = Severity::kOff;
  modes[2].robust_access = true;
  modes[2].range_analysis = RangeAnalysisMode::kReference;
  modes[2].uniformity = Severity::kError;
  modes[2].collect_ranges = true;
  modes[3].robust_access = true;
  modes[3].range_analysis = RangeAnalysisMode::kFull;
  modes[3].collect_ranges = true;
  modes[3].subgroup_size = 32;
  modes[3].max_workgroups = {static_cast<uint32_t>(hash & 0xff) + 1u, 1u,
                             0xFFFFFFFFu};  // to the top
  modes[4].hoist_constant_tables = false;
  modes[4].collect_ranges = true;
  modes[4].uniformity = Severity::kNote;
  for (uint32_t id = 0; id < 4; ++id) modes[4].spec_constants[id] = (hash >> (id * 16)) & 0xffff;
  return modes;
}

std::string Describe(const glint::Report& report) {
  std::string text;
  for (const glint::Diagnostic& d : report.diagnostics) text += glint::FormatDiagnostic(d) + "\n";
  return text;
}

void CheckRoundTrip(const std::vector<uint32_t>& words) {
  std::string error;
  std::optional<glint::spirv::Module> module = glint::spirv::ParseModule(words, &error);
  if (!module) {
    if (error.empty()) Broken("a refused module has a message", "");
    return;
  }
  if (module->Encode() != words) Broken("parse + encode gives back the input words", "");
}

void CheckMode(const std::vector<uint32_t>& input, const glint::Options& options, size_t mode) {
  std::vector<uint32_t> words = input;
  glint::Report report;
  if (!glint::Process(words, options, &report)) {
    if (!report.HasErrors()) Broken("a failed Process says why", "mode " + std::to_string(mode));
    if (words != input) Broken("a failed Process leaves the words alone", "");
    return;
  }
  if (report.HasErrors()) Broken("a successful Process reports no error", Describe(report));
  std::string problem = glint::spirv::Validate(words, glint::spirv::TargetEnv::kUniversal);
  if (!problem.empty())
    Broken("valid input gives valid output", "mode " + std::to_string(mode) + ": " + problem);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint32_t> input = ToWords(data, size);
  CheckRoundTrip(input);
  if (!glint::spirv::Validate(input, glint::spirv::TargetEnv::kUniversal).empty()) {
    std::vector<uint32_t> words = input;
    if (glint::Process(words, glint::Options(), nullptr))
      Broken("Process refuses what spirv-val refuses", "");
    return 0;
  }
  std::vector<glint::Options> modes = Modes(Mix(input));
  for (size_t mode = 0; mode < modes.size(); ++mode) CheckMode(input, modes[mode], mode);
  return 0;
}
