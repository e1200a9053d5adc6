#include "glslang/front_end/compile_driver.h"

#include <utility>

#include <glslang/Public/ResourceLimits.h>

#include "glslang/front_end/glslang_process.h"

namespace glint::frontend {
namespace {

const std::pair<const char*, EShLanguage> kStages[] = {
    {"vert", EShLangVertex},      {"tesc", EShLangTessControl}, {"tese", EShLangTessEvaluation},
    {"geom", EShLangGeometry},    {"frag", EShLangFragment},    {"comp", EShLangCompute},
    {"rgen", EShLangRayGen},      {"rint", EShLangIntersect},   {"rahit", EShLangAnyHit},
    {"rchit", EShLangClosestHit}, {"rmiss", EShLangMiss},       {"rcall", EShLangCallable},
    {"mesh", EShLangMesh},        {"task", EShLangTask}};

struct Environment {
  const char* name;
  glslang::EShClient client;
  glslang::EShTargetClientVersion client_version;
  glslang::EShTargetLanguageVersion spirv;
};

const Environment kEnvironments[] = {
    {"vulkan1.0", glslang::EShClientVulkan, glslang::EShTargetVulkan_1_0,
     glslang::EShTargetSpv_1_0},
    {"vulkan1.1", glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1,
     glslang::EShTargetSpv_1_3},
    {"spirv1.4", glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_4},
    {"vulkan1.2", glslang::EShClientVulkan, glslang::EShTargetVulkan_1_2,
     glslang::EShTargetSpv_1_5},
    {"vulkan1.3", glslang::EShClientVulkan, glslang::EShTargetVulkan_1_3,
     glslang::EShTargetSpv_1_6},
    {"opengl", glslang::EShClientOpenGL, glslang::EShTargetOpenGL_450, glslang::EShTargetSpv_1_0}};

}  // namespace

std::optional<EShLanguage> StageFromName(const std::string& name) {
  for (const auto& [stage_name, stage] : kStages)
    if (name == stage_name) return stage;
  return std::nullopt;
}

const char* StageName(EShLanguage stage) {
  for (const auto& [stage_name, language] : kStages)
    if (language == stage) return stage_name;
  return "unknown";
}

bool SetTargetEnvironment(const std::string& env, GlslangSettings* settings) {
  for (const Environment& known : kEnvironments) {
    if (env != known.name) continue;
    settings->set_environment = true;
    settings->client = known.client;
    settings->client_version = known.client_version;
    settings->target_language = glslang::EShTargetSpv;
    settings->target_version = known.spirv;
    int vulkan = known.client == glslang::EShClientVulkan ? static_cast<int>(EShMsgVulkanRules) : 0;
    int rules = EShMsgSpvRules | vulkan;
    settings->messages = static_cast<EShMessages>(settings->messages | rules);
    return true;
  }
  return false;
}

std::unique_ptr<Compilation> CompileSource(const SourceCompile& request, std::string* error) {
  std::optional<EShLanguage> stage = StageFromName(request.stage);
  GlslangSettings settings;
  if (!stage || !SetTargetEnvironment(request.env, &settings)) {
    *error = "unknown stage '" + request.stage + "' or target environment '" + request.env + "'";
    return nullptr;
  }
  AcquireGlslangProcess();  // never released here: other callers may be compiling
  settings.hlsl = request.hlsl;
  if (request.hlsl)
    settings.messages = static_cast<EShMessages>(settings.messages | EShMsgReadHlsl);
  if (request.debug_info)
    settings.messages = static_cast<EShMessages>(settings.messages | EShMsgDebugInfo);
  settings.entry_point = "main";
  settings.resources = *GetDefaultResources();
  std::unique_ptr<Compilation> compilation =
      Compile({SourceUnit{request.name, request.source, *stage}}, settings, false);
  if (!compilation->compile_failed && !compilation->link_failed) return compilation;
  *error = "glslang failed to " + std::string(compilation->compile_failed ? "compile" : "link") +
           ":\n" + compilation->units[0].info_log + compilation->program_info_log;
  return nullptr;
}

bool CompileSourceToSpirv(const SourceCompile& request, std::vector<uint32_t>* words,
                          std::string* error) {
  std::unique_ptr<Compilation> compilation = CompileSource(request, error);
  if (!compilation) return false;
  glslang::SpvOptions options;
  options.generateDebugInfo = request.debug_info;
  std::string messages;
  *words =
      GenerateSpirv(*compilation->Intermediate(*StageFromName(request.stage)), options, &messages);
  if (!words->empty()) return true;
  *error = "glslang generated no SPIR-V: " + messages;
  return false;
}

}  // namespace glint::frontend
