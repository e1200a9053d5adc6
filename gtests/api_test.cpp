// Tests of the public C++ API (glint/glint.h): glint::GlslangToSpv on glslang's
// intermediate, glint::Process on SPIR-V words, the error contract (false, a message,
// the caller's vector untouched, no records from a failed run, no exception even when
// memory runs out) and compiling from many threads at once.
#include <gtest/gtest.h>

#include <glslang/MachineIndependent/localintermediate.h>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <ostream>
#include <sstream>
#include <thread>

#include "SPIRV/ir/module.h"
#include "glint/glint.h"
#include "support/test_support.h"

// GCC sees malloc/free through the replaced operators below and warns about a mismatch
// that is the point of the replacement.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

// Fault injection for the out-of-memory test: when armed on a thread, the Nth
// allocation that thread makes throws std::bad_alloc (once).
namespace {
thread_local long g_allocations_until_failure = 0;
thread_local bool g_failure_injected = false;
}  // namespace

void* operator new(std::size_t size) {
  if (g_allocations_until_failure > 0 && --g_allocations_until_failure == 0) {
    g_failure_injected = true;
    throw std::bad_alloc();
  }
  if (void* memory = std::malloc(size ? size : 1)) return memory;
  throw std::bad_alloc();
}
// SPIRV-Tools allocates some buffers with the nothrow form and frees them with the
// plain delete above: both must use malloc (AddressSanitizer reports the mismatch).
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return operator new(size);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }

// glslang and SPIRV-Tools hold memory in raw owning pointers, and leak it when
// std::bad_alloc unwinds through them; the fault-injection sweeps below ignore leaks
// under LeakSanitizer (the sanitizer job, External/sanitize.sh, checks them elsewhere).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GLINT_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(GLINT_TEST_ASAN)
#include <sanitizer/lsan_interface.h>
using IgnoreThirdPartyLeaks = __lsan::ScopedDisabler;
#else
struct IgnoreThirdPartyLeaks {};
#endif

namespace glint {
namespace {

// Dynamic indices into a runtime array, a uniform array and a constant table.
const char* kComputeShader = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
layout(std140, binding = 1) uniform Params { uvec4 offsets[4]; };
const uint table[8] = uint[](1u, 2u, 3u, 5u, 8u, 13u, 21u, 34u);
void main() {
  uint i = gl_GlobalInvocationID.x;
  values[i] = table[values[i] & 7u] + offsets[values[i] % 4u].x + values[offsets[i & 3u].y];
}
)";

// A uniform array indexed by a flat input, and implicit-LOD sampling under a branch on it.
const char* kFragmentShader = R"(#version 440
layout(location = 0) flat in int index;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D image;
layout(std140, binding = 1) uniform Palette { vec4 colors[8]; };
void main() {
  vec4 base = vec4(dFdx(uv.x));
  if (index > 3) base += colors[index] * texture(image, uv * 2.0);
  color = base;
}
)";

// A skinning-style vertex shader: a matrix array indexed by a vertex attribute.
const char* kVertexShader = R"(#version 440
layout(location = 0) in vec3 position;
layout(location = 1) in int bone;
layout(std140, binding = 0) uniform Bones { mat4 bones[32]; };
void main() { gl_Position = bones[bone] * vec4(position, 1.0); }
)";

struct ShaderCase {
  const char* source;
  EShLanguage stage;
};
const ShaderCase kShaders[] = {{kComputeShader, EShLangCompute},
                               {kFragmentShader, EShLangFragment},
                               {kVertexShader, EShLangVertex}};

// A parsed and linked program, the way an engine holds one (shader outlives program).
struct LinkedProgram {
  std::unique_ptr<glslang::TShader> shader;
  std::unique_ptr<glslang::TProgram> program;
  EShLanguage stage = EShLangVertex;
  const glslang::TIntermediate& Intermediate() const { return *program->getIntermediate(stage); }
};

