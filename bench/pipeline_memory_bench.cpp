// Memory of Glint's whole pipeline per input word, on the .spv path (glint::Process,
// as `glslangValidator big.spv` runs it): the most heap the call had allocated at once
// above what was live before it, divided by the module's word count, at two module
// sizes (twice as many functions) to show that it grows linearly.
//
//   build/bench/pipeline_memory_bench [functions [defaults]]   (default 500: 0.2M words)
//
// `defaults` leaves out the robust-access run (for sizes where only the default
// pipeline is of interest). The helpers are chained through their results, the shape
// that made range reasons grow with the chain (IntegerRange::None elides them now).
//
// The module is glslang's SPIR-V of a generated compute shader: `functions` helpers,
// each with locals, a loop, a branch, shared memory and a constant table, all called
// from main (what the analyses work on: def-use, CFGs, value flow, uniformity, ranges).
// Two option sets: the defaults (hoisting, uniformity) and robust access with full
// range analysis and the range report. The last column is SPIRV-Tools' validator alone
// on the same words (Process checks its input with it before building the IR, so the
// pipeline's peak is never below it); the last, Glint's own share: the IR, the passes
// and the encoded output, as Process runs them once the check has passed.
#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/pipeline.h"
#include "SPIRV/validate.h"
#include "glint/glint.h"
#include "glslang/front_end/compile_driver.h"
#include "heap_counter.h"

namespace {

std::string GeneratedShader(int functions) {
  std::string text =
      "#version 440\n"
      "layout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) buffer Data { uint count; uint values[]; } data;\n"
      "shared uint tile[64];\n"
      "const uint kTable[8] = uint[](1u, 2u, 3u, 5u, 8u, 13u, 21u, 34u);\n";
  for (int f = 0; f < functions; ++f) {
    std::string n = std::to_string(f);
    text += "uint helper" + n + "(uint seed) {\n"
            "  uint sum = seed;\n"
            "  uint local[4];\n"
            "  for (uint i = 0u; i < 4u; ++i) local[i] = data.values[(seed + i) & 1023u];\n"
            "  for (int i = 0; i < 8; ++i) {\n"
            "    sum += kTable[(sum + uint(i)) & 7u] * local[i & 3];\n"
            "    if (sum > " + std::to_string(1000 + f) + "u) sum -= tile[sum & 63u];\n"
            "  }\n"
            "  tile[gl_LocalInvocationIndex] = sum;\n"
            "  return sum ^ local[seed & 3u];\n"
            "}\n";
  }
  text += "void main() {\n  uint v = data.values[gl_GlobalInvocationID.x & 1023u];\n";
  for (int f = 0; f < functions; ++f) text += "  v = helper" + std::to_string(f) + "(v);\n";
  text += "  data.values[gl_GlobalInvocationID.x & 1023u] = v;\n}\n";
  return text;
}

struct Measured {
  double peak_per_word = 0;
  double seconds = 0;
  bool ok = false;
};

Measured MeasureProcess(const std::vector<uint32_t>& input, const glint::Options& options) {
  Measured measured;
  std::vector<uint32_t> words = input;
  glint::Report report;
  malloc_trim(0);
  size_t live_before = glint::bench::HeapLive();
  glint::bench::ResetHeapPeak();
  auto start = std::chrono::steady_clock::now();
  measured.ok = glint::Process(words, options, &report);
  measured.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  measured.peak_per_word = static_cast<double>(glint::bench::HeapPeak() - live_before) / input.size();
  if (!measured.ok)
    for (const glint::Diagnostic& d : report.diagnostics)
      std::fprintf(stderr, "%s\n", glint::FormatDiagnostic(d).c_str());
  return measured;
}

// The peak of SPIRV-Tools' validator alone on the same words: glint::Process checks its
// input with it before building the IR (never both at once), so the pipeline's peak is
// at least this.
double ValidatorPeakPerWord(const std::vector<uint32_t>& words) {
  malloc_trim(0);
  size_t live_before = glint::bench::HeapLive();
  glint::bench::ResetHeapPeak();
  std::string problem = glint::spirv::Validate(words, glint::spirv::TargetEnv::kUniversal);
  if (!problem.empty()) std::fprintf(stderr, "spirv-val: %s\n", problem.c_str());
  return static_cast<double>(glint::bench::HeapPeak() - live_before) / words.size();
}

// Glint's own share: the IR parsed from the words, the passes and the encoded output,
// as Process runs them once its input check has passed (the check's memory is gone by
// then, so this and the validator's peak are the two halves of Process's peak).
double PipelinePeakPerWord(const std::vector<uint32_t>& words, const glint::Options& options) {
  malloc_trim(0);
  size_t live_before = glint::bench::HeapLive();
  glint::bench::ResetHeapPeak();
  {
    std::string error;
    std::optional<glint::spirv::Module> module = glint::spirv::ParseModule(words, &error);
    if (!module) return -1;
    glint::spirv::Options pass_options = options;
    glint::spirv::Report found;
    glint::spirv::PassContext context{pass_options, &found};
    glint::spirv::PassResult result = glint::spirv::RunPipeline(*module, context);
    if (result.status == glint::spirv::PassStatus::kChanged) {
      std::vector<uint32_t> output = module->Encode();
    }
  }
  return static_cast<double>(glint::bench::HeapPeak() - live_before) / words.size();
}

// What the def-use index holds once built (it lives through every pass).
double DefUsePerWord(const std::vector<uint32_t>& words) {
  std::string error;
  std::optional<glint::spirv::Module> module = glint::spirv::ParseModule(words, &error);
  if (!module) return -1;
  size_t before = glint::bench::HeapLive();
  glint::spirv::DefUse def_use(*module);
  return static_cast<double>(glint::bench::HeapLive() - before) / words.size();
}

}  // namespace

int main(int argc, char** argv) {
  int functions = argc > 1 ? std::atoi(argv[1]) : 500;
  bool with_ranges = !(argc > 2 && std::string(argv[2]) == "defaults");
  glint::Options defaults;
  glint::Options robust;
  robust.robust_access = true;
  robust.collect_ranges = true;
  std::printf("%-10s %10s  %-34s %-34s %-14s %-22s %s\n", "functions", "words",
              "defaults: peak B/word, s", "robust + ranges: peak B/word, s", "def-use held",
              "spirv-val alone: peak", "pipeline alone: defaults, robust + ranges");
  for (int size : {functions, 2 * functions}) {
    glint::frontend::SourceCompile request(GeneratedShader(size), "comp");
    std::vector<uint32_t> words;
    std::string error;
    if (!glint::frontend::CompileSourceToSpirv(request, &words, &error)) {
      std::fprintf(stderr, "glslang failed: %s\n", error.c_str());
      return 1;
    }
    Measured plain = MeasureProcess(words, defaults);
    Measured ranged = with_ranges ? MeasureProcess(words, robust) : plain;
    if (!plain.ok || !ranged.ok) return 1;
    double own_plain = PipelinePeakPerWord(words, defaults);
    double own_ranged = with_ranges ? PipelinePeakPerWord(words, robust) : own_plain;
    double def_use = DefUsePerWord(words);
    double validator = ValidatorPeakPerWord(words);
    std::printf(
        "%-10d %10zu  %8.1f B/word %8.2f s          %8.1f B/word %8.2f s        %5.1f B/word    "
        "%5.1f B/word           %5.1f, %5.1f B/word\n",
        size, words.size(), plain.peak_per_word, plain.seconds, ranged.peak_per_word,
        ranged.seconds, def_use, validator, own_plain, own_ranged);
  }
  return 0;
}
