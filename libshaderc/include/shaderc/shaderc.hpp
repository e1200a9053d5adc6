// Glint's libshaderc, C++: shaderc 2023.2's C++ classes (shaderc::Compiler,
// shaderc::CompileOptions, the compilation results), written over the C API of
// shaderc/shaderc.h, with the same names, overloads and behaviour, so that C++ code
// written for libshaderc builds against Glint's unchanged. Header only: everything
// reaches the library through the C functions. Glint's own settings are the
// CompileOptions methods SetGlint, SetRobustAccess, SetRangeAnalysis and SetUniformity.
#ifndef SHADERC_SHADERC_HPP_
#define SHADERC_SHADERC_HPP_

#include <memory>
#include <string>
#include <utility>

#include "shaderc/shaderc.h"

namespace shaderc {

// A compile's result, owning the C result: iterate it for the output (SPIR-V words, or
// the characters of assembly or preprocessed text).
template <typename OutputElementType>
class CompilationResult {
 public:
  typedef OutputElementType element_type;
  typedef const OutputElementType* const_iterator;

  explicit CompilationResult(shaderc_compilation_result_t result) : result_(result) {}
  CompilationResult() : result_(nullptr) {}
  ~CompilationResult() { shaderc_result_release(result_); }
  CompilationResult(CompilationResult&& other) : result_(other.result_) {
    other.result_ = nullptr;
  }
  CompilationResult& operator=(CompilationResult&& other) {
    if (this != &other) {
      shaderc_result_release(result_);
      result_ = other.result_;
      other.result_ = nullptr;
    }
    return *this;
  }
  CompilationResult(const CompilationResult&) = delete;
  CompilationResult& operator=(const CompilationResult&) = delete;

  // The messages ("" when there is no result object).
  std::string GetErrorMessage() const {
    return result_ ? shaderc_result_get_error_message(result_) : "";
  }
  shaderc_compilation_status GetCompilationStatus() const {
    return result_ ? shaderc_result_get_compilation_status(result_)
                   : shaderc_compilation_status_null_result_object;
  }
  const_iterator cbegin() const {
    return result_ ? reinterpret_cast<const_iterator>(shaderc_result_get_bytes(result_))
                   : nullptr;
  }
  const_iterator cend() const {
    return result_ ? cbegin() + shaderc_result_get_length(result_) / sizeof(OutputElementType)
                   : nullptr;
  }
  const_iterator begin() const { return cbegin(); }
  const_iterator end() const { return cend(); }
  size_t GetNumWarnings() const { return result_ ? shaderc_result_get_num_warnings(result_) : 0; }
  size_t GetNumErrors() const { return result_ ? shaderc_result_get_num_errors(result_) : 0; }

 private:
  shaderc_compilation_result_t result_;
};

using SpvCompilationResult = CompilationResult<uint32_t>;
using AssemblyCompilationResult = CompilationResult<char>;
using PreprocessedSourceCompilationResult = CompilationResult<char>;

class CompileOptions {
 public:
  CompileOptions() : options_(shaderc_compile_options_initialize()) {}
  ~CompileOptions() { shaderc_compile_options_release(options_); }
  CompileOptions(const CompileOptions& other)
      : options_(shaderc_compile_options_clone(other.options_)) {}
  CompileOptions(CompileOptions&& other)
      : options_(other.options_), includer_(std::move(other.includer_)) {
    other.options_ = nullptr;
  }
  CompileOptions& operator=(const CompileOptions&) = delete;

  void AddMacroDefinition(const char* name, size_t name_length, const char* value,
                          size_t value_length) {
    shaderc_compile_options_add_macro_definition(options_, name, name_length, value,
                                                 value_length);
  }
  void AddMacroDefinition(const std::string& name) {
    AddMacroDefinition(name.c_str(), name.size(), nullptr, 0u);
  }
  void AddMacroDefinition(const std::string& name, const std::string& value) {
    AddMacroDefinition(name.c_str(), name.size(), value.c_str(), value.size());
  }
  void SetGenerateDebugInfo() { shaderc_compile_options_set_generate_debug_info(options_); }
  void SetOptimizationLevel(shaderc_optimization_level level) {
    shaderc_compile_options_set_optimization_level(options_, level);
  }

