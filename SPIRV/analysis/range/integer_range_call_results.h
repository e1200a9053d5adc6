// Internal to the integer range analysis: call results, the union of what the callee
// returns, full mode (integer_range_call_results.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_CALL_RESULTS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_CALL_RESULTS_H

#include "SPIRV/analysis/range/integer_range_guarded.h"
#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class CallResults : public RangePart, public RangeRule {
 public:
  using RangePart::RangePart;
  void Register(Table& table) override;
  DependencyIds Dependencies(const Instruction& def, ValueKind kind) override;
  IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) override;

  static constexpr size_t kMaxReturns = 64;
  // The callee's OpReturnValue instructions; empty when there are more than kMaxReturns.
  std::vector<const Instruction*> ReturnsOf(const Function& function) const;
  // Every parameter whose range `call` gives `callee` (see the file comment), the
  // argument cases split them all; also the components of a vector a call returns
  // (integer_range_components.cpp).
  std::vector<UseRanges::GivenParameter> GivenParameters(const Instruction& call,
                                                         const Function& callee);
  // Those of `given` whose range at this call differs from their range over every call:
  // the others change nothing when the callee is re-evaluated for this call.
  std::vector<UseRanges::GivenParameter> ChangedInThisCall(
      const std::vector<UseRanges::GivenParameter>& given) const;

 private:
  std::vector<uint32_t> ReturnedValues(const Instruction& call);
  bool SameAsEveryCall(uint32_t parameter, const IntegerRange& range) const;
  IntegerRange CallResult(const Instruction& call, bool is_signed);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_CALL_RESULTS_H
