/* Glint's libshaderc: the C API of shaderc 2023.2 (the same functions, types, enums and
 * values, so that a program written for libshaderc builds and runs against Glint's
 * unchanged), compiling with Glint's passes after glslang's SPIR-V. What each function
 * does is what libshaderc does; where Glint adds something it says so. Glint's own
 * settings are the glint_-prefixed functions at the end.
 *
 * Thread safety: a compiler object may compile from several threads at once; an options
 * object may be shared by concurrent compiles as long as nobody changes it meanwhile; a
 * result belongs to its caller. */
#ifndef SHADERC_SHADERC_H_
#define SHADERC_SHADERC_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderc/env.h"
#include "shaderc/status.h"
#include "shaderc/visibility.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  shaderc_source_language_glsl,
  shaderc_source_language_hlsl,
} shaderc_source_language;

/* The stage of a source. The plain kinds force the stage; the "default" kinds give the
 * stage used when the source has no `#pragma shader_stage(...)`; infer_from_source needs
 * the pragma; spirv_assembly is for shaderc_assemble_into_spv's input. */
typedef enum {
  shaderc_vertex_shader,
  shaderc_fragment_shader,
  shaderc_compute_shader,
  shaderc_geometry_shader,
  shaderc_tess_control_shader,
  shaderc_tess_evaluation_shader,

  shaderc_glsl_vertex_shader = shaderc_vertex_shader,
  shaderc_glsl_fragment_shader = shaderc_fragment_shader,
  shaderc_glsl_compute_shader = shaderc_compute_shader,
  shaderc_glsl_geometry_shader = shaderc_geometry_shader,
  shaderc_glsl_tess_control_shader = shaderc_tess_control_shader,
  shaderc_glsl_tess_evaluation_shader = shaderc_tess_evaluation_shader,

  shaderc_glsl_infer_from_source,
  shaderc_glsl_default_vertex_shader,
  shaderc_glsl_default_fragment_shader,
  shaderc_glsl_default_compute_shader,
  shaderc_glsl_default_geometry_shader,
  shaderc_glsl_default_tess_control_shader,
  shaderc_glsl_default_tess_evaluation_shader,
  shaderc_spirv_assembly,
  shaderc_raygen_shader,
  shaderc_anyhit_shader,
  shaderc_closesthit_shader,
  shaderc_miss_shader,
  shaderc_intersection_shader,
  shaderc_callable_shader,
  shaderc_glsl_raygen_shader = shaderc_raygen_shader,
  shaderc_glsl_anyhit_shader = shaderc_anyhit_shader,
  shaderc_glsl_closesthit_shader = shaderc_closesthit_shader,
  shaderc_glsl_miss_shader = shaderc_miss_shader,
  shaderc_glsl_intersection_shader = shaderc_intersection_shader,
  shaderc_glsl_callable_shader = shaderc_callable_shader,
  shaderc_glsl_default_raygen_shader,
  shaderc_glsl_default_anyhit_shader,
  shaderc_glsl_default_closesthit_shader,
  shaderc_glsl_default_miss_shader,
  shaderc_glsl_default_intersection_shader,
  shaderc_glsl_default_callable_shader,
  shaderc_task_shader,
  shaderc_mesh_shader,
  shaderc_glsl_task_shader = shaderc_task_shader,
  shaderc_glsl_mesh_shader = shaderc_mesh_shader,
  shaderc_glsl_default_task_shader,
  shaderc_glsl_default_mesh_shader,
} shaderc_shader_kind;

typedef enum {
  shaderc_profile_none, /* also: the version says nothing of a profile */
  shaderc_profile_core,
  shaderc_profile_compatibility,
  shaderc_profile_es,
} shaderc_profile;

typedef enum {
  shaderc_optimization_level_zero,
  shaderc_optimization_level_size,
  shaderc_optimization_level_performance,
} shaderc_optimization_level;

