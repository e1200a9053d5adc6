// Execution tests of the uniformity analysis's barrier phases on lavapipe
// (Execution/vk_runner.h): for each shared-memory pattern the analysis proves
// workgroup-uniform (no warning), every invocation records the value it read after the
// barrier, and the run shows that all invocations of a workgroup read the same value
// (and the value the pattern should give). Four workgroups of 64 invocations each.
// The same for the per-lane table broadcast (uniformity_lanes.cpp), a helper's result
// per call site (uniformity_call_sites.cpp), barriers and shared loads inside helpers,
// and helpers that broadcast through shared memory; a helper's barrier called at several
// places (one phase per call) and a helper of several barriers called twice; a helper's
// branches decided by constant arguments (argument_decided_branches.h); values after a
// divergent early return (a value and its block's control are two facts); and an early
// return on a dimension the workgroup is one invocation wide in
// (workgroup_dimensions.h), with its near miss; and a loop whose start and bound share
// the invocation's offset (offset_shared_loops.h), with its near miss that wraps.
// Built only with the harness (-DGLINT_BUILD_VULKAN=ON, the default).
#ifdef GLINT_HAVE_VULKAN
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <set>

#include "Execution/vk_runner.h"
#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/ir/parser.h"
#include "support/broadcast_helpers.h"
#include "support/module_queries.h"
#include "support/test_support.h"

namespace glint::vk {
namespace {

constexpr uint32_t kGroupSize = 64, kGroups = 4;

Context* SharedContext() {
  static std::unique_ptr<Context> context = [] {
    std::string error;
    std::unique_ptr<Context> created = Context::Create(DeviceOptions{}, &error);
    EXPECT_NE(created, nullptr) << "no Vulkan device (install mesa-vulkan-drivers): " << error;
    return created;
  }();
  return context.get();
}

// Uniformity warnings (message lines) of the analysis on `words`.
std::string Warnings(const std::vector<uint32_t>& words) {
  std::string error;
  std::optional<spirv::Module> module = spirv::ParseModule(words, &error);
  if (!module) return "parse error: " + error;
  spirv::UniformityResult result = spirv::AnalyzeUniformity(*module);
  std::string text = result.refusal;
  for (const spirv::UniformityFinding& finding : result.findings) text += finding.message + "\n";
  return text;
}

// Runs the shader (binding 0: a zeroed counter, binding 1: one word per invocation) on
// `groups` workgroups of kGroupSize invocations and returns what each invocation
// recorded, by global invocation index (workgroups in x, then y, then z order).
std::vector<uint32_t> RunAndRecordGroups(const std::vector<uint32_t>& spirv,
                                         std::array<uint32_t, 3> groups,
                                         const std::vector<uint32_t>& push_constants = {}) {
  std::vector<uint32_t> seen;
  Context* context = SharedContext();
  if (!context) return seen;
  ComputeRun run;
  run.shader.spirv = spirv;
  BufferBinding counter, out;
  counter.binding = 0;
  counter.size = 16;
  counter.contents = BufferContents::Zeros();
  out.binding = 1;
  out.size = kGroupSize * groups[0] * groups[1] * groups[2] * 4;
  out.contents = BufferContents::Zeros();
  run.buffers = {counter, out};
  run.group_count = {groups[0], groups[1], groups[2]};
  run.push_constants.resize(push_constants.size() * 4);
  if (!push_constants.empty())
    std::memcpy(run.push_constants.data(), push_constants.data(), run.push_constants.size());
  ComputeResult result;
  std::string error;
  EXPECT_TRUE(context->RunCompute(run, &result, &error)) << error;
  if (result.buffers.size() != 2) return seen;
  seen.resize(result.buffers[1].bytes.size() / 4);
  std::memcpy(seen.data(), result.buffers[1].bytes.data(), seen.size() * 4);
  return seen;
}

std::vector<uint32_t> RunAndRecord(const std::vector<uint32_t>& spirv) {
  return RunAndRecordGroups(spirv, {kGroups, 1, 1});
}

// Each workgroup's single value (fails when two invocations of a group differ).
std::vector<uint32_t> PerGroupValues(const std::vector<uint32_t>& seen) {
  std::vector<uint32_t> values;
  if (seen.size() != kGroupSize * kGroups) {
    ADD_FAILURE() << "recorded " << seen.size() << " values";
    return values;
  }
  for (uint32_t group = 0; group < kGroups; ++group) {
    std::set<uint32_t> distinct(seen.begin() + group * kGroupSize,
                                seen.begin() + (group + 1) * kGroupSize);
    EXPECT_EQ(distinct.size(), 1u) << "workgroup " << group << " read different values";
    values.push_back(*distinct.begin());
  }
  return values;
}

const char* kHeader = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Counter { uint counter; };
layout(std430, binding = 1) buffer Out { uint seen[]; };
)";

std::vector<uint32_t> CompileChecked(const std::string& body) {
  std::vector<uint32_t> words = test::CompileGlsl(std::string(kHeader) + body, "comp");
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "");
  EXPECT_EQ(Warnings(words), "") << "the analysis must prove the pattern uniform";
  return words;
}

