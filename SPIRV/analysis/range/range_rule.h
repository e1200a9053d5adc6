// Internal to the integer range analysis (not a public header): the kinds of value the
// range analysis tells apart, and the interface of a rule that ranges some of them.
//
// The evaluator (integer_range_evaluator.h) asks ValueKinds (integer_range_value_kinds.h)
// for a value's kind (one classification, memoized for loads), then asks the rule
// registered for that kind both for the operands to compute first (Dependencies) and
// for the range (Range): one dispatch, so the two can never disagree about which rule
// a value belongs to.
//
// Adding a rule: if it ranges a kind no rule has, add the kind here and where
// ValueKinds classifies it; write the rule as a RangePart in a file of its own that
// implements RangeRule and registers its kinds (Register), and list it in RangeRules
// (range_rules.h), and give the kind its row in integer_range_value_kinds_test. A rule
// that only helps other rules (it ranges no kind of its own) is a RangePart without
// RangeRule. docs/ARCHITECTURE.md says the same for the project.
#ifndef GLINT_SPIRV_ANALYSIS_RANGE_RULE_H
#define GLINT_SPIRV_ANALYSIS_RANGE_RULE_H

#include <array>
#include <cstdint>
#include <vector>

#include "SPIRV/analysis/facts/small_ids.h"
#include "SPIRV/analysis/range/range_types.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

// A value's kind: its opcode, and for a load what it reads (a load's kind follows the
// pointer: the first of the kinds below, in this order, that applies).
enum class ValueKind : uint8_t {
  kUnsupported,      // no rule (reference mode names the opcode)
  kConstant,         // OpConstant, OpConstantNull
  kSpecConstant,     // OpSpecConstant, OpSpecConstantOp without a value
  kCopy,             // OpCopyObject
  kBitcast,          // OpBitcast
  kArithmetic,       // + - * / % << >> (BinaryRuleOf's kArithmetic)
  kBitwiseAnd,       // &
  kBitwiseOrXor,     // | ^
  kBitFieldExtract,  // OpBitFieldUExtract
  kBitFieldInsert,   // OpBitFieldInsert
  kSelect,           // OpSelect
  kPhi,              // OpPhi
  kGlslStd450,       // OpExtInst
  kBitCount,         // OpBitCount
  kBallotBitCount,   // OpGroupNonUniformBallotBitCount
  kComponent,        // OpCompositeExtract
  kWidthConversion,  // OpUConvert, OpSConvert
  kCallResult,       // OpFunctionCall
  kValueParameter,   // OpFunctionParameter passed by value (full mode)
  // Loads, by what they read:
  kTableLoad,           // a constant table (full mode)
  kBuiltinLoad,         // an Input built-in variable, whole
  kSingleStoreLoad,     // a local stored once, the store dominating the load (full mode)
  kLocalLoad,           // a local followed by value flow (full mode)
  kLoopVariableLoad,    // any other Function variable: a for-loop's control variable
  kParameterLoad,       // a function parameter, whole (full mode)
  kParameterPartLoad,   // a part of a function parameter (full mode)
  kBuiltinElementLoad,  // an element of a built-in through an access chain
  kMemoryLoad,          // memory no rule follows (its origin names why)
  kCount
};

// The integer binary opcodes the analysis has a rule for, and which rule.
enum class BinaryRule { kNone, kArithmetic, kAnd, kOrXor };
BinaryRule BinaryRuleOf(spv::Op opcode);

class RangeRule {
 public:
  virtual ~RangeRule() = default;

  using Table = std::array<RangeRule*, size_t(ValueKind::kCount)>;
  // Puts this rule at each kind it ranges.
  virtual void Register(Table& table) = 0;
  // The values whose ranges Range() reads through Operand(): the evaluator computes
  // them first (and RangeAt re-evaluates them at a use).
  virtual DependencyIds Dependencies(const Instruction& def, ValueKind kind) = 0;
  // The range of `def`, a 32-bit integer of the given signedness.
  virtual IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) = 0;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_RANGE_RULE_H
