// Tests of the C API (glint/glint_c.h), from C++ and from a C translation unit
// (c_api_test_c.c): both entry points against the C++ API, every target environment,
// glslang's compile and link errors as diagnostics with locations, malformed SPIR-V,
// out-of-range enum values, NULL handles, and compiling from many threads at once.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "glint/glint.h"
#include "glint/glint_c.h"
#include "glint/report_format.h"
#include "support/test_support.h"

extern "C" int glint_c_test_compile(const char* source, size_t* word_count, size_t* access_count,
                                    char* first_text, size_t capacity);
extern "C" int glint_c_test_null_calls(void);
extern "C" int glint_c_test_compile_hlsl(const char* source, const char* scale, size_t* word_count,
                                         char* first_text, size_t capacity);
extern "C" int glint_c_test_set_raw_enums(glint_options_t* options, int target, int ranges,
                                          int severity);
extern "C" int glint_c_test_compile_raw_stage(const char* source, int stage_value, char* texts,
                                              size_t capacity);

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

// Owners for the C handles, so a failing assertion cannot leak them.
struct OptionsDeleter {
  void operator()(glint_options_t* options) const { glint_options_free(options); }
};
struct ResultDeleter {
  void operator()(glint_result_t* result) const { glint_result_free(result); }
};
using OptionsHandle = std::unique_ptr<glint_options_t, OptionsDeleter>;
using ResultHandle = std::unique_ptr<glint_result_t, ResultDeleter>;

OptionsHandle RobustCOptions(glint_target_env_t target = GLINT_TARGET_VULKAN_1_0) {
  OptionsHandle options(glint_options_create());
  EXPECT_EQ(glint_options_set_robust_access(options.get(), 1), 1);
  EXPECT_EQ(glint_options_set_collect_ranges(options.get(), 1), 1);
  EXPECT_EQ(glint_options_set_validate(options.get(), 1), 1);
  EXPECT_EQ(glint_options_set_target_env(options.get(), target), 1);
  return options;
}

Options RobustCppOptions(TargetEnv target = TargetEnv::kVulkan10) {
  Options options;
  options.robust_access = true;
  options.collect_ranges = true;
  options.validate = true;
  options.target_env = target;
  return options;
}

ResultHandle CompileC(const char* source, glint_stage_t stage, const glint_options_t* options,
                      const char* file_name = nullptr) {
  glint_glsl_input_t input = {};
  input.source = source;
  input.stage = stage;
  input.file_name = file_name;
  return ResultHandle(glint_compile_glsl(&input, options));
}

std::vector<uint32_t> Words(const glint_result_t* result) {
  const uint32_t* words = glint_result_spirv(result);
  return std::vector<uint32_t>(words, words + glint_result_spirv_size(result));
}

std::string AllDiagnostics(const glint_result_t* result) {
  const glint_report_t* report = glint_result_report(result);
  std::string text;
  glint_diagnostic_t diagnostic;
  for (size_t i = 0; glint_report_diagnostic(report, i, &diagnostic); ++i)
    text += std::string(diagnostic.text) + "\n";
  return text;
}

// The C view of every access record equals the C++ report's. With `located`, each
// record must instead name a source line of main's body (lines 7-8 of kComputeShader):
// glint_compile_glsl locates its report; Process on words without OpLine cannot.
void ExpectSameAccesses(const glint_report_t* c_report, const Report& report,
                        bool located = false) {
  ASSERT_EQ(glint_report_access_count(c_report), report.accesses.size());
  for (size_t i = 0; i < report.accesses.size(); ++i) {
    const AccessRecord& want = report.accesses[i];
    glint_access_record_t got;
    ASSERT_EQ(glint_report_access(c_report, i, &got), 1);
    if (located) {
      EXPECT_TRUE(got.line == 7 || got.line == 8) << got.line;
    } else {
      EXPECT_EQ(got.file, want.location.file);
      EXPECT_EQ(got.line, want.location.line);
    }
    EXPECT_EQ(got.instruction, want.instruction);
    EXPECT_EQ(got.object, want.object);
    EXPECT_EQ(got.index_id, want.index_id);
    EXPECT_EQ(got.access_id, want.access_id);
    EXPECT_EQ(got.index_position, want.index_position);
    EXPECT_EQ(got.has_range, want.has_range ? 1 : 0);
    EXPECT_EQ(got.range_min, want.range_min);
    EXPECT_EQ(got.range_max, want.range_max);
    EXPECT_EQ(got.limit, want.limit);
    EXPECT_EQ(got.reason, want.reason);
    EXPECT_STREQ(got.verdict, AccessVerdictText(want.verdict));
    EXPECT_EQ(static_cast<int>(glint_report_access_verdict(c_report, i)),
              static_cast<int>(want.verdict));
    EXPECT_STREQ(glint_report_access_limit_source(c_report, i), AccessLimitText(want.limit_kind));
    uint32_t invocation[3] = {7, 7, 7};
    int64_t value = -7;
    EXPECT_EQ(glint_report_access_out_of_bounds(c_report, i, invocation, &value),
              want.out_of_bounds ? 1 : 0);
    EXPECT_EQ(value, want.out_of_bounds ? want.witness_value : -7);
    EXPECT_EQ(invocation[0], want.out_of_bounds ? want.witness_invocation[0] : 7u);
    EXPECT_EQ(glint_report_access_length_never_read(c_report, i), want.length_never_read ? 1 : 0);
  }
  glint_access_record_t beyond;
  EXPECT_EQ(glint_report_access(c_report, report.accesses.size(), &beyond), 0);
  EXPECT_EQ(glint_report_access_limit_source(c_report, report.accesses.size()), nullptr);
  EXPECT_EQ(glint_report_access_limit_source(nullptr, 0), nullptr);
}