// One writer takes a ticket; after the barrier every invocation reads it.
TEST(UniformityExecution, OneWriterTicket_SameValuePerWorkgroup) {
  std::vector<uint32_t> words = CompileChecked(R"(
shared uint ticket;
void main() {
  if (gl_LocalInvocationIndex == 0u) ticket = atomicAdd(counter, 1u);
  barrier();
  uint t = ticket;
  if (t < 1000u) { barrier(); }
  seen[gl_GlobalInvocationID.x] = t;
}
)");
  std::vector<uint32_t> tickets = PerGroupValues(RunAndRecord(words));
  EXPECT_EQ(std::set<uint32_t>(tickets.begin(), tickets.end()), (std::set<uint32_t>{0, 1, 2, 3}));
}

// Every invocation writes its element; after the barrier all read one element.
TEST(UniformityExecution, EveryWriterConstantAddress_SameValuePerWorkgroup) {
  std::vector<uint32_t> words = CompileChecked(R"(
shared uint vs[64];
void main() {
  vs[gl_LocalInvocationIndex] = gl_LocalInvocationIndex * 3u + gl_WorkGroupID.x;
  barrier();
  uint v = vs[5];
  if (v > 1000u) { barrier(); }
  seen[gl_GlobalInvocationID.x] = v;
}
)");
  std::vector<uint32_t> values = PerGroupValues(RunAndRecord(words));
  EXPECT_EQ(values, (std::vector<uint32_t>{15, 16, 17, 18}));
}

// The last-workgroup pattern: one invocation counts finished groups, the barrier
// publishes the count, and exactly one whole workgroup sees itself as the last.
TEST(UniformityExecution, LastWorkgroup_WholeGroupAgrees) {
  std::vector<uint32_t> words = CompileChecked(R"(
shared uint done;
void main() {
  if (gl_LocalInvocationIndex == 0u) done = atomicAdd(counter, 1u) + 1u;
  barrier();
  bool last = done == gl_NumWorkGroups.x;
  if (last) { barrier(); }
  seen[gl_GlobalInvocationID.x] = last ? 1u : 0u;
}
)");
  std::vector<uint32_t> flags = PerGroupValues(RunAndRecord(words));
  uint32_t lasts = 0;
  for (uint32_t flag : flags) lasts += flag;
  EXPECT_EQ(lasts, 1u);
}

