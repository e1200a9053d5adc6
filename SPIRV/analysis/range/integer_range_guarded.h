// Internal to the integer range analysis: a value's range at a use, narrowed by the
// guards that dominate it, full mode (integer_range_guarded.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_GUARDED_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_GUARDED_H

#include "SPIRV/analysis/range/range_guards.h"
#include "SPIRV/analysis/facts/small_ids.h"
#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

// The value a guard fact must name to be about a use's value.
struct FactTarget {
  uint32_t canonical = 0;  // Canonical(id)
  bool keyed = false;      // id reads component `index` of the canonical vector `vector`
  uint32_t vector = 0;
  uint32_t index = 0;
  bool About(const GuardFact& fact) const;
};

class UseRanges : public RangePart {
 public:
  using RangePart::RangePart;
  // A parameter's range in one call of its function (integer_range_call_results.cpp): a
  // parameter passed by value (its id), or a parameter pointer whose whole loads read
  // the value that call stored.
  struct GivenParameter {
    uint32_t parameter = 0;
    IntegerRange range;
  };
  // `id`'s range at `use`: narrowed by the facts that hold there and, when `given` is
  // set, during one call of `use`'s function that gives its parameters those ranges
  // (the expression's parameters, and whole loads of parameter pointers, take them
  // instead of the union over every call).
  IntegerRange RangeAt(uint32_t id, const Instruction& use,
                       const std::vector<GivenParameter>* given = nullptr);
  // `range` met with every fact about `id`'s canonical value, in `id`'s own reading.
  IntegerRange ApplyFacts(uint32_t id, IntegerRange range, const std::vector<GuardFact>& facts);
  bool ProvenBelowArrayLength(uint32_t index, const Instruction& use, uint32_t block_pointer,
                              uint32_t member, const Instruction** guard);

 private:
  static constexpr size_t kMaxContextNodes = 48;
  static constexpr int kMaxContextDepth = 6;
  bool Expandable(const Instruction& def);
  using ContextOrder = SmallIdList<kMaxContextNodes>;
  void ContextNodes(uint32_t id, ContextOrder* order, const std::vector<GivenParameter>* given);
  IntegerRange Reevaluated(uint32_t id, const std::vector<GuardFact>* facts,
                           const std::vector<GivenParameter>* given);
  const IntegerRange* GivenRange(const Instruction* def,
                                 const std::vector<GivenParameter>* given) const;
  bool MayBeAbout(uint32_t id, const std::vector<GuardFact>& facts) const;
  FactTarget TargetOf(uint32_t id, const std::vector<GuardFact>& facts);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_GUARDED_H