// An index proven out of bounds: the C view gives the invocation and its index; every
// other record, a bad index and a NULL report give 0 and leave the outputs alone.
TEST(CApi, OutOfBoundsWitness_InvocationAndIndex) {
  const char* shader = R"(#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer Data { uint before; uint t[4]; };
void main() { t[gl_LocalInvocationID.x + 1u] = before; }
)";
  OptionsHandle options = RobustCOptions();
  ResultHandle result = CompileC(shader, GLINT_STAGE_COMPUTE, options.get());
  ASSERT_EQ(glint_result_succeeded(result.get()), 1) << AllDiagnostics(result.get());
  const glint_report_t* report = glint_result_report(result.get());
  size_t witnessed = 0;
  for (size_t i = 0; i < glint_report_access_count(report); ++i) {
    uint32_t invocation[3] = {9, 9, 9};
    int64_t value = 0;
    if (!glint_report_access_out_of_bounds(report, i, invocation, &value)) continue;
    ++witnessed;
    EXPECT_EQ(invocation[0], 3u);
    EXPECT_EQ(invocation[1], 0u);
    EXPECT_EQ(invocation[2], 0u);
    EXPECT_EQ(value, 4);
  }
  EXPECT_EQ(witnessed, 1u);
  uint32_t invocation[3] = {9, 9, 9};
  int64_t value = 5;
  EXPECT_EQ(glint_report_access_out_of_bounds(report, glint_report_access_count(report), invocation,
                                              &value),
            0);
  EXPECT_EQ(glint_report_access_out_of_bounds(nullptr, 0, invocation, &value), 0);
  EXPECT_EQ(value, 5);
  EXPECT_EQ(invocation[0], 9u);
}

// A runtime array whose length the shader never reads: 1 for its record only; 0 for the
// one whose length is tested, a bad index and a NULL report.
TEST(CApi, LengthNeverRead_OnlyThatArray) {
  const char* shader = R"(#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer Counts { uint counts[]; };
layout(std430, binding = 1) buffer Items { uint items[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  counts[i] = 1u;
  if (i < uint(items.length())) items[i] = 2u;
}
)";
  OptionsHandle options = RobustCOptions();
  ResultHandle result = CompileC(shader, GLINT_STAGE_COMPUTE, options.get());
  ASSERT_EQ(glint_result_succeeded(result.get()), 1) << AllDiagnostics(result.get());
  const glint_report_t* report = glint_result_report(result.get());
  std::vector<std::string> never_read;
  for (size_t i = 0; i < glint_report_access_count(report); ++i) {
    glint_access_record_t record;
    ASSERT_EQ(glint_report_access(report, i, &record), 1);
    if (glint_report_access_length_never_read(report, i)) never_read.push_back(record.object);
  }
  EXPECT_EQ(never_read, std::vector<std::string>{"Counts"});
  EXPECT_EQ(glint_report_access_length_never_read(report, glint_report_access_count(report)), 0);
  EXPECT_EQ(glint_report_access_length_never_read(nullptr, 0), 0);
}

TEST(CApi, CompileGlsl_MatchesCppApi) {
  OptionsHandle options = RobustCOptions();
  ResultHandle result = CompileC(kComputeShader, GLINT_STAGE_COMPUTE, options.get());
  ASSERT_EQ(glint_result_succeeded(result.get()), 1) << AllDiagnostics(result.get());

  std::vector<uint32_t> expected = test::CompileGlsl(kComputeShader, "comp");
  Report report;
  ASSERT_TRUE(Process(expected, RobustCppOptions(), &report));
  EXPECT_EQ(Words(result.get()), expected);
  EXPECT_GT(report.accesses.size(), 0u);  // so the record-by-record comparison runs
  EXPECT_GT(report.passes.size(), 0u);
  const glint_report_t* c_report = glint_result_report(result.get());
  EXPECT_EQ(glint_report_diagnostic_count(c_report), report.diagnostics.size());
  ExpectSameAccesses(c_report, report, /*located=*/true);
  ASSERT_EQ(glint_report_pass_count(c_report), report.passes.size());
  for (size_t i = 0; i < report.passes.size(); ++i) {
    glint_pass_statistic_t pass;
    ASSERT_EQ(glint_report_pass(c_report, i, &pass), 1);
    EXPECT_EQ(pass.pass, report.passes[i].pass);
    EXPECT_EQ(pass.rewrites, report.passes[i].rewrites);
  }
}

struct TargetCase {
  glint_target_env_t c_target;
  TargetEnv target;
  uint32_t spirv_version;  // the header word glslang writes for this target
};

// "Vulkan1_2": the test's name and what a failure message shows.
std::string TargetName(const TargetCase& c) {
  switch (c.target) {
    case TargetEnv::kOpenGL45:
      return "OpenGL4_5";
    case TargetEnv::kVulkan10:
      return "Vulkan1_0";
    case TargetEnv::kVulkan11:
      return "Vulkan1_1";
    case TargetEnv::kVulkan12:
      return "Vulkan1_2";
    case TargetEnv::kVulkan13:
      return "Vulkan1_3";
    default:
      return "Target" + std::to_string(static_cast<int>(c.target));
  }
}

void PrintTo(const TargetCase& c, std::ostream* out) { *out << TargetName(c); }

class CApiTargets : public ::testing::TestWithParam<TargetCase> {};

TEST_P(CApiTargets, CompileGlsl_ValidatesForItsEnvironment) {
  OptionsHandle options = RobustCOptions(GetParam().c_target);
  ResultHandle result = CompileC(kComputeShader, GLINT_STAGE_COMPUTE, options.get());
  ASSERT_EQ(glint_result_succeeded(result.get()), 1) << AllDiagnostics(result.get());
  std::vector<uint32_t> words = Words(result.get());
  ASSERT_GT(words.size(), 5u);
  EXPECT_EQ(words[1], GetParam().spirv_version);
  EXPECT_EQ(test::ValidateFor(words, GetParam().target), "");
}

