// Tests of glint::CompileGlslIsolated (glint/isolated.h) and its C form
// glint_compile_glsl_isolated: the worker's answer equals the in-process compile
// (words, diagnostics, records, statistics), glslang's crash on an input it cannot
// handle (Test/crashers/) and a runaway compile become one error each while the caller lives on,
// limits and the worker path are honoured, and the protocol refuses malformed bytes.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "glint/glint_c.h"
#include "glint/isolated.h"
#include "glslang/worker/wire_format.h"
#include "glslang/worker/worker_protocol.h"
#include "support/test_support.h"

namespace glint {
namespace {

const char* kTableShader = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
const uint table[8] = uint[](1u, 2u, 3u, 5u, 8u, 13u, 21u, 34u);
void main() {
  uint i = gl_GlobalInvocationID.x;
  values[i] = table[values[i] & 7u] + values[i + 1u];
}
)";

IsolationOptions Isolation(uint32_t timeout_ms = 20000) {
  IsolationOptions isolation;
  isolation.worker_path = test::BinaryDir() + "/glslang/glint-compile";
  isolation.timeout_ms = timeout_ms;
  return isolation;
}

Options RobustOptions() {
  Options options;
  options.robust_access = true;
  options.collect_ranges = true;
  options.validate = true;
  return options;
}

struct InProcess {
  bool ok = false;
  std::vector<uint32_t> words;
  std::vector<std::string> texts;
  size_t accesses = 0, passes = 0;
};

InProcess CompileInProcess(const std::string& source, glint_stage_t stage, bool robust) {
  glint_options_t* options = glint_options_create();
  glint_options_set_robust_access(options, robust);
  glint_options_set_collect_ranges(options, robust);
  glint_options_set_validate(options, 1);
  glint_glsl_input_t input{source.c_str(), stage, nullptr, "shader.comp", 0};
  glint_result_t* result = glint_compile_glsl(&input, options);
  InProcess out;
  out.ok = glint_result_succeeded(result);
  const uint32_t* words = glint_result_spirv(result);
  out.words.assign(words, words + glint_result_spirv_size(result));
  const glint_report_t* report = glint_result_report(result);
  for (size_t i = 0; i < glint_report_diagnostic_count(report); ++i) {
    glint_diagnostic_t d;
    glint_report_diagnostic(report, i, &d);
    out.texts.push_back(d.text);
  }
  out.accesses = glint_report_access_count(report);
  out.passes = glint_report_pass_count(report);
  glint_result_free(result);
  glint_options_free(options);
  return out;
}

TEST(CompileGlslIsolated, SameWordsAndReportAsInProcess) {
  GlslInput input{kTableShader, GlslStage::kCompute, "", "shader.comp", false};
  std::vector<uint32_t> words;
  Report report;
  ASSERT_TRUE(CompileGlslIsolated(input, RobustOptions(), Isolation(), words, &report));
  InProcess reference = CompileInProcess(kTableShader, GLINT_STAGE_COMPUTE, true);
  ASSERT_TRUE(reference.ok);
  EXPECT_EQ(words, reference.words);
  ASSERT_EQ(report.diagnostics.size(), reference.texts.size());
  for (size_t i = 0; i < report.diagnostics.size(); ++i)
    EXPECT_EQ(FormatDiagnostic(report.diagnostics[i]), reference.texts[i]);
  EXPECT_EQ(report.accesses.size(), reference.accesses);
  EXPECT_GT(report.accesses.size(), 0u);
  EXPECT_EQ(report.passes.size(), reference.passes);
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "");
}

// An index proven out of bounds comes back with its invocation and index.
TEST(CompileGlslIsolated, OutOfBoundsWitnessCrossesTheWire) {
  const char* source = R"(#version 450
layout(local_size_x = 4, local_size_y = 2) in;
layout(std430, binding = 0) buffer Data { uint t[7]; };
void main() { t[gl_LocalInvocationIndex] = 1u; }
)";
  GlslInput input{source, GlslStage::kCompute, "", "w.comp", false};
  std::vector<uint32_t> words;
  Report report;
  ASSERT_TRUE(CompileGlslIsolated(input, RobustOptions(), Isolation(), words, &report));
  ASSERT_EQ(report.accesses.size(), 1u);
  const AccessRecord& record = report.accesses[0];
  EXPECT_TRUE(record.out_of_bounds);
  EXPECT_EQ(record.witness_invocation, (std::array<uint32_t, 3>{3, 1, 0}));
  EXPECT_EQ(record.witness_value, 7);
}

