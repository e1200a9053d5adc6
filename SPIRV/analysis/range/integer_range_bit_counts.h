// Internal to the integer range analysis: bitCount, findLSB / findMSB and ballot bit
// counts, full mode (integer_range_bit_counts.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_BIT_COUNTS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_BIT_COUNTS_H

#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class BitCountRule : public RangePart, public RangeRule {
 public:
  using RangePart::RangePart;
  void Register(Table& table) override;
  DependencyIds Dependencies(const Instruction& def, ValueKind kind) override;
  IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) override;

  // GLSL.std.450 FindILsb / FindUMsb / FindSMsb of `x_id` (asked by GlslStd450Rule).
  IntegerRange BitPosition(uint32_t instruction, uint32_t x_id, bool is_signed) const;

 private:
  IntegerRange BitCount(const Instruction& def, bool is_signed) const;
  IntegerRange BallotBitCount(const Instruction& def, bool is_signed) const;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_BIT_COUNTS_H
