#include "isolated_compile.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <new>
#include <vector>

#include "glslang/big_stack.h"
#include "glslang/crash_message.h"
#include "glslang/wire_format.h"
#include "glint/input_limits.h"

namespace glint::standalone {
namespace {

// Messages on the socket pair between parent and child.
constexpr uint32_t kWriteRequest = 0x57524c47;  // child -> parent: path, bytes
constexpr uint32_t kWriteAnswer = 0x41524c47;   // parent -> child: failure, reason
constexpr uint32_t kDone = 0x44524c47;          // child -> parent: flags, payload
constexpr uint32_t kMaxMessage = 1024u << 20;

// In an isolated child: the descriptor to the parent; -1 otherwise.
int g_parent = -1;

std::string EncodeFlags(const CompileFlags& flags, const std::string& payload) {
  wire::Writer out;
  out.U8(flags.compile_failed);
  out.U8(flags.link_failed);
  out.U8(flags.output_failed);
  out.String(payload);
  return out.bytes();
}

bool DecodeFlags(const std::string& bytes, CompileOutcome* outcome) {
  wire::Reader in(bytes);
  CompileFlags& f = outcome->flags;
  return in.Bool(&f.compile_failed) && in.Bool(&f.link_failed) && in.Bool(&f.output_failed) &&
         in.String(&outcome->payload) && in.Done();
}

void FlushAll() {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
}

[[noreturn]] void ExitOverMemoryBudget() { _exit(kMemoryBudgetExit); }

// The address space this process has now (VmSize), in bytes; 0 when unknown.
uint64_t AddressSpaceBytes() {
  unsigned long long pages = 0;
  FILE* statm = std::fopen("/proc/self/statm", "r");
  if (!statm) return 0;
  if (std::fscanf(statm, "%llu", &pages) != 1) pages = 0;
  std::fclose(statm);
  return pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// Lets the child's address space grow by `memory_mb` MiB (and the big stack it is about
// to reserve); an allocation past that ends the child with kMemoryBudgetExit.
void LimitMemory(uint32_t memory_mb) {
  uint64_t now = AddressSpaceBytes();
  if (memory_mb == 0 || now == 0) return;
  uint64_t limit = now + kBigStackBytes + (uint64_t{memory_mb} << 20);
  struct rlimit cap = {limit, limit};
  if (setrlimit(RLIMIT_AS, &cap) == 0) std::set_new_handler(ExitOverMemoryBudget);
}

// Runs the body on a big stack; whatever it returns goes to the parent; then _exit,
// so nothing of the parent's (atexit handlers, static destructors) runs twice.
[[noreturn]] void ServeAsChild(int channel, const CompileBody& body) {
  g_parent = channel;
  CompileFlags flags;
  std::string payload;
  RunOnBigStack([&] { payload = body(flags); });
  FlushAll();
  bool sent = wire::WriteMessage(channel, kDone, EncodeFlags(flags, payload));
  _exit(sent ? 0 : 3);
}

// The parent's side: files written for the child, what it said, how it ended.
struct Supervision {
  std::vector<std::string> written;
  bool done = false;
  CompileOutcome outcome;
};

// A regular file the parent wrote is removed when the child did not finish.
void RemoveWritten(const std::vector<std::string>& written) {
  for (const std::string& path : written) {
    struct stat info {};
    if (stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) std::remove(path.c_str());
  }
}

bool AnswerWrite(int channel, const std::string& request, Supervision& supervision) {
  wire::Reader in(request);
  std::string path, bytes;
  if (!in.String(&path) || !in.String(&bytes) || !in.Done()) return false;
  output::WriteResult result = output::WriteOutputFile(path, bytes);
  if (result.ok()) supervision.written.push_back(path);
  wire::Writer answer;
  answer.U32(static_cast<uint32_t>(result.failure));
  answer.String(result.reason);
  return wire::WriteMessage(channel, kWriteAnswer, answer.bytes());
}

// Serves write requests until the child says it is done, closes, or the deadline.
// Returns false on the deadline.
bool Supervise(int channel, uint64_t deadline, Supervision& supervision) {
  for (;;) {
    uint32_t magic = 0;
    std::string payload;
    wire::ReadStatus status =
        wire::ReadAnyMessage(channel, kMaxMessage, deadline, &magic, &payload);
    if (status == wire::ReadStatus::kTimeout) return false;
    if (status != wire::ReadStatus::kOk) return true;  // closed: the child ended
    if (magic == kDone) {
      supervision.done = DecodeFlags(payload, &supervision.outcome);
      return true;
    }
    if (magic != kWriteRequest || !AnswerWrite(channel, payload, supervision)) return true;
  }
}

int Reap(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

CompileOutcome Conclude(int status, bool timed_out, Supervision& supervision) {
  CompileOutcome& outcome = supervision.outcome;
  if (timed_out)
    outcome.end = CompileOutcome::End::kTimedOut;
  else if (WIFSIGNALED(status))
    outcome.end = CompileOutcome::End::kCrashed, outcome.signal = WTERMSIG(status);
  else if (supervision.done && WIFEXITED(status) && WEXITSTATUS(status) == 0)
    outcome.end = CompileOutcome::End::kFinished;
  else if (!supervision.done && WIFEXITED(status) && WEXITSTATUS(status) == kMemoryBudgetExit)
    outcome.end = CompileOutcome::End::kOutOfMemory;
  else
    outcome.end = CompileOutcome::End::kExited,
    outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  if (outcome.end == CompileOutcome::End::kCrashed ||
      outcome.end == CompileOutcome::End::kTimedOut ||
      outcome.end == CompileOutcome::End::kOutOfMemory)
    RemoveWritten(supervision.written);
  return outcome;
}

CompileOutcome RunInChild(uint32_t timeout_ms, uint32_t memory_mb, const CompileBody& body) {
  int ends[2];
  FlushAll();  // the child must not print the parent's buffered text again
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) return {};
  uint64_t deadline = timeout_ms ? wire::NowMs() + timeout_ms : 0;
  pid_t pid = fork();
  if (pid == 0) {
    close(ends[0]);
    LimitMemory(memory_mb);
    ServeAsChild(ends[1], body);
  }
  close(ends[1]);
  Supervision supervision;
  bool in_time = pid > 0 && Supervise(ends[0], deadline, supervision);
  if (pid > 0 && !in_time) kill(pid, SIGKILL);
  close(ends[0]);
  if (pid < 0) return RunCompile(false, 0, body);  // no fork: compile here
  int status = Reap(pid);
  supervision.outcome.memory_mb = memory_mb;
  return Conclude(status, !in_time, supervision);
}

}  // namespace

uint32_t DefaultCompileMemoryMb() {
#if defined(__SANITIZE_ADDRESS__)
  return 0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return 0;
#else
  return GLINT_COMPILE_MEMORY_MB;
#endif
#else
  return GLINT_COMPILE_MEMORY_MB;
#endif
}

CompileOutcome RunCompile(bool isolate, uint32_t timeout_ms, const CompileBody& body,
                          uint32_t memory_mb) {
  if (isolate) return RunInChild(timeout_ms, memory_mb, body);
  CompileOutcome outcome;
  RunOnBigStack([&] { outcome.payload = body(outcome.flags); });
  return outcome;
}

output::WriteResult WriteOutput(const std::string& path, std::string_view bytes) {
  if (g_parent < 0) return output::WriteOutputFile(path, bytes);
  wire::Writer request;
  request.String(path);
  request.String(std::string(bytes));
  std::string answer;
  output::WriteResult result;
  result.failure = output::WriteFailure::kWrite;
  result.reason = "the parent process did not answer";
  if (!wire::WriteMessage(g_parent, kWriteRequest, request.bytes()) ||
      wire::ReadMessage(g_parent, kWriteAnswer, kMaxMessage, 0, &answer) != wire::ReadStatus::kOk)
    return result;
  wire::Reader in(answer);
  uint32_t failure = 0;
  if (!in.U32(&failure) || failure > 2 || !in.String(&result.reason) || !in.Done()) return result;
  result.failure = static_cast<output::WriteFailure>(failure);
  return result;
}

std::string UnfinishedLine(const CompileOutcome& outcome, const std::string& names,
                           uint32_t timeout_ms) {
  if (outcome.end == CompileOutcome::End::kTimedOut)
    return "ERROR: " + names + ": compile exceeded --timeout-ms " + std::to_string(timeout_ms) +
           "; no output written";
  if (outcome.end == CompileOutcome::End::kOutOfMemory)
    return "ERROR: " + names + ": compile exceeded its memory budget (--max-memory-mb " +
           std::to_string(outcome.memory_mb) + "); no output written";
  return "ERROR: " + names + ": " + InternalErrorMessage(outcome.signal) + "; no output written";
}

}  // namespace glint::standalone