// Uniformity filters reach the worker, and what they silenced comes back.
TEST(CompileGlslIsolated, UniformityFiltersCrossTheWire) {
  const char* source = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint count; } data;
void main() {
  if (data.count > 1u) {
    barrier();
  }
}
)";
  GlslInput input{source, GlslStage::kCompute, "", "w.comp", false};
  Options options;
  UniformityFilter filter;
  std::string error;
  ASSERT_TRUE(ParseUniformityFilter(UniformityFilterAction::kOff, "w.comp:6=reviewed", &filter,
                                    &error))
      << error;
  options.uniformity_filters = {filter};
  std::vector<uint32_t> words;
  Report report;
  ASSERT_TRUE(CompileGlslIsolated(input, options, Isolation(), words, &report));
  EXPECT_TRUE(report.diagnostics.empty()) << FormatDiagnostic(report.diagnostics[0]);
  ASSERT_EQ(report.suppressed.size(), 1u);
  EXPECT_EQ(report.suppressed[0].diagnostic.location.line, 6u);
  EXPECT_EQ(report.suppressed[0].filter, "--uniformity-off=w.comp:6");
  EXPECT_EQ(report.suppressed[0].justification, "reviewed");
}

TEST(CompileGlslIsolated, GlslangErrorIsTheSameDiagnostic) {
  const std::string bad = "#version 440\nvoid main() { undeclared = 1; }\n";
  GlslInput input{bad, GlslStage::kFragment, "", "shader.comp", false};
  std::vector<uint32_t> words{7};
  Report report;
  EXPECT_FALSE(CompileGlslIsolated(input, Options(), Isolation(), words, &report));
  EXPECT_EQ(words, std::vector<uint32_t>{7});  // left as it was
  InProcess reference = CompileInProcess(bad, GLINT_STAGE_FRAGMENT, false);
  ASSERT_EQ(report.diagnostics.size(), reference.texts.size());
  for (size_t i = 0; i < reference.texts.size(); ++i)
    EXPECT_EQ(FormatDiagnostic(report.diagnostics[i]), reference.texts[i]);
  EXPECT_NE(reference.texts.front().find("undeclared"), std::string::npos);
}

// glslang 12 reads past a nested empty initializer list (Test/crashers/): in-process this kills the
// caller; isolated it is one error.
TEST(CompileGlslIsolated, GlslangCrashIsOneError) {
  std::string source =
      test::ReadFile(test::SourceRoot() + "/Test/crashers/nested_empty_initializer.vert");
  ASSERT_FALSE(source.empty());
  GlslInput input{source, GlslStage::kVertex, "", "null.vert", false};
  std::vector<uint32_t> words;
  Report report;
  EXPECT_FALSE(CompileGlslIsolated(input, Options(), Isolation(), words, &report));
  ASSERT_FALSE(report.diagnostics.empty());
  const Diagnostic& last = report.diagnostics.back();
  EXPECT_EQ(last.origin, "isolation");
  EXPECT_EQ(last.message,
            "internal error in glslang 12 (signal SIGSEGV) while compiling; no output");
  EXPECT_TRUE(words.empty());
}

// The in-process contrast, in a child so the test survives it.
TEST(CompileGlslIsolated, TheSameInputCrashesInProcess) {
  std::string source =
      test::ReadFile(test::SourceRoot() + "/Test/crashers/nested_empty_initializer.vert");
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    glint_glsl_input_t input{source.c_str(), GLINT_STAGE_VERTEX, nullptr, nullptr, 0};
    glint_result_free(glint_compile_glsl(&input, nullptr));
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status)) << "glslang 12 no longer crashes here: update the test";
}

TEST(CompileGlslIsolated, TimeLimitEndsARunawayCompile) {
  GlslInput input{test::RunawayStatements(), GlslStage::kFragment, "", "", false};
  std::vector<uint32_t> words;
  Report report;
  uint64_t start = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::steady_clock::now().time_since_epoch())
                       .count();
  EXPECT_FALSE(CompileGlslIsolated(input, Options(), Isolation(300), words, &report));
  uint64_t took = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count() -
                  start;
  ASSERT_FALSE(report.diagnostics.empty());
  EXPECT_EQ(report.diagnostics.back().message,
            "compile exceeded the time limit of 300 ms; no output");
  EXPECT_LT(took, 5000u);
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kUnderAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kUnderAddressSanitizer = true;
#else
constexpr bool kUnderAddressSanitizer = false;
#endif
#else
constexpr bool kUnderAddressSanitizer = false;
#endif

