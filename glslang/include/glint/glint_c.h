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

#include "glint/export.h"
#include "glint/input_limits.h"
#include "glint/version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct glint_options_s glint_options_t;
typedef struct glint_result_s glint_result_t;
typedef struct glint_report_s glint_report_t;

/* The environment the module is compiled and validated for (glint::TargetEnv). For
 * glint_compile_glsl it also picks glslang's client and SPIR-V version: OpenGL 4.5 and
 * Vulkan 1.0 emit SPIR-V 1.0, Vulkan 1.1 SPIR-V 1.3, 1.2 SPIR-V 1.5, 1.3 SPIR-V 1.6.
 * GLINT_TARGET_FROM_INPUT (the default since 0.3) validates for what the input was
 * compiled for: glint_compile compiles for Vulkan 1.0 then; glint_process_spirv
 * validates as the universal environment of the module's SPIR-V version. */
typedef enum {
  GLINT_TARGET_UNIVERSAL = 0, /* no client API; SPIR-V-in only */
  GLINT_TARGET_OPENGL_4_5 = 1,
  GLINT_TARGET_VULKAN_1_0 = 2,
  GLINT_TARGET_VULKAN_1_1 = 3,
  GLINT_TARGET_VULKAN_1_2 = 4,
  GLINT_TARGET_VULKAN_1_3 = 5,
  GLINT_TARGET_FROM_INPUT = 6 /* since 0.3 */
} glint_target_env_t;

/* Block layout rules the validator accepts beyond the target's own (glint::ValidatorLayouts),
 * as bits for glint_options_set_validator_layouts. Since 0.3. */
typedef enum {
  GLINT_LAYOUT_RELAXED = 1,                 /* VK_KHR_relaxed_block_layout */
  GLINT_LAYOUT_UNIFORM_BUFFER_STANDARD = 2, /* uniformBufferStandardLayout */
  GLINT_LAYOUT_SCALAR = 4,                  /* scalarBlockLayout */
  GLINT_LAYOUT_WORKGROUP_SCALAR = 8,        /* workgroupMemoryExplicitLayoutScalarBlockLayout */
  GLINT_LAYOUT_SKIP = 16                    /* check no block layout */
} glint_validator_layout_t;

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
  GLINT_STAGE_COMPUTE = 5,
  /* Since 0.2 (glint_compile only): */
  GLINT_STAGE_TASK = 6,
  GLINT_STAGE_MESH = 7,
  GLINT_STAGE_RAY_GENERATION = 8,
  GLINT_STAGE_INTERSECTION = 9,
  GLINT_STAGE_ANY_HIT = 10,
  GLINT_STAGE_CLOSEST_HIT = 11,
  GLINT_STAGE_MISS = 12,
  GLINT_STAGE_CALLABLE = 13
} glint_stage_t;

/* ---- options (glint::Options; defaults as documented there) ---- */

GLINT_EXPORT glint_options_t* glint_options_create(void);
GLINT_EXPORT void glint_options_free(glint_options_t* options);
/* Setters return 1, or 0 (changing nothing) for a NULL handle or a value outside its
 * enum. Enum values are taken as int and checked before use, so any integer is safe. */
GLINT_EXPORT int glint_options_set_hoist_constant_tables(glint_options_t* options, int enabled);
GLINT_EXPORT int glint_options_set_robust_access(glint_options_t* options, int enabled);
GLINT_EXPORT int glint_options_set_range_analysis(glint_options_t* options,
                                                  int mode /* glint_range_analysis_t */);
GLINT_EXPORT int glint_options_set_uniformity(glint_options_t* options,
                                              int severity /* glint_severity_t */);
/* The subgroup size the application promises: a power of two from 1 to 128 (what Vulkan
 * can report), or 0 for "unknown" (the default); 0 for any other value. */
GLINT_EXPORT int glint_options_set_subgroup_size(glint_options_t* options, uint32_t size);
/* The largest dispatch the application makes, in workgroups per dimension (a promise,
 * like the subgroup size; see glint::Options::max_workgroups). Each count at least 1, or
 * all three 0 for "unknown" (the default); 0 for any other mix. Since 0.3. */
GLINT_EXPORT int glint_options_set_max_workgroups(glint_options_t* options, uint32_t x, uint32_t y,
                                                  uint32_t z);
GLINT_EXPORT int glint_options_set_spec_constant(glint_options_t* options, uint32_t spec_id,
                                                 uint64_t value);
