// The seam between the robust-access pass and the integer range analysis: the pass
// only sees IndexRangeOracle; this file is the one place that knows the analysis.
#include "SPIRV/analysis/integer_range_analysis.h"
#include "robust_access.h"

namespace glint::spirv {

namespace {

// --range-analysis=off: nothing has a range, every dynamic index is clamped.
class NoRanges : public IndexRangeOracle {
 public:
  IndexRange RangeOf(uint32_t) override {
    IndexRange range;
    range.reason = "range analysis is off";
    return range;
  }
};

class AnalysisRanges : public IndexRangeOracle {
 public:
  AnalysisRanges(Module& module, const DefUse& def_use, const Options& options)
      : analysis_(module, def_use, IntegerRangeOptions::From(options)) {}

  IndexRange RangeOf(uint32_t value_id) override {
    IntegerRange found = analysis_.RangeOf(value_id);
    IndexRange range;
    range.known = found.valid;
    range.min = found.min;
    range.max = found.max;
    range.reason = found.reason;
    return range;
  }

 private:
  IntegerRangeAnalysis analysis_;
};

}  // namespace

std::unique_ptr<IndexRangeOracle> MakeIndexRangeOracle(Module& module, const DefUse& def_use,
                                                        const Options& options) {
  if (options.range_analysis == RangeAnalysisMode::kOff) return std::make_unique<NoRanges>();
  return std::make_unique<AnalysisRanges>(module, def_use, options);
}

}  // namespace glint::spirv
