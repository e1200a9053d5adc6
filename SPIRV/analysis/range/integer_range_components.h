// Internal to the integer range analysis: components of vectors, computed componentwise
// (integer_range_components.cpp), and OpCompositeExtract of a scalar.
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_COMPONENTS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_COMPONENTS_H

#include <optional>
#include <unordered_map>

#include "SPIRV/analysis/range/integer_range_guarded.h"
#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"

namespace glint::spirv {

class VectorComponents : public RangePart, public RangeRule {
 public:
  using RangePart::RangePart;
  void Register(Table& table) override;
  DependencyIds Dependencies(const Instruction& def, ValueKind kind) override;
  IntegerRange Range(const Instruction& def, ValueKind kind, bool is_signed) override;

  // The range of component `component` of the integer vector `vector` (memoized).
  IntegerRange ComponentRange(uint32_t vector, uint32_t component, int depth = 0);

 private:
  static constexpr int kMaxComponentDepth = 16;
  IntegerRange ExtractBuiltinComponent(const Instruction& def, bool is_signed);
  bool ComponentwiseBitcast(const Instruction& def) const;
  IntegerRange ComputeComponent(uint32_t vector, uint32_t component, int depth);
  std::optional<IntegerRange> ComponentOfSelection(const Instruction& def, uint32_t component,
                                                   int depth, bool is_signed);
  IntegerRange ComponentOfCall(const Instruction& call, uint32_t component, int depth,
                               bool is_signed);
  IntegerRange ComponentOfGlsl(const Instruction& def, uint32_t component, int depth,
                               bool is_signed);
  IntegerRange ComponentOfLoad(const Instruction& load, uint32_t component, int depth,
                               bool is_signed);
  IntegerRange ComponentOfLocal(const Instruction& load, uint32_t component, int depth,
                                bool is_signed);
  std::unordered_map<uint64_t, IntegerRange> component_ranges_;  // (vector << 5 | k)
  // One call's parameter ranges while the components its callee returns are computed
  // for that call (ComponentOfCall): scalars are then ranged in that call, and nothing
  // computed is memoized.
  struct CallContext {
    const std::vector<UseRanges::GivenParameter>* given = nullptr;
    const Instruction* at = nullptr;  // the OpReturnValue
  };
  const CallContext* context_ = nullptr;
  IntegerRange ScalarRange(uint32_t id);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_COMPONENTS_H
