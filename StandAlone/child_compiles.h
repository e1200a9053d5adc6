// glslangValidator's compiles in child processes, so that a crash inside glslang is one
// clear error for that input and never the end of the run.
//
// RunCompiles runs a list of compile jobs either in forked worker processes (isolation,
// the default) or in this process (--no-isolate), in both cases on a big-stack thread
// (big_stack.h). A worker is forked once and compiles job after job; it is forked again
// only after a job crashed or ran past --timeout-ms (the parent kills it then), so a run
// over many files costs one fork, not one per file (a few jobs are queued ahead in the
// worker, so it never waits for the parent between two). Each worker starts from the
// parent's state at fork time; glslang keeps no state from one compile to the next
// other than its built-in symbol tables (the same for every compile of a version), as
// when glslangValidator compiles several files in one process.
//
// Output. With one worker its stdout and stderr are the parent's (it flushes before it
// reports a job done, so text comes out in the order it would without isolation). With
// several (-t), each worker's stdout and stderr go to files of its own and the parent
// prints each job's text in job order once all have ended, so a parallel run prints
// what a sequential one prints. Every output file goes through WriteOutput, which asks
// the parent to write it and waits for the answer: the parent writes all files, so when
// a job crashes or times out the parent removes what it wrote for that job and no output
// of that compile is left.
//
// Outcomes per job: kFinished (the body returned; its flags and payload came back),
// kExited (the body called exit(), as a usage error does: the run must end with that
// code, as it would without isolation; no later job's outcome is returned, and files
// written for jobs after it in a parallel run are removed), kCrashed (a signal ended the
// worker), kTimedOut (the parent killed the worker at --timeout-ms, counted from the
// end of the worker's previous job, or from the hand-over when it was idle), kOutOfMemory
// (the worker needed more than its memory budget, --max-memory-mb). Jobs queued behind
// a crashed or killed one go to a fresh worker.
//
// Memory budget: a worker's address space may grow by `memory_mb` MiB past what it had
// at the fork (RLIMIT_AS, set in the worker; the big stack's reservation comes on top),
// so a shader that expands without end (a macro of 2^40 tokens) is stopped at the budget
// instead of filling the machine. An allocation the limit refuses ends the worker at
// once with kMemoryBudgetExit (operator new's handler), which the parent reports by
// name for the job it was compiling; the jobs behind it go to a fresh worker. In a build
// with AddressSanitizer the default is no cap: its allocator reports a refused
// allocation itself and aborts.
//
// Cost: one fork and socket pair per worker (plus one per crash or time-out) and two
// messages per job (bench/isolation_bench.cpp, bench/many_files_bench.cpp).
// Assumes the caller is single-threaded when isolating (it never runs glslang itself).
#ifndef GLINT_STANDALONE_ISOLATED_COMPILE_H
#define GLINT_STANDALONE_ISOLATED_COMPILE_H

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "output_file.h"

namespace glint::standalone {

// What a compile body reports back: the run's failure flags and bytes of its own.
struct CompileFlags {
  bool compile_failed = false;
  bool link_failed = false;
  bool output_failed = false;
};

struct CompileOutcome {
  enum class End { kFinished, kExited, kCrashed, kTimedOut, kOutOfMemory } end = End::kFinished;
  CompileFlags flags;
  std::string payload;     // what the body returned (kFinished only)
  int exit_code = 0;       // kExited
  int signal = 0;          // kCrashed
  uint32_t memory_mb = 0;  // kOutOfMemory: the budget it needed more than
};

// The time limit of a .spv input's processing when --timeout-ms is not given: Glint
// validates every .spv input, and spirv-val's time grows faster than linearly on some
// modules (a loop of 100,000 blocks: minutes); real modules take well under a second.
constexpr uint32_t kSpirvInputTimeoutMs = 60000;

// A worker's exit status when an allocation is refused by its memory budget.
constexpr int kMemoryBudgetExit = 97;

// The memory budget of an isolated compile when --max-memory-mb is not given
// (GLINT_COMPILE_MEMORY_MB; 0, no cap, under AddressSanitizer).
uint32_t DefaultCompileMemoryMb();

using CompileBody = std::function<std::string(CompileFlags& flags)>;
using JobBody = std::function<std::string(size_t job, CompileFlags& flags)>;

struct BatchSettings {
  bool isolate = true;       // false: every job in this process, one after the other
  uint32_t timeout_ms = 0;   // per job, isolated only (0: none)
  unsigned max_workers = 1;  // isolated jobs compiled at the same time (-t: the cores)
  uint32_t memory_mb = 0;    // each worker's memory budget, isolated only (0: none)
  // Called in this process as each isolated job's end is recorded (in the order the jobs
  // end, not job order): a progress display; tests hold the parent back with it.
  std::function<void(size_t job)> job_ended;
};

// Runs jobs 0..count-1 as described above; their outcomes in job order, ending at the
// first kExited one.
std::vector<CompileOutcome> RunCompiles(size_t count, const BatchSettings& settings,
                                        const JobBody& body);

// One job: RunCompiles for a single body.
CompileOutcome RunCompile(bool isolate, uint32_t timeout_ms, const CompileBody& body,
                          uint32_t memory_mb = 0);

// The CPUs this process may run on (at least 1): the -t worker count.
unsigned UsableCores();

// Writes an output file: directly, or in an isolated child through the parent.
output::WriteResult WriteOutput(const std::string& path, std::string_view bytes);

// The line printed for a compile that did not finish, e.g.
// "ERROR: x.frag: internal error in glslang 12 (signal SIGSEGV) while compiling; no
// output written", "ERROR: x.frag: compile exceeded --timeout-ms 2000; no output
// written" or "ERROR: x.frag: compile exceeded its memory budget (--max-memory-mb
// 4096); no output written". `names` is what was compiled ("x.frag", "a.vert, b.frag").
std::string UnfinishedLine(const CompileOutcome& outcome, const std::string& names,
                           uint32_t timeout_ms);

}  // namespace glint::standalone

#endif  // GLINT_STANDALONE_ISOLATED_COMPILE_H