INSTANTIATE_TEST_SUITE_P(
    Envs, CApiTargets,
    ::testing::Values(TargetCase{GLINT_TARGET_OPENGL_4_5, TargetEnv::kOpenGL45, 0x10000},
                      TargetCase{GLINT_TARGET_VULKAN_1_0, TargetEnv::kVulkan10, 0x10000},
                      TargetCase{GLINT_TARGET_VULKAN_1_1, TargetEnv::kVulkan11, 0x10300},
                      TargetCase{GLINT_TARGET_VULKAN_1_2, TargetEnv::kVulkan12, 0x10500},
                      TargetCase{GLINT_TARGET_VULKAN_1_3, TargetEnv::kVulkan13, 0x10600}),
    [](const auto& info) { return TargetName(info.param); });

TEST(CApi, CompileGlsl_SyntaxErrorIsADiagnosticWithItsLine) {
  const char* source = "#version 440\nvoid main() {\n  float x = undefined_name;\n}\n";
  ResultHandle result = CompileC(source, GLINT_STAGE_FRAGMENT, nullptr, "bad.frag");
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(glint_result_succeeded(result.get()), 0);
  EXPECT_EQ(glint_result_spirv_size(result.get()), 0u);
  EXPECT_EQ(glint_result_spirv(result.get()), nullptr);
  const glint_report_t* report = glint_result_report(result.get());
  EXPECT_EQ(glint_report_has_errors(report), 1);
  glint_diagnostic_t first;
  ASSERT_EQ(glint_report_diagnostic(report, 0, &first), 1);
  EXPECT_EQ(first.severity, GLINT_SEVERITY_ERROR);
  EXPECT_STREQ(first.origin, "glslang");
  EXPECT_STREQ(first.file, "bad.frag");
  EXPECT_EQ(first.line, 3u);
  EXPECT_NE(std::string(first.message).find("undeclared identifier"), std::string::npos)
      << first.message;
  EXPECT_EQ(std::string(first.text).rfind("ERROR: bad.frag:3: ", 0), 0u) << first.text;
  EXPECT_EQ(first.reason_count, 0u);
  EXPECT_EQ(glint_report_diagnostic_reason(report, 0, 0), nullptr);
}

TEST(CApi, CompileGlsl_LinkErrorIsADiagnostic) {
  const char* source = "#version 440\nvoid helper() {}\n";  // no main: the link fails
  ResultHandle result = CompileC(source, GLINT_STAGE_VERTEX, nullptr);
  EXPECT_EQ(glint_result_succeeded(result.get()), 0);
  EXPECT_NE(AllDiagnostics(result.get()).find("entry point"), std::string::npos)
      << AllDiagnostics(result.get());
}

TEST(CApi, CompileGlsl_RefusesWhatItCannotCompile) {
  OptionsHandle universal(glint_options_create());
  ASSERT_EQ(glint_options_set_target_env(universal.get(), GLINT_TARGET_UNIVERSAL), 1);
  ResultHandle result = CompileC(kComputeShader, GLINT_STAGE_COMPUTE, universal.get());
  EXPECT_EQ(glint_result_succeeded(result.get()), 0);
  EXPECT_NE(AllDiagnostics(result.get()).find("OpenGL 4.5 or Vulkan 1.0-1.3"), std::string::npos);
}

// A C caller's stage 77 (stored by the C translation unit, where that is legal) is read
// as the integer it is and refused by name. The old code loaded it as glint_stage_t,
// which is undefined behaviour: UBSan (the sanitizer CI job) reports "load of value 77";
// without a sanitizer it happened to be refused too, so only that job can fail on it.
TEST(CApi, CompileGlsl_OutOfRangeStageFromCIsRefusedByName) {
  for (int stage : {77, -1, 6, 0x7fffffff}) {
    char texts[1024];
    EXPECT_EQ(glint_c_test_compile_raw_stage(kComputeShader, stage, texts, sizeof texts), 0);
    EXPECT_EQ(std::string(texts),
              "ERROR: glint_compile_glsl: unknown stage " + std::to_string(stage) +
                  " (glint_stage_t is GLINT_STAGE_VERTEX (0) to GLINT_STAGE_COMPUTE (5))\n");
  }
  char texts[1024];
  EXPECT_EQ(
      glint_c_test_compile_raw_stage(kComputeShader, GLINT_STAGE_COMPUTE, texts, sizeof texts), 1)
      << texts;
}