GLINT_EXPORT int glint_options_set_collect_ranges(glint_options_t* options, int enabled);
GLINT_EXPORT int glint_options_set_target_env(glint_options_t* options,
                                              int target /* glint_target_env_t */);
/* Validate the output with SPIRV-Tools for the target; a failure is an error. */
GLINT_EXPORT int glint_options_set_validate(glint_options_t* options, int enabled);
/* The layout rules validation accepts besides those the input declares it needs: an OR
 * of glint_validator_layout_t bits (0: none); 0 returned for an unknown bit. Since 0.3. */
GLINT_EXPORT int glint_options_set_validator_layouts(glint_options_t* options, int layouts);

/* What the user says about uniformity that no analysis proves (glint::UniformityFilter).
 * Since 0.3. */
typedef enum {
  GLINT_UNIFORMITY_FILTER_OFF = 0,           /* silence findings there (kept as suppressed) */
  GLINT_UNIFORMITY_FILTER_NOTE = 1,          /* report them as notes */
  GLINT_UNIFORMITY_FILTER_ASSUME_UNIFORM = 2 /* a function's results are uniform */
} glint_uniformity_filter_t;
/* Adds a filter, spelled as glslangValidator's --uniformity-off=... value: "FUNCTION",
 * "FILE:LINE" or "FILE:FIRST-LAST", optionally "=JUSTIFICATION". Returns 0 (adding
 * nothing) for a NULL handle or filter, an unknown action or text that does not parse.
 * Filters apply in the order added. Since 0.3. */
GLINT_EXPORT int glint_options_add_uniformity_filter(glint_options_t* options,
                                                     int action /* glint_uniformity_filter_t */,
                                                     const char* filter);

/* ---- entry points ---- */

typedef struct {
  const char* source; /* NUL-terminated GLSL text */
  glint_stage_t stage;
  const char* entry_point; /* NULL: "main" */
  const char* file_name;   /* names the source in messages; NULL: none */
  int generate_debug_info; /* nonzero: OpLine/OpSource like glslangValidator -g */
} glint_glsl_input_t;

/* Compiles `input` with glslang for the options' target environment, then runs Glint's
 * passes. `options` may be NULL (defaults). */
GLINT_EXPORT glint_result_t* glint_compile_glsl(const glint_glsl_input_t* input,
                                                const glint_options_t* options);

/* Runs Glint's passes on `word_count` SPIR-V words. The input is never modified; a
 * malformed module fails with a message. `options` may be NULL (defaults). */
GLINT_EXPORT glint_result_t* glint_process_spirv(const uint32_t* words, size_t word_count,
                                                 const glint_options_t* options);

/* ---- inputs for glint_compile (since 0.2) ----
 *
 * glint_input_t is everything glslangValidator takes about one shader: the source and
 * its language (GLSL or HLSL), stage, entry points, -D/-U, -I and an include callback,
 * -g, the SPIR-V version. glint_compile gives byte for byte what
 *   glslangValidator -V|-G [--target-env ...] [-D -e NAME --sep NAME] [-DX=Y -UZ] [-I..] [-g]
 * writes for the same input (tested). Strings are copied; the input may be freed right
 * after glint_compile returns and may be reused for further compiles. */

typedef struct glint_input_s glint_input_t;

typedef enum { GLINT_LANGUAGE_GLSL = 0, GLINT_LANGUAGE_HLSL = 1 } glint_language_t;

/* Debug information, as glslangValidator's -g flags. */
typedef enum {
  GLINT_DEBUG_INFO_DEFAULT = 0,            /* no flag: OpSource and names only */
  GLINT_DEBUG_INFO_LINES = 1,              /* -g: OpLine, OpString, the source text */
  GLINT_DEBUG_INFO_STRIP = 2,              /* -g0: no debug instructions at all */
  GLINT_DEBUG_INFO_NON_SEMANTIC = 3,       /* -gV: NonSemantic.Shader.DebugInfo.100 */
  GLINT_DEBUG_INFO_NON_SEMANTIC_SOURCE = 4 /* -gVS: the same, with the source text */
} glint_debug_info_t;

GLINT_EXPORT glint_input_t* glint_input_create(void);
GLINT_EXPORT void glint_input_free(glint_input_t* input);
/* Setters return 1, or 0 (changing nothing) for a NULL handle, a NULL string where one
 * is required, or a value outside its enum (taken as int, checked before use). */
