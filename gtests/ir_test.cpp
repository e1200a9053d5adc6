// Tests of the SPIR-V IR: parse / emit round trip, malformed input refusals, def-use,
// type and constant creation, CFG and dominators, the built-in index.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <iterator>
#include <ostream>
#include <random>

#include "SPIRV/ir/builtin_index.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/operands.h"
#include "SPIRV/ir/parser.h"
#include "support/synthetic_module.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

const char* kLoopShader = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
const uint table[4] = uint[](1u, 2u, 3u, 4u);
void main() {
  uint sum = 0u;
  for (int i = 0; i < 10; ++i) {
    if (values[i] > 3u) sum += table[values[i] & 3u];
  }
  values[gl_LocalInvocationIndex] = sum;
}
)";

// Built-in variables and the WorkgroupSize constant by their BuiltIn; a decoration
// without its literal (parsed, not valid) decorates nothing; other decorations are not
// built-ins.
TEST(Ir, BuiltInIndex_NamesEachDecoratedId) {
  std::vector<uint32_t> words = test::Assemble(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %index
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %index BuiltIn LocalInvocationIndex
               OpDecorate %size BuiltIn WorkgroupSize
               OpDecorate %other NonWritable
       %void = OpTypeVoid
     %fnvoid = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %uvec3 = OpTypeVector %uint 3
     %uint_8 = OpConstant %uint 8
     %uint_1 = OpConstant %uint 1
       %size = OpConstantComposite %uvec3 %uint_8 %uint_1 %uint_1
  %ptr_input = OpTypePointer Input %uint
      %index = OpVariable %ptr_input Input
      %other = OpVariable %ptr_input Input
       %main = OpFunction %void None %fnvoid
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_FALSE(words.empty());
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  uint32_t index = 0, size = 0, other = 0;
  for (const Instruction& inst : module->types_values) {
    if (inst.opcode == spv::OpConstantComposite) size = inst.result_id;
    if (inst.opcode == spv::OpVariable) (index ? other : index) = inst.result_id;
  }
  BuiltInIndex builtins(*module);
  EXPECT_EQ(builtins.Of(index), std::optional<uint32_t>(spv::BuiltInLocalInvocationIndex));
  EXPECT_EQ(builtins.Of(size), std::optional<uint32_t>(spv::BuiltInWorkgroupSize));
  EXPECT_EQ(builtins.WorkgroupSizeId(), size);
  EXPECT_FALSE(builtins.Has(other));
  EXPECT_FALSE(builtins.Of(other));
  // The literal cut off: the decoration names no built-in.
  for (Instruction& inst : module->annotations)
    if (inst.opcode == spv::OpDecorate && inst.words.size() == 3 &&
        inst.words[1] == spv::DecorationBuiltIn)
      inst.words.pop_back();
  BuiltInIndex truncated(*module);
  EXPECT_FALSE(truncated.Has(index));
  EXPECT_EQ(truncated.WorkgroupSizeId(), 0u);
}

TEST(Ir, RoundTrip_GlslangOutputIsWordIdentical) {
  for (const char* env : {"vulkan1.0", "vulkan1.3", "opengl"}) {
    std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp", env);
    std::string error;
    std::optional<Module> module = ParseModule(words, &error);
    ASSERT_TRUE(module) << error;
    EXPECT_EQ(module->Encode(), words) << env;
  }
}

TEST(Ir, Sections_AreFilled) {
  std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  EXPECT_FALSE(module->capabilities.empty());
  EXPECT_EQ(module->memory_model.size(), 1u);
  ASSERT_EQ(module->entry_points.size(), 1u);
  EXPECT_EQ(EntryPointInterfaceView(module->entry_points.front()).name(), "main");
  ASSERT_EQ(module->functions.size(), 1u);
  EXPECT_GT(module->functions.front().blocks.size(), 3u);
  EXPECT_NE(module->GlslStd450Import(), 0u);
}

// glslang -g leaves OpLine for unreachable source lines after a block's terminator.
TEST(Ir, RoundTrip_LineAfterTerminator) {
  std::vector<uint32_t> words = test::Assemble(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
          %1 = OpString "a.comp"
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %main = OpFunction %void None %3
          %5 = OpLabel
               OpLine %1 3 0
               OpReturn
               OpLine %1 7 0
               OpNoLine
               OpFunctionEnd
)");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  EXPECT_EQ(module->functions.front().blocks.front().trailing_lines.size(), 2u);
  EXPECT_EQ(module->Encode(), words);
}

// glslang -gV (NonSemantic.Shader.DebugInfo.100) writes DebugNoLine before a function's
// first OpLabel, DebugLine / DebugScope after a terminator (lines met after the last
// function) and, there, `DebugScope 0` (glslang/front_end/debug_scope_guard.h). Kept in place;
// another set's OpExtInst in those places is still refused.
std::vector<uint32_t> NonSemanticLinesModule() {
  return test::Assemble(R"(
               OpCapability Shader
               OpExtension "SPV_KHR_non_semantic_info"
          %2 = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %main = OpFunction %void None %3
         %10 = OpExtInst %void %2 DebugNoLine
          %5 = OpLabel
               OpReturn
         %11 = OpExtInst %void %2 DebugScope %main
         %12 = OpExtInst %void %2 DebugNoLine
               OpFunctionEnd
)");
}

TEST(Ir, RoundTrip_NonSemanticLinesWhereGlslangWritesThem) {
  std::vector<uint32_t> words = NonSemanticLinesModule();
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  // DebugScope's operand (word 5 of `%11 = OpExtInst %void %2 DebugScope %main`) -> 0.
  words[module->functions.front().blocks.front().trailing_lines.front().source_offset + 5] = 0;
  module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  const Function& main = module->functions.front();
  EXPECT_EQ(main.parameters.size(), 1u);
  EXPECT_EQ(main.blocks.front().trailing_lines.size(), 2u);
  EXPECT_EQ(module->Encode(), words);

  // The import renamed "XonSemantic.Shader.DebugInfo.100" (same length): not non-semantic.
  words[module->ext_inst_imports.front().source_offset + 2] =
      (words[module->ext_inst_imports.front().source_offset + 2] & ~0xffu) | 'X';
  EXPECT_FALSE(ParseModule(words, &error));
  EXPECT_NE(error.find("OpExtInst appears in a function before its first OpLabel"),
            std::string::npos)
      << error;
}

struct MalformedCase {
  const char* name;
  std::function<void(std::vector<uint32_t>&)> corrupt;
  const char* message;
};

// Failure messages name the case, not its bytes.
void PrintTo(const MalformedCase& c, std::ostream* out) { *out << c.name; }

class IrMalformed : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(IrMalformed, IsRefusedWithWordOffset) {
  std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp");
  GetParam().corrupt(words);
  std::string error;
  EXPECT_FALSE(ParseModule(words, &error));
  EXPECT_NE(error.find("word "), std::string::npos) << error;
  EXPECT_NE(error.find(GetParam().message), std::string::npos) << error;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, IrMalformed,
    ::testing::Values(
        MalformedCase{"BadMagic", [](auto& w) { w[0] = 0x12345678; }, "bad magic"},
        MalformedCase{"TruncatedHeader", [](auto& w) { w.resize(3); }, "truncated header"},
        MalformedCase{"TruncatedStream", [](auto& w) { w.resize(w.size() - 3); },
                      "truncated stream"},
        MalformedCase{"ZeroWordCount", [](auto& w) { w[5] &= 0xffff; }, "word count 0"},
        MalformedCase{"IdAtBound", [](auto& w) { w[3] = 5; },  // every id >= 5 is now out of bounds
                      "at or above the bound"},
        // Tables by id would take gigabytes (the fuzz smoke's out-of-memory input).
        MalformedCase{"BoundOverSpirvMaximum", [](auto& w) { w[3] = kMaxIdBound + 1; },
                      "word 3: id bound 4194304 is over 4194303, SPIR-V's maximum id bound "
                      "(Glint's input limit kMaxIdBound)"},
        MalformedCase{"BoundNearTwoToThe32", [](auto& w) { w[3] = 0xFFFFFFF0u; },
                      "is over 4194303"},
        MalformedCase{"UnknownOpcode", [](auto& w) { w[5] = (w[5] & 0xffff0000u) | 0x7fffu; },
                      "unknown opcode"},
        MalformedCase{"WrongSection",
                      [](auto& w) {
                        // Move the first instruction (OpCapability) to the end of the module.
                        uint32_t count = w[5] >> 16;
                        std::vector<uint32_t> cap(w.begin() + 5, w.begin() + 5 + count);
                        w.erase(w.begin() + 5, w.begin() + 5 + count);
                        w.insert(w.end(), cap.begin(), cap.end());
                      },
                      "OpCapability"}),
    [](const auto& info) { return std::string(info.param.name); });

// The word offset of the first instruction with `opcode` in a module's words, or 0.
size_t FirstInstructionOf(const std::vector<uint32_t>& words, spv::Op opcode) {
  for (size_t at = 5; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16)
    if ((words[at] & 0xffff) == opcode) return at;
  return 0;
}

// Instructions whose words are all ids are checked without decoding their operands; a
// bad operand there is refused with the same words as any other instruction's.
TEST(Ir, IdOnlyInstructionWithBadOperandIsRefusedNamingIt) {
  const std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp");
  const size_t add = FirstInstructionOf(words, spv::OpIAdd);
  ASSERT_NE(add, 0u);
  const uint32_t bound = words[3];
  struct Case {
    uint32_t operand;
    std::string message;
  };
  for (const Case& c : {Case{0, "OpIAdd operand id 0 is 0"},
                        Case{bound, "OpIAdd operand id " + std::to_string(bound) +
                                        " is at or above the bound " + std::to_string(bound)}}) {
    std::vector<uint32_t> corrupted = words;
    corrupted[add + 4] = c.operand;  // the second operand: opcode, type, result, first, second
    std::string error;
    EXPECT_FALSE(ParseModule(corrupted, &error));
    EXPECT_EQ(error, "word " + std::to_string(add) + ": " + c.message);
  }
}

// Instructions whose shape fixes where their ids are (OpName, OpSelectionMerge,
// OpVariable) are checked without decoding too, and refused in the same words.
TEST(Ir, FixedShapeInstructionWithBadIdIsRefusedNamingIt) {
  const std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp");
  const uint32_t bound = words[3];
  const std::string at_bound = " is at or above the bound " + std::to_string(bound);
  struct Case {
    spv::Op opcode;
    size_t word;  // from the instruction's first word
    uint32_t value;
    std::string message;
  };
  const Case cases[] = {
      {spv::OpName, 1, bound, "OpName operand id " + std::to_string(bound) + at_bound},
      {spv::OpName, 1, 0, "OpName operand id 0 is 0"},
      {spv::OpSelectionMerge, 1, bound,
       "OpSelectionMerge operand id " + std::to_string(bound) + at_bound},
      {spv::OpLoopMerge, 2, 0, "OpLoopMerge operand id 0 is 0"},
      {spv::OpVariable, 1, bound, "OpVariable result type id " + std::to_string(bound) + at_bound},
  };
  for (const Case& c : cases) {
    const size_t at = FirstInstructionOf(words, c.opcode);
    ASSERT_NE(at, 0u) << grammar::OpcodeName(c.opcode);
    std::vector<uint32_t> corrupted = words;
    corrupted[at + c.word] = c.value;
    std::string error;
    EXPECT_FALSE(ParseModule(corrupted, &error));
    EXPECT_EQ(error, "word " + std::to_string(at) + ": " + c.message);
  }
}

// With a bad result and a bad id word, the result is named: result type, result, then
// each id word, in the order the decoding path checks them.
TEST(Ir, FixedShapeInstructionNamesItsResultBeforeItsOperands) {
  const std::vector<uint32_t> words = test::Assemble(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %one = OpConstant %uint 1
        %ptr = OpTypePointer Private %uint
        %var = OpVariable %ptr Private %one
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  const size_t at = FirstInstructionOf(words, spv::OpVariable);
  ASSERT_NE(at, 0u);
  const uint32_t bound = words[3];
  std::vector<uint32_t> corrupted = words;
  corrupted[at + 2] = bound;  // the result
  corrupted[at + 4] = 0;      // the initializer
  std::string error;
  EXPECT_FALSE(ParseModule(corrupted, &error));
  EXPECT_EQ(error, "word " + std::to_string(at) + ": OpVariable result id " +
                       std::to_string(bound) + " is at or above the bound " +
                       std::to_string(bound));
  corrupted[at + 2] = words[at + 2];
  EXPECT_FALSE(ParseModule(corrupted, &error));
  EXPECT_EQ(error, "word " + std::to_string(at) + ": OpVariable operand id 0 is 0");
  EXPECT_TRUE(ParseModule(words, &error)) << error;
}

// An instruction too short for its result type or result, or with either id 0, is
// refused naming the opcode and what is missing.
TEST(Ir, InstructionWithoutItsResultIsRefusedNamingIt) {
  const std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp");
  const size_t add = FirstInstructionOf(words, spv::OpIAdd);
  ASSERT_NE(add, 0u);
  const uint32_t opcode = spv::OpIAdd;
  struct Case {
    size_t word;  // from the instruction's first word
    uint32_t value;
    std::string message;
  };
  const Case cases[] = {
      {0, (1u << 16) | opcode, "OpIAdd lacks its result type"},
      {0, (2u << 16) | opcode, "OpIAdd lacks its result id"},
      {1, 0, "OpIAdd has result type id 0"},
      {2, 0, "OpIAdd has result id 0"},
  };
  for (const Case& c : cases) {
    std::vector<uint32_t> corrupted = words;
    corrupted[add + c.word] = c.value;
    std::string error;
    EXPECT_FALSE(ParseModule(corrupted, &error));
    EXPECT_EQ(error, "word " + std::to_string(add) + ": " + c.message);
  }
}

TEST(Ir, DefUse_FindsDefinitionsAndUses) {
  std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module);
  DefUse def_use(*module);
  uint32_t main_id = EntryPointInterfaceView(module->entry_points.front()).function();
  Instruction* def = def_use.Definition(main_id);
  ASSERT_NE(def, nullptr);
  EXPECT_EQ(def->opcode, spv::OpFunction);
  bool used_by_entry_point = false;
  for (const Use& use : def_use.Uses(main_id))
    used_by_entry_point |= use.user->opcode == spv::OpEntryPoint;
  EXPECT_TRUE(used_by_entry_point);
}

// Every block of every function maps to its function; a block the index has not seen
// (a copy) to none.
TEST(Ir, DefUse_FunctionOfBlock) {
  std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module);
  DefUse def_use(*module);
  size_t blocks = 0;
  for (Function& function : module->functions)
    for (const Block& block : function.blocks) {
      EXPECT_EQ(def_use.FunctionOfBlock(&block), &function);
      ++blocks;
    }
  EXPECT_GT(blocks, 3u) << "the loop shader has a loop's blocks";
  Block copy = module->functions.front().blocks.front();
  EXPECT_EQ(def_use.FunctionOfBlock(&copy), nullptr);
}