  // What resolves #include: GetInclude returns a result (an empty source name with the
  // error as content when it cannot), ReleaseInclude gets each result back.
  class IncluderInterface {
   public:
    virtual shaderc_include_result* GetInclude(const char* requested_source,
                                               shaderc_include_type type,
                                               const char* requesting_source,
                                               size_t include_depth) = 0;
    virtual void ReleaseInclude(shaderc_include_result* data) = 0;
    virtual ~IncluderInterface() = default;
  };

  // The options own the includer from now on.
  void SetIncluder(std::unique_ptr<IncluderInterface>&& includer) {
    includer_ = std::move(includer);
    shaderc_compile_options_set_include_callbacks(options_, &ResolveThrough, &ReleaseThrough,
                                                  includer_.get());
  }
  void SetForcedVersionProfile(int version, shaderc_profile profile) {
    shaderc_compile_options_set_forced_version_profile(options_, version, profile);
  }
  void SetSuppressWarnings() { shaderc_compile_options_set_suppress_warnings(options_); }
  void SetSourceLanguage(shaderc_source_language lang) {
    shaderc_compile_options_set_source_language(options_, lang);
  }
  void SetTargetEnvironment(shaderc_target_env target, uint32_t version) {
    shaderc_compile_options_set_target_env(options_, target, version);
  }
  void SetTargetSpirv(shaderc_spirv_version version) {
    shaderc_compile_options_set_target_spirv(options_, version);
  }
  void SetWarningsAsErrors() { shaderc_compile_options_set_warnings_as_errors(options_); }
  void SetLimit(shaderc_limit limit, int value) {
    shaderc_compile_options_set_limit(options_, limit, value);
  }
  void SetAutoBindUniforms(bool auto_bind) {
    shaderc_compile_options_set_auto_bind_uniforms(options_, auto_bind);
  }
  void SetAutoSampledTextures(bool auto_sampled) {
    shaderc_compile_options_set_auto_combined_image_sampler(options_, auto_sampled);
  }
  void SetHlslIoMapping(bool hlsl_iomap) {
    shaderc_compile_options_set_hlsl_io_mapping(options_, hlsl_iomap);
  }
  void SetHlslOffsets(bool hlsl_offsets) {
    shaderc_compile_options_set_hlsl_offsets(options_, hlsl_offsets);
  }
  void SetBindingBase(shaderc_uniform_kind kind, uint32_t base) {
    shaderc_compile_options_set_binding_base(options_, kind, base);
  }
  void SetBindingBaseForStage(shaderc_shader_kind shader_kind, shaderc_uniform_kind kind,
                              uint32_t base) {
    shaderc_compile_options_set_binding_base_for_stage(options_, shader_kind, kind, base);
  }
  void SetAutoMapLocations(bool auto_map) {
    shaderc_compile_options_set_auto_map_locations(options_, auto_map);
  }
  void SetHlslRegisterSetAndBindingForStage(shaderc_shader_kind shader_kind,
                                            const std::string& reg, const std::string& set,
                                            const std::string& binding) {
    shaderc_compile_options_set_hlsl_register_set_and_binding_for_stage(
        options_, shader_kind, reg.c_str(), set.c_str(), binding.c_str());
  }
  void SetHlslRegisterSetAndBinding(const std::string& reg, const std::string& set,
                                    const std::string& binding) {
    shaderc_compile_options_set_hlsl_register_set_and_binding(options_, reg.c_str(), set.c_str(),
                                                              binding.c_str());
  }
  void SetHlslFunctionality1(bool enable) {
    shaderc_compile_options_set_hlsl_functionality1(options_, enable);
  }
  void SetHlsl16BitTypes(bool enable) {
    shaderc_compile_options_set_hlsl_16bit_types(options_, enable);
  }
  void SetInvertY(bool enable) { shaderc_compile_options_set_invert_y(options_, enable); }
  void SetNanClamp(bool enable) { shaderc_compile_options_set_nan_clamp(options_, enable); }

