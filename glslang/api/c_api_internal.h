// What the C API's translation units share (c_interface.cpp: options, results, reports
// and the legacy glint_compile_glsl; c_input.cpp: the input builder and glint_compile;
// the isolated compile and its worker): the structs behind the opaque handles and the guard that
// keeps every C++ exception on this side of the C boundary. Not installed: C callers only see
// opaque pointers, so these structs may change freely between releases.
#ifndef GLINT_GLSLANG_API_C_API_INTERNAL_H
#define GLINT_GLSLANG_API_C_API_INTERNAL_H

#include <array>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "glint/glint.h"
#include "glint/glint_c.h"
#include "glslang/api/exception_text.h"
#include "glslang/front_end/front_end.h"

struct glint_options_s {
  glint::Options options;
};

struct glint_report_s {
  glint::Report report;
  std::vector<std::string> texts;  // FormatDiagnostic of each diagnostic, for C's `text`
};

struct glint_include_s {
  bool supplied = false;
  std::string name;
  std::string content;
  uint64_t limit = UINT64_MAX;  // what is left of the compile's source budget
  bool too_large = false;       // content over `limit` was offered (and not copied)
};

// What glint_input_* set (c_input.cpp); also what an isolated compile sends its worker
// (worker_protocol.cpp), field by field.
struct glint_input_s {
  bool has_source = false;
  std::string source;
  std::string file_name;
  bool hlsl = false;
  bool has_stage = false;
  EShLanguage stage = EShLangVertex;
  std::string entry_point;
  std::string source_entry_point;
  std::string preamble;                // "#define ..." / "#undef ..." lines, as -D/-U
  std::vector<std::string> processes;  // OpModuleProcessed for each -D/-U
  std::vector<std::string> include_directories;
  int debug = GLINT_DEBUG_INFO_DEFAULT;
  glslang::EShTargetLanguageVersion spirv_version{};  // 0: follow the target
  glint_include_callback_t callback = nullptr;
  void* user_data = nullptr;
  bool disable_optimizer = false;  // -Od
  bool has_resource_limits = false;
  TBuiltInResource resources{};  // decoded .conf text, when has_resource_limits
  std::array<unsigned, glslang::EResCount> binding_shift{};
  std::array<std::map<unsigned, unsigned>, glslang::EResCount> binding_shift_for_set;
  bool auto_map_bindings = false;
  bool auto_map_locations = false;
  glint::frontend::SourceLimits limits;  // glint_input_set_source_limits
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

// The includer glint_compile uses for `input`: its callback first, then the
// directories (frontend::DirectoryIncluder's search order). Refers to `input`.
std::unique_ptr<frontend::DirectoryIncluder> MakeIncluder(const glint_input_s& input);

// glint_compile's body: `input` through the front end into `result`, includes resolved
// by `includer` (null: MakeIncluder(*input)). False with an error when it fails.
bool CompileWith(const glint_input_s* input, const Options& options,
                 frontend::DirectoryIncluder* includer, glint_result_s& result);

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
    AddError(result->report.report, "glint", capi::ExceptionText(e));
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

#endif  // GLINT_GLSLANG_API_C_API_INTERNAL_H
