// The seam between the robust-access pass and the integer range analysis: the pass
// only sees IndexRangeOracle; this file is the one place that knows the analysis.
#include "SPIRV/analysis/integer_range_analysis.h"
#include "robust_access.h"

namespace glint::spirv {

namespace {

// --range-analysis=off: nothing has a range, every dynamic index is clamped.
class NoRanges : public IndexRangeOracle {
 public:
  IndexRange RangeAt(uint32_t, const Instruction&) override {
    IndexRange range;
    range.reason = "range analysis is off";
    return range;
  }
  bool ProvenBelowArrayLength(uint32_t, const Instruction&, uint32_t, uint32_t,
                              const Instruction**) override {
    return false;
  }
};

class AnalysisRanges : public IndexRangeOracle {
 public:
  AnalysisRanges(Module& module, const DefUse& def_use, const Options& options)
      : analysis_(module, def_use, IntegerRangeOptions::From(options)) {}

  IndexRange RangeAt(uint32_t value_id, const Instruction& use) override {
    IntegerRange found = analysis_.RangeAt(value_id, use);
    IndexRange range;
    range.known = found.valid;
    range.min = found.min;
    range.max = found.max;
    range.reason = found.reason;
    range.guard = found.guard;
    return range;
  }
  bool ProvenBelowArrayLength(uint32_t index, const Instruction& use, uint32_t block_pointer,
                              uint32_t member, const Instruction** guard) override {
    return analysis_.ProvenBelowArrayLength(index, use, block_pointer, member, guard);
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
