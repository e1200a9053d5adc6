// Internal to the integer range analysis: loop-carried locals widened over `x +/- s`
// updates, full mode (integer_range_loop_locals.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_LOOP_LOCALS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_LOOP_LOCALS_H

#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

class CarriedLocals : public RangePart {
 public:
  using RangePart::RangePart;
  // The local's values: `initial` widened by the updates in `widened`, bounded by guards.
  IntegerRange WidenCarried(const LocalDefinitions& local,
                            const std::vector<const CarriedUpdate*>& widened, IntegerRange initial,
                            bool is_signed);
  // The step an update adds to the value it loaded; false (with `why`) when not a step.
  bool CarriedStep(const CarriedUpdate& update, bool is_signed, range_math::Interval* step,
                   std::string* why);
  // True when `loaded` reads only the stores that reach the local's load.
  bool ReadsOnlyFrom(const Instruction& loaded, const LocalDefinitions& local);

 private:
  range_math::Interval GuardBound(uint32_t value, const Instruction& use, bool is_signed);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_LOOP_LOCALS_H
