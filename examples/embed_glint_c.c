/*
 * embed_glint_c: Glint from C, the whole lifecycle. Checks that the library it runs with
 * is the release its headers came from, then compiles a fragment shader held in memory
 * with glint_compile: its #include is answered from memory by an include callback, a
 * -D style define sets the palette size, robust access is on, for Vulkan 1.1 with the
 * output validated. Prints the diagnostics (with their reasons) and one line per dynamic
 * index, runs the SPIR-V-in entry point on the result as a tool consuming another front
 * end's output would, and writes the SPIR-V to the file named by its argument, if any.
 * Exit status 0 on success.
 */
#include <glint/glint_c.h>

#include <stdio.h>
#include <string.h>

static const char* kShaderSource =
    "#version 450\n"
    "#extension GL_GOOGLE_include_directive : require\n"
    "#include \"material.glsl\"\n"
    "layout(location = 0) flat in int material;\n"
    "layout(location = 0) out vec4 color;\n"
    "void main() { color = albedo[material]; }\n";

static const char* kMaterialHeader =
    "layout(std140, binding = 0) uniform Materials { vec4 albedo[MATERIAL_COUNT]; };\n";

/* Supplies "material.glsl" from memory; declines anything else. */
static int include_from_memory(void* user_data, const char* requested, const char* includer,
                               size_t depth, int is_system, glint_include_t* include) {
  const char* header = (const char*)user_data;
  (void)includer;
  (void)depth;
  if (is_system || strcmp(requested, "material.glsl") != 0) return 0;
  return glint_include_set_content(include, "material.glsl", header, strlen(header));
}

static void print_report(const glint_report_t* report) {
  glint_diagnostic_t diagnostic;
  glint_access_record_t access;
  size_t i;
  for (i = 0; glint_report_diagnostic(report, i, &diagnostic); ++i) printf("%s\n", diagnostic.text);
  for (i = 0; glint_report_access(report, i, &access); ++i)
    printf("access %s %s (%s:%u): %s\n", access.instruction, access.object, access.file,
           (unsigned)access.line, access.verdict);
}

static int write_words(const char* path, const glint_result_t* result) {
  FILE* file = fopen(path, "wb");
  size_t count = glint_result_spirv_size(result);
  int ok = file && fwrite(glint_result_spirv(result), sizeof(uint32_t), count, file) == count;
  if (file && fclose(file) != 0) ok = 0;
  if (!ok) fprintf(stderr, "embed_glint_c: cannot write %s\n", path);
  return ok;
}

static glint_result_t* compile(const glint_options_t* options) {
  glint_input_t* input = glint_input_create();
  glint_result_t* result;
  glint_input_set_source(input, kShaderSource);
  glint_input_set_stage(input, GLINT_STAGE_FRAGMENT);
  glint_input_set_file_name(input, "material.frag");
  glint_input_add_define(input, "MATERIAL_COUNT", "32");
  glint_input_set_include_callback(input, include_from_memory, (void*)kMaterialHeader);
  result = glint_compile(input, options);
  glint_input_free(input); /* the result does not refer to the input */
  return result;
}

int main(int argc, char** argv) {
  glint_options_t* options;
  glint_result_t* compiled;
  glint_result_t* reprocessed;
  int ok;
  char expected[32];

  snprintf(expected, sizeof expected, "%d.%d.", GLINT_VERSION_MAJOR, GLINT_VERSION_MINOR);
  if (strncmp(glint_version(), expected, strlen(expected)) != 0) {
    fprintf(stderr, "embed_glint_c: built for Glint %s, running with %s\n", GLINT_VERSION_STRING,
            glint_version());
    return 1;
  }
  options = glint_options_create();
  glint_options_set_robust_access(options, 1);
  glint_options_set_collect_ranges(options, 1);
  glint_options_set_validate(options, 1);
  glint_options_set_target_env(options, GLINT_TARGET_VULKAN_1_1);

  compiled = compile(options);
  print_report(glint_result_report(compiled));
  /* Already robust: running the passes again must succeed on Glint's own output. */
  reprocessed =
      glint_process_spirv(glint_result_spirv(compiled), glint_result_spirv_size(compiled), options);
  ok = glint_result_succeeded(compiled) && glint_result_succeeded(reprocessed);
  if (ok && argc > 1) ok = write_words(argv[1], compiled);
  if (ok)
    printf("embed_glint_c: %lu SPIR-V words (Glint %s)\n",
           (unsigned long)glint_result_spirv_size(compiled), glint_version());
  else
    fprintf(stderr, "embed_glint_c: compilation failed\n");
  glint_result_free(reprocessed);
  glint_result_free(compiled);
  glint_options_free(options);
  return ok ? 0 : 1;
}