/* The resource limits glslang checks shaders against (glslc's -flimit names, in the
 * same order). */
typedef enum {
  shaderc_limit_max_lights,
  shaderc_limit_max_clip_planes,
  shaderc_limit_max_texture_units,
  shaderc_limit_max_texture_coords,
  shaderc_limit_max_vertex_attribs,
  shaderc_limit_max_vertex_uniform_components,
  shaderc_limit_max_varying_floats,
  shaderc_limit_max_vertex_texture_image_units,
  shaderc_limit_max_combined_texture_image_units,
  shaderc_limit_max_texture_image_units,
  shaderc_limit_max_fragment_uniform_components,
  shaderc_limit_max_draw_buffers,
  shaderc_limit_max_vertex_uniform_vectors,
  shaderc_limit_max_varying_vectors,
  shaderc_limit_max_fragment_uniform_vectors,
  shaderc_limit_max_vertex_output_vectors,
  shaderc_limit_max_fragment_input_vectors,
  shaderc_limit_min_program_texel_offset,
  shaderc_limit_max_program_texel_offset,
  shaderc_limit_max_clip_distances,
  shaderc_limit_max_compute_work_group_count_x,
  shaderc_limit_max_compute_work_group_count_y,
  shaderc_limit_max_compute_work_group_count_z,
  shaderc_limit_max_compute_work_group_size_x,
  shaderc_limit_max_compute_work_group_size_y,
  shaderc_limit_max_compute_work_group_size_z,
  shaderc_limit_max_compute_uniform_components,
  shaderc_limit_max_compute_texture_image_units,
  shaderc_limit_max_compute_image_uniforms,
  shaderc_limit_max_compute_atomic_counters,
  shaderc_limit_max_compute_atomic_counter_buffers,
  shaderc_limit_max_varying_components,
  shaderc_limit_max_vertex_output_components,
  shaderc_limit_max_geometry_input_components,
  shaderc_limit_max_geometry_output_components,
  shaderc_limit_max_fragment_input_components,
  shaderc_limit_max_image_units,
  shaderc_limit_max_combined_image_units_and_fragment_outputs,
  shaderc_limit_max_combined_shader_output_resources,
  shaderc_limit_max_image_samples,
  shaderc_limit_max_vertex_image_uniforms,
  shaderc_limit_max_tess_control_image_uniforms,
  shaderc_limit_max_tess_evaluation_image_uniforms,
  shaderc_limit_max_geometry_image_uniforms,
  shaderc_limit_max_fragment_image_uniforms,
  shaderc_limit_max_combined_image_uniforms,
  shaderc_limit_max_geometry_texture_image_units,
  shaderc_limit_max_geometry_output_vertices,
  shaderc_limit_max_geometry_total_output_components,
  shaderc_limit_max_geometry_uniform_components,
  shaderc_limit_max_geometry_varying_components,
  shaderc_limit_max_tess_control_input_components,
  shaderc_limit_max_tess_control_output_components,
  shaderc_limit_max_tess_control_texture_image_units,
  shaderc_limit_max_tess_control_uniform_components,
  shaderc_limit_max_tess_control_total_output_components,
  shaderc_limit_max_tess_evaluation_input_components,
  shaderc_limit_max_tess_evaluation_output_components,
  shaderc_limit_max_tess_evaluation_texture_image_units,
  shaderc_limit_max_tess_evaluation_uniform_components,
  shaderc_limit_max_tess_patch_components,
  shaderc_limit_max_patch_vertices,
  shaderc_limit_max_tess_gen_level,
  shaderc_limit_max_viewports,
  shaderc_limit_max_vertex_atomic_counters,
  shaderc_limit_max_tess_control_atomic_counters,
  shaderc_limit_max_tess_evaluation_atomic_counters,
  shaderc_limit_max_geometry_atomic_counters,
  shaderc_limit_max_fragment_atomic_counters,
  shaderc_limit_max_combined_atomic_counters,
  shaderc_limit_max_atomic_counter_bindings,
  shaderc_limit_max_vertex_atomic_counter_buffers,
  shaderc_limit_max_tess_control_atomic_counter_buffers,
  shaderc_limit_max_tess_evaluation_atomic_counter_buffers,
  shaderc_limit_max_geometry_atomic_counter_buffers,
  shaderc_limit_max_fragment_atomic_counter_buffers,
  shaderc_limit_max_combined_atomic_counter_buffers,
  shaderc_limit_max_atomic_counter_buffer_size,
  shaderc_limit_max_transform_feedback_buffers,
  shaderc_limit_max_transform_feedback_interleaved_components,
  shaderc_limit_max_cull_distances,
  shaderc_limit_max_combined_clip_and_cull_distances,
  shaderc_limit_max_samples,
} shaderc_limit;

