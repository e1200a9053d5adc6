// Internal to the integer range analysis: a loop-carried local whose one update runs in
// a counted for-loop, evaluated once per iteration, full mode
// (integer_range_counted_iterations.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_COUNTED_ITERATIONS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_COUNTED_ITERATIONS_H

#include <optional>
#include <unordered_map>

#include "SPIRV/analysis/range/integer_range_fixed_point.h"
#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

class CountedIterations : public RangePart {
 public:
  using RangePart::RangePart;
  static constexpr int64_t kMaxCountedIterations = 64;

  IntegerRange CountedIterationsLocal(const Instruction& load, bool is_signed);
  // A value at a use inside the counted loop of a local solved by counted iterations:
  // the hull over the iterations of its value there; None when not such a use.
  IntegerRange CountedAtUse(uint32_t id, const Instruction& use);
  // The fixed point's questions about a counted target (integer_range_fixed_point.cpp).
  std::optional<IntegerRange> Solve(FixedPointTarget* target,
                                    const std::optional<IntegerRange>& initial, bool is_signed,
                                    std::string* why);
  bool IsIterationCounterLoad(const Instruction& load, const FixedPointTarget& target);
  bool PrecedesUpdate(const Instruction& load, const FixedPointTarget& target);
  bool RunsBefore(const Instruction& first, const Instruction& second);

 private:
  struct CountedLoop {
    const NaturalLoop* loop = nullptr;
    uint32_t counter = 0;                      // the loop's control variable
    std::vector<int64_t> values;               // its value in each iteration
    const Instruction* latch_store = nullptr;  // its store in the loop
  };
  bool CountedLoopAround(const FixedPointTarget& target, const Instruction& update,
                         CountedLoop* around, std::string* why);
  struct CountedSequence {
    FixedPointTarget target;          // counter, loop and latch store set
    std::vector<int64_t> values;      // the counter's value in each iteration
    IntegerRange initial;             // the local's values before the first iteration
    std::vector<IntegerRange> after;  // the local's values up to the end of each iteration
  };
  std::unordered_map<uint32_t, CountedSequence> counted_sequences_;  // variable ->
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_COUNTED_ITERATIONS_H