void InitializeGlslangOnce() {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

// Parses and links for Vulkan 1.0; returns an empty program (and fails) on errors.
LinkedProgram ParseAndLink(const char* source, EShLanguage stage) {
  InitializeGlslangOnce();
  LinkedProgram linked;
  linked.stage = stage;
  linked.shader = std::make_unique<glslang::TShader>(stage);
  linked.shader->setStrings(&source, 1);
  linked.shader->setEnvInput(glslang::EShSourceGlsl, stage, glslang::EShClientVulkan, 100);
  linked.shader->setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_0);
  linked.shader->setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_0);
  const auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  if (!linked.shader->parse(GetDefaultResources(), 100, false, messages)) {
    ADD_FAILURE() << linked.shader->getInfoLog();
    return linked;
  }
  linked.program = std::make_unique<glslang::TProgram>();
  linked.program->addShader(linked.shader.get());
  if (!linked.program->link(messages)) ADD_FAILURE() << linked.program->getInfoLog();
  return linked;
}

Options RobustOptions() {
  Options options;
  options.robust_access = true;
  options.collect_ranges = true;
  options.validate = true;
  return options;
}

// Everything in a report, as text, so two reports compare with one EXPECT_EQ.
std::string Describe(const Report& report) {
  std::ostringstream out;
  for (const Diagnostic& d : report.diagnostics)
    out << d.origin << "|" << FormatDiagnostic(d) << "\n";
  for (const AccessRecord& a : report.accesses)
    out << a.instruction << "|" << a.object << "|" << a.index_id << "|" << a.has_range << "|"
        << a.range_min << "|" << a.range_max << "|" << a.limit << "|" << static_cast<int>(a.verdict)
        << "\n";
  for (const PassStatistic& p : report.passes)
    out << p.pass << "|" << p.changed << "|" << p.rewrites << "\n";
  return out.str();
}

std::string FirstError(const Report& report) {
  for (const Diagnostic& d : report.diagnostics)
    if (d.severity == Severity::kError) return d.message;
  return "";
}

TEST(Api, GlslangToSpv_AllPassesOffIsGlslangsOwnOutput) {
  Options options;
  options.hoist_constant_tables = false;
  options.uniformity = Severity::kOff;
  for (const ShaderCase& shader : kShaders) {
    LinkedProgram linked = ParseAndLink(shader.source, shader.stage);
    std::vector<uint32_t> glslang_words;
    glslang::SpvOptions spv_options;
    glslang::GlslangToSpv(linked.Intermediate(), glslang_words, &spv_options);
    std::vector<uint32_t> glint_words;
    Report report;
    ASSERT_TRUE(GlslangToSpv(linked.Intermediate(), glint_words, &spv_options, options, &report))
        << Describe(report);
    EXPECT_EQ(glint_words, glslang_words);
    EXPECT_FALSE(report.HasErrors());
  }
}

TEST(Api, GlslangToSpv_RobustOutputValidatesForVulkan) {
  for (const ShaderCase& shader : kShaders) {
    LinkedProgram linked = ParseAndLink(shader.source, shader.stage);
    std::vector<uint32_t> words;
    Report report;
    ASSERT_TRUE(GlslangToSpv(linked.Intermediate(), words, nullptr, RobustOptions(), &report))
        << Describe(report);
    EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "");
    EXPECT_FALSE(report.HasErrors()) << Describe(report);
  }
}

TEST(Api, GlslangToSpv_SameAsProcessOnGlslangOutput) {
  for (const ShaderCase& shader : kShaders) {
    LinkedProgram linked = ParseAndLink(shader.source, shader.stage);
    std::vector<uint32_t> direct;
    Report direct_report;
    ASSERT_TRUE(
        GlslangToSpv(linked.Intermediate(), direct, nullptr, RobustOptions(), &direct_report));
    std::vector<uint32_t> processed;
    glslang::GlslangToSpv(linked.Intermediate(), processed);
    Report processed_report;
    ASSERT_TRUE(Process(processed, RobustOptions(), &processed_report))
        << Describe(processed_report);
    EXPECT_EQ(direct, processed);
    EXPECT_EQ(Describe(direct_report), Describe(processed_report));
  }
}

