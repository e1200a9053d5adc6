// Internal to the integer range analysis: indices proven below an array length that is a
// specialization constant, for every value the application may give it, full mode
// (integer_range_spec_lengths.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_SPEC_LENGTHS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_SPEC_LENGTHS_H

#include <optional>
#include <unordered_map>

#include "SPIRV/analysis/range/range_guards.h"
#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

class SpecializedLengths : public RangePart {
 public:
  using RangePart::RangePart;
  // True when `index`, read by `use`, lies in [0, L - 1] for every specialization of the
  // array length `length` (an OpSpecConstant); `guard` receives the test used, if any.
  bool ProvenBelow(uint32_t index, const Instruction& use, uint32_t length,
                   const Instruction** guard);
  // True when `at_most` is at most `length` (both as u32) whatever the application
  // specializes, and both are OpSpecConstant of 32-bit integer types (or one id).
  bool SpecAtMost(uint32_t at_most, uint32_t length);

 private:
  struct SpecConstant {
    uint32_t spec_id;
    uint32_t default_bits;
  };
  std::optional<SpecConstant> SpecConstantOf(uint32_t id);
  std::unordered_map<uint32_t, std::optional<SpecConstant>> spec_constants_;
  bool BelowByGuard(uint32_t index, const Instruction& use, uint32_t length,
                    const Instruction** guard);
  bool BelowByModulo(uint32_t index, uint32_t length);
  bool BelowByWorkgroupSize(uint32_t index, uint32_t length);
  // The component of LocalInvocationId that the canonical value `id` is (a load through
  // one constant index, a one-index extract of a load of the whole vector, or a
  // parameter every call gives one such component); -1 for any other value. The
  // variable it reads is put in `variable`.
  int LocalInvocationIdComponent(uint32_t id, uint32_t* variable, int depth);
  bool ArgumentsOf(const Instruction& parameter, std::vector<uint32_t>* values);
  // The id that sizes dimension `dimension` of `entry_function`'s workgroup: a
  // constituent of the BuiltIn WorkgroupSize constant, else a LocalSizeId operand; 0
  // where a literal LocalSize (or nothing) gives it.
  uint32_t WorkgroupSizeIdOf(uint32_t entry_function, int dimension);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_SPEC_LENGTHS_H