// glslang keeps the name and length arrays given to setStringsWithLengthsAndNames and
// reads them in parse(); they used to be locals of a function that had returned by then
// (stack-use-after-scope). This exercises every read of them: a file name printed in
// messages, and one written into the module by -g. Without a sanitizer the dead stack
// usually still held the right pointers, so the old code mostly passed here; under
// AddressSanitizer (the sanitizer CI job) it is reported on every compile.
TEST(CApi, CompileGlsl_FileNameAndLengthsOutliveTheParse) {
  const char* bad =
      "#version 440\nlayout(local_size_x = 1) in;\nvoid main() {\n  undefined_a = 1;\n}\n";
  ResultHandle failed = CompileC(bad, GLINT_STAGE_COMPUTE, nullptr, "named_source.comp");
  EXPECT_NE(AllDiagnostics(failed.get()).find("ERROR: named_source.comp:4: "), std::string::npos)
      << AllDiagnostics(failed.get());
  glint_glsl_input_t input = {};
  input.source = kComputeShader;
  input.stage = GLINT_STAGE_COMPUTE;
  input.file_name = "named_source.comp";
  input.generate_debug_info = 1;
  ResultHandle debug(glint_compile_glsl(&input, nullptr));
  ASSERT_EQ(glint_result_succeeded(debug.get()), 1) << AllDiagnostics(debug.get());
  std::vector<uint32_t> words = Words(debug.get());
  std::string bytes(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  EXPECT_NE(bytes.find("named_source.comp"), std::string::npos)
      << "-g names the file in an OpString";
}

// glint_compile_glsl (0.1) is glint_compile (0.2) on the equivalent input: the same
// words, diagnostics and records for each stage, with and without -g, and the same
// errors for a source that does not compile.
TEST(CApi, CompileGlsl_IsGlintCompileOnTheSameInput) {
  const char* kVertex =
      "#version 440\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = p; }\n";
  const char* kBroken = "#version 440\nvoid main() { undefined_b = 1; }\n";
  struct Case {
    const char* source;
    glint_stage_t stage;
    int debug;
  } cases[] = {{kComputeShader, GLINT_STAGE_COMPUTE, 0},
               {kComputeShader, GLINT_STAGE_COMPUTE, 1},
               {kVertex, GLINT_STAGE_VERTEX, 1},
               {kBroken, GLINT_STAGE_FRAGMENT, 0}};
  OptionsHandle options = RobustCOptions();
  for (const Case& c : cases) {
    glint_glsl_input_t old_input = {};
    old_input.source = c.source;
    old_input.stage = c.stage;
    old_input.file_name = "same_input.glsl";
    old_input.generate_debug_info = c.debug;
    ResultHandle old_result(glint_compile_glsl(&old_input, options.get()));

    glint_input_t* input = glint_input_create();
    ASSERT_NE(input, nullptr);
    ASSERT_EQ(glint_input_set_source(input, c.source), 1);
    ASSERT_EQ(glint_input_set_stage(input, c.stage), 1);
    ASSERT_EQ(glint_input_set_file_name(input, "same_input.glsl"), 1);
    ASSERT_EQ(glint_input_set_debug_info(
                  input, c.debug ? GLINT_DEBUG_INFO_LINES : GLINT_DEBUG_INFO_DEFAULT),
              1);
    ResultHandle new_result(glint_compile(input, options.get()));
    glint_input_free(input);

    SCOPED_TRACE(std::string(c.source) + " debug " + std::to_string(c.debug));
    EXPECT_EQ(glint_result_succeeded(old_result.get()), glint_result_succeeded(new_result.get()));
    EXPECT_EQ(Words(old_result.get()), Words(new_result.get()));
    EXPECT_EQ(AllDiagnostics(old_result.get()), AllDiagnostics(new_result.get()));
    EXPECT_EQ(glint_report_access_count(glint_result_report(old_result.get())),
              glint_report_access_count(glint_result_report(new_result.get())));
  }
}

// Out-of-range values come from the C translation unit: a C++ cast to the enum would be
// undefined behaviour in the test itself.
TEST(CApi, Options_OutOfRangeEnumsAreRefused) {
  OptionsHandle options(glint_options_create());
  EXPECT_EQ(glint_c_test_set_raw_enums(options.get(), 42, -1, 7), 0);
  EXPECT_EQ(glint_c_test_set_raw_enums(options.get(), 77, 77, 77), 0);
  // The refused target left the default (Vulkan 1.0) in place: SPIR-V 1.0 comes out.
  ResultHandle result = CompileC(kComputeShader, GLINT_STAGE_COMPUTE, options.get());
  ASSERT_EQ(glint_result_succeeded(result.get()), 1) << AllDiagnostics(result.get());
  EXPECT_EQ(Words(result.get())[1], 0x10000u);
}

// layout(constant_id = 3) const uint kOffset = 4u; compiled with and without a value.
TEST(CApi, Options_SpecConstantReachesThePipeline) {
  const char* source = R"(#version 440
layout(local_size_x = 1) in;
layout(constant_id = 3) const uint kOffset = 4u;
layout(std430, binding = 0) buffer Data { uint values[]; };
void main() { values[0] = kOffset; }
)";
  OptionsHandle options(glint_options_create());
  ResultHandle plain = CompileC(source, GLINT_STAGE_COMPUTE, options.get());
  ASSERT_EQ(glint_result_succeeded(plain.get()), 1) << AllDiagnostics(plain.get());
  EXPECT_TRUE(test::FileCheck(test::Disassemble(Words(plain.get())), R"(
    CHECK: OpDecorate %kOffset SpecId 3
    CHECK: %kOffset = OpSpecConstant %uint 4
  )"));
  ASSERT_EQ(glint_options_set_spec_constant(options.get(), 3, 9), 1);
  ResultHandle specialized = CompileC(source, GLINT_STAGE_COMPUTE, options.get());
  ASSERT_EQ(glint_result_succeeded(specialized.get()), 1) << AllDiagnostics(specialized.get());
  std::vector<uint32_t> words = Words(specialized.get());
  EXPECT_TRUE(test::FileCheck(test::Disassemble(words), R"(
    CHECK-NOT: SpecId
    CHECK: %kOffset = OpConstant %uint 9
  )"));
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "");
}

TEST(CApi, ProcessSpirv_MatchesCppApi) {
  const std::vector<uint32_t> input = test::CompileGlsl(kComputeShader, "comp");
  OptionsHandle options = RobustCOptions();
  ResultHandle result(glint_process_spirv(input.data(), input.size(), options.get()));
  ASSERT_EQ(glint_result_succeeded(result.get()), 1) << AllDiagnostics(result.get());
  std::vector<uint32_t> expected = input;
  Report report;
  ASSERT_TRUE(Process(expected, RobustCppOptions(), &report));
  EXPECT_EQ(Words(result.get()), expected);
  ExpectSameAccesses(glint_result_report(result.get()), report);
}

TEST(CApi, ProcessSpirv_MalformedFailsAndLeavesTheInput) {
  const std::vector<uint32_t> valid = test::CompileGlsl(kComputeShader, "comp");
  struct Case {
    std::vector<uint32_t> words;
    const char* message;
  };
  std::vector<Case> cases = {
      {{}, "malformed SPIR-V"},
      {{0x12345678, 0x10000, 0, 5, 0}, "bad magic"},
      {std::vector<uint32_t>(valid.begin(), valid.end() - 3), "truncated stream"},
      {valid, "malformed SPIR-V: word 3: id bound 4294967295 is over 4194303"}};
  cases.back().words[3] = 0xffffffffu;  // an id bound no validator accepts
  // The fuzz smoke's out-of-memory input: a bound near 2^32 with one id far up, which
  // def-use's tables by id would have sized at gigabytes.
  cases.push_back({valid, "id bound 4294967280 is over 4194303, SPIR-V's maximum id bound "
                          "(Glint's input limit kMaxIdBound)"});
  cases.back().words[3] = 0xfffffff0u;
  std::replace(cases.back().words.begin() + 5, cases.back().words.end(), 1u, 155000000u);
  for (const Case& c : cases) {
    const std::vector<uint32_t> before = c.words;
    ResultHandle result(glint_process_spirv(c.words.data(), c.words.size(), nullptr));
    EXPECT_EQ(glint_result_succeeded(result.get()), 0) << c.message;
    EXPECT_EQ(glint_result_spirv_size(result.get()), 0u);
    EXPECT_EQ(c.words, before);
    EXPECT_NE(AllDiagnostics(result.get()).find(c.message), std::string::npos)
        << c.message << ": " << AllDiagnostics(result.get());
  }
}

// A count over the module limit is refused before any word is read: the buffer behind
// it has 5 words (reading the count's worth would run 32 MiB past it), and counts near
// SIZE_MAX would wrap `words + count`.
TEST(CApi, ProcessSpirv_CountOverTheLimitIsRefusedBeforeReading) {
  const uint32_t five[5] = {0x07230203, 0x00010000, 0, 1, 0};
  for (size_t count : {size_t{GLINT_MAX_MODULE_WORDS} + 1, SIZE_MAX / 4, SIZE_MAX - 1, SIZE_MAX}) {
    ResultHandle result(glint_process_spirv(five, count, nullptr));
    ASSERT_NE(result, nullptr);
    EXPECT_EQ(glint_result_succeeded(result.get()), 0);
    EXPECT_EQ(AllDiagnostics(result.get()),
              "ERROR: the module is over Glint's input limit: the module has " +
                  std::to_string(count) +
                  " words, more than 8388608 (32 MiB, Glint's input limit kMaxModuleWords)\n")
        << count;
  }
}

// Running out of memory in-process is named as such (it was "internal error:
// std::bad_alloc"): a macro that doubles 40 times, in a child process whose address
// space may grow by 512 MiB. AddressSanitizer's allocator aborts there instead.
TEST(CApi, OutOfMemoryInProcess_IsNamedNotAnInternalError) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer's allocator aborts on a refused allocation";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "AddressSanitizer's allocator aborts on a refused allocation";
#endif
#endif
  const std::string bomb = test::MacroExplosion();
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    unsigned long long pages = 0;
    FILE* statm = std::fopen("/proc/self/statm", "r");
    if (!statm || std::fscanf(statm, "%llu", &pages) != 1) _exit(3);
    std::fclose(statm);
    rlim_t limit = pages * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + (rlim_t{512} << 20);
    rlimit cap{limit, limit};
    if (setrlimit(RLIMIT_AS, &cap) != 0) _exit(3);
    ResultHandle result = CompileC(bomb.c_str(), GLINT_STAGE_FRAGMENT, nullptr);
    std::string text = AllDiagnostics(result.get());
    bool named = glint_result_succeeded(result.get()) == 0 &&
                 text.find("out of memory: the compile needed more memory than this process "
                           "may allocate") != std::string::npos &&
                 text.find("internal error") == std::string::npos;
    if (!named) std::fprintf(stderr, "%s\n", text.c_str());
    _exit(named ? 0 : 1);
  }
  int status = 0;
  for (int waited = 0; waited < 1200 && waitpid(child, &status, WNOHANG) == 0; ++waited)
    usleep(100000);
  if (waitpid(child, &status, WNOHANG) == 0) {
    kill(child, SIGKILL);
    waitpid(child, &status, 0);
    FAIL() << "still running after 120 s";
  }
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
}

