// Internal to the integer range analysis: OpSelect and OpPhi, full mode
// (integer_range_merges.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_MERGES_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_MERGES_H

#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class MergeRule : public RangePart, public RangeRule {
 public:
  using RangePart::RangePart;
  void Register(Table& table) override;
  DependencyIds Dependencies(const Instruction& def, ValueKind kind) override;
  IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) override;

 private:
  IntegerRange Select(const Instruction& def, bool is_signed) const;
  IntegerRange Phi(const Instruction& def, bool is_signed) const;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_MERGES_H