// An invalid module may give two blocks one label id: each still maps to its own
// function (the first by its label id, the second by address).
TEST(Ir, DefUse_FunctionOfBlockWithALabelIdTwice) {
  std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module);
  Function& function = module->functions.front();
  ASSERT_GT(function.blocks.size(), 2u);
  auto first = function.blocks.begin();
  auto second = std::next(first, 2);
  second->label.result_id = first->label.result_id;
  Function other;  // a second function holding the renamed block
  other.blocks.splice(other.blocks.end(), function.blocks, second);
  module->functions.push_back(std::move(other));
  DefUse def_use(*module);
  EXPECT_EQ(def_use.FunctionOfBlock(&*first), &module->functions.front());
  EXPECT_EQ(def_use.FunctionOfBlock(&module->functions.back().blocks.front()),
            &module->functions.back());
}

// BlockOf finds instructions with a result id by id and the others (stores, branches,
// line instructions) by address; a copy of either, or a module-scope instruction, has
// none.
TEST(Ir, DefUse_BlockOfEveryInstruction) {
  std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module);
  DefUse def_use(*module);
  size_t with_result = 0, without_result = 0;
  for (Function& function : module->functions)
    for (Block& block : function.blocks)
      for (const Instruction& inst : block.instructions) {
        EXPECT_EQ(def_use.BlockOf(&inst), &block) << grammar::OpcodeName(inst.opcode);
        EXPECT_EQ(def_use.FunctionOf(&inst), &function);
        Instruction copy = inst;
        EXPECT_EQ(def_use.BlockOf(&copy), nullptr);
        ++(inst.result_id ? with_result : without_result);
      }
  EXPECT_GT(with_result, 0u);
  EXPECT_GT(without_result, 0u);
  EXPECT_EQ(def_use.BlockOf(&module->types_values.front()), nullptr);
  EXPECT_EQ(def_use.BlockOf(nullptr), nullptr);
}

