// Specialization values as scalar literals (see scalar_literal.h).
#include "scalar_literal.h"

namespace glint::spirv {
namespace {

// Bit `width - 1` copied into every bit above it, within 32 bits.
uint32_t SignExtend32(uint32_t bits, uint32_t width) {
  uint32_t sign = 1u << (width - 1);
  return (bits ^ sign) - sign;
}

}  // namespace

std::string FormatSpecConstantValue(uint64_t value) {
  int64_t as_signed = static_cast<int64_t>(value);
  return as_signed < 0 ? std::to_string(as_signed) : std::to_string(value);
}

std::string DescribeLiteralType(const LiteralType& type) {
  std::string width = std::to_string(type.width);
  if (type.kind == LiteralKind::kFloat) return "float" + width + " (" + width + "-bit float)";
  return (type.is_signed ? "int" : "uint") + width + " (" + width + "-bit " +
         (type.is_signed ? "signed" : "unsigned") + " integer)";
}

LiteralEncoding EncodeSpecConstantLiteral(const LiteralType& type, uint64_t value) {
  LiteralEncoding out;
  if (type.width == 0 || type.width > 64) {
    out.refusal = "its type has an unsupported width of " + std::to_string(type.width) + " bits";
    return out;
  }
  if (type.width == 64) {
    out.bits = value;
    return out;
  }
  const int64_t lowest = -(int64_t{1} << (type.width - 1));
  const uint64_t highest = (uint64_t{1} << type.width) - 1;
  int64_t as_signed = static_cast<int64_t>(value);
  if (as_signed < lowest || (as_signed >= 0 && value > highest)) {
    out.refusal = "does not fit the constant's type " + DescribeLiteralType(type) +
                  ": the value must be in " + std::to_string(lowest) + ".." +
                  std::to_string(highest) + " (the signed or unsigned reading of " +
                  std::to_string(type.width) + " bits)";
    return out;
  }
  uint32_t bits = static_cast<uint32_t>(value & highest);
  bool sign_extend = type.kind == LiteralKind::kInteger && type.is_signed && type.width < 32;
  out.bits = sign_extend ? SignExtend32(bits, type.width) : bits;
  return out;
}

}  // namespace glint::spirv
