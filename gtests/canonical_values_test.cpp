// Tests of CanonicalValues (SPIRV/analysis/canonical_values.h), asked directly: which
// earlier value a value stands for, from the module's structure alone.
#include "SPIRV/analysis/canonical_values.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/ir/instruction_views.h"
#include "support/module_queries.h"

namespace glint::spirv {
namespace {

// A module with the context's facts and CanonicalValues built over them.
class Canonicals {
 public:
  explicit Canonicals(const std::string& source, bool full = true)
      : module_(test::CompileModule(source, "comp")),
        analyses_(module_),
        inputs_(analyses_.GetRangeInputs()),
        positions_(analyses_.GetDefUse()),
        values_(module_, inputs_, full, positions_) {}

  CanonicalValues& values() { return values_; }
  const Module& module() const { return module_; }
  const DefUse& def_use() { return analyses_.GetDefUse(); }

  // Every instruction of `opcode` in the module's functions, in module order.
  std::vector<const Instruction*> All(spv::Op opcode) const {
    std::vector<const Instruction*> found;
    for (const Function& function : module_.functions)
      for (const Block& block : function.blocks)
        for (const Instruction& inst : block.instructions)
          if (inst.opcode == opcode) found.push_back(&inst);
    return found;
  }
  std::vector<const Instruction*> LoadsOf(const std::string& name) const {
    return test::LoadsOf(module_, name);
  }
  // The values stored to variable `name` itself, in module order.
  std::vector<uint32_t> StoredTo(const std::string& name) const {
    uint32_t variable = test::VariableNamed(module_, name);
    std::vector<uint32_t> values;
    for (const Instruction* store : All(spv::OpStore))
      if (StoreView(*store).pointer() == variable) values.push_back(StoreView(*store).object());
    return values;
  }

 private:
  Module module_;
  AnalysisContext analyses_;
  RangeInputs inputs_;
  BlockPositions positions_;
  CanonicalValues values_;
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