  // Glint's own: its passes (on by default), robust access (off by default), what may
  // prove a clamp unnecessary, and how uniformity findings are reported.
  void SetGlint(bool enable) { glint_shaderc_compile_options_set_glint(options_, enable); }
  void SetRobustAccess(bool enable) {
    glint_shaderc_compile_options_set_robust_access(options_, enable);
  }
  void SetRangeAnalysis(glint_shaderc_range_analysis mode) {
    glint_shaderc_compile_options_set_range_analysis(options_, mode);
  }
  void SetUniformity(glint_shaderc_uniformity severity) {
    glint_shaderc_compile_options_set_uniformity(options_, severity);
  }

 private:
  static shaderc_include_result* ResolveThrough(void* user_data, const char* requested, int type,
                                                const char* requesting, size_t depth) {
    return static_cast<IncluderInterface*>(user_data)->GetInclude(
        requested, static_cast<shaderc_include_type>(type), requesting, depth);
  }
  static void ReleaseThrough(void* user_data, shaderc_include_result* result) {
    static_cast<IncluderInterface*>(user_data)->ReleaseInclude(result);
  }

  shaderc_compile_options_t options_;
  std::unique_ptr<IncluderInterface> includer_;
  friend class Compiler;
};

// A compiler; may compile from several threads at once.
class Compiler {
 public:
  Compiler() : compiler_(shaderc_compiler_initialize()) {}
  ~Compiler() { shaderc_compiler_release(compiler_); }
  Compiler(Compiler&& other) : compiler_(other.compiler_) { other.compiler_ = nullptr; }
  Compiler& operator=(Compiler&& other) {
    if (this != &other) {
      shaderc_compiler_release(compiler_);
      compiler_ = other.compiler_;
      other.compiler_ = nullptr;
    }
    return *this;
  }
  Compiler(const Compiler&) = delete;
  Compiler& operator=(const Compiler&) = delete;

  bool IsValid() const { return compiler_ != nullptr; }

  // Source into SPIR-V words. Without an entry point name: "main"; without options: the
  // defaults.
  SpvCompilationResult CompileGlslToSpv(const char* source_text, size_t source_text_size,
                                        shaderc_shader_kind shader_kind,
                                        const char* input_file_name,
                                        const char* entry_point_name,
                                        const CompileOptions& options) const {
    return SpvCompilationResult(shaderc_compile_into_spv(compiler_, source_text,
                                                         source_text_size, shader_kind,
                                                         input_file_name, entry_point_name,
                                                         options.options_));
  }
  SpvCompilationResult CompileGlslToSpv(const char* source_text, size_t source_text_size,
                                        shaderc_shader_kind shader_kind,
                                        const char* input_file_name,
                                        const CompileOptions& options) const {
    return CompileGlslToSpv(source_text, source_text_size, shader_kind, input_file_name, "main",
                            options);
  }
  SpvCompilationResult CompileGlslToSpv(const char* source_text, size_t source_text_size,
                                        shaderc_shader_kind shader_kind,
                                        const char* input_file_name) const {
    return SpvCompilationResult(shaderc_compile_into_spv(
        compiler_, source_text, source_text_size, shader_kind, input_file_name, "main", nullptr));
  }
  SpvCompilationResult CompileGlslToSpv(const std::string& source_text,
                                        shaderc_shader_kind shader_kind,
                                        const char* input_file_name,
                                        const CompileOptions& options) const {
    return CompileGlslToSpv(source_text.data(), source_text.size(), shader_kind, input_file_name,
                            options);
  }
  SpvCompilationResult CompileGlslToSpv(const std::string& source_text,
                                        shaderc_shader_kind shader_kind,
                                        const char* input_file_name,
                                        const char* entry_point_name,
                                        const CompileOptions& options) const {
    return CompileGlslToSpv(source_text.data(), source_text.size(), shader_kind, input_file_name,
                            entry_point_name, options);
  }
  SpvCompilationResult CompileGlslToSpv(const std::string& source_text,
                                        shaderc_shader_kind shader_kind,
                                        const char* input_file_name) const {
    return CompileGlslToSpv(source_text.data(), source_text.size(), shader_kind,
                            input_file_name);
  }

