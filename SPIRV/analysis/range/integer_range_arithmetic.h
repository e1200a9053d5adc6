// Internal to the integer range analysis: constants, copies, bitcasts and the arithmetic
// operators + - * / % << >> (integer_range_arithmetic.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ARITHMETIC_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ARITHMETIC_H

#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class ArithmeticRule : public RangePart, public RangeRule {
 public:
  using RangePart::RangePart;
  void Register(Table& table) override;
  DependencyIds Dependencies(const Instruction& def, ValueKind kind) override;
  IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) override;

  // A kArithmetic operator's result from its operands' ranges (each in its own
  // signedness): also the rule of each component of a vector operator.
  IntegerRange BinaryOfRanges(spv::Op opcode, const IntegerRange& a, const IntegerRange& b,
                              bool is_signed) const;

 private:
  IntegerRange ConstantRange(const Instruction& def, bool is_signed) const;
  IntegerRange Bitcast(const Instruction& def, bool is_signed) const;
  IntegerRange Arithmetic(spv::Op opcode, const IntegerRange& a, const IntegerRange& b,
                          bool is_signed) const;
  IntegerRange Divide(const IntegerRange& a, const IntegerRange& b, bool is_signed) const;
  IntegerRange Shift(spv::Op opcode, const IntegerRange& a, const IntegerRange& b,
                     bool is_signed) const;
  IntegerRange Modulo(const IntegerRange& a, const IntegerRange& b, bool is_signed) const;
  IntegerRange WideModulo(spv::Op opcode, const IntegerRange& a, const IntegerRange& b) const;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ARITHMETIC_H