// glslang's call shape appends the module to what the caller's vector holds, as
// glslang's own GlslangToSpv does; an empty vector gets the module itself (handed over,
// not copied, but the same words).
TEST(Api, GlslangShape_AppendsToWhatTheCallersVectorHolds) {
  const std::vector<unsigned int> held = {7u, 8u, 9u};
  for (const ShaderCase& shader : kShaders) {
    LinkedProgram linked = ParseAndLink(shader.source, shader.stage);
    std::vector<unsigned int> glslang_alone, glslang_after = held;
    glslang::GlslangToSpv(linked.Intermediate(), glslang_alone);
    glslang::GlslangToSpv(linked.Intermediate(), glslang_after);
    ASSERT_FALSE(glslang_alone.empty());
    std::vector<unsigned int> expected_glslang = held;
    expected_glslang.insert(expected_glslang.end(), glslang_alone.begin(), glslang_alone.end());
    EXPECT_EQ(glslang_after, expected_glslang) << "glslang 12 itself appends";

    std::vector<unsigned int> glint_alone, glint_after = held;
    glint::GlslangToSpv(linked.Intermediate(), glint_alone);
    glint::GlslangToSpv(linked.Intermediate(), glint_after);
    ASSERT_FALSE(glint_alone.empty());
    EXPECT_EQ(glint_alone[0], spv::MagicNumber);
    std::vector<unsigned int> expected_glint = held;
    expected_glint.insert(expected_glint.end(), glint_alone.begin(), glint_alone.end());
    EXPECT_EQ(glint_after, expected_glint);
  }
}

// Records name source lines although the caller asked for no debug information, and
// the output is the same whether or not a report was asked for.
TEST(Api, GlslangToSpv_ReportNamesLinesWithoutChangingTheOutput) {
  LinkedProgram linked = ParseAndLink(kComputeShader, EShLangCompute);
  std::vector<uint32_t> reported, unreported;
  Report report;
  ASSERT_TRUE(GlslangToSpv(linked.Intermediate(), reported, nullptr, RobustOptions(), &report));
  ASSERT_TRUE(GlslangToSpv(linked.Intermediate(), unreported, nullptr, RobustOptions(), nullptr));
  EXPECT_EQ(reported, unreported);
  EXPECT_TRUE(test::FileCheck(test::Disassemble(reported), "CHECK-NOT: OpLine"));
  // Every access of kComputeShader is on line 7 (gl_GlobalInvocationID.x) or 8.
  auto in_main_body = [](const AccessRecord& access) {
    return access.location.line == 7 || access.location.line == 8;
  };
  ASSERT_GT(report.accesses.size(), 0u);
  for (const AccessRecord& access : report.accesses)
    EXPECT_TRUE(in_main_body(access))
        << access.instruction << " " << access.object << " line " << access.location.line;

  // With debug information asked for, the module's own OpLines locate the records.
  glslang::SpvOptions debug;
  debug.generateDebugInfo = true;
  std::vector<uint32_t> with_lines;
  Report debug_report;
  ASSERT_TRUE(
      GlslangToSpv(linked.Intermediate(), with_lines, &debug, RobustOptions(), &debug_report));
  EXPECT_TRUE(test::FileCheck(test::Disassemble(with_lines), "CHECK: OpLine"));
  ASSERT_EQ(debug_report.accesses.size(), report.accesses.size());
  for (size_t i = 0; i < report.accesses.size(); ++i)
    EXPECT_EQ(debug_report.accesses[i].location.line, report.accesses[i].location.line);
}

