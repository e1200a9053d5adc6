/* A program written for libshaderc, compiled against Debian's <shaderc/shaderc.h> (the
 * system header, not Glint's) and linked with Glint's libshaderc.so.1: that it builds and
 * runs shows that the two agree on names, types, enum values and calling conventions.
 * It compiles a few sources through every compile entry point and prints what each
 * result holds; gtests/libshaderc_test.cpp checks the text. */
#include <shaderc/shaderc.h>
#include <stdio.h>
#include <string.h>

static unsigned checksum(const char* bytes, size_t length) {
  unsigned sum = 2166136261u;
  for (size_t i = 0; i < length; ++i) sum = (sum ^ (unsigned char)bytes[i]) * 16777619u;
  return sum;
}

static void print(const char* what, shaderc_compilation_result_t result) {
  size_t length = shaderc_result_get_length(result);
  printf("%s: status %d, %zu warnings, %zu errors, %zu bytes, checksum %08x\n", what,
         (int)shaderc_result_get_compilation_status(result),
         shaderc_result_get_num_warnings(result), shaderc_result_get_num_errors(result), length,
         length ? checksum(shaderc_result_get_bytes(result), length) : 0u);
  printf("%s", shaderc_result_get_error_message(result));
  shaderc_result_release(result);
}

int main(void) {
  const char* fragment =
      "#version 450\nlayout(location = 0) out vec4 color;\nvoid main() { color = vec4(1.0); }\n";
  const char* broken = "#version 450\nvoid main() { x; }\n";
  const char* pragma = "#version 450\n#pragma shader_stage(compute)\nvoid main() {}\n";
  const char* no_stage = "#version 450\nvoid main() {}\n";
  const char* assembly = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n";
  shaderc_compiler_t compiler = shaderc_compiler_initialize();
  shaderc_compile_options_t options = shaderc_compile_options_initialize();
  shaderc_compile_options_add_macro_definition(options, "SCALE", 5, "2.0", 3);
  shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan,
                                         shaderc_env_version_vulkan_1_1);
  print("spv", shaderc_compile_into_spv(compiler, fragment, strlen(fragment),
                                        shaderc_glsl_fragment_shader, "f.frag", "main", options));
  print("assembly", shaderc_compile_into_spv_assembly(compiler, fragment, strlen(fragment),
                                                      shaderc_glsl_fragment_shader, "f.frag",
                                                      "main", options));
  print("preprocessed",
        shaderc_compile_into_preprocessed_text(compiler, fragment, strlen(fragment),
                                               shaderc_glsl_fragment_shader, "f.frag", "main",
                                               options));
  print("broken", shaderc_compile_into_spv(compiler, broken, strlen(broken),
                                           shaderc_glsl_fragment_shader, "b.frag", "main", NULL));
  print("pragma", shaderc_compile_into_spv(compiler, pragma, strlen(pragma),
                                           shaderc_glsl_default_vertex_shader, "p.glsl", "main",
                                           options));
  print("no stage", shaderc_compile_into_spv(compiler, no_stage, strlen(no_stage),
                                             shaderc_glsl_infer_from_source, "n.glsl", "main",
                                             options));
  print("assemble", shaderc_assemble_into_spv(compiler, assembly, strlen(assembly), options));
  shaderc_compile_options_t copy = shaderc_compile_options_clone(options);
  shaderc_compile_options_set_optimization_level(copy, shaderc_optimization_level_performance);
  print("optimized", shaderc_compile_into_spv(compiler, fragment, strlen(fragment),
                                              shaderc_glsl_fragment_shader, "f.frag", "main",
                                              copy));
  shaderc_compile_options_release(copy);
  int version = 0;
  shaderc_profile profile = shaderc_profile_none;
  int parsed = shaderc_parse_version_profile("310es", &version, &profile);
  printf("parse 310es: %d %d %d\n", parsed, version, (int)profile);
  shaderc_compile_options_release(options);
  shaderc_compiler_release(compiler);
  return 0;
}