// The barrier inside one helper, the shared load inside another (issue pattern from
// decompressors and downsamplers): the last workgroup, found through helpers, agrees as
// a whole, and every invocation records the ticket it read (barrier_phases.h: closing
// calls and loads judged at their call sites).
TEST(UniformityExecution, BarrierAndLoadInHelpers_WholeGroupAgrees) {
  std::vector<uint32_t> words = CompileChecked(R"(
shared uint ticket;
void SyncGroup() { barrier(); }
uint GetTicket() { return ticket; }
bool ExitGroup() {
  if (gl_LocalInvocationIndex == 0u) ticket = atomicAdd(counter, 1u);
  SyncGroup();
  return GetTicket() != gl_NumWorkGroups.x - 1u;
}
void main() {
  if (ExitGroup()) {
    seen[gl_GlobalInvocationID.x] = 100u + GetTicket();
    return;
  }
  SyncGroup();
  seen[gl_GlobalInvocationID.x] = GetTicket();
}
)");
  std::vector<uint32_t> values = PerGroupValues(RunAndRecord(words));
  // Exactly one workgroup took the last ticket (3) and passed the second barrier; the
  // others recorded 100 + their ticket.
  EXPECT_EQ(std::multiset<uint32_t>(values.begin(), values.end()),
            (std::multiset<uint32_t>{3, 100, 101, 102}));
}

// Helpers that broadcast through shared memory: one invocation's value read back after
// a barrier, and an any-invocation flag ORed by atomics and read after a barrier. The
// analysis proves both results uniform (no warning for the barrier under them); on
// lavapipe every invocation of a workgroup records the same pair.
TEST(UniformityExecution, BroadcastHelpers_SameValuePerWorkgroup) {
  std::vector<uint32_t> words =
      CompileChecked(std::string("\nshared uint tmp[1];\nshared uint anyFlag;\n") +
                     test::kBroadcastHelper + test::kAnyInvocationHelper + R"(void main() {
  uint mine = gl_LocalInvocationIndex * 7u + gl_WorkGroupID.x;
  uint first = broadcast(mine, 5u);
  bool any = anyInvocation(gl_LocalInvocationIndex == 23u && gl_WorkGroupID.x == 2u);
  if (first > 1000u || any) { barrier(); }
  seen[gl_GlobalInvocationID.x] = first * 2u + (any ? 1u : 0u);
}
)");
  std::vector<uint32_t> values = PerGroupValues(RunAndRecord(words));
  // Invocation 5's value 35 + group, doubled; only group 2 has an invocation that flags.
  EXPECT_EQ(values, (std::vector<uint32_t>{70, 72, 75, 76}));
}

std::vector<uint32_t> CompileChecked12(const std::string& extension, const std::string& body) {
  std::vector<uint32_t> words = test::CompileGlsl(
      "#version 440\n" + extension + std::string(kHeader).substr(13) + body, "comp", "vulkan1.2");
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan12), "");
  EXPECT_EQ(Warnings(words), "") << "the analysis must prove the pattern uniform";
  return words;
}

// A helper that reduces over the workgroup with a subgroup operation when the
// workgroup is one subgroup and through shared memory otherwise: both paths come out
// workgroup-uniform. On lavapipe a 64-invocation workgroup is several subgroups, so the
// shared-memory path runs, and every invocation records the same sum.
TEST(UniformityExecution, OneSubgroupOrSharedSum_SameValuePerWorkgroup) {
  std::vector<uint32_t> words = CompileChecked12(
      "#extension GL_KHR_shader_subgroup_basic : enable\n"
      "#extension GL_KHR_shader_subgroup_arithmetic : enable\n",
      R"(
shared uint partial[64];
uint WorkgroupSum(uint v) {
  if (gl_NumSubgroups == 1u) return subgroupAdd(v);
  partial[gl_LocalInvocationIndex] = v;
  barrier();
  uint total = 0u;
  for (uint i = 0u; i < 64u; ++i) total += partial[i];
  barrier();
  return total;
}
void main() {
  uint sum = WorkgroupSum(gl_LocalInvocationIndex + 100u * gl_WorkGroupID.x);
  if (sum > 100000u) { barrier(); }
  seen[gl_GlobalInvocationID.x] = sum;
}
)");
  std::vector<uint32_t> sums = PerGroupValues(RunAndRecord(words));
  EXPECT_EQ(sums, (std::vector<uint32_t>{2016, 8416, 14816, 21216}));
}

