// Compiling untrusted GLSL in a helper process.
//
// glslang 12 crashes on some inputs (null dereferences, stack overflow on deep
// expressions) and runs for a long time on others (an #include cycle, a huge constant
// array). A process that compiles text it did not write — a browser, a build farm, a
// fuzzer — should not die or hang with it. glint::CompileGlslIsolated compiles in a
// worker process of its own, `glint-compile`, started with posix_spawn (never fork, so
// a multi-threaded host is safe) and spoken to over a socket pair (request: the source,
// stage, entry point, Glint options and limits; response: the words, the report's
// diagnostics, access records and pass statistics). The worker runs exactly the
// in-process compile of glint_compile_glsl (glint_c.h), so a successful isolated
// compile gives the same words and the same report as the in-process one.
//
// What is contained: any crash of glslang or Glint (a signal in the worker becomes one
// error diagnostic "internal error in glslang 12 (signal SIGSEGV) while compiling; no
// output"), a compile that runs past the wall-clock limit (the parent kills the
// worker: "compile exceeded the time limit of N ms"), memory use past the address-space
// limit (setrlimit(RLIMIT_AS) in the worker: the allocation fails there, reported as an
// error) and CPU time past RLIMIT_CPU. What is not: a worker that cannot be found or
// started is an error diagnostic, never a fallback to compiling in-process.
//
// Cost: one posix_spawn + exec of the worker and glslang's built-in tables per call
// (tens of milliseconds of CPU; see docs/EMBEDDING.md for measured numbers), on top of
// the compile itself. For every input (glint_input_t: HLSL, defines, includes resolved
// in the caller) and for a warm worker reused across compiles, which pays that once,
// see glint_compile_isolated and glint_worker_* in glint/glint_c.h. The in-process
// entry points stay the fast path for trusted text.
//
// Finding the worker, first match wins:
//   1. IsolationOptions::worker_path when not empty;
//   2. the environment variable GLINT_COMPILE_WORKER when set and not empty;
//   3. the installed worker, <prefix>/<libexecdir>/glint-compile, as cmake --install
//      (cmake/GlintInstall.cmake) places it for the prefix the library was built for.
//
// Thread safety: may be called from several threads at once; each call has its own
// worker. Never throws; a false return comes with an error diagnostic in `report`.
#ifndef GLINT_ISOLATED_H
#define GLINT_ISOLATED_H

#include <cstdint>
#include <string>
#include <vector>

#include "glint/glint.h"

namespace glint {

// The shader stages glint_compile_glsl accepts (same order as glint_stage_t).
enum class GlslStage { kVertex, kTessControl, kTessEvaluation, kGeometry, kFragment, kCompute };

// One GLSL compilation unit, as glint_glsl_input_t describes it.
struct GlslInput {
  std::string source;  // GLSL text (read up to the first NUL)
  GlslStage stage = GlslStage::kFragment;
  std::string entry_point;           // empty: "main"
  std::string file_name;             // names the source in messages; empty: none
  bool generate_debug_info = false;  // OpLine/OpSource like glslangValidator -g
};

// Where the worker is and how much it may use. Zero means "no limit".
struct IsolationOptions {
  std::string worker_path;                   // empty: see "Finding the worker" above
  uint32_t timeout_ms = 10000;               // wall clock, enforced by the caller (SIGKILL)
  uint64_t memory_limit_bytes = 2ull << 30;  // RLIMIT_AS of the worker
  // RLIMIT_CPU of the worker, in seconds; 0 derives it from timeout_ms (rounded up,
  // plus one second) so a worker the caller cannot reap still stops.
  uint32_t cpu_limit_seconds = 0;
};

// Compiles `input` like glint_compile_glsl (glslang parse, link, SPIR-V generation,
// Glint's passes with `options`) in a glint-compile worker process. On success fills
// `spirv` and returns true; on failure leaves `spirv` as it was and returns false. The
// worker's report (glslang's messages, Glint's diagnostics and records) is appended to
// `report` when not null, followed by an error of origin "isolation" when the worker
// crashed, ran out of time, or could not be started.
GLINT_EXPORT bool CompileGlslIsolated(const GlslInput& input, const Options& options,
                                      const IsolationOptions& isolation,
                                      std::vector<uint32_t>& spirv, Report* report);

// The worker path CompileGlslIsolated would use for `isolation` (rule above).
GLINT_EXPORT std::string CompileWorkerPath(const IsolationOptions& isolation);

}  // namespace glint

#endif  // GLINT_ISOLATED_H