// A uniformity warning (implicit-LOD sampling under a branch on an interpolated input)
// reads, without debug information, exactly as it does with it: same location, same
// message, same reasons (which cite lines too).
TEST(Api, GlslangToSpv_DiagnosticsReadAsWithDebugInformation) {
  const char* source = R"(#version 440
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D image;
void main() {
  color = vec4(0.0);
  if (uv.x > 0.5) color = texture(image, uv);
}
)";
  LinkedProgram linked = ParseAndLink(source, EShLangFragment);
  std::vector<uint32_t> plain_words, debug_words;
  Report plain, debug;
  ASSERT_TRUE(GlslangToSpv(linked.Intermediate(), plain_words, nullptr, Options(), &plain));
  glslang::SpvOptions with_lines;
  with_lines.generateDebugInfo = true;
  ASSERT_TRUE(GlslangToSpv(linked.Intermediate(), debug_words, &with_lines, Options(), &debug));
  ASSERT_EQ(plain.diagnostics.size(), 1u) << Describe(plain);
  EXPECT_EQ(plain.diagnostics[0].origin, "uniformity");
  EXPECT_EQ(plain.diagnostics[0].location.line, 7u);
  ASSERT_EQ(debug.diagnostics.size(), 1u) << Describe(debug);
  EXPECT_EQ(FormatDiagnostic(plain.diagnostics[0]), FormatDiagnostic(debug.diagnostics[0]));
  // The source has no name: glslang calls it string 0 ("0:7:"), and so do the warning
  // and its reasons.
  std::string text = FormatDiagnostic(plain.diagnostics[0]);
  EXPECT_EQ(text.rfind("WARNING: 0:7: ", 0), 0u) << text;
  EXPECT_NE(text.find("\n    only some invocations take the branch at 0:7"), std::string::npos)
      << text;
}

// glslang 12 generates from the calling thread's pool allocator, which only a parse or
// link on that thread installs; Glint gives the call its own, so a worker thread that
// never touched glslang may generate.
TEST(Api, GlslangToSpv_FromAThreadThatNeverParsed) {
  LinkedProgram linked = ParseAndLink(kComputeShader, EShLangCompute);
  std::vector<uint32_t> on_main;
  ASSERT_TRUE(GlslangToSpv(linked.Intermediate(), on_main, nullptr, RobustOptions(), nullptr));
  std::vector<uint32_t> on_worker;
  bool ok = false;
  std::thread worker([&] {
    ok = GlslangToSpv(linked.Intermediate(), on_worker, nullptr, RobustOptions(), nullptr);
  });
  worker.join();
  EXPECT_TRUE(ok);
  EXPECT_EQ(on_worker, on_main);
}

TEST(Api, GlslangToSpv_EmptyIntermediateIsAnErrorAndLeavesTheVector) {
  glslang::TIntermediate empty(EShLangFragment);
  std::vector<uint32_t> words = {1, 2, 3};
  Report report;
  EXPECT_FALSE(GlslangToSpv(empty, words, nullptr, Options(), &report));
  EXPECT_EQ(words, (std::vector<uint32_t>{1, 2, 3}));
  ASSERT_TRUE(report.HasErrors());
  EXPECT_EQ(report.diagnostics.back().origin, "glslang");
  EXPECT_NE(FirstError(report).find("produced no SPIR-V"), std::string::npos);
}

TEST(Api, Process_RobustOutputValidatesForEveryEnvironment) {
  struct EnvCase {
    const char* glslang_env;
    TargetEnv target;
  };
  const EnvCase kEnvs[] = {{"vulkan1.0", TargetEnv::kVulkan10}, {"vulkan1.1", TargetEnv::kVulkan11},
                           {"spirv1.4", TargetEnv::kVulkan11},  {"vulkan1.2", TargetEnv::kVulkan12},
                           {"vulkan1.3", TargetEnv::kVulkan13}, {"opengl", TargetEnv::kOpenGL45}};
  for (const EnvCase& env : kEnvs) {
    std::vector<uint32_t> words = test::CompileGlsl(kComputeShader, "comp", env.glslang_env);
    Options options = RobustOptions();
    options.target_env = env.target;
    Report report;
    ASSERT_TRUE(Process(words, options, &report)) << env.glslang_env << "\n" << Describe(report);
    EXPECT_EQ(test::ValidateFor(words, env.target), "") << env.glslang_env;
    EXPECT_EQ(test::ValidateFor(words, TargetEnv::kUniversal), "") << env.glslang_env;
  }
}