// dxvk_mipgen.comp's per-lane table: every subgroup fills lane k's entry from uniform
// values and its lane id, through a multi-block helper that is also called with a
// uniform argument; every invocation then reads entry k (k = group + 1 mod 4, uniform
// per workgroup; lavapipe's subgroups have at least 4 lanes, and 64 invocations make
// several subgroups, so the value crosses subgroups).
TEST(UniformityExecution, LaneTableBroadcast_SameValuePerWorkgroup) {
  std::vector<uint32_t> words =
      CompileChecked12("#extension GL_KHR_shader_subgroup_ballot : require\n", R"(
uint table;
uint entry_of(uint lane) {
  if (lane > 2u) return lane * 10u + gl_WorkGroupID.x;
  return lane + 100u;
}
void main() {
  table = entry_of(gl_SubgroupInvocationID);
  uint k = (gl_WorkGroupID.x + 1u) % 4u;
  uint bound = subgroupBroadcast(table, k);
  for (uint i = 0u; i < bound; i += 50u) { barrier(); }
  if (entry_of(k) > 1000u) { barrier(); }
  seen[gl_GlobalInvocationID.x] = bound;
}
)");
  std::vector<uint32_t> values = PerGroupValues(RunAndRecord(words));
  EXPECT_EQ(values, (std::vector<uint32_t>{101, 102, 32, 100}));
}

// A multi-block helper called with a per-invocation argument and with a uniform one: the
// uniform call's result bounds a loop with a barrier in every invocation alike.
TEST(UniformityExecution, HelperPerCallSite_SameValuePerWorkgroup) {
  std::vector<uint32_t> words = CompileChecked(R"(
uint clamp_to(uint v, uint limit) {
  if (v > limit) return limit;
  return v;
}
void main() {
  uint mine = clamp_to(gl_LocalInvocationIndex, 40u);
  uint bound = clamp_to(gl_WorkGroupID.x * 7u, 12u);
  for (uint i = 0u; i < bound; ++i) { barrier(); }
  seen[gl_GlobalInvocationID.x] = bound + mine * 0u;
}
)");
  std::vector<uint32_t> values = PerGroupValues(RunAndRecord(words));
  EXPECT_EQ(values, (std::vector<uint32_t>{0, 7, 12, 12}));
}

// The lanes rule's negative control: an entry made from the subgroup id differs between
// subgroups, the analysis warns, and the run shows a workgroup reading several values
// (lavapipe's subgroups are narrower than the 64-invocation workgroup).
TEST(UniformityExecution, LaneTableFromSubgroupId_AnalysisWarnsAndValuesDiffer) {
  std::vector<uint32_t> words = test::CompileGlsl(
      std::string("#version 440\n") + "#extension GL_KHR_shader_subgroup_ballot : require\n" +
          std::string(kHeader).substr(13) + R"(
uint table;
void main() {
  table = gl_SubgroupID * 100u + gl_SubgroupInvocationID;
  uint bound = subgroupBroadcast(table, 1u);
  if (bound > 100000u) { barrier(); }  // never taken: no invocation waits at a barrier others skip
  seen[gl_GlobalInvocationID.x] = bound;
}
)",
      "comp", "vulkan1.2");
  EXPECT_NE(Warnings(words).find(
                "barrier (OpControlBarrier, workgroup scope) in non-uniform control flow"),
            std::string::npos);
  std::vector<uint32_t> seen = RunAndRecord(words);
  ASSERT_EQ(seen.size(), kGroupSize * kGroups);
  EXPECT_GT(std::set<uint32_t>(seen.begin(), seen.begin() + kGroupSize).size(), 1u)
      << "one subgroup spans the workgroup: this device cannot show the difference";
}

