// Internal to the integer range analysis: GLSL.std.450's integer min, max, clamp and abs
// (integer_range_glsl_std450.cpp); findLSB / findMSB are the bit counts' (BitCountRule).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_GLSL_STD450_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_GLSL_STD450_H

#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class GlslStd450Rule : public RangePart, public RangeRule {
 public:
  using RangePart::RangePart;
  void Register(Table& table) override;
  DependencyIds Dependencies(const Instruction& def, ValueKind kind) override;
  IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) override;

 private:
  IntegerRange MinMax(uint32_t instruction, uint32_t a_id, uint32_t b_id) const;
  IntegerRange Clamp(uint32_t instruction, const Instruction& def) const;
  IntegerRange AbsoluteValue(uint32_t x_id, bool is_signed) const;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_GLSL_STD450_H
