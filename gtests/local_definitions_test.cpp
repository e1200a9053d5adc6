// Tests of LocalDefinitionsAnalysis (SPIRV/analysis/range/local_definitions.h), asked
// directly: what may have been stored where a load of a local reads, or why that is
// not known.
#include "SPIRV/analysis/range/local_definitions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "SPIRV/ir/instruction_views.h"
#include "support/range_parts.h"

namespace glint::spirv {
namespace {

// A module's local definitions, with the parts they are built from.
class Locals : public test::RangeParts {
 public:
  explicit Locals(const std::string& source, bool full = true)
      : RangeParts(source, full),
        origins_(def_use(), canonical()),
        definitions_(def_use(), analyses().GetBuiltIns(), full, canonical(), origins_) {}

  LocalDefinitionsAnalysis& definitions() { return definitions_; }

 private:
  ValueOrigins origins_;
  LocalDefinitionsAnalysis definitions_;
};

TEST(LocalDefinitions, ALocalAssignedOnTwoPaths_BothStoresReachTheLoad) {
  Locals locals(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint k;
  if (data[0] > 5u) k = 3u; else k = 9u;
  data[k] = 1u;
})");
  std::vector<const Instruction*> loads = locals.LoadsOf("k");
  ASSERT_EQ(loads.size(), 1u);
  const LocalDefinitions* found = locals.definitions().Of(*loads[0]);
  ASSERT_NE(found, nullptr);
  std::vector<uint64_t> values;
  for (uint32_t value : found->values) values.push_back(locals.ConstantOf(value));
  std::sort(values.begin(), values.end());
  EXPECT_EQ(values, (std::vector<uint64_t>{3, 9}));
  ASSERT_EQ(found->stores.size(), 2u);
  for (const Instruction* store : found->stores) ASSERT_NE(store, nullptr);
  EXPECT_TRUE(found->carried.empty());
  EXPECT_EQ(locals.definitions().Of(*loads[0]), found);  // memoized
  EXPECT_EQ(locals.definitions().RefusalOf(*loads[0]), nullptr);
}

TEST(LocalDefinitions, ALoopCounter_TheInitialValueAndOneCarriedUpdate) {
  Locals locals(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint i = 2u;
  while (i < data[0]) { data[i] = 0u; i += 3u; }
})");
  std::vector<const Instruction*> loads = locals.LoadsOf("i");
  ASSERT_FALSE(loads.empty());
  const LocalDefinitions* found = locals.definitions().Of(*loads[0]);
  ASSERT_NE(found, nullptr);
  ASSERT_EQ(found->values.size(), 1u);
  EXPECT_EQ(locals.ConstantOf(found->values[0]), 2u);
  ASSERT_EQ(found->carried.size(), 1u);
  EXPECT_EQ(locals.ConstantOf(found->carried[0].step), 3u);
  EXPECT_FALSE(found->carried[0].subtract);
  // Its dependencies are the initial value and the step.
  EXPECT_EQ(found->dependencies.ToVector(),
            (std::vector<uint32_t>{found->values[0], found->carried[0].step}));
}

TEST(LocalDefinitions, ALoadThatMayReadBeforeAnyStore_IsRefusedWithItsReason) {
  Locals locals(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint k;
  if (data[0] > 5u) k = 3u;
  data[k] = 1u;
})");
  std::vector<const Instruction*> loads = locals.LoadsOf("k");
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(locals.definitions().RefusalOf(*loads[0]), nullptr);  // not asked yet
  EXPECT_EQ(locals.definitions().Of(*loads[0]), nullptr);
  const std::string* refusal = locals.definitions().RefusalOf(*loads[0]);
  ASSERT_NE(refusal, nullptr);
  EXPECT_EQ(*refusal, "local may be read before it is assigned");
}

TEST(LocalDefinitions, MoreReachingStoresThanTheBudget_NamesTheBudget) {
  std::string source =
      "#version 450\nlayout(local_size_x = 64) in;\n"
      "layout(std430, binding = 0) buffer B { uint data[]; };\nvoid main() {\n  uint k = 0u;\n";
  for (int i = 1; i <= 70; ++i)
    source += "  if (data[" + std::to_string(i) + "] == 0u) k = " + std::to_string(i) + "u;\n";
  source += "  data[k] = 1u;\n}\n";
  Locals locals(source);
  std::vector<const Instruction*> loads = locals.LoadsOf("k");
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(locals.definitions().Of(*loads[0]), nullptr);
  const std::string* refusal = locals.definitions().RefusalOf(*loads[0]);
  ASSERT_NE(refusal, nullptr);
  EXPECT_NE(refusal->find("kMaxLocalDefinitions"), std::string::npos) << *refusal;
}

TEST(LocalDefinitions, AStoredValueReadFromABuffer_IsListedNotRanged) {
  Locals locals(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint k = data[0];
  data[k] = 1u;
})");
  std::vector<const Instruction*> loads = locals.LoadsOf("k");
  ASSERT_EQ(loads.size(), 1u);
  const LocalDefinitions* found = locals.definitions().Of(*loads[0]);
  ASSERT_NE(found, nullptr);  // ranging the stored value is the evaluator's job
  ASSERT_EQ(found->values.size(), 1u);
  const Instruction* stored = locals.def_use().Definition(found->values[0]);
  ASSERT_NE(stored, nullptr);
  EXPECT_EQ(stored->opcode, spv::OpLoad);
}

TEST(LocalDefinitions, ReferenceModeFollowsNoLocal) {
  Locals locals(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint k = 4u;
  data[k] = 1u;
})",
                /*full=*/false);
  std::vector<const Instruction*> loads = locals.LoadsOf("k");
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(locals.definitions().Of(*loads[0]), nullptr);
  EXPECT_EQ(locals.definitions().RefusalOf(*loads[0]), nullptr);
}

}  // namespace
}  // namespace glint::spirv