// The negative control: without the barrier the analysis warns (and a run could show
// different values, which is why it must).
TEST(UniformityExecution, WithoutBarrier_AnalysisWarns) {
  std::vector<uint32_t> words = test::CompileGlsl(std::string(kHeader) + R"(
shared uint ticket;
void main() {
  if (gl_LocalInvocationIndex == 0u) ticket = atomicAdd(counter, 1u);
  uint t = ticket;
  if (t < 1000u) { barrier(); }
  seen[gl_GlobalInvocationID.x] = t;
}
)",
                                                  "comp");
  EXPECT_NE(Warnings(words).find(
                "barrier (OpControlBarrier, workgroup scope) in non-uniform control flow"),
            std::string::npos);
}

// A helper's one barrier called at several places (a downsampler's shuffle barrier):
// each call starts its own phase (barrier_phases.h), so the store after the second call
// does not reach the load after the first. The analysis proves `a` and `b` uniform (the
// branch on `a` holds a barrier); every invocation records both.
TEST(UniformityExecution, HelperBarrierAtSeveralCalls_SameValuePerWorkgroup) {
  std::vector<uint32_t> words = CompileChecked(R"(
shared uint vs[64];
void shuffle() { barrier(); }
void main() {
  uint i = gl_LocalInvocationIndex;
  vs[i] = i * 7u + gl_WorkGroupID.x;
  shuffle();
  uint a = vs[3];
  shuffle();
  vs[i] = a + 1u;
  shuffle();
  uint b = vs[5];
  if (a < 1000u) { shuffle(); }
  seen[gl_GlobalInvocationID.x] = a * 1000u + b;
}
)");
  std::vector<uint32_t> values = PerGroupValues(RunAndRecord(words));
  EXPECT_EQ(values, (std::vector<uint32_t>{21022, 22023, 23024, 24025}));
}

// The near miss: the helper itself writes after its barrier, so the load after a call
// may read another invocation's write of the same phase. The analysis warns.
TEST(UniformityExecution, HelperWritesAfterItsBarrier_AnalysisWarns) {
  std::vector<uint32_t> words = test::CompileGlsl(std::string(kHeader) + R"(
shared uint vs[64];
void shuffleAndWrite() { barrier(); vs[gl_LocalInvocationIndex] = gl_LocalInvocationIndex; }
void main() {
  vs[gl_LocalInvocationIndex] = 0u;
  shuffleAndWrite();
  uint a = vs[3];
  if (a < 1000u) { shuffleAndWrite(); }
  seen[gl_GlobalInvocationID.x] = a;
}
)",
                                                  "comp");
  EXPECT_NE(Warnings(words).find("in non-uniform control flow"), std::string::npos);
}

// A ballot emulated in shared memory by a helper with three barriers, called twice (a
// meshlet culler's pattern): the phase of its last barrier ends at the first barrier of
// its next call, so the value it returns is uniform, and so is the loop over it.
TEST(UniformityExecution, BallotHelperCalledTwice_SameValuePerWorkgroup) {
  std::vector<uint32_t> words = CompileChecked(R"(
shared uint bits;
uint ballotLike(bool v) {
  barrier();
  if (gl_LocalInvocationIndex == 0u) bits = 0u;
  barrier();
  if (v) atomicOr(bits, 1u << (gl_LocalInvocationIndex % 32u));
  barrier();
  return bits;
}
void main() {
  uint i = gl_LocalInvocationIndex;
  uint a = ballotLike(i % 4u == gl_WorkGroupID.x);
  uint b = ballotLike((a & (1u << (i % 32u))) == 0u);
  uint rounds = 0u;
  while (b != 0u) { b &= b - 1u; barrier(); ++rounds; }
  seen[gl_GlobalInvocationID.x] = a ^ rounds;
}
)");
  std::vector<uint32_t> values = PerGroupValues(RunAndRecord(words));
  // a: every 4th lane from the group's index; b then holds the other 24 lanes.
  EXPECT_EQ(values, (std::vector<uint32_t>{0x11111111u ^ 24u, 0x22222222u ^ 24u,
                                           0x44444444u ^ 24u, 0x88888888u ^ 24u}));
}

