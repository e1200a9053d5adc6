// Internal to the integer range analysis: loads of function parameters, whole or in
// part, over every call site, full mode (integer_range_calls.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_CALLS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_CALLS_H

#include <utility>

#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class ParameterLoads : public RangePart, public RangeRule {
 public:
  using RangePart::RangePart;
  void Register(Table& table) override;
  DependencyIds Dependencies(const Instruction& def, ValueKind kind) override;
  IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) override;

 private:
  struct ArgumentPartList {
    std::vector<uint32_t> parts;             // scalars, one per call that shows its part
    std::vector<const Instruction*> stores;  // parts[i]'s store
    std::vector<std::pair<uint32_t, uint32_t>> components;  // (computed vector, index)
    std::string why;                                        // non-empty: no range
  };
  IntegerRange ParameterLoad(const Instruction& parameter, bool is_signed);
  IntegerRange ValueParameter(const Instruction& parameter, bool is_signed);
  ArgumentPartList ArgumentParts(const Instruction& chain, const CallArguments& arguments) const;
  void CollectArgumentParts(const CallArguments& arguments, const std::vector<uint32_t>& path,
                            int depth, ArgumentPartList* list) const;
  IntegerRange ParameterPartLoad(const Instruction& chain, const Instruction& parameter,
                                 bool is_signed);
  IntegerRange ArgumentUnion(const std::vector<uint32_t>& values,
                             const std::vector<const Instruction*>& stores, bool is_signed);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_CALLS_H
