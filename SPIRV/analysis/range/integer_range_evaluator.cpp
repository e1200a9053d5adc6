// The range evaluator: the memo, the fixed point over values, and the dispatch to the
// rule of each value's kind (see integer_range_evaluator.h).
#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include <algorithm>
#include <string>

namespace glint::spirv {

RangeEvaluator::RangeEvaluator(Module& module, const RangeInputs& inputs,
                               const IntegerRangeOptions& options)
    : shared_(module, inputs, options, {RangePart::kMaxWideningDepth, RangePart::kMaxCallDepth}),
      rules_(shared_, *this) {
  for (RangeRule* rule : rules_.Rules()) rule->Register(rule_for_kind_);
}

IntegerRange RangeEvaluator::RangeOf(uint32_t id) {
  if (shared_.options.mode == RangeAnalysisMode::kOff)
    return IntegerRange::None("range analysis is off");
  IntegerRangeMemo& memo = shared_.memo;
  // One stack for every nested call: a call asked from inside a Compute works above the
  // entries of the call that asked, and leaves them as it found them.
  const size_t base = stack_.size();
  stack_.push_back(id);
  while (stack_.size() > base) {
    uint32_t top = stack_.back();
    if (memo.Has(top)) {
      stack_.pop_back();
      continue;
    }
    if (!MarkExpanded(top)) {  // second visit: every operand is done
      stack_.pop_back();
      IntegerRange computed;
      {
        NestedEvaluations::Scope computing = shared_.in_progress.Value(top);
        if (!computing.entered()) continue;  // asked again from inside its own Compute
        computed = Compute(top);
      }
      memo.Put(top, computed);
      expanded_[top] = false;  // the memo answers for it from now on
      continue;
    }
    const Instruction* def = shared_.inputs.def_use.Definition(top);
    if (!def) continue;
    for (uint32_t dependency : Dependencies(*def))
      if (!memo.Has(dependency) && !IsExpanded(dependency)) stack_.push_back(dependency);
  }
  std::optional<IntegerRange> found = memo.Find(id);
  if (!found)  // a guard read while widening asked for a value in progress
    return IntegerRange::None("cyclic definition of %" + std::to_string(id));
  return std::move(*found);
}

bool RangeEvaluator::MarkExpanded(uint32_t id) {
  if (id >= expanded_.size()) expanded_.resize(std::max<size_t>(id + 1, expanded_.size() * 2));
  if (expanded_[id]) return false;
  expanded_[id] = true;
  return true;
}

DependencyIds RangeEvaluator::Dependencies(const Instruction& def) {
  ValueKind kind = rules_.kinds.Of(def);
  RangeRule* rule = rule_for_kind_[size_t(kind)];
  return rule ? rule->Dependencies(def, kind) : DependencyIds{};
}

IntegerRange RangeEvaluator::Compute(uint32_t id) {
  const Instruction* def = shared_.inputs.def_use.Definition(id);
  if (!def) return IntegerRange::None("%" + std::to_string(id) + " has no definition");
  bool full = shared_.options.mode == RangeAnalysisMode::kFull;
  bool is_signed = false;
  uint32_t width = 0;
  if (full && rules_.widths.IntWidth(def->type_id, &is_signed, &width) &&
      (width == 8 || width == 16))
    return rules_.widths.NarrowValue(*def, is_signed, width);  // integer_range_widths.cpp
  if (full && width == 64) return IntegerRange::None("64-bit integers have no range");
  if (!shared_.inputs.def_use.IsInt32Type(def->type_id, &is_signed))
    return IntegerRange::None("not a scalar 32-bit integer");
  return ComputeScalar(*def, is_signed);
}

IntegerRange RangeEvaluator::ComputeScalar(const Instruction& def, bool is_signed) {
  ValueKind kind = rules_.kinds.Of(def);
  RangeRule* rule = rule_for_kind_[size_t(kind)];
  if (!rule) return IntegerRange::None(UnsupportedOpcode(def.opcode));
  return rule->Range(def, kind, is_signed);
}

IntegerRange RangePart::RangeOf(uint32_t id) { return evaluator_.RangeOf(id); }

}  // namespace glint::spirv