// SPIR-V from another front end (glslang's HLSL one, with its own naming and layout).
TEST(Api, Process_AcceptsHlslFrontEndOutput) {
  const char* hlsl = R"(
RWStructuredBuffer<uint> values : register(u0);
static const uint table[4] = {3, 5, 7, 11};
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  values[id.x] = table[values[id.x] & 3] + values[values[id.x]];
}
)";
  std::vector<uint32_t> words = test::CompileGlsl(hlsl, "comp", "vulkan1.0", /*hlsl=*/true);
  ASSERT_FALSE(words.empty());
  Report report;
  ASSERT_TRUE(Process(words, RobustOptions(), &report)) << Describe(report);
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "");
  EXPECT_GT(report.accesses.size(), 0u);
}

TEST(Api, Process_NullReportIsAllowed) {
  std::vector<uint32_t> words = test::CompileGlsl(kFragmentShader, "frag");
  EXPECT_TRUE(Process(words, RobustOptions(), nullptr));
  std::vector<uint32_t> bad = {0x07230203};
  EXPECT_FALSE(Process(bad, RobustOptions(), nullptr));
}

TEST(Api, Process_ReportAppendsAcrossCalls) {
  std::vector<uint32_t> words = test::CompileGlsl(kComputeShader, "comp");
  Report once;
  std::vector<uint32_t> first = words;
  ASSERT_TRUE(Process(first, RobustOptions(), &once));
  Report twice;
  std::vector<uint32_t> a = words, b = words;
  ASSERT_TRUE(Process(a, RobustOptions(), &twice));
  ASSERT_TRUE(Process(b, RobustOptions(), &twice));
  EXPECT_EQ(twice.diagnostics.size(), 2 * once.diagnostics.size());
  EXPECT_EQ(twice.accesses.size(), 2 * once.accesses.size());
  EXPECT_EQ(twice.passes.size(), 2 * once.passes.size());
}

// A module for OpenGL uses no Vulkan-only rules, but a module compiled for Vulkan 1.3
// (SPIR-V 1.6) is not a Vulkan 1.0 module: validating it as one must fail cleanly.
TEST(Api, Process_ValidationFailureIsAnErrorAndLeavesTheVector) {
  const std::vector<uint32_t> original = test::CompileGlsl(kComputeShader, "comp", "vulkan1.3");
  std::vector<uint32_t> words = original;
  Options options;
  options.validate = true;
  options.target_env = TargetEnv::kVulkan10;
  Report report;
  EXPECT_FALSE(Process(words, options, &report));
  EXPECT_EQ(words, original);
  ASSERT_TRUE(report.HasErrors());
  EXPECT_EQ(report.diagnostics.back().origin, "spirv-val");
  EXPECT_FALSE(report.diagnostics.back().message.empty());
  EXPECT_TRUE(report.accesses.empty());
  EXPECT_TRUE(report.passes.empty());
}

// SPIR-V that parses but breaks the core rules: an operand that is never defined.
const char* kUndefinedOperand = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%one = OpConstant %int 1
%main = OpFunction %void None %fn
%entry = OpLabel
%sum = OpIAdd %int %one %never_defined
OpReturn
OpFunctionEnd
)";

struct MalformedCase {
  const char* name;
  std::function<void(std::vector<uint32_t>&)> corrupt;
  const char* message;  // a piece of the expected error
};

// Failure messages name the case, not its bytes.
void PrintTo(const MalformedCase& c, std::ostream* out) { *out << c.name; }

