// Internal to the integer range analysis: loads of built-in variables and of their
// components (integer_range_builtins.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_BUILTINS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_BUILTINS_H

#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class BuiltinRule : public RangePart, public RangeRule {
 public:
  using RangePart::RangePart;
  void Register(Table& table) override;
  DependencyIds Dependencies(const Instruction& def, ValueKind kind) override;
  IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) override;

  // Component `component` of the built-in vector `variable` (LocalInvocationId, and
  // the dispatch built-ins under --max-workgroups).
  IntegerRange BuiltinComponent(uint32_t variable, uint32_t component, bool is_signed);

 private:
  IntegerRange BuiltinScalar(uint32_t variable, bool is_signed);
  IntegerRange ElementLoad(const Instruction& load, bool is_signed);
  IntegerRange DispatchComponent(uint32_t variable, uint32_t builtin, uint32_t component,
                                 bool is_signed);
  bool WorkgroupSize(uint32_t variable, int64_t size[3], std::string* why);
  bool InvocationCount(uint32_t variable, int64_t* count, std::string* why) const;
  IntegerRange DynamicBuiltinElement(const Instruction& variable);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_BUILTINS_H