// A module a pass changed: an instruction made anew (word offset 0) and one moved ahead
// of its neighbours (offsets out of order). BlockOf still finds every instruction of
// every block, the new ones included.
TEST(Ir, DefUse_BlockOfEveryInstructionAfterChanges) {
  std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp");
  std::string error;
  for (bool made_anew : {true, false}) {
    std::optional<Module> module = ParseModule(words, &error);
    ASSERT_TRUE(module) << error;
    Block& entry = module->functions.front().blocks.front();
    if (made_anew) {
      Instruction nop(spv::OpNop, 0, 0, {});
      entry.instructions.insert(entry.instructions.begin(), nop);
    } else {
      // The entry block's last instruction without a result moved to its front.
      auto last = std::find_if(entry.instructions.rbegin(), entry.instructions.rend(),
                               [](const Instruction& inst) { return inst.result_id == 0; });
      ASSERT_NE(last, entry.instructions.rend());
      entry.instructions.splice(entry.instructions.begin(), entry.instructions,
                                std::prev(last.base()));
    }
    DefUse def_use(*module);
    size_t without_result = 0;
    for (Function& function : module->functions)
      for (Block& block : function.blocks)
        for (const Instruction& inst : block.instructions) {
          EXPECT_EQ(def_use.BlockOf(&inst), &block) << grammar::OpcodeName(inst.opcode);
          without_result += inst.result_id == 0;
        }
    EXPECT_GT(without_result, 1u);
    Instruction outside(spv::OpNop, 0, 0, {});
    EXPECT_EQ(def_use.BlockOf(&outside), nullptr);
  }
}

