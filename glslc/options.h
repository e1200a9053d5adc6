// glslc's command line: shaderc 2023.2's options, read left to right as glslc reads them
// (the same forms, the same error messages, the same exit codes), plus Glint's own
// options in glslc's style (listed by --help-glint; --help prints glslc's text alone). Parsing fills a
// GlslcOptions; it never compiles. The messages are those of Debian's /usr/bin/glslc.
#ifndef GLINT_GLSLC_OPTIONS_H
#define GLINT_GLSLC_OPTIONS_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <glslang/Include/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>

#include "glint/glint.h"

namespace glint::glslc {

// One input file and what the options before it said about it.
struct InputFile {
  std::string path;                          // as given; "-" is standard input
  std::optional<EShLanguage> forced_stage;   // -fshader-stage= before it
  std::optional<bool> hlsl;                  // -x before it (else: from the extension)
  std::string entry_point = "main";          // -fentry-point= before it
};

enum class OutputType { kBinary, kAssembly, kPreprocessed };
enum class BinaryFormat { kBinary, kNumbers, kCInitializer };
enum class DependencyMode { kNone, kAsOutput /* -M, -MM */, kBesideOutput /* -MD */ };
enum class Optimization { kNone, kPerformance /* -O */, kSize /* -Os */ };

// The resource kinds of the -f*-binding-base options, in glslang's order of shifts.
enum BindingKind { kImage, kSampler, kTexture, kUbo, kSsbo, kUav, kBindingKinds };

// The target environment: glslang's client and version, SPIR-V version, and
// SPIRV-Tools' environment for the optimizer and the disassembler.
struct TargetEnvironment {
  glslang::EShClient client = glslang::EShClientVulkan;
  glslang::EShTargetClientVersion client_version = glslang::EShTargetVulkan_1_0;
  glslang::EShTargetLanguageVersion spirv = glslang::EShTargetSpv_1_0;
  int spirv_tools_env = 0;  // an spv_target_env
  TargetEnv glint = TargetEnv::kVulkan10;
};

struct GlslcOptions {
  std::vector<InputFile> inputs;
  OutputType output_type = OutputType::kBinary;
  bool needs_linking = true;  // none of -c, -S, -E, -M: one input into a.spv
  std::string output_extension;  // ".spv" (-c), ".spvasm" (-S)
  std::optional<std::string> output_name;  // -o ("-": standard output)
  std::optional<BinaryFormat> format;      // -mfmt=
  DependencyMode dependencies = DependencyMode::kNone;
  bool dependency_option_given = false;  // any of -M -MM -MD -MF -MT
  std::optional<std::string> dependency_file;    // -MF
  std::optional<std::string> dependency_target;  // -MT
  std::vector<std::string> include_directories;  // -I, in order
  // -D: glslc keeps macros in a hash map, and its iteration order is the order of the
  // #define lines (it decides the line numbers of errors in them): this is that map.
  std::unordered_map<std::string, std::string> macros;
  bool debug_info = false;  // -g
  Optimization optimization = Optimization::kNone;
  bool suppress_warnings = false;    // -w (and -M)
  bool warnings_as_errors = false;   // -Werror
  bool force_version_profile = false;  // -std=
  int version = 110;
  EProfile profile = ENoProfile;
  TargetEnvironment target;
  std::optional<glslang::EShTargetLanguageVersion> target_spirv;  // --target-spv=
  TBuiltInResource limits{};
  bool auto_bind_uniforms = false;
  bool auto_combined_image_sampler = false;
  bool auto_map_locations = false;
  bool hlsl_iomap = false;
  bool hlsl_offsets = false;
  bool hlsl_functionality1 = false;
  bool hlsl_16bit_types = false;
  bool invert_y = false;
  bool nan_clamp = false;
  // Binding bases by kind and by glslang stage.
  std::array<std::array<uint32_t, EShLangCount>, kBindingKinds> binding_base{};
  // -fresource-set-binding triples by glslang stage (register, set, binding strings).
  std::array<std::vector<std::string>, EShLangCount> resource_set_binding;

  // Glint's own options.
  bool glint = true;  // -fno-glint: exactly what Debian's glslc gives
  Options glint_options;
};

// What parsing decided.
struct ParseOutcome {
  bool proceed = false;  // compile the inputs
  int exit_code = 0;     // otherwise: exit with this
  std::string out;       // printed on standard output (help, version, limits)
  std::string err;       // printed on standard error (errors, and the -D warnings)
};

// Reads argv (without argv[0]) into `options`.
ParseOutcome ParseCommandLine(const std::vector<std::string>& args, GlslcOptions* options);

// The text --help prints: glslc 2023.2's, exactly (scripts and shaderc's own tests read
// it). Glint's options are listed by --help-glint (GlintHelpText).
std::string HelpText();
std::string GlintHelpText();

// The target environment --target-env=`name` selects ("vulkan", "vulkan1.0".."vulkan1.3",
// "opengl", "opengl4.5"); false for any other name.
bool TargetEnvironmentNamed(const std::string& name, TargetEnvironment* target);

// glslc's stage names for -fshader-stage= and the stage word of binding options.
std::optional<EShLanguage> StageFromGlslcName(const std::string& name);

// The stage a stage-qualified binding setting reaches, as shaderc files it: tessellation
// control and evaluation swapped (shaderc numbers its stages otherwise than glslang);
// nullopt for the stages shaderc cannot qualify a setting with (ray tracing, task, mesh).
std::optional<EShLanguage> BindingStage(EShLanguage stage);

}  // namespace glint::glslc

#endif  // GLINT_GLSLC_OPTIONS_H