class ApiMalformed : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(ApiMalformed, ProcessFailsWithMessageAndLeavesTheVector) {
  std::vector<uint32_t> words = test::CompileGlsl(kComputeShader, "comp");
  GetParam().corrupt(words);
  const std::vector<uint32_t> original = words;
  Report report;
  EXPECT_FALSE(Process(words, RobustOptions(), &report));
  EXPECT_EQ(words, original);
  ASSERT_TRUE(report.HasErrors());
  EXPECT_NE(FirstError(report).find(GetParam().message), std::string::npos) << FirstError(report);
  EXPECT_TRUE(report.accesses.empty());
  EXPECT_TRUE(report.passes.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ApiMalformed,
    ::testing::Values(
        MalformedCase{"Empty", [](auto& w) { w.clear(); }, "malformed SPIR-V"},
        MalformedCase{"BadMagic", [](auto& w) { w[0] = 0x12345678; }, "bad magic"},
        MalformedCase{"TruncatedHeader", [](auto& w) { w.resize(3); }, "truncated header"},
        MalformedCase{"TruncatedStream", [](auto& w) { w.resize(w.size() - 3); },
                      "truncated stream"},
        MalformedCase{"ZeroWordCount", [](auto& w) { w[5] &= 0xffff; }, "word count 0"},
        MalformedCase{"UnknownOpcode", [](auto& w) { w[5] = (w[5] & 0xffff0000u) | 0x7fffu; },
                      "unknown opcode"},
        MalformedCase{"IdAtBound", [](auto& w) { w[3] = 5; }, "at or above the bound"},
        MalformedCase{"HugeBound", [](auto& w) { w[3] = 0xffffffffu; },
                      "word 3: id bound 4294967295 is over 4194303"},
        MalformedCase{"UndefinedOperand", [](auto& w) { w = test::Assemble(kUndefinedOperand); },
                      "invalid SPIR-V input"}),
    [](const auto& info) { return std::string(info.param.name); });

// SPIR-V's maximum id bound (0x3FFFFF) is a limit a pass may reach: a module whose
// bound leaves fewer ids than the pass needs makes that pass fail by name, with the
// limit in the message and the caller's words untouched; exactly enough ids succeed
// with a bound of exactly the maximum, which spirv-val accepts.
// A 64 MB module (16M words of OpNop after a header) is over the IR's input limit
// (spirv::kMaxModuleWords): refused by name at once, before spirv-val or any pass sees
// it (it used to take over a minute and 2 GB), and the caller's words are untouched.
TEST(Api, Process_64MegabyteModuleIsRefusedAtOnceByTheSizeLimit) {
  std::vector<uint32_t> words = test::CompileGlsl(kComputeShader, "comp");
  words.resize((size_t{64} << 20) / 4, 0x00010000u);  // OpNop
  const std::vector<uint32_t> original = words;
  Report report;
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(Process(words, RobustOptions(), &report));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
  EXPECT_EQ(FirstError(report),
            "the module is over Glint's input limit: the module has 16777216 words, more than "
            "8388608 (32 MiB, Glint's input limit kMaxModuleWords)");
  EXPECT_TRUE(words == original);
}

struct IdBoundCase {
  const char* name;
  bool hoist;
  bool robust;
  const char* pass;
};

class ApiIdBound : public ::testing::TestWithParam<IdBoundCase> {
 protected:
  Options PassOptions() const {
    Options options;
    options.hoist_constant_tables = GetParam().hoist;
    options.robust_access = GetParam().robust;
    options.validate = true;
    return options;
  }
};

TEST_P(ApiIdBound, PastTheMaximumThePassFailsByName_UpToItTheOutputValidates) {
  const std::vector<uint32_t> compiled = test::CompileGlsl(kComputeShader, "comp");
  std::vector<uint32_t> grown = compiled;
  ASSERT_TRUE(Process(grown, PassOptions(), nullptr));
  const uint32_t needed = grown[3] - compiled[3];  // the ids the pass allocates here
  ASSERT_GT(needed, 0u);

  std::vector<uint32_t> fits = compiled;
  fits[3] = spirv::kMaxIdBound - needed;
  ASSERT_TRUE(Process(fits, PassOptions(), nullptr)) << GetParam().name;
  EXPECT_EQ(fits[3], spirv::kMaxIdBound);
  EXPECT_EQ(test::ValidateFor(fits, TargetEnv::kVulkan10), "");

  for (uint32_t bound : {spirv::kMaxIdBound - needed + 1, spirv::kMaxIdBound}) {
    std::vector<uint32_t> words = compiled;
    words[3] = bound;
    const std::vector<uint32_t> original = words;
    Report report;
    EXPECT_FALSE(Process(words, PassOptions(), &report)) << bound;
    EXPECT_EQ(words, original);
    EXPECT_EQ(FirstError(report),
              std::string(GetParam().pass) +
                  ": cannot allocate a new id: the module's id bound is already 4194303, "
                  "SPIR-V's maximum id bound (4194303, 0x3FFFFF)");
  }
}

INSTANTIATE_TEST_SUITE_P(
    Passes, ApiIdBound,
    ::testing::Values(IdBoundCase{"HoistConstantTables", true, false, "hoist-constant-tables"},
                      IdBoundCase{"RobustAccess", false, true, "robust-access"}),
    [](const auto& info) { return std::string(info.param.name); });

// Allocations Process makes are made to fail in turn (every one of the first 2000,
// then every 5th, to keep the test fast as the pipeline grows). Whichever fails,
// Process either succeeds with the normal output or fails with a message and the input
// intact; it never throws or aborts.
TEST(Api, Process_OutOfMemoryAtAnyAllocationIsAnErrorValue) {
  [[maybe_unused]] IgnoreThirdPartyLeaks ignore_leaks;
  const std::vector<uint32_t> input = test::CompileGlsl(kComputeShader, "comp");
  Options options = RobustOptions();
  options.validate = false;  // output validation is SPIRV-Tools' allocations, not Glint's
  std::vector<uint32_t> expected = input;
  ASSERT_TRUE(Process(expected, options, nullptr));
  const long kBudget = 200000;  // allocations tried; a small module needs far fewer
  long failing = 1;
  for (; failing < kBudget; failing += failing < 2000 ? 1 : 5) {
    std::vector<uint32_t> words = input;
    Report report;
    g_failure_injected = false;
    g_allocations_until_failure = failing;
    bool ok = Process(words, options, &report);
    g_allocations_until_failure = 0;
    if (!g_failure_injected) break;  // Process finished before allocation `failing`
    if (ok) {
      EXPECT_EQ(words, expected) << "allocation " << failing;
    } else {
      EXPECT_EQ(words, input) << "allocation " << failing;
      EXPECT_TRUE(report.HasErrors()) << "allocation " << failing;
    }
  }
  RecordProperty("allocations", static_cast<int>(failing));
  EXPECT_LT(failing, kBudget) << "the allocation budget was hit";
  EXPECT_GT(failing, 10);  // the sweep really ran through Process's allocations
}

// The same for the whole of GlslangToSpv (glslang's generation, the pipeline, the
// located report), every 3rd allocation: glslang's own failures must come back as
// error values too, and the caller's vector must stay as it was.
TEST(Api, GlslangToSpv_OutOfMemoryAtAnyAllocationIsAnErrorValue) {
  [[maybe_unused]] IgnoreThirdPartyLeaks ignore_leaks;
  LinkedProgram linked = ParseAndLink(kVertexShader, EShLangVertex);
  Options options = RobustOptions();
  options.validate = false;
  std::vector<uint32_t> expected;
  ASSERT_TRUE(GlslangToSpv(linked.Intermediate(), expected, nullptr, options, nullptr));
  const std::vector<uint32_t> untouched = {0x07230203, 7};
  const long kBudget = 200000;
  long failing = 1;
  for (; failing < kBudget; failing += 3) {
    std::vector<uint32_t> words = untouched;
    Report report;
    g_failure_injected = false;
    g_allocations_until_failure = failing;
    bool ok = GlslangToSpv(linked.Intermediate(), words, nullptr, options, &report);
    g_allocations_until_failure = 0;
    if (!g_failure_injected) break;
    EXPECT_EQ(words, ok ? expected : untouched) << "allocation " << failing;
    if (!ok) {
      EXPECT_TRUE(report.HasErrors()) << "allocation " << failing;
    }
  }
  RecordProperty("allocations", static_cast<int>(failing));
  EXPECT_LT(failing, kBudget) << "the allocation budget was hit";
  EXPECT_GT(failing, 100);
}

// Compiles every shader `rounds` times on each of `threads` threads at once (parse,
// link, GlslangToSpv) and checks each output and report against a single-threaded run.
TEST(Api, Threads_ConcurrentCompilesMatchSingleThreaded) {
  struct Output {
    std::vector<uint32_t> words;
    std::string report;
  };
  auto compile = [](const ShaderCase& shader) {
    LinkedProgram linked = ParseAndLink(shader.source, shader.stage);
    Output out;
    Report report;
    if (!GlslangToSpv(linked.Intermediate(), out.words, nullptr, RobustOptions(), &report))
      out.words.clear();
    out.report = Describe(report);
    return out;
  };
  std::vector<Output> expected;
  for (const ShaderCase& shader : kShaders) expected.push_back(compile(shader));
  for (const Output& out : expected) ASSERT_FALSE(out.words.empty()) << out.report;

  const int kThreads = 8, kRounds = 6;
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> workers;
  for (int t = 0; t < kThreads; ++t) {
    workers.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        for (size_t s = 0; s < std::size(kShaders); ++s) {
          const ShaderCase& shader = kShaders[(s + t) % std::size(kShaders)];
          Output out = compile(shader);
          const Output& want = expected[(s + t) % std::size(kShaders)];
          if (out.words != want.words || out.report != want.report) ++mismatches[t];
        }
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

TEST(Api, Threads_ConcurrentProcessMatchesSingleThreaded) {
  std::vector<std::vector<uint32_t>> inputs = {test::CompileGlsl(kComputeShader, "comp"),
                                               test::CompileGlsl(kFragmentShader, "frag"),
                                               test::CompileGlsl(kVertexShader, "vert")};
  std::vector<std::vector<uint32_t>> expected = inputs;
  for (auto& words : expected) ASSERT_TRUE(Process(words, RobustOptions(), nullptr));
  const int kThreads = 8, kRounds = 20;
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> workers;
  for (int t = 0; t < kThreads; ++t) {
    workers.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        size_t which = (round + t) % inputs.size();
        std::vector<uint32_t> words = inputs[which];
        if (!Process(words, RobustOptions(), nullptr) || words != expected[which]) ++mismatches[t];
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

TEST(Api, FormatDiagnostic_LikeGlslangValidator) {
  Diagnostic diagnostic;
  diagnostic.severity = Severity::kWarning;
  diagnostic.location.file = "shader.frag";
  diagnostic.location.line = 12;
  diagnostic.message = "derivative in non-uniform control flow";
  diagnostic.reasons = {"the branch at line 10 depends on 'index'"};
  EXPECT_EQ(FormatDiagnostic(diagnostic),
            "WARNING: shader.frag:12: derivative in non-uniform control flow\n"
            "    the branch at line 10 depends on 'index'");
  // A line in a source without a name: string 0, as glslang prints its own.
  diagnostic.location.file.clear();
  EXPECT_EQ(FormatDiagnostic(diagnostic),
            "WARNING: 0:12: derivative in non-uniform control flow\n"
            "    the branch at line 10 depends on 'index'");
  diagnostic.location = SourceLocation();
  diagnostic.severity = Severity::kError;
  diagnostic.reasons.clear();
  EXPECT_EQ(FormatDiagnostic(diagnostic), "ERROR: derivative in non-uniform control flow");
}

}  // namespace
}  // namespace glint