// The operand ids kept per instruction inside a block are exactly the id operands a
// decode of that instruction finds, in order, its result type left out (an OpSwitch's
// labels included); instructions outside blocks and copies have none.
TEST(Ir, DefUse_OperandIdsOfEveryInstructionInABlock) {
  const char* kSwitchShader = R"(#version 450
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  switch (data[i] & 3u) {
    case 0u: data[i] = i * 2u; break;
    case 2u: data[i] = min(i, 7u); break;
    default: for (uint k = 0u; k < i; ++k) data[k] += 1u;
  }
})";
  std::vector<uint32_t> words = test::CompileGlsl(kSwitchShader, "comp");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  DefUse def_use(*module);
  size_t checked = 0, with_ids = 0;
  bool saw_switch = false;
  for (Function& function : module->functions) {
    EXPECT_FALSE(def_use.HasOperandIds(function.definition));
    for (Block& block : function.blocks)
      for (const Instruction& inst : block.instructions) {
        std::vector<uint32_t> expected;
        uint32_t width = 1;
        if (inst.opcode == spv::OpSwitch)
          width =
              module->LiteralWidthOfType(def_use.TypeOf(SwitchView(inst).selector())->result_id);
        OperandList operands;
        ASSERT_TRUE(DecodeOperands(inst, width, &operands, &error)) << error;
        for (const Operand& operand : operands)
          if (operand.is_id) expected.push_back(inst.words[operand.first_word]);
        ASSERT_TRUE(def_use.HasOperandIds(inst)) << grammar::OpcodeName(inst.opcode);
        DefUse::IdRange kept = def_use.OperandIds(inst);
        EXPECT_EQ(std::vector<uint32_t>(kept.begin(), kept.end()), expected)
            << grammar::OpcodeName(inst.opcode);
        saw_switch |= inst.opcode == spv::OpSwitch && expected.size() == 4;
        with_ids += !expected.empty();
        ++checked;
        Instruction copy = inst;
        EXPECT_FALSE(def_use.HasOperandIds(copy));
        EXPECT_EQ(def_use.OperandIds(copy).size(), 0u);
      }
  }
  EXPECT_TRUE(saw_switch) << "selector, default and two case labels";
  EXPECT_GT(with_ids, 10u);
  EXPECT_GT(checked, with_ids) << "labels' branches and returns included";
  EXPECT_FALSE(def_use.HasOperandIds(module->types_values.front()));
  EXPECT_FALSE(def_use.HasOperandIds(module->entry_points.front()));
}

