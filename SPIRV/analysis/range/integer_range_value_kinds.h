// Internal to the integer range analysis: which kind of value (range_rule.h) each
// definition is, so that the evaluator dispatches once to the one rule that ranges it.
// A load's kind follows its pointer, in the order of ValueKind's load kinds (a constant
// table first). Kinds are structure only (no range is asked); a load's is memoized by id.
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_VALUE_KINDS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_VALUE_KINDS_H

#include <vector>

#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class ValueKinds : public RangePart {
 public:
  using RangePart::RangePart;
  ValueKind Of(const Instruction& def);

 private:
  ValueKind LoadKind(const Instruction& load);
  // A load's kind by its result id (kCount: not asked yet), sized by the module's bound
  // when first asked; a load past the bound (invalid input) is classified each time.
  std::vector<ValueKind> loads_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_VALUE_KINDS_H
