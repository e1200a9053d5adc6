// An engine's shader compiler, written against glslang 12 the way engines write theirs
// (TShader, TProgram, a logger, SpvOptions), and switched to Glint by one line: the
// namespace of the GlslangToSpv call in engine_compile.cpp. The build compiles that file
// once per back end, naming ENGINE_CODEGEN (glslang or glint) and ENGINE_NAMESPACE (the
// namespace these declarations land in), so one program can hold both and compare
// them (gtests/engine_shape_test.cpp does, for every call shape glslang 12 has).
#ifndef ENGINE_COMPILE_H
#define ENGINE_COMPILE_H

#include <glslang/Public/ShaderLang.h>

#include <cstdint>
#include <string>
#include <vector>

#ifndef ENGINE_NAMESPACE
#error "ENGINE_NAMESPACE names the namespace of this build of the engine"
#endif

namespace ENGINE_NAMESPACE {

// Which of glslang 12's GlslangToSpv overloads the engine calls.
enum class CallShape {
  kOptionsOnly,       // GlslangToSpv(intermediate, spirv, &options)
  kLogger,            // GlslangToSpv(intermediate, spirv, &logger)
  kLoggerAndOptions,  // GlslangToSpv(intermediate, spirv, &logger, &options)
};

struct ShaderRequest {
  std::string name;
  std::string source;
  EShLanguage stage = EShLangFragment;
  bool hlsl = false;
  glslang::EShTargetClientVersion vulkan = glslang::EShTargetVulkan_1_0;
  glslang::EShTargetLanguageVersion spirv = glslang::EShTargetSpv_1_0;
  CallShape shape = CallShape::kLoggerAndOptions;
  // The first engine's habit: glslang::InitializeProcess / FinalizeProcess around every
  // compile. The second engine initializes once at start-up (the caller's job then).
  bool initialize_per_compile = false;
  bool debug_info = false;  // SpvOptions::generateDebugInfo
  bool validate = false;    // SpvOptions::validate (glslang's spirv-val)
  bool optimize = false;    // !SpvOptions::disableOptimizer (HLSL legalization)
};

struct ShaderBinary {
  bool compiled = false;  // parse and link succeeded
  std::vector<uint32_t> spirv;
  std::string info_log;   // glslang's parse and link log
  std::string spirv_log;  // the logger's getAllMessages(); empty for kOptionsOnly
};

ShaderBinary CompileShader(const ShaderRequest& request);

}  // namespace ENGINE_NAMESPACE

#endif  // ENGINE_COMPILE_H
