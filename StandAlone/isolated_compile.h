// glslangValidator's compiles in child processes, so that a crash inside glslang is one
// clear error for that input and never the end of the run.
//
// RunCompile runs a compile body either in a fork()ed child (isolation, the default) or
// in this process (--no-isolate), in both cases on a big-stack thread (big_stack.h). In
// the child, stdout and stderr are the parent's (the child flushes before it reports
// back, so text comes out in the order it would without isolation), and every output
// file goes through WriteOutput, which asks the parent to write it and waits for the
// answer: the parent writes all files, so when the child crashes or runs past
// --timeout-ms the parent removes what it wrote for that child and no output of that
// compile is left.
//
// Outcomes: kFinished (the body returned; its flags and payload came back), kExited
// (the body called exit(), as a usage error does: the run must end with that code,
// as it would without isolation), kCrashed (a signal ended the child), kTimedOut (the
// parent killed the child at --timeout-ms), kOutOfMemory (the child needed more than
// its memory budget, --max-memory-mb).
//
// Memory budget: the child's address space may grow by `memory_mb` MiB past what it
// had at the fork (RLIMIT_AS, set in the child; the big stack's reservation comes on
// top), so a shader that expands without end (a macro of 2^40 tokens) is stopped at
// the budget instead of filling the machine. An allocation the limit refuses ends the
// child at once with kMemoryBudgetExit (operator new's handler), which the parent
// reports by name. In a build with AddressSanitizer the default is no cap: its
// allocator reports a refused allocation itself and aborts.
//
// Cost: a fork, a socket pair and one message per compile (bench/isolation_bench.cpp).
// Assumes the caller is single-threaded when isolating (it never runs glslang itself).
#ifndef GLINT_STANDALONE_ISOLATED_COMPILE_H
#define GLINT_STANDALONE_ISOLATED_COMPILE_H

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

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
  std::string payload;  // what the body returned (kFinished only)
  int exit_code = 0;    // kExited
  int signal = 0;       // kCrashed
  uint32_t memory_mb = 0;  // kOutOfMemory: the budget it needed more than
};

// The child's exit status when an allocation is refused by its memory budget.
constexpr int kMemoryBudgetExit = 97;

// The memory budget of an isolated compile when --max-memory-mb is not given
// (GLINT_COMPILE_MEMORY_MB; 0, no cap, under AddressSanitizer).
uint32_t DefaultCompileMemoryMb();

using CompileBody = std::function<std::string(CompileFlags& flags)>;

// Runs `body` isolated when `isolate`, else in this process (timeout_ms and memory_mb
// then unused; memory_mb 0: no budget).
CompileOutcome RunCompile(bool isolate, uint32_t timeout_ms, const CompileBody& body,
                          uint32_t memory_mb = 0);

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
