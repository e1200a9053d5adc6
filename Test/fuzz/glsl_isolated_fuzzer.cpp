// libFuzzer target: GLSL text through glint::CompileGlslIsolated (glint/isolated.h).
//
// Input: one control byte, then the GLSL text.
//   bits 0-2  stage (value % 6, glint::GlslStage's order)
//   bit 3     robust access (range analysis full)     bit 4  hoisting off
//   bit 5     debug information (-g)                  bits 6-7  target: Vulkan 1.0,
//                                                     Vulkan 1.1, Vulkan 1.3, OpenGL 4.5
// The compile runs in the glint-compile worker of this build (GLINT_FUZZ_WORKER, or the
// environment's GLINT_COMPILE_WORKER). Each call must come back as one of:
//   - success, with a module spirv-val accepts for the target; when it does not, the
//     same text compiled with every Glint pass off (glslang's own module) must be
//     invalid too, else Glint broke a valid module: a crash here;
//   - a refusal: an error diagnostic (glslang's messages, a Glint refusal, or the
//     isolation's own: glslang crashed in the worker, time limit) — glslang 12 crashes
//     on some texts, and containing that is the point of the entry point;
// and never as "the compile worker exited with status 86 without answering": that is
// a sanitizer report inside the worker (it prints the report to stderr), a crash here.
//
// Coverage: libFuzzer sees only this process (the request, the response decoding); the
// compile runs in another process, so this target mutates mostly blind. Its value is the
// containment contract on a stream of hostile texts, not depth.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "SPIRV/validate.h"
#include "glint/isolated.h"

namespace {

// Sanitizer settings for the worker processes (set before the first spawn; the worker
// inherits the environment). Signals are left to the kernel, so that a glslang crash
// ends the worker by the signal the isolation reports; a sanitizer report exits 86,
// which this target tells apart from every ordinary outcome.
constexpr int kSanitizerExit = 86;

[[noreturn]] void Broken(const char* property, const std::string& detail) {
  std::fprintf(stderr, "glsl_isolated_fuzzer: broken property: %s\n%s\n", property, detail.c_str());
  std::fflush(stderr);
  std::abort();
}

std::string Describe(const glint::Report& report) {
  std::string text;
  for (const glint::Diagnostic& d : report.diagnostics) text += glint::FormatDiagnostic(d) + "\n";
  return text;
}

glint::TargetEnv TargetOf(uint8_t control) {
  static const glint::TargetEnv kTargets[] = {
      glint::TargetEnv::kVulkan10, glint::TargetEnv::kVulkan11, glint::TargetEnv::kVulkan13,
      glint::TargetEnv::kOpenGL45};
  return kTargets[control >> 6];
}

glint::IsolationOptions Isolation() {
  glint::IsolationOptions isolation;
#ifdef GLINT_FUZZ_WORKER
  if (!std::getenv("GLINT_COMPILE_WORKER")) isolation.worker_path = GLINT_FUZZ_WORKER;
#endif
  isolation.timeout_ms = 5000;  // well under libFuzzer's -timeout, so a hang is a refusal
  return isolation;
}

bool Compile(const glint::GlslInput& input, const glint::Options& options,
             std::vector<uint32_t>& words, glint::Report& report) {
  bool ok = glint::CompileGlslIsolated(input, options, Isolation(), words, &report);
  const std::string no_answer =
      "exited with status " + std::to_string(kSanitizerExit) + " without answering";
  for (const glint::Diagnostic& d : report.diagnostics)
    if (d.origin == "isolation" && d.message.find(no_answer) != std::string::npos)
      Broken("no sanitizer report in the worker (see its report above)", Describe(report));
  return ok;
}

// Output spirv-val refuses: only acceptable when glslang's own module is refused too.
void CheckInvalidOutput(const glint::GlslInput& input, const glint::Options& options,
                        const std::string& problem) {
  glint::Options plain;
  plain.hoist_constant_tables = false;
  plain.uniformity = glint::Severity::kOff;
  plain.target_env = options.target_env;
  std::vector<uint32_t> words;
  glint::Report report;
  if (!Compile(input, plain, words, report)) return;  // glslang alone fails (or crashed)
  if (glint::spirv::Validate(words, options.target_env).empty())
    Broken("Glint's passes keep a valid module valid", problem);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The workers' sanitizer options (see kSanitizerExit); the fuzzer's own were read at
  // its start, so this changes only the children.
  setenv("ASAN_OPTIONS",
         "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0:handle_sigill=0:"
         "detect_leaks=0:exitcode=86",
         1);
  setenv("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1:exitcode=86", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t control = data[0];
  glint::GlslInput input;
  input.source.assign(reinterpret_cast<const char*>(data + 1), size - 1);
  input.stage = static_cast<glint::GlslStage>((control & 7) % 6);
  input.generate_debug_info = (control & 0x20) != 0;
  input.file_name = "fuzz.glsl";
  glint::Options options;
  options.robust_access = (control & 0x08) != 0;
  options.hoist_constant_tables = (control & 0x10) == 0;
  options.target_env = TargetOf(control);
  std::vector<uint32_t> words;
  glint::Report report;
  if (!Compile(input, options, words, report)) {
    if (!report.HasErrors()) Broken("a failed compile says why", Describe(report));
    if (!words.empty()) Broken("a failed compile leaves the words alone", "");
    return 0;
  }
  if (words.empty() || report.HasErrors())
    Broken("a success has words and no error", Describe(report));
  std::string problem = glint::spirv::Validate(words, options.target_env);
  if (!problem.empty()) CheckInvalidOutput(input, options, problem);
  return 0;
}
