// Internal to the integer range analysis: a loop-carried local tested right after its
// update, full mode (integer_range_tested_after_update.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_TESTED_AFTER_UPDATE_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_TESTED_AFTER_UPDATE_H

#include "SPIRV/analysis/facts/range_relations.h"
#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

class TestedAfterUpdate : public RangePart {
 public:
  using RangePart::RangePart;
  IntegerRange Range(const Instruction& load, const CarriedUpdate& update,
                     const IntegerRange& initial, bool is_signed);

 private:
  IntegerRange EnteringValues(const CarriedUpdate& update, bool is_signed);
  bool OnlyStoreInLoop(uint32_t variable, const CarriedUpdate& update, const NaturalLoop& loop,
                       Function& function);
  bool ContinuingTest(const CarriedUpdate& update, const NaturalLoop& loop, const Cfg& cfg,
                      const ValueFlow& flow, uint32_t variable, bool is_signed, uint32_t* bound_id,
                      Relation* goes_on);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_TESTED_AFTER_UPDATE_H
