// A glint-compile worker process that serves one compile after another: the host side
// of the isolated compile (glint_compile_isolated, glint_worker_*, and
// glint::CompileGlslIsolated, which uses one for a single compile).
//
// Started with posix_spawn (never fork: a multi-threaded host is safe) on one end of a
// socket pair, when the WarmWorker is created, so the worker builds glslang's built-in
// tables while the host does other work. Each Compile sends one worker::Request, answers
// the worker's include queries with the includer glint_compile uses in-process (the
// input's callback runs here, in the host, on the calling thread), and reads one
// worker::Response. Every write and read has the compile's deadline; every message's
// magic, version and length are checked before anything is allocated (wire_format.h).
//
// A worker that crashes (a signal), runs past the deadline (killed), exceeds its CPU or
// memory limit, or says anything malformed is discarded and the compile fails with one
// error of origin "isolation" that says which: the signal (SIGKILL from outside named
// as such), the limit (the memory budget in bytes), the exit status, or the protocol
// rule the answer broke; the next Compile starts a fresh worker. A worker that
// answered stays for the next compile. A worker that died while idle (killed between
// compiles) is noticed before the next request is sent (it can be reaped, or its end of
// the socket is closed) and replaced, so only the compile a worker was running when it
// died fails. One killed as the request goes out, still ending, cannot be told from one
// killed while compiling: that compile fails with the signal's message.
//
// Not thread-safe: one compile at a time per WarmWorker (glint_worker_t locks).
#ifndef GLINT_GLSLANG_WORKER_WARM_WORKER_H
#define GLINT_GLSLANG_WORKER_WARM_WORKER_H

#include <sys/types.h>

#include <optional>
#include <string>

#include "glint/isolated.h"
#include "glslang/api/c_api_internal.h"
#include "glslang/worker/worker_protocol.h"

namespace glint {

class WarmWorker {
 public:
  explicit WarmWorker(IsolationOptions isolation);
  ~WarmWorker();
  WarmWorker(const WarmWorker&) = delete;
  WarmWorker& operator=(const WarmWorker&) = delete;

  // Compiles `input` with `options` in the worker into `result` (success, words, the
  // worker's report, then the isolation error if any). Never throws.
  bool Compile(const glint_input_s& input, const Options& options, glint_result_s& result);

 private:
  // How one exchange ended, when it did not end with a response.
  enum class Broken {
    kNone,
    kTimeout,   // the deadline passed
    kEnded,     // the worker closed the channel: it exited or is exiting
    kProtocol,  // the worker said something the protocol does not allow (problem_)
  };
  // How long a worker that closed its channel gets to exit before it is killed.
  static constexpr uint64_t kEndGraceMs = 2000;

  bool Start(std::string* error);
  // Reaps and forgets a worker that exited or closed its channel since its last compile.
  void ReplaceIfDead();
  // Ends the worker after a broken exchange; the error text that says why.
  std::string EndExchange(Broken broken);
  // Waits up to kEndGraceMs for a worker that closed its channel; its wait status, or
  // nullopt when it had to be killed.
  std::optional<int> AwaitEnd();
  Broken Exchange(const glint_input_s& input, const Options& options, worker::Response* response);
  bool AnswerInclude(const std::string& payload, frontend::DirectoryIncluder& includer,
                     uint64_t deadline);
  int Discard();  // kills and reaps the worker; its wait status

  IsolationOptions isolation_;
  pid_t pid_ = -1;
  int channel_ = -1;
  std::string problem_;  // kProtocol: the rule the worker broke
};

}  // namespace glint

#endif  // GLINT_GLSLANG_WORKER_WARM_WORKER_H
