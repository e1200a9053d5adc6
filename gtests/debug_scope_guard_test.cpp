// Tests of the guard around glslang 12's empty debug-scope stack (glslang/
// debug_scope_guard.h): through the library (glint::GlslangToSpv with generateDebugInfo
// and emitNonSemanticShaderDebugInfo, as an embedder calls it) the shapes that make
// glslang record a line or a local variable outside every function compile, reach the
// guard, and give the
// bytes Debian's /usr/bin/glslangValidator writes for `-V -gV` / `-V -gVS`; Glint's IR
// takes the line markers where glslang puts them and gives them back unchanged.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include "SPIRV/ir/parser.h"
#include "glint/glint.h"
#include "glslang/front_end/debug_scope_guard.h"
#include "support/test_support.h"

namespace glint {
namespace {

namespace fs = std::filesystem;

// A global initializer: glslang emits its code at the start of main before entering
// main, with no debug scope on its stack.
const char* kTriangleVert = R"(#version 440
layout(location = 0) in vec2 position;
layout(location = 1) in vec3 color;
layout(location = 0) out vec3 frag_color;
vec2 offset = position * 0.5;
void main() {
  frag_color = color;
  gl_Position = vec4(position + offset, 0.0, 1.0);
}
)";

// A specialization-constant operation glslang meets after main, whose scope it has
// left: Debian's tool writes `DebugScope 0` and a DebugLine after main's OpReturn.
const char* kSpecConstantVert = R"(#version 440
layout(location = 0) in vec2 position;
layout(constant_id = 0) const int kScale = 2;
const int kDouble = kScale * 2;
void main() {
  gl_Position = vec4(position * float(kScale), 0.0, 1.0);
}
)";

// A decorated global with an initializer: glslang makes a Function-storage temporary
// for it before main's scope is entered, and its DebugLocalVariable names the top of
// the empty stack as its scope (Debian's tool writes scope 0: an invalid module).
const char* kDecoratedGlobalVert = R"(#version 460
#extension GL_EXT_spirv_intrinsics : require
spirv_decorate(0) float x = 0.5;
void main() { gl_Position = vec4(x); }
)";

struct Linked {
  std::unique_ptr<glslang::TShader> shader;
  std::unique_ptr<glslang::TProgram> program;
  const glslang::TIntermediate& Intermediate() const {
    return *program->getIntermediate(EShLangVertex);
  }
};

// As glslangValidator -V -gV sets glslang up: named source, debug info, Vulkan 1.0.
Linked ParseWithDebugInfo(const char* name, const char* source) {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
  Linked linked;
  linked.shader = std::make_unique<glslang::TShader>(EShLangVertex);
  linked.shader->setStringsWithLengthsAndNames(&source, nullptr, &name, 1);
  linked.shader->setDebugInfo(true);
  linked.shader->setEnvInput(glslang::EShSourceGlsl, EShLangVertex, glslang::EShClientVulkan, 100);
  linked.shader->setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_0);
  linked.shader->setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_0);
  const auto messages =
      static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules | EShMsgDebugInfo);
  EXPECT_TRUE(linked.shader->parse(GetDefaultResources(), 100, false, messages))
      << linked.shader->getInfoLog();
  linked.program = std::make_unique<glslang::TProgram>();
  linked.program->addShader(linked.shader.get());
  EXPECT_TRUE(linked.program->link(messages)) << linked.program->getInfoLog();
  EXPECT_TRUE(linked.program->mapIO());
  return linked;
}

glslang::SpvOptions NonSemanticDebugInfo(bool with_source) {
  glslang::SpvOptions options;
  options.generateDebugInfo = true;
  options.emitNonSemanticShaderDebugInfo = true;
  options.emitNonSemanticShaderDebugSource = with_source;
  return options;
}

// Debian's glslangValidator on `source` saved as `name` in a private directory.
std::vector<uint32_t> DebiansModule(const char* name, const char* source, const char* flag) {
  char pattern[] = "/tmp/glint-debug-scope-XXXXXX";
  const std::string dir = mkdtemp(pattern);
  std::ofstream(dir + "/" + name, std::ios::binary) << source;
  const std::string command = "cd '" + dir + "' && /usr/bin/glslangValidator -V " + flag +
                              " -o out.spv " + name + " >log.txt 2>&1";
  const int status = std::system(command.c_str());
  const std::string bytes = test::ReadFile(dir + "/out.spv");
  EXPECT_EQ(status, 0) << test::ReadFile(dir + "/log.txt");
  fs::remove_all(dir);
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

struct GuardCase {
  const char* name;
  const char* source;
  bool glslang_output_valid;  // Debian's own module passes spirv-val
};

const GuardCase kCases[] = {{"triangle.vert", kTriangleVert, true},
                            {"spec.vert", kSpecConstantVert, false},
                            {"decorated.vert", kDecoratedGlobalVert, false}};

class DebugScopeGuard : public ::testing::TestWithParam<GuardCase> {};

TEST_P(DebugScopeGuard, LibraryGivesDebiansBytes) {
  const GuardCase& shader = GetParam();
  Linked linked = ParseWithDebugInfo(shader.name, shader.source);
  for (bool with_source : {false, true}) {
    glslang::SpvOptions spv_options = NonSemanticDebugInfo(with_source);
    const unsigned long guarded_before = frontend::GuardedCalls();
    std::vector<uint32_t> words;
    Report report;
    ASSERT_TRUE(GlslangToSpv(linked.Intermediate(), words, &spv_options, Options(), &report));
    EXPECT_GT(frontend::GuardedCalls(), guarded_before) << "the guard was not reached";
    EXPECT_FALSE(report.HasErrors());
    EXPECT_EQ(words, DebiansModule(shader.name, shader.source, with_source ? "-gVS" : "-gV"));
    EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10).empty(), shader.glslang_output_valid);
  }
}

TEST_P(DebugScopeGuard, IrKeepsTheLineMarkersInPlace) {
  const GuardCase& shader = GetParam();
  Linked linked = ParseWithDebugInfo(shader.name, shader.source);
  glslang::SpvOptions spv_options = NonSemanticDebugInfo(true);
  std::vector<unsigned int> words;
  glslang::GlslangToSpv(linked.Intermediate(), words, &spv_options);
  std::string error;
  std::optional<spirv::Module> module =
      spirv::ParseModule(std::vector<uint32_t>(words.begin(), words.end()), &error);
  ASSERT_TRUE(module) << error;
  EXPECT_EQ(module->Encode(), std::vector<uint32_t>(words.begin(), words.end()));
}

INSTANTIATE_TEST_SUITE_P(Shaders, DebugScopeGuard, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return test::ParamName(info.param.name); });

}  // namespace
}  // namespace glint
