// Glint's libshaderc (include/shaderc/shaderc.h): libshaderc 2023.2's C API over the
// compile glslc uses (glslc/compile.h), so that a source compiled through the API and the
// same source given to glslc with the same settings come out the same, messages
// included. An options object is glslc's options; a shader kind is a forced stage, a
// default stage (a `#pragma shader_stage` wins over it) or none; includes go to the
// caller's callbacks.
//
// Errors are values: no function throws; a compile that runs out of memory or meets an
// unexpected exception reports shaderc_compilation_status_internal_error.
#ifndef ENABLE_HLSL
#define ENABLE_HLSL 1
#endif
#include "shaderc/shaderc.h"

#include <glslang/SPIRV/spirv.hpp>

#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include <spirv-tools/libspirv.h>

#include "compile.h"
#include "glslang/front_end/front_end.h"
#include "options.h"
#include "preprocessed_text.h"
#include "resource_limits.h"

using glint::glslc::CompileResult;
using glint::glslc::CountingIncluder;
using glint::glslc::Failure;
using glint::glslc::GlslcOptions;
using glint::glslc::OutputType;
using glint::glslc::SourceRequest;

struct shaderc_compiler {
  std::unique_ptr<glint::frontend::ScopedGlslangProcess> glslang;
};

struct shaderc_compile_options {
  GlslcOptions options;
  bool hlsl = false;
  bool configuration_error = false;  // a target environment or version it cannot compile for
  shaderc_target_env target_env = shaderc_target_env_default;
  uint32_t target_env_version = 0;
  shaderc_include_resolve_fn resolver = nullptr;
  shaderc_include_result_release_fn releaser = nullptr;
  void* include_user_data = nullptr;
};

struct shaderc_compilation_result {
  shaderc_compilation_status status = shaderc_compilation_status_null_result_object;
  std::string bytes;
  std::string messages;
  size_t warnings = 0;
  size_t errors = 0;
};

namespace {

GlslcOptions DefaultOptions() {
  GlslcOptions options;
  options.limits = glint::glslc::ShadercDefaultLimits();
  options.needs_linking = false;
  return options;
}

// The stage a kind forces, and the one it gives when no pragma names one.
void StagesOf(shaderc_shader_kind kind, std::optional<EShLanguage>* forced,
              std::optional<EShLanguage>* fallback) {
  switch (kind) {
    case shaderc_vertex_shader: *forced = EShLangVertex; return;
    case shaderc_fragment_shader: *forced = EShLangFragment; return;
    case shaderc_compute_shader: *forced = EShLangCompute; return;
    case shaderc_geometry_shader: *forced = EShLangGeometry; return;
    case shaderc_tess_control_shader: *forced = EShLangTessControl; return;
    case shaderc_tess_evaluation_shader: *forced = EShLangTessEvaluation; return;
    case shaderc_raygen_shader: *forced = EShLangRayGen; return;
    case shaderc_anyhit_shader: *forced = EShLangAnyHit; return;
    case shaderc_closesthit_shader: *forced = EShLangClosestHit; return;
    case shaderc_miss_shader: *forced = EShLangMiss; return;
    case shaderc_intersection_shader: *forced = EShLangIntersect; return;
    case shaderc_callable_shader: *forced = EShLangCallable; return;
    case shaderc_task_shader: *forced = EShLangTask; return;
    case shaderc_mesh_shader: *forced = EShLangMesh; return;
    case shaderc_glsl_default_vertex_shader: *fallback = EShLangVertex; return;
    case shaderc_glsl_default_fragment_shader: *fallback = EShLangFragment; return;
    case shaderc_glsl_default_compute_shader: *fallback = EShLangCompute; return;
    case shaderc_glsl_default_geometry_shader: *fallback = EShLangGeometry; return;
    case shaderc_glsl_default_tess_control_shader: *fallback = EShLangTessControl; return;
    case shaderc_glsl_default_tess_evaluation_shader: *fallback = EShLangTessEvaluation; return;
    case shaderc_glsl_default_raygen_shader: *fallback = EShLangRayGen; return;
    case shaderc_glsl_default_anyhit_shader: *fallback = EShLangAnyHit; return;
    case shaderc_glsl_default_closesthit_shader: *fallback = EShLangClosestHit; return;
    case shaderc_glsl_default_miss_shader: *fallback = EShLangMiss; return;
    case shaderc_glsl_default_intersection_shader: *fallback = EShLangIntersect; return;
    case shaderc_glsl_default_callable_shader: *fallback = EShLangCallable; return;
    case shaderc_glsl_default_task_shader: *fallback = EShLangTask; return;
    case shaderc_glsl_default_mesh_shader: *fallback = EShLangMesh; return;
    default: return;  // infer from source, assembly: a pragma or nothing
  }
}

// The caller's include callbacks as glslang's includer; without callbacks every include
// fails as libshaderc's does.
class CallbackIncluder : public CountingIncluder {
 public:
  CallbackIncluder(shaderc_include_resolve_fn resolver, shaderc_include_result_release_fn releaser,
                   void* user_data)
      : resolver_(resolver), releaser_(releaser), user_data_(user_data) {}

