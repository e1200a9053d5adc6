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
constexpr AccessVerdict kConstant = AccessVerdict::kNotClamped;
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

// A tree of halving steps: `tid < s` with s at most BLOCK / 2 in every specialization
// keeps tid + s below BLOCK. The first access in each kernel is tmp[tid] (the workgroup
// rule); the step's read tmp[tid + s] follows, then its tmp[tid] read and written, and
// last tmp[0], a constant index in bounds of every length.
const char kTreeStep[] = "if (tid < s) tmp[tid] += tmp[tid + s];\nbarrier();";

std::string TreeKernel(const std::string& loop_head, const std::string& step = kTreeStep) {
  return Kernel("layout(local_size_x_id = 0) in;", kBlock,
                "uint tid = gl_LocalInvocationID.x;\ntmp[tid] = data[tid];\nbarrier();\n" +
                    loop_head + " {\n" + step + "\n}\ndata[0] = tmp[0];");
}

TEST(SpecializedLengths, HalvedStepsBelowTheLength_Proven) {
  const Verdicts_ proven = {kProven, kProven, kProven, kProven, kConstant};
  for (const Environment& env : kEnvironments) {
    SCOPED_TRACE(env.glslang_env);
    // A signed counter halved by an arithmetic shift; the loop's own `s > 0` makes it
    // non-negative where the unsigned test reads it.
    EXPECT_EQ(Verdicts(TreeKernel("for (int s = int(BLOCK) / 2; s > 0; s >>= 1)"), "tmp", env),
              proven);
    // Unsigned, divided; the operands of the sum swapped.
    EXPECT_EQ(Verdicts(TreeKernel("for (uint s = BLOCK / 2u; s > 0u; s /= 2u)",
                                  "if (tid < s) tmp[tid] += tmp[s + tid];\nbarrier();"),
                       "tmp", env),
              proven);
    // Halved from the workgroup's size, which the same constant ID sets.
    EXPECT_EQ(Verdicts(TreeKernel("for (uint s = gl_WorkGroupSize.x >> 1; s != 0u; s >>= 1)"),
                       "tmp", env),
              proven);
  }
  // The bound itself, without a loop.
  EXPECT_EQ(
      Verdicts(TreeKernel("if (true)", "if (tid < BLOCK / 2u) tmp[tid] += tmp[tid + BLOCK / 2u];"),
               "tmp", kEnvironments[0]),
      proven);
}

// The step's test alone bounds tmp[tid] below BLOCK / 2 when the workgroup is not sized
// by BLOCK's constant ID (then the store before the loop stays clamped).
TEST(SpecializedLengths, TestAgainstAHalvedBound_Proven) {
  const std::string body =
      "uint tid = gl_LocalInvocationID.x;\ntmp[tid] = data[tid];\nbarrier();\n"
      "for (uint s = BLOCK >> 1; s > 0u; s >>= 1) {\n";
  for (const Environment& env : kEnvironments) {
    SCOPED_TRACE(env.glslang_env);
    EXPECT_EQ(Verdicts(Kernel("layout(local_size_x = 64) in;", kBlock,
                              body + kTreeStep + "\n}\ndata[0] = tmp[0];"),
                       "tmp", env),
              (Verdicts_{kClamped, kProven, kProven, kProven, kConstant}));
  }
  // Trap: a bound that is not halved, BLOCK / 2 + BLOCK, lets tid reach BLOCK.
  EXPECT_EQ(Verdicts(Kernel("layout(local_size_x = 64) in;", kBlock,
                            "uint tid = gl_LocalInvocationID.x;\n"
                            "for (uint s = BLOCK / 2u + BLOCK; s > 0u; s >>= 1) {\n"
                            "if (tid < s) tmp[tid] = 1u;\n}"),
                     "tmp", kEnvironments[0]),
            (Verdicts_{kClamped}));
}

// A helper's count parameter, tested by its loop: every call gives the length itself, or
// what is left of a run of BLOCK rows (`stride - first` where `first + BLOCK > stride`
// and `first < stride`: below BLOCK, the sum cannot wrap). Through two helpers.
std::string RowsKernel(const std::string& run_test, const std::string& else_branch) {
  return Kernel("layout(local_size_x = 64) in;",
                std::string(kBlock) +
                    "\nvoid rows(uint count) { for (uint n = 0u; n < count; ++n) tmp[n] = n; }\n"
                    "void outer(uint count) { rows(count); }",
                "uint first = data[0];\nuint stride = data[1];\nif (" + run_test +
                    ") outer(BLOCK);\nelse {\n" + else_branch + "\n}");
}

