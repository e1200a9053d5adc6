// Tests of the uniformity solver asked directly (AnalyzeUniformityLevels in
// SPIRV/analysis/uniformity/uniformity.h): the level it proves for a value, a block's control with
// and without its call sites, and a variable's memory, with no report text involved.
// Each source has a near miss beside it (the same shape that really differs between
// invocations), so a level that is always uniform or always divergent fails.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/ir/parser.h"
#include "support/broadcast_helpers.h"
#include "support/module_queries.h"
#include "support/test_support.h"

namespace glint::spirv {

// Failure messages name the level.
void PrintTo(Divergence level, std::ostream* out) { *out << DivergenceName(level); }

namespace {

Module Compile(const std::string& source, const std::string& stage,
               const std::string& env = "vulkan1.1") {
  return test::CompileModule(source, stage, env);
}

using test::VariableNamed;

// The variable of the interface block whose struct type glslang named `block`.
uint32_t BlockVariable(const Module& module, const std::string& block) {
  uint32_t pointer = 0;
  for (const Instruction& inst : module.types_values) {
    if (inst.opcode == spv::OpTypePointer && module.NameOf(inst.words.at(1)) == block)
      pointer = inst.result_id;
    if (inst.opcode == spv::OpVariable && pointer && inst.type_id == pointer) return inst.result_id;
  }
  ADD_FAILURE() << "no variable of block " << block;
  return 0;
}

using test::FirstLoadOf;

// The label of the block that stores into variable `name` (the last such block).
uint32_t BlockStoringTo(const Module& module, const std::string& name) {
  uint32_t variable = VariableNamed(module, name);
  uint32_t label = 0;
  for (const Function& function : module.functions)
    for (const Block& block : function.blocks)
      for (const Instruction& inst : block.instructions)
        if (inst.opcode == spv::OpStore && inst.words.at(0) == variable) label = block.id();
  EXPECT_NE(label, 0u) << "no store to " << name;
  return label;
}

// The results of the calls of the function whose OpName begins with `callee`, in order.
std::vector<uint32_t> CallsOf(const Module& module, const std::string& callee) {
  std::vector<uint32_t> results;
  for (const Function& function : module.functions)
    for (const Block& block : function.blocks)
      for (const Instruction& inst : block.instructions)
        if (inst.opcode == spv::OpFunctionCall &&
            module.NameOf(inst.words.at(0)).rfind(callee + "(", 0) == 0)
          results.push_back(inst.result_id);
  return results;
}

// The label of the first block of the function whose OpName begins with `name(`.
uint32_t EntryBlockOf(const Module& module, const std::string& name) {
  for (const Function& function : module.functions)
    if (module.NameOf(function.id()).rfind(name + "(", 0) == 0) return function.blocks.front().id();
  ADD_FAILURE() << "no function " << name;
  return 0;
}

UniformityLevels LevelsOf(Module& module, const UniformityOptions& options = {}) {
  std::vector<uint32_t> before = module.Encode();
  UniformityLevels levels = AnalyzeUniformityLevels(module, "main", options);
  EXPECT_EQ(levels.refusal, "");
  EXPECT_EQ(module.Encode(), before) << "the analysis must not change the module";
  return levels;
}

const char* kComputeHeader = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = 64) in;
layout(std140, binding = 0) uniform Params { uint count; };
layout(std430, binding = 1) buffer Out { uint data[]; };
)";

TEST(UniformityLevels, ValuesFromEachKindOfSource) {
  Module module = Compile(std::string(kComputeHeader) + R"(
void main() {
  uint lane = gl_LocalInvocationID.x;
  uint group = gl_WorkGroupID.x;
  uint limit = count;
  uint first = subgroupBroadcastFirst(lane);
  uint total = subgroupAdd(lane);
  uint stored = data[group];
  data[lane] = lane + group + limit + first + total + stored;
}
)",
                          "comp");
  UniformityLevels levels = LevelsOf(module);
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "lane")), Divergence::kDivergent);
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "group")), Divergence::kUniform);
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "limit")), Divergence::kUniform);
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "first")), Divergence::kSubgroupUniform);
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "total")), Divergence::kSubgroupUniform);
  // A writable storage buffer may be written by other invocations, even at a uniform
  // index; a uniform buffer may not.
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "stored")), Divergence::kDivergent);
  EXPECT_EQ(levels.Memory(BlockVariable(module, "Params")), Divergence::kUniform);
  EXPECT_EQ(levels.Memory(BlockVariable(module, "Out")), Divergence::kDivergent);
  // Ids that are not in the module are not claimed.
  EXPECT_EQ(levels.Value(module.header.bound + 7), std::nullopt);
}