  IncludeResult* includeLocal(const char* header, const char* includer, size_t depth) override {
    return Resolve(header, shaderc_include_type_relative, includer, depth);
  }
  IncludeResult* includeSystem(const char* header, const char* includer, size_t depth) override {
    return Resolve(header, shaderc_include_type_standard, includer, depth);
  }
  void releaseInclude(IncludeResult* result) override {
    if (!result) return;
    auto* theirs = static_cast<shaderc_include_result*>(result->userData);
    if (theirs && releaser_) releaser_(user_data_, theirs);
    delete result;
  }

 private:
  IncludeResult* Resolve(const char* header, shaderc_include_type type, const char* includer,
                         size_t depth) {
    ++requests_;
    // libshaderc's text when nothing resolves includes.
    static const char kNoResolver[] = "#error unexpected include directive";
    if (!resolver_) return new IncludeResult("", kNoResolver, sizeof(kNoResolver) - 1, nullptr);
    shaderc_include_result* theirs = resolver_(user_data_, header, type, includer, depth);
    if (!theirs) return new IncludeResult("", kNoResolver, sizeof(kNoResolver) - 1, nullptr);
    std::string name(theirs->source_name ? theirs->source_name : "", theirs->source_name_length);
    if (!name.empty() && included) included->insert(name);
    return new IncludeResult(name, theirs->content, theirs->content_length, theirs);
  }

