// DecodeOperands (SPIRV/ir/operands.h): which operand words are ids, literals, strings
// and enumerants. Opcodes whose operands are all ids (and instructions that hold just
// the required ids an opcode starts with) take a loop over the words; the rest, and
// words that do not fit, take the grammar decoder. Both must give the same
// operands and refuse the same instructions.
#include "SPIRV/ir/operands.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace glint::spirv {
namespace {

struct Decoded {
  bool ok = false;
  std::string error;
  std::vector<Operand> operands;
};

Decoded Decode(spv::Op opcode, uint32_t type_id, uint32_t result_id, std::vector<uint32_t> words) {
  Instruction inst(opcode, type_id, result_id, std::move(words));
  Decoded decoded;
  decoded.ok = DecodeOperands(inst, 1, &decoded.operands, &decoded.error);
  OperandList list;
  std::string error;
  EXPECT_EQ(DecodeOperands(inst, 1, &list, &error), decoded.ok);
  EXPECT_EQ(error, decoded.error);
  EXPECT_EQ(list.size(), decoded.operands.size()) << "both overloads give the same operands";
  return decoded;
}

std::vector<bool> IdFlags(const Decoded& decoded) {
  std::vector<bool> flags;
  for (const Operand& operand : decoded.operands) flags.push_back(operand.is_id);
  return flags;
}

TEST(DecodeOperands, IdOnlyOpcode_EveryWordIsAnId) {
  Decoded add = Decode(spv::OpIAdd, 1, 2, {3, 4});
  ASSERT_TRUE(add.ok) << add.error;
  EXPECT_EQ(IdFlags(add), (std::vector<bool>{true, true}));
  EXPECT_EQ(add.operands[1].first_word, 1u);
  EXPECT_EQ(add.operands[1].word_count, 1u);
}

TEST(DecodeOperands, IdOnlyOpcode_VariadicTailTakesEveryRemainingWord) {
  Decoded chain = Decode(spv::OpAccessChain, 1, 2, {3, 4, 5, 6});
  ASSERT_TRUE(chain.ok) << chain.error;
  EXPECT_EQ(IdFlags(chain), (std::vector<bool>{true, true, true, true}));
  EXPECT_EQ(chain.operands[3].kind, chain.operands[1].kind) << "indices share the tail's kind";
  Decoded call = Decode(spv::OpFunctionCall, 1, 2, {3});
  ASSERT_TRUE(call.ok) << call.error;
  EXPECT_EQ(call.operands.size(), 1u) << "a call without arguments";
}

TEST(DecodeOperands, IdOnlyOpcode_MissingWordIsRefusedByName) {
  Decoded add = Decode(spv::OpIAdd, 1, 2, {3});
  EXPECT_FALSE(add.ok);
  EXPECT_EQ(add.error, "missing operand IdRef");
}

TEST(DecodeOperands, IdOnlyOpcode_ExtraWordIsRefused) {
  Decoded add = Decode(spv::OpIAdd, 1, 2, {3, 4, 5});
  EXPECT_FALSE(add.ok);
  EXPECT_EQ(add.error, "too many operand words");
}

TEST(DecodeOperands, EnumerantWithParameter_TakesTheDecoder) {
  // OpLoad %t %r %pointer Aligned 16: the memory operand's Aligned bit adds a literal.
  Decoded load = Decode(spv::OpLoad, 1, 2, {3, spv::MemoryAccessAlignedMask, 16});
  ASSERT_TRUE(load.ok) << load.error;
  EXPECT_EQ(IdFlags(load), (std::vector<bool>{true, false, false}));
}

// Required ids then only optional operands of other kinds: exactly the required ids
// take the loop, anything more the decoder, and both agree on kinds.
TEST(DecodeOperands, LeadingIdsBeforeOptionals_BareInstructionIsItsIds) {
  Decoded load = Decode(spv::OpLoad, 1, 2, {3});
  ASSERT_TRUE(load.ok) << load.error;
  EXPECT_EQ(IdFlags(load), (std::vector<bool>{true}));
  Decoded load_volatile = Decode(spv::OpLoad, 1, 2, {3, spv::MemoryAccessVolatileMask});
  ASSERT_TRUE(load_volatile.ok) << load_volatile.error;
  EXPECT_EQ(IdFlags(load_volatile), (std::vector<bool>{true, false}));
  EXPECT_EQ(load.operands[0].kind, load_volatile.operands[0].kind);
  Decoded store = Decode(spv::OpStore, 0, 0, {3, 4});
  ASSERT_TRUE(store.ok) << store.error;
  EXPECT_EQ(IdFlags(store), (std::vector<bool>{true, true}));
  Decoded branch = Decode(spv::OpBranchConditional, 0, 0, {3, 4, 5});
  ASSERT_TRUE(branch.ok) << branch.error;
  EXPECT_EQ(IdFlags(branch), (std::vector<bool>{true, true, true}));
  Decoded weighted = Decode(spv::OpBranchConditional, 0, 0, {3, 4, 5, 1, 2});
  ASSERT_TRUE(weighted.ok) << weighted.error;
  EXPECT_EQ(IdFlags(weighted), (std::vector<bool>{true, true, true, false, false}));
  Decoded short_store = Decode(spv::OpStore, 0, 0, {3});
  EXPECT_FALSE(short_store.ok);
  EXPECT_EQ(short_store.error, "missing operand IdRef");
}

TEST(DecodeOperands, LiteralString_SpansItsWords) {
  // OpName %5 "abcd": four characters and the terminator take two words.
  Decoded name = Decode(spv::OpName, 0, 0, {5, 0x64636261, 0});
  ASSERT_TRUE(name.ok) << name.error;
  ASSERT_EQ(name.operands.size(), 2u);
  EXPECT_TRUE(name.operands[0].is_id);
  EXPECT_EQ(name.operands[1].word_count, 2u);
}

// One word per required operand, whatever its kind; optional and variadic operands may be
// absent. An unknown opcode has nothing to check.
TEST(HasRequiredOperandWords, CountsTheRequiredOperands) {
  auto has = [](spv::Op opcode, std::vector<uint32_t> words) {
    return HasRequiredOperandWords(Instruction(opcode, 0, 0, std::move(words)));
  };
  EXPECT_TRUE(has(spv::OpStore, {3, 4}));
  EXPECT_TRUE(has(spv::OpStore, {3, 4, 2}));  // with its optional memory access
  EXPECT_FALSE(has(spv::OpStore, {3}));
  EXPECT_TRUE(has(spv::OpLoad, {3}));
  EXPECT_FALSE(has(spv::OpLoad, {}));
  EXPECT_TRUE(has(spv::OpFunctionCall, {7}));  // the arguments are variadic
  EXPECT_FALSE(has(spv::OpFunctionCall, {}));
  EXPECT_TRUE(has(spv::OpMemberDecorate, {5, 0, spv::DecorationNonWritable}));
  EXPECT_FALSE(has(spv::OpMemberDecorate, {5, 0}));
  EXPECT_TRUE(has(spv::OpEntryPoint, {spv::ExecutionModelGLCompute, 4, 0x6E69616D, 0}));
  EXPECT_FALSE(has(spv::OpEntryPoint, {spv::ExecutionModelGLCompute, 4}));
  EXPECT_TRUE(has(spv::OpReturn, {}));
  EXPECT_TRUE(has(static_cast<spv::Op>(0xfffe), {}));
}

TEST(DecodeOperands, UnknownOpcode_IsRefused) {
  Decoded unknown = Decode(static_cast<spv::Op>(0xfffe), 0, 0, {});
  EXPECT_FALSE(unknown.ok);
  EXPECT_EQ(unknown.error, "unknown opcode 65534");
}

}  // namespace
}  // namespace glint::spirv
