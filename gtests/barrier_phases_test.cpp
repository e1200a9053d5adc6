// Tests of barrier phases of workgroup memory (SPIRV/analysis/uniformity/barrier_phases.h): which
// instructions are workgroup barriers, which barrier starts a load's phase, and which
// writes in the phase alias the loaded element (constant and dynamic indices, callees,
// pointer arguments, and code in the caller after a return), across calls in both
// directions (closing calls start a phase; a load in a helper is judged at its callers).
#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "SPIRV/analysis/uniformity/barrier_phases.h"
#include "SPIRV/ir/parser.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// A parsed GLSL compute shader with the phases of its entry point.
struct Phases {
  std::unique_ptr<Module> module;
  std::unique_ptr<DefUse> def_use;
  std::unique_ptr<CallGraph> calls;
  std::vector<std::unique_ptr<Cfg>> owned;
  std::unordered_map<uint32_t, const Cfg*> cfgs;
  std::vector<Function*> functions;  // main first
  std::unique_ptr<BarrierPhases> phases;

  // The verdict for the `n`th load (in module order) of shared variable `name`.
  BarrierPhases::Verdict LoadOf(const std::string& name, size_t n = 0) {
    size_t seen = 0;
    for (Function& function : module->functions)
      for (Block& block : function.blocks)
        for (Instruction& inst : block.instructions)
          if (inst.opcode == spv::OpLoad && phases->WorkgroupRoot(inst.words[0]) &&
              module->NameOf(phases->WorkgroupRoot(inst.words[0])) == name && seen++ == n)
            return phases->Check(function, block, inst);
    ADD_FAILURE() << "no load " << n << " of " << name;
    return {};
  }
  // "OpStore" etc. for a verdict's write; "" when none.
  static std::string WriteOf(const BarrierPhases::Verdict& verdict) {
    return verdict.write ? grammar::OpcodeName(verdict.write->opcode) : "";
  }
};

Phases Build(const std::string& body, const std::string& env = "vulkan1.0") {
  Phases p;
  std::vector<uint32_t> words = test::CompileGlsl(R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
shared uint count;
shared uint vs[64];
)" + body,
                                                  "comp", env);
  std::string error;
  std::optional<Module> parsed = ParseModule(words, &error);
  EXPECT_TRUE(parsed) << error;
  p.module = std::make_unique<Module>(parsed ? std::move(*parsed) : Module());
  p.def_use = std::make_unique<DefUse>(*p.module);
  for (Function& function : p.module->functions) {
    p.owned.push_back(std::make_unique<Cfg>(function));
    p.cfgs[function.id()] = p.owned.back().get();
    if (p.module->NameOf(function.id()) == "main")
      p.functions.insert(p.functions.begin(), &function);
    else
      p.functions.push_back(&function);
  }
  p.calls = std::make_unique<CallGraph>(*p.module);
  p.phases = std::make_unique<BarrierPhases>(*p.def_use, *p.calls, p.functions, p.cfgs);
  return p;
}

TEST(BarrierPhases, WhichInstructionsAreWorkgroupBarriers) {
  Phases p = Build(R"(#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_memory_scope_semantics : require
void main() {
  barrier();
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
  subgroupBarrier();
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
  memoryBarrierShared();
}
)",
                   "vulkan1.1");
  std::vector<bool> kinds;
  for (const Instruction& inst : p.functions.front()->blocks.front().instructions)
    if (inst.opcode == spv::OpControlBarrier || inst.opcode == spv::OpMemoryBarrier)
      kinds.push_back(p.phases->IsWorkgroupBarrier(inst));
  // barrier(), the shared controlBarrier, not the subgroup one, not one that orders
  // only buffers, not a memory barrier alone.
  EXPECT_EQ(kinds, (std::vector<bool>{true, true, false, false, false}));
}