// A value and the block it is computed in are two facts: a value stored after a
// divergent early return, and a loop counter there, are the same in every invocation
// that runs on (the return is what makes the control non-uniform, not them). The near
// misses: a value stored in a loop left at different iterations and read after it
// (temporal divergence), and one stored under a branch and read after the merge.
TEST(UniformityLevels, ValuesAfterADivergentReturnAreNotDivergentThemselves) {
  Module module = Compile(std::string(kComputeHeader) + R"(
void main() {
  uint lane = gl_LocalInvocationID.x;
  if (lane >= count) return;
  uint s = count;
  uint t = 0u;
  for (uint i = 0u; i < s; ++i) t += 2u;
  uint kept = t;
  uint ended = 0u;
  for (uint j = 0u; j < lane; ++j) ended = j;
  uint after = ended;
  uint inside = 0u;
  if (lane > 3u) { inside = 5u; data[0] = inside; }
  uint merged = inside;
  data[lane] = s + kept + after + merged;
}
)",
                          "comp");
  UniformityLevels levels = LevelsOf(module);
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "s")), Divergence::kUniform);
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "i")), Divergence::kUniform);
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "kept")), Divergence::kUniform);
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "inside")), Divergence::kUniform);
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "after")), Divergence::kDivergent);
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "merged")), Divergence::kDivergent);
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "j")), Divergence::kUniform);
}

TEST(UniformityLevels, ControlOfBlocksUnderBranches) {
  Module module = Compile(std::string(kComputeHeader) + R"(
void main() {
  uint lane = gl_LocalInvocationID.x;
  uint inside;
  uint after;
  uint onUniform;
  if (lane == 0u) { inside = 1u; }
  after = 2u;
  if (count > 4u) { onUniform = 3u; }
  data[lane] = inside + after + onUniform;
}
)",
                          "comp");
  UniformityLevels levels = LevelsOf(module);
  EXPECT_EQ(levels.Block(BlockStoringTo(module, "inside")), Divergence::kDivergent);
  EXPECT_EQ(levels.Block(BlockStoringTo(module, "after")), Divergence::kUniform);
  EXPECT_EQ(levels.Block(BlockStoringTo(module, "onUniform")), Divergence::kUniform);
  EXPECT_EQ(levels.BlockInFunction(BlockStoringTo(module, "inside")), Divergence::kDivergent);
}

// One helper, called in a divergent branch and outside it, with a divergent argument
// and (twice) a uniform one: its blocks are divergent only with their call sites, and a
// call with a uniform argument gets a uniform result from the call's own context
// although the parameter joins a divergent argument.
TEST(UniformityLevels, HelperCallSitesAndCallContexts) {
  Module module = Compile(std::string(kComputeHeader) + R"(
uint twice(uint v) { return v * 2u; }
void main() {
  uint lane = gl_LocalInvocationID.x;
  uint a = 0u;
  if (lane < 5u) a = twice(count);
  uint b = twice(lane);
  uint c = twice(count);
  data[lane] = a + b + c;
}
)",
                          "comp");
  UniformityLevels levels = LevelsOf(module);
  uint32_t helper = EntryBlockOf(module, "twice");
  EXPECT_EQ(levels.Block(helper), Divergence::kDivergent);
  EXPECT_EQ(levels.BlockInFunction(helper), Divergence::kUniform);
  std::vector<uint32_t> calls = CallsOf(module, "twice");
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(levels.Value(calls[1]), Divergence::kDivergent);
  EXPECT_EQ(levels.Value(calls[2]), Divergence::kUniform);

  // The user's promise about the helper makes even the divergent argument's call uniform.
  UniformityOptions promised;
  promised.assume_uniform = {"twice"};
  UniformityLevels assumed = LevelsOf(module, promised);
  EXPECT_EQ(assumed.Value(calls[1]), Divergence::kUniform);
}

// A shared variable written by one invocation before a barrier in uniform control flow
// is uniform when read after it; the near miss writes it again in the same phase.
TEST(UniformityLevels, SharedLoadAfterBarrierAndItsNearMiss) {
  const std::string proven = std::string(kComputeHeader) + R"(
shared uint total;
void main() {
  if (gl_LocalInvocationIndex == 0u) total = count * 2u;
  barrier();
  uint seen = total;
  data[gl_LocalInvocationIndex] = seen;
}
)";
  Module module = Compile(proven, "comp");
  EXPECT_EQ(LevelsOf(module).Value(FirstLoadOf(module, "total")), Divergence::kUniform);

  const std::string racy = std::string(kComputeHeader) + R"(
