// Internal to the integer range analysis: loads of locals, stored once or followed by
// value flow, full mode (integer_range_locals.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_LOCALS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_LOCALS_H

#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class LocalLoads : public RangePart, public RangeRule {
 public:
  using RangePart::RangePart;
  void Register(Table& table) override;
  DependencyIds Dependencies(const Instruction& def, ValueKind kind) override;
  IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) override;

  // The range of `value` where `store` writes it (no store: its memoized range).
  IntegerRange StoredRange(uint32_t value, const Instruction* store);

 private:
  IntegerRange LocalUnion(const Instruction& load, bool is_signed);
  IntegerRange OrdinaryUnion(const Instruction& load, const LocalDefinitions& local,
                             bool is_signed);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_LOCALS_H
