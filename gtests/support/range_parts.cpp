// The range analysis parts' test harness (range_parts.h).
#include "support/range_parts.h"

#include <gtest/gtest.h>

#include <utility>

#include "SPIRV/ir/instruction_views.h"
#include "support/module_queries.h"

namespace glint::test {

RangeParts::RangeParts(const std::string& source, bool full)
    : module_(CompileModule(source, "comp")),
      analyses_(module_),
      inputs_(analyses_.GetRangeInputs()),
      canonical_(module_, inputs_, full) {}

RangeParts::RangeParts(spirv::Module module, bool full)
    : module_(std::move(module)),
      analyses_(module_),
      inputs_(analyses_.GetRangeInputs()),
      canonical_(module_, inputs_, full) {}

std::vector<const spirv::Instruction*> RangeParts::All(spv::Op opcode) const {
  std::vector<const spirv::Instruction*> found;
  for (const spirv::Function& function : module_.functions)
    for (const spirv::Block& block : function.blocks)
      for (const spirv::Instruction& inst : block.instructions)
        if (inst.opcode == opcode) found.push_back(&inst);
  return found;
}

std::pair<uint32_t, uint32_t> RangeParts::OperandsOf(spv::Op opcode) const {
  std::vector<const spirv::Instruction*> found = All(opcode);
  if (found.empty()) {
    ADD_FAILURE() << "no instruction of opcode " << opcode;
    return {0, 0};
  }
  spirv::BinaryOpView operands(*found.front());
  return {operands.left(), operands.right()};
}

const spirv::Block* RangeParts::Branching(spv::Op test) {
  for (const spirv::Block& block : module_.functions.front().blocks) {
    const spirv::Instruction* branch = block.Terminator();
    if (!branch || branch->opcode != spv::OpBranchConditional) continue;
    const spirv::Instruction* condition =
        def_use().Definition(spirv::BranchConditionalView(*branch).condition());
    if (condition && condition->opcode == test) return &block;
  }
  ADD_FAILURE() << "no branch on opcode " << test;
  return nullptr;
}

const spirv::Block* RangeParts::Target(spv::Op test, bool true_edge) {
  const spirv::Block* branching = Branching(test);
  if (!branching) return nullptr;
  spirv::BranchConditionalView conditional(*branching->Terminator());
  return MainCfg().BlockById(true_edge ? conditional.true_label() : conditional.false_label());
}

std::vector<const spirv::Instruction*> RangeParts::LoadsOf(const std::string& name) const {
  return test::LoadsOf(module_, name);
}

uint64_t RangeParts::ConstantOf(uint32_t id) {
  uint64_t value = ~uint64_t{0};
  EXPECT_TRUE(def_use().IntConstant(id, &value)) << "%" << id << " is not a constant";
  return value;
}

}  // namespace glint::test