shared uint total;
void main() {
  if (gl_LocalInvocationIndex == 0u) total = count * 2u;
  barrier();
  uint seen = total;
  if (gl_LocalInvocationIndex == 1u) total = 5u;
  data[gl_LocalInvocationIndex] = seen;
}
)";
  Module near_miss = Compile(racy, "comp");
  EXPECT_EQ(LevelsOf(near_miss).Value(FirstLoadOf(near_miss, "total")), Divergence::kDivergent);
}

TEST(UniformityLevels, FragmentInputs) {
  Module module = Compile(R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 1) flat in int index;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform Params { float scale; };
void main() {
  vec2 smooth_uv = uv;
  int flat_index = index;
  float s = scale;
  color = vec4(smooth_uv, float(flat_index), s);
}
)",
                          "frag");
  UniformityLevels levels = LevelsOf(module);
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "uv")), Divergence::kDivergent);
  // A flat input differs between primitives, but a quad's invocations all come from
  // one primitive: enough for derivatives, not for a workgroup-wide operation.
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "index")), Divergence::kQuadUniform);
  EXPECT_EQ(levels.Value(FirstLoadOf(module, "s")), Divergence::kUniform);
}

TEST(UniformityLevels, RefusalsClaimNothing) {
  Module module = Compile(std::string(kComputeHeader) + R"(
void main() {
  uint lane = gl_LocalInvocationID.x;
  uint i = 0u;
  while (i < lane) { i = i + 1u; data[i] = i; }
  uint after = i;
  data[0] = after;
}
)",
                          "comp");
  UniformityLevels unknown = AnalyzeUniformityLevels(module, "not_main");
  EXPECT_EQ(unknown.refusal,
            "uniformity analysis refused: the module has no entry point named `not_main`");
  EXPECT_TRUE(unknown.values.empty());

  UniformityOptions one_round;
  one_round.round_budget = 1;
  UniformityLevels budget = AnalyzeUniformityLevels(module, "main", one_round);
  EXPECT_EQ(budget.refusal,
            "uniformity analysis of entry point `main` found no fixed point within its round "
            "budget (1 rounds)");
  EXPECT_TRUE(budget.values.empty());
  EXPECT_TRUE(budget.blocks.empty());

  UniformityLevels enough = AnalyzeUniformityLevels(module, "main");
  EXPECT_EQ(enough.refusal, "");
  EXPECT_GT(enough.rounds, 1u);
  // The counter is the same in every invocation still in the loop; after the loop,
  // left at different iterations, it differs.
  EXPECT_EQ(enough.Value(FirstLoadOf(module, "i")), Divergence::kUniform);
  EXPECT_EQ(enough.Value(FirstLoadOf(module, "after")), Divergence::kDivergent);
}

// The barrier in one helper, the shared load in another (barrier_phases.h): the load is
// uniform, so is the helper's result and the early return on it; each near miss really
// differs between invocations and keeps its warning.
TEST(UniformityLevels, BarrierAndSharedLoadInHelpers) {
  auto source = [](const std::string& sync, const std::string& main_first) {
    return std::string(kComputeHeader) + "shared uint ticket;\nvoid SyncGroup() { " + sync +
           " }\nuint GetTicket() { return ticket; }\nbool ExitGroup() {\n"
           "  if (gl_LocalInvocationIndex == 0u) ticket = data[0];\n  SyncGroup();\n"
           "  return GetTicket() != gl_NumWorkGroups.x - 1u;\n}\n"
           "void main() {\n" +
           main_first +
           "  if (ExitGroup()) return;\n  SyncGroup();\n"
           "  data[gl_LocalInvocationIndex] = 2u;\n}\n";
  };
  auto check = [&](const std::string& sync, const std::string& extra, Divergence expected,
                   size_t findings) {
    Module module = Compile(source(sync, extra), "comp");
    UniformityLevels levels = LevelsOf(module);
    std::vector<uint32_t> exits = CallsOf(module, "ExitGroup");
    ASSERT_EQ(exits.size(), 1u);
    EXPECT_EQ(levels.Value(exits[0]), expected) << sync << extra;
    EXPECT_EQ(AnalyzeUniformity(module).findings.size(), findings) << sync << extra;
  };
  check("barrier();", "", Divergence::kUniform, 0);
  // A write after the barrier, in the same phase.
  check("barrier(); if (gl_LocalInvocationIndex == 1u) ticket = 5u;", "", Divergence::kDivergent,
        1);
  // A barrier on some paths only (reported in SyncGroup itself).
  check("if (data[1] > 0u) barrier();", "", Divergence::kDivergent, 1);
  // GetTicket called once more, before any barrier, under a barrier: that call reads a
  // racy value (one finding), the call inside ExitGroup is still judged at its own site.
  check("barrier();", "  if (GetTicket() > 5u) barrier();\n", Divergence::kUniform, 1);
}