TEST(Ir, Types_AreFoundNotDuplicated) {
  std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module);
  uint32_t bound = module->header.bound;
  uint32_t uint_type = module->FindOrAddIntType(32, false);
  EXPECT_EQ(module->header.bound, bound) << "uint already existed";
  uint32_t ten = module->FindOrAddConstant(uint_type, 10);
  EXPECT_EQ(module->FindOrAddConstant(uint_type, 10), ten);
  bound = module->header.bound;
  uint32_t long_type = module->FindOrAddIntType(64, false);
  EXPECT_EQ(long_type, bound) << "a new type takes the next id";
  EXPECT_GT(module->header.bound, long_type);
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "");
}

// The last id below SPIR-V's maximum bound is given out; the next request throws
// IdBoundExhausted (naming the limit) and leaves the bound at the maximum.
TEST(Ir, TakeNextId_StopsAtTheMaximumBound) {
  Module module;
  module.header.bound = kMaxIdBound - 1;
  EXPECT_EQ(module.TakeNextId(), kMaxIdBound - 1);
  EXPECT_EQ(module.header.bound, kMaxIdBound);
  try {
    module.TakeNextId();
    ADD_FAILURE() << "an id at the maximum bound was given out";
  } catch (const IdBoundExhausted& exhausted) {
    EXPECT_EQ(std::string(exhausted.what()),
              "cannot allocate a new id: the module's id bound is already 4194303, SPIR-V's "
              "maximum id bound "
              "(4194303, 0x3FFFFF)");
  }
  EXPECT_EQ(module.header.bound, kMaxIdBound);
  EXPECT_THROW(module.FindOrAddIntType(64, false), IdBoundExhausted);
  EXPECT_TRUE(module.types_values.empty()) << "nothing is added when no id is left";
}