// Branches decided by a constant argument (argument_decided_branches.h): a helper
// called once with `true` and once with `false`, whose divergent `continue` runs only in
// the `false` call and whose second pair of barriers only in the `true` call. Every
// invocation counts the barriers it passed: all of a workgroup pass the same 16.
TEST(UniformityExecution, ArgumentDecidedBranches_EveryInvocationPassesEveryBarrier) {
  std::vector<uint32_t> words = CompileChecked(R"(
shared uint tile[64];
uint passed = 0u;
uint total = 0u;
void step(uint i, const bool all_threads) {
  for (uint k = 0u; k < 4u; ++k) {
    if (!all_threads) {
      barrier(); ++passed;
      if (i < 40u) tile[i] = i + k;
      barrier(); ++passed;
      if (i >= 40u) continue;
    }
    if (all_threads) {
      barrier(); ++passed;
      tile[i] = i * 2u + k;
      barrier(); ++passed;
    }
    total += tile[(i + 1u) % 40u];
  }
}
void main() {
  uint i = gl_LocalInvocationIndex;
  step(i, true);
  step(i, false);
  seen[gl_GlobalInvocationID.x] = passed + (total > 0u ? 0u : 1000u);
}
)");
  std::vector<uint32_t> values = PerGroupValues(RunAndRecord(words));
  EXPECT_EQ(values, (std::vector<uint32_t>{16, 16, 16, 16}));
}

// The near miss: the second pair of barriers runs in both calls, after the `continue`
// some invocations take in the `false` call. The analysis warns.
TEST(UniformityExecution, ArgumentDecidedBranches_BarrierAfterTheContinue_AnalysisWarns) {
  std::vector<uint32_t> words = test::CompileGlsl(std::string(kHeader) + R"(
shared uint tile[64];
void step(uint i, const bool all_threads) {
  for (uint k = 0u; k < 4u; ++k) {
    if (!all_threads && i >= 40u) continue;
    barrier();
    tile[i] = i * 2u + k;
  }
}
void main() {
  step(gl_LocalInvocationIndex, true);
  step(gl_LocalInvocationIndex, false);
  seen[gl_GlobalInvocationID.x] = tile[0];
}
)",
                                                  "comp");
  EXPECT_NE(Warnings(words).find("in non-uniform control flow"), std::string::npos);
}

// A value and its block's control are two facts (uniformity_memory.cpp, followed
// locals): after a divergent early return, a local computed by the invocations that run
// on is the same in all of them, while one left by a loop at different iterations is
// not. The analysis says so, and every invocation records both.
TEST(UniformityExecution, ValuesAfterADivergentReturn_SameForAllThatRunOn) {
  std::vector<uint32_t> words = test::CompileGlsl(std::string(kHeader) + R"(
void main() {
  uint i = gl_LocalInvocationIndex;
  if (i >= 40u) { seen[gl_GlobalInvocationID.x] = 1000000u; return; }
  uint k = 0u;
  for (uint j = 0u; j < 5u; ++j) k += 3u;
  uint t = 0u;
  for (uint j = 1u; j <= i % 4u; ++j) t = j;
  uint same = k;
  uint differs = t;
  seen[gl_GlobalInvocationID.x] = same * 100u + differs;
}
)",
                                                  "comp");
  std::string error;
  std::optional<spirv::Module> module = spirv::ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  spirv::UniformityLevels levels = spirv::AnalyzeUniformityLevels(*module, "main");
  EXPECT_EQ(levels.Value(test::FirstLoadOf(*module, "same")), spirv::Divergence::kUniform);
  EXPECT_EQ(levels.Value(test::FirstLoadOf(*module, "differs")), spirv::Divergence::kDivergent);
  std::vector<uint32_t> seen = RunAndRecord(words);
  ASSERT_EQ(seen.size(), kGroupSize * kGroups);
  std::set<uint32_t> same, differs;
  for (uint32_t invocation = 0; invocation < seen.size(); ++invocation) {
    if (invocation % kGroupSize >= 40) {
      EXPECT_EQ(seen[invocation], 1000000u);
      continue;
    }
    same.insert(seen[invocation] / 100u);
    differs.insert(seen[invocation] % 100u);
  }
  EXPECT_EQ(same, std::set<uint32_t>{15});
  EXPECT_EQ(differs, (std::set<uint32_t>{0, 1, 2, 3}));
}

