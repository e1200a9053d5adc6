// Integer folding (see integer_folding.h).
#include "SPIRV/ir/integer_folding.h"

namespace glint::spirv {
namespace {

uint64_t Mask(uint32_t width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

int64_t AsSigned(uint64_t value, uint32_t width) {
  if (width >= 64) return static_cast<int64_t>(value);
  const uint64_t sign = uint64_t{1} << (width - 1);
  value &= Mask(width);
  return static_cast<int64_t>((value ^ sign) - sign);
}

std::optional<uint64_t> Unary(spv::Op op, uint64_t a, uint32_t width) {
  switch (op) {
    case spv::OpSNegate:
      return 0 - a;
    case spv::OpNot:
      return ~a;
    case spv::OpLogicalNot:
      return uint64_t{a == 0};
    case spv::OpUConvert:
      return a;
    case spv::OpSConvert:
      return static_cast<uint64_t>(AsSigned(a, width));
    default:
      return std::nullopt;
  }
}

std::optional<uint64_t> Division(spv::Op op, uint64_t a, uint64_t b, const IntegerFoldRules& rules) {
  const int64_t sa = AsSigned(a, rules.width), sb = AsSigned(b, rules.width);
  const int64_t least = rules.width >= 64 ? INT64_MIN : -(int64_t{1} << (rules.width - 1));
  if (b == 0 || (sb == -1 && sa == least)) return std::nullopt;
  switch (op) {
    case spv::OpUDiv:
      return a / b;
    case spv::OpUMod:
      return a % b;
    case spv::OpSDiv:
      return static_cast<uint64_t>(sa / sb);
    case spv::OpSRem:
    case spv::OpSMod: {
      if (rules.remainders == SignedRemainders::kNonNegativeOnly && (sa < 0 || sb <= 0))
        return std::nullopt;
      int64_t remainder = sa % sb;  // C++ and OpSRem: the dividend's sign
      if (op == spv::OpSMod && remainder != 0 && (remainder < 0) != (sb < 0)) remainder += sb;
      return static_cast<uint64_t>(remainder);
    }
    default:
      return std::nullopt;
  }
}

std::optional<uint64_t> Comparison(spv::Op op, uint64_t a, uint64_t b, uint32_t width) {
  const int64_t sa = AsSigned(a, width), sb = AsSigned(b, width);
  switch (op) {
    case spv::OpIEqual:
    case spv::OpLogicalEqual:
      return uint64_t{a == b};
    case spv::OpINotEqual:
    case spv::OpLogicalNotEqual:
      return uint64_t{a != b};
    case spv::OpULessThan:
      return uint64_t{a < b};
    case spv::OpULessThanEqual:
      return uint64_t{a <= b};
    case spv::OpUGreaterThan:
      return uint64_t{a > b};
    case spv::OpUGreaterThanEqual:
      return uint64_t{a >= b};
    case spv::OpSLessThan:
      return uint64_t{sa < sb};
    case spv::OpSLessThanEqual:
      return uint64_t{sa <= sb};
    case spv::OpSGreaterThan:
      return uint64_t{sa > sb};
    case spv::OpSGreaterThanEqual:
      return uint64_t{sa >= sb};
    case spv::OpLogicalAnd:
      return uint64_t{a != 0 && b != 0};
    case spv::OpLogicalOr:
      return uint64_t{a != 0 || b != 0};
    default:
      return std::nullopt;
  }
}

std::optional<uint64_t> Binary(spv::Op op, uint64_t a, uint64_t b, const IntegerFoldRules& rules) {
  switch (op) {
    case spv::OpIAdd:
      return a + b;
    case spv::OpISub:
      return a - b;
    case spv::OpIMul:
      return a * b;
    case spv::OpShiftLeftLogical:
      if (b >= rules.width) return std::nullopt;
      return a << b;
    case spv::OpShiftRightLogical:
      if (b >= rules.width) return std::nullopt;
      return a >> b;
    case spv::OpShiftRightArithmetic:
      if (b >= rules.width) return std::nullopt;
      return static_cast<uint64_t>(AsSigned(a, rules.width) >> b);
    case spv::OpBitwiseAnd:
      return a & b;
    case spv::OpBitwiseOr:
      return a | b;
    case spv::OpBitwiseXor:
      return a ^ b;
    case spv::OpUDiv:
    case spv::OpUMod:
    case spv::OpSDiv:
    case spv::OpSRem:
    case spv::OpSMod:
      return Division(op, a, b, rules);
    default:
      return Comparison(op, a, b, rules.width);
  }
}

}  // namespace

bool FoldsToBoolean(spv::Op op) {
  return op == spv::OpLogicalNot || Comparison(op, 0, 0, 32).has_value();
}

std::optional<uint64_t> FoldIntegerOp(spv::Op op, const uint64_t* operands, size_t count,
                                      const IntegerFoldRules& rules) {
  if (rules.width < 1 || rules.width > 64) return std::nullopt;
  const uint64_t mask = Mask(rules.width);
  uint64_t v[3] = {};
  for (size_t k = 0; k < count && k < 3; ++k) v[k] = operands[k] & mask;
  std::optional<uint64_t> result;
  if (count == 1) {
    result = Unary(op, v[0], rules.width);
    if (result && op == spv::OpSConvert) return result;  // sign-extended to 64 bits
  } else if (count == 2) {
    result = Binary(op, v[0], v[1], rules);
  } else if (count == 3 && op == spv::OpSelect) {
    result = v[0] ? v[1] : v[2];
  }
  if (!result) return std::nullopt;
  return FoldsToBoolean(op) ? *result : *result & mask;
}

}  // namespace glint::spirv