TEST(CApi, ReportFormat_ImpossibleSourceCountWritesNothing) {
  const std::vector<uint32_t> words = test::CompileGlsl(kComputeShader, "comp");
  ResultHandle result(glint_process_spirv(words.data(), words.size(), nullptr));
  const char* name = "a.comp";
  char buffer[8] = "x";
  EXPECT_EQ(glint_report_format(glint_result_report(result.get()), GLINT_REPORT_FORMAT_HTML,
                                nullptr, &name, &name, SIZE_MAX, buffer, sizeof buffer),
            0u);
  EXPECT_STREQ(buffer, "x");
}

TEST(CApi, CTranslationUnit_CompilesLikeCpp) {
  size_t word_count = 0, access_count = 0;
  char first_text[256];
  ASSERT_EQ(glint_c_test_compile(kComputeShader, &word_count, &access_count, first_text,
                                 sizeof first_text),
            1)
      << first_text;
  std::vector<uint32_t> expected = test::CompileGlsl(kComputeShader, "comp");
  Report report;
  ASSERT_TRUE(Process(expected, RobustCppOptions(), &report));
  EXPECT_EQ(word_count, expected.size());
  EXPECT_EQ(access_count, report.accesses.size());
  EXPECT_GT(access_count, 0u);

  EXPECT_EQ(glint_c_test_compile("#version 440\nvoid main() { x = 1; }\n", &word_count,
                                 &access_count, first_text, sizeof first_text),
            0);
  EXPECT_EQ(word_count, 0u);
  EXPECT_EQ(std::string(first_text).rfind("ERROR: c_test.comp:2: ", 0), 0u) << first_text;
}

