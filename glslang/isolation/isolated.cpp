// glint::CompileGlslIsolated (glint/isolated.h): the 0.1 GLSL input as glint_compile's
// input, compiled by a WarmWorker of its own (started, used once, discarded), and the
// worker path rule.
#include <cstdlib>

#include "glint/isolated.h"
#include "glslang/api/exception_text.h"
#include "glslang/worker/warm_worker.h"

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

// What glint_compile_glsl makes of the 0.1 input (c_interface.cpp's AsInput).
glint_input_s AsInput(const GlslInput& glsl) {
  static const EShLanguage kStages[] = {EShLangVertex,   EShLangTessControl, EShLangTessEvaluation,
                                        EShLangGeometry, EShLangFragment,    EShLangCompute};
  glint_input_s input;
  input.has_source = input.has_stage = true;
  input.source = glsl.source.substr(0, glsl.source.find('\0'));
  input.stage = kStages[static_cast<int>(glsl.stage)];
  input.entry_point = glsl.entry_point;
  input.file_name = glsl.file_name;
  input.debug = glsl.generate_debug_info ? GLINT_DEBUG_INFO_LINES : GLINT_DEBUG_INFO_DEFAULT;
  return input;
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
    glint_result_s result;
    WarmWorker worker(isolation);
    bool ok = worker.Compile(AsInput(input), options, result);
    if (report) {
      Report& from = result.report.report;
      for (Diagnostic& d : from.diagnostics) report->diagnostics.push_back(std::move(d));
      for (AccessRecord& a : from.accesses) report->accesses.push_back(std::move(a));
      for (PassStatistic& p : from.passes) report->passes.push_back(std::move(p));
      for (TableRecord& t : from.tables) report->tables.push_back(std::move(t));
      for (SuppressedDiagnostic& d : from.suppressed) report->suppressed.push_back(std::move(d));
    }
    if (ok) spirv.swap(result.spirv);
    return ok;
  } catch (const std::exception& e) {
    return Fail(report, capi::ExceptionText(e));
  } catch (...) {
    return Fail(report, "internal error: unknown exception");
  }
}

}  // namespace glint
