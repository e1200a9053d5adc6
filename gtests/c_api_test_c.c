/*
 * The C half of c_api_test: compiled as C99 (with -pedantic-errors), it proves that
 * glint/glint_c.h is C-clean and drives the C API the way a C embedder would. The
 * GoogleTest cases in c_api_test.cpp call these functions and check what they return.
 */
#if defined(__cplusplus)
#error "c_api_test_c.c must be compiled as C"
#endif

#include "glint/glint_c.h"

#include <stdio.h>
#include <string.h>

/* Compiles `source` as a compute shader for Vulkan 1.0 with robust access, range
 * collection and validation on. Returns 1 on success; writes the output's word count,
 * the number of access records and the first diagnostic's formatted text. */
int glint_c_test_compile(const char* source, size_t* word_count, size_t* access_count,
                         char* first_text, size_t capacity) {
  glint_options_t* options = glint_options_create();
  glint_glsl_input_t input;
  glint_result_t* result;
  const glint_report_t* report;
  glint_diagnostic_t diagnostic;
  int succeeded;

  glint_options_set_robust_access(options, 1);
  glint_options_set_collect_ranges(options, 1);
  glint_options_set_validate(options, 1);
  glint_options_set_target_env(options, GLINT_TARGET_VULKAN_1_0);
  memset(&input, 0, sizeof input);
  input.source = source;
  input.stage = GLINT_STAGE_COMPUTE;
  input.file_name = "c_test.comp";

  result = glint_compile_glsl(&input, options);
  glint_options_free(options);
  succeeded = glint_result_succeeded(result);
  report = glint_result_report(result);
  *word_count = glint_result_spirv_size(result);
  *access_count = glint_report_access_count(report);
  first_text[0] = '\0';
  if (glint_report_diagnostic(report, 0, &diagnostic))
    snprintf(first_text, capacity, "%s", diagnostic.text);
  glint_result_free(result);
  return succeeded;
}

/* Every function with NULL handles; returns the number of calls that did not answer
 * the documented "nothing" (0, NULL, or no effect). */
int glint_c_test_null_calls(void) {
  int wrong = 0;
  glint_diagnostic_t diagnostic;
  glint_access_record_t access;
  glint_pass_statistic_t pass;
  glint_result_t* result;

  wrong += glint_options_set_hoist_constant_tables(NULL, 1) != 0;
  wrong += glint_options_set_robust_access(NULL, 1) != 0;
  wrong += glint_options_set_range_analysis(NULL, GLINT_RANGES_FULL) != 0;
  wrong += glint_options_set_uniformity(NULL, GLINT_SEVERITY_ERROR) != 0;
  wrong += glint_options_set_subgroup_size(NULL, 32) != 0;
  wrong += glint_options_set_max_workgroups(NULL, 1, 1, 1) != 0;
  wrong += glint_options_set_spec_constant(NULL, 0, 1) != 0;
  wrong += glint_options_set_collect_ranges(NULL, 1) != 0;
  wrong += glint_options_set_target_env(NULL, GLINT_TARGET_VULKAN_1_1) != 0;
  wrong += glint_options_set_validate(NULL, 1) != 0;
  glint_options_free(NULL);
  glint_result_free(NULL);
  wrong += glint_result_succeeded(NULL) != 0;
  wrong += glint_result_spirv_size(NULL) != 0;
  wrong += glint_result_spirv(NULL) != NULL;
  wrong += glint_result_report(NULL) != NULL;
  wrong += glint_report_diagnostic_count(NULL) != 0;
  wrong += glint_report_diagnostic(NULL, 0, &diagnostic) != 0;
  wrong += glint_report_diagnostic_reason(NULL, 0, 0) != NULL;
  wrong += glint_report_has_errors(NULL) != 0;
  wrong += glint_report_access_count(NULL) != 0;
  wrong += glint_report_access(NULL, 0, &access) != 0;
  wrong += glint_report_pass_count(NULL) != 0;
  wrong += glint_report_pass(NULL, 0, &pass) != 0;

  /* NULL inputs give a failed result that says why, never a crash. */
  result = glint_compile_glsl(NULL, NULL);
  wrong += result == NULL || glint_result_succeeded(result) != 0 ||
           glint_report_has_errors(glint_result_report(result)) != 1;
  glint_result_free(result);
  result = glint_process_spirv(NULL, 5, NULL);
  wrong += result == NULL || glint_result_succeeded(result) != 0 ||
           glint_report_has_errors(glint_result_report(result)) != 1;
  glint_result_free(result);
  return wrong;
}

/* Compiles `source` with `stage_value` stored in the stage field, as a C caller may
 * store any int there (in C that is no error). Returns 1 on success and writes every
 * diagnostic's text, one per line, into `texts`. */
int glint_c_test_compile_raw_stage(const char* source, int stage_value, char* texts,
                                   size_t capacity) {
  glint_glsl_input_t input;
  glint_result_t* result;
  const glint_report_t* report;
  glint_diagnostic_t diagnostic;
  size_t i, used = 0;
  int succeeded;

  memset(&input, 0, sizeof input);
  input.source = source;
  input.stage = stage_value;
  result = glint_compile_glsl(&input, NULL);
  succeeded = glint_result_succeeded(result);
  report = glint_result_report(result);
  texts[0] = '\0';
  for (i = 0; glint_report_diagnostic(report, i, &diagnostic) && used < capacity; ++i)
    used += (size_t)snprintf(texts + used, capacity - used, "%s\n", diagnostic.text);
  glint_result_free(result);
  return succeeded;
}

/* The three enum setters given raw ints on `options` (as C may); returns how many
 * accepted their value. */
int glint_c_test_set_raw_enums(glint_options_t* options, int target, int ranges, int severity) {
  return glint_options_set_target_env(options, target) +
         glint_options_set_range_analysis(options, ranges) +
         glint_options_set_uniformity(options, severity);
}

/* The 0.2 input builder from C: `source` as HLSL for the fragment stage with entry point
 * "main", -DSCALE=`scale` and -g, for Vulkan 1.1 with validation. Returns 1 on success
 * and the word count; writes the first diagnostic's text. */
int glint_c_test_compile_hlsl(const char* source, const char* scale, size_t* word_count,
                              char* first_text, size_t capacity) {
  glint_options_t* options = glint_options_create();
  glint_input_t* input = glint_input_create();
  glint_result_t* result;
  glint_diagnostic_t diagnostic;
  int succeeded, set = 0;

  set += glint_options_set_target_env(options, GLINT_TARGET_VULKAN_1_1);
  set += glint_options_set_validate(options, 1);
  set += glint_input_set_source(input, source);
  set += glint_input_set_language(input, GLINT_LANGUAGE_HLSL);
  set += glint_input_set_stage(input, GLINT_STAGE_FRAGMENT);
  set += glint_input_set_entry_point(input, "main");
  set += glint_input_set_file_name(input, "c_test.hlsl");
  set += glint_input_add_define(input, "SCALE", scale);
  set += glint_input_set_debug_info(input, GLINT_DEBUG_INFO_LINES);
  result = glint_compile(input, options);
  glint_input_free(input);
  glint_options_free(options);
  succeeded = set == 9 && glint_result_succeeded(result);
  *word_count = glint_result_spirv_size(result);
  first_text[0] = '\0';
  if (glint_report_diagnostic(glint_result_report(result), 0, &diagnostic))
    snprintf(first_text, capacity, "%s", diagnostic.text);
  glint_result_free(result);
  return succeeded;
}