/* NUL-terminated source text (required). */
GLINT_EXPORT int glint_input_set_source(glint_input_t* input, const char* text);
/* Names the source in messages and OpString; its directory is searched first for
 * #include "x". Default: none (messages say "" like glslang's unnamed strings). */
GLINT_EXPORT int glint_input_set_file_name(glint_input_t* input, const char* name);
GLINT_EXPORT int glint_input_set_language(glint_input_t* input,
                                          int language /* glint_language_t */);
GLINT_EXPORT int glint_input_set_stage(glint_input_t* input, int stage /* glint_stage_t */);
/* -e: the entry point's name in the module; NULL restores the default ("main"). */
GLINT_EXPORT int glint_input_set_entry_point(glint_input_t* input, const char* name);
/* --source-entrypoint: the function compiled as the entry point (HLSL); NULL: none. */
GLINT_EXPORT int glint_input_set_source_entry_point(glint_input_t* input, const char* name);
/* -DNAME[=VALUE] (value NULL: "-DNAME") and -UNAME, applied in the order given. */
GLINT_EXPORT int glint_input_add_define(glint_input_t* input, const char* name, const char* value);
GLINT_EXPORT int glint_input_add_undefine(glint_input_t* input, const char* name);
/* -I: searched, in the order added, after the including file's directory. */
GLINT_EXPORT int glint_input_add_include_directory(glint_input_t* input, const char* directory);
GLINT_EXPORT int glint_input_set_debug_info(glint_input_t* input,
                                            int debug /* glint_debug_info_t */);
/* --target-env spirv1.X: the SPIR-V version, as 0x00MMmm00 (0x00010300 is 1.3), from 1.0
 * to 1.6; 0 (the default) follows the target environment of the options. */
GLINT_EXPORT int glint_input_set_spirv_version(glint_input_t* input, uint32_t version);
/* Size limits on the sources of one compile (glint/input_limits.h): the source text
 * and each included file or callback content at most `max_source_bytes`, all of them
 * together at most `max_total_bytes` (defaults GLINT_MAX_SOURCE_BYTES, 64 MiB, and
 * GLINT_MAX_TOTAL_SOURCE_BYTES, 256 MiB). A source over its limit fails the compile
 * with a message naming the limit; an include over it is glslang's include error.
 * Returns 0 (changing nothing) for a NULL handle or a limit of 0. Since 0.3. */
GLINT_EXPORT int glint_input_set_source_limits(glint_input_t* input, uint64_t max_source_bytes,
                                               uint64_t max_total_bytes);

/* Since 0.3: the rest of glslangValidator's code generation and mapping flags. */
/* -Od: nonzero turns glslang's optimizer off (it is on by default, as in glslangValidator,
 * where it legalizes HLSL; GLSL is not optimized either way). */
GLINT_EXPORT int glint_input_set_disable_optimizer(glint_input_t* input, int disabled);
/* A .conf file's text (glslangValidator's resource limits: "MaxLights 32" pairs and the
 * "nonInductiveForLoops 1" style limits), copied; NULL restores glslang's defaults. As
 * with glslangValidator -C, the text starts from nothing: a limit it does not name is 0
 * and a flag false, not glslang's default (give every name, e.g. glslangValidator -c's
 * output, edited), so one .conf gives the same module here and on the command line. Text
 * in which a name is not followed by one number is refused here (0). A name glslang
 * does not know is passed on to glslang, which prints its warning on stdout as
 * glslangValidator does. */
GLINT_EXPORT int glint_input_set_resource_limits(glint_input_t* input, const char* conf_text);

/* The resource kinds of --shift-<kind>-binding (glslang::TResourceType's order). */
typedef enum {
  GLINT_RESOURCE_SAMPLER = 0,
  GLINT_RESOURCE_TEXTURE = 1,
  GLINT_RESOURCE_IMAGE = 2,
  GLINT_RESOURCE_UBO = 3, /* also cbuffer */
  GLINT_RESOURCE_SSBO = 4,
  GLINT_RESOURCE_UAV = 5
} glint_resource_t;

/* --shift-<kind>-binding base: bindings of that kind start at `base`. */
GLINT_EXPORT int glint_input_set_binding_shift(glint_input_t* input,
                                               int resource /* glint_resource_t */, uint32_t base);
