#include "test_support.h"

#include <gtest/gtest.h>

#include <fstream>
#include <mutex>
#include <sstream>

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>
#include <spirv-tools/libspirv.hpp>

#include "SPIRV/validate.h"

namespace glint::test {

std::string SourceRoot() { return GLINT_SOURCE_ROOT; }
std::string SharedRoot() { return SourceRoot() + "/../shared"; }
std::string BinaryDir() { return GLINT_BINARY_DIR; }

namespace {

EShLanguage StageOf(const std::string& stage) {
  static const std::pair<const char*, EShLanguage> kStages[] = {
      {"vert", EShLangVertex},        {"tesc", EShLangTessControl},  {"tese", EShLangTessEvaluation},
      {"geom", EShLangGeometry},      {"frag", EShLangFragment},     {"comp", EShLangCompute},
      {"rgen", EShLangRayGen},        {"rint", EShLangIntersect},    {"rahit", EShLangAnyHit},
      {"rchit", EShLangClosestHit},   {"rmiss", EShLangMiss},        {"rcall", EShLangCallable},
      {"mesh", EShLangMesh},          {"task", EShLangTask}};
  for (const auto& [name, language] : kStages)
    if (stage == name) return language;
  ADD_FAILURE() << "unknown stage " << stage;
  return EShLangVertex;
}

void InitializeOnce() {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

}  // namespace

std::vector<uint32_t> CompileGlsl(const std::string& source, const std::string& stage,
                                  const std::string& env, bool hlsl) {
  InitializeOnce();
  EShLanguage language = StageOf(stage);
  glslang::TShader shader(language);
  const char* text = source.c_str();
  shader.setStrings(&text, 1);
  shader.setEntryPoint("main");
  glslang::EShSource input = hlsl ? glslang::EShSourceHlsl : glslang::EShSourceGlsl;
  glslang::EShClient client = glslang::EShClientVulkan;
  glslang::EShTargetClientVersion client_version = glslang::EShTargetVulkan_1_0;
  glslang::EShTargetLanguageVersion spirv_version = glslang::EShTargetSpv_1_0;
  if (env == "opengl") {
    client = glslang::EShClientOpenGL;
    client_version = glslang::EShTargetOpenGL_450;
  } else if (env == "vulkan1.1") {
    client_version = glslang::EShTargetVulkan_1_1;
    spirv_version = glslang::EShTargetSpv_1_3;
  } else if (env == "vulkan1.2") {
    client_version = glslang::EShTargetVulkan_1_2;
    spirv_version = glslang::EShTargetSpv_1_5;
  } else if (env == "vulkan1.3") {
    client_version = glslang::EShTargetVulkan_1_3;
    spirv_version = glslang::EShTargetSpv_1_6;
  } else if (env == "spirv1.4") {
    client_version = glslang::EShTargetVulkan_1_1;
    spirv_version = glslang::EShTargetSpv_1_4;
  } else if (env != "vulkan1.0") {
    ADD_FAILURE() << "unknown env " << env;
  }
  shader.setEnvInput(input, language, client, 100);
  shader.setEnvClient(client, client_version);
  shader.setEnvTarget(glslang::EShTargetSpv, spirv_version);
  EShMessages messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  if (client == glslang::EShClientOpenGL) messages = EShMsgSpvRules;
  if (hlsl) messages = static_cast<EShMessages>(messages | EShMsgReadHlsl);
  if (!shader.parse(GetDefaultResources(), 100, false, messages)) {
    ADD_FAILURE() << "glslang failed to compile:\n" << shader.getInfoLog() << source;
    return {};
  }
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages)) {
    ADD_FAILURE() << "glslang failed to link:\n" << program.getInfoLog();
    return {};
  }
  std::vector<uint32_t> words;
  glslang::SpvOptions options;
  glslang::GlslangToSpv(*program.getIntermediate(language), words, &options);
  return words;
}

std::vector<uint32_t> Assemble(const std::string& text) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string error;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& position,
                               const char* message) {
    error += std::to_string(position.line) + ": " + message + "\n";
  });
  std::vector<uint32_t> words;
  if (!tools.Assemble(text, &words, SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS))
    ADD_FAILURE() << "spirv-as failed: " << error << text;
  return words;
}

std::string Disassemble(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string text;
  if (!tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES))
    ADD_FAILURE() << "spirv-dis failed";
  return text;
}

std::string ValidateFor(const std::vector<uint32_t>& words, TargetEnv env) {
  return spirv::Validate(words, env);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<CorpusShader> ReadCorpusManifests() {
  std::vector<CorpusShader> shaders;
  for (const char* folder : {"glslang", "SaschaWillems-Vulkan", "niagara", "dxvk"}) {
    const std::string root = SharedRoot() + "/corpus/" + folder + "/";
    std::istringstream manifest(ReadFile(root + "OK_manifest.tsv"));
    for (std::string row; std::getline(manifest, row);) {
      if (row.empty() || row[0] == '#') continue;
      std::istringstream fields(row);
      CorpusShader shader;
      std::string path, validity;
      std::getline(fields, path, '\t');
      std::getline(fields, shader.stage, '\t');
      std::getline(fields, shader.manifest_env, '\t');
      std::getline(fields, validity, '\t');
      shader.folder = folder;
      shader.path = root + path;
      shader.glslang_valid = validity == "valOK";
      shaders.push_back(shader);
    }
  }
  return shaders;
}

}  // namespace glint::test
