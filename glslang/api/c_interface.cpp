// The C API (include/glint/glint_c.h): opaque handles around glint::Options and
// glint::Report, and the two entry points. Every exported function catches everything
// (no C++ exception may cross into C) and tolerates NULL handles. glint_compile_glsl
// (0.1) checks its input, then compiles it as the equivalent glint_input_t through
// glint_compile (c_input.cpp), the library's one path through glslang.
#include "glint/glint_c.h"

#include <glslang/Public/ShaderLang.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "SPIRV/ir/parser.h"
#include "glint/glint.h"
#include "glint/report_format.h"
#include "glslang/api/c_api_internal.h"
#include "glslang/front_end/big_stack.h"
#include "glslang/front_end/glslang_process.h"

static_assert(GLINT_MAX_MODULE_WORDS == glint::spirv::kMaxModuleWords,
              "glint/input_limits.h must state the IR's own module limit");

// glint_access_verdict_t is AccessVerdict's values, so one cast converts.
static_assert(GLINT_VERDICT_NONE == static_cast<int>(glint::AccessVerdict::kNone) &&
                  GLINT_VERDICT_CLAMPED == static_cast<int>(glint::AccessVerdict::kClamped) &&
                  GLINT_VERDICT_PROVEN_IN_BOUNDS ==
                      static_cast<int>(glint::AccessVerdict::kProvenInBounds) &&
                  GLINT_VERDICT_UNBOUNDED == static_cast<int>(glint::AccessVerdict::kUnbounded) &&
                  GLINT_VERDICT_NOT_CLAMPED == static_cast<int>(glint::AccessVerdict::kNotClamped),
              "glint_access_verdict_t must match glint::AccessVerdict");

namespace glint::capi {

void AddError(Report& report, const char* origin, std::string message) noexcept {
  try {
    Diagnostic diagnostic;
    diagnostic.origin = origin;
    diagnostic.message = std::move(message);
    report.diagnostics.push_back(std::move(diagnostic));
  } catch (...) {
    // Out of memory: the result still says it failed.
  }
}

void Finish(glint_result_s& result) {
  if (!result.succeeded) result.spirv.clear();
  result.report.texts.clear();
  for (const Diagnostic& d : result.report.report.diagnostics)
    result.report.texts.push_back(glint::FormatDiagnostic(d));
}

}  // namespace glint::capi

