// Debian's libglslang and libSPIRV are built with HLSL and SPIRV-Tools support; these
// make the matching declarations visible (TShader's HLSL setters, SpvTools.h).
#ifndef ENABLE_HLSL
#define ENABLE_HLSL 1
#endif
#ifndef ENABLE_OPT
#define ENABLE_OPT 1
#endif
#include "glslang/front_end/front_end.h"

#include "glslang/front_end/source_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include <glslang/SPIRV/Logger.h>
#include <glslang/SPIRV/SpvTools.h>

#include "glslang/front_end/debug_scope_guard.h"

namespace glint::frontend {

ScopedGlslangProcess::ScopedGlslangProcess() { glslang::InitializeProcess(); }
ScopedGlslangProcess::~ScopedGlslangProcess() { glslang::FinalizeProcess(); }

// ---------------------------------------------------------------------------------
// Includer

namespace {

std::string DirectoryOf(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// glslang's failure result: no header name, the text is the reason it prints.
glslang::TShader::Includer::IncludeResult* Refusal(const std::string& why) {
  auto* text = new std::string(why);
  return new glslang::TShader::Includer::IncludeResult("", text->data(), text->size(), text);
}

// "a -> b -> c", the middle elided when long (a cycle shows in its last few links).
std::string Chain(const std::vector<std::string>& files) {
  const size_t kHead = 3, kTail = 6;
  std::string text;
  for (size_t i = 0; i < files.size(); ++i) {
    if (i == kHead && files.size() > kHead + kTail + 1) {
      text += " -> ... (" + std::to_string(files.size() - kHead - kTail) + " more)";
      i = files.size() - kTail - 1;
      continue;
    }
    text += (i ? " -> " : "") + files[i];
  }
  return text;
}

}  // namespace

DirectoryIncluder::DirectoryIncluder(std::vector<std::string> include_directories)
    : external_directories_(std::move(include_directories)) {}

glslang::TShader::Includer::IncludeResult* DirectoryIncluder::includeLocal(
    const char* header_name, const char* includer_name, size_t inclusion_depth) {
  // Directories and files deeper than this include are no longer on the stack. The
  // includer's own directory comes from its name: a file an embedder's include
  // callback supplied (see the C API) was never pushed here. Levels this includer never
  // saw stay empty and are skipped.
  nested_directories_.resize(inclusion_depth);
  nested_files_.resize(inclusion_depth);
  nested_directories_.back() = DirectoryOf(includer_name);
  nested_files_.back() = includer_name;
  if (inclusion_depth > kMaxIncludeDepth) {
    std::vector<std::string> chain;
    for (const std::string& file : nested_files_)
      if (!file.empty()) chain.push_back(file);
    chain.push_back(header_name);
    return Refuse(header_name, DepthLimitMessage(chain));
  }
  std::vector<std::string> search;
  for (auto d = nested_directories_.rbegin(); d != nested_directories_.rend(); ++d)
    if (!d->empty()) search.push_back(*d);
  search.insert(search.end(), external_directories_.begin(), external_directories_.end());
  for (const std::string& directory : search) {
    std::string path = directory + '/' + header_name;
    std::replace(path.begin(), path.end(), '\\', '/');
    struct stat status;
    if (stat(path.c_str(), &status) != 0) continue;  // not here: the next directory
    std::string content;
    std::string problem = ReadFileWithin(path, budget_.NextLimit(), FileKinds::kRegularOnly,
                                         budget_.NextLimitName(), &content);
    if (problem.empty()) budget_.Take(content.size());
    if (!problem.empty())
      return Refuse(header_name, "cannot read included file '" + path + "': " + problem);
    nested_directories_.push_back(DirectoryOf(path));
    nested_files_.push_back(path);
    included_files_.insert(path);
    auto* text = new std::string(std::move(content));
    return new IncludeResult(path, text->data(), text->size(), text);
  }
  return nullptr;
}

std::string DirectoryIncluder::DepthLimitMessage(const std::vector<std::string>& chain) {
  return "#include nested more than " + std::to_string(kMaxIncludeDepth) +
         " files deep (the include depth limit; an #include cycle?): " + Chain(chain);
}

glslang::TShader::Includer::IncludeResult* DirectoryIncluder::Refuse(const char* header_name,
                                                                     std::string why) {
  refused_header_ = header_name;
  refusal_ = std::move(why);
  return Refusal(refusal_);
}

glslang::TShader::Includer::IncludeResult* DirectoryIncluder::includeSystem(const char* header_name,
                                                                            const char*, size_t) {
  if (refusal_.empty() || refused_header_ != header_name) return nullptr;
  IncludeResult* result = Refusal(refusal_);
  refusal_.clear();
  return result;
}

void DirectoryIncluder::releaseInclude(IncludeResult* result) {
  if (!result) return;
  delete static_cast<std::string*>(result->userData);
  delete result;
}

// ---------------------------------------------------------------------------------
// Compile and link

Compilation::~Compilation() {
  program_.reset();  // the program refers to the shaders' intermediates
  shaders_.clear();
}

glslang::TIntermediate* Compilation::Intermediate(EShLanguage stage) {
  return program_ ? program_->getIntermediate(stage) : nullptr;
}

namespace {

void ApplyBindings(glslang::TShader& shader, const GlslangSettings& settings, EShLanguage stage) {
  for (int r = 0; r < glslang::EResCount; ++r) {
    auto resource = static_cast<glslang::TResourceType>(r);
    shader.setShiftBinding(resource, settings.base_binding[r][stage]);
    for (const auto& [set, base] : settings.base_binding_for_set[r][stage])
      shader.setShiftBindingForSet(resource, base, set);
  }
  shader.setNoStorageFormat(settings.no_storage_format);
  shader.setResourceSetBinding(settings.resource_set_binding[stage]);
  if (settings.auto_sampled_textures)
    shader.setTextureSamplerTransformMode(EShTexSampTransUpgradeTextureRemoveSampler);
  if (settings.auto_map_bindings) shader.setAutoMapBindings(true);
  if (settings.auto_map_locations) shader.setAutoMapLocations(true);
  for (const auto& [name, location] : settings.uniform_location_overrides)
    shader.addUniformLocationOverride(name.c_str(), location);
  shader.setUniformLocationBase(settings.uniform_base);
}

void ApplyRelaxedRuleBlocks(glslang::TShader& shader, const GlslangSettings& settings) {
  if (!settings.vulkan_rules_relaxed) return;
  for (const auto& [block, storage] : settings.block_storage_overrides)
    shader.addBlockStorageOverride(block.c_str(), storage);
  const GlobalBlock& atomics = settings.atomic_counter_block;
  if (atomics.given) {
    shader.setAtomicCounterBlockName(atomics.name.c_str());
    shader.setAtomicCounterBlockSet(atomics.set);
  }
  const GlobalBlock& uniforms = settings.default_uniform_block;
  if (uniforms.given) {
    shader.setGlobalUniformBlockName(uniforms.name.c_str());
    shader.setGlobalUniformSet(uniforms.set);
    shader.setGlobalUniformBinding(uniforms.binding);
  }
}

void ApplyEnvironment(glslang::TShader& shader, const GlslangSettings& settings,
                      EShLanguage stage) {
  shader.setNanMinMaxClamp(settings.nan_clamp);
  shader.setFlattenUniformArrays(settings.flatten_uniform_arrays);
  if (settings.hlsl_io_mapping) shader.setHlslIoMapping(true);
  if (settings.invert_y) shader.setInvertY(true);
  if (settings.dx_position_w) shader.setDxPositionW(true);
  if (settings.enhanced_messages) shader.setEnhancedMsgs();
  if (settings.debug_info) shader.setDebugInfo(true);
  if (!settings.set_environment) return;
  shader.setEnvInput(settings.hlsl ? glslang::EShSourceHlsl : glslang::EShSourceGlsl, stage,
                     settings.client, settings.client_input_semantics_version);
  shader.setEnvClient(settings.client, settings.client_version);
  shader.setEnvTarget(settings.target_language, settings.target_version);
  if (settings.hlsl_functionality1) shader.setEnvTargetHlslFunctionality1();
  if (settings.vulkan_rules_relaxed) shader.setEnvInputVulkanRulesRelaxed();
}

// TShader keeps the pointers it is given (not copies): they must outlive parsing.
struct ShaderStrings {
  const char* text;
  int length;
  const char* name;
};

std::unique_ptr<glslang::TShader> MakeShader(const SourceUnit& unit,
                                             const GlslangSettings& settings,
                                             ShaderStrings& strings) {
  auto shader = std::make_unique<glslang::TShader>(unit.stage);
  strings = {unit.text.c_str(), static_cast<int>(unit.text.size()), unit.name.c_str()};
  // An unnamed source (a string in memory) reads "0:<line>" in messages, as glslang's own.
  if (unit.name.empty())
    shader->setStringsWithLengths(&strings.text, &strings.length, 1);
  else
    shader->setStringsWithLengthsAndNames(&strings.text, &strings.length, &strings.name, 1);
  if (!settings.entry_point.empty()) shader->setEntryPoint(settings.entry_point.c_str());
  if (!settings.source_entry_point.empty())
    shader->setSourceEntryPoint(settings.source_entry_point.c_str());
  shader->setOverrideVersion(settings.override_version);
  shader->setPreamble(settings.preamble.c_str());
  shader->addProcesses(settings.processes);
  ApplyBindings(*shader, settings, unit.stage);
  ApplyRelaxedRuleBlocks(*shader, settings);
  ApplyEnvironment(*shader, settings, unit.stage);
  return shader;
}

}  // namespace

std::unique_ptr<Compilation> Compile(const std::vector<SourceUnit>& units,
                                     const GlslangSettings& settings, bool preprocess_only) {
  auto result = std::make_unique<Compilation>();
  result->program_ = std::make_unique<glslang::TProgram>();
  DirectoryIncluder own_includer(settings.include_directories);
  DirectoryIncluder& includer = settings.includer ? *settings.includer : own_includer;
  SourceBudget budget(settings.source_limits);
  for (const SourceUnit& unit : units) budget.Take(unit.text.size());  // read by the caller
  includer.SetSourceBudget(budget);
  std::vector<ShaderStrings> strings(units.size());
  for (size_t u = 0; u < units.size(); ++u) {
    const SourceUnit& unit = units[u];
    std::unique_ptr<glslang::TShader> shader = MakeShader(unit, settings, strings[u]);
    bool ok;
    if (preprocess_only) {
      std::string text;
      ok = shader->preprocess(&settings.resources, settings.default_version, ENoProfile, false,
                              false, settings.messages, &text, includer);
      result->preprocessed.push_back(ok ? text : std::string());
    } else {
      ok = shader->parse(&settings.resources, settings.default_version, false, settings.messages,
                         includer);
      result->program_->addShader(shader.get());
    }
    result->compile_failed |= !ok;
    result->units.push_back({unit.name, shader->getInfoLog(), shader->getInfoDebugLog()});
    result->shaders_.push_back(std::move(shader));
  }
  if (!preprocess_only) {
    result->link_failed = !result->program_->link(settings.messages);
    if (settings.map_io && !result->program_->mapIO()) result->link_failed = true;
    result->program_info_log = result->program_->getInfoLog();
    result->program_debug_log = result->program_->getInfoDebugLog();
  }
  const std::set<std::string>& included = includer.included_files();
  result->included_files.assign(included.begin(), included.end());
  return result;
}

// ---------------------------------------------------------------------------------
// Code generation and SPIRV-Tools, as glslangValidator runs them

std::vector<uint32_t> GenerateSpirv(const glslang::TIntermediate& intermediate,
                                    const glslang::SpvOptions& spv_options, std::string* messages) {
  glslang::SpvOptions options = spv_options;
  options.validate = false;
  options.disassemble = false;
  std::vector<unsigned int> words;
  spv::SpvBuildLogger logger;
  GuardedGlslangToSpv(intermediate, words, &logger, &options);
  if (messages) *messages += logger.getAllMessages();
  return std::vector<uint32_t>(words.begin(), words.end());
}

void ValidateLikeGlslang(const glslang::TIntermediate& intermediate,
                         const glslang::SpvOptions& spv_options, std::vector<uint32_t>& spirv,
                         std::string* messages) {
  // glslang validates HLSL before legalization only when the optimizer did not run.
  bool prelegalization =
      intermediate.getSource() == glslang::EShSourceHlsl && spv_options.disableOptimizer;
  std::vector<unsigned int> words(spirv.begin(), spirv.end());
  spv::SpvBuildLogger logger;
  glslang::SpirvToolsValidate(intermediate, words, &logger, prelegalization);
  if (messages) *messages += logger.getAllMessages();
}

std::string DisassembleLikeGlslang(const std::vector<uint32_t>& spirv) {
  std::ostringstream text;
  glslang::SpirvToolsDisassemble(text, std::vector<unsigned int>(spirv.begin(), spirv.end()));
  return text.str();
}

TargetEnv GlintTargetEnv(const GlslangSettings& settings) {
  if (settings.client == glslang::EShClientOpenGL) return TargetEnv::kOpenGL45;
  if (settings.client != glslang::EShClientVulkan) return TargetEnv::kUniversal;
  switch (settings.client_version) {
    case glslang::EShTargetVulkan_1_1:
      return TargetEnv::kVulkan11;
    case glslang::EShTargetVulkan_1_2:
      return TargetEnv::kVulkan12;
    case glslang::EShTargetVulkan_1_3:
      return TargetEnv::kVulkan13;
    default:
      return TargetEnv::kVulkan10;
  }
}

// ---------------------------------------------------------------------------------
// Glint

namespace {

void NameUnnamedFiles(const std::string& source_name, Report* report) {
  auto fill = [&](SourceLocation& location) {
    if (location.file.empty() && location.line != 0) location.file = source_name;
  };
  for (Diagnostic& diagnostic : report->diagnostics) fill(diagnostic.location);
  for (AccessRecord& access : report->accesses) fill(access.location);
}

// glint::GlslangToSpv reports glslang's log one line per diagnostic of origin
// "glslang"; they go back to being the log glslangValidator prints.
void SeparateGlslangLog(GlintOutput& output) {
  std::vector<Diagnostic> glint_diagnostics;
  for (Diagnostic& diagnostic : output.report.diagnostics) {
    if (diagnostic.origin == "glslang")
      output.glslang_log += diagnostic.message + "\n";
    else
      glint_diagnostics.push_back(std::move(diagnostic));
  }
  output.report.diagnostics.swap(glint_diagnostics);
}

}  // namespace

GlintOutput GenerateWithGlint(const glslang::TIntermediate& intermediate,
                              const glslang::SpvOptions& spv_options, const Options& options,
                              const std::string& source_name) {
  glslang::SpvOptions generate = spv_options;
  generate.validate = false;
  generate.disassemble = false;
  GlintOutput output;
  output.ok = GlslangToSpv(intermediate, output.words, &generate, options, &output.report);
  SeparateGlslangLog(output);
  NameUnnamedFiles(source_name, &output.report);
  return output;
}

}  // namespace glint::frontend
