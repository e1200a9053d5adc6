// Internal to the integer range analysis: 8- and 16-bit integers and conversions between
// widths, full mode (integer_range_widths.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_WIDTHS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_WIDTHS_H

#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class IntegerWidths : public RangePart, public RangeRule {
 public:
  using RangePart::RangePart;
  void Register(Table& table) override;
  DependencyIds Dependencies(const Instruction& def, ValueKind kind) override;
  IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) override;

  // The signedness and width of an OpTypeInt; false for any other type.
  bool IntWidth(uint32_t type_id, bool* is_signed, uint32_t* width) const;
  // A value of an 8- or 16-bit integer type, whatever computed it.
  IntegerRange NarrowValue(const Instruction& def, bool is_signed, uint32_t width);

 private:
  uint32_t WidthConversionSource(const Instruction& def) const;
  IntegerRange WidthConversion(const Instruction& def, bool is_signed, uint32_t width);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_WIDTHS_H