  shaderc_include_resolve_fn resolver_;
  shaderc_include_result_release_fn releaser_;
  void* user_data_;
};

// Why a target environment set on the options cannot be compiled for (libshaderc's
// texts, `tag` the input's name).
std::string TargetError(const shaderc_compile_options& settings, const std::string& tag) {
  switch (settings.target_env) {
    case shaderc_target_env_opengl_compat:
      return "error: OpenGL compatibility profile is not supported";
    case shaderc_target_env_vulkan:
    case shaderc_target_env_opengl:
      return "error:" + tag + ": Invalid target client version " +
             std::to_string(settings.target_env_version) + " for " +
             (settings.target_env == shaderc_target_env_vulkan ? "Vulkan" : "OpenGL") +
             " environment " + std::to_string(static_cast<int>(settings.target_env));
    default:
      return "error: the target environment is not supported";
  }
}

shaderc_compilation_result_t Compile(const shaderc_compiler_t compiler, const char* source_text,
                                     size_t source_text_size, shaderc_shader_kind shader_kind,
                                     const char* input_file_name, const char* entry_point_name,
                                     const shaderc_compile_options_t additional_options,
                                     OutputType output_type) {
  auto* result = new (std::nothrow) shaderc_compilation_result;
  if (!result) return nullptr;
  if (!input_file_name) {
    result->messages = "Input file name string was null.";
    result->errors = 1;
    result->status = shaderc_compilation_status_compilation_error;
    return result;
  }
  if (!compiler || !compiler->glslang) return result;
  try {
    const shaderc_compile_options defaults{DefaultOptions()};
    const shaderc_compile_options& settings = additional_options ? *additional_options : defaults;
    GlslcOptions options = settings.options;
    options.output_type = output_type;
    if (settings.configuration_error) {
      result->status = shaderc_compilation_status_compilation_error;
      result->errors = 1;
      result->messages = TargetError(settings, input_file_name);
      return result;
    }
    SourceRequest request;
    request.name = input_file_name ? input_file_name : "";
    request.text.assign(source_text ? source_text : "", source_text ? source_text_size : 0);
    StagesOf(shader_kind, &request.forced_stage, &request.default_stage);
    request.hlsl = settings.hlsl;
    request.entry_point = entry_point_name ? entry_point_name : "main";
    request.stage_error = request.name +
                          ": error: no shader stage: the source has no #pragma shader_stage "
                          "and its shader kind names none\n";
    CallbackIncluder includer(settings.resolver, settings.releaser, settings.include_user_data);
    glint::glslc::MessageCounts counts;
    Failure failure = Failure::kNone;
    CompileResult compiled =
        glint::glslc::CompileSource(request, options, includer, &counts, &failure);
    result->messages = std::move(compiled.messages);
    result->warnings = counts.warnings;
    result->errors = counts.errors;
    if (compiled.ok) {
      if (output_type == OutputType::kBinary)
        result->bytes.assign(reinterpret_cast<const char*>(compiled.words.data()),
                             compiled.words.size() * 4);
      else
        result->bytes = std::move(compiled.text);
      result->status = shaderc_compilation_status_success;
    } else {
      result->status = failure == Failure::kStage      ? shaderc_compilation_status_invalid_stage
                       : failure == Failure::kInternal ? shaderc_compilation_status_internal_error
                                                        : shaderc_compilation_status_compilation_error;
    }
  } catch (...) {
    result->status = shaderc_compilation_status_internal_error;
  }
  return result;
}

bool SetTarget(shaderc_compile_options& settings) {
  std::string name;
  switch (settings.target_env) {
    case shaderc_target_env_vulkan:
      switch (settings.target_env_version) {
        case 0:
        case shaderc_env_version_vulkan_1_0: name = "vulkan1.0"; break;
        case shaderc_env_version_vulkan_1_1: name = "vulkan1.1"; break;
        case shaderc_env_version_vulkan_1_2: name = "vulkan1.2"; break;
        case shaderc_env_version_vulkan_1_3: name = "vulkan1.3"; break;
        default: return false;
      }
      break;
    case shaderc_target_env_opengl:
      if (settings.target_env_version != 0 &&
          settings.target_env_version != shaderc_env_version_opengl_4_5)
        return false;
      name = "opengl";
      break;
    default:
      return false;
  }
  return glint::glslc::TargetEnvironmentNamed(name, &settings.options.target);
}

glint::glslc::BindingKind KindOf(shaderc_uniform_kind kind) {
  switch (kind) {
    case shaderc_uniform_kind_image: return glint::glslc::kImage;
    case shaderc_uniform_kind_sampler: return glint::glslc::kSampler;
    case shaderc_uniform_kind_texture: return glint::glslc::kTexture;
    case shaderc_uniform_kind_buffer: return glint::glslc::kUbo;
    case shaderc_uniform_kind_storage_buffer: return glint::glslc::kSsbo;
    default: return glint::glslc::kUav;
  }
}

// The glslang stage a stage-qualified setting reaches (shaderc's quirk kept), or nullopt.
std::optional<EShLanguage> SettingStage(shaderc_shader_kind kind) {
  std::optional<EShLanguage> forced, fallback;
  StagesOf(kind, &forced, &fallback);
  return forced ? glint::glslc::BindingStage(*forced) : std::nullopt;
}

}  // namespace

