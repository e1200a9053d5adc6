// Internal to the integer range analysis (not a public header): the evaluator, which
// keeps the memo and the fixed point over values, and dispatches each value to the one
// rule that ranges its kind.
//
// RangeOf walks an explicit stack: a value is first expanded (the operands its rule
// reads, Dependencies, are pushed) and computed once all of them are memoized; an
// operand still being expanded means a cyclic definition (invalid SPIR-V, or a local
// whose own fixed point evaluates the cycle), which gets no range instead of a hang.
// Compute gates the type (32-bit integers; 8- and 16-bit ones in full mode) and asks
// the kind's rule (range_rule.h); the rules are range_rules.h's, each a part in a file
// of its own with its own state:
//   integer_range_value_kinds.cpp     which kind each value is
//   integer_range_arithmetic.cpp      constants, copies, bitcasts, + - * / % << >>
//   integer_range_bitwise.cpp         & | ^, bitfield extract and insert
//   integer_range_glsl_std450.cpp     min, max, clamp, abs
//   integer_range_bit_counts.cpp      bitCount, findLSB / findMSB, ballot bit counts
//   integer_range_merges.cpp          select, phi
//   integer_range_widths.cpp          8- and 16-bit integers, width conversions
//   integer_range_components.cpp     components of vectors, computed componentwise
//   integer_range_call_results.cpp   call results
//   integer_range_builtins.cpp        built-in variables and their components
//   integer_range_constant_tables.cpp  loads from constant tables
//   integer_range_loop_variables.cpp  for-loop control variables, from the loop's shape
//   integer_range_locals.cpp          locals stored once or followed by value flow
//   integer_range_calls.cpp           parameters across calls
//   integer_range_memory_loads.cpp    memory no rule follows (the reason names it)
// and the parts those rules ask:
//   integer_range_indexed_locals.cpp  locals read at run-time indices, written at constant ones
//   integer_range_loop_locals.cpp     loop-carried locals widened over x +/- s
//   integer_range_fixed_point.cpp     loop-carried locals with general updates
//   integer_range_counted_iterations.cpp  one update per iteration of a counted loop
//   integer_range_tested_after_update.cpp  locals tested right after their update
//   integer_range_trip_counts.cpp     counters bounded by the trip counts around them
//   integer_range_guarded.cpp         ranges at a use, narrowed by dominating guards
//   integer_range_caller_facts.cpp    the guard facts at a use, with those around every call
//   integer_range_ordered_differences.cpp  x - y where a guard proves x >= y
//   integer_range_spec_lengths.cpp    indices below a length set by a specialization
//                                     constant, for every value
// Parts that never ask for ranges (range_part.h's RangeShared): canonical_values.cpp,
// local_definitions.cpp, integer_range_origins.cpp, and the guard facts' range_guards.cpp
// with range_guard_switch.cpp and range_guard_vectors.cpp.
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_EVALUATOR_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_EVALUATOR_H

#include <vector>

#include "SPIRV/analysis/range/integer_range_analysis.h"
#include "SPIRV/analysis/range/range_part.h"
#include "SPIRV/analysis/range/range_rule.h"
#include "SPIRV/analysis/range/range_rules.h"

namespace glint::spirv {

class RangeEvaluator {
 public:
  RangeEvaluator(Module& module, const RangeInputs& inputs, const IntegerRangeOptions& options);
  RangeEvaluator(const RangeEvaluator&) = delete;
  RangeEvaluator& operator=(const RangeEvaluator&) = delete;

  // The range of `id`: memoized, else computed now with the operands it depends on.
  IntegerRange RangeOf(uint32_t id);
  // `id`'s range where `use` reads it (integer_range_guarded.cpp).
  IntegerRange RangeAt(uint32_t id, const Instruction& use) {
    return rules_.at_uses.RangeAt(id, use);
  }
  // A value at a use inside the counted loop of a local solved by counted iterations
  // (integer_range_counted_iterations.cpp); None when not such a use.
  IntegerRange CountedAtUse(uint32_t id, const Instruction& use) {
    return rules_.counted.CountedAtUse(id, use);
  }
  bool ProvenBelowArrayLength(uint32_t index, const Instruction& use, uint32_t block_pointer,
                              uint32_t member, const Instruction** guard) {
    return rules_.at_uses.ProvenBelowArrayLength(index, use, block_pointer, member, guard);
  }
  bool ProvenBelowSpecializedLength(uint32_t index, const Instruction& use, uint32_t length,
                                    const Instruction** guard) {
    return rules_.spec_lengths.ProvenBelow(index, use, length, guard);
  }

  // The dispatch: which kind `def` is, and the rule that ranges that kind (null: none).
  ValueKind KindOf(const Instruction& def) { return rules_.kinds.Of(def); }
  const RangeRule* RuleFor(ValueKind kind) const { return rule_for_kind_[size_t(kind)]; }

  // For the rules that re-evaluate an expression under other operand ranges (at a use,
  // under a fixed point's iterate): the operands `def`'s rule reads, and `id`'s range
  // computed now from the operands' current ranges (the memo's, or the substitutes).
  DependencyIds Dependencies(const Instruction& def);
  IntegerRange Compute(uint32_t id);
  // Compute for a 32-bit integer value of the given signedness (no type gate).
  IntegerRange ComputeScalar(const Instruction& def, bool is_signed);

 private:
  RangeShared shared_;
  RangeRules rules_;
  RangeRule::Table rule_for_kind_{};  // null: no rule (the opcode is unsupported)
  // True, and marks `id`, unless its operands are already on the stack.
  bool MarkExpanded(uint32_t id);
  bool IsExpanded(uint32_t id) const { return id < expanded_.size() && expanded_[id]; }

  // Values whose operands are on the stack, by id (grown to the largest id asked).
  std::vector<bool> expanded_;
  std::vector<uint32_t> stack_;  // RangeOf's pending values, shared by nested calls
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_EVALUATOR_H