/* --shift-<kind>-binding [base set]: the shift for descriptor set `set` only. */
GLINT_EXPORT int glint_input_set_binding_shift_for_set(glint_input_t* input,
                                                       int resource /* glint_resource_t */,
                                                       uint32_t set, uint32_t base);
/* --auto-map-bindings / --auto-map-locations: nonzero assigns what the source leaves out. */
GLINT_EXPORT int glint_input_set_auto_map_bindings(glint_input_t* input, int enabled);
GLINT_EXPORT int glint_input_set_auto_map_locations(glint_input_t* input, int enabled);

/* Include callback: the embedder supplies included files (from memory, an archive, a
 * virtual file system). Called for every #include before the include directories are
 * searched: `requested` is the name as written, `includer` the name of the including
 * file (the input's file name, or a name this callback resolved), `depth` 1 for an
 * include written in the input itself, `is_system` 1 for #include <name>. To supply
 * the file, call glint_include_set_content on `include` and return 1; return 0 to
 * decline (then the directories are searched for "name"; glslang then asks once more
 * for a "name" nothing resolved, as <name>, with is_system 1). The callback
 * runs during glint_compile, one call at a time for that compile, never after it
 * returned; it may run on Glint's big-stack worker thread for the calling thread rather
 * than on the calling thread itself (so use user_data, not thread-local state).
 * Includes nested deeper than 64 levels are refused (the message names the limit and
 * the chain of files) before the callback is asked. */
typedef struct glint_include_s glint_include_t;
typedef int (*glint_include_callback_t)(void* user_data, const char* requested,
                                        const char* includer, size_t depth, int is_system,
                                        glint_include_t* include);
/* `resolved_name` names the file in messages and in nested includes; `content` is
 * `length` bytes, copied. Returns 1, or 0 for a NULL argument, or 0 for a `length` over
 * what the compile's source limits leave (glint_input_set_source_limits; checked before
 * `content` is read), which fails the #include with a message naming the limit. */
GLINT_EXPORT int glint_include_set_content(glint_include_t* include, const char* resolved_name,
                                           const char* content, size_t length);
/* NULL callback: none (only the directories). */
GLINT_EXPORT int glint_input_set_include_callback(glint_input_t* input,
                                                  glint_include_callback_t callback,
                                                  void* user_data);

/* Compiles `input` with glslang for the options' target environment (OpenGL 4.5 or
 * Vulkan 1.0-1.3), then runs Glint's passes. `options` may be NULL (defaults). */
GLINT_EXPORT glint_result_t* glint_compile(const glint_input_t* input,
                                           const glint_options_t* options);

/* The library's version, "MAJOR.MINOR.PATCH" (GLINT_VERSION_STRING of the build). */
GLINT_EXPORT const char* glint_version(void);
/* Releases what the library keeps for the process's life (glint::Shutdown): its
 * reference on glslang's process state. Call it with no compile running, before a leak
 * check at exit; a later call into the library takes the reference again. Since 0.3. */
GLINT_EXPORT void glint_shutdown(void);

/* ---- results ---- */

GLINT_EXPORT void glint_result_free(glint_result_t* result);
/* 1 when the call succeeded, 0 otherwise (including NULL). */
GLINT_EXPORT int glint_result_succeeded(const glint_result_t* result);
/* The output SPIR-V: word count and words; 0 and NULL after a failure. */
GLINT_EXPORT size_t glint_result_spirv_size(const glint_result_t* result);
GLINT_EXPORT const uint32_t* glint_result_spirv(const glint_result_t* result);
/* Borrowed; NULL only for a NULL result. */
GLINT_EXPORT const glint_report_t* glint_result_report(const glint_result_t* result);

/* ---- reports ---- */

typedef struct {
  glint_severity_t severity;
  const char* origin; /* the pass or analysis that speaks, e.g. "uniformity" */
  const char* file;   /* "" when the module carries no line information */
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
  const char* verdict; /* "clamped", "proven in bounds", "unbounded", "not clamped", or ""
                          (no verdict); the same as glint_report_access_verdict */
} glint_access_record_t;

typedef struct {
  const char* pass;
  int changed;
  uint32_t rewrites;
} glint_pass_statistic_t;

GLINT_EXPORT size_t glint_report_diagnostic_count(const glint_report_t* report);
/* Fills `out` and returns 1; returns 0 (leaving `out` alone) for a bad index or NULL. */
GLINT_EXPORT int glint_report_diagnostic(const glint_report_t* report, size_t index,
                                         glint_diagnostic_t* out);
