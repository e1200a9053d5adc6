// Tests of CanonicalValues (SPIRV/analysis/range/canonical_values.h), asked directly: which
// earlier value a value stands for, from the module's structure alone.
#include "SPIRV/analysis/range/canonical_values.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "SPIRV/ir/instruction_views.h"
#include "support/module_queries.h"
#include "support/range_parts.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// A module's canonical values (RangeParts builds them), with the stores to a local.
class Canonicals : public test::RangeParts {
 public:
  explicit Canonicals(const std::string& source, bool full = true) : RangeParts(source, full) {}
  explicit Canonicals(Module module) : RangeParts(std::move(module)) {}

  CanonicalValues& values() { return canonical(); }
  // Every whole load of the function parameter `name`, in module order.
  std::vector<const Instruction*> ParameterLoads(const std::string& name) {
    std::vector<const Instruction*> loads;
    for (const Instruction* load : All(spv::OpLoad)) {
      const Instruction* pointer = def_use().Definition(LoadView(*load).pointer());
      if (pointer && pointer->opcode == spv::OpFunctionParameter &&
          module().NameOf(pointer->result_id) == name)
        loads.push_back(load);
    }
    return loads;
  }
  // The values stored to variable `name` itself, in module order.
  std::vector<uint32_t> StoredTo(const std::string& name) {
    uint32_t variable = test::VariableNamed(module(), name);
    std::vector<uint32_t> values;
    for (const Instruction* store : All(spv::OpStore))
      if (StoreView(*store).pointer() == variable) values.push_back(StoreView(*store).object());
    return values;
  }
};

constexpr char kOneStore[] = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint k = data[0];
  data[1] = k + 1u;
  data[k] = 2u;
})";

TEST(CanonicalValues, LoadsOfALocalWithOneDominatingStoreStandForTheStoredValue) {
  Canonicals canonicals(kOneStore);
  std::vector<uint32_t> stored = canonicals.StoredTo("k");
  std::vector<const Instruction*> loads = canonicals.LoadsOf("k");
  ASSERT_EQ(stored.size(), 1u);
  ASSERT_EQ(loads.size(), 2u);
  for (const Instruction* load : loads)
    EXPECT_EQ(canonicals.values().Canonical(load->result_id), stored[0]) << "%" << load->result_id;
}

TEST(CanonicalValues, ReferenceModeFollowsNoLocal) {
  Canonicals canonicals(kOneStore, /*full=*/false);
  for (const Instruction* load : canonicals.LoadsOf("k"))
    EXPECT_EQ(canonicals.values().Canonical(load->result_id), load->result_id);
}

TEST(CanonicalValues, RecomputedArithmeticOverAnInputStandsForTheFirst) {
  Canonicals canonicals(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  data[gl_LocalInvocationIndex + 3u] = 1u;
  data[gl_LocalInvocationIndex + 3u] = 2u;
})");
  // glslang loads the built-in again for the second sum: both loads stand for the first
  // (an Input the invocation cannot change), so the second sum stands for the first.
  std::vector<const Instruction*> loads = canonicals.LoadsOf("gl_LocalInvocationIndex");
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(canonicals.values().Canonical(loads[1]->result_id), loads[0]->result_id);
  std::vector<const Instruction*> sums = canonicals.All(spv::OpIAdd);
  ASSERT_EQ(sums.size(), 2u);
  EXPECT_EQ(canonicals.values().Canonical(sums[1]->result_id), sums[0]->result_id);
  EXPECT_EQ(canonicals.values().Canonical(sums[0]->result_id), sums[0]->result_id);
}

TEST(CanonicalValues, DifferentArithmeticStaysItself) {
  Canonicals canonicals(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  data[gl_LocalInvocationIndex + 3u] = 1u;
  data[gl_LocalInvocationIndex + 4u] = 2u;
})");
  std::vector<const Instruction*> sums = canonicals.All(spv::OpIAdd);
  ASSERT_EQ(sums.size(), 2u);
  EXPECT_EQ(canonicals.values().Canonical(sums[1]->result_id), sums[1]->result_id);
}

TEST(CanonicalValues, ALocalJoinedFromTwoBranchesStandsForItsJoinVersion) {
  Canonicals canonicals(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint k;
  if (data[0] > 5u) k = data[1]; else k = data[2];
  data[k] = 1u;
  data[k + 1u] = 2u;
})");
  std::vector<const Instruction*> loads = canonicals.LoadsOf("k");
  ASSERT_EQ(loads.size(), 2u);
  uint32_t version = canonicals.values().Canonical(loads[0]->result_id);
  // Both loads read the one version made at the merge: an id past the module's bound
  // that names the merge block.
  EXPECT_GE(version, canonicals.module().header.bound);
  EXPECT_EQ(canonicals.values().Canonical(loads[1]->result_id), version);
  const Block* merge = canonicals.values().VersionBlock(version);
  ASSERT_NE(merge, nullptr);
  EXPECT_EQ(merge, canonicals.def_use().BlockOf(loads[0]));  // read right after the if
  EXPECT_EQ(canonicals.values().VersionBlock(loads[0]->result_id), nullptr);
}

// --- Whole loads of Function memory no local version follows --------------------------

// `count` is written in its function (count++), so the parameter-arguments analysis
// refuses it; between the test and the uses nothing writes it (the stores go to a
// buffer), so every use reads what the tested load read, and so does the load count++
// makes after the if. The load after count++ is another value.
constexpr char kInoutCounter[] = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void push(inout uint count, uint value) {
  if (count < 8u) {
    data[4u * count] = value;
    data[4u * count + 1u] = value;
  }
  count++;
  data[count] = 0u;
}
void main() {
  uint c = data[0];
  push(c, 1u);
  push(c, 2u);
})";

