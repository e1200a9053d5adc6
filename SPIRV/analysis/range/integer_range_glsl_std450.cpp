// GLSL.std.450's integer instructions: SMin / UMin / SMax / UMax by the reference rules
// (an operand without a range counts as the whole domain, but one must have a range),
// and in full mode:
//   - SClamp / UClamp: min(max(x, lo), hi) when lo's range lies wholly below hi's (the
//     result is undefined when lo > hi, so nothing is proven then).
//   - SAbs: [0, max(|lo|, |hi|)]; a value that may be INT_MIN has no range, because
//     abs(INT_MIN) is INT_MIN.
//   - FindILsb, FindUMsb, FindSMsb: the bit counts' rule (integer_range_bit_counts.cpp).
// Any other instruction, or one from another set, has no range and is named.
#include "SPIRV/analysis/range/integer_range_glsl_std450.h"

#include <spirv/unified1/GLSL.std.450.h>
#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

void GlslStd450Rule::Register(Table& table) { table[size_t(ValueKind::kGlslStd450)] = this; }

DependencyIds GlslStd450Rule::Dependencies(const Instruction& def, ValueKind) {
  auto operands = ExtInstView(def).operands();
  return DependencyIds(operands.begin(), operands.end());
}

IntegerRange GlslStd450Rule::Range(const Instruction& def, ValueKind, bool is_signed) {
  ExtInstView ext(def);
  if (ext.set() != module_.GlslStd450Import())
    return IntegerRange::None("extended instruction outside GLSL.std.450");
  uint32_t instruction = ext.instruction_number();
  if (instruction == GLSLstd450SAbs && ext.operand_count() == 1 && Full())
    return AbsoluteValue(ext.operand(0), is_signed);
  bool is_bit_position = instruction == GLSLstd450FindILsb || instruction == GLSLstd450FindUMsb ||
                         instruction == GLSLstd450FindSMsb;
  if (is_bit_position && ext.operand_count() == 1 && Full())
    return rules_.bit_counts.BitPosition(instruction, ext.operand(0),
                                         is_signed);  // integer_range_bit_counts.cpp
  bool is_clamp = instruction == GLSLstd450SClamp || instruction == GLSLstd450UClamp;
  bool is_min_max = instruction == GLSLstd450SMin || instruction == GLSLstd450UMin ||
                    instruction == GLSLstd450SMax || instruction == GLSLstd450UMax;
  if ((is_clamp && ext.operand_count() != 3) || (is_min_max && ext.operand_count() != 2))
    return IntegerRange::None("GLSL.std.450 instruction with a wrong operand count");
  IntegerRange result;
  switch (instruction) {
    case GLSLstd450SMin:
    case GLSLstd450UMin:
    case GLSLstd450SMax:
    case GLSLstd450UMax:
      result = MinMax(instruction, ext.operand(0), ext.operand(1));
      break;
    case GLSLstd450SClamp:
    case GLSLstd450UClamp:
      if (!Full()) return IntegerRange::None("clamp is not supported in reference mode");
      result = Clamp(instruction, def);
      break;
    default: {
      const grammar::ExtInstInfo* info = grammar::FindGlslStd450(instruction);
      return IntegerRange::None(std::string(info ? info->name : "GLSL.std.450 instruction") +
                                " is not supported");
    }
  }
  return Convert(result, is_signed);
}

// min / max in the instruction's own signedness; an operand without a range (or one
// that does not convert) counts as the whole domain, but one must have a range.
IntegerRange GlslStd450Rule::MinMax(uint32_t instruction, uint32_t a_id, uint32_t b_id) const {
  bool domain = instruction == GLSLstd450SMin || instruction == GLSLstd450SMax;
  IntegerRange a = Operand(a_id), b = Operand(b_id);
  if (!a.valid && !b.valid) return a;
  IntegerRange ca = Convert(a, domain), cb = Convert(b, domain);
  if (!ca.valid) ca = FullDomain(domain);
  if (!cb.valid) cb = FullDomain(domain);
  bool is_min = instruction == GLSLstd450SMin || instruction == GLSLstd450UMin;
  IntegerRange result =
      is_min ? IntegerRange::Of(domain, std::min(ca.min, cb.min), std::min(ca.max, cb.max))
             : IntegerRange::Of(domain, std::max(ca.min, cb.min), std::max(ca.max, cb.max));
  if (result.min == TypeMin(domain) && result.max == TypeMax(domain))
    return IntegerRange::None(std::string(is_min ? "min" : "max") + " result covers the whole " +
                              TypeName(domain) + " range");
  return result;
}

// Full mode: clamp(x, lo, hi) = min(max(x, lo), hi), proven only when lo <= hi always.
IntegerRange GlslStd450Rule::Clamp(uint32_t instruction, const Instruction& def) const {
  bool domain = instruction == GLSLstd450SClamp;
  ExtInstView clamp(def);  // x, lo, hi
  IntegerRange lo = Convert(Operand(clamp.operand(1)), domain);
  IntegerRange hi = Convert(Operand(clamp.operand(2)), domain);
  if (!lo.valid || !hi.valid) return ClampBoundsWithoutRange(lo, hi);
  if (lo.max > hi.min) return IntegerRange::None("clamp bounds may cross (lo > hi)");
  IntegerRange x = Convert(Operand(clamp.operand(0)), domain);
  if (!x.valid) x = FullDomain(domain);
  return IntegerRange::Of(domain, std::min(std::max(x.min, lo.min), hi.min),
                          std::min(std::max(x.max, lo.max), hi.max));
}

IntegerRange GlslStd450Rule::AbsoluteValue(uint32_t x_id, bool is_signed) const {
  IntegerRange x = Convert(Operand(x_id), true);
  if (!x.valid) return IntegerRange::None("abs of a value with no i32 range: " + x.reason);
  if (x.min == kI32Min)
    return IntegerRange::None("abs of a value that may be -2147483648 (abs of it is itself)");
  int64_t low = x.min >= 0 ? x.min : x.max <= 0 ? -x.max : 0;
  int64_t high = std::max(-x.min, x.max);
  return Convert(IntegerRange::Of(true, low, high), is_signed);
}

}  // namespace glint::spirv