// Helpers that broadcast through shared memory return a workgroup-uniform value at
// every call site: one invocation's value read back after a barrier, and an OR of
// every invocation's flag through an atomic read after a barrier. Near misses: the read
// index is per invocation; the flag is read before the barrier.
TEST(UniformityLevels, HelpersThatBroadcastThroughSharedMemory) {
  auto result_of = [](const std::string& helpers, const std::string& call) {
    Module module = Compile(std::string(kComputeHeader) + "shared uint tmp[64];\n" +
                                "shared uint anyFlag;\n" + helpers +
                                "void main() {\n  uint mine = data[gl_GlobalInvocationID.x];\n"
                                "  data[gl_GlobalInvocationID.x] = " +
                                call + ";\n}\n",
                            "comp");
    std::vector<uint32_t> calls = CallsOf(module, call.substr(0, call.find('(')));
    EXPECT_EQ(calls.size(), 1u) << call;
    return calls.empty() ? std::nullopt : LevelsOf(module).Value(calls[0]);
  };
  const std::string broadcast = test::kBroadcastHelper;
  EXPECT_EQ(result_of(broadcast, "broadcast(mine, 0u)"), Divergence::kUniform);
  // Even with a per-invocation writer index: all read the one element after the barrier.
  EXPECT_EQ(result_of(broadcast, "broadcast(mine, mine)"), Divergence::kUniform);
  const std::string per_lane_read = R"(uint broadcast(uint v, uint idx) {
  tmp[gl_LocalInvocationIndex] = v;
  barrier();
  v = tmp[idx];
  barrier();
  return v;
}
)";
  EXPECT_EQ(result_of(per_lane_read, "broadcast(mine, 0u)"), Divergence::kUniform);
  EXPECT_EQ(result_of(per_lane_read, "broadcast(mine, mine % 64u)"), Divergence::kDivergent);

  const std::string any = test::kAnyInvocationHelper;
  EXPECT_EQ(result_of(any, "anyInvocation(mine > 7u) ? 1u : 0u"), Divergence::kUniform);
  const std::string early = R"(bool anyInvocation(bool c) {
  if (gl_LocalInvocationIndex == 0u) anyFlag = 0u;
  barrier();
  if (c) atomicOr(anyFlag, 1u);
  bool r = anyFlag != 0u;
  barrier();
  return r;
}
)";
  EXPECT_EQ(result_of(early, "anyInvocation(mine > 7u) ? 1u : 0u"), Divergence::kDivergent);
}

// A store through a parameter followed by a load through it in the same block reads
// the stored value, not what the parameter joined over its callers; a store through
// another parameter, or a call, in between may change it.
TEST(UniformityLevels, LoadThroughParameterAfterItsStore) {
  auto result_of = [](const std::string& between) {
    Module module = Compile(std::string(kComputeHeader) + "uint other;\n" +
                                "uint helper(uint v, inout uint w) {\n  v = count;\n" + between +
                                "  return v;\n}\n"
                                "void main() {\n  uint lane = gl_LocalInvocationIndex;\n"
                                "  data[lane] = helper(lane, lane);\n}\n",
                            "comp");
    std::vector<uint32_t> calls = CallsOf(module, "helper");
    EXPECT_EQ(calls.size(), 1u);
    return calls.empty() ? std::nullopt : LevelsOf(module).Value(calls[0]);
  };
  EXPECT_EQ(result_of(""), Divergence::kUniform);
  EXPECT_EQ(result_of("  other = 3u;\n"), Divergence::kUniform);
  EXPECT_EQ(result_of("  w = 2u;\n"), Divergence::kDivergent);
  EXPECT_EQ(result_of("  barrier();\n  w = 2u;\n"), Divergence::kDivergent);
}