/* The reasons behind a diagnostic, outermost first; NULL for a bad index. */
GLINT_EXPORT const char* glint_report_diagnostic_reason(const glint_report_t* report, size_t index,
                                                        size_t reason);
/* 1 when some diagnostic is an error. */
GLINT_EXPORT int glint_report_has_errors(const glint_report_t* report);

GLINT_EXPORT size_t glint_report_access_count(const glint_report_t* report);
GLINT_EXPORT int glint_report_access(const glint_report_t* report, size_t index,
                                     glint_access_record_t* out);

/* What robust access did with an index (glint::AccessVerdict). A function rather than a
   field of glint_access_record_t, so that the struct's layout stays as it was. */
typedef enum {
  GLINT_VERDICT_NONE = 0, /* no verdict (robust access did not run); also a bad index */
  GLINT_VERDICT_CLAMPED = 1,
  GLINT_VERDICT_PROVEN_IN_BOUNDS = 2,
  GLINT_VERDICT_UNBOUNDED = 3,
  GLINT_VERDICT_NOT_CLAMPED = 4
} glint_access_verdict_t;
GLINT_EXPORT glint_access_verdict_t glint_report_access_verdict(const glint_report_t* report,
                                                                size_t index);
/* What bounds the index of access `index`: "fixed" (the record's limit), "specialization
   constant" (an array whose length is one), "runtime array length", "image size" or
   "none" (glint::AccessLimitText); NULL for a bad index or NULL report. */
GLINT_EXPORT const char* glint_report_access_limit_source(const glint_report_t* report,
                                                          size_t index);
/* 1 when the index of access `index` is proven to leave its object
   (glint::AccessRecord::out_of_bounds): then, in every workgroup, the invocation with
   LocalInvocationId invocation[0..2] computes *value there. 0 otherwise (also for a bad
   index or NULL), leaving the outputs alone. */
GLINT_EXPORT int glint_report_access_out_of_bounds(const glint_report_t* report, size_t index,
                                                   uint32_t invocation[3], int64_t* value);
/* 1 when access `index` indexes a runtime array whose length the shader never reads
   (glint::AccessRecord::length_never_read): no `.length()` of its buffer in the module,
   so no analysis can prove the index in bounds. 0 otherwise (also for a bad index or
   NULL). */
GLINT_EXPORT int glint_report_access_length_never_read(const glint_report_t* report, size_t index);

GLINT_EXPORT size_t glint_report_pass_count(const glint_report_t* report);
GLINT_EXPORT int glint_report_pass(const glint_report_t* report, size_t index,
                                   glint_pass_statistic_t* out);

/* What a diagnostic is, as a stable rule id ("uniformity/barrier", ...; the SARIF
 * ruleId); "" when it has none. NULL for a bad index. */
GLINT_EXPORT const char* glint_report_diagnostic_rule(const glint_report_t* report, size_t index);
/* Where reason `reason` of diagnostic `index` points: sets *file ("" when unknown) and
 * *line (0 when unknown) and returns 1; 0 for a bad index or NULL. */
GLINT_EXPORT int glint_report_diagnostic_reason_location(const glint_report_t* report, size_t index,
                                                         size_t reason, const char** file,
                                                         uint32_t* line);

/* Diagnostics a uniformity filter silenced (glint::Report::suppressed): not among the
 * diagnostics above. glint_report_suppressed sets each non-NULL pointer (the message,
 * its rule, its file ("" when unknown) and line, the filter as a command line spells
 * it, the filter's justification ("" when none)) and returns 1; 0 for a bad index or
 * NULL report. Since 0.3. */
GLINT_EXPORT size_t glint_report_suppressed_count(const glint_report_t* report);
GLINT_EXPORT int glint_report_suppressed(const glint_report_t* report, size_t index,
                                         const char** message, const char** rule,
                                         const char** file, uint32_t* line, const char** filter,
                                         const char** justification);

/* One constant table hoisted to a Private variable (filled with collect_ranges). */
typedef struct {
  const char* file; /* of its first access; "" without line information */
  uint32_t line;
  const char* name; /* the variable's name or %id */
  uint32_t copies_removed;
} glint_table_record_t;

GLINT_EXPORT size_t glint_report_table_count(const glint_report_t* report);
GLINT_EXPORT int glint_report_table(const glint_report_t* report, size_t index,
                                    glint_table_record_t* out);

