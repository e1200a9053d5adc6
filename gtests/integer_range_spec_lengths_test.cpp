// Tests of indices proven below an array length that is a specialization constant, for
// every value the application may give it (SPIRV/analysis/range/integer_range_spec_lengths.cpp):
// the workgroup's own invocation id where the workgroup and the array are sized by one
// constant ID, and indices tested against the length. Each sound form has its trap
// beside it, a near-miss that some specialization (or none) really takes out of bounds:
// a workgroup size whose default is larger, a length under another constant ID, a literal
// workgroup size, `<=`, a signed test on a possibly negative index. Robust access runs in
// full mode; each output validates in every target environment.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "glint/glint.h"
#include "support/test_support.h"

namespace glint {
namespace {

struct Environment {
  const char* glslang_env;
  TargetEnv target;
};
const Environment kEnvironments[] = {
    {"vulkan1.0", TargetEnv::kVulkan10}, {"vulkan1.1", TargetEnv::kVulkan11},
    {"spirv1.4", TargetEnv::kVulkan11},  {"vulkan1.2", TargetEnv::kVulkan12},
    {"vulkan1.3", TargetEnv::kVulkan13}, {"opengl", TargetEnv::kOpenGL45}};

// The verdicts of the accesses into `object`, in the report's order, for `source`
// compiled for `env` with robust access in `mode`; the output must validate there.
std::vector<AccessVerdict> Verdicts(const std::string& source, const std::string& object,
                                    const Environment& env,
                                    RangeAnalysisMode mode = RangeAnalysisMode::kFull) {
  std::vector<uint32_t> words = test::CompileGlsl(source, "comp", env.glslang_env);
  Options options;
  options.robust_access = true;
  options.range_analysis = mode;
  options.collect_ranges = true;
  options.target_env = env.target;
  Report report;
  EXPECT_TRUE(Process(words, options, &report)) << env.glslang_env;
  EXPECT_EQ(test::ValidateFor(words, env.target), "") << env.glslang_env;
  std::vector<AccessVerdict> verdicts;
  for (const AccessRecord& record : report.accesses) {
    if (record.object != object) continue;
    EXPECT_EQ(record.limit_kind, AccessLimit::kSpecializationConstant);
    verdicts.push_back(record.verdict);
  }
  return verdicts;
}

constexpr AccessVerdict kProven = AccessVerdict::kProvenInBounds;
constexpr AccessVerdict kClamped = AccessVerdict::kClamped;
using Verdicts_ = std::vector<AccessVerdict>;

// `layout_line` declares the workgroup; `decls` the constants and arrays; `body` main's.
std::string Kernel(const std::string& layout_line, const std::string& decls,
                   const std::string& body) {
  return "#version 450\n" + layout_line + "\n" + decls +
         "\nlayout(std430, binding = 0) buffer Data { uint data[]; };\nvoid main() {\n" + body +
         "\n}\n";
}

const char kBlock[] = "layout(constant_id = 0) const uint BLOCK = 32;\nshared uint tmp[BLOCK];";

TEST(SpecializedLengths, WorkgroupSizedByTheLengthsConstant_InvocationIdProven) {
  for (const Environment& env : kEnvironments) {
    SCOPED_TRACE(env.glslang_env);
    // glslang gives the workgroup size a constant of its own with SpecId 0 (default 1).
    EXPECT_EQ(Verdicts(Kernel("layout(local_size_x_id = 0) in;", kBlock,
                              "tmp[gl_LocalInvocationID.x] = 1u;\n"
                              "uint tid = gl_LocalInvocationID.x;\ntmp[tid] += 2u;"),
                       "tmp", env),
              (Verdicts_{kProven, kProven, kProven}));
    // Reference mode keeps to index 0.
    EXPECT_EQ(Verdicts(Kernel("layout(local_size_x_id = 0) in;", kBlock,
                              "tmp[gl_LocalInvocationID.x] = 1u;"),
                       "tmp", env, RangeAnalysisMode::kReference),
              (Verdicts_{kClamped}));
  }
}

// A helper given the invocation's id at every call, by value (`const in`) or through
// glslang's argument variable (`in`), through a helper that passes it on.
TEST(SpecializedLengths, HelperGivenTheInvocationIdAtEveryCall_Proven) {
  const std::string decls = std::string(kBlock) +
                            "\nvoid byValue(const in uint t) { tmp[t] = 1u; }\n"
                            "void byVariable(uint t) { tmp[t] = 2u; }\n"
                            "void relay(const in uint t) { byValue(t); }";
  for (const Environment& env : kEnvironments) {
    SCOPED_TRACE(env.glslang_env);
    EXPECT_EQ(Verdicts(Kernel("layout(local_size_x_id = 0) in;", decls,
                              "uint tid = gl_LocalInvocationID.x;\nbyValue(tid);\n"
                              "byVariable(gl_LocalInvocationID.x);\nrelay(tid);"),
                       "tmp", env),
              (Verdicts_{kProven, kProven}));
  }
}

// One call gives the helper another value.
TEST(SpecializedLengths, TrapHelperGivenAnotherValueAtOneCall) {
  const std::string decls =
      std::string(kBlock) + "\nvoid byValue(const in uint t) { tmp[t] = 1u; }";
  EXPECT_EQ(Verdicts(Kernel("layout(local_size_x_id = 0) in;", decls,
                            "byValue(gl_LocalInvocationID.x);\n"
                            "byValue(gl_LocalInvocationID.x + 1u);"),
                     "tmp", kEnvironments[0]),
            (Verdicts_{kClamped}));
}

// Unspecialized, the workgroup is 64 wide and the array 32 long.
TEST(SpecializedLengths, TrapWorkgroupDefaultAboveTheLengths) {
  EXPECT_EQ(Verdicts(Kernel("layout(local_size_x = 64, local_size_x_id = 0) in;", kBlock,
                            "tmp[gl_LocalInvocationID.x] = 1u;"),
                     "tmp", kEnvironments[0]),
            (Verdicts_{kClamped}));
  // Equal defaults: at most in every specialization.
  EXPECT_EQ(Verdicts(Kernel("layout(local_size_x = 32, local_size_x_id = 0) in;", kBlock,
                            "tmp[gl_LocalInvocationID.x] = 1u;"),
                     "tmp", kEnvironments[0]),
            (Verdicts_{kProven}));
}

// The application may give constant 1 a value below the workgroup's.
TEST(SpecializedLengths, TrapLengthUnderAnotherConstantId) {
  EXPECT_EQ(Verdicts(Kernel("layout(local_size_x_id = 0) in;",
                            "layout(constant_id = 0) const uint BLOCK = 32;\n"
                            "layout(constant_id = 1) const uint OTHER = 32;\n"
                            "shared uint other[OTHER];",
                            "other[gl_LocalInvocationID.x] = 1u;"),
                     "other", kEnvironments[0]),
            (Verdicts_{kClamped}));
}

// A literal size: BLOCK may be specialized below 32.
TEST(SpecializedLengths, TrapLiteralWorkgroupSize) {
  EXPECT_EQ(
      Verdicts(Kernel("layout(local_size_x = 32) in;", kBlock, "tmp[gl_LocalInvocationID.x] = 1u;"),
               "tmp", kEnvironments[0]),
      (Verdicts_{kClamped}));
  // The y component of a workgroup sized only in x by the constant.
  EXPECT_EQ(Verdicts(Kernel("layout(local_size_x_id = 0, local_size_y = 2) in;", kBlock,
                            "tmp[gl_LocalInvocationID.y] = 1u;"),
                     "tmp", kEnvironments[0]),
            (Verdicts_{kClamped}));
}

TEST(SpecializedLengths, GuardAgainstTheLength_Proven) {
  for (const Environment& env : kEnvironments) {
    SCOPED_TRACE(env.glslang_env);
    EXPECT_EQ(Verdicts(Kernel("layout(local_size_x = 64) in;", kBlock,
                              "uint idx = data[0];\nif (idx < BLOCK) tmp[idx] = 3u;\n"
                              "for (uint i = gl_LocalInvocationID.x; i < BLOCK; i += 64u) "
                              "tmp[i] = 4u;\n"
                              "if (BLOCK > idx) tmp[idx] = 5u;\n"
                              "if (idx >= BLOCK) return;\ntmp[idx] = 6u;"),
                       "tmp", env),
              (Verdicts_{kProven, kProven, kProven, kProven}));
  }
}

TEST(SpecializedLengths, TrapGuardsThatAreNotBelowTheLength) {
  // <= lets idx be the length itself.
  EXPECT_EQ(Verdicts(Kernel("layout(local_size_x = 64) in;", kBlock,
                            "uint idx = data[0];\nif (idx <= BLOCK) tmp[idx] = 3u;"),
                     "tmp", kEnvironments[0]),
            (Verdicts_{kClamped}));
  // Another constant ID with the same default.
  EXPECT_EQ(Verdicts(Kernel("layout(local_size_x = 64) in;",
                            std::string(kBlock) + "\nlayout(constant_id = 1) const uint N = 32;",
                            "uint idx = data[0];\nif (idx < N) tmp[idx] = 3u;"),
                     "tmp", kEnvironments[0]),
            (Verdicts_{kClamped}));
  // A value changed between the test and the access.
  EXPECT_EQ(Verdicts(Kernel("layout(local_size_x = 64) in;", kBlock,
                            "uint idx = data[0];\nif (idx < BLOCK) { idx += 1u; tmp[idx] = 3u; }"),
                     "tmp", kEnvironments[0]),
            (Verdicts_{kClamped}));
}

// A remainder by the length (or a constant at most it, and at least 1, in every
// specialization) is below it.
TEST(SpecializedLengths, RemainderByTheLength_Proven) {
  for (const Environment& env : kEnvironments) {
    SCOPED_TRACE(env.glslang_env);
    EXPECT_EQ(Verdicts(Kernel("layout(local_size_x = 64) in;", kBlock,
                              "uint idx = data[0];\ntmp[idx % BLOCK] = 3u;"),
                       "tmp", env),
              (Verdicts_{kProven}));
  }
}

TEST(SpecializedLengths, TrapRemaindersNotBelowTheLength) {
  // BLOCK + 1 is an expression in the constant: not compared.
  EXPECT_EQ(Verdicts(Kernel("layout(local_size_x = 64) in;", kBlock,
                            "uint idx = data[0];\ntmp[idx % (BLOCK + 1u)] = 3u;"),
                     "tmp", kEnvironments[0]),
            (Verdicts_{kClamped}));
  // Another constant ID may be specialized above BLOCK.
  EXPECT_EQ(Verdicts(Kernel("layout(local_size_x = 64) in;",
                            std::string(kBlock) + "\nlayout(constant_id = 1) const uint N = 8;",
                            "uint idx = data[0];\ntmp[idx % N] = 3u;"),
                     "tmp", kEnvironments[0]),
            (Verdicts_{kClamped}));
}

// A signed test bounds a non-negative index only.
TEST(SpecializedLengths, SignedGuardNeedsANonNegativeIndex) {
  const char kSigned[] =
      "layout(constant_id = 2) const int SBLOCK = 32;\nshared uint stmp[SBLOCK];";
  EXPECT_EQ(Verdicts(Kernel("layout(local_size_x = 64) in;", kSigned,
                            "int j = int(data[1]) - 5;\nif (j < SBLOCK) stmp[j] = 5u;"),
                     "stmp", kEnvironments[0]),
            (Verdicts_{kClamped}));
  EXPECT_EQ(Verdicts(Kernel("layout(local_size_x = 64) in;", kSigned,
                            "int j = int(data[1]) - 5;\nif (j >= 0 && j < SBLOCK) stmp[j] = 6u;"),
                     "stmp", kEnvironments[0]),
            (Verdicts_{kProven}));
}

}  // namespace
}  // namespace glint