// Workgroup dimensions (workgroup_dimensions.h). The shader of the two tests below:
// each invocation records where it went, by workgroup (x, then z) and local index.
std::string DimensionShader(const char* layout, const char* body) {
  return std::string("#version 450\nlayout(") + layout + R"() in;
layout(std430, binding = 0) buffer Counter { uint counter; };
layout(std430, binding = 1) buffer Out { uint seen[]; };
shared uint tile[64];
uint Slot() {
  return (gl_WorkGroupID.z * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 64u + gl_LocalInvocationIndex;
}
void main() {
)" + body + "}\n";
}

const char* const kReturnOnZ = R"(
  if (gl_GlobalInvocationID.z >= 2u) { seen[Slot()] = 1000u; return; }
  tile[gl_LocalInvocationIndex] = gl_GlobalInvocationID.z + 1u;
  barrier();
  seen[Slot()] = tile[63u - gl_LocalInvocationIndex];
)";

// In an 8x8x1 workgroup the global id's z is the workgroup's: the early return on it is
// taken by whole workgroups, and the barrier after it is reached by all or none. The
// analysis proves it; six workgroups (2 x 1 x 3) show each group agreeing, the last z
// row returning as a whole.
// The same through a local copy of the whole vector (`uvec3 id = gl_GlobalInvocationID`).
const char* const kReturnOnZOfACopy = R"(
  uvec3 id = gl_GlobalInvocationID;
  if (id.z >= 2u) { seen[Slot()] = 1000u; return; }
  tile[gl_LocalInvocationIndex] = id.z + 1u;
  barrier();
  seen[Slot()] = tile[63u - gl_LocalInvocationIndex];
)";

TEST(UniformityExecution, ReturnOnOneWideDimension_WholeGroupAgrees) {
  for (const char* body : {kReturnOnZ, kReturnOnZOfACopy}) {
    SCOPED_TRACE(body);
    std::vector<uint32_t> words =
        test::CompileGlsl(DimensionShader("local_size_x = 8, local_size_y = 8", body), "comp");
    EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "");
    EXPECT_EQ(Warnings(words), "") << "the analysis must prove the pattern uniform";
    std::vector<uint32_t> seen = RunAndRecordGroups(words, {2, 1, 3});
    ASSERT_EQ(seen.size(), kGroupSize * 6);
    const uint32_t expected[6] = {1, 1, 2, 2, 1000, 1000};  // by workgroup z, then x
    for (uint32_t group = 0; group < 6; ++group)
      EXPECT_EQ(std::set<uint32_t>(seen.begin() + group * kGroupSize,
                                   seen.begin() + (group + 1) * kGroupSize),
                std::set<uint32_t>{expected[group]})
          << "workgroup " << group;
  }
}

// The near miss: in an 8x4x2 workgroup z differs inside a workgroup. The analysis warns
// about the same barrier, and the recorded z values (without the barrier, whose
// behaviour would be undefined) differ within each workgroup.
TEST(UniformityExecution, ReturnOnTwoWideDimension_AnalysisWarnsAndValuesDiffer) {
  const char* layout = "local_size_x = 8, local_size_y = 4, local_size_z = 2";
  EXPECT_NE(Warnings(test::CompileGlsl(DimensionShader(layout, kReturnOnZ), "comp"))
                .find("barrier (OpControlBarrier, workgroup scope) in non-uniform control flow"),
            std::string::npos);
  std::vector<uint32_t> words =
      test::CompileGlsl(DimensionShader(layout, "  seen[Slot()] = gl_GlobalInvocationID.z;\n"), "comp");
  std::vector<uint32_t> seen = RunAndRecordGroups(words, {2, 1, 2});
  ASSERT_EQ(seen.size(), kGroupSize * 4);
  for (uint32_t group = 0; group < 4; ++group) {
    const uint32_t z = group / 2;  // the workgroup's z
    EXPECT_EQ(std::set<uint32_t>(seen.begin() + group * kGroupSize,
                                 seen.begin() + (group + 1) * kGroupSize),
              (std::set<uint32_t>{2 * z, 2 * z + 1}))
        << "workgroup " << group;
  }
}

