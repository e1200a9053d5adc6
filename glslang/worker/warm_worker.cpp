// The host side of the isolated compile (warm_worker.h).
#include "glslang/worker/warm_worker.h"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <optional>

#include "glslang/worker/crash_message.h"
#include "glslang/worker/wire_format.h"

extern char** environ;

namespace glint {
namespace {

// Starts `path` with the child end of a fresh socket pair as stdin and stdout, signal
// dispositions reset and no signal blocked (the host may block or ignore some).
bool Spawn(const std::string& path, pid_t* pid, int* channel, std::string* error) {
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
  int status = posix_spawn(pid, path.c_str(), &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(ends[1]);
  if (status != 0) {
    close(ends[0]);
    return *error = "cannot start the compile worker " + path + " (errno " +
                    std::to_string(status) + ")",
           false;
  }
  *channel = ends[0];
  return true;
}

// Why a worker that ended by itself (status from waitpid) gave no response.
std::string EndedMessage(int status, const IsolationOptions& isolation) {
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)
    return "compile exceeded the CPU time limit; no output";
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
    return "the compile worker was killed by SIGKILL while compiling, not by Glint (no time "
           "limit ran out: the kernel's out-of-memory killer or another process); no output";
  if (WIFSIGNALED(status)) return InternalErrorMessage(WTERMSIG(status)) + "; no output";
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == worker::kMemoryBudgetExit && isolation.memory_limit_bytes)
    return "compile exceeded its memory budget (memory_limit_bytes " +
           std::to_string(isolation.memory_limit_bytes) + ", " +
           std::to_string(isolation.memory_limit_bytes >> 20) + " MiB); no output";
  return "the compile worker exited with status " + std::to_string(code) +
         " without answering; no output";
}

// Whether the worker's end of the channel is closed (it exited, or is exiting).
bool PeerClosed(int channel) {
  pollfd entry{channel, POLLRDHUP, 0};
  return poll(&entry, 1, 0) > 0 && (entry.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

worker::IncludeAnswer Resolve(const worker::IncludeQuery& query,
                              frontend::DirectoryIncluder& includer) {
  using Result = glslang::TShader::Includer::IncludeResult;
  const char* header = query.header.c_str();
  const char* from = query.includer.c_str();
  Result* result = query.system ? includer.includeSystem(header, from, query.depth)
                                : includer.includeLocal(header, from, query.depth);
  worker::IncludeAnswer answer;
  if (!result) return answer;
  answer.content.assign(result->headerData, result->headerLength);
  answer.name = result->headerName;
  answer.kind = answer.name.empty() ? worker::IncludeAnswer::Kind::kRefused
                                    : worker::IncludeAnswer::Kind::kFound;
  includer.releaseInclude(result);
  if (answer.content.size() + answer.name.size() + 64 > worker::kMaxIncludeAnswerBytes) {
    answer.kind = worker::IncludeAnswer::Kind::kRefused;
    answer.content = "included file '" + answer.name + "' is larger than " +
                     std::to_string(worker::kMaxSourceBytes) +
                     " bytes, the isolated compile's source limit";
    answer.name.clear();
  }
  return answer;
}

}  // namespace

WarmWorker::WarmWorker(IsolationOptions isolation) : isolation_(std::move(isolation)) {
  std::string ignored;  // a worker that cannot start is reported by the first Compile
  Start(&ignored);
}

WarmWorker::~WarmWorker() {
  if (pid_ > 0) Discard();
}

bool WarmWorker::Start(std::string* error) {
  if (pid_ > 0) return true;
  return Spawn(CompileWorkerPath(isolation_), &pid_, &channel_, error);
}

int WarmWorker::Discard() {
  kill(pid_, SIGKILL);
  close(channel_);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  channel_ = -1;
  return status;
}

std::optional<int> WarmWorker::AwaitEnd() {
  for (uint64_t start = wire::NowMs(); wire::NowMs() - start < kEndGraceMs;) {
    int status = 0;
    pid_t ended = waitpid(pid_, &status, WNOHANG);
    if (ended == pid_) {
      close(channel_);
      pid_ = -1;
      channel_ = -1;
      return status;
    }
    if (ended < 0 && errno != EINTR) break;
    usleep(1000);
  }
  Discard();
  return std::nullopt;
}

void WarmWorker::ReplaceIfDead() {
  if (pid_ <= 0) return;
  int status = 0;
  bool exited = waitpid(pid_, &status, WNOHANG) == pid_;
  if (!exited && !PeerClosed(channel_)) return;
  if (exited) {
    close(channel_);
    pid_ = -1;
    channel_ = -1;
  } else {
    Discard();
  }
}

bool WarmWorker::AnswerInclude(const std::string& payload, frontend::DirectoryIncluder& includer,
                               uint64_t deadline) {
  worker::IncludeQuery query;
  if (!worker::DecodeIncludeQuery(payload, &query)) return false;
  return wire::WriteMessage(channel_, worker::kIncludeAnswerMagic,
                            worker::EncodeIncludeAnswer(Resolve(query, includer)), deadline);
}

WarmWorker::Broken WarmWorker::Exchange(const glint_input_s& input, const Options& options,
                                        worker::Response* response) {
  uint64_t deadline = isolation_.timeout_ms ? wire::NowMs() + isolation_.timeout_ms : 0;
  worker::Request request{input, options, isolation_.memory_limit_bytes,
                          isolation_.cpu_limit_seconds};
  if (request.cpu_limit_seconds == 0 && isolation_.timeout_ms != 0)
    request.cpu_limit_seconds = (isolation_.timeout_ms + 999) / 1000 + 1;
  // A failed write or read: the deadline, the worker's end (it closed the channel), or
  // a rule of the protocol it broke (problem_ says which).
  auto broken = [&](const std::string& why) {
    if (deadline && wire::NowMs() >= deadline) return Broken::kTimeout;
    if (PeerClosed(channel_)) return Broken::kEnded;
    problem_ = why;
    return Broken::kProtocol;
  };
  if (!wire::WriteMessage(channel_, worker::kRequestMagic, worker::EncodeRequest(request),
                          deadline))
    return broken("the request could not be written");
  std::unique_ptr<frontend::DirectoryIncluder> includer = capi::MakeIncluder(input);
  for (;;) {
    uint32_t magic = 0;
    std::string payload, why;
    wire::ReadStatus status =
        wire::ReadAnyMessage(channel_, worker::kMaxResponseBytes, deadline, &magic, &payload,
                             {worker::kResponseMagic, worker::kIncludeQueryMagic}, &why);
    if (status == wire::ReadStatus::kTimeout) return Broken::kTimeout;
    if (status == wire::ReadStatus::kEof) return Broken::kEnded;
    if (status != wire::ReadStatus::kOk) return broken(why);
    if (magic == worker::kResponseMagic) {
      if (worker::DecodeResponse(payload, response)) return Broken::kNone;
      return broken("a response that does not decode (a value out of range, or bytes left over)");
    }
    if (!AnswerInclude(payload, *includer, deadline))
      return broken("an include query that does not decode, or whose answer could not be written");
  }
}

bool WarmWorker::Compile(const glint_input_s& input, const Options& options,
                         glint_result_s& result) {
  Report& report = result.report.report;
  try {
    std::string error;
    ReplaceIfDead();
    if (!Start(&error)) return capi::AddError(report, "isolation", error), false;
    worker::Response response;
    Broken broken = Exchange(input, options, &response);
    if (broken != Broken::kNone) {
      capi::AddError(report, "isolation", EndExchange(broken));
      return false;
    }
    for (Diagnostic& d : response.report.diagnostics) report.diagnostics.push_back(std::move(d));
    report.accesses = std::move(response.report.accesses);
    report.passes = std::move(response.report.passes);
    report.tables = std::move(response.report.tables);
    report.suppressed = std::move(response.report.suppressed);
    result.spirv = std::move(response.words);
    return response.succeeded;
  } catch (const std::exception& e) {
    if (pid_ > 0) Discard();  // the exchange may have stopped midway
    capi::AddError(report, "isolation", capi::ExceptionText(e));
    return false;
  }
}

std::string WarmWorker::EndExchange(Broken broken) {
  if (broken == Broken::kTimeout) {
    Discard();
    return "compile exceeded the time limit of " + std::to_string(isolation_.timeout_ms) +
           " ms; no output";
  }
  if (broken == Broken::kProtocol) {
    Discard();
    return "the compile worker broke the protocol: " + problem_ + "; no output";
  }
  std::optional<int> status = AwaitEnd();
  if (!status)
    return "the compile worker closed its channel without answering and did not exit; no output";
  return EndedMessage(*status, isolation_);
}

}  // namespace glint