// In blocks that run only when the workgroup is one subgroup, a subgroup reduction is
// workgroup-uniform; outside them, and behind tests that do not prove it, it is not.
TEST(UniformityLevels, OneSubgroupWorkgroups) {
  auto levels_of = [](const std::string& condition, const std::string& env,
                      const std::string& size = "local_size_x = 64") {
    Module module = Compile(R"(#version 450
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
layout()" + size + R"() in;
layout(std430, binding = 1) buffer Out { uint data[]; };
void main() {
  uint v = data[gl_LocalInvocationIndex];
  uint outside = subgroupAdd(v);
  uint inside = 0u;
  if ()" + condition + R"() { inside = subgroupAdd(v); }
  data[gl_LocalInvocationIndex] = inside + outside;
}
)",
                            "comp", env);
    UniformityLevels levels = LevelsOf(module);
    std::vector<uint32_t> reductions;
    for (const Function& function : module.functions)
      for (const Block& block : function.blocks)
        for (const Instruction& inst : block.instructions)
          if (inst.opcode == spv::OpGroupNonUniformIAdd) reductions.push_back(inst.result_id);
    EXPECT_EQ(reductions.size(), 2u);
    EXPECT_EQ(levels.Value(reductions.at(0)), Divergence::kSubgroupUniform) << condition;
    return levels.Value(reductions.at(1));
  };
  EXPECT_EQ(levels_of("gl_NumSubgroups == 1u", "vulkan1.1"), Divergence::kUniform);
  EXPECT_EQ(levels_of("gl_NumSubgroups < 2u", "vulkan1.1"), Divergence::kUniform);
  EXPECT_EQ(levels_of("!(gl_NumSubgroups != 1u)", "vulkan1.1"), Divergence::kUniform);
  EXPECT_EQ(levels_of("gl_NumSubgroups == 1u && v > 3u", "vulkan1.1"), Divergence::kUniform);
  EXPECT_EQ(levels_of("gl_NumSubgroups == 2u", "vulkan1.1"), Divergence::kSubgroupUniform);
  EXPECT_EQ(levels_of("gl_NumSubgroups != 1u", "vulkan1.1"), Divergence::kSubgroupUniform);
  EXPECT_EQ(levels_of("gl_NumSubgroups == 1u || v > 3u", "vulkan1.1"),
            Divergence::kSubgroupUniform);
  // SubgroupSize equal to the workgroup proves one subgroup only with full subgroups,
  // which Vulkan enables for SPIR-V 1.6 (vulkan1.3) when X is a multiple of it.
  EXPECT_EQ(levels_of("gl_SubgroupSize == gl_WorkGroupSize.x", "vulkan1.3"), Divergence::kUniform);
  EXPECT_EQ(levels_of("gl_SubgroupSize == 64u", "vulkan1.3"), Divergence::kUniform);
  EXPECT_EQ(levels_of("gl_SubgroupSize == gl_WorkGroupSize.x", "vulkan1.1"),
            Divergence::kSubgroupUniform);
  EXPECT_EQ(levels_of("gl_SubgroupSize == gl_WorkGroupSize.x", "vulkan1.3",
                      "local_size_x = 64, local_size_y = 2"),
            Divergence::kSubgroupUniform);
  EXPECT_EQ(levels_of("gl_SubgroupSize == 32u", "vulkan1.3"), Divergence::kSubgroupUniform);
}

// SubgroupSize is uniform over a compute dispatch; in other stages Vulkan lets it vary
// between subgroups (varying subgroup size), so it is uniform only within a subgroup.
TEST(UniformityLevels, SubgroupSizeByStage) {
  const std::string body = R"(
  uint size = gl_SubgroupSize;
)";
  Module compute = Compile(R"(#version 450
#extension GL_KHR_shader_subgroup_basic : enable
layout(local_size_x = 64) in;
layout(std430, binding = 1) buffer Out { uint data[]; };
void main() {)" + body + "  data[0] = size;\n}\n",
                           "comp");
  EXPECT_EQ(LevelsOf(compute).Value(FirstLoadOf(compute, "size")), Divergence::kUniform);
  Module fragment = Compile(R"(#version 450
#extension GL_KHR_shader_subgroup_basic : enable
layout(location = 0) out vec4 color;
void main() {)" + body + "  color = vec4(float(size));\n}\n",
                            "frag");
  EXPECT_EQ(LevelsOf(fragment).Value(FirstLoadOf(fragment, "size")), Divergence::kSubgroupUniform);
}

