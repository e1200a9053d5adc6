// Tests of the range evaluator's dispatch (SPIRV/analysis/range/integer_range_value_kinds.cpp,
// range_rule.h): every kind of value has exactly the rule meant for it, and a load is
// the kind of what its pointer reads, in ValueKind's order (a constant table before a
// local, a parameter only in full mode).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/passes/hoist_constant_tables.h"
#include "support/range_parts.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

const char kShader[] = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(std430, binding = 1) buffer Probe { uint probe[]; };
struct Pick { uint index; uint other; };
const uint kTable[4] = uint[](3u, 1u, 4u, 1u);
void whole(uint k) { probe[k] = 1u; }
void part(Pick p) { probe[p.index] = 2u; }
void main() {
  uint once = gl_LocalInvocationIndex + 1u;
  uint flowed = 0u;
  if (data[0] > 2u) flowed = 5u;
  for (uint i = 0u; i < 4u; i++) probe[i] = once + flowed;
  probe[kTable[gl_LocalInvocationID.x & 3u]] = data[1];
  whole(once);
  Pick p = Pick(once, 0u);
  part(p);
}
)";

IntegerRangeOptions Mode(bool full) {
  IntegerRangeOptions options;
  options.mode = full ? RangeAnalysisMode::kFull : RangeAnalysisMode::kReference;
  return options;
}

// The kinds of the loads in `parts`' module whose pointer satisfies `reads`.
std::vector<ValueKind> KindsOfLoads(test::RangeParts& parts, RangeEvaluator& evaluator,
                                    const std::function<bool(const Instruction&)>& reads) {
  std::vector<ValueKind> kinds;
  for (const Instruction* load : parts.All(spv::OpLoad)) {
    const Instruction* pointer = parts.def_use().Definition(LoadView(*load).pointer());
    if (pointer && reads(*pointer)) kinds.push_back(evaluator.KindOf(*load));
  }
  return kinds;
}

// A pointer that is the variable named `name`, or a chain from it.
std::function<bool(const Instruction&)> From(test::RangeParts& parts, const std::string& name) {
  uint32_t variable = test::IdNamed(parts.module(), name);
  return [&parts, variable](const Instruction& pointer) {
    if (pointer.result_id == variable) return true;
    return IsChain(pointer) && AccessChainView(pointer).base() == variable;
  };
}

// A chain into a buffer (Uniform storage with BufferBlock before SPIR-V 1.3).
std::function<bool(const Instruction&)> FromBuffer(test::RangeParts& parts) {
  return [&parts](const Instruction& pointer) {
    if (!IsChain(pointer)) return false;
    const Instruction* base = parts.def_use().Definition(AccessChainView(pointer).base());
    return base && base->opcode == spv::OpVariable &&
           (VariableView(*base).storage_class() == spv::StorageClassStorageBuffer ||
            VariableView(*base).storage_class() == spv::StorageClassUniform);
  };
}

bool IsParameter(const Instruction& pointer) { return pointer.opcode == spv::OpFunctionParameter; }

// Non-empty, and every one of `kinds` is `kind`.
::testing::AssertionResult AllAre(const std::vector<ValueKind>& kinds, ValueKind kind) {
  if (kinds.empty()) return ::testing::AssertionFailure() << "no such load";
  for (ValueKind found : kinds)
    if (found != kind)
      return ::testing::AssertionFailure() << "kind " << int(found) << ", not " << int(kind);
  return ::testing::AssertionSuccess();
}

TEST(ValueKinds, EachKindHasItsOwnRule) {
  test::RangeParts parts(kShader);
  RangeEvaluator evaluator(parts.module(), parts.inputs(), Mode(true));
  using Check = std::function<bool(const RangeRule*)>;
  auto is = [](auto* typed) {
    return Check([](const RangeRule* rule) {
      return dynamic_cast<const std::remove_pointer_t<decltype(typed)>*>(rule) != nullptr;
    });
  };
  const std::vector<std::pair<ValueKind, Check>> expected = {
      {ValueKind::kConstant, is((ArithmeticRule*)nullptr)},
      {ValueKind::kSpecConstant, is((ArithmeticRule*)nullptr)},
      {ValueKind::kCopy, is((ArithmeticRule*)nullptr)},
      {ValueKind::kBitcast, is((ArithmeticRule*)nullptr)},
      {ValueKind::kArithmetic, is((ArithmeticRule*)nullptr)},
      {ValueKind::kBitwiseAnd, is((BitwiseRule*)nullptr)},
      {ValueKind::kBitwiseOrXor, is((BitwiseRule*)nullptr)},
      {ValueKind::kBitFieldExtract, is((BitwiseRule*)nullptr)},
      {ValueKind::kBitFieldInsert, is((BitwiseRule*)nullptr)},
      {ValueKind::kSelect, is((MergeRule*)nullptr)},
      {ValueKind::kPhi, is((MergeRule*)nullptr)},
      {ValueKind::kGlslStd450, is((GlslStd450Rule*)nullptr)},
      {ValueKind::kBitCount, is((BitCountRule*)nullptr)},
      {ValueKind::kBallotBitCount, is((BitCountRule*)nullptr)},
      {ValueKind::kComponent, is((VectorComponents*)nullptr)},
      {ValueKind::kWidthConversion, is((IntegerWidths*)nullptr)},
      {ValueKind::kCallResult, is((CallResults*)nullptr)},
      {ValueKind::kValueParameter, is((ParameterLoads*)nullptr)},
      {ValueKind::kTableLoad, is((ConstantTables*)nullptr)},
      {ValueKind::kBuiltinLoad, is((BuiltinRule*)nullptr)},
      {ValueKind::kSingleStoreLoad, is((LocalLoads*)nullptr)},
      {ValueKind::kLocalLoad, is((LocalLoads*)nullptr)},
      {ValueKind::kLoopVariableLoad, is((LoopVariableRule*)nullptr)},
      {ValueKind::kParameterLoad, is((ParameterLoads*)nullptr)},
      {ValueKind::kParameterPartLoad, is((ParameterLoads*)nullptr)},
      {ValueKind::kBuiltinElementLoad, is((BuiltinRule*)nullptr)},
      {ValueKind::kMemoryLoad, is((MemoryLoadRule*)nullptr)},
  };
  ASSERT_EQ(expected.size() + 1, size_t(ValueKind::kCount)) << "a kind without a row here";
  EXPECT_EQ(evaluator.RuleFor(ValueKind::kUnsupported), nullptr);
  for (const auto& [kind, check] : expected)
    EXPECT_TRUE(check(evaluator.RuleFor(kind))) << "kind " << int(kind);
}