TEST(CompileGlslIsolated, MemoryLimitIsAnErrorNotACrashOfTheCaller) {
  if (kUnderAddressSanitizer)  // the worker sets no RLIMIT_AS there (compile_worker.cpp)
    GTEST_SKIP() << "AddressSanitizer's shadow memory reserves more than any useful limit";
  GlslInput input{test::MacroExplosion(), GlslStage::kFragment, "", "", false};
  IsolationOptions isolation = Isolation();
  isolation.memory_limit_bytes = 400u << 20;  // the 256 MB big stack still fits
  std::vector<uint32_t> words;
  Report report;
  EXPECT_FALSE(CompileGlslIsolated(input, Options(), isolation, words, &report));
  ASSERT_FALSE(report.diagnostics.empty());
  EXPECT_EQ(report.diagnostics.back().severity, Severity::kError);
  EXPECT_EQ(report.diagnostics.back().message.find("time limit"), std::string::npos)
      << "ended by the time limit, not the memory limit";
}

TEST(CompileGlslIsolated, MissingWorkerIsAnError) {
  IsolationOptions isolation = Isolation();
  isolation.worker_path = "/nonexistent/glint-compile";
  GlslInput input{kTableShader, GlslStage::kCompute, "", "", false};
  std::vector<uint32_t> words;
  Report report;
  EXPECT_FALSE(CompileGlslIsolated(input, Options(), isolation, words, &report));
  ASSERT_EQ(report.diagnostics.size(), 1u);
  EXPECT_EQ(report.diagnostics[0].message.rfind("cannot start the compile worker /nonexistent/", 0),
            0u)
      << report.diagnostics[0].message;
}

TEST(CompileGlslIsolated, WorkerPathFromOptionThenEnvironment) {
  IsolationOptions isolation;
  setenv("GLINT_COMPILE_WORKER", "/from/environment", 1);
  EXPECT_EQ(CompileWorkerPath(isolation), "/from/environment");
  isolation.worker_path = "/from/option";
  EXPECT_EQ(CompileWorkerPath(isolation), "/from/option");
  unsetenv("GLINT_COMPILE_WORKER");
  isolation.worker_path.clear();
  EXPECT_EQ(CompileWorkerPath(isolation).substr(CompileWorkerPath(isolation).size() - 14),
            "/glint-compile");
}

TEST(CompileGlslIsolated, ManyThreadsAtOnce) {
  std::vector<std::thread> threads;
  std::vector<int> ok(6, 0);
  for (int t = 0; t < 6; ++t)
    threads.emplace_back([&, t] {
      GlslInput input{kTableShader, GlslStage::kCompute, "", "", false};
      std::vector<uint32_t> words;
      ok[t] = CompileGlslIsolated(input, RobustOptions(), Isolation(), words, nullptr) &&
              test::ValidateFor(words, TargetEnv::kVulkan10).empty();
    });
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(ok, std::vector<int>(6, 1));
}

TEST(CompileGlslIsolatedC, CrashAndSuccessThroughTheCApi) {
  const std::string worker = test::BinaryDir() + "/glslang/glint-compile";
  glint_glsl_input_t good{kTableShader, GLINT_STAGE_COMPUTE, nullptr, nullptr, 0};
  glint_result_t* result = glint_compile_glsl_isolated(&good, nullptr, worker.c_str(), 20000, 0);
  EXPECT_TRUE(glint_result_succeeded(result));
  EXPECT_GT(glint_result_spirv_size(result), 5u);
  glint_result_free(result);
  std::string crash =
      test::ReadFile(test::SourceRoot() + "/Test/crashers/nested_empty_initializer.vert");
  glint_glsl_input_t bad{crash.c_str(), GLINT_STAGE_VERTEX, nullptr, nullptr, 0};
  result = glint_compile_glsl_isolated(&bad, nullptr, worker.c_str(), 20000, 0);
  EXPECT_FALSE(glint_result_succeeded(result));
  const glint_report_t* report = glint_result_report(result);
  glint_diagnostic_t d;
  ASSERT_EQ(glint_report_diagnostic(report, glint_report_diagnostic_count(report) - 1, &d), 1);
  EXPECT_STREQ(d.text,
               "ERROR: internal error in glslang 12 (signal SIGSEGV) while compiling; no output");
  glint_result_free(result);
}

