// Internal to the integer range analysis: loads from variables that only hold their
// constant initializer, full mode (integer_range_constant_tables.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_CONSTANT_TABLES_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_CONSTANT_TABLES_H

#include <unordered_map>

#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class ConstantTables : public RangePart, public RangeRule {
 public:
  using RangePart::RangePart;
  void Register(Table& table) override;
  DependencyIds Dependencies(const Instruction& def, ValueKind kind) override;
  IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) override;

  static constexpr size_t kMaxTableScalars = 4096;
  // The variable at the root of `pointer` when it is a constant table, with the chains'
  // indices (ids) from the variable outwards appended to `indices`; null otherwise.
  const Instruction* ConstantTableOf(uint32_t pointer, std::vector<uint32_t>* indices);
  // The hull of the scalars of `table`'s initializer that `indices` may select, then,
  // when `component` is not negative, that component of each selected vector.
  IntegerRange TableLoad(const Instruction& table, const std::vector<uint32_t>& indices,
                         bool is_signed, int64_t component = -1);

 private:
  const Instruction* TableWriter(uint32_t pointer, int depth) const;
  std::unordered_map<uint32_t, bool> constant_tables_;  // variable -> nothing writes it
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_CONSTANT_TABLES_H
