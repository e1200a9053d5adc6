// The one way Glint's own tools, tests and benchmarks compile a single GLSL or HLSL
// source with glslang: the stage table (glslangValidator's stage names), the target
// environments by their --target-env spelling, and a one-source compile through the
// front end (frontend::Compile, frontend::GenerateSpirv), so that what they get is what
// `glslangValidator -V --target-env <env> -S <stage>` gives for the same source.
//
// Assumes nothing about glslang's process state: CompileSource initialises glslang once
// per process (and never finalises it) when the caller has not.
#ifndef GLINT_GLSLANG_FRONT_END_COMPILE_DRIVER_H
#define GLINT_GLSLANG_FRONT_END_COMPILE_DRIVER_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "glslang/front_end/front_end.h"

namespace glint::frontend {

// glslangValidator's stage names: "vert", "tesc", "tese", "geom", "frag", "comp", "rgen",
// "rint", "rahit", "rchit", "rmiss", "rcall", "mesh", "task".
std::optional<EShLanguage> StageFromName(const std::string& name);
const char* StageName(EShLanguage stage);  // "unknown" for a stage without a name

// Sets settings' client, target and message rules as `glslangValidator -V --target-env
// <env>` does (-G for "opengl"). `env`: "vulkan1.0" .. "vulkan1.3", "spirv1.4" (Vulkan
// 1.1 with SPIR-V 1.4), "opengl". False, changing nothing, for any other name.
bool SetTargetEnvironment(const std::string& env, GlslangSettings* settings);

// One source for one stage, default resource limits, entry point "main".
struct SourceCompile {
  SourceCompile(std::string source_text, std::string stage_name, std::string env_name = "vulkan1.0")
      : source(std::move(source_text)), stage(std::move(stage_name)), env(std::move(env_name)) {}

  std::string source;
  std::string stage;  // a name StageFromName knows
  std::string env;    // a name SetTargetEnvironment knows
  bool hlsl = false;
  std::string name;         // file name for messages, line info and includes ("" none)
  bool debug_info = false;  // glslangValidator -g: OpLine / OpSource with the name
};

// Parses and links `request`. Null with glslang's log (or the unknown stage or
// environment) in `error` when it fails.
std::unique_ptr<Compilation> CompileSource(const SourceCompile& request, std::string* error);

// CompileSource, then glslang's own SPIR-V for the stage. False with `error` on failure.
bool CompileSourceToSpirv(const SourceCompile& request, std::vector<uint32_t>* words,
                          std::string* error);

}  // namespace glint::frontend

#endif  // GLINT_GLSLANG_FRONT_END_COMPILE_DRIVER_H