TEST(BarrierPhases, EveryBarrierTheLoadIsReachedFrom) {
  Phases p = Build(R"(void main() {
  uint a = count;
  barrier();
  if (data[0] > 1u) { barrier(); }
  uint b = count;
  data[1] = a + b;
}
)");
  EXPECT_EQ(p.LoadOf("count", 0).barrier, nullptr) << "no barrier before the first load";
  EXPECT_TRUE(p.LoadOf("count", 0).barriers.empty());
  // The barrier inside the `if` starts the load's phase on one path, the first one on
  // the other.
  std::vector<const Instruction*> second = p.LoadOf("count", 1).barriers;
  ASSERT_EQ(second.size(), 2u);
  std::set<const Block*> blocks = {p.def_use->BlockOf(second[0]), p.def_use->BlockOf(second[1])};
  EXPECT_EQ(blocks.size(), 2u);
  EXPECT_TRUE(blocks.count(&p.functions.front()->blocks.front()));
}

// A barrier that does not dominate the load still starts its phase on the paths through
// it: a write after it is in the load's phase (the dominating barrier's phase stops at
// it, so taking only that one would miss the write).
TEST(BarrierPhases, WriteAfterABarrierOnOnePath) {
  Phases p = Build(R"(void main() {
  barrier();
  if (data[0] > 1u) {
    barrier();
    if (gl_LocalInvocationIndex == 0u) count = 5u;
  }
  data[1] = count;
}
)");
  EXPECT_EQ(Phases::WriteOf(p.LoadOf("count")), "OpStore");
}

TEST(BarrierPhases, ConstantIndicesSeparateElements_DynamicOnesDoNot) {
  Phases constant = Build("void main() {\n  barrier();\n  vs[5] = 1u;\n  data[0] = vs[3];\n}\n");
  EXPECT_EQ(Phases::WriteOf(constant.LoadOf("vs")), "");
  Phases same = Build("void main() {\n  barrier();\n  vs[3] = 1u;\n  data[0] = vs[3];\n}\n");
  EXPECT_EQ(Phases::WriteOf(same.LoadOf("vs")), "OpStore");
  Phases dynamic =
      Build("void main() {\n  barrier();\n  vs[data[1]] = 1u;\n  data[0] = vs[3];\n}\n");
  EXPECT_EQ(Phases::WriteOf(dynamic.LoadOf("vs")), "OpStore");
}

TEST(BarrierPhases, PhaseEndsAtTheNextBarrier) {
  Phases p =
      Build("void main() {\n  barrier();\n  data[0] = count;\n  barrier();\n  count = 2u;\n}\n");
  EXPECT_EQ(Phases::WriteOf(p.LoadOf("count")), "") << "the store is in the next phase";
}

TEST(BarrierPhases, LoopBackEdgeReachesWritesBeforeTheBarrier) {
  Phases p = Build(R"(void main() {
  for (uint i = 0u; i < 4u; ++i) {
    count = i;
    barrier();
    data[i] = count;
  }
}
)");
  // Next iteration's store comes before the next barrier: invocations ahead may write.
  EXPECT_EQ(Phases::WriteOf(p.LoadOf("count")), "OpStore");
}

TEST(BarrierPhases, CallerAfterReturnIsInThePhase) {
  Phases p = Build(R"(uint readCount() { barrier(); return count; }
void main() {
  data[0] = readCount();
  count = 7u;
}
)");
  EXPECT_EQ(Phases::WriteOf(p.LoadOf("count")), "OpStore") << "the caller's store after the call";
}

TEST(BarrierPhases, CalleeWritesAndPointerArguments) {
  Phases writes = Build(R"(void bump() { atomicAdd(count, 1u); }
void main() {
  barrier();
  bump();
  data[0] = count;
}
)");
  EXPECT_EQ(Phases::WriteOf(writes.LoadOf("count")), "OpFunctionCall");
  Phases reads = Build(R"(uint peek() { return vs[2]; }
void main() {
  barrier();
  data[1] = peek();
  data[0] = count;
}
)");
  EXPECT_EQ(Phases::WriteOf(reads.LoadOf("count")), "");
}

