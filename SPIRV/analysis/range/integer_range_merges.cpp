// Values merged from others (full mode; reference mode names them):
//   - OpSelect: the union of both operands' ranges when both have one.
//   - OpPhi: the union of the incoming values' ranges when all have one (a phi that
//     depends on itself, as a loop-carried one does, meets the evaluator's cyclic
//     definition and has none).
#include "SPIRV/analysis/range/integer_range_merges.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

void MergeRule::Register(Table& table) {
  table[size_t(ValueKind::kSelect)] = this;
  table[size_t(ValueKind::kPhi)] = this;
}

DependencyIds MergeRule::Dependencies(const Instruction& def, ValueKind kind) {
  if (kind == ValueKind::kSelect)
    return {SelectView(def).true_value(), SelectView(def).false_value()};
  PhiView phi(def);
  DependencyIds incoming;
  for (size_t i = 0; i < phi.pair_count(); ++i) incoming.push_back(phi.value(i));
  return incoming;
}

IntegerRange MergeRule::Range(const Instruction& def, ValueKind kind, bool is_signed) {
  if (!Full()) return IntegerRange::None(NotInReference(def.opcode));
  return kind == ValueKind::kSelect ? Select(def, is_signed) : Phi(def, is_signed);
}

// Full mode: select(c, a, b) lies in the union of a's and b's ranges.
IntegerRange MergeRule::Select(const Instruction& def, bool is_signed) const {
  IntegerRange a = Convert(Operand(SelectView(def).true_value()), is_signed);
  IntegerRange b = Convert(Operand(SelectView(def).false_value()), is_signed);
  if (!a.valid) return a;
  if (!b.valid) return b;
  return IntegerRange::Of(is_signed, std::min(a.min, b.min), std::max(a.max, b.max));
}

// Full mode: a phi is one of its incoming values.
IntegerRange MergeRule::Phi(const Instruction& def, bool is_signed) const {
  IntegerRange result = IntegerRange::None("OpPhi without incoming values");
  PhiView phi(def);
  for (size_t i = 0; i < phi.pair_count(); ++i) {
    IntegerRange incoming = Convert(Operand(phi.value(i)), is_signed);
    if (!incoming.valid) return incoming;
    result = Hull(result, incoming, is_signed);
  }
  return result;
}

}  // namespace glint::spirv
