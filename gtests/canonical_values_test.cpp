// Tests of CanonicalValues (SPIRV/analysis/range/canonical_values.h), asked directly: which
// earlier value a value stands for, from the module's structure alone.
#include "SPIRV/analysis/range/canonical_values.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "SPIRV/ir/instruction_views.h"
#include "support/module_queries.h"
#include "support/range_parts.h"

namespace glint::spirv {
namespace {

// A module's canonical values (RangeParts builds them), with the stores to a local.
class Canonicals : public test::RangeParts {
 public:
  explicit Canonicals(const std::string& source, bool full = true) : RangeParts(source, full) {}

  CanonicalValues& values() { return canonical(); }
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

}  // namespace
}  // namespace glint::spirv