// A call of a function that ends in its one barrier starts a phase in the caller, and
// a helper that makes such a call once on every path closes too.
TEST(BarrierPhases, ClosingCallStartsAPhase) {
  Phases p = Build(R"(void sync() { barrier(); }
void syncTwice() { data[3] = 1u; sync(); }
void main() {
  if (gl_LocalInvocationIndex == 0u) count = 1u;
  sync();
  data[0] = count;
  syncTwice();
  data[1] = count;
}
)");
  for (size_t n = 0; n < 2; ++n) {
    BarrierPhases::Verdict verdict = p.LoadOf("count", n);
    ASSERT_NE(verdict.barrier, nullptr) << "load " << n;
    EXPECT_EQ(p.module->NameOf(p.def_use->FunctionOf(verdict.barrier)->id()), "sync(");
    EXPECT_EQ(Phases::WriteOf(verdict), "") << "load " << n;
  }
}

// Near misses: a barrier only on some paths, two barrier points, a write after the
// callee's barrier.
TEST(BarrierPhases, CallsThatDoNotCloseOrWriteAfterTheirBarrier) {
  Phases conditional = Build(R"(void sync(bool b) { if (b) barrier(); }
void main() {
  sync(data[2] > 0u);
  data[0] = count;
}
)");
  EXPECT_EQ(conditional.LoadOf("count").barrier, nullptr);
  Phases twice = Build(R"(void sync() { barrier(); data[5] = 0u; barrier(); }
void main() {
  sync();
  data[0] = count;
}
)");
  EXPECT_EQ(twice.LoadOf("count").barrier, nullptr) << "only one barrier point closes";
  Phases writes = Build(R"(void sync() { barrier(); if (gl_LocalInvocationIndex == 1u) count = 2u; }
void main() {
  sync();
  data[0] = count;
}
)");
  EXPECT_EQ(Phases::WriteOf(writes.LoadOf("count")), "OpStore");
}

// A load in a helper with no barrier of its own takes the barriers before every call
// site; one call site without any leaves it with none.
TEST(BarrierPhases, LoadInHelperJudgedAtEveryCallSite) {
  Phases every = Build(R"(uint get() { return count; }
void main() {
  barrier();
  data[0] = get();
  barrier();
  data[1] = get();
}
)");
  BarrierPhases::Verdict verdict = every.LoadOf("count");
  EXPECT_EQ(verdict.barriers.size(), 2u);
  EXPECT_EQ(Phases::WriteOf(verdict), "");
  Phases one_without = Build(R"(uint get() { return count; }
void main() {
  data[0] = get();
  barrier();
  data[1] = get();
}
)");
  EXPECT_EQ(one_without.LoadOf("count").barrier, nullptr);
  EXPECT_TRUE(one_without.LoadOf("count").barriers.empty());
  Phases written = Build(R"(uint get() { return count; }
void main() {
  barrier();
  data[0] = get();
  if (gl_LocalInvocationIndex == 3u) count = 4u;
}
)");
  EXPECT_EQ(Phases::WriteOf(written.LoadOf("count")), "OpStore");
}

// A helper whose one barrier is called at many places (a downsampler's shuffle
// barrier): each call starts its own phase, which runs to the next barrier point after
// that call, not after every call of the helper. Near misses: a write after the same
// call before the load, and a write inside the helper after its barrier.
TEST(BarrierPhases, HelperBarrierCalledAtSeveralPlaces_OnePhasePerCall) {
  Phases p = Build(R"(void shuffle() { barrier(); }
void main() {
  uint i = gl_LocalInvocationIndex;
  vs[i] = data[i];
  shuffle();
  uint a = vs[0];
  shuffle();
  vs[i] = a + 1u;
  shuffle();
  uint b = vs[63u - i];
  shuffle();
  vs[i] = b;
  uint c = vs[1];
  data[i] = a + b + c;
}
)");
  BarrierPhases::Verdict first = p.LoadOf("vs", 0);
  ASSERT_NE(first.barrier, nullptr);
  EXPECT_EQ(p.module->NameOf(p.def_use->FunctionOf(first.barrier)->id()), "shuffle(");
  EXPECT_EQ(Phases::WriteOf(first), "") << "the store after the second call is another phase";
  EXPECT_EQ(Phases::WriteOf(p.LoadOf("vs", 1)), "");
  EXPECT_EQ(Phases::WriteOf(p.LoadOf("vs", 2)), "OpStore") << "stored after the same call";

  Phases inside = Build(R"(void shuffleAndClear() { barrier(); vs[gl_LocalInvocationIndex] = 0u; }
void main() {
  vs[gl_LocalInvocationIndex] = 1u;
  shuffleAndClear();
  data[0] = vs[5];
  shuffleAndClear();
}
)");
  EXPECT_EQ(Phases::WriteOf(inside.LoadOf("vs")), "OpStore") << "the helper writes after its barrier";
}