TEST(CApi, CTranslationUnit_NullHandlesAreSafe) { EXPECT_EQ(glint_c_test_null_calls(), 0); }

// 8 threads compile at once through the C API, sharing one options handle read-only.
TEST(CApi, Threads_ConcurrentCompilesMatchSingleThreaded) {
  const char* kFragmentShader = R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
layout(std140, binding = 1) uniform Palette { vec4 colors[8]; };
void main() { color = colors[index]; }
)";
  const std::pair<const char*, glint_stage_t> kShaders[] = {
      {kComputeShader, GLINT_STAGE_COMPUTE}, {kFragmentShader, GLINT_STAGE_FRAGMENT}};
  OptionsHandle options = RobustCOptions();
  std::vector<std::vector<uint32_t>> expected;
  for (const auto& [source, stage] : kShaders) {
    ResultHandle result = CompileC(source, stage, options.get());
    ASSERT_EQ(glint_result_succeeded(result.get()), 1) << AllDiagnostics(result.get());
    expected.push_back(Words(result.get()));
  }
  const int kThreads = 8, kRounds = 8;
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> workers;
  for (int t = 0; t < kThreads; ++t) {
    workers.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        size_t which = (round + t) % 2;
        ResultHandle result =
            CompileC(kShaders[which].first, kShaders[which].second, options.get());
        if (!glint_result_succeeded(result.get()) || Words(result.get()) != expected[which])
          ++mismatches[t];
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

// ---------------------------------------------------------------------------------
// Each option's effect on what comes out (the setters above are checked for refusals).

ResultHandle CompileWith(const char* source, glint_stage_t stage, const glint_options_t* options) {
  ResultHandle result = CompileC(source, stage, options);
  EXPECT_EQ(glint_result_succeeded(result.get()), 1) << AllDiagnostics(result.get());
  return result;
}

// The statistic of `pass` in a result's report.
glint_pass_statistic_t PassNamed(const glint_result_t* result, const std::string& pass) {
  glint_pass_statistic_t statistic = {};
  for (size_t i = 0; glint_report_pass(glint_result_report(result), i, &statistic); ++i)
    if (pass == statistic.pass) return statistic;
  ADD_FAILURE() << "no statistic for " << pass;
  return {};
}

std::vector<std::string> Verdicts(const glint_result_t* result) {
  std::vector<std::string> verdicts;
  glint_access_record_t access;
  for (size_t i = 0; glint_report_access(glint_result_report(result), i, &access); ++i)
    verdicts.push_back(access.verdict);
  return verdicts;
}

const char* kTableFragment = R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
const float table[4] = float[](1.0, 2.0, 3.0, 4.0);
void main() { color = vec4(table[index & 3]); }
)";

TEST(CApi, Options_HoistConstantTablesOnAndOff) {
  OptionsHandle options(glint_options_create());
  ResultHandle hoisted = CompileWith(kTableFragment, GLINT_STAGE_FRAGMENT, options.get());
  EXPECT_EQ(PassNamed(hoisted.get(), "hoist-constant-tables").changed, 1);
  EXPECT_TRUE(test::FileCheck(test::Disassemble(Words(hoisted.get())), R"(
    CHECK: OpVariable %_ptr_Private__arr_float_uint_4 Private
  )"));
  ASSERT_EQ(glint_options_set_hoist_constant_tables(options.get(), 0), 1);
  ResultHandle kept = CompileWith(kTableFragment, GLINT_STAGE_FRAGMENT, options.get());
  EXPECT_EQ(Words(kept.get()), test::CompileGlsl(kTableFragment, "frag"));  // glslang's own
}

const char* kLoopCompute = R"(#version 440
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data { uint values[8]; uint out_value; };
void main() {
  uint sum = 0u;
  for (int i = 0; i < 8; ++i) sum += values[i];
  out_value = sum;
}
)";

TEST(CApi, Options_RobustAccessAndRangeAnalysisMode) {
  OptionsHandle options(glint_options_create());
  ASSERT_EQ(glint_options_set_collect_ranges(options.get(), 1), 1);
  ResultHandle plain = CompileWith(kLoopCompute, GLINT_STAGE_COMPUTE, options.get());
  EXPECT_EQ(test::Disassemble(Words(plain.get())).find("UMin"), std::string::npos);

  ASSERT_EQ(glint_options_set_robust_access(options.get(), 1), 1);
  ResultHandle proven = CompileWith(kLoopCompute, GLINT_STAGE_COMPUTE, options.get());
  EXPECT_EQ(Verdicts(proven.get()), std::vector<std::string>{"proven in bounds"});
  EXPECT_EQ(Words(proven.get()), Words(plain.get()));  // nothing to clamp

  ASSERT_EQ(glint_options_set_range_analysis(options.get(), GLINT_RANGES_OFF), 1);
  ResultHandle clamped = CompileWith(kLoopCompute, GLINT_STAGE_COMPUTE, options.get());
  EXPECT_EQ(Verdicts(clamped.get()), std::vector<std::string>{"clamped"});
  EXPECT_NE(test::Disassemble(Words(clamped.get())).find("UMin"), std::string::npos);
  EXPECT_EQ(test::ValidateFor(Words(clamped.get()), TargetEnv::kVulkan10), "");

  ASSERT_EQ(glint_options_set_range_analysis(options.get(), GLINT_RANGES_REFERENCE), 1);
  ResultHandle reference = CompileWith(kLoopCompute, GLINT_STAGE_COMPUTE, options.get());
  EXPECT_EQ(Verdicts(reference.get()), std::vector<std::string>{"proven in bounds"});

  ASSERT_EQ(glint_options_set_collect_ranges(options.get(), 0), 1);
  ResultHandle uncollected = CompileWith(kLoopCompute, GLINT_STAGE_COMPUTE, options.get());
  EXPECT_EQ(glint_report_access_count(glint_result_report(uncollected.get())), 0u);
}

