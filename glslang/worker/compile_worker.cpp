// glint-compile: the worker process of the isolated compile (warm_worker.h).
//
// Started by its host with one end of a socket pair as stdin and stdout. It first
// builds glslang's built-in symbol tables for the common case (GLSL 450 for Vulkan:
// what a fresh process otherwise pays on its first compile, about 85 ms of CPU), so a
// pre-started worker is warm by the time the first request arrives. Then, for each
// worker::Request until the host closes the socket: limits itself (RLIMIT_AS;
// RLIMIT_CPU set to what it has used plus the compile's allowance; no core files, set
// once at the start), compiles with glint_compile's own body (capi::CompileWith),
// asking the host for each #include (worker::IncludeQuery / IncludeAnswer), and writes
// one worker::Response.
// Anything glslang prints goes to stderr: stdout is moved off the protocol channel.
//
// Exit status: 0 when the host closed the socket; 2 when a message is malformed or an
// answer could not be sent (the host then reports "no answer"); kMemoryBudgetExit when
// an allocation failed under the memory limit. A crash ends it by a
// signal, which the host reports; it never tries to recover from one.
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <new>

#include "glint/glint_c.h"
#include "glslang/api/c_api_internal.h"
#include "glslang/front_end/big_stack.h"
#include "glslang/front_end/glslang_process.h"
#include "glslang/worker/wire_format.h"
#include "glslang/worker/worker_protocol.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GLINT_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GLINT_UNDER_ASAN 1
#endif

namespace glint::worker {
namespace {

// RLIMIT_AS is skipped under AddressSanitizer, whose shadow memory reserves far more
// address space than any useful limit. The CPU limit counts from what this process has
// used so far: a warm worker's earlier compiles do not eat into the next one's time.
// The memory limit is set when it changes (a warm worker's requests mostly repeat it):
// each system call costs a visible share of a compile of a few hundred microseconds.
void ApplyLimits(const Request& request) {
#ifndef GLINT_UNDER_ASAN
  static uint64_t memory_limit_set = 0;
  if (request.memory_limit_bytes && request.memory_limit_bytes != memory_limit_set) {
    rlimit memory{request.memory_limit_bytes, request.memory_limit_bytes};
    if (setrlimit(RLIMIT_AS, &memory) == 0) {
      memory_limit_set = request.memory_limit_bytes;
      std::set_new_handler([] { _exit(kMemoryBudgetExit); });
    }
  }
#endif
  if (request.cpu_limit_seconds) {
    rusage used{};
    getrusage(RUSAGE_SELF, &used);
    rlim_t spent = static_cast<rlim_t>(used.ru_utime.tv_sec + used.ru_stime.tv_sec) + 1;
    // SIGXCPU at the soft limit, SIGKILL a second later should it be caught.
    rlimit cpu{spent + request.cpu_limit_seconds, spent + request.cpu_limit_seconds + 1u};
    setrlimit(RLIMIT_CPU, &cpu);
  }
}

// Resolves every #include by asking the host, which runs glint_compile's own includer.
class HostIncluder : public frontend::DirectoryIncluder {
 public:
  explicit HostIncluder(int channel) : DirectoryIncluder({}), channel_(channel) {}
  IncludeResult* includeLocal(const char* header, const char* includer, size_t depth) override {
    return Ask(false, header, includer, depth);
  }
  IncludeResult* includeSystem(const char* header, const char* includer, size_t depth) override {
    return Ask(true, header, includer, depth);
  }

 private:
  IncludeResult* Ask(bool system, const char* header, const char* includer, size_t depth);
  int channel_;
};

glslang::TShader::Includer::IncludeResult* HostIncluder::Ask(bool system, const char* header,
                                                             const char* includer, size_t depth) {
  IncludeQuery query{system, header ? header : "", includer ? includer : "", depth};
  std::string payload;
  IncludeAnswer answer;
  if (!wire::WriteMessage(channel_, kIncludeQueryMagic, EncodeIncludeQuery(query)) ||
      wire::ReadMessage(0, kIncludeAnswerMagic, kMaxIncludeAnswerBytes, 0, &payload) !=
          wire::ReadStatus::kOk ||
      !DecodeIncludeAnswer(payload, &answer))
    _exit(2);  // the host is gone or speaks nonsense: nothing to answer
  if (answer.kind == IncludeAnswer::Kind::kNotFound) return nullptr;
  auto* text = new std::string(std::move(answer.content));
  std::string name = answer.kind == IncludeAnswer::Kind::kFound ? answer.name : "";
  return new IncludeResult(name, text->data(), text->size(), text);
}

Response Compile(const Request& request, int channel) {
  glint_result_s result;
  HostIncluder includer(channel);
  glint_options_s options{request.options};
  try {
    result.succeeded = capi::CompileWith(&request.input, options.options, &includer, result);
  } catch (const std::exception& e) {
    result.succeeded = false;
    capi::AddError(result.report.report, "glint", capi::ExceptionText(e));
  }
  Response response;
  response.succeeded = result.succeeded;
  if (result.succeeded) response.words = std::move(result.spirv);
  response.report = std::move(result.report.report);
  return response;
}

// glslang's tables for GLSL 450 under Vulkan rules, the common case, built before the
// first request (they are kept for the life of the process).
void WarmBuiltIns() {
  glint_input_s input;
  input.has_source = input.has_stage = true;
  input.source = "#version 450\nvoid main() {}\n";
  input.stage = EShLangFragment;
  glint_result_s result;
  Options options;
  options.uniformity = Severity::kOff;
  capi::CompileWith(&input, options, nullptr, result);
}

int Main() {
  int channel = dup(1);
  if (channel < 0 || dup2(2, 1) < 0) return 2;
  rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  AcquireGlslangProcess();
  WarmBuiltIns();
  for (;;) {
    std::string payload;
    Request request;
    wire::ReadStatus status = wire::ReadMessage(0, kRequestMagic, kMaxRequestBytes, 0, &payload);
    if (status == wire::ReadStatus::kEof) return 0;
    if (status != wire::ReadStatus::kOk || !DecodeRequest(payload, &request)) {
      std::fprintf(stderr,
                   "glint-compile: malformed request (this program is started by Glint's "
                   "isolated compile, not by hand)\n");
      return 2;
    }
    ApplyLimits(request);
    Response response;  // glslang recurses per nesting level: on a big stack, as in-process
    RunOnBigStack([&] { response = Compile(request, channel); });
    if (!wire::WriteMessage(channel, kResponseMagic, EncodeResponse(response))) return 2;
  }
}

}  // namespace
}  // namespace glint::worker

int main() { return glint::worker::Main(); }
