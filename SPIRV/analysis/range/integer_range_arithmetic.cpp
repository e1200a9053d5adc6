// Constants, copies, bitcasts and the arithmetic operators + - * / % << >>: the
// reference design's rules, each sound for every value of its operands' ranges and
// refusing (naming the operation) what may overflow, divide by a possibly non-positive
// divisor or shift by 32 or more. Full mode adds (WideModulo): OpUMod by a positive
// divisor range (not only a constant), whatever the dividend: [0, divisor.max - 1], and
// at most the dividend's maximum; OpSRem and OpSMod with operands of either sign, the
// divisor's range excluding 0 (and -1 when the dividend may be INT_MIN, where the result
// is undefined): |result| < max |divisor|, and [0, ...] when both operands are
// non-negative. The sign is not trusted to follow SPIR-V's rule (dividend's for SRem,
// divisor's for SMod): GLSL's % leaves it open for negative operands, and the audit
// caught lavapipe returning a negative OpSMod by a positive constant. A full-mode
// OpISub that subtracts its left operand rounded down to a multiple of a constant is a
// remainder (integer_range_remainder_differences.cpp), or a loop's bound minus its
// counter after the loop (integer_range_exit_differences.cpp).
#include "SPIRV/analysis/range/integer_range_arithmetic.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

void ArithmeticRule::Register(Table& table) {
  for (ValueKind kind : {ValueKind::kConstant, ValueKind::kSpecConstant, ValueKind::kCopy,
                         ValueKind::kBitcast, ValueKind::kArithmetic})
    table[size_t(kind)] = this;
}

DependencyIds ArithmeticRule::Dependencies(const Instruction& def, ValueKind kind) {
  switch (kind) {
    case ValueKind::kCopy:
    case ValueKind::kBitcast:
      return {UnaryOpView(def).operand()};
    case ValueKind::kArithmetic:
      return {BinaryOpView(def).left(), BinaryOpView(def).right()};
    default:
      return {};
  }
}

IntegerRange ArithmeticRule::Range(const Instruction& def, ValueKind kind, bool is_signed) {
  switch (kind) {
    case ValueKind::kConstant:
      return ConstantRange(def, is_signed);
    case ValueKind::kSpecConstant:
      return IntegerRange::None("specialization constant without a value (use --spec-constant)");
    case ValueKind::kCopy:
      return Operand(UnaryOpView(def).operand());
    case ValueKind::kBitcast:
      return Bitcast(def, is_signed);
    default: {
      IntegerRange result = BinaryOfRanges(def.opcode, Operand(BinaryOpView(def).left()),
                                           Operand(BinaryOpView(def).right()), is_signed);
      if (def.opcode != spv::OpISub || !Full()) return result;
      result = rules_.remainder_differences.Remainder(def, std::move(result));
      return rules_.exit_differences.ExitDifference(def, std::move(result));
    }
  }
}

IntegerRange ArithmeticRule::ConstantRange(const Instruction& def, bool is_signed) const {
  if (def.opcode == spv::OpConstantNull) return IntegerRange::Of(is_signed, 0, 0);
  uint32_t bits = ConstantView(def).value32();
  int64_t value = is_signed ? int64_t(int32_t(bits)) : int64_t(bits);
  return IntegerRange::Of(is_signed, value, value);
}

IntegerRange ArithmeticRule::Bitcast(const Instruction& def, bool is_signed) const {
  bool source_signed = false;
  uint32_t source_id = UnaryOpView(def).operand();
  const Instruction* source = inputs_.def_use.Definition(source_id);
  if (!source || !inputs_.def_use.IsInt32Type(source->type_id, &source_signed))
    return IntegerRange::None("bitcast from a type other than a 32-bit integer");
  return Convert(Operand(source_id), is_signed);
}

// A kArithmetic operator's result range from its operands' (each in its own signedness).
IntegerRange ArithmeticRule::BinaryOfRanges(spv::Op opcode, const IntegerRange& a,
                                            const IntegerRange& b, bool is_signed) const {
  switch (opcode) {
    case spv::OpSMod:
    case spv::OpSRem:
    case spv::OpUMod: {
      IntegerRange result = Modulo(a, b, opcode != spv::OpUMod);
      if (!result.valid && Full()) result = WideModulo(opcode, a, b);
      return Convert(result, is_signed);
    }
    default:
      break;
  }
  if (!a.valid) return a;
  if (!b.valid) return b;
  switch (opcode) {
    case spv::OpSDiv:
    case spv::OpUDiv: {
      bool domain = opcode == spv::OpSDiv;
      IntegerRange ca = Convert(a, domain), cb = Convert(b, domain);
      if (!ca.valid) return ca;
      if (!cb.valid) return cb;
      return Convert(Divide(ca, cb, domain), is_signed);
    }
    case spv::OpShiftLeftLogical:
    case spv::OpShiftRightLogical:
    case spv::OpShiftRightArithmetic: {
      bool domain =
          opcode == spv::OpShiftLeftLogical ? is_signed : opcode == spv::OpShiftRightArithmetic;
      IntegerRange ca = Convert(a, domain);
      if (!ca.valid) return ca;
      return Convert(Shift(opcode, ca, b, domain), is_signed);
    }
    default: {
      IntegerRange ca = Convert(a, is_signed), cb = Convert(b, is_signed);
      if (!ca.valid) return ca;
      if (!cb.valid) return cb;
      return Arithmetic(opcode, ca, cb, is_signed);
    }
  }
}