extern "C" {

shaderc_compiler_t shaderc_compiler_initialize(void) {
  auto* compiler = new (std::nothrow) shaderc_compiler;
  if (!compiler) return nullptr;
  try {
    compiler->glslang = std::make_unique<glint::frontend::ScopedGlslangProcess>();
  } catch (...) {
    delete compiler;
    return nullptr;
  }
  return compiler;
}

void shaderc_compiler_release(shaderc_compiler_t compiler) { delete compiler; }

shaderc_compile_options_t shaderc_compile_options_initialize(void) {
  auto* options = new (std::nothrow) shaderc_compile_options;
  if (options) options->options = DefaultOptions();
  return options;
}

shaderc_compile_options_t shaderc_compile_options_clone(const shaderc_compile_options_t options) {
  if (!options) return shaderc_compile_options_initialize();
  return new (std::nothrow) shaderc_compile_options(*options);
}

void shaderc_compile_options_release(shaderc_compile_options_t options) { delete options; }

void shaderc_compile_options_add_macro_definition(shaderc_compile_options_t options,
                                                  const char* name, size_t name_length,
                                                  const char* value, size_t value_length) {
  options->options.macros[std::string(name, name_length)] =
      value ? std::string(value, value_length) : std::string();
}

void shaderc_compile_options_set_source_language(shaderc_compile_options_t options,
                                                 shaderc_source_language lang) {
  options->hlsl = lang == shaderc_source_language_hlsl;
}

void shaderc_compile_options_set_generate_debug_info(shaderc_compile_options_t options) {
  options->options.debug_info = true;
}

void shaderc_compile_options_set_optimization_level(shaderc_compile_options_t options,
                                                    shaderc_optimization_level level) {
  options->options.optimization =
      level == shaderc_optimization_level_performance ? glint::glslc::Optimization::kPerformance
      : level == shaderc_optimization_level_size      ? glint::glslc::Optimization::kSize
                                                      : glint::glslc::Optimization::kNone;
}

void shaderc_compile_options_set_forced_version_profile(shaderc_compile_options_t options,
                                                        int version, shaderc_profile profile) {
  options->options.force_version_profile = true;
  options->options.version = version;
  options->options.profile = profile == shaderc_profile_core            ? ECoreProfile
                             : profile == shaderc_profile_compatibility ? ECompatibilityProfile
                             : profile == shaderc_profile_es            ? EEsProfile
                                                                        : ENoProfile;
}

void shaderc_compile_options_set_include_callbacks(shaderc_compile_options_t options,
                                                   shaderc_include_resolve_fn resolver,
                                                   shaderc_include_result_release_fn releaser,
                                                   void* user_data) {
  options->resolver = resolver;
  options->releaser = releaser;
  options->include_user_data = user_data;
}

void shaderc_compile_options_set_suppress_warnings(shaderc_compile_options_t options) {
  options->options.suppress_warnings = true;
}

void shaderc_compile_options_set_target_env(shaderc_compile_options_t options,
                                            shaderc_target_env target, uint32_t version) {
  options->target_env = target;
  options->target_env_version = version;
  options->configuration_error = !SetTarget(*options);
}

void shaderc_compile_options_set_target_spirv(shaderc_compile_options_t options,
                                              shaderc_spirv_version version) {
  options->options.target_spirv = static_cast<glslang::EShTargetLanguageVersion>(version);
}

void shaderc_compile_options_set_warnings_as_errors(shaderc_compile_options_t options) {
  options->options.warnings_as_errors = true;
}

void shaderc_compile_options_set_limit(shaderc_compile_options_t options, shaderc_limit limit,
                                       int value) {
  glint::glslc::SetLimit(static_cast<size_t>(limit), value, &options->options.limits);
}

void shaderc_compile_options_set_auto_bind_uniforms(shaderc_compile_options_t options,
                                                    bool auto_bind) {
  options->options.auto_bind_uniforms = auto_bind;
}

void shaderc_compile_options_set_auto_combined_image_sampler(shaderc_compile_options_t options,
                                                             bool upgrade) {
  options->options.auto_combined_image_sampler = upgrade;
}

void shaderc_compile_options_set_hlsl_io_mapping(shaderc_compile_options_t options,
                                                 bool hlsl_iomap) {
  options->options.hlsl_iomap = hlsl_iomap;
}

void shaderc_compile_options_set_hlsl_offsets(shaderc_compile_options_t options,
                                              bool hlsl_offsets) {
  options->options.hlsl_offsets = hlsl_offsets;
}

void shaderc_compile_options_set_binding_base(shaderc_compile_options_t options,
                                              shaderc_uniform_kind kind, uint32_t base) {
  for (uint32_t& stage_base : options->options.binding_base[KindOf(kind)]) stage_base = base;
}

void shaderc_compile_options_set_binding_base_for_stage(shaderc_compile_options_t options,
                                                        shaderc_shader_kind shader_kind,
                                                        shaderc_uniform_kind kind, uint32_t base) {
  if (std::optional<EShLanguage> stage = SettingStage(shader_kind))
    options->options.binding_base[KindOf(kind)][*stage] = base;
}

void shaderc_compile_options_set_auto_map_locations(shaderc_compile_options_t options,
                                                    bool auto_map) {
  options->options.auto_map_locations = auto_map;
}

void shaderc_compile_options_set_hlsl_register_set_and_binding_for_stage(
    shaderc_compile_options_t options, shaderc_shader_kind shader_kind, const char* reg,
    const char* set, const char* binding) {
  if (std::optional<EShLanguage> stage = SettingStage(shader_kind))
    options->options.resource_set_binding[*stage].insert(
        options->options.resource_set_binding[*stage].end(), {reg, set, binding});
}

void shaderc_compile_options_set_hlsl_register_set_and_binding(shaderc_compile_options_t options,
                                                               const char* reg, const char* set,
                                                               const char* binding) {
  for (std::vector<std::string>& triples : options->options.resource_set_binding)
    triples.insert(triples.end(), {reg, set, binding});
}

void shaderc_compile_options_set_hlsl_functionality1(shaderc_compile_options_t options,
                                                     bool enable) {
  options->options.hlsl_functionality1 = enable;
}

void shaderc_compile_options_set_hlsl_16bit_types(shaderc_compile_options_t options,
                                                  bool enable) {
  options->options.hlsl_16bit_types = enable;
}

void shaderc_compile_options_set_invert_y(shaderc_compile_options_t options, bool enable) {
  options->options.invert_y = enable;
}

void shaderc_compile_options_set_nan_clamp(shaderc_compile_options_t options, bool enable) {
  options->options.nan_clamp = enable;
}

shaderc_compilation_result_t shaderc_compile_into_spv(
    const shaderc_compiler_t compiler, const char* source_text, size_t source_text_size,
    shaderc_shader_kind shader_kind, const char* input_file_name, const char* entry_point_name,
    const shaderc_compile_options_t additional_options) {
  return Compile(compiler, source_text, source_text_size, shader_kind, input_file_name,
                 entry_point_name, additional_options, OutputType::kBinary);
}

shaderc_compilation_result_t shaderc_compile_into_spv_assembly(
    const shaderc_compiler_t compiler, const char* source_text, size_t source_text_size,
    shaderc_shader_kind shader_kind, const char* input_file_name, const char* entry_point_name,
    const shaderc_compile_options_t additional_options) {
  return Compile(compiler, source_text, source_text_size, shader_kind, input_file_name,
                 entry_point_name, additional_options, OutputType::kAssembly);
}

shaderc_compilation_result_t shaderc_compile_into_preprocessed_text(
    const shaderc_compiler_t compiler, const char* source_text, size_t source_text_size,
    shaderc_shader_kind shader_kind, const char* input_file_name, const char* entry_point_name,
    const shaderc_compile_options_t additional_options) {
  return Compile(compiler, source_text, source_text_size, shader_kind, input_file_name,
                 entry_point_name, additional_options, OutputType::kPreprocessed);
}

shaderc_compilation_result_t shaderc_assemble_into_spv(
    const shaderc_compiler_t compiler, const char* source_assembly, size_t source_assembly_size,
    const shaderc_compile_options_t additional_options) {
  auto* result = new (std::nothrow) shaderc_compilation_result;
  if (!result) return nullptr;
  result->status = shaderc_compilation_status_invalid_assembly;
  if (!compiler || !compiler->glslang || !source_assembly) return result;
  spv_target_env env = SPV_ENV_VULKAN_1_0;
  if (additional_options) {
    if (additional_options->target_env == shaderc_target_env_opengl)
      env = SPV_ENV_OPENGL_4_5;
    else
      env = static_cast<spv_target_env>(additional_options->options.target.spirv_tools_env);
  }
  std::vector<uint32_t> words;
  if (glint::glslc::AssembleSpirv(env, std::string(source_assembly, source_assembly_size), &words,
                                  &result->messages)) {
    result->bytes.assign(reinterpret_cast<const char*>(words.data()), words.size() * 4);
    result->status = shaderc_compilation_status_success;
  } else {
    result->errors = 1;
  }
  return result;
}

void shaderc_result_release(shaderc_compilation_result_t result) { delete result; }

size_t shaderc_result_get_length(const shaderc_compilation_result_t result) {
  return result->bytes.size();
}

size_t shaderc_result_get_num_warnings(const shaderc_compilation_result_t result) {
  return result->warnings;
}

size_t shaderc_result_get_num_errors(const shaderc_compilation_result_t result) {
  return result->errors;
}

shaderc_compilation_status shaderc_result_get_compilation_status(
    const shaderc_compilation_result_t result) {
  return result ? result->status : shaderc_compilation_status_null_result_object;
}

const char* shaderc_result_get_bytes(const shaderc_compilation_result_t result) {
  return result->bytes.empty() ? nullptr : result->bytes.data();
}

const char* shaderc_result_get_error_message(const shaderc_compilation_result_t result) {
  return result->messages.c_str();
}

void shaderc_get_spv_version(unsigned int* version, unsigned int* revision) {
  *version = spv::Version;
  *revision = spv::Revision;
}

bool shaderc_parse_version_profile(const char* str, int* version, shaderc_profile* profile) {
  EProfile parsed = ENoProfile;
  if (!str || !glint::glslc::ParseVersionProfile(str, version, &parsed)) return false;
  *profile = parsed == ECoreProfile            ? shaderc_profile_core
             : parsed == ECompatibilityProfile ? shaderc_profile_compatibility
             : parsed == EEsProfile            ? shaderc_profile_es
                                               : shaderc_profile_none;
  return true;
}

void glint_shaderc_compile_options_set_glint(shaderc_compile_options_t options, bool enable) {
  options->options.glint = enable;
}

void glint_shaderc_compile_options_set_robust_access(shaderc_compile_options_t options,
                                                     bool enable) {
  options->options.glint_options.robust_access = enable;
}

void glint_shaderc_compile_options_set_range_analysis(shaderc_compile_options_t options,
                                                      glint_shaderc_range_analysis mode) {
  options->options.glint_options.range_analysis =
      mode == glint_shaderc_range_analysis_off         ? glint::RangeAnalysisMode::kOff
      : mode == glint_shaderc_range_analysis_reference ? glint::RangeAnalysisMode::kReference
                                                       : glint::RangeAnalysisMode::kFull;
}

void glint_shaderc_compile_options_set_uniformity(shaderc_compile_options_t options,
                                                  glint_shaderc_uniformity severity) {
  options->options.glint_options.uniformity =
      severity == glint_shaderc_uniformity_off     ? glint::Severity::kOff
      : severity == glint_shaderc_uniformity_error ? glint::Severity::kError
                                                   : glint::Severity::kWarning;
}

}  // extern "C"
