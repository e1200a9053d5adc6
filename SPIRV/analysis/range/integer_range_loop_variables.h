// Internal to the integer range analysis: loads of a for-loop's control variable inside
// its body, from the loop's shape (loop_shapes.h); integer_range_loop_variables.cpp.
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_LOOP_VARIABLES_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_LOOP_VARIABLES_H

#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class LoopVariableRule : public RangePart, public RangeRule {
 public:
  using RangePart::RangePart;
  void Register(Table& table) override;
  DependencyIds Dependencies(const Instruction& def, ValueKind kind) override;
  IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) override;

  // The values the loop variable of `shape` takes in the body, from `init`'s range.
  IntegerRange LoopRange(const LoopShape& shape, const IntegerRange& init) const;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_LOOP_VARIABLES_H
