// One glslc input (compile.h). The glslang calls and their order are shaderc 2023.2's, so
// that with -fno-glint the output is byte for byte what Debian's glslc writes: a
// preprocessing pass when the stage is not forced (it finds `#pragma shader_stage`, and
// its errors end the compile), then parse, link and IO mapping with the settings shaderc
// gives glslang (setEnvInput is never called; the client and SPIR-V target are), then
// glslang's SPIR-V with shaderc's generator word (13, "Google Shaderc over Glslang").
// Debian's libglslang is built with HLSL support; this makes TShader's HLSL setters
// visible (as in glslang/front_end/front_end.cpp).
#ifndef ENABLE_HLSL
#define ENABLE_HLSL 1
#endif
#include "compile.h"

#include <fstream>
#include <iterator>
#include <memory>

#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>
#include <spirv-tools/libspirv.h>
#include <spirv-tools/optimizer.hpp>

#include "glslang/front_end/big_stack.h"
#include "glslang/front_end/front_end.h"
#include "input_files.h"
#include "preprocessed_text.h"

namespace glint::glslc {
namespace {

// glslc's include search: `#include "x"` first beside the including file, then in the
// -I directories in order; `#include <x>` in the -I directories only. A directory and a
// name are joined with one '/' unless the directory is empty or ends in one. Every path
// resolved is recorded (the dependency rule lists them).
class GlslcIncluder : public CountingIncluder {
 public:
  explicit GlslcIncluder(const std::vector<std::string>& directories)
      : directories_(directories) {}

  IncludeResult* includeLocal(const char* header_name, const char* includer_name,
                              size_t) override {
    ++requests_;
    std::string includer(includer_name ? includer_name : "");
    size_t slash = includer.find_last_of("/\\");
    std::string directory = slash == std::string::npos ? "" : includer.substr(0, slash);
    if (IncludeResult* found = TryPath(Join(directory, header_name))) return found;
    return Search(header_name);
  }

  IncludeResult* includeSystem(const char* header_name, const char*, size_t) override {
    ++requests_;
    return Search(header_name);
  }

  void releaseInclude(IncludeResult* result) override {
    if (!result) return;
    delete static_cast<std::string*>(result->userData);
    delete result;
  }


 private:
  static std::string Join(const std::string& directory, const std::string& name) {
    if (directory.empty() || directory.back() == '/') return directory + name;
    return directory + "/" + name;
  }

  IncludeResult* Search(const std::string& name) {
    for (const std::string& directory : directories_)
      if (IncludeResult* found = TryPath(Join(directory, name))) return found;
    auto* message = new std::string("Cannot find or open include file.");
    return new IncludeResult("", message->data(), message->size(), message);
  }

  IncludeResult* TryPath(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return nullptr;
    auto* content = new std::string(std::istreambuf_iterator<char>(file),
                                    std::istreambuf_iterator<char>());
    if (included) included->insert(path);
    return new IncludeResult(path, content->data(), content->size(), content);
  }