// The input limits (parser.h) refuse before building anything: a 64 MB module over
// kMaxModuleWords and one of kMaxInstructions + 1 instructions, each in well under a
// second, with the limit named; a module just under both parses.
TEST(Ir, InputLimits_RefusedQuicklyByName) {
  struct Case {
    size_t nops;
    std::string message;
  };
  const Case cases[] = {
      {(size_t{64} << 20) / 4,
       "the module has 16777240 words, more than 8388608 (32 MiB, Glint's input limit "
       "kMaxModuleWords)"},
      {kMaxInstructions,
       "word 2097168: more than 2097152 instructions (Glint's input limit kMaxInstructions)"}};
  for (const Case& c : cases) {
    std::vector<uint32_t> words = test::NopModule(c.nops);
    std::string error;
    auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(ParseModule(words, &error));
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
    EXPECT_EQ(error, c.message);
  }
  std::string error;
  EXPECT_TRUE(ParseModule(test::NopModule(100000), &error)) << error;
}

TEST(Ir, Cfg_DominatorsAndLoops) {
  std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module);
  Function& main = module->functions.front();
  Cfg cfg(main);
  int loop_headers = 0;
  for (Block* block : cfg.ReversePostOrder()) {
    EXPECT_TRUE(cfg.Dominates(cfg.Entry(), block));
    if (!cfg.IsLoopHeader(block)) continue;
    ++loop_headers;
    Block* merge = cfg.BlockById(cfg.MergeTarget(block));
    ASSERT_NE(merge, nullptr);
    EXPECT_TRUE(cfg.Dominates(block, merge));
    EXPECT_TRUE(cfg.PostDominates(merge, block));
  }
  EXPECT_EQ(loop_headers, 1);
}