namespace {

using glint::Diagnostic;
using glint::Severity;
using glint::capi::AddError;
using glint::capi::RunGuarded;

// A C caller may store any integer in an enum-typed field, but C++ may not load a
// value outside the enumerators' range as the enum type (undefined; UBSan: "load of
// value 77, which is not a valid value"). So enum fields of the public structs are
// read as the integer in their bytes (as the signed int a C caller stores) and checked
// against the enumerators; setters take their enum values as int.
template <typename Enum>
long long RawEnum(const Enum& value) {
  std::make_signed_t<std::underlying_type_t<Enum>> raw;
  static_assert(sizeof raw == sizeof value);
  std::memcpy(&raw, &value, sizeof raw);
  return static_cast<long long>(raw);
}

bool ToTargetEnv(int value, glint::TargetEnv* target) {
  switch (value) {
    case GLINT_TARGET_UNIVERSAL:
      *target = glint::TargetEnv::kUniversal;
      return true;
    case GLINT_TARGET_OPENGL_4_5:
      *target = glint::TargetEnv::kOpenGL45;
      return true;
    case GLINT_TARGET_VULKAN_1_0:
      *target = glint::TargetEnv::kVulkan10;
      return true;
    case GLINT_TARGET_VULKAN_1_1:
      *target = glint::TargetEnv::kVulkan11;
      return true;
    case GLINT_TARGET_VULKAN_1_2:
      *target = glint::TargetEnv::kVulkan12;
      return true;
    case GLINT_TARGET_VULKAN_1_3:
      *target = glint::TargetEnv::kVulkan13;
      return true;
    case GLINT_TARGET_FROM_INPUT:
      *target = glint::TargetEnv::kFromInput;
      return true;
  }
  return false;
}

bool ToSeverity(int value, Severity* severity) {
  switch (value) {
    case GLINT_SEVERITY_OFF:
      *severity = Severity::kOff;
      return true;
    case GLINT_SEVERITY_NOTE:
      *severity = Severity::kNote;
      return true;
    case GLINT_SEVERITY_WARNING:
      *severity = Severity::kWarning;
      return true;
    case GLINT_SEVERITY_ERROR:
      *severity = Severity::kError;
      return true;
  }
  return false;
}

glint_severity_t FromSeverity(Severity severity) {
  switch (severity) {
    case Severity::kOff:
      return GLINT_SEVERITY_OFF;
    case Severity::kNote:
      return GLINT_SEVERITY_NOTE;
    case Severity::kWarning:
      return GLINT_SEVERITY_WARNING;
    case Severity::kError:
      break;
  }
  return GLINT_SEVERITY_ERROR;
}

bool ToStage(long long value, EShLanguage* stage) {
  switch (value) {
    case GLINT_STAGE_VERTEX:
      *stage = EShLangVertex;
      return true;
    case GLINT_STAGE_TESS_CONTROL:
      *stage = EShLangTessControl;
      return true;
    case GLINT_STAGE_TESS_EVALUATION:
      *stage = EShLangTessEvaluation;
      return true;
    case GLINT_STAGE_GEOMETRY:
      *stage = EShLangGeometry;
      return true;
    case GLINT_STAGE_FRAGMENT:
      *stage = EShLangFragment;
      return true;
    case GLINT_STAGE_COMPUTE:
      *stage = EShLangCompute;
      return true;
  }
  return false;
}

// glslang's client, client version and SPIR-V version for a Glint target.
struct GlslangTarget {
  glslang::EShClient client;
  glslang::EShTargetClientVersion client_version;
  glslang::EShTargetLanguageVersion spirv_version;
};

bool ToGlslangTarget(glint::TargetEnv target, GlslangTarget* out) {
  using glint::TargetEnv;
  switch (target) {
    case TargetEnv::kOpenGL45:
      *out = {glslang::EShClientOpenGL, glslang::EShTargetOpenGL_450, glslang::EShTargetSpv_1_0};
      return true;
    case TargetEnv::kVulkan10:
    case TargetEnv::kFromInput:  // an input without a target of its own: Vulkan 1.0
      *out = {glslang::EShClientVulkan, glslang::EShTargetVulkan_1_0, glslang::EShTargetSpv_1_0};
      return true;
    case TargetEnv::kVulkan11:
      *out = {glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3};
      return true;
    case TargetEnv::kVulkan12:
      *out = {glslang::EShClientVulkan, glslang::EShTargetVulkan_1_2, glslang::EShTargetSpv_1_5};
      return true;
    case TargetEnv::kVulkan13:
      *out = {glslang::EShClientVulkan, glslang::EShTargetVulkan_1_3, glslang::EShTargetSpv_1_6};
      return true;
    case TargetEnv::kUniversal:
      break;
  }
  return false;
}

}  // namespace