  const std::vector<std::string>& directories_;
};

std::string Preamble(const GlslcOptions& options) {
  std::string preamble;
  for (const auto& [name, value] : options.macros) preamble += "#define " + name + " " + value + "\n";
  return preamble + kIncludeExtensionLine;
}

EShMessages BaseMessages(const GlslcOptions& options, bool hlsl) {
  int messages = EShMsgCascadingErrors;
  if (hlsl) messages |= EShMsgReadHlsl;
  messages |= EShMsgSpvRules;
  if (options.target.client == glslang::EShClientVulkan) messages |= EShMsgVulkanRules;
  if (options.hlsl_offsets) messages |= EShMsgHlslOffsets;
  if (options.hlsl_16bit_types) messages |= EShMsgHlslEnable16BitTypes;
  return static_cast<EShMessages>(messages);
}

// The extension as glslc sees it: everything after the last '.' of the whole argument.
std::string Extension(const std::string& path) {
  size_t dot = path.rfind('.');
  return dot == std::string::npos ? "" : path.substr(dot + 1);
}

std::optional<EShLanguage> StageFromExtension(const std::string& extension) {
  static const std::pair<const char*, EShLanguage> kStages[] = {
      {"vert", EShLangVertex},       {"frag", EShLangFragment},   {"tesc", EShLangTessControl},
      {"tese", EShLangTessEvaluation}, {"geom", EShLangGeometry}, {"comp", EShLangCompute},
      {"rgen", EShLangRayGen},       {"rahit", EShLangAnyHit},    {"rchit", EShLangClosestHit},
      {"rmiss", EShLangMiss},        {"rint", EShLangIntersect},  {"rcall", EShLangCallable},
      {"task", EShLangTask},         {"mesh", EShLangMesh}};
  for (const auto& [name, stage] : kStages)
    if (extension == name) return stage;
  return std::nullopt;
}

void ApplySettings(glslang::TShader& shader, const GlslcOptions& options, EShLanguage stage) {
  shader.setAutoMapBindings(options.auto_bind_uniforms);
  if (options.auto_combined_image_sampler)
    shader.setTextureSamplerTransformMode(EShTexSampTransUpgradeTextureRemoveSampler);
  shader.setAutoMapLocations(options.auto_map_locations);
  shader.setShiftBinding(glslang::EResImage, options.binding_base[kImage][stage]);
  shader.setShiftBinding(glslang::EResSampler, options.binding_base[kSampler][stage]);
  shader.setShiftBinding(glslang::EResTexture, options.binding_base[kTexture][stage]);
  shader.setShiftBinding(glslang::EResUbo, options.binding_base[kUbo][stage]);
  shader.setShiftBinding(glslang::EResSsbo, options.binding_base[kSsbo][stage]);
  shader.setShiftBinding(glslang::EResUav, options.binding_base[kUav][stage]);
  shader.setHlslIoMapping(options.hlsl_iomap);
  shader.setResourceSetBinding(options.resource_set_binding[stage]);
}

// The SPIR-V version glslang targets.
glslang::EShTargetLanguageVersion TargetSpirv(const GlslcOptions& options) {
  return options.target_spirv ? *options.target_spirv : options.target.spirv;
}

// Glint's diagnostics in glslc's form ("file:line: warning: message", each reason
// indented on a line of its own), counted as glslc counts glslang's.
size_t AddGlintDiagnostics(const Report& report, const std::string& name,
                           const GlslcOptions& options, std::string* out,
                           MessageCounts* counts) {
  size_t errors = 0;
  for (const Diagnostic& diagnostic : report.diagnostics) {
    bool error = diagnostic.severity == Severity::kError;
    if (diagnostic.severity == Severity::kWarning) {
      if (options.suppress_warnings) continue;
      error = options.warnings_as_errors;
    } else if (!error) {
      continue;  // notes are for reports, not for the terminal
    } else if (errors > 0 && diagnostic.location.line == 0) {
      continue;  // a pass's failure that sums up the errors already shown
    }
    std::string where = diagnostic.location.file.empty() ? name : diagnostic.location.file;
    if (diagnostic.location.line) where += ":" + std::to_string(diagnostic.location.line);
    *out += where + ": " + (error ? "error: " : "warning: ") + diagnostic.message + "\n";
    for (const std::string& reason : diagnostic.reasons) *out += "    " + reason + "\n";
    if (error) {
      ++counts->errors;
      ++errors;
    } else {
      ++counts->warnings;
    }
  }
  return errors;
}

// SPIRV-Tools' optimizer as shaderc runs it: HLSL legalization always for HLSL, then
// the level's passes (debug information stripped first unless -g). Returns false with
// glslc's internal-error text in `messages`.
bool Optimize(const GlslcOptions& options, bool hlsl, std::vector<uint32_t>* words,
              std::string* messages) {
  bool any = hlsl || options.optimization != Optimization::kNone;
  if (!any) return true;
  spvtools::Optimizer optimizer(static_cast<spv_target_env>(options.target.spirv_tools_env));
  std::string problems;
  optimizer.SetMessageConsumer(
      [&problems](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
        problems += std::string(message) + "\n";
      });
  if (hlsl) optimizer.RegisterLegalizationPasses();
  if (options.optimization != Optimization::kNone) {
    if (!options.debug_info) optimizer.RegisterPass(spvtools::CreateStripDebugInfoPass());
    if (options.optimization == Optimization::kPerformance)
      optimizer.RegisterPerformancePasses();
    else
      optimizer.RegisterSizePasses();
  }
  spvtools::ValidatorOptions validator;
  validator.SetSkipBlockLayout(true);
  validator.SetRelaxLogicalPointer(true);
  validator.SetBeforeHlslLegalization(true);
  spvtools::OptimizerOptions run;
  run.set_run_validator(true);
  run.set_validator_options(validator);
  std::vector<uint32_t> optimized;
  if (!optimizer.Run(words->data(), words->size(), &optimized, run)) {
    *messages += "shaderc: internal error: compilation succeeded but failed to optimize: " +
                 problems + "\n";
    return false;
  }
  *words = std::move(optimized);
  return true;
}

bool Disassemble(const GlslcOptions& options, const std::vector<uint32_t>& words,
                 std::string* text, std::string* messages) {
  spv_context context = spvContextCreate(static_cast<spv_target_env>(options.target.spirv_tools_env));
  spv_text disassembly = nullptr;
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result = spvBinaryToText(
      context, words.data(), words.size(),
      SPV_BINARY_TO_TEXT_OPTION_INDENT | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES, &disassembly,
      &diagnostic);
  bool ok = result == SPV_SUCCESS && disassembly;
  if (ok) {
    text->assign(disassembly->str, disassembly->length);
  } else {
    *messages += "shaderc: internal error: compilation succeeded but failed to disassemble: ";
    if (diagnostic)
      *messages += std::to_string(diagnostic->position.index) + ": " + diagnostic->error;
    *messages += "\n";
  }
  spvTextDestroy(disassembly);
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return ok;
}

// `.spvasm` inputs: assembled for Vulkan 1.0 or OpenGL 4.5 (glslc assembles for the
// client alone, whatever its version), with SPIRV-Tools' own generator word.
void Assemble(const std::string& name, const std::string& source, const GlslcOptions& options,
              CompileResult* result) {
  spv_target_env env = options.target.client == glslang::EShClientOpenGL ? SPV_ENV_OPENGL_4_5
                                                                         : SPV_ENV_VULKAN_1_0;
  std::string error;
  if (AssembleSpirv(env, source, &result->words, &error)) {
    result->ok = result->has_output = true;
  } else {
    // Debian's glslc crashes here; this says what is wrong instead.
    result->messages += name + ": error: " + error + "\n";
  }
}

struct Source {
  std::string name;  // display name
  std::string text;
  const char* text_pointer = nullptr;
  int length = 0;
  const char* name_pointer = nullptr;
  void SetOn(glslang::TShader& shader) {
    text_pointer = text.c_str();
    length = static_cast<int>(text.size());
    name_pointer = name.c_str();
    shader.setStringsWithLengthsAndNames(&text_pointer, &length, &name_pointer, 1);
  }
};

// The preprocessing pass: glslang's preprocessed text, or nothing when it failed (its
// errors are in `result`, counted; its warnings are never shown).
std::optional<std::string> PreprocessPass(Source& source, bool hlsl,
                                          const GlslcOptions& options, CountingIncluder& includer,
                                          CompileResult* result, MessageCounts* counts) {
  glslang::TShader shader(EShLangVertex);
  source.SetOn(shader);
  std::string preamble = Preamble(options);
  shader.setPreamble(preamble.c_str());
  shader.setEnvClient(options.target.client, options.target.client_version);
  if (options.hlsl_functionality1) shader.setEnvTargetHlslFunctionality1();
  shader.setInvertY(options.invert_y);
  shader.setNanMinMaxClamp(options.nan_clamp);
  EShMessages messages =
      static_cast<EShMessages>(BaseMessages(options, hlsl) | EShMsgOnlyPreprocessor);
  std::string output;
  bool ok = shader.preprocess(&options.limits, options.version, options.profile,
                              options.force_version_profile, false, messages, &output, includer);
  WarningPolicy quiet{true, options.warnings_as_errors};
  size_t errors = RewriteGlslangLog(shader.getInfoLog(), source.name, quiet, &result->messages, counts);
  if (!ok || errors) return std::nullopt;
  return output;
}

}  // namespace

bool AssembleSpirv(int env, const std::string& text, std::vector<uint32_t>* words,
                   std::string* error) {
  spv_context context = spvContextCreate(static_cast<spv_target_env>(env));
  spv_binary binary = nullptr;
  spv_diagnostic diagnostic = nullptr;
  bool ok = spvTextToBinary(context, text.data(), text.size(), &binary, &diagnostic) ==
                SPV_SUCCESS &&
            binary;
  if (ok) {
    words->assign(binary->code, binary->code + binary->wordCount);
  } else if (diagnostic) {
    *error = std::to_string(diagnostic->position.line + 1) + ":" +
             std::to_string(diagnostic->position.column + 1) + ": " + diagnostic->error;
  }
  spvBinaryDestroy(binary);
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return ok;
}

CompileResult CompileInput(const InputFile& input, const GlslcOptions& options,
                           MessageCounts* counts) {
  SourceRequest request;
  request.name = DisplayName(input.path);
  std::string why;
  if (!ReadInputFile(input.path, &request.text, &why)) {
    CompileResult result;
    result.messages = "glslc: error: cannot open input file: '" + input.path + "'" + why + "\n";
    return result;
  }
  std::string extension = Extension(input.path);
  if (!input.forced_stage && extension == "spvasm") {
    CompileResult result;
    if (options.output_type != OutputType::kBinary) {
      result.ok = true;  // glslc skips assembly text unless it writes binary
      return result;
    }
    result.writes_dependency_rule = true;
    Assemble(request.name, request.text, options, &result);
    return result;
  }
  request.forced_stage = input.forced_stage;
  request.default_stage = StageFromExtension(extension);
  request.hlsl = input.hlsl ? *input.hlsl : extension == "hlsl";
  request.entry_point = input.entry_point;
  if (extension == "glsl" || extension == "hlsl")
    request.stage_error = "glslc: error: '" + input.path + "': ." + extension +
                          " file encountered but no -fshader-stage specified ahead\n";
  else if (input.path == "-")
    request.stage_error =
        "glslc: error: '-': -fshader-stage required when input is from standard input \"-\"\n";
  else
    request.stage_error =
        "glslc: error: '" + input.path + "': file not recognized: File format not recognized\n";
  GlslcIncluder includer(options.include_directories);
  return CompileSource(request, options, includer, counts);
}

CompileResult CompileSource(const SourceRequest& request, const GlslcOptions& options,
                            CountingIncluder& includer, MessageCounts* counts, Failure* failure) {
  CompileResult result;
  Failure failed = Failure::kCompilation;
  Source source;
  source.name = request.name;
  source.text = request.text;
  bool preprocess_only = options.output_type == OutputType::kPreprocessed;
  bool hlsl = request.hlsl;
  WarningPolicy policy{options.suppress_warnings, options.warnings_as_errors};
  includer.included = &result.included;

  RunOnBigStack([&] {
    std::optional<EShLanguage> stage = request.forced_stage;
    if (preprocess_only || !stage) {
      std::optional<std::string> preprocessed =
          PreprocessPass(source, hlsl, options, includer, &result, counts);
      result.writes_dependency_rule = true;
      if (!preprocessed) return;
      bool next_line = NextLineSemantics(*preprocessed, options.force_version_profile ? options.version : 0,
                                         options.profile);
      if (preprocess_only) {
        result.text = PreprocessedOutput(*preprocessed, source.name, includer.requests(), next_line);
        result.ok = result.has_output = true;
        return;
      }
      // glslc looks for the pragma in the text -E would print (its lines are the source's).
      StagePragma pragma = FindStagePragma(
          PreprocessedOutput(*preprocessed, source.name, includer.requests(), next_line),
          source.name, next_line);
      if (!pragma.errors.empty()) {
        result.messages += pragma.errors;
        return;
      }
      stage = pragma.stage ? pragma.stage : request.default_stage;
      if (!stage) {
        result.writes_dependency_rule = false;
        result.messages += request.stage_error;
        failed = Failure::kStage;
        return;
      }
    }
    result.writes_dependency_rule = true;

    glslang::TShader shader(*stage);
    source.SetOn(shader);
    std::string preamble = Preamble(options);
    shader.setPreamble(preamble.c_str());
    shader.setEntryPoint(request.entry_point.c_str());
    ApplySettings(shader, options, *stage);
    shader.setEnvClient(options.target.client, options.target.client_version);
    shader.setEnvTarget(glslang::EShTargetSpv, TargetSpirv(options));
    if (options.hlsl_functionality1) shader.setEnvTargetHlslFunctionality1();
    shader.setInvertY(options.invert_y);
    shader.setNanMinMaxClamp(options.nan_clamp);
    EShMessages messages = BaseMessages(options, hlsl);
    if (options.debug_info) messages = static_cast<EShMessages>(messages | EShMsgDebugInfo);
    bool parsed = shader.parse(&options.limits, options.version, options.profile,
                               options.force_version_profile, false, messages, includer);
    size_t errors = RewriteGlslangLog(shader.getInfoLog(), source.name, policy, &result.messages,
                                      counts);
    if (!parsed || errors) return;
    glslang::TProgram program;
    program.addShader(&shader);
    bool linked = program.link(EShMsgDefault);
    bool mapped = linked && program.mapIO();
    errors = RewriteGlslangLog(program.getInfoLog(), source.name, policy, &result.messages, counts);
    if (!linked || !mapped || errors) return;
    const glslang::TIntermediate* intermediate = program.getIntermediate(*stage);
    if (!intermediate) return;

    glslang::SpvOptions spv_options;
    spv_options.generateDebugInfo = options.debug_info;
    spv_options.disableOptimizer = true;
    spv_options.optimizeSize = false;
    std::vector<uint32_t> words;
    // Glint's passes run on GLSL where glslang's SPIR-V comes out (the report is located
    // from glslang's lines); on HLSL after legalization, which its SPIR-V needs first.
    bool glint_after_legalization = options.glint && hlsl;
    if (options.glint && !hlsl) {
      frontend::GlintOutput glint =
          frontend::GenerateWithGlint(*intermediate, spv_options, options.glint_options, source.name);
      errors = AddGlintDiagnostics(glint.report, source.name, options, &result.messages, counts);
      if (!glint.ok || errors) return;
      words = std::move(glint.words);
    } else {
      words = frontend::GenerateSpirv(*intermediate, spv_options, nullptr);
    }
    if (words.size() < 5) return;
    words[2] = (words[2] & 0xffffu) | (13u << 16);  // shaderc's generator
    if (!Optimize(options, hlsl, &words, &result.messages)) {
      failed = Failure::kInternal;
      return;
    }
    if (glint_after_legalization) {
      Report report;
      Options glint_options = options.glint_options;
      glint_options.target_env = options.target.glint;
      bool ok = Process(words, glint_options, &report);
      errors = AddGlintDiagnostics(report, source.name, options, &result.messages, counts);
      if (!ok || errors) return;
    }
    if (options.output_type == OutputType::kAssembly) {
      if (!Disassemble(options, words, &result.text, &result.messages)) {
        failed = Failure::kInternal;
        return;
      }
    } else {
      result.words = std::move(words);
    }
    result.ok = result.has_output = true;
  });
  includer.included = nullptr;
  if (failure) *failure = result.ok ? Failure::kNone : failed;
  return result;
}

}  // namespace glint::glslc