TEST(CompileGlslIsolatedC, UnknownStageRefusedBeforeSpawning) {
  glint_glsl_input_t input{kTableShader, GLINT_STAGE_COMPUTE, nullptr, nullptr, 0};
  int bad_stage = 77;
  std::memcpy(&input.stage, &bad_stage, sizeof bad_stage);
  glint_result_t* result = glint_compile_glsl_isolated(&input, nullptr, "/nonexistent", 0, 0);
  glint_diagnostic_t d;
  ASSERT_EQ(glint_report_diagnostic(glint_result_report(result), 0, &d), 1);
  EXPECT_STREQ(d.message, "glint_compile_glsl_isolated: unknown stage 77");
  glint_result_free(result);
}

TEST(WorkerProtocol, RoundTripsAndRefusesMalformedBytes) {
  worker::Request request;
  request.input.has_source = request.input.has_stage = true;
  request.input.source = "src";
  request.input.file_name = "file";
  request.input.stage = EShLangGeometry;
  request.input.entry_point = "entry";
  request.input.binding_shift_for_set[glslang::EResUbo][2] = 20;
  request.input.debug = GLINT_DEBUG_INFO_NON_SEMANTIC;
  request.options.spec_constants[3] = 9;
  request.options.range_analysis = RangeAnalysisMode::kReference;
  request.options.max_workgroups = {7, 1, 65536};
  request.options.validator_layouts.scalar_block_layout = true;
  UniformityFilter lines;
  lines.action = UniformityFilterAction::kNote;
  lines.file = "a.comp";
  lines.first_line = 3;
  lines.last_line = 9;
  lines.justification = "why";
  UniformityFilter promise;
  promise.action = UniformityFilterAction::kAssumeUniform;
  promise.function = "f";
  request.options.uniformity_filters = {lines, promise};
  request.memory_limit_bytes = 123;
  std::string bytes = worker::EncodeRequest(request);
  worker::Request decoded;
  ASSERT_TRUE(worker::DecodeRequest(bytes, &decoded));
  EXPECT_EQ(decoded.input.entry_point, "entry");
  EXPECT_EQ(decoded.input.stage, EShLangGeometry);
  EXPECT_EQ(decoded.input.debug, GLINT_DEBUG_INFO_NON_SEMANTIC);
  EXPECT_EQ(decoded.input.binding_shift_for_set[glslang::EResUbo].at(2), 20u);
  EXPECT_EQ(decoded.options.spec_constants.at(3), 9u);
  EXPECT_EQ(decoded.options.max_workgroups, (std::array<uint32_t, 3>{7, 1, 65536}));
  EXPECT_TRUE(decoded.options.validator_layouts.scalar_block_layout);
  ASSERT_EQ(decoded.options.uniformity_filters.size(), 2u);
  const UniformityFilter& read_lines = decoded.options.uniformity_filters[0];
  EXPECT_EQ(read_lines.action, UniformityFilterAction::kNote);
  EXPECT_EQ(read_lines.file, "a.comp");
  EXPECT_EQ(read_lines.first_line, 3u);
  EXPECT_EQ(read_lines.last_line, 9u);
  EXPECT_EQ(read_lines.justification, "why");
  EXPECT_EQ(decoded.options.uniformity_filters[1].action, UniformityFilterAction::kAssumeUniform);
  EXPECT_EQ(decoded.options.uniformity_filters[1].function, "f");
  EXPECT_EQ(decoded.memory_limit_bytes, 123u);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    worker::Request partial;
    EXPECT_FALSE(worker::DecodeRequest(bytes.substr(0, cut), &partial)) << cut;
  }
  worker::Request extra;
  EXPECT_FALSE(worker::DecodeRequest(bytes + "x", &extra));
  std::string bad_stage = bytes;
  // has_source, "src", "file", hlsl, has_stage: the stage starts at byte 18.
  bad_stage[18] = static_cast<char>(EShLangCount);
  EXPECT_FALSE(worker::DecodeRequest(bad_stage, &extra));
}

// A failed compile answers with no words: reading an empty word array must not hand
// memcpy the null storage of an empty vector (found by glsl_isolated_fuzzer; UBSan in
// the sanitizer job reports it, a plain build does not notice).
TEST(WorkerProtocol, EmptyWordArrayRoundTrips) {
  wire::Writer writer;
  writer.Words({});
  writer.U32(7);
  wire::Reader reader(writer.bytes());
  std::vector<uint32_t> words;  // no storage, as in a fresh response
  uint32_t after = 0;
  EXPECT_TRUE(reader.Words(&words));
  EXPECT_TRUE(words.empty());
  EXPECT_TRUE(reader.U32(&after));
  EXPECT_EQ(after, 7u);
  EXPECT_TRUE(reader.Done());
}

}  // namespace
}  // namespace glint
