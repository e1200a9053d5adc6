// The host side of the isolated compile (warm_worker.h).
#include "glslang/worker/warm_worker.h"

#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

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

// Why a discarded worker gave no response, from how it ended.
std::string FailureMessage(int status, bool timed_out, const IsolationOptions& isolation) {
  if (timed_out)
    return "compile exceeded the time limit of " + std::to_string(isolation.timeout_ms) +
           " ms; no output";
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)
    return "compile exceeded the CPU time limit; no output";
  if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
    return InternalErrorMessage(WTERMSIG(status)) + "; no output";
  return "the compile worker gave no answer (exit status " +
         std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
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
  auto broken = [&] {
    return deadline && wire::NowMs() >= deadline ? Broken::kTimeout : Broken::kNoAnswer;
  };
  if (!wire::WriteMessage(channel_, worker::kRequestMagic, worker::EncodeRequest(request),
                          deadline))
    return broken();
  std::unique_ptr<frontend::DirectoryIncluder> includer = capi::MakeIncluder(input);
  for (;;) {
    uint32_t magic = 0;
    std::string payload;
    wire::ReadStatus status =
        wire::ReadAnyMessage(channel_, worker::kMaxResponseBytes, deadline, &magic, &payload,
                             {worker::kResponseMagic, worker::kIncludeQueryMagic});
    if (status == wire::ReadStatus::kTimeout) return Broken::kTimeout;
    if (status != wire::ReadStatus::kOk) return Broken::kNoAnswer;
    if (magic == worker::kResponseMagic)
      return worker::DecodeResponse(payload, response) ? Broken::kNone : Broken::kNoAnswer;
    if (!AnswerInclude(payload, *includer, deadline)) return broken();
  }
}

bool WarmWorker::Compile(const glint_input_s& input, const Options& options,
                         glint_result_s& result) {
  Report& report = result.report.report;
  try {
    std::string error;
    if (!Start(&error)) return capi::AddError(report, "isolation", error), false;
    worker::Response response;
    Broken broken = Exchange(input, options, &response);
    if (broken != Broken::kNone) {
      int status = Discard();
      capi::AddError(report, "isolation",
                     FailureMessage(status, broken == Broken::kTimeout, isolation_));
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
    capi::AddError(report, "isolation", std::string("internal error: ") + e.what());
    return false;
  }
}

}  // namespace glint