// Loops whose start and bound share a per-invocation offset (offset_shared_loops.h):
// `for (t = base * 64 + tid; t < (base + count) * 64 + tid; t += 64)` with base and
// count bounded. The analysis proves the barriers in the loop uniform; every invocation
// records how many times it passed them, for several pushed values. (The shader after
// kHeader.)
std::string SharedOffsetShader(const char* start, const char* bound, const char* inside) {
  return std::string(R"(layout(push_constant) uniform P { uint base; uint count; };
shared uint tile[64];
void main() {
  const uint tid = gl_LocalInvocationID.x;
  const uint start_t = )") + start + R"(;
  const uint end_t = )" + bound + R"(;
  uint passed = 0u;
  for (uint t = start_t; t < end_t; t += 64u) {)" + inside + R"(
    ++passed;
  }
  seen[gl_GlobalInvocationID.x] = passed;
}
)";
}

const char* const kBoundedStart = "min(base, 1000000u) * 64u + tid";
const char* const kBoundedEnd = "(min(base, 1000000u) + min(count, 1000u)) * 64u + tid";
const char* const kBarrierRound = R"(
    barrier();
    tile[tid] = t;
    barrier();
    if (tile[63u - tid] + tid != t + 63u - tid) passed += 1000u;)";

TEST(UniformityExecution, LoopBoundsSharingTheOffset_EveryInvocationRunsAlike) {
  std::vector<uint32_t> words =
      CompileChecked(SharedOffsetShader(kBoundedStart, kBoundedEnd, kBarrierRound));
  for (std::vector<uint32_t> push : {std::vector<uint32_t>{0, 3}, {7, 5}, {1000000, 0}}) {
    SCOPED_TRACE(push[0]);
    std::vector<uint32_t> values = PerGroupValues(RunAndRecordGroups(words, {kGroups, 1, 1}, push));
    EXPECT_EQ(values, std::vector<uint32_t>(kGroups, push[1])) << "count " << push[1];
  }
}

// The near miss: with base and count unbounded, start and bound may wrap. The analysis
// warns and says why; run without the barriers (undefined where invocations part), base
// = 2^32 - 32 and count = 1 wrap the start of half the invocations and the bound of all:
// the invocations with tid < 32 run no iteration, the others one.
TEST(UniformityExecution, LoopBoundsSharingTheOffsetThatWrap_AnalysisWarnsAndCountsDiffer) {
  const char* start = "base + tid";
  const char* bound = "base + count * 64u + tid";
  std::string warnings = Warnings(
      test::CompileGlsl(kHeader + SharedOffsetShader(start, bound, kBarrierRound), "comp"));
  EXPECT_NE(warnings.find("barrier (OpControlBarrier, workgroup scope) in non-uniform control flow"),
            std::string::npos);
  std::vector<uint32_t> words =
      test::CompileGlsl(kHeader + SharedOffsetShader(start, bound, ""), "comp");
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "");
  std::vector<uint32_t> seen = RunAndRecordGroups(words, {kGroups, 1, 1}, {4294967264u, 1});
  ASSERT_EQ(seen.size(), kGroupSize * kGroups);
  for (uint32_t invocation = 0; invocation < seen.size(); ++invocation)
    EXPECT_EQ(seen[invocation], invocation % kGroupSize < 32 ? 0u : 1u) << invocation;
}

}  // namespace
}  // namespace glint::vk
#endif  // GLINT_HAVE_VULKAN
