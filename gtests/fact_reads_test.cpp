// What a block's pass read (SPIRV/analysis/uniformity/fact_reads.h): the log's own
// rules, and, on shaders that need several rounds for each kind of fact the solver
// raises (call results and returns, loop phis, helpers' kills, pointer parameters and
// the memory they bind, shared loads after barriers, call contexts, lane broadcasts,
// followed locals stored under branches), that passing over the blocks whose reads did
// not rise gives every fact with its cause, the rounds and the call-context runs of
// running every block in every round, with fewer passes.
#include "SPIRV/analysis/uniformity/fact_reads.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "support/glsl_case.h"
#include "support/uniformity_rerun_check.h"

namespace glint::spirv::uniformity_detail {
namespace {

// One solver's clock and log, and one block's reads.
class FactReadsLog : public ::testing::Test {
 protected:
  uint64_t clock = 0;
  FactReads reads{&clock};
  FactReads::Log log;
};

TEST_F(FactReadsLog, AFactThatRoseAfterItWasReadCounts) {
  reads.Begin(&log);
  reads.Note(FactKind::kValue, 7);
  reads.End();
  EXPECT_FALSE(reads.RoseSinceRead(log));
  ++clock;
  reads.Rose(FactKind::kValue, 7);
  EXPECT_TRUE(reads.RoseSinceRead(log));
}

TEST_F(FactReadsLog, AFactThatRoseBeforeItWasReadDoesNot) {
  ++clock;
  reads.Rose(FactKind::kBlock, 3);
  reads.Begin(&log);
  reads.Note(FactKind::kBlock, 3);
  reads.End();
  EXPECT_FALSE(reads.RoseSinceRead(log));
}

TEST_F(FactReadsLog, KindsAreKeptApart) {
  reads.Begin(&log);
  reads.Note(FactKind::kReturn, 5);
  reads.End();
  ++clock;
  reads.Rose(FactKind::kKill, 5);
  reads.Rose(FactKind::kValue, 5);
  EXPECT_FALSE(reads.RoseSinceRead(log)) << "another kind of fact about the same id";
  ++clock;
  reads.Rose(FactKind::kReturn, 5);
  EXPECT_TRUE(reads.RoseSinceRead(log));
}

TEST_F(FactReadsLog, ARiseWithinThePassAfterTheReadCounts) {
  reads.Begin(&log);
  reads.Note(FactKind::kMemory, 9);
  ++clock;
  reads.Rose(FactKind::kMemory, 9);
  reads.Note(FactKind::kMemory, 9);  // read again: the first read saw the old level
  reads.End();
  EXPECT_TRUE(reads.RoseSinceRead(log));
}

TEST_F(FactReadsLog, NothingIsNotedOutsideAPassAndAPassReplacesTheLog) {
  reads.Note(FactKind::kValue, 1);
  EXPECT_EQ(log.count, 0u);
  reads.Begin(&log);
  reads.Note(FactKind::kValue, 1);
  reads.Note(FactKind::kValue, 1);
  reads.Note(FactKind::kEntry, 2);
  reads.End();
  EXPECT_EQ(log.count, 2u) << "a read repeated with nothing between is one";
  reads.Note(FactKind::kValue, 4);
  EXPECT_EQ(log.count, 2u);
  reads.Begin(&log);
  reads.End();
  EXPECT_EQ(log.count, 0u) << "a pass that read nothing";
}

// Logs share one store: a log that outgrows its room moves, and the logs beside it keep
// their reads.
TEST_F(FactReadsLog, ALogThatOutgrowsItsRoomMovesAndLeavesTheOthersAlone) {
  FactReads::Log other;
  reads.Begin(&log);
  reads.Note(FactKind::kValue, 1);
  reads.End();
  reads.Begin(&other);
  reads.Note(FactKind::kValue, 2);
  reads.End();
  reads.Begin(&log);  // forty reads: more than its room
  for (uint32_t id = 100; id < 140; ++id) reads.Note(FactKind::kValue, id);
  reads.End();
  EXPECT_EQ(log.count, 40u);
  EXPECT_EQ(other.count, 1u);
  ++clock;
  reads.Rose(FactKind::kValue, 1);  // the log's old read, no longer in it
  EXPECT_FALSE(reads.RoseSinceRead(log));
  EXPECT_FALSE(reads.RoseSinceRead(other));
  ++clock;
  reads.Rose(FactKind::kValue, 139);
  EXPECT_TRUE(reads.RoseSinceRead(log));
  EXPECT_FALSE(reads.RoseSinceRead(other));
  ++clock;
  reads.Rose(FactKind::kValue, 2);
  EXPECT_TRUE(reads.RoseSinceRead(other));
  reads.Begin(&other);  // a shorter pass reuses the room
  reads.End();
  EXPECT_EQ(other.count, 0u);
  EXPECT_FALSE(reads.RoseSinceRead(other));
  EXPECT_TRUE(reads.RoseSinceRead(log));
}

const test::GlslCase kCases[] = {
    // Callers come first in a round: a call's result takes its callee's return one round
    // later, and what depends on it rises then, a callee's entry among it.
    {"CallResultsAcrossRounds", "comp", "vulkan1.0", R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
layout(push_constant) uniform P { uint count; } pc;
uint leaf(uint x) { return x * 3u + 1u; }
uint middle(uint x) { uint y = leaf(x); if (y > 5u) y = leaf(y); return y; }
uint top(uint x) { return middle(x) + middle(pc.count); }
void sync(uint n) { for (uint k = 0u; k < n; ++k) barrier(); }
void main() {
  uint lane = gl_LocalInvocationID.x;
  uint a = top(lane);
  uint b = top(pc.count);
  if (b > 2u) barrier();
  if (a > 2u) barrier();
  // Entered under control that rises only once `top` returns: its blocks run again.
  if (a > 3u) sync(pc.count);
  for (uint k = 0u; k < middle(pc.count); ++k) { data[k] = a; barrier(); }
  data[lane] = a + b;
}
)"},
    // Loop phis whose back edges rise after the header's pass, nested loops and a
    // divergent exit.
    {"LoopPhisAndDivergentExits", "comp", "vulkan1.0", R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
layout(push_constant) uniform P { uint count; } pc;
void main() {
  uint lane = gl_LocalInvocationID.x;
  uint i = 0u, j = 0u, acc = 0u;
  while (i < pc.count) {
    j = i;
    for (uint k = 0u; k < 4u; ++k) {
      acc += data[k];
      if (acc > 100u + j) break;
      j = j + (k == 2u ? lane : 0u);
    }
    if (j > 50u) barrier();
    i = i + 1u + (acc & 1u);
  }
  if (i > 3u) barrier();
  data[lane] = acc + j;
}
)"},
    // A helper that may end invocations, called before barriers and texture reads.
    {"KillsInHelpers", "frag", "vulkan1.0", R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 1) flat in int mode;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;
void maybeKill(float x) { if (x < 0.0) discard; }
void check(float x) { maybeKill(x); }
float weight(vec2 p) { check(p.y); return p.x; }
void main() {
  vec4 c = texture(tex, uv);
  float w = weight(uv);
  if (mode > 1) c += texture(tex, uv * w);
  check(uv.x);
  c.x += dFdx(w);
  color = c;
}
)"},
    // Out and inout parameters bound to caller variables, a helper called from places
    // with uniform and non-uniform arguments (call contexts), and shared memory read
    // after barriers inside a helper.
    {"PointerParametersContextsAndSharedMemory", "comp", "vulkan1.0", R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
layout(push_constant) uniform P { uint count; } pc;
shared uint tile[64];
void accumulate(inout uint total, uint by) { total += by; }
void fill(out uint v, uint from) { v = data[from]; }
uint readTile(uint at) { barrier(); return tile[at]; }
uint scaled(uint x, uint s) { uint r = x; for (uint k = 0u; k < s; ++k) r = r * 2u; return r; }
void main() {
  uint lane = gl_LocalInvocationID.x;
  uint total = 0u, v;
  accumulate(total, pc.count);
  fill(v, lane);
  accumulate(total, 1u);
  tile[lane] = total;
  uint t = readTile(0u);
  if (t > 2u) barrier();
  if (scaled(pc.count, 2u) > 8u) barrier();
  if (scaled(lane, 2u) > 8u) barrier();
  if (total > 3u) barrier();
  data[lane] = v + readTile(lane);
}
)"},
    // Lane broadcasts: the lane analysis runs first, and the scope analysis reads it.
    {"LaneBroadcastsInLoops", "comp", "vulkan1.1", R"(#version 450
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
layout(push_constant) uniform P { uint count; } pc;
uint pick(uint x) { return subgroupBroadcast(x, 0u); }
void main() {
  uint lane = gl_SubgroupInvocationID;
  uint v = data[lane];
  for (uint k = 0u; k < pc.count; ++k) {
    v = pick(v + k);
    if (v > 3u) barrier();
  }
  uint w = subgroupBroadcastFirst(v);
  if (w == 0u) { data[lane] = 1u; barrier(); }
}
)"},
    // Locals the value flow follows, stored under branches that only the store depends
    // on, read after the branches merge and in a loop.
    {"FollowedLocalsStoredUnderBranches", "comp", "vulkan1.0", R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
layout(push_constant) uniform P { uint count; } pc;
void main() {
  uint lane = gl_LocalInvocationID.x;
  uint x = 0u, y = 1u;
  for (uint k = 0u; k < pc.count; ++k) {
    if (data[k] > 4u) x = y;
    y = y + (k == 3u ? lane : 1u);
  }
  if (x > 2u) barrier();
  uint z = pc.count;
  if (lane == 0u) z = 4u;
  if (z > 1u) barrier();
  data[lane] = x + y + z;
}
)"},
    // Memory loaded at a loop's top and stored at its bottom: the load's block reads a
    // level a later block raises; through a parameter, the memory it is bound to.
    {"MemoryStoredLaterInALoop", "comp", "vulkan1.0", R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
layout(push_constant) uniform P { uint count; } pc;
uint g;
uint h[4];
uint peek(inout uint v) { return v + 1u; }
void main() {
  uint lane = gl_LocalInvocationID.x;
  g = 0u;
  h[pc.count & 3u] = 0u;
  for (uint k = 0u; k < pc.count; ++k) {
    if (g > 2u) barrier();
    if (peek(h[1]) > 2u) barrier();
    g = data[k] + (k == 5u ? lane : 0u);
    h[k & 3u] = g;
  }
}
)"},
};

class FactReadsRerun : public ::testing::TestWithParam<test::GlslCase> {};

TEST_P(FactReadsRerun, PassingOverIsExactAndSaves) {
  std::string error;
  std::optional<Module> module = test::ParseGlslCase(GetParam(), &error);
  ASSERT_TRUE(module) << error;
  test::RerunComparison comparison = test::CompareRerunEveryBlock(*module);
  EXPECT_EQ(comparison.difference, "");
  EXPECT_GT(comparison.facts_compared, 0u);
  EXPECT_LT(comparison.passes_tracked, comparison.passes_every)
      << "each case needs more than one round, and some block's reads stay as they were";
}

INSTANTIATE_TEST_SUITE_P(Cases, FactReadsRerun, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace glint::spirv::uniformity_detail