/* The kinds of resources automatically assigned bindings are given per kind. */
typedef enum {
  shaderc_uniform_kind_image,
  shaderc_uniform_kind_sampler,
  shaderc_uniform_kind_texture,
  shaderc_uniform_kind_buffer,                /* uniform buffers (HLSL cbuffers) */
  shaderc_uniform_kind_storage_buffer,
  shaderc_uniform_kind_unordered_access_view, /* HLSL UAVs */
} shaderc_uniform_kind;

/* A compiler: holds glslang's process state while it lives. */
typedef struct shaderc_compiler* shaderc_compiler_t;
SHADERC_EXPORT shaderc_compiler_t shaderc_compiler_initialize(void);
SHADERC_EXPORT void shaderc_compiler_release(shaderc_compiler_t);

/* Options for compiles; a null options object means the defaults. */
typedef struct shaderc_compile_options* shaderc_compile_options_t;
SHADERC_EXPORT shaderc_compile_options_t shaderc_compile_options_initialize(void);
SHADERC_EXPORT shaderc_compile_options_t shaderc_compile_options_clone(
    const shaderc_compile_options_t options);
SHADERC_EXPORT void shaderc_compile_options_release(shaderc_compile_options_t options);

/* -D: `name` (name_length bytes) defined as `value` (value_length bytes; null: empty). */
SHADERC_EXPORT void shaderc_compile_options_add_macro_definition(
    shaderc_compile_options_t options, const char* name, size_t name_length, const char* value,
    size_t value_length);
SHADERC_EXPORT void shaderc_compile_options_set_source_language(
    shaderc_compile_options_t options, shaderc_source_language lang);
SHADERC_EXPORT void shaderc_compile_options_set_generate_debug_info(
    shaderc_compile_options_t options);
SHADERC_EXPORT void shaderc_compile_options_set_optimization_level(
    shaderc_compile_options_t options, shaderc_optimization_level level);
/* -std=: the version and profile every source is compiled as. */
SHADERC_EXPORT void shaderc_compile_options_set_forced_version_profile(
    shaderc_compile_options_t options, int version, shaderc_profile profile);

/* #include resolution by the caller: the resolver returns the file's name and content
 * (an empty name with an error message as content when it cannot), and the releaser
 * gets each result back once glslang is done with it. */
typedef struct shaderc_include_result {
  const char* source_name; /* empty on failure */
  size_t source_name_length;
  const char* content;     /* the error message on failure */
  size_t content_length;
  void* user_data;
} shaderc_include_result;

enum shaderc_include_type {
  shaderc_include_type_relative, /* #include "x" */
  shaderc_include_type_standard  /* #include <x> */
};

typedef shaderc_include_result* (*shaderc_include_resolve_fn)(void* user_data,
                                                              const char* requested_source,
                                                              int type,
                                                              const char* requesting_source,
                                                              size_t include_depth);
typedef void (*shaderc_include_result_release_fn)(void* user_data,
                                                  shaderc_include_result* include_result);
