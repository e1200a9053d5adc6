// The C API's input builder and glint_compile (include/glint/glint_c.h): a
// glint_input_t collects what glslangValidator's flags say about one shader, and
// glint_compile turns it into the front end's GlslangSettings exactly as the command
// line does (StandAlone/command_line.cpp: -V/-G, --target-env, -D/-U, -e, --sep, -I,
// -g*), so both drive glslang the same way and write the same words; a test compares
// them byte for byte.
//
// Refuses, before glslang runs: no source, no stage, the universal target (glslang needs
// a client API), HLSL under OpenGL (glslangValidator refuses it too). Every enum value
// arrives as an int and is checked against its list before use. Includes: the embedder's
// callback first, then the directories; a depth beyond DirectoryIncluder's
// kMaxIncludeDepth is refused with the chain of files in the message, before the
// callback is asked.
#ifndef ENABLE_HLSL
#define ENABLE_HLSL 1
#endif
#include <glslang/Public/ResourceLimits.h>

#include <algorithm>
#include <cstdint>
#include <cctype>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "glslang/api/c_api_internal.h"
#include "glslang/front_end/big_stack.h"
#include "glslang/front_end/front_end.h"
#include "glslang/front_end/glslang_log.h"

namespace glint::capi {
namespace {

using frontend::GlslangSettings;

// The embedder's callback first, the directories (DirectoryIncluder) for what it
// declines. Results carry their text in a std::string owned through userData, as
// DirectoryIncluder's do, so its releaseInclude frees both kinds.
class CallbackIncluder : public frontend::DirectoryIncluder {
 public:
  CallbackIncluder(const glint_input_s& input)
      : DirectoryIncluder(input.include_directories), input_(input) {}

  IncludeResult* includeLocal(const char* requested, const char* includer, size_t depth) override {
    if (IncludeResult* result = Ask(requested, includer, depth, false)) return result;
    return DirectoryIncluder::includeLocal(requested, includer, depth);
  }
  // glslang calls this for <name>, and again after every "name" nothing resolved: a
  // refusal of that "name" (depth, unreadable file) is replayed, not asked again.
  IncludeResult* includeSystem(const char* requested, const char* includer, size_t depth) override {
    if (IncludeResult* refusal = DirectoryIncluder::includeSystem(requested, includer, depth))
      return refusal;
    return Ask(requested, includer, depth, true);
  }

 private:
  IncludeResult* Ask(const char* requested, const char* includer, size_t depth, bool system);