IntegerRange ArithmeticRule::Arithmetic(spv::Op opcode, const IntegerRange& a,
                                        const IntegerRange& b, bool is_signed) const {
  if (opcode == spv::OpIAdd) return Checked(is_signed, a.min + b.min, a.max + b.max, "addition");
  if (opcode == spv::OpISub) {
    if (!is_signed && a.min < b.max) return IntegerRange::None("u32 subtraction may underflow");
    return Checked(is_signed, a.min - b.max, a.max - b.min, "subtraction");
  }
  if (is_signed && (a.min < 0 || b.min < 0))
    return IntegerRange::None("i32 multiplication with a possibly negative operand");
  int64_t high = BoundedProduct(a.max, b.max);
  if (high < 0)
    return IntegerRange::None(std::string(TypeName(is_signed)) + " multiplication may overflow");
  return Checked(is_signed, a.min * b.min, high, "multiplication");
}

IntegerRange ArithmeticRule::Divide(const IntegerRange& a, const IntegerRange& b,
                                    bool is_signed) const {
  if (b.min <= 0) return IntegerRange::None("division by a possibly non-positive divisor");
  if (is_signed && a.min < 0)
    return IntegerRange::None("i32 division of a possibly negative dividend");
  return IntegerRange::Of(is_signed, a.min / b.max, a.max / b.min);
}

IntegerRange ArithmeticRule::Shift(spv::Op opcode, const IntegerRange& a, const IntegerRange& b,
                                   bool is_signed) const {
  if (b.max >= 32) return IntegerRange::None("shift amount may be 32 or more");
  if (b.min < 0) return IntegerRange::None("shift amount may be negative");
  if (is_signed && a.min < 0) return IntegerRange::None("i32 shift of a possibly negative value");
  if (opcode == spv::OpShiftLeftLogical && a.max > (TypeMax(is_signed) >> b.max))
    return IntegerRange::None(std::string(TypeName(is_signed)) + " left shift may overflow");
  if (opcode == spv::OpShiftLeftLogical)
    return Checked(is_signed, a.min << b.min, a.max << b.max, "left shift");
  return IntegerRange::Of(is_signed, a.min >> b.max, a.max >> b.min);
}

IntegerRange ArithmeticRule::Modulo(const IntegerRange& a, const IntegerRange& b,
                                    bool is_signed) const {
  IntegerRange divisor = Convert(b, is_signed);
  if (!divisor.IsSingleValue() || divisor.min <= 0)
    return IntegerRange::None("modulo divisor is not a single positive value");
  int64_t c = divisor.min;
  IntegerRange dividend = a.valid ? Convert(a, is_signed) : FullDomain(is_signed);
  if (!a.valid && is_signed)
    return IntegerRange::None("i32 modulo of a value with no range: " + a.reason);
  if (!dividend.valid) return dividend;
  if (is_signed && dividend.min < 0)
    return IntegerRange::None("i32 modulo of a possibly negative value");
  if (dividend.min / c == dividend.max / c)
    return IntegerRange::Of(is_signed, dividend.min % c, dividend.max % c);
  return IntegerRange::Of(is_signed, 0, c - 1);
}

// Full mode, where the reference modulo rule gave nothing.
IntegerRange ArithmeticRule::WideModulo(spv::Op opcode, const IntegerRange& a,
                                        const IntegerRange& b) const {
  bool is_signed = opcode != spv::OpUMod;
  IntegerRange divisor = Convert(b, is_signed);
  if (!divisor.valid) return IntegerRange::None("modulo divisor has no range: " + b.reason);
  if (divisor.min <= 0 && divisor.max >= 0) return IntegerRange::None("modulo divisor may be 0");
  IntegerRange dividend = a.valid ? Convert(a, is_signed) : FullDomain(is_signed);
  if (!dividend.valid) dividend = FullDomain(is_signed);
  if (!is_signed) return IntegerRange::Of(false, 0, std::min(dividend.max, divisor.max - 1));
  if (dividend.min == kI32Min && divisor.min <= -1 && divisor.max >= -1)
    return IntegerRange::None("i32 modulo of -2147483648 by -1 is undefined");
  int64_t magnitude = std::max(-divisor.min, divisor.max) - 1;  // |result| <= magnitude
  if (dividend.min >= 0 && divisor.min > 0)
    return IntegerRange::Of(true, 0, std::min(dividend.max, magnitude));
  // Either sign: GLSL leaves it open when an operand is negative, and drivers differ
  // (the audit saw lavapipe's OpSMod of a negative dividend by 7 come out negative).
  return IntegerRange::Of(true, -magnitude, magnitude);
}

}  // namespace glint::spirv