TEST(CApi, Options_SubgroupSizeBoundsTheSubgroupInvocationId) {
  const char* source = R"(#version 440
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { uint values[32]; };
void main() { values[gl_SubgroupInvocationID] = 1u; }
)";
  OptionsHandle options = RobustCOptions(GLINT_TARGET_VULKAN_1_1);
  ResultHandle unknown = CompileWith(source, GLINT_STAGE_COMPUTE, options.get());
  EXPECT_EQ(Verdicts(unknown.get()), std::vector<std::string>{"clamped"});
  ASSERT_EQ(glint_options_set_subgroup_size(options.get(), 32), 1);
  ResultHandle known = CompileWith(source, GLINT_STAGE_COMPUTE, options.get());
  EXPECT_EQ(Verdicts(known.get()), std::vector<std::string>{"proven in bounds"});
  ASSERT_EQ(glint_options_set_subgroup_size(options.get(), 64), 1);  // 0..63 may overflow
  ResultHandle larger = CompileWith(source, GLINT_STAGE_COMPUTE, options.get());
  EXPECT_EQ(Verdicts(larger.get()), std::vector<std::string>{"clamped"});
}

// A subgroup size Vulkan cannot report is refused (the setter returns 0).
TEST(CApi, Options_SubgroupSizeIsAPowerOfTwoUpTo128) {
  OptionsHandle options = RobustCOptions(GLINT_TARGET_VULKAN_1_1);
  for (uint32_t size : {0u, 1u, 2u, 64u, 128u})
    EXPECT_EQ(glint_options_set_subgroup_size(options.get(), size), 1) << size;
  for (uint32_t size : {3u, 96u, 256u, 2147483648u, 4294967295u})
    EXPECT_EQ(glint_options_set_subgroup_size(options.get(), size), 0) << size;
}

// The promised largest dispatch reaches the analysis through the C API: tile[4] indexed
// by the workgroup id is proven with 4 groups, clamped with 5 or with the promise reset
// (the first record is the constant component index into gl_WorkGroupID itself).
TEST(CApi, Options_MaxWorkgroupsBoundsTheWorkgroupId) {
  const char* source = R"(#version 440
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Data { uint tile[4]; };
void main() { tile[gl_WorkGroupID.y] = 1u; }
)";
  OptionsHandle options = RobustCOptions(GLINT_TARGET_VULKAN_1_0);
  EXPECT_EQ(glint_options_set_max_workgroups(nullptr, 1, 4, 1), 0);
  EXPECT_EQ(glint_options_set_max_workgroups(options.get(), 1, 0, 1), 0) << "a mix of 0 and not";
  ResultHandle unknown = CompileWith(source, GLINT_STAGE_COMPUTE, options.get());
  EXPECT_EQ(Verdicts(unknown.get()), (std::vector<std::string>{"not clamped", "clamped"}));
  ASSERT_EQ(glint_options_set_max_workgroups(options.get(), 100, 4, 1), 1);
  ResultHandle known = CompileWith(source, GLINT_STAGE_COMPUTE, options.get());
  EXPECT_EQ(Verdicts(known.get()), (std::vector<std::string>{"not clamped", "proven in bounds"}));
  ASSERT_EQ(glint_options_set_max_workgroups(options.get(), 1, 5, 1), 1);  // one group too many
  ResultHandle larger = CompileWith(source, GLINT_STAGE_COMPUTE, options.get());
  EXPECT_EQ(Verdicts(larger.get()), (std::vector<std::string>{"not clamped", "clamped"}));
  ASSERT_EQ(glint_options_set_max_workgroups(options.get(), 0, 0, 0), 1);  // unknown again
  ResultHandle reset = CompileWith(source, GLINT_STAGE_COMPUTE, options.get());
  EXPECT_EQ(Verdicts(reset.get()), (std::vector<std::string>{"not clamped", "clamped"}));
}

// An implicit-LOD sample under a branch on a per-fragment input (line 7).
const char* kNonUniformSample = R"(#version 440
layout(binding = 0) uniform sampler2D image;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
  color = vec4(0.0);
  if (uv.x > 0.5) color = texture(image, uv);
}
)";

TEST(CApi, Options_UniformitySeverity) {
  OptionsHandle options(glint_options_create());
  ResultHandle warned = CompileWith(kNonUniformSample, GLINT_STAGE_FRAGMENT, options.get());
  const glint_report_t* report = glint_result_report(warned.get());
  ASSERT_EQ(glint_report_diagnostic_count(report), 1u) << AllDiagnostics(warned.get());
  glint_diagnostic_t warning;
  ASSERT_EQ(glint_report_diagnostic(report, 0, &warning), 1);
  EXPECT_EQ(warning.severity, GLINT_SEVERITY_WARNING);
  EXPECT_STREQ(warning.origin, "uniformity");
  EXPECT_EQ(warning.line, 7u);  // located without -g
  ASSERT_GT(warning.reason_count, 0u);
  for (size_t r = 0; r < warning.reason_count; ++r)
    EXPECT_NE(glint_report_diagnostic_reason(report, 0, r), nullptr);
  EXPECT_EQ(glint_report_diagnostic_reason(report, 0, warning.reason_count), nullptr);
  EXPECT_NE(std::string(warning.text).find("\n    "), std::string::npos) << "reasons in the text";

  ASSERT_EQ(glint_options_set_uniformity(options.get(), GLINT_SEVERITY_ERROR), 1);
  ResultHandle refused = CompileC(kNonUniformSample, GLINT_STAGE_FRAGMENT, options.get());
  EXPECT_EQ(glint_result_succeeded(refused.get()), 0);
  EXPECT_EQ(glint_report_has_errors(glint_result_report(refused.get())), 1);

  ASSERT_EQ(glint_options_set_uniformity(options.get(), GLINT_SEVERITY_OFF), 1);
  ResultHandle quiet = CompileWith(kNonUniformSample, GLINT_STAGE_FRAGMENT, options.get());
  EXPECT_EQ(glint_report_diagnostic_count(glint_result_report(quiet.get())), 0u);
  EXPECT_EQ(Words(quiet.get()), Words(warned.get()));  // reports never change the output
}

