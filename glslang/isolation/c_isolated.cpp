// The C API of the isolated compile for every input (glint_c.h): glint_worker_t, a warm
// worker behind a lock, and glint_compile_isolated, one compile in a worker of its own.
#include <mutex>

#include "glslang/api/c_api_internal.h"
#include "glslang/worker/warm_worker.h"

struct glint_worker_s {
  explicit glint_worker_s(glint::IsolationOptions isolation) : worker(std::move(isolation)) {}
  std::mutex mutex;  // one compile at a time per worker
  glint::WarmWorker worker;
};

namespace {

glint::IsolationOptions IsolationFor(const char* worker_path, uint32_t timeout_ms,
                                     uint64_t memory_limit_bytes) {
  glint::IsolationOptions isolation;
  isolation.worker_path = worker_path ? worker_path : "";
  isolation.timeout_ms = timeout_ms;
  isolation.memory_limit_bytes = memory_limit_bytes;
  return isolation;
}

bool CompileIn(glint::WarmWorker& worker, const glint_input_t* input,
               const glint_options_t* options, glint_result_s& result) {
  if (!input) {
    glint::capi::AddError(result.report.report, "glint", "glint_compile_isolated: no input");
    return false;
  }
  return worker.Compile(*input, glint::capi::OptionsOrDefaults(options), result);
}

}  // namespace

extern "C" {

glint_worker_t* glint_worker_create(const char* worker_path, uint32_t timeout_ms,
                                    uint64_t memory_limit_bytes) {
  try {
    return new glint_worker_s(IsolationFor(worker_path, timeout_ms, memory_limit_bytes));
  } catch (...) {
    return nullptr;
  }
}

glint_result_t* glint_worker_compile(glint_worker_t* worker, const glint_input_t* input,
                                     const glint_options_t* options) {
  return glint::capi::RunGuarded([&](glint_result_s& result) {
    if (!worker) {
      glint::capi::AddError(result.report.report, "glint", "glint_worker_compile: no worker");
      return false;
    }
    std::lock_guard<std::mutex> lock(worker->mutex);
    return CompileIn(worker->worker, input, options, result);
  });
}

void glint_worker_free(glint_worker_t* worker) { delete worker; }

glint_result_t* glint_compile_isolated(const glint_input_t* input, const glint_options_t* options,
                                       const char* worker_path, uint32_t timeout_ms,
                                       uint64_t memory_limit_bytes) {
  return glint::capi::RunGuarded([&](glint_result_s& result) {
    glint::WarmWorker worker(IsolationFor(worker_path, timeout_ms, memory_limit_bytes));
    return CompileIn(worker, input, options, result);
  });
}

}  // extern "C"