TEST(CanonicalValues, LoadsOfAWrittenParameterWithNothingWrittenBetweenStandForTheFirst) {
  Canonicals canonicals(kInoutCounter);
  std::vector<const Instruction*> loads = canonicals.ParameterLoads("count");
  ASSERT_EQ(loads.size(), 5u);  // the test, two uses, count++, data[count]
  const uint32_t tested = loads[0]->result_id;
  EXPECT_EQ(canonicals.values().Canonical(tested), tested);
  for (size_t i = 1; i < 4; ++i)
    EXPECT_EQ(canonicals.values().Canonical(loads[i]->result_id), tested) << "load " << i;
  EXPECT_EQ(canonicals.values().Canonical(loads[4]->result_id), loads[4]->result_id);
  EXPECT_EQ(canonicals.values().EarlierLoadOfSameMemory(*loads[4]), 0u);
}

TEST(CanonicalValues, ReferenceModeKeepsEveryParameterLoadItself) {
  Canonicals canonicals(kInoutCounter, /*full=*/false);
  for (const Instruction* load : canonicals.ParameterLoads("count"))
    EXPECT_EQ(canonicals.values().Canonical(load->result_id), load->result_id);
}

// Trap: the parameter is written between its test and its use, on one path of two.
TEST(CanonicalValues, TrapAWriteOnOnePathBetweenTheLoads) {
  Canonicals canonicals(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void push(inout uint count) {
  if (count < 8u) {
    if (data[1] > 3u) count += 8u;
    data[4u * count] = 1u;
  }
}
void main() {
  uint c = data[0];
  push(c);
})");
  std::vector<const Instruction*> loads = canonicals.ParameterLoads("count");
  ASSERT_EQ(loads.size(), 3u);  // the test, count += 8u, the use after the inner if
  EXPECT_EQ(canonicals.values().Canonical(loads[1]->result_id), loads[0]->result_id);
  EXPECT_EQ(canonicals.values().Canonical(loads[2]->result_id), loads[2]->result_id);
}

// In a loop, the test at the header and the use in the body: the write on the back
// edge comes before the next test, so it is not between them. Then a write in the body
// before the use is.
TEST(CanonicalValues, AWriteOnTheBackEdgeIsNotBetweenTheTestAndTheUse) {
  Canonicals canonicals(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void fill(inout uint count) {
  while (count < 8u) {
    data[count] = 1u;
    count = count * 2u + 1u;
    data[count] = 2u;
  }
}
void main() {
  uint c = data[0];
  fill(c);
})");
  std::vector<const Instruction*> loads = canonicals.ParameterLoads("count");
  ASSERT_EQ(loads.size(), 4u);  // the test, data[count], count * 2u, data[count] again
  EXPECT_EQ(canonicals.values().Canonical(loads[1]->result_id), loads[0]->result_id);
  EXPECT_EQ(canonicals.values().Canonical(loads[2]->result_id), loads[0]->result_id);
  EXPECT_EQ(canonicals.values().Canonical(loads[3]->result_id), loads[3]->result_id);
}

// Hand-written, as glslang copies every inout argument: %p and %q may point to one
// variable (main passes %v twice), so a store through %q is a write of what %p points
// to; and a call that is given %p may write it. Each stands between two loads of %p.
// A store to the function's own local %own is not (a parameter never points there).
constexpr char kTwoPointers[] = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %p "p"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%uint_7 = OpConstant %uint 7
%ptr = OpTypePointer Function %uint
%fn_void = OpTypeFunction %void
%fn_two = OpTypeFunction %void %ptr %ptr
%fn_one = OpTypeFunction %void %ptr
%bump = OpFunction %void None %fn_one
%r = OpFunctionParameter %ptr
%bump_entry = OpLabel
OpStore %r %uint_7
OpReturn
OpFunctionEnd
%f = OpFunction %void None %fn_two
%p = OpFunctionParameter %ptr
%q = OpFunctionParameter %ptr
%f_entry = OpLabel
%own = OpVariable %ptr Function
%l0 = OpLoad %uint %p
OpStore %own %uint_1
%l1 = OpLoad %uint %p
OpStore %q %uint_7
%l2 = OpLoad %uint %p
%call = OpFunctionCall %void %bump %p
%l3 = OpLoad %uint %p
OpStore %p %uint_1
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn_void
%main_entry = OpLabel
%v = OpVariable %ptr Function
OpStore %v %uint_1
%c = OpFunctionCall %void %f %v %v
OpReturn
OpFunctionEnd
)";

TEST(CanonicalValues, TrapStoresThroughAnotherParameterAndCallsWriteTheMemory) {
  std::optional<Module> module = test::AssembleModule(kTwoPointers);
  ASSERT_TRUE(module);
  Canonicals canonicals(std::move(*module));
  std::vector<const Instruction*> loads = canonicals.ParameterLoads("p");
  ASSERT_EQ(loads.size(), 4u);
  EXPECT_EQ(canonicals.values().Canonical(loads[1]->result_id), loads[0]->result_id);
  EXPECT_EQ(canonicals.values().Canonical(loads[2]->result_id), loads[2]->result_id);
  EXPECT_EQ(canonicals.values().Canonical(loads[3]->result_id), loads[3]->result_id);
}

}  // namespace
}  // namespace glint::spirv