TEST(CApi, Options_UniformityFiltersSilenceAndReportWhatTheySilenced) {
  OptionsHandle options(glint_options_create());
  EXPECT_EQ(glint_options_add_uniformity_filter(options.get(), GLINT_UNIFORMITY_FILTER_OFF,
                                                "a.frag:0"),
            0);
  EXPECT_EQ(glint_options_add_uniformity_filter(options.get(), 3, "main"), 0);
  EXPECT_EQ(glint_options_add_uniformity_filter(options.get(), -1, "main"), 0);
  EXPECT_EQ(glint_options_add_uniformity_filter(options.get(), GLINT_UNIFORMITY_FILTER_OFF, NULL),
            0);
  EXPECT_EQ(glint_options_add_uniformity_filter(NULL, GLINT_UNIFORMITY_FILTER_OFF, "main"), 0);
  ASSERT_EQ(glint_options_add_uniformity_filter(options.get(), GLINT_UNIFORMITY_FILTER_OFF,
                                                "sample.frag:7=the branch is per draw"),
            1);
  ResultHandle result =
      CompileC(kNonUniformSample, GLINT_STAGE_FRAGMENT, options.get(), "sample.frag");
  ASSERT_EQ(glint_result_succeeded(result.get()), 1);
  const glint_report_t* report = glint_result_report(result.get());
  EXPECT_EQ(glint_report_diagnostic_count(report), 0u) << AllDiagnostics(result.get());
  ASSERT_EQ(glint_report_suppressed_count(report), 1u);
  const char *message = nullptr, *rule = nullptr, *file = nullptr, *filter = nullptr,
             *justification = nullptr;
  uint32_t line = 0;
  ASSERT_EQ(
      glint_report_suppressed(report, 0, &message, &rule, &file, &line, &filter, &justification),
      1);
  EXPECT_NE(std::string(message).find("implicit-LOD texture sample"), std::string::npos);
  EXPECT_STREQ(rule, "uniformity/implicit-lod");
  EXPECT_STREQ(file, "sample.frag");
  EXPECT_EQ(line, 7u);
  EXPECT_STREQ(filter, "--uniformity-off=sample.frag:7");
  EXPECT_STREQ(justification, "the branch is per draw");
  EXPECT_EQ(glint_report_suppressed(report, 1, &message, nullptr, nullptr, nullptr, nullptr,
                                    nullptr),
            0);
  EXPECT_EQ(glint_report_suppressed(nullptr, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
                                    nullptr),
            0);
  EXPECT_EQ(glint_report_suppressed_count(nullptr), 0u);
  // A filter never changes the output.
  ResultHandle unfiltered = CompileC(kNonUniformSample, GLINT_STAGE_FRAGMENT, nullptr, "sample.frag");
  EXPECT_EQ(Words(result.get()), Words(unfiltered.get()));
}

TEST(CApi, Options_ValidateChecksTheTargetEnvironment) {
  // SPIR-V 1.3 (glslang for Vulkan 1.1) is not valid for a Vulkan 1.0 target.
  const std::vector<uint32_t> input = test::CompileGlsl(kComputeShader, "comp", "vulkan1.1");
  OptionsHandle options(glint_options_create());
  ResultHandle unchecked(glint_process_spirv(input.data(), input.size(), options.get()));
  EXPECT_EQ(glint_result_succeeded(unchecked.get()), 1) << AllDiagnostics(unchecked.get());
  ASSERT_EQ(glint_options_set_validate(options.get(), 1), 1);
  // The default target is the input's: a bare module validates as its own version.
  ResultHandle from_input(glint_process_spirv(input.data(), input.size(), options.get()));
  EXPECT_EQ(glint_result_succeeded(from_input.get()), 1) << AllDiagnostics(from_input.get());
  ASSERT_EQ(glint_options_set_target_env(options.get(), GLINT_TARGET_VULKAN_1_0), 1);
  ResultHandle checked(glint_process_spirv(input.data(), input.size(), options.get()));
  EXPECT_EQ(glint_result_succeeded(checked.get()), 0);
  glint_diagnostic_t error;
  ASSERT_EQ(glint_report_diagnostic(glint_result_report(checked.get()), 0, &error), 1);
  EXPECT_STREQ(error.origin, "spirv-val");
  ASSERT_EQ(glint_options_set_target_env(options.get(), GLINT_TARGET_VULKAN_1_1), 1);
  ResultHandle matching(glint_process_spirv(input.data(), input.size(), options.get()));
  EXPECT_EQ(glint_result_succeeded(matching.get()), 1) << AllDiagnostics(matching.get());
}

// The 0.2 input builder from a C translation unit: HLSL with a define.
TEST(CApi, CTranslationUnit_InputBuilderCompilesHlsl) {
  const char* source = "float4 main(float4 p : SV_Position) : SV_Target { return p * SCALE; }\n";
  size_t word_count = 0;
  char first_text[256];
  EXPECT_EQ(glint_c_test_compile_hlsl(source, "0.5", &word_count, first_text, sizeof first_text), 1)
      << first_text;
  EXPECT_GT(word_count, 5u);
  EXPECT_EQ(glint_c_test_compile_hlsl(source, "+", &word_count, first_text, sizeof first_text), 0);
  EXPECT_EQ(word_count, 0u);
  EXPECT_EQ(std::string(first_text).rfind("ERROR: c_test.hlsl:1: ", 0), 0u) << first_text;
}

}  // namespace
}  // namespace glint