// A shared load inside a helper is judged at each call site in that call's own context:
// the call after the barrier reads a uniform value, the call before any barrier does not.
TEST(UniformityLevels, SharedLoadInHelperPerCallSite) {
  Module module = Compile(std::string(kComputeHeader) + R"(
shared uint ticket;
uint GetTicket() { return ticket; }
void main() {
  if (gl_LocalInvocationIndex == 0u) ticket = count;
  uint early = GetTicket();
  barrier();
  uint late = GetTicket();
  data[gl_LocalInvocationIndex] = early + late;
}
)",
                          "comp");
  UniformityLevels levels = LevelsOf(module);
  std::vector<uint32_t> calls = CallsOf(module, "GetTicket");
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(levels.Value(calls[0]), Divergence::kDivergent);
  EXPECT_EQ(levels.Value(calls[1]), Divergence::kUniform);
}

// One shader written with fewer and with more calls (`source(n)`): the levels of both,
// and the results of the calls of `callee` in the one with more, in order.
struct CallsCompared {
  UniformityLevels fewer;
  UniformityLevels more;
  std::vector<uint32_t> calls_in_more;
};
CallsCompared CompareCalls(const std::function<std::string(int)>& source, int fewer, int more,
                           const std::string& callee) {
  Module with_fewer = Compile(source(fewer), "comp");
  Module with_more = Compile(source(more), "comp");
  CallsCompared compared;
  compared.fewer = LevelsOf(with_fewer);
  compared.more = LevelsOf(with_more);
  compared.calls_in_more = CallsOf(with_more, callee);
  return compared;
}

// In the variant with more calls: `count` calls, the first at `first`, every other at
// `rest`; and both variants ran the same number of call contexts, at least one.
void ExpectFirstCallThenTheRestWithEqualContextRuns(const CallsCompared& compared, size_t count,
                                                    Divergence first, Divergence rest) {
  const std::vector<uint32_t>& calls = compared.calls_in_more;
  ASSERT_EQ(calls.size(), count);
  EXPECT_EQ(compared.more.Value(calls[0]), first);
  for (size_t i = 1; i < calls.size(); ++i)
    EXPECT_EQ(compared.more.Value(calls[i]), rest) << "call " << i;
  EXPECT_GE(compared.fewer.context_runs, 1u);
  EXPECT_EQ(compared.more.context_runs, compared.fewer.context_runs);
}

// A call context's result is kept for equal inputs whichever call asks (the callee loads
// no shared memory): a helper called with a uniform argument from one call or from four
// runs one context, though glslang passes each argument through a temporary of its own;
// every such call is uniform and the divergent call is not.
TEST(UniformityLevels, CallContextsSharedByCallsWithEqualInputs) {
  auto source = [](int uniform_calls) {
    std::string calls;
    for (int i = 0; i < uniform_calls; ++i)
      calls += "  total += scaled(count + " + std::to_string(i) + "u);\n";
    return std::string(kComputeHeader) + R"(
uint scaled(uint v) { uint r = v; if (v > 7u) r = v * 3u; return r; }
void main() {
  uint lane = gl_LocalInvocationID.x;
  uint total = scaled(lane);
)" + calls +
           "  data[lane] = total;\n}\n";
  };
  ExpectFirstCallThenTheRestWithEqualContextRuns(CompareCalls(source, 1, 4, "scaled"), 5,
                                                 Divergence::kDivergent, Divergence::kUniform);
}

// A shared load in a helper called in non-uniform control is divergent in any context
// (the barriers before the call cannot make it uniform there), so such calls run no
// context of their own: three calls under a per-invocation branch run no more contexts
// than one, and are divergent; the call in uniform control after the barrier still gets
// its context and is uniform.
TEST(UniformityLevels, SharedLoadHelperInNonUniformControlRunsNoContext) {
  auto source = [](int branch_calls) {
    std::string calls;
    for (int i = 0; i < branch_calls; ++i) calls += "    total += GetTicket();\n";
    return std::string(kComputeHeader) + R"(
shared uint ticket;
uint GetTicket() { return ticket; }
void main() {
  if (gl_LocalInvocationIndex == 0u) ticket = count;
  barrier();
  uint total = GetTicket();
  if (gl_LocalInvocationIndex < 7u) {
)" + calls +
           "  }\n  data[gl_LocalInvocationIndex] = total;\n}\n";
  };
  ExpectFirstCallThenTheRestWithEqualContextRuns(CompareCalls(source, 1, 3, "GetTicket"), 4,
                                                 Divergence::kUniform, Divergence::kDivergent);
}

}  // namespace
}  // namespace glint::spirv
