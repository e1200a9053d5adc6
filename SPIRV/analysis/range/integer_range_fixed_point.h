// Internal to the integer range analysis: loop-carried locals with general updates, an
// interval fixed point over the stores that reach a load, full mode
// (integer_range_fixed_point.cpp). Counted iterations (integer_range_counted_iterations.h)
// reuse its evaluation under an iterate.
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_FIXED_POINT_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_FIXED_POINT_H

#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "SPIRV/analysis/range/range_guards.h"
#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

// The local a fixed point is solved for: the element a load reads, what reaches it, and
// the walk's state.
struct FixedPointTarget {
  uint32_t variable = 0;
  std::vector<uint32_t> path;
  const LocalDefinitions* local = nullptr;
  std::vector<std::pair<uint32_t, const Instruction*>> updates;  // (value, its store)
  std::unordered_map<uint32_t, bool> reaches;                    // value -> reaches a cycle load
  std::unordered_set<const Instruction*> visiting;  // loads of other locals being evaluated
  size_t reach_work = 0;
  size_t work = 0;
  // Counted iterations (integer_range_counted_iterations.cpp): loads of `counter` in
  // `loop` read `counter_value`; cycle loads and other locals' stores are checked there.
  uint32_t counter = 0;
  int64_t counter_value = 0;
  const NaturalLoop* loop = nullptr;
  const Instruction* counter_latch_store = nullptr;
  // At a use in the loop: what a load of the local that precedes the update in every
  // iteration reads (the local at the iteration's start); others read `x`.
  std::optional<IntegerRange> x_before;
  const Instruction* update = nullptr;
};

// The operators an update may pass on its way to a cycle load, and the values stored
// where a load of a local reads (values and updates); shared with counted iterations.
bool FixedPointOp(const Instruction& def);
std::vector<std::pair<uint32_t, const Instruction*>> StoredValues(const LocalDefinitions& local);

class LocalFixedPoint : public RangePart {
 public:
  using RangePart::RangePart;
  static constexpr int kMaxFixedPointRounds = 8;
  static constexpr int kMaxNarrowings = 2;
  static constexpr size_t kMaxFixedPointNodes = 256;
  using RangeCache = std::unordered_map<uint32_t, std::optional<IntegerRange>>;

  // True when a store that reaches `load` reads the local's own value in a loop.
  bool CycleDependent(const Instruction& load);
  IntegerRange FixedPointLocal(const Instruction& load, bool is_signed);
  bool FixedPointTargetOf(const Instruction& load, FixedPointTarget* target);
  std::optional<IntegerRange> InitialValues(FixedPointTarget* target, bool is_signed);
  std::optional<IntegerRange> FixedPointStep(FixedPointTarget* target,
                                             const std::optional<IntegerRange>& initial,
                                             const std::optional<IntegerRange>& x, bool is_signed);
  std::optional<IntegerRange> EvalUnder(uint32_t id, FixedPointTarget* target,
                                        const std::optional<IntegerRange>& x,
                                        const std::vector<GuardFact>* facts, RangeCache* cache);

 private:
  bool StoresInALoop(const Instruction& load, const LocalDefinitions& local);
  bool IsCycleLoad(const Instruction& load, const FixedPointTarget& target);
  bool ReachesCycle(uint32_t id, FixedPointTarget* target);
  IntegerRange SolveFixedPoint(FixedPointTarget* target, bool is_signed);
  IntegerRange Narrowed(FixedPointTarget* target, const std::optional<IntegerRange>& initial,
                        std::optional<IntegerRange> x, bool is_signed);
  std::optional<IntegerRange> BuiltinParts(const LocalDefinitions& local, bool is_signed);
  std::optional<IntegerRange> LoadUnder(const Instruction& load, FixedPointTarget* target,
                                        const std::optional<IntegerRange>& x);
  std::optional<IntegerRange> OperatorUnder(const Instruction& def, bool is_signed,
                                            FixedPointTarget* target,
                                            const std::optional<IntegerRange>& x,
                                            const std::vector<GuardFact>* facts, RangeCache* cache);
  std::unordered_map<const Instruction*, bool> cycle_dependent_;  // load -> CycleDependent
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_FIXED_POINT_H
