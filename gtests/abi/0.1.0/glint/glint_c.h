/*
 * Glint's C API: the two entry points of glint.h for C and for languages that bind C.
 *
 *   glint_compile_glsl()  GLSL source -> glslang (parse, link, SPIR-V) -> Glint's passes
 *   glint_process_spirv() SPIR-V from any front end -> Glint's passes
 *
 * Handles are opaque and owned by the caller, who frees each with its own function:
 *   glint_options_t  what to do (create, set, free); NULL everywhere means defaults
 *   glint_result_t   what came out: success, the SPIR-V words and a report (free)
 *   glint_report_t   diagnostics, per-access records and pass statistics; borrowed
 *                    from its result and valid until that result is freed
 * Strings and arrays returned by accessors are borrowed the same way.
 *
 * Errors are values: a failed call returns a result whose glint_result_succeeded() is
 * 0 and whose report says why; no exception crosses this boundary, nothing aborts.
 * Every function accepts NULL handles: counts are 0, strings NULL, setters return 0,
 * free functions do nothing. Only glint_*_create / compile / process return NULL, and
 * only when memory runs out.
 *
 * Thread safety: all functions may be called from several threads at once as long as
 * no handle is written (set_*, free) by one thread while another uses it; an options
 * handle may be shared read-only by many compiles. glint_compile_glsl() initializes
 * glslang itself (glslang::InitializeProcess, once per process), so it works whether or
 * not the embedder has done so.
 */
#ifndef GLINT_GLINT_C_H
#define GLINT_GLINT_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct glint_options_s glint_options_t;
typedef struct glint_result_s glint_result_t;
typedef struct glint_report_s glint_report_t;

/* The environment the module is compiled and validated for (glint::TargetEnv). For
 * glint_compile_glsl it also picks glslang's client and SPIR-V version: OpenGL 4.5 and
 * Vulkan 1.0 emit SPIR-V 1.0, Vulkan 1.1 SPIR-V 1.3, 1.2 SPIR-V 1.5, 1.3 SPIR-V 1.6. */
typedef enum {
  GLINT_TARGET_UNIVERSAL = 0, /* no client API; SPIR-V-in only */
  GLINT_TARGET_OPENGL_4_5 = 1,
  GLINT_TARGET_VULKAN_1_0 = 2,
  GLINT_TARGET_VULKAN_1_1 = 3,
  GLINT_TARGET_VULKAN_1_2 = 4,
  GLINT_TARGET_VULKAN_1_3 = 5
} glint_target_env_t;

/* Which analysis may prove a robustness clamp unnecessary (glint::RangeAnalysisMode). */
typedef enum {
  GLINT_RANGES_OFF = 0,       /* clamp every dynamic index */
  GLINT_RANGES_REFERENCE = 1, /* the reference design's rules only */
  GLINT_RANGES_FULL = 2       /* Glint's analysis (default) */
} glint_range_analysis_t;

typedef enum {
  GLINT_SEVERITY_OFF = 0,
  GLINT_SEVERITY_NOTE = 1,
  GLINT_SEVERITY_WARNING = 2,
  GLINT_SEVERITY_ERROR = 3
} glint_severity_t;

typedef enum {
  GLINT_STAGE_VERTEX = 0,
  GLINT_STAGE_TESS_CONTROL = 1,
  GLINT_STAGE_TESS_EVALUATION = 2,
  GLINT_STAGE_GEOMETRY = 3,
  GLINT_STAGE_FRAGMENT = 4,
  GLINT_STAGE_COMPUTE = 5
} glint_stage_t;

/* ---- options (glint::Options; defaults as documented there) ---- */

glint_options_t* glint_options_create(void);
void glint_options_free(glint_options_t* options);
/* Setters return 1, or 0 for a NULL handle or a value outside its enum. */
int glint_options_set_hoist_constant_tables(glint_options_t* options, int enabled);
int glint_options_set_robust_access(glint_options_t* options, int enabled);
int glint_options_set_range_analysis(glint_options_t* options, glint_range_analysis_t mode);
int glint_options_set_uniformity(glint_options_t* options, glint_severity_t severity);
int glint_options_set_subgroup_size(glint_options_t* options, uint32_t size);
int glint_options_set_spec_constant(glint_options_t* options, uint32_t spec_id, uint64_t value);
int glint_options_set_collect_ranges(glint_options_t* options, int enabled);
int glint_options_set_target_env(glint_options_t* options, glint_target_env_t target);
/* Validate the output with SPIRV-Tools for the target; a failure is an error. */
int glint_options_set_validate(glint_options_t* options, int enabled);