  const glint_input_s& input_;
  std::vector<std::string> chain_;  // the including files, outermost first
};

glslang::TShader::Includer::IncludeResult* CallbackIncluder::Ask(const char* requested,
                                                                 const char* includer, size_t depth,
                                                                 bool system) {
  chain_.resize(depth - 1);
  chain_.push_back(includer ? includer : "");
  if (depth > kMaxIncludeDepth) {  // a cycle: refused before the callback is asked
    std::vector<std::string> chain = chain_;
    chain.push_back(requested);
    return Refuse(requested, DepthLimitMessage(chain));
  }
  if (!input_.callback) return nullptr;
  glint_include_s answer;
  answer.limit = budget_.NextLimit();
  bool supplied = input_.callback(input_.user_data, requested, includer ? includer : "", depth,
                                  system ? 1 : 0, &answer);
  if (answer.too_large)
    return Refuse(requested, "the content supplied for '" + answer.name + "' is " +
                                 frontend::TooLargeMessage(answer.limit, budget_.NextLimitName()));
  if (!supplied || !answer.supplied) return nullptr;
  budget_.Take(answer.content.size());
  auto* text = new std::string(std::move(answer.content));
  return new IncludeResult(answer.name, text->data(), text->size(), text);
}

// glslang's client and SPIR-V version for a Glint target, as -V/-G and --target-env
// set them (the SPIR-V version follows the Vulkan version unless the input names one).
bool SetTarget(const glint_input_s& input, TargetEnv target, GlslangSettings& settings) {
  using glslang::EShTargetLanguageVersion;
  struct Row {
    TargetEnv target;
    glslang::EShClient client;
    glslang::EShTargetClientVersion version;
    EShTargetLanguageVersion spirv;
  };
  static const Row kRows[] = {{TargetEnv::kOpenGL45, glslang::EShClientOpenGL,
                               glslang::EShTargetOpenGL_450, glslang::EShTargetSpv_1_0},
                              {TargetEnv::kVulkan10, glslang::EShClientVulkan,
                               glslang::EShTargetVulkan_1_0, glslang::EShTargetSpv_1_0},
                              {TargetEnv::kVulkan11, glslang::EShClientVulkan,
                               glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3},
                              {TargetEnv::kVulkan12, glslang::EShClientVulkan,
                               glslang::EShTargetVulkan_1_2, glslang::EShTargetSpv_1_5},
                              {TargetEnv::kVulkan13, glslang::EShClientVulkan,
                               glslang::EShTargetVulkan_1_3, glslang::EShTargetSpv_1_6}};
  // An input names no client of its own: "from the input" compiles for Vulkan 1.0.
  if (target == TargetEnv::kFromInput) target = TargetEnv::kVulkan10;
  for (const Row& row : kRows) {
    if (row.target != target) continue;
    settings.client = row.client;
    settings.client_version = row.version;
    settings.target_language = glslang::EShTargetSpv;
    settings.target_version = input.spirv_version ? input.spirv_version : row.spirv;
    return true;
  }
  return false;
}

// glslangValidator's message flags for -V/-G, HLSL input and -g.
EShMessages MessagesFor(const glint_input_s& input, const GlslangSettings& settings) {
  int messages = EShMsgSpvRules;
  if (settings.client == glslang::EShClientVulkan) messages |= EShMsgVulkanRules;
  if (input.hlsl) messages |= EShMsgReadHlsl;
  if (input.debug != GLINT_DEBUG_INFO_DEFAULT && input.debug != GLINT_DEBUG_INFO_STRIP)
    messages |= EShMsgDebugInfo;
  return static_cast<EShMessages>(messages);
}

// glslang's code generation options for -g / -g0 / -gV / -gVS and -Od (optimizer on
// unless -Od, as in glslangValidator: it legalizes HLSL).
glslang::SpvOptions SpvOptionsFor(const glint_input_s& input) {
  glslang::SpvOptions options;
  options.disableOptimizer = input.disable_optimizer;
  options.stripDebugInfo = input.debug == GLINT_DEBUG_INFO_STRIP;
  options.generateDebugInfo =
      input.debug != GLINT_DEBUG_INFO_DEFAULT && input.debug != GLINT_DEBUG_INFO_STRIP;
  options.emitNonSemanticShaderDebugInfo = input.debug == GLINT_DEBUG_INFO_NON_SEMANTIC ||
                                           input.debug == GLINT_DEBUG_INFO_NON_SEMANTIC_SOURCE;
  options.emitNonSemanticShaderDebugSource = input.debug == GLINT_DEBUG_INFO_NON_SEMANTIC_SOURCE;
  return options;
}

bool Refuse(Report& report, std::string message) {
  AddError(report, "glint", "glint_compile: " + std::move(message));
  return false;
}

// The front end's settings for `input`; false (with an error) when it cannot compile.
bool Configure(const glint_input_s& input, const Options& options, GlslangSettings& settings,
               Report& report) {
  if (!input.has_source) return Refuse(report, "no source text");
  uint64_t source_limit = std::min(input.limits.per_source, input.limits.total);
  if (input.source.size() > source_limit)
    return Refuse(report, "the source text is " +
                              frontend::TooLargeMessage(source_limit,
                                                        input.limits.per_source <= input.limits.total
                                                            ? frontend::kSourceLimitName
                                                            : frontend::kTotalSourceLimitName));
  settings.source_limits = input.limits;
  if (!input.has_stage) return Refuse(report, "no stage");
  if (!SetTarget(input, options.target_env, settings))
    return Refuse(report, "the target environment must be OpenGL 4.5 or Vulkan 1.0-1.3");
  if (input.hlsl && settings.client == glslang::EShClientOpenGL)
    return Refuse(report, "Using HLSL input under OpenGL semantics is not currently supported.");
  settings.hlsl = input.hlsl;
  settings.set_environment = settings.map_io = true;
  settings.messages = MessagesFor(input, settings);
  settings.debug_info = input.debug == GLINT_DEBUG_INFO_NON_SEMANTIC ||
                        input.debug == GLINT_DEBUG_INFO_NON_SEMANTIC_SOURCE;
  settings.entry_point = input.entry_point;
  settings.source_entry_point = input.source_entry_point;
  settings.preamble = input.preamble;
  settings.processes = input.processes;
  settings.include_directories = input.include_directories;
  settings.resources = input.has_resource_limits ? input.resources : *GetDefaultResources();
  for (int r = 0; r < glslang::EResCount; ++r) {
    settings.base_binding[r][input.stage] = input.binding_shift[r];
    settings.base_binding_for_set[r][input.stage] = input.binding_shift_for_set[r];
  }
  settings.auto_map_bindings = input.auto_map_bindings;
  settings.auto_map_locations = input.auto_map_locations;
  return true;
}

// glslang's code generation log (one message a line) back into diagnostics, first.
void PrependGlslangLog(const std::string& log, Report& report) {
  std::vector<Diagnostic> diagnostics;
  frontend::AppendGlslangLog(log, &diagnostics);
  for (Diagnostic& d : report.diagnostics) diagnostics.push_back(std::move(d));
  report.diagnostics.swap(diagnostics);
}

}  // namespace

std::unique_ptr<frontend::DirectoryIncluder> MakeIncluder(const glint_input_s& input) {
  return std::make_unique<CallbackIncluder>(input);
}

bool CompileWith(const glint_input_s* input, const Options& options,
                 frontend::DirectoryIncluder* includer, glint_result_s& result) {
  Report& report = result.report.report;
  if (!input) return Refuse(report, "no input");
  GlslangSettings settings;
  if (!Configure(*input, options, settings, report)) return false;
  InitializeGlslangOnce();
  std::unique_ptr<frontend::DirectoryIncluder> own = includer ? nullptr : MakeIncluder(*input);
  settings.includer = includer ? includer : own.get();
  std::vector<frontend::SourceUnit> units = {{input->file_name, input->source, input->stage}};
  std::unique_ptr<frontend::Compilation> compiled = frontend::Compile(units, settings, false);
  ReportInfoLog(compiled->units.front().info_log.c_str(), report);
  ReportInfoLog(compiled->program_info_log.c_str(), report);
  glslang::TIntermediate* intermediate = compiled->Intermediate(input->stage);
  if (compiled->compile_failed || compiled->link_failed || !intermediate) {
    if (!report.HasErrors()) AddError(report, "glslang", "glslang failed without a message");
    return false;
  }
  frontend::GlintOutput output =
      frontend::GenerateWithGlint(*intermediate, SpvOptionsFor(*input), options, input->file_name);
  report.diagnostics.insert(report.diagnostics.end(), output.report.diagnostics.begin(),
                            output.report.diagnostics.end());
  report.accesses = std::move(output.report.accesses);
  report.passes = std::move(output.report.passes);
  report.tables = std::move(output.report.tables);
  report.suppressed = std::move(output.report.suppressed);
  PrependGlslangLog(output.glslang_log, report);
  result.spirv = std::move(output.words);
  return output.ok && !report.HasErrors();
}

namespace {

bool ToStage(int value, EShLanguage* stage) {
  static const EShLanguage kStages[] = {
      EShLangVertex,  EShLangTessControl, EShLangTessEvaluation, EShLangGeometry, EShLangFragment,
      EShLangCompute, EShLangTask,        EShLangMesh,           EShLangRayGen,   EShLangIntersect,
      EShLangAnyHit,  EShLangClosestHit,  EShLangMiss,           EShLangCallable};
  if (value < 0 || value >= static_cast<int>(std::size(kStages))) return false;
  *stage = kStages[value];
  return true;
}

// Runs a setter body that may allocate; false (changing nothing) on failure.
template <typename Body>
int Guarded(glint_input_t* input, Body body) noexcept {
  if (!input) return 0;
  try {
    return body(*input) ? 1 : 0;
  } catch (...) {
    return 0;
  }
}

// -DNAME[=VALUE] / -UNAME as glslangValidator records them (text after a newline is
// dropped, as its option parsing does).
void AddMacro(glint_input_s& input, const char* kind, std::string text, bool define) {
  text = text.substr(0, text.find('\n'));
  input.processes.push_back(std::string(kind) + " " + text);
  size_t equal = text.find('=');
  if (define && equal != std::string::npos) text[equal] = ' ';
  input.preamble += std::string(define ? "#define " : "#undef ") + text + "\n";
}

// A .conf text glslang's DecodeResourceLimits reads without complaint: pairs of a name
// and a value starting with '-' or a digit, separated by spaces, tabs and line ends.
// (glslang reports any other text with a printf on stdout and stops reading.)
bool WellFormedConf(const std::string& text) {
  std::istringstream tokens(text);
  std::string name, value;
  while (tokens >> name) {
    if (!(tokens >> value)) return false;
    if (value[0] != '-' && !std::isdigit(static_cast<unsigned char>(value[0]))) return false;
  }
  return true;
}

bool ToResource(int value, int* resource) {
  if (value < GLINT_RESOURCE_SAMPLER || value > GLINT_RESOURCE_UAV) return false;
  static_assert(int{GLINT_RESOURCE_SAMPLER} == int{glslang::EResSampler} &&
                int{GLINT_RESOURCE_TEXTURE} == int{glslang::EResTexture} &&
                int{GLINT_RESOURCE_IMAGE} == int{glslang::EResImage} &&
                int{GLINT_RESOURCE_UBO} == int{glslang::EResUbo} &&
                int{GLINT_RESOURCE_SSBO} == int{glslang::EResSsbo} &&
                int{GLINT_RESOURCE_UAV} == int{glslang::EResUav});
  *resource = value;
  return true;
}

}  // namespace
}  // namespace glint::capi