namespace glint::capi {

using glint::Diagnostic;
using glint::Severity;

void InitializeGlslangOnce() { AcquireGlslangProcess(); }

// Reads "NAME:LINE: message" (glslang's location prefix) into `diagnostic`.
namespace {

void ParseGlslangLocation(const std::string& text, Diagnostic& diagnostic) {
  size_t first = text.find(':');
  size_t second = first == std::string::npos ? first : text.find(':', first + 1);
  if (second == std::string::npos || second == first + 1) return;
  std::string line = text.substr(first + 1, second - first - 1);
  if (line.size() > 9 || line.find_first_not_of("0123456789") != std::string::npos) return;
  diagnostic.location.file = text.substr(0, first);
  diagnostic.location.line = static_cast<uint32_t>(std::stoul(line));
  size_t start = text.find_first_not_of(' ', second + 1);
  diagnostic.message = start == std::string::npos ? "" : text.substr(start);
}

}  // namespace

// One diagnostic per "ERROR: ..." / "WARNING: ..." line of a glslang info log.
void ReportInfoLog(const char* log, glint::Report& report) {
  std::istringstream lines(log ? log : "");
  for (std::string line; std::getline(lines, line);) {
    Diagnostic diagnostic;
    diagnostic.origin = "glslang";
    std::string rest;
    if (line.rfind("ERROR: ", 0) == 0) {
      diagnostic.severity = Severity::kError;
      rest = line.substr(7);
    } else if (line.rfind("WARNING: ", 0) == 0) {
      diagnostic.severity = Severity::kWarning;
      rest = line.substr(9);
    } else {
      continue;
    }
    diagnostic.message = rest;
    ParseGlslangLocation(rest, diagnostic);
    report.diagnostics.push_back(std::move(diagnostic));
  }
}

const glint::Options& OptionsOrDefaults(const glint_options_t* options) {
  static const glint::Options kDefaults;
  return options ? options->options : kDefaults;
}

}  // namespace glint::capi

namespace {

using glint::capi::OptionsOrDefaults;

// Refuses an unusable input with a message; true when it can be compiled.
bool CheckInput(const glint_glsl_input_t* input, const glint::Options& options, EShLanguage* stage,
                GlslangTarget* target, glint::Report& report) {
  if (!input || !input->source) {
    AddError(report, "glint", "glint_compile_glsl: no input or no source text");
    return false;
  }
  long long raw_stage = RawEnum(input->stage);
  if (!ToStage(raw_stage, stage)) {
    AddError(report, "glint",
             "glint_compile_glsl: unknown stage " + std::to_string(raw_stage) +
                 " (glint_stage_t is GLINT_STAGE_VERTEX (0) to GLINT_STAGE_COMPUTE (5))");
    return false;
  }
  if (!ToGlslangTarget(options.target_env, target)) {
    AddError(report, "glint",
             "glint_compile_glsl: the target environment must be OpenGL 4.5 or Vulkan 1.0-1.3");
    return false;
  }
  return true;
}

// The 0.1 input as a 0.2 one, so that both entry points take glint_compile's one path
// through the front end. The 0.1 stage numbers are the first six of glint_stage_t.
// Null when out of memory.
using InputHandle = std::unique_ptr<glint_input_t, void (*)(glint_input_t*)>;
InputHandle AsInput(const glint_glsl_input_t& input) {
  InputHandle converted(glint_input_create(), glint_input_free);
  if (!converted) return converted;
  glint_input_t* to = converted.get();
  int debug = input.generate_debug_info ? GLINT_DEBUG_INFO_LINES : GLINT_DEBUG_INFO_DEFAULT;
  bool configured = glint_input_set_source(to, input.source) &&
                    glint_input_set_stage(to, static_cast<int>(RawEnum(input.stage))) &&
                    (!input.file_name || glint_input_set_file_name(to, input.file_name)) &&
                    (!input.entry_point || glint_input_set_entry_point(to, input.entry_point)) &&
                    glint_input_set_debug_info(to, debug);
  if (!configured) converted.reset();
  return converted;
}

template <typename Record>
const Record* At(const std::vector<Record>& records, size_t index) {
  return index < records.size() ? &records[index] : nullptr;
}

}  // namespace

