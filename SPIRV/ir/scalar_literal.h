// How a specialization value (a 64-bit bit pattern, as VkSpecializationInfo and
// Options::spec_constants hold it) becomes the literal of an OpConstant of a scalar
// type, as the SPIR-V spec's "Literal" rule wants it: types of 32 bits or fewer take one
// word, whose bits above the type's width are the sign extension for a signed integer
// and 0 for an unsigned integer or a float; 64-bit types take two words, low first.
//
// A value fits an N-bit type (N < 64) when it is the signed or the unsigned reading of
// N bits, -2^(N-1) .. 2^N-1 (so `-1` and `255` both mean the int8 bits 0xff, and `-1`
// for a uint still means all ones, as it always has); anything else is refused with a
// message naming the type and that range. Every value fits a 64-bit type.
#ifndef GLINT_SPIRV_IR_SCALAR_LITERAL_H
#define GLINT_SPIRV_IR_SCALAR_LITERAL_H

#include <cstdint>
#include <string>

namespace glint::spirv {

enum class LiteralKind { kInteger, kFloat };

struct LiteralType {
  LiteralKind kind = LiteralKind::kInteger;
  uint32_t width = 32;     // OpTypeInt / OpTypeFloat width
  bool is_signed = false;  // OpTypeInt signedness
};

struct LiteralEncoding {
  uint64_t bits = 0;    // the literal words (the high word only for 64-bit types)
  std::string refusal;  // set when the value does not fit the type
  bool ok() const { return refusal.empty(); }
};

LiteralEncoding EncodeSpecConstantLiteral(const LiteralType& type, uint64_t value);

// The value as a user wrote it: negative when its signed reading is.
std::string FormatSpecConstantValue(uint64_t value);

// "int8 (8-bit signed integer)", "float16 (16-bit float)", ...
std::string DescribeLiteralType(const LiteralType& type);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_SCALAR_LITERAL_H
