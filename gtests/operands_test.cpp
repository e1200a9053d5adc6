// DecodeOperands (SPIRV/ir/operands.h): which operand words are ids, literals, strings
// and enumerants. Opcodes whose operands are all ids (and instructions that hold just
// the required ids an opcode starts with), opcodes of fixed single-word operands with
// one tail (OpVariable, OpName, OpExtInst, ...) and OpSpecConstantOp of an all-id
// opcode take shortcuts; the rest, and words that do not fit, take the grammar decoder.
// Both must give the same operands and refuse the same instructions.
#include "SPIRV/ir/operands.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/parser.h"
#include "support/test_support.h"

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

// The shortcuts against the grammar alone, operand by operand, for `inst`.
void ExpectSameAsGrammar(const Instruction& inst, uint32_t literal_width = 1) {
  OperandList fast, slow;
  std::string fast_error, slow_error;
  bool fast_ok = DecodeOperands(inst, literal_width, &fast, &fast_error);
  bool slow_ok = DecodeOperandsByGrammar(inst, literal_width, &slow, &slow_error);
  SCOPED_TRACE(grammar::OpcodeName(inst.opcode));
  ASSERT_EQ(fast_ok, slow_ok);
  EXPECT_EQ(fast_error, slow_error);
  if (!slow_ok) return;  // what a refused decode leaves behind is unspecified
  ASSERT_EQ(fast.size(), slow.size());
  for (size_t i = 0; i < fast.size(); ++i) {
    EXPECT_EQ(fast[i].kind, slow[i].kind) << "operand " << i;
    EXPECT_EQ(fast[i].is_id, slow[i].is_id) << "operand " << i;
    EXPECT_EQ(fast[i].first_word, slow[i].first_word) << "operand " << i;
    EXPECT_EQ(fast[i].word_count, slow[i].word_count) << "operand " << i;
  }
}

// HasOnlyIdOperandWords answers from a table of word counts per opcode: wherever it says
// yes, the grammar's decoder finds one id per word; and it says yes to the id-only
// shapes the parser and DefUse rely on, and no one word short or over.
TEST(HasOnlyIdOperandWords, YesOnlyWhereTheGrammarFindsAnIdInEveryWord) {
  size_t yes = 0;
  grammar::ForEachOpcode([&](const grammar::OpcodeInfo& info) {
    for (uint32_t count = 0; count <= 6; ++count) {
      std::vector<uint32_t> words;
      for (uint32_t i = 0; i < count; ++i) words.push_back(5 + i);
      Instruction inst(static_cast<spv::Op>(info.opcode), 0, 0, words);
      if (!HasOnlyIdOperandWords(inst)) continue;
      ++yes;
      SCOPED_TRACE(std::string(info.name) + " with " + std::to_string(count) + " words");
      OperandList operands;
      std::string error;
      ASSERT_TRUE(DecodeOperandsByGrammar(inst, 1, &operands, &error)) << error;
      ASSERT_EQ(operands.size(), count);
      for (size_t i = 0; i < operands.size(); ++i) {
        EXPECT_TRUE(operands[i].is_id) << "operand " << i;
        EXPECT_EQ(operands[i].word_count, 1u) << "operand " << i;
      }
    }
  });
  EXPECT_GT(yes, 300u) << "most of the grammar's opcodes take ids only";
  auto ids_only = [](spv::Op opcode, size_t count) {
    return HasOnlyIdOperandWords(Instruction(opcode, 0, 0, std::vector<uint32_t>(count, 7)));
  };
  EXPECT_TRUE(ids_only(spv::OpIAdd, 2));
  EXPECT_FALSE(ids_only(spv::OpIAdd, 1));
  EXPECT_FALSE(ids_only(spv::OpIAdd, 3));
  EXPECT_TRUE(ids_only(spv::OpReturn, 0));
  EXPECT_FALSE(ids_only(spv::OpReturn, 1));
  for (size_t count = 1; count <= 6; ++count) EXPECT_TRUE(ids_only(spv::OpAccessChain, count));
  EXPECT_FALSE(ids_only(spv::OpAccessChain, 0));
  EXPECT_TRUE(ids_only(spv::OpFunctionCall, 1));
  EXPECT_TRUE(ids_only(spv::OpFunctionCall, 4));
  // OpLoad: its pointer, then optional memory operands (literals): the pointer alone.
  EXPECT_TRUE(ids_only(spv::OpLoad, 1));
  EXPECT_FALSE(ids_only(spv::OpLoad, 2));
  EXPECT_FALSE(ids_only(spv::OpName, 2));
  EXPECT_FALSE(ids_only(spv::OpDecorate, 2));
  EXPECT_FALSE(ids_only(static_cast<spv::Op>(0xfff0), 1)) << "an unknown opcode";
}

