// GLSL to SPIR-V with glslang 12's own code generation, for the harness's command line
// and benchmarks (the tests use gtests/support). Stages: "comp", "frag", "vert".
// Target environments: "vulkan1.0" .. "vulkan1.3", "spirv1.4" (Vulkan 1.1 + SPIR-V
// 1.4), "opengl".
#ifndef GLINT_EXECUTION_GLSL_COMPILE_H
#define GLINT_EXECUTION_GLSL_COMPILE_H

#include <cstdint>
#include <string>
#include <vector>

namespace glint::vk {

// False with glslang's log when the source does not compile or link.
bool CompileGlsl(const std::string& source, const std::string& stage, const std::string& env,
                 std::vector<uint32_t>* words, std::string* error);

}  // namespace glint::vk

#endif  // GLINT_EXECUTION_GLSL_COMPILE_H