/* The report as text for people or tools, from the same records as the accessors. */
typedef enum {
  GLINT_REPORT_FORMAT_HTML = 0,       /* glslangValidator --report=html */
  GLINT_REPORT_FORMAT_SARIF = 1,      /* --report=sarif (SARIF 2.1.0) */
  GLINT_REPORT_FORMAT_RANGES = 2,     /* --dump-ranges */
  GLINT_REPORT_FORMAT_RANGES_JSON = 3 /* --dump-ranges=json */
} glint_report_format_t;

/* Writes the report in `format` (a glint_report_format_t) into `buffer` like
 * snprintf: at most buffer_size - 1 bytes and a NUL, and returns the full length
 * (without the NUL), so a call with a NULL buffer and size 0 asks how much to allocate.
 * `source_names` / `source_texts` (`source_count` each; may be 0 and NULL) are the
 * files the HTML page shows; `title` may be NULL. Returns 0 (writing nothing) for a
 * NULL report, an unknown format or a `source_count` no array can have. */
GLINT_EXPORT size_t glint_report_format(const glint_report_t* report, int format, const char* title,
                                        const char* const* source_names,
                                        const char* const* source_texts, size_t source_count,
                                        char* buffer, size_t buffer_size);

/* ---- isolated compile (glint/isolated.h; one block, kept last) ----
 *
 * glint_compile_glsl in a separate glint-compile worker process, for text the caller
 * did not write: a crash or hang of glslang becomes a failed result with an error of
 * origin "isolation" ("internal error in glslang 12 (signal SIGSEGV) while compiling;
 * no output", "compile exceeded the time limit of N ms; no output") instead of taking
 * the caller down. Otherwise the result (words and report) is the same as
 * glint_compile_glsl's. Costs a process start and glslang's built-in tables per call
 * (tens of milliseconds of CPU; a glint_worker_t pays them once, see below).
 *
 * worker_path: the glint-compile executable; NULL or "": $GLINT_COMPILE_WORKER, else
 * the installed <prefix>/<libexecdir>/glint-compile. timeout_ms: wall-clock limit, the
 * worker is killed when it passes (0: none). memory_limit_bytes: the worker's address
 * space limit, RLIMIT_AS (0: none). Safe in multi-threaded hosts (posix_spawn, no fork). */
GLINT_EXPORT glint_result_t* glint_compile_glsl_isolated(const glint_glsl_input_t* input,
                                                         const glint_options_t* options,
                                                         const char* worker_path,
                                                         uint32_t timeout_ms,
                                                         uint64_t memory_limit_bytes);

/* Since 0.3: every input (glint_input_t: HLSL, defines, include directories, the include
 * callback, -g, mapping flags) isolated, and a warm worker reused across compiles.
 *
 * glint_compile_isolated is glint_compile in a worker process, with the same result
 * (words and report) when nothing goes wrong. Includes are resolved in the caller's
 * process by the same rules as glint_compile: the worker asks, the include callback
 * runs on the calling thread, the directories are searched by the caller. The worker
 * arguments are glint_compile_glsl_isolated's.
 *
 * glint_worker_create starts a worker at once (it builds glslang's built-in tables for
 * GLSL 450/Vulkan while the caller goes on) and glint_worker_compile sends it one
 * compile after another: the process and the tables are paid once, not per compile.
 * timeout_ms applies to each compile. A worker that crashed, ran out of time or memory
 * is replaced by a fresh one at the next compile. One compile at a time per worker
 * (concurrent calls wait for each other): give each thread its own worker. NULL only
 * when out of memory; a worker that cannot be started is reported by the compile. */
GLINT_EXPORT glint_result_t* glint_compile_isolated(const glint_input_t* input,
                                                    const glint_options_t* options,
                                                    const char* worker_path, uint32_t timeout_ms,
                                                    uint64_t memory_limit_bytes);
typedef struct glint_worker_s glint_worker_t;
GLINT_EXPORT glint_worker_t* glint_worker_create(const char* worker_path, uint32_t timeout_ms,
                                                 uint64_t memory_limit_bytes);
GLINT_EXPORT glint_result_t* glint_worker_compile(glint_worker_t* worker,
                                                  const glint_input_t* input,
                                                  const glint_options_t* options);
GLINT_EXPORT void glint_worker_free(glint_worker_t* worker);

#ifdef __cplusplus
}
#endif

#endif /* GLINT_GLINT_C_H */
