// Loop control variables (reference rules): a load of a for-loop's variable inside the
// loop's body (loop_shapes.h says which loops have the reference shape: one init, one
// test against a bound, one constant step) lies between the initializer's range and the
// last value the step reaches within the bound; a loop that may overflow past its last
// value, or whose body never runs, is refused. A Function variable that is not such a
// loop's (in reference mode, any other local) names the loop shape's refusal.
#include "SPIRV/analysis/range/integer_range_loop_variables.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

namespace {

// The largest value init + k*step <= bound over init in [lo, hi] (lo <= hi <= bound).
int64_t LastIncreasingValue(int64_t lo, int64_t hi, int64_t bound, int64_t step) {
  int64_t remainder = (bound - hi) % step;
  if (remainder == 0 || hi - lo >= step - remainder) return bound;
  return bound - remainder;
}

}  // namespace

void LoopVariableRule::Register(Table& table) {
  table[size_t(ValueKind::kLoopVariableLoad)] = this;
}

// Inside the body, the initializer's value (LoopVariableLoadTarget); elsewhere nothing.
DependencyIds LoopVariableRule::Dependencies(const Instruction& load, ValueKind) {
  if (const Instruction* target = canonical_.LoopVariableLoadTarget(load))
    return {target->result_id};
  return {};
}

IntegerRange LoopVariableRule::Range(const Instruction& load, ValueKind, bool) {
  const LoopShape& shape = inputs_.loops.ForLoopOf(LoadView(load).pointer());
  if (!shape.ok) return IntegerRange::None(shape.reason);
  if (!canonical_.LoopVariableLoadTarget(load))
    return IntegerRange::None("load of the loop variable outside the loop body");
  IntegerRange init = Operand(shape.init_value);
  if (!init.valid) return IntegerRange::None("loop initializer has no range: " + init.reason);
  init = Convert(init, shape.is_signed);
  if (!init.valid) return IntegerRange::None("loop initializer has no range: " + init.reason);
  return LoopRange(shape, init);
}

IntegerRange LoopVariableRule::LoopRange(const LoopShape& shape, const IntegerRange& init) const {
  if (shape.increasing) {
    if (init.min > shape.bound) return IntegerRange::None("loop body never runs");
    int64_t hi = std::min(init.max, shape.bound);
    int64_t last = LastIncreasingValue(init.min, hi, shape.bound, shape.step);
    if (last + shape.step > TypeMax(shape.is_signed))
      return IntegerRange::None("loop variable may overflow past its last value");
    return IntegerRange::Of(shape.is_signed, init.min, last);
  }
  if (init.max < shape.bound) return IntegerRange::None("loop body never runs");
  int64_t lo = std::max(init.min, shape.bound);
  // Mirror the decreasing loop onto an increasing one: x -> -x.
  int64_t last = -LastIncreasingValue(-init.max, -lo, -shape.bound, shape.step);
  if (last - shape.step < TypeMin(shape.is_signed))
    return IntegerRange::None("loop variable may overflow past its last value");
  return IntegerRange::Of(shape.is_signed, last, init.max);
}

}  // namespace glint::spirv