TEST(ValueKinds, LoadsAreTheKindOfWhatTheyRead) {
  test::RangeParts parts(kShader);
  RangeEvaluator evaluator(parts.module(), parts.inputs(), Mode(true));
  EXPECT_TRUE(AllAre(KindsOfLoads(parts, evaluator, From(parts, "gl_LocalInvocationIndex")),
                     ValueKind::kBuiltinLoad));
  EXPECT_TRUE(AllAre(KindsOfLoads(parts, evaluator, From(parts, "gl_LocalInvocationID")),
                     ValueKind::kBuiltinElementLoad));
  EXPECT_TRUE(
      AllAre(KindsOfLoads(parts, evaluator, From(parts, "once")), ValueKind::kSingleStoreLoad));
  EXPECT_TRUE(AllAre(KindsOfLoads(parts, evaluator, From(parts, "flowed")), ValueKind::kLocalLoad));
  EXPECT_TRUE(
      AllAre(KindsOfLoads(parts, evaluator, From(parts, "i")), ValueKind::kLoopVariableLoad));
  EXPECT_TRUE(AllAre(KindsOfLoads(parts, evaluator, FromBuffer(parts)), ValueKind::kMemoryLoad));
  EXPECT_TRUE(AllAre(KindsOfLoads(parts, evaluator, IsParameter), ValueKind::kParameterLoad));
  std::vector<ValueKind> chained = KindsOfLoads(parts, evaluator, [&](const Instruction& pointer) {
    if (!IsChain(pointer)) return false;
    const Instruction* base = parts.def_use().Definition(AccessChainView(pointer).base());
    return base && IsParameter(*base);
  });
  EXPECT_TRUE(AllAre(chained, ValueKind::kParameterPartLoad));
}

// Reference mode follows no local, parameter or table: those loads are the loop
// variable's rule (which names the loop shape's refusal) or memory.
TEST(ValueKinds, ReferenceModeKeepsToTheReferenceShapes) {
  test::RangeParts parts(kShader, false);
  RangeEvaluator evaluator(parts.module(), parts.inputs(), Mode(false));
  for (const char* local : {"once", "flowed", "i"})
    EXPECT_TRUE(
        AllAre(KindsOfLoads(parts, evaluator, From(parts, local)), ValueKind::kLoopVariableLoad))
        << local;
  EXPECT_TRUE(AllAre(KindsOfLoads(parts, evaluator, IsParameter), ValueKind::kMemoryLoad));
  // Full-mode operators whose reference reason is the opcode alone have no kind there.
  for (const Instruction* call : parts.All(spv::OpFunctionCall))
    EXPECT_EQ(evaluator.KindOf(*call), ValueKind::kUnsupported);
}

// A `const` array read at a run-time index is a constant table once Glint's pass has
// given it a Private variable with its initializer: a table load, before anything else.
TEST(ValueKinds, ConstantTableLoadsComeFirst) {
  test::RangeParts parts(kShader);
  std::vector<ConstantTableDecision> decisions;
  HoistConstantTables(parts.module(), &decisions);
  ASSERT_FALSE(decisions.empty());
  AnalysisContext analyses(parts.module());
  RangeEvaluator evaluator(parts.module(), analyses.GetRangeInputs(), Mode(true));
  int tables = 0;
  for (const Function& function : parts.module().functions)
    for (const Block& block : function.blocks)
      for (const Instruction& inst : block.instructions)
        if (inst.opcode == spv::OpLoad && evaluator.KindOf(inst) == ValueKind::kTableLoad) {
          ++tables;
          IntegerRange range = evaluator.RangeOf(inst.result_id);
          EXPECT_TRUE(range.valid && range.min == 1 && range.max == 4) << range.reason;
        }
  EXPECT_EQ(tables, 1);
}

}  // namespace
}  // namespace glint::spirv