// Dominators and post-dominators of random control flow (irreducible loops, unreachable
// blocks, blocks that reach no exit) agree with their definitions, checked by removing
// each block and asking what the entry still reaches and what still reaches an exit.
TEST(Ir, Cfg_DominatorTreesMatchTheirDefinitionOnRandomGraphs) {
  std::mt19937 random(7);
  size_t checked_idoms = 0, checked_ipdoms = 0;
  for (int graph = 0; graph < 300; ++graph) {
    const int n = 3 + int(random() % 10);
    std::vector<std::vector<int>> successors(n);
    std::string text = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%bool = OpTypeBool
%cond = OpConstantTrue %bool
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
)";
    for (int b = 0; b < n; ++b) {
      text += "%b" + std::to_string(b) + " = OpLabel\n";
      const unsigned shape = random() % 10;
      if (shape == 0) {
        text += "OpReturn\n";
      } else if (shape < 4) {
        successors[b] = {int(random() % n)};
        text += "OpBranch %b" + std::to_string(successors[b][0]) + "\n";
      } else {
        successors[b] = {int(random() % n), int(random() % n)};
        text += "OpBranchConditional %cond %b" + std::to_string(successors[b][0]) + " %b" +
                std::to_string(successors[b][1]) + "\n";
      }
    }
    text += "OpFunctionEnd\n";
    std::optional<Module> module = test::AssembleModule(text);
    ASSERT_TRUE(module);
    Function& main = module->functions.front();
    Cfg cfg(main);
    std::vector<Block*> blocks;
    for (Block& block : main.blocks) blocks.push_back(&block);
    // Whether `from` reaches a block `accept` takes without passing `removed`.
    auto reaches = [&](int from, int removed, const std::function<bool(int)>& accept) {
      std::vector<char> seen(n, 0);
      std::vector<int> work;
      if (from != removed) work.push_back(from), seen[from] = 1;
      while (!work.empty()) {
        const int b = work.back();
        work.pop_back();
        if (accept(b)) return true;
        for (int s : successors[b])
          if (s != removed && !seen[s]) seen[s] = 1, work.push_back(s);
      }
      return false;
    };
    auto reached = [&](int b, int removed) {
      return reaches(0, removed, [b](int at) { return at == b; });
    };
    auto exits = [&](int b, int removed) {
      return reaches(b, removed, [&](int at) { return successors[at].empty(); });
    };
    for (int b = 0; b < n; ++b) {
      SCOPED_TRACE("graph " + std::to_string(graph) + ", block " + std::to_string(b));
      // Strict dominators: the blocks whose removal cuts b off from the entry.
      std::vector<int> dominators, post_dominators;
      for (int d = 0; d < n; ++d) {
        if (d == b) continue;
        if (reached(b, -1) && !reached(b, d)) dominators.push_back(d);
        if (exits(b, -1) && !exits(b, d)) post_dominators.push_back(d);
      }
      for (int d = 0; d < n; ++d)
        if (d != b && reached(b, -1))
          EXPECT_EQ(cfg.Dominates(blocks[d], blocks[b]),
                    std::count(dominators.begin(), dominators.end(), d) > 0)
              << "dominator " << d;
      // The immediate one is dominated by every other.
      auto nearest = [&](const std::vector<int>& all, bool post) -> Block* {
        for (int candidate : all) {
          bool below_all = true;
          for (int other : all)
            if (other != candidate &&
                !(post ? !exits(candidate, other) : !reached(candidate, other)))
              below_all = false;
          if (below_all) return blocks[candidate];
        }
        return nullptr;
      };
      if (reached(b, -1) && b != 0) {
        EXPECT_EQ(cfg.ImmediateDominator(blocks[b]), nearest(dominators, false));
        ++checked_idoms;
      }
      if (exits(b, -1)) {
        EXPECT_EQ(cfg.ImmediatePostDominator(blocks[b]), nearest(post_dominators, true));
        ++checked_ipdoms;
      }
    }
  }
  EXPECT_GT(checked_idoms, 800u);
  EXPECT_GT(checked_ipdoms, 500u);
}

