/*
 * embed_glint_c: Glint from C. Compiles a fragment shader held in memory with
 * glint_compile_glsl (glslang then Glint's passes) for Vulkan 1.1 with robust access
 * on, prints the diagnostics and one line per dynamic index, then runs the SPIR-V-in
 * entry point on the result as a tool consuming another front end's output would.
 * Exit status 0 on success.
 */
#include <glint/glint_c.h>

#include <stdio.h>

static const char* kShaderSource =
    "#version 450\n"
    "layout(location = 0) flat in int material;\n"
    "layout(location = 0) out vec4 color;\n"
    "layout(std140, binding = 0) uniform Materials { vec4 albedo[32]; };\n"
    "void main() { color = albedo[material]; }\n";

static void print_report(const glint_report_t* report) {
  glint_diagnostic_t diagnostic;
  glint_access_record_t access;
  size_t i;
  for (i = 0; glint_report_diagnostic(report, i, &diagnostic); ++i) printf("%s\n", diagnostic.text);
  for (i = 0; glint_report_access(report, i, &access); ++i)
    printf("access %s %s (%s:%u): %s\n", access.instruction, access.object, access.file,
           (unsigned)access.line, access.verdict);
}

int main(void) {
  glint_options_t* options = glint_options_create();
  glint_glsl_input_t input = {0};
  glint_result_t* compiled;
  glint_result_t* reprocessed;
  int ok;

  glint_options_set_robust_access(options, 1);
  glint_options_set_collect_ranges(options, 1);
  glint_options_set_validate(options, 1);
  glint_options_set_target_env(options, GLINT_TARGET_VULKAN_1_1);
  input.source = kShaderSource;
  input.stage = GLINT_STAGE_FRAGMENT;
  input.file_name = "material.frag";

  compiled = glint_compile_glsl(&input, options);
  print_report(glint_result_report(compiled));
  /* Already robust: running the passes again must succeed on Glint's own output. */
  reprocessed = glint_process_spirv(glint_result_spirv(compiled), glint_result_spirv_size(compiled),
                                    options);
  ok = glint_result_succeeded(compiled) && glint_result_succeeded(reprocessed);
  if (ok)
    printf("embed_glint_c: %lu SPIR-V words\n", (unsigned long)glint_result_spirv_size(compiled));
  else
    fprintf(stderr, "embed_glint_c: compilation failed\n");
  glint_result_free(reprocessed);
  glint_result_free(compiled);
  glint_options_free(options);
  return ok ? 0 : 1;
}
