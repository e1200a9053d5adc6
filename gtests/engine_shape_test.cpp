// An engine switched from glslang 12 to Glint by the one-line change
// (examples/engine/engine_compile.cpp, built twice: engine_glslang calls
// glslang::GlslangToSpv, engine_glint glint::GlslangToSpv). Every shader goes through
// both, in every call shape glslang 12 has (options only, logger, logger and options),
// initialising glslang per compile (the first engine's habit) and once (the second's),
// and on 4 threads; every output is compared with glslang's: the words byte for byte
// where Glint changes nothing, the logger's messages, the parse and link logs. Where
// Glint does change the module (a run-time-indexed constant table), the output must
// validate for the engine's own target, with the layout rules the shader needs.
#include <gtest/gtest.h>

#include <glslang/Public/ShaderLang.h>

#include <future>
#include <thread>

#include "SPIRV/validate.h"

// The engine's header once per build of it (gtests/CMakeLists.txt builds both).
#define ENGINE_NAMESPACE engine_glslang
#include "engine/engine_compile.h"
#undef ENGINE_COMPILE_H
#undef ENGINE_NAMESPACE
#define ENGINE_NAMESPACE engine_glint
#include "engine/engine_compile.h"
#undef ENGINE_NAMESPACE

namespace glint {
namespace {

struct EngineCase {
  const char* name;
  const char* source;
  EShLanguage stage;
  bool hlsl;
  glslang::EShTargetClientVersion vulkan;
  glslang::EShTargetLanguageVersion spirv;
  spirv::TargetEnv env;  // what the engine's device runs
  bool glint_changes;    // Glint rewrites this module (a hoisted constant table)
  bool glint_speaks;     // Glint adds a diagnostic to the logger (a uniformity warning)
};

const EngineCase kCases[] = {
    {"triangle.vert",
     R"(#version 440
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 color;
layout(location = 0) out vec3 v_color;
layout(set = 0, binding = 0) uniform Camera { mat4 view_projection; };
void main() {
  v_color = color;
  gl_Position = view_projection * vec4(position, 1.0);
}
)",
     EShLangVertex, false, glslang::EShTargetVulkan_1_0, glslang::EShTargetSpv_1_0,
     spirv::TargetEnv::kVulkan10, false, false},
    {"palette.frag",
     R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
void main() {
  const vec4 palette[4] = vec4[4](vec4(1, 0, 0, 1), vec4(0, 1, 0, 1), vec4(0, 0, 1, 1), vec4(1));
  color = palette[index & 3];
}
)",
     EShLangFragment, false, glslang::EShTargetVulkan_1_2, glslang::EShTargetSpv_1_5,
     spirv::TargetEnv::kVulkan12, true, false},
    {"particles.comp",
     R"(#version 440
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
layout(scalar, set = 0, binding = 0) buffer Particles { vec3 position[]; };
layout(push_constant) uniform Step { float dt; };
void main() { position[gl_GlobalInvocationID.x] += vec3(dt); }
)",
     EShLangCompute, false, glslang::EShTargetVulkan_1_2, glslang::EShTargetSpv_1_5,
     spirv::TargetEnv::kVulkan12, false, false},
    {"derivative.frag",
     R"(#version 440
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D image;
void main() {
  color = vec4(0);
  if (uv.x > 0.5) color = texture(image, uv);
}
)",
     EShLangFragment, false, glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3,
     spirv::TargetEnv::kVulkan11, false, true},
    // A misconfigured engine (Vulkan 1.1 with SPIR-V 1.5): glslang's validation logs a
    // missing functionality and errors; Glint's logger must say exactly the same.
    {"version_mismatch.vert",
     R"(#version 440
void main() { gl_Position = vec4(0); }
)",
     EShLangVertex, false, glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_5,
     spirv::TargetEnv::kUniversal, false, false},
    {"tint.hlsl",
     R"(Texture2D image : register(t0);
SamplerState linear_sampler : register(s0);
float4 main(float2 uv : TEXCOORD0) : SV_Target {
  return image.Sample(linear_sampler, uv) * float4(1, 0.5, 0.5, 1);
}
)",
     EShLangFragment, true, glslang::EShTargetVulkan_1_0, glslang::EShTargetSpv_1_0,
     spirv::TargetEnv::kVulkan10, false, false},
};

struct Variant {
  int shape;  // engine_glslang::CallShape, the same values in both builds
  bool per_compile;
  bool debug_info;
};

template <typename Request>
Request RequestFor(const EngineCase& c, const Variant& v) {
  Request r;
  r.name = c.name;
  r.source = c.source;
  r.stage = c.stage;
  r.hlsl = c.hlsl;
  r.vulkan = c.vulkan;
  r.spirv = c.spirv;
  r.shape = static_cast<decltype(r.shape)>(v.shape);
  r.initialize_per_compile = v.per_compile;
  r.debug_info = v.debug_info;
  r.validate = true;
  r.optimize = c.hlsl;  // HLSL needs glslang's legalization, as engines run it
  return r;
}

