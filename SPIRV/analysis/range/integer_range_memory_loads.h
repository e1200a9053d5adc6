// Internal to the integer range analysis: loads from memory no rule follows, whose
// reason names where the value was read (integer_range_memory_loads.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_MEMORY_LOADS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_MEMORY_LOADS_H

#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class MemoryLoadRule : public RangePart, public RangeRule {
 public:
  using RangePart::RangePart;
  void Register(Table& table) override;
  DependencyIds Dependencies(const Instruction& def, ValueKind kind) override;
  IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) override;

  // Why a load through `pointer` has no range when no rule follows it; empty when a
  // rule does.
  std::string Refusal(const Instruction& pointer);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_MEMORY_LOADS_H