// VisitFixedIdWords either refuses (the caller decodes) or visits exactly the words
// DecodeOperands marks as ids, in order; it never takes an instruction the decoder refuses.
// Returns whether it took it.
bool ExpectFixedIdWordsAgree(const Instruction& inst, uint32_t literal_width = 1) {
  std::vector<uint32_t> visited;
  const bool taken = VisitFixedIdWords(inst, [&](uint32_t word) { visited.push_back(word); });
  SCOPED_TRACE(grammar::OpcodeName(inst.opcode));
  if (!taken) {
    EXPECT_TRUE(visited.empty());
    return false;
  }
  OperandList operands;
  std::string error;
  EXPECT_TRUE(DecodeOperands(inst, literal_width, &operands, &error)) << error;
  std::vector<uint32_t> ids;
  for (const Operand& operand : operands)
    if (operand.is_id) ids.push_back(operand.first_word);
  EXPECT_EQ(visited, ids);
  return true;
}

TEST(DecodeOperands, FixedShapes_AgreeWithTheGrammarWhetherTheyFitOrNot) {
  const uint32_t kAbcd = 0x64636261, kEfg = 0x00676665;  // "abcd", "efg\0"
  std::vector<Instruction> cases = {
      // OpVariable: storage class, optional initializer.
      Instruction(spv::OpVariable, 1, 2, {spv::StorageClassFunction}),
      Instruction(spv::OpVariable, 1, 2, {spv::StorageClassPrivate, 9}),
      Instruction(spv::OpVariable, 1, 2, {spv::StorageClassPrivate, 9, 10}),  // too many
      Instruction(spv::OpVariable, 1, 2, {}),                                 // missing
      // OpName: target, string (one word, two words, ending early, unterminated).
      Instruction(spv::OpName, 0, 0, {3, kEfg}),
      Instruction(spv::OpName, 0, 0, {3, kAbcd, kEfg}),
      Instruction(spv::OpName, 0, 0, {3, kEfg, kAbcd}),
      Instruction(spv::OpName, 0, 0, {3, kAbcd}),
      Instruction(spv::OpName, 0, 0, {3}),
      Instruction(spv::OpMemberName, 0, 0, {3, 1, kAbcd, 0}),
      // Merges: a selection control, and a loop control with and without its parameter.
      Instruction(spv::OpSelectionMerge, 0, 0, {5, spv::SelectionControlMaskNone}),
      Instruction(spv::OpSelectionMerge, 0, 0, {5, spv::SelectionControlFlattenMask, 1}),
      Instruction(spv::OpLoopMerge, 0, 0, {5, 6, spv::LoopControlMaskNone}),
      Instruction(spv::OpLoopMerge, 0, 0, {5, 6, spv::LoopControlDependencyLengthMask, 4}),
      // OpExtInst: set, instruction, variadic ids.
      Instruction(spv::OpExtInst, 1, 2, {7, 38, 8, 9}),
      Instruction(spv::OpExtInst, 1, 2, {7, 38}),
      Instruction(spv::OpExtInst, 1, 2, {7}),
      // OpSpecConstantOp: of ids, of an opcode with literals, of an unknown opcode.
      Instruction(spv::OpSpecConstantOp, 1, 2, {spv::OpIAdd, 8, 9}),
      Instruction(spv::OpSpecConstantOp, 1, 2, {spv::OpIAdd, 8}),
      Instruction(spv::OpSpecConstantOp, 1, 2, {spv::OpIAdd, 8, 9, 10}),
      Instruction(spv::OpSpecConstantOp, 1, 2, {spv::OpCompositeExtract, 8, 0, 1}),
      Instruction(spv::OpSpecConstantOp, 1, 2, {spv::OpVectorShuffle, 8, 9, 0, 3}),
      Instruction(spv::OpSpecConstantOp, 1, 2, {0xfff0, 8}),
      Instruction(spv::OpSpecConstantOp, 1, 2, {}),
      // Decorations take operands of their own: the decoder's.
      Instruction(spv::OpDecorate, 0, 0, {3, spv::DecorationBinding, 2}),
      Instruction(spv::OpControlBarrier, 0, 0, {1, 2, 3}),
  };
  size_t taken = 0;
  for (const Instruction& inst : cases) {
    ExpectSameAsGrammar(inst);
    taken += ExpectFixedIdWordsAgree(inst);
  }
  EXPECT_GE(taken, 10u) << "the fitting ones take the fixed-id-word shortcut";
}

