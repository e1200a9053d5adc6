// The engine's compile function (engine_compile.h). Everything here is plain glslang 12
// except the one marked line.
#include "engine_compile.h"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#ifndef ENGINE_CODEGEN
#error "ENGINE_CODEGEN is glslang or glint"
#endif
#include <glint/glint.h>  // the include the switch adds (unused by the glslang build)

namespace ENGINE_NAMESPACE {
namespace {

void Configure(glslang::TShader& shader, const ShaderRequest& request) {
  glslang::EShSource language = request.hlsl ? glslang::EShSourceHlsl : glslang::EShSourceGlsl;
  shader.setEnvInput(language, request.stage, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, request.vulkan);
  shader.setEnvTarget(glslang::EShTargetSpv, request.spirv);
  shader.setEntryPoint("main");
}

void Generate(const glslang::TIntermediate& intermediate, const ShaderRequest& request,
              ShaderBinary& binary) {
  glslang::SpvOptions options;
  options.generateDebugInfo = request.debug_info;
  options.validate = request.validate;
  options.disableOptimizer = !request.optimize;
  spv::SpvBuildLogger logger;
  std::vector<unsigned int> spirv;
  // The switch: `glslang::` before, `glint::` after (ENGINE_CODEGEN names which).
  switch (request.shape) {
    case CallShape::kOptionsOnly:
      ENGINE_CODEGEN::GlslangToSpv(intermediate, spirv, &options);
      break;
    case CallShape::kLogger:
      ENGINE_CODEGEN::GlslangToSpv(intermediate, spirv, &logger);
      break;
    case CallShape::kLoggerAndOptions:
      ENGINE_CODEGEN::GlslangToSpv(intermediate, spirv, &logger, &options);
      break;
  }
  binary.spirv.assign(spirv.begin(), spirv.end());
  binary.spirv_log = logger.getAllMessages();
}

ShaderBinary CompileInitialized(const ShaderRequest& request) {
  ShaderBinary binary;
  glslang::TShader shader(request.stage);
  const char* text = request.source.c_str();
  const char* name = request.name.c_str();
  shader.setStringsWithLengthsAndNames(&text, nullptr, &name, 1);
  Configure(shader, request);
  int message_bits = EShMsgSpvRules | EShMsgVulkanRules;
  if (request.hlsl) message_bits |= EShMsgReadHlsl;
  EShMessages messages = static_cast<EShMessages>(message_bits);
  glslang::TProgram program;
  bool parsed = shader.parse(GetDefaultResources(), 100, false, messages);
  binary.info_log = shader.getInfoLog();
  if (parsed) program.addShader(&shader);
  binary.compiled = parsed && program.link(messages);
  binary.info_log += program.getInfoLog();
  if (binary.compiled) Generate(*program.getIntermediate(request.stage), request, binary);
  return binary;
}

}  // namespace

ShaderBinary CompileShader(const ShaderRequest& request) {
  if (!request.initialize_per_compile) return CompileInitialized(request);
  glslang::InitializeProcess();
  ShaderBinary binary = CompileInitialized(request);
  glslang::FinalizeProcess();
  return binary;
}

}  // namespace ENGINE_NAMESPACE
