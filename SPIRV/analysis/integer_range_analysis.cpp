// Integer range analysis (see integer_range_analysis.h). Work in progress: the
// interface is final; the rules land in the next commits.
#include "integer_range_analysis.h"

namespace glint::spirv {

IntegerRange IntegerRange::None(std::string why) {
  IntegerRange range;
  range.reason = std::move(why);
  return range;
}

IntegerRange IntegerRange::Of(bool is_signed, int64_t min, int64_t max) {
  IntegerRange range;
  range.valid = true;
  range.is_signed = is_signed;
  range.min = min;
  range.max = max;
  return range;
}

class IntegerRangeAnalysis::Evaluator {};

IntegerRangeAnalysis::IntegerRangeAnalysis(Module&, const DefUse&,
                                           const IntegerRangeOptions& options)
    : options_(options), evaluator_(std::make_unique<Evaluator>()) {}

IntegerRangeAnalysis::~IntegerRangeAnalysis() = default;

IntegerRange IntegerRangeAnalysis::RangeOf(uint32_t) {
  return IntegerRange::None("range analysis is not implemented yet (issue 5)");
}

}  // namespace glint::spirv