/* ---- entry points ---- */

typedef struct {
  const char* source;      /* NUL-terminated GLSL text */
  glint_stage_t stage;
  const char* entry_point; /* NULL: "main" */
  const char* file_name;   /* names the source in messages; NULL: none */
  int generate_debug_info; /* nonzero: OpLine/OpSource like glslangValidator -g */
} glint_glsl_input_t;

/* Compiles `input` with glslang for the options' target environment, then runs Glint's
 * passes. `options` may be NULL (defaults). */
glint_result_t* glint_compile_glsl(const glint_glsl_input_t* input, const glint_options_t* options);

/* Runs Glint's passes on `word_count` SPIR-V words. The input is never modified; a
 * malformed module fails with a message. `options` may be NULL (defaults). */
glint_result_t* glint_process_spirv(const uint32_t* words, size_t word_count,
                                    const glint_options_t* options);

/* ---- results ---- */

void glint_result_free(glint_result_t* result);
/* 1 when the call succeeded, 0 otherwise (including NULL). */
int glint_result_succeeded(const glint_result_t* result);
/* The output SPIR-V: word count and words; 0 and NULL after a failure. */
size_t glint_result_spirv_size(const glint_result_t* result);
const uint32_t* glint_result_spirv(const glint_result_t* result);
/* Borrowed; NULL only for a NULL result. */
const glint_report_t* glint_result_report(const glint_result_t* result);

/* ---- reports ---- */

typedef struct {
  glint_severity_t severity;
  const char* origin;  /* the pass or analysis that speaks, e.g. "uniformity" */
  const char* file;    /* "" when the module carries no line information */
  uint32_t line;
  uint32_t column;
  const char* message;
  size_t reason_count; /* see glint_report_diagnostic_reason */
  const char* text;    /* formatted like glslangValidator: "WARNING: file:line: ..." */
} glint_diagnostic_t;

/* One dynamic index operand, as glint::AccessRecord (filled with collect_ranges). */
typedef struct {
  const char* file;
  uint32_t line;
  uint32_t column;
  const char* instruction; /* e.g. "OpAccessChain" */
  const char* object;      /* the accessed variable's name or %id */
  uint32_t index_id;       /* result id of the index operand in the output module */
  uint32_t access_id;      /* result id of the accessing instruction */
  uint32_t index_position; /* which of its indices (0 for the first) */
  int has_range;
  int64_t range_min;
  int64_t range_max;
  int is_signed;
  const char* reason;  /* why there is no range; "" otherwise */
  int64_t limit;       /* largest valid index, -1 when known only at run time */
  const char* verdict; /* "clamped", "proven in bounds", "unbounded", "not clamped" */
} glint_access_record_t;

typedef struct {
  const char* pass;
  int changed;
  uint32_t rewrites;
} glint_pass_statistic_t;

size_t glint_report_diagnostic_count(const glint_report_t* report);
/* Fills `out` and returns 1; returns 0 (leaving `out` alone) for a bad index or NULL. */
int glint_report_diagnostic(const glint_report_t* report, size_t index, glint_diagnostic_t* out);
/* The reasons behind a diagnostic, outermost first; NULL for a bad index. */
const char* glint_report_diagnostic_reason(const glint_report_t* report, size_t index,
                                           size_t reason);
/* 1 when some diagnostic is an error. */
int glint_report_has_errors(const glint_report_t* report);

size_t glint_report_access_count(const glint_report_t* report);
int glint_report_access(const glint_report_t* report, size_t index, glint_access_record_t* out);

size_t glint_report_pass_count(const glint_report_t* report);
int glint_report_pass(const glint_report_t* report, size_t index, glint_pass_statistic_t* out);

#ifdef __cplusplus
}
#endif

#endif /* GLINT_GLINT_C_H */