SHADERC_EXPORT void shaderc_compile_options_set_include_callbacks(
    shaderc_compile_options_t options, shaderc_include_resolve_fn resolver,
    shaderc_include_result_release_fn result_releaser, void* user_data);

SHADERC_EXPORT void shaderc_compile_options_set_suppress_warnings(
    shaderc_compile_options_t options);
/* The client environment and its version (a shaderc_env_version; 0: the default). */
SHADERC_EXPORT void shaderc_compile_options_set_target_env(shaderc_compile_options_t options,
                                                           shaderc_target_env target,
                                                           uint32_t version);
SHADERC_EXPORT void shaderc_compile_options_set_target_spirv(shaderc_compile_options_t options,
                                                             shaderc_spirv_version version);
SHADERC_EXPORT void shaderc_compile_options_set_warnings_as_errors(
    shaderc_compile_options_t options);
SHADERC_EXPORT void shaderc_compile_options_set_limit(shaderc_compile_options_t options,
                                                      shaderc_limit limit, int value);
SHADERC_EXPORT void shaderc_compile_options_set_auto_bind_uniforms(
    shaderc_compile_options_t options, bool auto_bind);
SHADERC_EXPORT void shaderc_compile_options_set_auto_combined_image_sampler(
    shaderc_compile_options_t options, bool upgrade);
SHADERC_EXPORT void shaderc_compile_options_set_hlsl_io_mapping(
    shaderc_compile_options_t options, bool hlsl_iomap);
SHADERC_EXPORT void shaderc_compile_options_set_hlsl_offsets(shaderc_compile_options_t options,
                                                             bool hlsl_offsets);
SHADERC_EXPORT void shaderc_compile_options_set_binding_base(shaderc_compile_options_t options,
                                                             shaderc_uniform_kind kind,
                                                             uint32_t base);
SHADERC_EXPORT void shaderc_compile_options_set_binding_base_for_stage(
    shaderc_compile_options_t options, shaderc_shader_kind shader_kind, shaderc_uniform_kind kind,
    uint32_t base);
SHADERC_EXPORT void shaderc_compile_options_set_auto_map_locations(
    shaderc_compile_options_t options, bool auto_map);
/* HLSL: register `reg` (e.g. "t4") is descriptor set `set`, binding `binding`. */
SHADERC_EXPORT void shaderc_compile_options_set_hlsl_register_set_and_binding_for_stage(
    shaderc_compile_options_t options, shaderc_shader_kind shader_kind, const char* reg,
    const char* set, const char* binding);
SHADERC_EXPORT void shaderc_compile_options_set_hlsl_register_set_and_binding(
    shaderc_compile_options_t options, const char* reg, const char* set, const char* binding);
SHADERC_EXPORT void shaderc_compile_options_set_hlsl_functionality1(
    shaderc_compile_options_t options, bool enable);
SHADERC_EXPORT void shaderc_compile_options_set_hlsl_16bit_types(
    shaderc_compile_options_t options, bool enable);
SHADERC_EXPORT void shaderc_compile_options_set_invert_y(shaderc_compile_options_t options,
                                                         bool enable);
SHADERC_EXPORT void shaderc_compile_options_set_nan_clamp(shaderc_compile_options_t options,
                                                          bool enable);

/* A compile's result: its status, output (SPIR-V words, assembly or preprocessed text),
 * messages and their counts. */
typedef struct shaderc_compilation_result* shaderc_compilation_result_t;

SHADERC_EXPORT shaderc_compilation_result_t shaderc_compile_into_spv(
    const shaderc_compiler_t compiler, const char* source_text, size_t source_text_size,
    shaderc_shader_kind shader_kind, const char* input_file_name, const char* entry_point_name,
    const shaderc_compile_options_t additional_options);
SHADERC_EXPORT shaderc_compilation_result_t shaderc_compile_into_spv_assembly(
    const shaderc_compiler_t compiler, const char* source_text, size_t source_text_size,
    shaderc_shader_kind shader_kind, const char* input_file_name, const char* entry_point_name,
    const shaderc_compile_options_t additional_options);