using glint::capi::Guarded;

extern "C" {

glint_input_t* glint_input_create(void) { return new (std::nothrow) glint_input_s; }

void glint_input_free(glint_input_t* input) { delete input; }

int glint_input_set_source(glint_input_t* input, const char* text) {
  return Guarded(input, [&](glint_input_s& in) {
    if (!text) return false;
    in.source = text;
    return in.has_source = true;
  });
}

int glint_input_set_file_name(glint_input_t* input, const char* name) {
  return Guarded(input, [&](glint_input_s& in) {
    in.file_name = name ? name : "";
    return true;
  });
}

int glint_input_set_language(glint_input_t* input, int language) {
  return Guarded(input, [&](glint_input_s& in) {
    if (language != GLINT_LANGUAGE_GLSL && language != GLINT_LANGUAGE_HLSL) return false;
    in.hlsl = language == GLINT_LANGUAGE_HLSL;
    return true;
  });
}

int glint_input_set_stage(glint_input_t* input, int stage) {
  return Guarded(input, [&](glint_input_s& in) {
    return glint::capi::ToStage(stage, &in.stage) && (in.has_stage = true);
  });
}

int glint_input_set_entry_point(glint_input_t* input, const char* name) {
  return Guarded(input, [&](glint_input_s& in) {
    in.entry_point = name ? name : "";
    return true;
  });
}

int glint_input_set_source_entry_point(glint_input_t* input, const char* name) {
  return Guarded(input, [&](glint_input_s& in) {
    in.source_entry_point = name ? name : "";
    return true;
  });
}

int glint_input_add_define(glint_input_t* input, const char* name, const char* value) {
  return Guarded(input, [&](glint_input_s& in) {
    if (!name || !*name) return false;
    std::string text = name;
    if (value) text += std::string("=") + value;
    glint::capi::AddMacro(in, "define-macro", text, true);
    return true;
  });
}

int glint_input_add_undefine(glint_input_t* input, const char* name) {
  return Guarded(input, [&](glint_input_s& in) {
    if (!name || !*name) return false;
    glint::capi::AddMacro(in, "undef-macro", name, false);
    return true;
  });
}

int glint_input_add_include_directory(glint_input_t* input, const char* directory) {
  return Guarded(input, [&](glint_input_s& in) {
    if (!directory) return false;
    in.include_directories.push_back(directory);
    return true;
  });
}

int glint_input_set_debug_info(glint_input_t* input, int debug) {
  return Guarded(input, [&](glint_input_s& in) {
    if (debug < GLINT_DEBUG_INFO_DEFAULT || debug > GLINT_DEBUG_INFO_NON_SEMANTIC_SOURCE)
      return false;
    in.debug = debug;
    return true;
  });
}

int glint_input_set_spirv_version(glint_input_t* input, uint32_t version) {
  return Guarded(input, [&](glint_input_s& in) {
    bool known = version == 0 || ((version & 0xff0000ffu) == 0 && (version >> 16) == 1 &&
                                  ((version >> 8) & 0xff) <= 6);
    if (!known) return false;
    in.spirv_version = static_cast<glslang::EShTargetLanguageVersion>(version);
    return true;
  });
}

int glint_input_set_source_limits(glint_input_t* input, uint64_t max_source_bytes,
                                  uint64_t max_total_bytes) {
  return Guarded(input, [&](glint_input_s& in) {
    if (max_source_bytes == 0 || max_total_bytes == 0) return false;
    in.limits = {max_source_bytes, max_total_bytes};
    return true;
  });
}

int glint_input_set_disable_optimizer(glint_input_t* input, int disabled) {
  return Guarded(input,
                 [&](glint_input_s& in) { return (in.disable_optimizer = disabled != 0), true; });
}

int glint_input_set_resource_limits(glint_input_t* input, const char* conf_text) {
  return Guarded(input, [&](glint_input_s& in) {
    if (!conf_text) return !(in.has_resource_limits = false);
    std::string text = conf_text;
    if (!glint::capi::WellFormedConf(text)) return false;
    // As glslangValidator -C decodes a .conf into a zeroed TBuiltInResource, so the
    // same text gives the same module through the library and the command line.
    TBuiltInResource resources{};
    DecodeResourceLimits(&resources, text.data());
    in.resources = resources;
    return in.has_resource_limits = true;
  });
}

int glint_input_set_binding_shift(glint_input_t* input, int resource, uint32_t base) {
  return Guarded(input, [&](glint_input_s& in) {
    int kind = 0;
    if (!glint::capi::ToResource(resource, &kind)) return false;
    in.binding_shift[kind] = base;
    return true;
  });
}

int glint_input_set_binding_shift_for_set(glint_input_t* input, int resource, uint32_t set,
                                          uint32_t base) {
  return Guarded(input, [&](glint_input_s& in) {
    int kind = 0;
    if (!glint::capi::ToResource(resource, &kind)) return false;
    in.binding_shift_for_set[kind][set] = base;
    return true;
  });
}

int glint_input_set_auto_map_bindings(glint_input_t* input, int enabled) {
  return Guarded(input,
                 [&](glint_input_s& in) { return (in.auto_map_bindings = enabled != 0), true; });
}

int glint_input_set_auto_map_locations(glint_input_t* input, int enabled) {
  return Guarded(input,
                 [&](glint_input_s& in) { return (in.auto_map_locations = enabled != 0), true; });
}

int glint_include_set_content(glint_include_t* include, const char* resolved_name,
                              const char* content, size_t length) {
  if (!include || !resolved_name || !*resolved_name || (!content && length)) return 0;
  try {
    include->name = resolved_name;
    if (length > include->limit) {  // refused before a byte of `content` is read
      include->too_large = true;
      return 0;
    }
    include->content.assign(content ? content : "", length);
    include->supplied = true;
  } catch (...) {
    return 0;
  }
  return 1;
}

int glint_input_set_include_callback(glint_input_t* input, glint_include_callback_t callback,
                                     void* user_data) {
  if (!input) return 0;
  input->callback = callback;
  input->user_data = callback ? user_data : nullptr;
  return 1;
}

glint_result_t* glint_compile(const glint_input_t* input, const glint_options_t* options) {
  return glint::capi::RunGuarded([&](glint_result_s& result) {
    // glslang recurses per nesting level: parse, link and generate on a big stack.
    return glint::OnBigStack([&] {
      return glint::capi::CompileWith(input, glint::capi::OptionsOrDefaults(options), nullptr,
                                      result);
    });
  });
}

const char* glint_version(void) { return GLINT_VERSION_STRING; }

}  // extern "C"