  // SPIR-V assembly text into words.
  SpvCompilationResult AssembleToSpv(const char* source_assembly, size_t source_assembly_size,
                                     const CompileOptions& options) const {
    return SpvCompilationResult(shaderc_assemble_into_spv(compiler_, source_assembly,
                                                          source_assembly_size, options.options_));
  }
  SpvCompilationResult AssembleToSpv(const char* source_assembly,
                                     size_t source_assembly_size) const {
    return SpvCompilationResult(
        shaderc_assemble_into_spv(compiler_, source_assembly, source_assembly_size, nullptr));
  }
  SpvCompilationResult AssembleToSpv(const std::string& source_assembly,
                                     const CompileOptions& options) const {
    return AssembleToSpv(source_assembly.data(), source_assembly.size(), options);
  }
  SpvCompilationResult AssembleToSpv(const std::string& source_assembly) const {
    return AssembleToSpv(source_assembly.data(), source_assembly.size());
  }

  // Source into SPIR-V assembly text.
  AssemblyCompilationResult CompileGlslToSpvAssembly(const char* source_text,
                                                     size_t source_text_size,
                                                     shaderc_shader_kind shader_kind,
                                                     const char* input_file_name,
                                                     const char* entry_point_name,
                                                     const CompileOptions& options) const {
    return AssemblyCompilationResult(shaderc_compile_into_spv_assembly(
        compiler_, source_text, source_text_size, shader_kind, input_file_name, entry_point_name,
        options.options_));
  }
  AssemblyCompilationResult CompileGlslToSpvAssembly(const char* source_text,
                                                     size_t source_text_size,
                                                     shaderc_shader_kind shader_kind,
                                                     const char* input_file_name,
                                                     const CompileOptions& options) const {
    return CompileGlslToSpvAssembly(source_text, source_text_size, shader_kind, input_file_name,
                                    "main", options);
  }
  AssemblyCompilationResult CompileGlslToSpvAssembly(const std::string& source_text,
                                                     shaderc_shader_kind shader_kind,
                                                     const char* input_file_name,
                                                     const char* entry_point_name,
                                                     const CompileOptions& options) const {
    return CompileGlslToSpvAssembly(source_text.data(), source_text.size(), shader_kind,
                                    input_file_name, entry_point_name, options);
  }
  AssemblyCompilationResult CompileGlslToSpvAssembly(const std::string& source_text,
                                                     shaderc_shader_kind shader_kind,
                                                     const char* input_file_name,
                                                     const CompileOptions& options) const {
    return CompileGlslToSpvAssembly(source_text, shader_kind, input_file_name, "main", options);
  }

  // Source into preprocessed text (the stage does not matter).
  PreprocessedSourceCompilationResult PreprocessGlsl(const char* source_text,
                                                     size_t source_text_size,
                                                     shaderc_shader_kind shader_kind,
                                                     const char* input_file_name,
                                                     const CompileOptions& options) const {
    return PreprocessedSourceCompilationResult(shaderc_compile_into_preprocessed_text(
        compiler_, source_text, source_text_size, shader_kind, input_file_name, "main",
        options.options_));
  }
  PreprocessedSourceCompilationResult PreprocessGlsl(const std::string& source_text,
                                                     shaderc_shader_kind shader_kind,
                                                     const char* input_file_name,
                                                     const CompileOptions& options) const {
    return PreprocessGlsl(source_text.data(), source_text.size(), shader_kind, input_file_name,
                          options);
  }

 private:
  shaderc_compiler_t compiler_;
};

}  // namespace shaderc

#endif  // SHADERC_SHADERC_HPP_
