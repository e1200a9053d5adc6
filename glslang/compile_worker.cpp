// glint-compile: the worker process of glint::CompileGlslIsolated (glint/isolated.h).
//
// Reads one worker::Request from its stdin (one end of a socket pair), limits itself
// (RLIMIT_AS, RLIMIT_CPU, no core files), compiles with glint_compile_glsl — the very
// in-process path an embedder calls, so words and report are the same — and writes
// one worker::Response to its stdout, then exits 0. Anything glslang prints goes to
// stderr: stdout is moved off the protocol channel before compiling.
//
// Exit status: 0 after answering; 2 when the request is malformed or the answer could
// not be sent (the caller then reports "no answer"). A crash ends it by a signal,
// which the caller reports; it never tries to recover from one.
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>

#include "c_api_internal.h"
#include "glint/glint_c.h"
#include "wire_format.h"
#include "worker_protocol.h"

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
// address space than any useful limit.
void ApplyLimits(const Request& request) {
  rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
#ifndef GLINT_UNDER_ASAN
  if (request.memory_limit_bytes) {
    rlimit memory{request.memory_limit_bytes, request.memory_limit_bytes};
    setrlimit(RLIMIT_AS, &memory);
  }
#endif
  if (request.cpu_limit_seconds) {
    // SIGXCPU at the soft limit, SIGKILL a second later should it be caught.
    rlimit cpu{request.cpu_limit_seconds, request.cpu_limit_seconds + 1u};
    setrlimit(RLIMIT_CPU, &cpu);
  }
}

void TakeDiagnostics(const glint_report_t* from, Report& report) {
  for (size_t i = 0; i < glint_report_diagnostic_count(from); ++i) {
    glint_diagnostic_t d;
    glint_report_diagnostic(from, i, &d);
    Diagnostic& out = report.diagnostics.emplace_back();
    out.severity = static_cast<Severity>(d.severity);
    out.origin = d.origin;
    out.location = {d.file, d.line, d.column};
    out.message = d.message;
    for (size_t r = 0; r < d.reason_count; ++r)
      out.reasons.push_back(glint_report_diagnostic_reason(from, i, r));
  }
}

void TakeRecords(const glint_report_t* from, Report& report) {
  for (size_t i = 0; i < glint_report_access_count(from); ++i) {
    glint_access_record_t a;
    glint_report_access(from, i, &a);
    report.accesses.push_back({{a.file, a.line, a.column},
                               a.instruction,
                               a.object,
                               a.index_id,
                               a.access_id,
                               a.index_position,
                               a.has_range != 0,
                               a.range_min,
                               a.range_max,
                               a.is_signed != 0,
                               a.reason,
                               a.limit,
                               static_cast<AccessVerdict>(glint_report_access_verdict(from, i))});
  }
  for (size_t i = 0; i < glint_report_pass_count(from); ++i) {
    glint_pass_statistic_t p;
    glint_report_pass(from, i, &p);
    report.passes.push_back({p.pass, p.changed != 0, p.rewrites});
  }
}

Response Compile(const Request& request) {
  const GlslInput& in = request.input;
  glint_glsl_input_t input{};
  input.source = in.source.c_str();
  input.stage = static_cast<glint_stage_t>(in.stage);
  input.entry_point = in.entry_point.empty() ? nullptr : in.entry_point.c_str();
  input.file_name = in.file_name.empty() ? nullptr : in.file_name.c_str();
  input.generate_debug_info = in.generate_debug_info;
  // The worker is part of the library: the options cross as they are, every field.
  glint_options_s options{request.options};
  glint_result_t* result = glint_compile_glsl(&input, &options);
  Response response;
  response.succeeded = glint_result_succeeded(result) != 0;
  const uint32_t* words = glint_result_spirv(result);
  response.words.assign(words, words + glint_result_spirv_size(result));
  TakeDiagnostics(glint_result_report(result), response.report);
  TakeRecords(glint_result_report(result), response.report);
  glint_result_free(result);
  return response;
}

int Main() {
  int channel = dup(1);
  if (channel < 0 || dup2(2, 1) < 0) return 2;
  std::string payload;
  Request request;
  if (wire::ReadMessage(0, kRequestMagic, kMaxRequestBytes, 0, &payload) != wire::ReadStatus::kOk ||
      !DecodeRequest(payload, &request)) {
    std::fprintf(stderr,
                 "glint-compile: malformed request (this program is started by "
                 "glint::CompileGlslIsolated, not by hand)\n");
    return 2;
  }
  ApplyLimits(request);
  Response response = Compile(request);
  return wire::WriteMessage(channel, kResponseMagic, EncodeResponse(response)) ? 0 : 2;
}

}  // namespace
}  // namespace glint::worker

int main() { return glint::worker::Main(); }