struct Outputs {
  engine_glslang::ShaderBinary glslang;
  engine_glint::ShaderBinary glint;
};

Outputs CompileBoth(const EngineCase& c, const Variant& v) {
  return {engine_glslang::CompileShader(RequestFor<engine_glslang::ShaderRequest>(c, v)),
          engine_glint::CompileShader(RequestFor<engine_glint::ShaderRequest>(c, v))};
}

std::vector<Variant> AllVariants() {
  std::vector<Variant> variants;
  for (int shape = 0; shape < 3; ++shape)
    for (bool per_compile : {true, false})
      for (bool debug_info : {false, true}) variants.push_back({shape, per_compile, debug_info});
  return variants;
}

std::string Describe(const EngineCase& c, const Variant& v) {
  return std::string(c.name) + " shape " + std::to_string(v.shape) +
         (v.per_compile ? " init per compile" : " init once") + (v.debug_info ? " -g" : "");
}

// What the switch promises for one shader and one variant.
void ExpectSwitchKeepsPromise(const EngineCase& c, const Variant& v, const Outputs& out) {
  SCOPED_TRACE(Describe(c, v));
  ASSERT_TRUE(out.glslang.compiled) << out.glslang.info_log;
  ASSERT_TRUE(out.glint.compiled) << out.glint.info_log;
  EXPECT_EQ(out.glint.info_log, out.glslang.info_log);
  ASSERT_FALSE(out.glint.spirv.empty());
  if (c.glint_changes)
    EXPECT_NE(out.glint.spirv, out.glslang.spirv);
  else
    EXPECT_EQ(out.glint.spirv, out.glslang.spirv);
  bool logs = v.shape != 0;  // the options-only shape has no logger to read
  if (!logs || !c.glint_speaks) {
    EXPECT_EQ(out.glint.spirv_log, out.glslang.spirv_log);
    if (v.shape == 2 && std::string(c.name) == "version_mismatch.vert") {  // validated: a log
      EXPECT_NE(out.glint.spirv_log.find("Missing functionality: "), std::string::npos);
    }
  } else {
    // glslang's messages (none for this shader), then Glint's warning as glslang's
    // logger prints a warning, naming the line even without -g.
    EXPECT_EQ(out.glslang.spirv_log, "");
    EXPECT_EQ(out.glint.spirv_log.rfind("warning: derivative.frag:7: ", 0), 0u)
        << out.glint.spirv_log;
  }
  spirv::ValidationRules rules = spirv::DeclaredValidationRules(out.glint.spirv);
  EXPECT_EQ(spirv::Validate(out.glint.spirv, c.env, rules), "");
}

TEST(EngineShape, EveryCallShapeAndInitHabitMatchesGlslang) {
  for (const EngineCase& c : kCases)
    for (const Variant& v : AllVariants()) ExpectSwitchKeepsPromise(c, v, CompileBoth(c, v));
}

// The scalar-layout module needs the scalar rule: it is invalid without it, so the
// validation above (and glslang's own, whose log is compared) used what it declares.
TEST(EngineShape, ScalarLayoutShaderNeedsTheRuleItDeclares) {
  const EngineCase& c = kCases[2];
  Outputs out = CompileBoth(c, {2, true, false});  // initialises glslang itself
  ASSERT_FALSE(out.glint.spirv.empty());
  EXPECT_NE(spirv::Validate(out.glint.spirv, c.env), "");
  EXPECT_TRUE(spirv::DeclaredValidationRules(out.glint.spirv).scalar_block_layout);
  EXPECT_EQ(out.glint.spirv_log, "");
}

// The second engine: glslang initialised once, four threads compiling at once, every
// output the same as one thread's.
TEST(EngineShape, FourThreadsGiveWhatOneThreadGives) {
  glslang::InitializeProcess();
  std::vector<std::pair<const EngineCase*, Variant>> jobs;
  for (const EngineCase& c : kCases)
    for (const Variant& v : AllVariants())
      if (!v.per_compile) jobs.push_back({&c, v});
  std::vector<Outputs> alone;
  for (const auto& [c, v] : jobs) alone.push_back(CompileBoth(*c, v));
  std::vector<Outputs> together(jobs.size());
  std::vector<std::thread> threads;
  for (size_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (size_t j = t; j < jobs.size(); j += 4)
        together[j] = CompileBoth(*jobs[j].first, jobs[j].second);
    });
  for (std::thread& thread : threads) thread.join();
  for (size_t j = 0; j < jobs.size(); ++j) {
    SCOPED_TRACE(Describe(*jobs[j].first, jobs[j].second));
    EXPECT_EQ(together[j].glint.spirv, alone[j].glint.spirv);
    EXPECT_EQ(together[j].glint.spirv_log, alone[j].glint.spirv_log);
    EXPECT_EQ(together[j].glslang.spirv, alone[j].glslang.spirv);
    ExpectSwitchKeepsPromise(*jobs[j].first, jobs[j].second, together[j]);
  }
  glslang::FinalizeProcess();
}

}  // namespace
}  // namespace glint