// Nested closing calls: the phase returns through each call it was entered by.
TEST(BarrierPhases, NestedClosingCalls_OnePhasePerOuterCall) {
  Phases p = Build(R"(void inner() { barrier(); }
void outer() { inner(); }
void main() {
  uint i = gl_LocalInvocationIndex;
  vs[i] = data[i];
  outer();
  uint a = vs[0];
  outer();
  vs[i] = a;
}
)");
  BarrierPhases::Verdict verdict = p.LoadOf("vs");
  ASSERT_NE(verdict.barrier, nullptr);
  EXPECT_EQ(p.module->NameOf(p.def_use->FunctionOf(verdict.barrier)->id()), "inner(");
  EXPECT_EQ(Phases::WriteOf(verdict), "");
}

// A load inside the helper after its own barrier cannot tell which call it runs in: its
// phase continues after every call site (here a store after the first call).
TEST(BarrierPhases, LoadInsideTheHelperAfterItsBarrier_EveryCallSite) {
  Phases p = Build(R"(uint readAfter() { barrier(); return vs[0]; }
void main() {
  vs[gl_LocalInvocationIndex] = 1u;
  uint a = readAfter();
  vs[gl_LocalInvocationIndex] = a;
  data[0] = readAfter();
}
)");
  EXPECT_EQ(Phases::WriteOf(p.LoadOf("vs")), "OpStore");
}

// A helper with several barriers (a ballot emulated in shared memory): the phase of its
// last barrier ends at the first barrier of its next call, so that call's writes after
// its own barriers do not count. The near miss: a callee that writes on a path without
// a barrier.
TEST(BarrierPhases, PhaseEndsAtTheBarriersOfACalledHelper) {
  Phases p = Build(R"(uint ballotLike(bool v) {
  barrier();
  if (gl_LocalInvocationIndex == 0u) count = 0u;
  barrier();
  if (v) atomicOr(count, 1u << gl_LocalInvocationIndex);
  barrier();
  return count;
}
void main() {
  uint i = gl_LocalInvocationIndex;
  uint a = ballotLike(data[i] > 0u);
  uint b = ballotLike(a > 3u);
  data[i] = a + b;
}
)");
  BarrierPhases::Verdict verdict = p.LoadOf("count");
  ASSERT_NE(verdict.barrier, nullptr);
  EXPECT_EQ(Phases::WriteOf(verdict), "");

  Phases some_paths = Build(R"(void maybeSync(bool c) { if (c) barrier(); count = 5u; }
void main() {
  barrier();
  data[0] = count;
  maybeSync(data[1] > 0u);
}
)");
  EXPECT_EQ(Phases::WriteOf(some_paths.LoadOf("count")), "OpStore");
}

// A load whose walk back passes over a call that holds a barrier but does not close may
// have passed that barrier: the phase of the barrier before the call then counts every
// write of the callee, the one after its barrier included.
TEST(BarrierPhases, LoadAfterACallThatDoesNotClose_CountsTheCalleesWrites) {
  Phases p = Build(R"(void maybeSyncThenWrite(bool c) { if (c) { barrier(); count = 1u; } }
void main() {
  barrier();
  maybeSyncThenWrite(data[1] > 0u);
  data[0] = count;
}
)");
  BarrierPhases::Verdict verdict = p.LoadOf("count");
  ASSERT_NE(verdict.barrier, nullptr);
  EXPECT_EQ(Phases::WriteOf(verdict), "OpFunctionCall");
}

}  // namespace
}  // namespace glint::spirv