extern "C" {

glint_options_t* glint_options_create(void) { return new (std::nothrow) glint_options_s; }

void glint_options_free(glint_options_t* options) { delete options; }

int glint_options_set_hoist_constant_tables(glint_options_t* options, int enabled) {
  if (!options) return 0;
  options->options.hoist_constant_tables = enabled != 0;
  return 1;
}

int glint_options_set_robust_access(glint_options_t* options, int enabled) {
  if (!options) return 0;
  options->options.robust_access = enabled != 0;
  return 1;
}

int glint_options_set_range_analysis(glint_options_t* options, int mode) {
  if (!options) return 0;
  switch (mode) {
    case GLINT_RANGES_OFF:
      options->options.range_analysis = glint::RangeAnalysisMode::kOff;
      return 1;
    case GLINT_RANGES_REFERENCE:
      options->options.range_analysis = glint::RangeAnalysisMode::kReference;
      return 1;
    case GLINT_RANGES_FULL:
      options->options.range_analysis = glint::RangeAnalysisMode::kFull;
      return 1;
  }
  return 0;
}

int glint_options_set_uniformity(glint_options_t* options, int severity) {
  return options && ToSeverity(severity, &options->options.uniformity) ? 1 : 0;
}

int glint_options_set_subgroup_size(glint_options_t* options, uint32_t size) {
  // 0 (unknown) or a size Vulkan can report: a power of two up to 128.
  if (!options || size > 128 || (size & (size - 1)) != 0) return 0;
  options->options.subgroup_size = size;
  return 1;
}

int glint_options_set_max_workgroups(glint_options_t* options, uint32_t x, uint32_t y, uint32_t z) {
  bool unknown = x == 0 && y == 0 && z == 0;
  if (!options || (!unknown && (x == 0 || y == 0 || z == 0))) return 0;
  options->options.max_workgroups = {x, y, z};
  return 1;
}

int glint_options_set_spec_constant(glint_options_t* options, uint32_t spec_id, uint64_t value) {
  if (!options) return 0;
  try {
    options->options.spec_constants[spec_id] = value;
  } catch (...) {
    return 0;
  }
  return 1;
}

int glint_options_add_uniformity_filter(glint_options_t* options, int action,
                                        const char* filter) {
  if (!options || !filter || action < GLINT_UNIFORMITY_FILTER_OFF ||
      action > GLINT_UNIFORMITY_FILTER_ASSUME_UNIFORM)
    return 0;
  try {
    glint::UniformityFilter parsed;
    if (!glint::ParseUniformityFilter(static_cast<glint::UniformityFilterAction>(action), filter,
                                      &parsed, nullptr))
      return 0;
    options->options.uniformity_filters.push_back(std::move(parsed));
  } catch (...) {
    return 0;
  }
  return 1;
}

int glint_options_set_collect_ranges(glint_options_t* options, int enabled) {
  if (!options) return 0;
  options->options.collect_ranges = enabled != 0;
  return 1;
}

int glint_options_set_target_env(glint_options_t* options, int target) {
  return options && ToTargetEnv(target, &options->options.target_env) ? 1 : 0;
}

int glint_options_set_validate(glint_options_t* options, int enabled) {
  if (!options) return 0;
  options->options.validate = enabled != 0;
  return 1;
}

int glint_options_set_validator_layouts(glint_options_t* options, int layouts) {
  const int known = GLINT_LAYOUT_RELAXED | GLINT_LAYOUT_UNIFORM_BUFFER_STANDARD |
                    GLINT_LAYOUT_SCALAR | GLINT_LAYOUT_WORKGROUP_SCALAR | GLINT_LAYOUT_SKIP;
  if (!options || (layouts & ~known) != 0) return 0;
  glint::ValidatorLayouts& to = options->options.validator_layouts;
  to.relaxed_block_layout = (layouts & GLINT_LAYOUT_RELAXED) != 0;
  to.uniform_buffer_standard_layout = (layouts & GLINT_LAYOUT_UNIFORM_BUFFER_STANDARD) != 0;
  to.scalar_block_layout = (layouts & GLINT_LAYOUT_SCALAR) != 0;
  to.workgroup_scalar_block_layout = (layouts & GLINT_LAYOUT_WORKGROUP_SCALAR) != 0;
  to.skip_block_layout = (layouts & GLINT_LAYOUT_SKIP) != 0;
  return 1;
}

glint_result_t* glint_compile_glsl(const glint_glsl_input_t* input,
                                   const glint_options_t* options) {
  EShLanguage stage;
  GlslangTarget target;
  glint_result_t* refusal = RunGuarded([&](glint_result_s& result) {
    return CheckInput(input, OptionsOrDefaults(options), &stage, &target, result.report.report);
  });
  if (!refusal || !refusal->succeeded) return refusal;
  glint_result_free(refusal);
  InputHandle converted = AsInput(*input);
  if (!converted) return nullptr;  // out of memory, as when no result can be allocated
  return glint_compile(converted.get(), options);
}

glint_result_t* glint_process_spirv(const uint32_t* words, size_t word_count,
                                    const glint_options_t* options) {
  return RunGuarded([&](glint_result_s& result) {
    if (!words && word_count) {
      AddError(result.report.report, "glint", "glint_process_spirv: NULL words");
      return false;
    }
    // Checked before the first word is read: a count over the limit says nothing true
    // about the caller's buffer, and `words + word_count` could wrap.
    std::string too_big = glint::spirv::CheckModuleSize(word_count);
    if (!too_big.empty()) {
      AddError(result.report.report, "parse", "the module is over Glint's input limit: " + too_big);
      return false;
    }
    result.spirv.assign(words, words + word_count);
    return glint::Process(result.spirv, OptionsOrDefaults(options), &result.report.report);
  });
}

void glint_result_free(glint_result_t* result) { delete result; }

int glint_result_succeeded(const glint_result_t* result) {
  return result && result->succeeded ? 1 : 0;
}

size_t glint_result_spirv_size(const glint_result_t* result) {
  return result ? result->spirv.size() : 0;
}

const uint32_t* glint_result_spirv(const glint_result_t* result) {
  return result && !result->spirv.empty() ? result->spirv.data() : nullptr;
}

const glint_report_t* glint_result_report(const glint_result_t* result) {
  return result ? &result->report : nullptr;
}

size_t glint_report_diagnostic_count(const glint_report_t* report) {
  return report ? report->report.diagnostics.size() : 0;
}

int glint_report_diagnostic(const glint_report_t* report, size_t index, glint_diagnostic_t* out) {
  const Diagnostic* d = report ? At(report->report.diagnostics, index) : nullptr;
  if (!d || !out) return 0;
  out->severity = FromSeverity(d->severity);
  out->origin = d->origin.c_str();
  out->file = d->location.file.c_str();
  out->line = d->location.line;
  out->column = d->location.column;
  out->message = d->message.c_str();
  out->reason_count = d->reasons.size();
  out->text = index < report->texts.size() ? report->texts[index].c_str() : d->message.c_str();
  return 1;
}

const char* glint_report_diagnostic_reason(const glint_report_t* report, size_t index,
                                           size_t reason) {
  const Diagnostic* d = report ? At(report->report.diagnostics, index) : nullptr;
  const std::string* text = d ? At(d->reasons, reason) : nullptr;
  return text ? text->c_str() : nullptr;
}

int glint_report_has_errors(const glint_report_t* report) {
  return report && report->report.HasErrors() ? 1 : 0;
}

size_t glint_report_access_count(const glint_report_t* report) {
  return report ? report->report.accesses.size() : 0;
}

int glint_report_access(const glint_report_t* report, size_t index, glint_access_record_t* out) {
  const glint::AccessRecord* a = report ? At(report->report.accesses, index) : nullptr;
  if (!a || !out) return 0;
  out->file = a->location.file.c_str();
  out->line = a->location.line;
  out->column = a->location.column;
  out->instruction = a->instruction.c_str();
  out->object = a->object.c_str();
  out->index_id = a->index_id;
  out->access_id = a->access_id;
  out->index_position = a->index_position;
  out->has_range = a->has_range ? 1 : 0;
  out->range_min = a->range_min;
  out->range_max = a->range_max;
  out->is_signed = a->is_signed ? 1 : 0;
  out->reason = a->reason.c_str();
  out->limit = a->limit;
  out->verdict = glint::AccessVerdictText(a->verdict);
  return 1;
}

glint_access_verdict_t glint_report_access_verdict(const glint_report_t* report, size_t index) {
  const glint::AccessRecord* a = report ? At(report->report.accesses, index) : nullptr;
  return a ? static_cast<glint_access_verdict_t>(a->verdict) : GLINT_VERDICT_NONE;
}

const char* glint_report_access_limit_source(const glint_report_t* report, size_t index) {
  const glint::AccessRecord* a = report ? At(report->report.accesses, index) : nullptr;
  return a ? glint::AccessLimitText(a->limit_kind) : nullptr;
}

int glint_report_access_out_of_bounds(const glint_report_t* report, size_t index,
                                      uint32_t invocation[3], int64_t* value) {
  const glint::AccessRecord* a = report ? At(report->report.accesses, index) : nullptr;
  if (!a || !a->out_of_bounds || !invocation || !value) return 0;
  for (size_t i = 0; i < 3; ++i) invocation[i] = a->witness_invocation[i];
  *value = a->witness_value;
  return 1;
}

int glint_report_access_length_never_read(const glint_report_t* report, size_t index) {
  const glint::AccessRecord* a = report ? At(report->report.accesses, index) : nullptr;
  return a && a->length_never_read ? 1 : 0;
}

size_t glint_report_pass_count(const glint_report_t* report) {
  return report ? report->report.passes.size() : 0;
}

int glint_report_pass(const glint_report_t* report, size_t index, glint_pass_statistic_t* out) {
  const glint::PassStatistic* p = report ? At(report->report.passes, index) : nullptr;
  if (!p || !out) return 0;
  out->pass = p->pass.c_str();
  out->changed = p->changed ? 1 : 0;
  out->rewrites = p->rewrites;
  return 1;
}

}  // extern "C"

