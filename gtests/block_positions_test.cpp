// Tests of BlockPositions (SPIRV/ir/block_positions.h): every instruction's index in its
// block, whether or not it has a result id, asked in any order across blocks.
#include "SPIRV/ir/block_positions.h"

#include <gtest/gtest.h>

#include <vector>

#include "support/module_queries.h"

namespace glint::spirv {
namespace {

TEST(BlockPositions, EveryInstructionHasItsIndexInItsBlock) {
  Module module = test::CompileModule(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint k = data[0];
  if (k > 3u) { data[1] = k; data[2] = k + 1u; }
  data[3] = k * 2u;
})",
                                      "comp");
  DefUse def_use(module);
  BlockPositions positions(def_use);
  std::vector<std::pair<const Instruction*, size_t>> expected;
  size_t without_result = 0;
  for (const Block& block : module.functions.front().blocks) {
    size_t index = 0;
    for (const Instruction& inst : block.instructions) {
      expected.push_back({&inst, index++});
      without_result += inst.result_id == 0;
    }
  }
  ASSERT_GT(expected.size(), 10u);
  ASSERT_GT(without_result, 3u);  // stores, the merge and branches are asked too
  // Last block first, then the rest from the back: each block is numbered on its first
  // question, whichever instruction that names.
  for (auto it = expected.rbegin(); it != expected.rend(); ++it)
    EXPECT_EQ(positions.Of(it->first), it->second) << "opcode " << it->first->opcode;
  for (const auto& [inst, index] : expected) EXPECT_EQ(positions.Of(inst), index);
}

}  // namespace
}  // namespace glint::spirv
