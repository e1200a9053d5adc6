#include "glsl_compile.h"

#include <mutex>

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

namespace glint::vk {

namespace {

struct Environment {
  glslang::EShClient client = glslang::EShClientVulkan;
  glslang::EShTargetClientVersion client_version = glslang::EShTargetVulkan_1_0;
  glslang::EShTargetLanguageVersion spirv = glslang::EShTargetSpv_1_0;
};

bool ParseEnvironment(const std::string& env, Environment* out) {
  if (env == "vulkan1.0") return true;
  if (env == "vulkan1.1") *out = {glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3};
  else if (env == "spirv1.4") *out = {glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_4};
  else if (env == "vulkan1.2") *out = {glslang::EShClientVulkan, glslang::EShTargetVulkan_1_2, glslang::EShTargetSpv_1_5};
  else if (env == "vulkan1.3") *out = {glslang::EShClientVulkan, glslang::EShTargetVulkan_1_3, glslang::EShTargetSpv_1_6};
  else if (env == "opengl") *out = {glslang::EShClientOpenGL, glslang::EShTargetOpenGL_450, glslang::EShTargetSpv_1_0};
  else return false;
  return true;
}

bool ParseStage(const std::string& stage, EShLanguage* out) {
  if (stage == "comp") *out = EShLangCompute;
  else if (stage == "frag") *out = EShLangFragment;
  else if (stage == "vert") *out = EShLangVertex;
  else return false;
  return true;
}

}  // namespace

bool CompileGlsl(const std::string& source, const std::string& stage, const std::string& env,
                 std::vector<uint32_t>* words, std::string* error) {
  static std::once_flag initialized;
  std::call_once(initialized, [] { glslang::InitializeProcess(); });
  EShLanguage language;
  Environment environment;
  if (!ParseStage(stage, &language) || !ParseEnvironment(env, &environment)) {
    *error = "unknown stage '" + stage + "' or target environment '" + env + "'";
    return false;
  }
  glslang::TShader shader(language);
  const char* text = source.c_str();
  shader.setStrings(&text, 1);
  shader.setEntryPoint("main");
  shader.setEnvInput(glslang::EShSourceGlsl, language, environment.client, 100);
  shader.setEnvClient(environment.client, environment.client_version);
  shader.setEnvTarget(glslang::EShTargetSpv, environment.spirv);
  EShMessages messages = environment.client == glslang::EShClientVulkan
                             ? static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules)
                             : EShMsgSpvRules;
  if (!shader.parse(GetDefaultResources(), 100, false, messages)) {
    *error = std::string("glslang: ") + shader.getInfoLog();
    return false;
  }
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages)) {
    *error = std::string("glslang link: ") + program.getInfoLog();
    return false;
  }
  glslang::SpvOptions options;
  words->clear();
  glslang::GlslangToSpv(*program.getIntermediate(language), *words, &options);
  return !words->empty();
}

}  // namespace glint::vk
