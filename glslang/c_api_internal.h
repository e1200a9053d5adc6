// What the C API's translation units share (c_interface.cpp: options, results, reports
// and the legacy glint_compile_glsl; c_input.cpp: the input builder and glint_compile):
// the structs behind the opaque handles and the guard that keeps every C++ exception
// on this side of the C boundary. Not installed: C callers only see opaque pointers, so
// these structs may change freely between releases.
#ifndef GLINT_GLSLANG_C_API_INTERNAL_H
#define GLINT_GLSLANG_C_API_INTERNAL_H

#include <new>
#include <string>
#include <vector>

#include "glint/glint.h"
#include "glint/glint_c.h"

struct glint_options_s {
  glint::Options options;
};

struct glint_report_s {
  glint::Report report;
  std::vector<std::string> texts;  // FormatDiagnostic of each diagnostic, for C's `text`
};

struct glint_result_s {
  bool succeeded = false;
  std::vector<uint32_t> spirv;
  glint_report_s report;
};

namespace glint::capi {

// Appends an error diagnostic; never throws (it runs inside exception handlers).
void AddError(Report& report, const char* origin, std::string message) noexcept;

// Fills the formatted texts once the report is final; a failure returns no SPIR-V.
void Finish(glint_result_s& result);

// One diagnostic per "ERROR: ..." / "WARNING: ..." line of a glslang info log, with
// the file and line of glslang's "NAME:LINE: " prefix.
void ReportInfoLog(const char* log, Report& report);

// glslang::InitializeProcess, once per process (it is reference counted, so this extra
// reference is harmless when the embedder also calls it).
void InitializeGlslangOnce();

// The options behind a handle, or the defaults for NULL.
const Options& OptionsOrDefaults(const glint_options_t* options);

// Runs `body` on a fresh result, turning any exception into an error diagnostic.
// Returns NULL only when the result itself cannot be allocated.
template <typename Body>
glint_result_t* RunGuarded(Body body) noexcept {
  glint_result_s* result = new (std::nothrow) glint_result_s;
  if (!result) return nullptr;
  try {
    result->succeeded = body(*result);
  } catch (const std::exception& e) {
    result->succeeded = false;
    AddError(result->report.report, "glint", std::string("internal error: ") + e.what());
  } catch (...) {
    result->succeeded = false;
    AddError(result->report.report, "glint", "internal error: unknown exception");
  }
  try {
    Finish(*result);
  } catch (...) {
    // Out of memory while formatting: accessors fall back to the plain message.
    if (!result->succeeded) result->spirv.clear();
  }
  return result;
}

}  // namespace glint::capi

#endif  // GLINT_GLSLANG_C_API_INTERNAL_H