SHADERC_EXPORT shaderc_compilation_result_t shaderc_compile_into_preprocessed_text(
    const shaderc_compiler_t compiler, const char* source_text, size_t source_text_size,
    shaderc_shader_kind shader_kind, const char* input_file_name, const char* entry_point_name,
    const shaderc_compile_options_t additional_options);
/* SPIR-V assembly text into a binary, for the options' target environment. */
SHADERC_EXPORT shaderc_compilation_result_t shaderc_assemble_into_spv(
    const shaderc_compiler_t compiler, const char* source_assembly, size_t source_assembly_size,
    const shaderc_compile_options_t additional_options);

SHADERC_EXPORT void shaderc_result_release(shaderc_compilation_result_t result);
SHADERC_EXPORT size_t shaderc_result_get_length(const shaderc_compilation_result_t result);
SHADERC_EXPORT size_t shaderc_result_get_num_warnings(const shaderc_compilation_result_t result);
SHADERC_EXPORT size_t shaderc_result_get_num_errors(const shaderc_compilation_result_t result);
SHADERC_EXPORT shaderc_compilation_status shaderc_result_get_compilation_status(
    const shaderc_compilation_result_t result);
/* The output's bytes (text is not NUL-terminated; use shaderc_result_get_length). */
SHADERC_EXPORT const char* shaderc_result_get_bytes(const shaderc_compilation_result_t result);
/* The messages, as glslc prints them ("file:line: error: ..."); "" when none. */
SHADERC_EXPORT const char* shaderc_result_get_error_message(
    const shaderc_compilation_result_t result);

/* The version of SPIR-V (its header word) and the revision this library writes by
 * default. */
SHADERC_EXPORT void shaderc_get_spv_version(unsigned int* version, unsigned int* revision);

/* Reads "450core", "310es", "140"... into a version and profile; false when it is not
 * one glslang knows. */
SHADERC_EXPORT bool shaderc_parse_version_profile(const char* str, int* version,
                                                  shaderc_profile* profile);

/* Glint's own settings (not libshaderc's). glint_shaderc_compile_options_set_glint(
 * options, false): no Glint pass runs, and the output is what shaderc 2023.2 gives (the
 * same bytes as Debian's glslc for the same settings). Robust access: every dynamic index
 * is clamped unless the range analysis proves it in bounds. */
SHADERC_EXPORT void glint_shaderc_compile_options_set_glint(shaderc_compile_options_t options,
                                                            bool enable);
SHADERC_EXPORT void glint_shaderc_compile_options_set_robust_access(
    shaderc_compile_options_t options, bool enable);

/* What may prove a robust-access clamp unnecessary (glslc's -frange-analysis=). */
typedef enum {
  glint_shaderc_range_analysis_off,       /* every dynamic index is clamped */
  glint_shaderc_range_analysis_reference, /* only the reference design's rules */
  glint_shaderc_range_analysis_full,      /* Glint's analysis (the default) */
} glint_shaderc_range_analysis;
SHADERC_EXPORT void glint_shaderc_compile_options_set_range_analysis(
    shaderc_compile_options_t options, glint_shaderc_range_analysis mode);

/* Derivatives, implicit-LOD sampling and barriers in non-uniform control flow
 * (glslc's -funiformity=): not reported, warnings (the default), or errors. */
typedef enum {
  glint_shaderc_uniformity_off,
  glint_shaderc_uniformity_warning,
  glint_shaderc_uniformity_error,
} glint_shaderc_uniformity;
SHADERC_EXPORT void glint_shaderc_compile_options_set_uniformity(
    shaderc_compile_options_t options, glint_shaderc_uniformity severity);

#ifdef __cplusplus
}
#endif

#endif /* SHADERC_SHADERC_H_ */