// ---------------------------------------------------------------------------------
// Isolated compile (glint/isolated.h): glint_compile_glsl in a glint-compile worker.
// Kept as one block at the end of the file.

#include "glint/isolated.h"

namespace {

// Reads the stage as an integer (a C caller may pass any int) and refuses unknown ones.
bool ToIsolatedInput(const glint_glsl_input_t* input, glint::GlslInput* out,
                     glint::Report& report) {
  if (!input || !input->source) {
    AddError(report, "glint", "glint_compile_glsl_isolated: no input or no source text");
    return false;
  }
  int stage = 0;
  static_assert(sizeof(input->stage) == sizeof(stage), "glint_stage_t is an int");
  std::memcpy(&stage, &input->stage, sizeof stage);
  if (stage < 0 || stage > static_cast<int>(glint::GlslStage::kCompute)) {
    AddError(report, "glint",
             "glint_compile_glsl_isolated: unknown stage " + std::to_string(stage));
    return false;
  }
  out->source = input->source;
  out->stage = static_cast<glint::GlslStage>(stage);
  out->entry_point = input->entry_point ? input->entry_point : "";
  out->file_name = input->file_name ? input->file_name : "";
  out->generate_debug_info = input->generate_debug_info != 0;
  return true;
}

}  // namespace

extern "C" glint_result_t* glint_compile_glsl_isolated(const glint_glsl_input_t* input,
                                                       const glint_options_t* options,
                                                       const char* worker_path, uint32_t timeout_ms,
                                                       uint64_t memory_limit_bytes) {
  return RunGuarded([&](glint_result_s& result) {
    glint::GlslInput glsl;
    if (!ToIsolatedInput(input, &glsl, result.report.report)) return false;
    glint::IsolationOptions isolation;
    isolation.worker_path = worker_path ? worker_path : "";
    isolation.timeout_ms = timeout_ms;
    isolation.memory_limit_bytes = memory_limit_bytes;
    return glint::CompileGlslIsolated(glsl, OptionsOrDefaults(options), isolation, result.spirv,
                                      &result.report.report);
  });
}