// A CFG numbers its function's blocks in function order, and finds them by label id; a
// block of another function, or an id that labels no block of this one, is not found.
TEST(Ir, Cfg_NumbersBlocksInFunctionOrder) {
  std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp");
  std::string error;
  std::optional<Module> module = ParseModule(words, &error);
  ASSERT_TRUE(module);
  Function& main = module->functions.front();
  Cfg cfg(main);
  ASSERT_EQ(cfg.BlockCount(), main.blocks.size());
  ASSERT_GT(cfg.BlockCount(), 3u);
  size_t number = 0;
  for (Block& block : main.blocks) {
    EXPECT_EQ(cfg.NumberOf(&block), static_cast<int>(number));
    EXPECT_EQ(cfg.BlockNumbered(number), &block);
    EXPECT_EQ(cfg.BlockById(block.id()), &block);
    ++number;
  }
  // Each edge knows its place among its target's predecessors (a phi's incoming pair).
  size_t edges = 0;
  for (Block& block : main.blocks) {
    BlockSpan successors = cfg.Successors(&block);
    for (size_t k = 0; k < successors.size(); ++k, ++edges) {
      BlockSpan preds = cfg.Predecessors(successors[k]);
      const uint32_t slot = cfg.SlotInSuccessor(&block, k);
      ASSERT_LT(slot, preds.size());
      EXPECT_EQ(preds[slot], &block);
    }
  }
  EXPECT_GT(edges, cfg.BlockCount() - 1);  // the loop's back edge and its branches
  Block outsider;
  EXPECT_EQ(cfg.NumberOf(&outsider), -1);
  EXPECT_EQ(cfg.Successors(&outsider).size(), 0u);
  EXPECT_FALSE(cfg.Dominates(cfg.Entry(), &outsider));
  EXPECT_EQ(cfg.BlockById(main.id()), nullptr);  // the function's own id labels no block
  EXPECT_EQ(cfg.BlockById(0), nullptr);
}

}  // namespace
}  // namespace glint::spirv
