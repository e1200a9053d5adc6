// Internal to the integer range analysis: & | ^ and bitfield extract / insert, full mode
// (integer_range_bitwise.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_BITWISE_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_BITWISE_H

#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class BitwiseRule : public RangePart, public RangeRule {
 public:
  using RangePart::RangePart;
  void Register(Table& table) override;
  DependencyIds Dependencies(const Instruction& def, ValueKind kind) override;
  IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) override;

 private:
  IntegerRange BitwiseAnd(const Instruction& def, bool is_signed) const;
  IntegerRange BitwiseOrXor(const Instruction& def, bool is_signed) const;
  IntegerRange UnsignedBitField(const Instruction& def, bool is_signed) const;

 public:
  // A zero-extended field of `count` bits at `offset` (OpBitFieldUExtract), from their
  // ranges: [0, 2^count.max - 1] when offset + count is at most 32 for every value.
  static IntegerRange UnsignedField(const IntegerRange& offset, const IntegerRange& count,
                                    bool is_signed);

 private:
  IntegerRange BitFieldInsert(const Instruction& def, bool is_signed) const;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_BITWISE_H
