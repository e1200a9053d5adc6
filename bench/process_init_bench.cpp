// What an engine that wraps every compile in glslang::InitializeProcess /
// FinalizeProcess pays per compile, with glslang 12 alone and after switching to Glint
// (docs/EMBEDDING.md, "What changes for glslang's process initialization"), measured
// side by side in one run. The engine's loop is the same on both sides: initialize,
// parse a small GLSL 450 fragment shader with TShader, link with TProgram, generate
// SPIR-V, finalize. With glslang alone, the last FinalizeProcess frees the built-in
// symbol tables and the next compile builds them again; Glint keeps one reference on
// glslang's process state, so after its first compile the tables stay.
//
// The glslang-alone side runs first: Glint takes its reference on first use and keeps
// it for the life of the process (glint::Shutdown would give it back, but this is the
// engine's habit under test, not the shutdown).
// Usage: process_init_bench [--compiles N] (default 10 on each side)
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "glint/glint.h"

namespace {

const char* kShader = R"(#version 450
layout(location = 0) in vec4 color_in;
layout(location = 0) out vec4 color;
void main() { color = color_in * 2.0; }
)";

double CpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return now.tv_sec + now.tv_nsec / 1e9;
}

// One compile as the engine writes it; `to_spirv` is glslang's or Glint's GlslangToSpv.
template <typename ToSpirv>
bool EngineCompile(ToSpirv to_spirv) {
  glslang::InitializeProcess();
  bool compiled = false;
  {
    glslang::TShader shader(EShLangFragment);
    shader.setStrings(&kShader, 1);
    shader.setEnvInput(glslang::EShSourceGlsl, EShLangFragment, glslang::EShClientVulkan, 100);
    shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_0);
    shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_0);
    EShMessages messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
    if (shader.parse(GetDefaultResources(), 100, false, messages)) {
      glslang::TProgram program;
      program.addShader(&shader);
      if (program.link(messages)) {
        std::vector<unsigned int> spirv;
        spv::SpvBuildLogger logger;
        to_spirv(*program.getIntermediate(EShLangFragment), spirv, &logger);
        compiled = !spirv.empty();
      }
    }
  }
  glslang::FinalizeProcess();
  return compiled;
}

// Median CPU milliseconds per compile over `compiles` compiles.
template <typename ToSpirv>
double MedianMs(int compiles, ToSpirv to_spirv) {
  std::vector<double> costs;
  for (int i = 0; i < compiles; ++i) {
    double start = CpuSeconds();
    if (!EngineCompile(to_spirv)) std::fprintf(stderr, "compile failed\n");
    costs.push_back((CpuSeconds() - start) * 1e3);
  }
  std::sort(costs.begin(), costs.end());
  return costs[costs.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int compiles = 10;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--compiles") == 0) compiles = std::max(1, std::atoi(argv[i + 1]));
  double alone = MedianMs(compiles, [](const glslang::TIntermediate& intermediate,
                                       std::vector<unsigned int>& spirv,
                                       spv::SpvBuildLogger* logger) {
    glslang::GlslangToSpv(intermediate, spirv, logger);
  });
  // Glint's first compile builds the tables once (the same as the engine's first
  // compile with glslang alone); the median is over the compiles after it.
  auto with_glint = [](const glslang::TIntermediate& intermediate,
                       std::vector<unsigned int>& spirv, spv::SpvBuildLogger* logger) {
    glint::GlslangToSpv(intermediate, spirv, logger);
  };
  EngineCompile(with_glint);
  double glint = MedianMs(compiles, with_glint);
  std::printf("engine compiling a small GLSL 450 fragment shader with InitializeProcess / "
              "FinalizeProcess around each compile, per compile (median of %d):\n"
              "  glslang 12 alone %.1f ms CPU; switched to Glint %.2f ms CPU (%.0fx less)\n",
              compiles, alone, glint, alone / glint);
  return 0;
}
