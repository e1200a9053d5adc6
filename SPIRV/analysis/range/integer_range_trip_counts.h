// Internal to the integer range analysis: counters bounded by the trip counts of the
// loops around their update, full mode (integer_range_trip_counts.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_TRIP_COUNTS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_TRIP_COUNTS_H

#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

class TripCounts : public RangePart {
 public:
  using RangePart::RangePart;
  IntegerRange CountedUpdates(const Instruction& load, const LocalDefinitions& local,
                              bool is_signed);

 private:
  // A counter's one update and its resets.
  struct CountedLocal {
    int64_t step = 0;                        // added per run of the update
    std::vector<const Instruction*> resets;  // every other store of the local
  };
  // -1 when refused; `why` (when given) then names an input the count depends on, if one
  // is the cause (a bound or start without a range), else stays empty.
  int64_t TripCount(const Cfg& cfg, const NaturalLoop& loop, std::string* why = nullptr);
  int64_t ExitTripCount(const ExitCounter& counter, std::string* why = nullptr);
  bool CountedStores(const CarriedUpdate& update, uint32_t variable, CountedLocal* counted,
                     std::string* why);
  IntegerRange ResetRange(const CountedLocal& counted, uint32_t variable, bool is_signed);
  int64_t UpdateRuns(const Instruction& store, const CountedLocal& counted, std::string* why);
  bool EnteredAfterReset(const Cfg& cfg, const NaturalLoop& loop, const CountedLocal& counted);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_TRIP_COUNTS_H
