// glint::CompileGlslIsolated (glint/isolated.h): one glint-compile worker per call,
// started with posix_spawn on one end of a socket pair (its stdin and stdout), sent one
// request, read one response before the deadline, then reaped. A socket pair rather
// than two pipes so that writing to a worker that already died is an error return
// (send with MSG_NOSIGNAL), never a SIGPIPE in the host.
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "crash_message.h"
#include "glint/isolated.h"
#include "wire_format.h"
#include "worker_protocol.h"

extern char** environ;

#ifndef GLINT_COMPILE_WORKER_INSTALLED
#define GLINT_COMPILE_WORKER_INSTALLED "/usr/local/libexec/glint-compile"
#endif

namespace glint {
namespace {

bool Fail(Report* report, const std::string& message) noexcept {
  if (!report) return false;
  try {
    Diagnostic diagnostic;
    diagnostic.origin = "isolation";
    diagnostic.message = message;
    report->diagnostics.push_back(std::move(diagnostic));
  } catch (...) {
    // Out of memory while reporting: the false return still says it failed.
  }
  return false;
}

// A started worker: its pid and the host's end of the socket pair.
struct Worker {
  pid_t pid = -1;
  int channel = -1;
};

// Starts `path` with the child end of a fresh socket pair as stdin and stdout, signal
// dispositions reset and no signal blocked (the host may block or ignore some).
bool Spawn(const std::string& path, Worker* worker, std::string* error) {
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    return *error = "cannot create the worker's socket pair", false;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ends[1], 0);
  posix_spawn_file_actions_adddup2(&actions, ends[1], 1);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  char* argv[] = {const_cast<char*>(path.c_str()), nullptr};
  int status = posix_spawn(&worker->pid, path.c_str(), &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(ends[1]);
  if (status != 0) {
    close(ends[0]);
    return *error = "cannot start the compile worker " + path + " (errno " +
                    std::to_string(status) + ")",
           false;
  }
  worker->channel = ends[0];
  return true;
}

int Reap(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// What the worker's end says, given how it ended and what it sent.
bool Conclude(int status, wire::ReadStatus read, const std::string& payload,
              const IsolationOptions& isolation, std::vector<uint32_t>& spirv, Report* report) {
  if (read == wire::ReadStatus::kTimeout)
    return Fail(report, "compile exceeded the time limit of " +
                            std::to_string(isolation.timeout_ms) + " ms; no output");
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)
    return Fail(report, "compile exceeded the CPU time limit; no output");
  if (WIFSIGNALED(status))
    return Fail(report, InternalErrorMessage(WTERMSIG(status)) + "; no output");
  worker::Response response;
  if (read != wire::ReadStatus::kOk || !worker::DecodeResponse(payload, &response))
    return Fail(report, "the compile worker gave no answer (exit status " +
                            std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  if (report) {
    Report& from = response.report;
    for (Diagnostic& d : from.diagnostics) report->diagnostics.push_back(std::move(d));
    for (AccessRecord& a : from.accesses) report->accesses.push_back(std::move(a));
    for (PassStatistic& p : from.passes) report->passes.push_back(std::move(p));
  }
  if (response.succeeded) spirv.swap(response.words);
  return response.succeeded;
}

worker::Request MakeRequest(const GlslInput& input, const Options& options,
                            const IsolationOptions& isolation) {
  worker::Request request{input, options, isolation.memory_limit_bytes,
                          isolation.cpu_limit_seconds};
  if (request.cpu_limit_seconds == 0 && isolation.timeout_ms != 0)
    request.cpu_limit_seconds = (isolation.timeout_ms + 999) / 1000 + 1;
  return request;
}

bool RunWorker(const GlslInput& input, const Options& options, const IsolationOptions& isolation,
               std::vector<uint32_t>& spirv, Report* report) {
  uint64_t deadline = isolation.timeout_ms ? wire::NowMs() + isolation.timeout_ms : 0;
  std::string request = worker::EncodeRequest(MakeRequest(input, options, isolation));
  Worker worker;
  std::string error;
  if (!Spawn(CompileWorkerPath(isolation), &worker, &error)) return Fail(report, error);
  // A worker that dies before reading everything shows up below as a crash or no answer.
  wire::WriteMessage(worker.channel, worker::kRequestMagic, request);
  std::string payload;
  wire::ReadStatus read = wire::ReadMessage(worker.channel, worker::kResponseMagic,
                                            worker::kMaxResponseBytes, deadline, &payload);
  if (read == wire::ReadStatus::kTimeout) kill(worker.pid, SIGKILL);
  close(worker.channel);
  int status = Reap(worker.pid);
  return Conclude(status, read, payload, isolation, spirv, report);
}

}  // namespace

std::string CompileWorkerPath(const IsolationOptions& isolation) {
  if (!isolation.worker_path.empty()) return isolation.worker_path;
  const char* from_environment = std::getenv("GLINT_COMPILE_WORKER");
  if (from_environment && *from_environment) return from_environment;
  return GLINT_COMPILE_WORKER_INSTALLED;
}

bool CompileGlslIsolated(const GlslInput& input, const Options& options,
                         const IsolationOptions& isolation, std::vector<uint32_t>& spirv,
                         Report* report) {
  if (static_cast<int>(input.stage) < 0 || input.stage > GlslStage::kCompute)
    return Fail(report, "unknown stage " + std::to_string(static_cast<int>(input.stage)));
  try {
    return RunWorker(input, options, isolation, spirv, report);
  } catch (const std::exception& e) {
    return Fail(report, std::string("internal error: ") + e.what());
  } catch (...) {
    return Fail(report, "internal error: unknown exception");
  }
}

}  // namespace glint