// Every opcode of the grammar with zero to six words of ids, small literals and
// strings: the fixed-id-word shortcut agrees with the decoder wherever it answers.
TEST(VisitFixedIdWords, AgreesWithTheDecoderOnEveryOpcode) {
  const uint32_t kAbcd = 0x64636261, kEfg = 0x00676665;  // "abcd", "efg\0"
  size_t taken = 0;
  grammar::ForEachOpcode([&](const grammar::OpcodeInfo& info) {
    for (uint32_t count = 0; count <= 6; ++count)
      for (int pattern = 0; pattern < 3; ++pattern) {
        std::vector<uint32_t> words;
        for (uint32_t i = 0; i < count; ++i)
          words.push_back(pattern == 0   ? 5 + i
                          : pattern == 1 ? (i + 1 == count ? kEfg : kAbcd)
                                         : i);
        if (info.opcode == spv::OpSpecConstantOp && !words.empty()) words[0] = spv::OpIAdd;
        taken +=
            ExpectFixedIdWordsAgree(Instruction(static_cast<spv::Op>(info.opcode), 1, 2, words));
      }
  });
  EXPECT_GT(taken, 100u);
}

// Every instruction of real modules (a compute kernel with specialization constants,
// loops and extended instructions; a fragment shader with images and names), with the
// literal width the parser gives constants.
TEST(DecodeOperands, Shortcuts_AgreeWithTheGrammarOnWholeModules) {
  const std::vector<std::tuple<const char*, const char*>> shaders = {{"comp", R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint kBlock = 64u;
layout(std430, binding = 0) buffer Data { uint values[]; };
shared uint tile[kBlock * 2u + 1u];
void main() {
  uint sum = 0u;
  for (uint i = gl_LocalInvocationID.x; i < kBlock * 2u; i += kBlock / 2u) {
    tile[i] = values[i] + min(i, 7u);
    sum += uint(sqrt(float(tile[i])));
  }
  barrier();
  values[gl_GlobalInvocationID.x] = sum + tile[kBlock];
})"},
                                                                     {"frag", R"(#version 450
layout(binding = 0) uniform sampler2D colorMap;
layout(binding = 1, rgba8) uniform readonly image2D lookup;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
struct Light { vec3 position; float range; };
layout(std140, binding = 2) uniform Lights { Light lights[4]; int count; };
void main() {
  vec4 c = texture(colorMap, uv);
  for (int i = 0; i < count; ++i) c.rgb += lights[i].position * lights[i].range;
  color = c + imageLoad(lookup, ivec2(uv * 8.0));
})"}};
  for (const auto& [stage, source] : shaders) {
    std::string error;
    std::optional<Module> module = ParseModule(test::CompileGlsl(source, stage), &error);
    ASSERT_TRUE(module) << error;
    size_t instructions = 0;
    module->ForEachInstruction([&](Instruction& inst) {
      uint32_t width = 1;
      if (inst.opcode == spv::OpConstant || inst.opcode == spv::OpSpecConstant)
        width = module->LiteralWidthOfType(inst.type_id);
      ExpectSameAsGrammar(inst, width);
      if (!HasOnlyIdOperandWords(inst)) ExpectFixedIdWordsAgree(inst, width);
      ++instructions;
    });
    EXPECT_GT(instructions, 50u);
  }
}

}  // namespace
}  // namespace glint::spirv