TEST(SpecializedLengths, CountParameterAtMostTheLengthAtEveryCall_Proven) {
  for (const Environment& env : kEnvironments) {
    SCOPED_TRACE(env.glslang_env);
    EXPECT_EQ(Verdicts(RowsKernel("first + BLOCK <= stride",
                                  "if (first >= stride) return;\nouter(stride - first);"),
                       "tmp", env),
              (Verdicts_{kProven}));
  }
}

TEST(SpecializedLengths, TrapCountParametersAboveTheLength) {
  // Without `first < stride` the difference may wrap: count up to 2^32 - 1.
  EXPECT_EQ(Verdicts(RowsKernel("first + BLOCK <= stride", "outer(stride - first);"), "tmp",
                     kEnvironments[0]),
            (Verdicts_{kClamped}));
  // A run of 2 * BLOCK: the rest may be up to 2 * BLOCK - 1.
  EXPECT_EQ(Verdicts(RowsKernel("first + 2u * BLOCK <= stride",
                                "if (first >= stride) return;\nouter(stride - first);"),
                     "tmp", kEnvironments[0]),
            (Verdicts_{kClamped}));
  // One call gives a value read from memory.
  EXPECT_EQ(
      Verdicts(RowsKernel("first + BLOCK <= stride", "outer(data[2]);"), "tmp", kEnvironments[0]),
      (Verdicts_{kClamped}));
}

TEST(SpecializedLengths, TrapHalvedStepsThatReachTheLength) {
  const Verdicts_ step_clamped = {kProven, kClamped, kProven, kProven, kConstant};
  // `<=` reaches tid = s = BLOCK / 2, index BLOCK.
  EXPECT_EQ(Verdicts(TreeKernel("for (int s = int(BLOCK) / 2; s > 0; s >>= 1)",
                                "if (tid <= s) tmp[tid] += tmp[tid + s];\nbarrier();"),
                     "tmp", kEnvironments[0]),
            step_clamped);
  // Not halved: s = BLOCK, index up to 2 BLOCK - 2.
  EXPECT_EQ(Verdicts(TreeKernel("for (uint s = BLOCK; s > 0u; s >>= 1)"), "tmp", kEnvironments[0]),
            step_clamped);
  // Halved, plus one: index up to BLOCK + 1 (BLOCK even).
  EXPECT_EQ(Verdicts(TreeKernel("for (uint s = BLOCK / 2u + 1u; s > 0u; s >>= 1)"), "tmp",
                     kEnvironments[0]),
            step_clamped);
  // A step that may raise the counter.
  EXPECT_EQ(Verdicts(TreeKernel("for (uint s = BLOCK / 2u; s > 0u; s = (s >> 1) + data[1])"), "tmp",
                     kEnvironments[0]),
            step_clamped);
  // Another store into the counter in the body.
  EXPECT_EQ(Verdicts(TreeKernel("for (uint s = BLOCK / 2u; s > 0u; s >>= 1)",
                                "if (data[2] == 7u) s = BLOCK;\n" + std::string(kTreeStep)),
                     "tmp", kEnvironments[0]),
            step_clamped);
  // A signed test on an index that may be negative: t + s may be below 0.
  EXPECT_EQ(Verdicts(TreeKernel("for (int s = int(BLOCK) / 2; s > 0; s >>= 1)",
                                "int t = int(tid) - 4;\nif (t < s) tmp[tid] += tmp[t + s];\n"
                                "barrier();"),
                     "tmp", kEnvironments[0]),
            step_clamped);
  // A counter under another constant ID, with a smaller default.
  EXPECT_EQ(Verdicts(Kernel("layout(local_size_x_id = 0) in;",
                            std::string(kBlock) + "\nlayout(constant_id = 1) const uint N = 8;",
                            "uint tid = gl_LocalInvocationID.x;\ntmp[tid] = data[tid];\n"
                            "for (uint s = N / 2u; s > 0u; s >>= 1) {\n" +
                                std::string(kTreeStep) + "\n}\ndata[0] = tmp[0];"),
                     "tmp", kEnvironments[0]),
            step_clamped);
}

}  // namespace
}  // namespace glint
