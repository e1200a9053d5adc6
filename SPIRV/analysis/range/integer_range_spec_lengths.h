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
  bool BelowByHalvedBound(uint32_t index, const Instruction& use, uint32_t length,
                          const Instruction** guard);
  // Which readings of a value are at most floor(L / 2) in every specialization
  // (kHalfU32: its u32 reading, which makes its i32 reading the same; kHalfI32: its i32
  // reading, which may be negative); 0 when neither is shown.
  static constexpr int kHalfU32 = 1, kHalfI32 = 2;
  int HalfOfLength(uint32_t value, uint32_t length);
  bool SameValue(uint32_t first, uint32_t second);
  bool HalvedTestBound(const GuardFact& fact, const Instruction& use, uint32_t length);
  uint32_t TestedOperand(const Instruction& branch, uint32_t canonical);
  int HalfConstant(uint32_t id, uint32_t length);
  int HalvedLocal(const Instruction& load, uint32_t length);
  // The u32 reading of `id` is at most L's in every specialization: SpecAtMost, through
  // conversions between signedness (OpSpecConstantOp IAdd/ISub of 0, Bitcast) and
  // components of constant composites (gl_WorkGroupSize.x).
  bool BitsAtMost(uint32_t id, uint32_t length, int depth);
  // The i32 reading of `value` (an instruction's result; `canonical` its canonical
  // value) is at least 0 at `use`: its range there, or a guard fact on the same value.
  bool NonNegativeAt(uint32_t value, uint32_t canonical, const Instruction& use);
  // The component of LocalInvocationId that the canonical value `id` is (a load through
  // one constant index, a one-index extract of a load of the whole vector, or a
  // parameter every call gives one such component); -1 for any other value. The
  // variable it reads is put in `variable`.
  int LocalInvocationIdComponent(uint32_t id, uint32_t* variable, int depth);
  // What every call gives `parameter`, and where (the argument's store, or the call for
  // a value parameter).
  bool ArgumentsOf(const Instruction& parameter, std::vector<uint32_t>* values,
                   std::vector<const Instruction*>* sites = nullptr);
  bool AtMostAt(uint32_t value, uint32_t length, int depth, const Instruction* at = nullptr);
  std::unordered_map<uint64_t, bool> parameters_at_most_;  // (parameter, length): AtMostAt
  // The id that sizes dimension `dimension` of `entry_function`'s workgroup: a
  // constituent of the BuiltIn WorkgroupSize constant, else a LocalSizeId operand; 0
  // where a literal LocalSize (or nothing) gives it.
  uint32_t WorkgroupSizeIdOf(uint32_t entry_function, int dimension);
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_SPEC_LENGTHS_H
