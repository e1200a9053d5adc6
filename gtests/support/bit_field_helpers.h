// GLSL helpers that read bit fields the way real texture decoders do, shared by the range
// tests that range their results (integer_range_locals_in_call_test.cpp,
// integer_range_argument_cases_test.cpp).
#pragma once

namespace glint::test {

// Granite's bitextract.h shape: a field of `bits` bits at `offset` in four words, joined
// from two words when it crosses one (where, for a field within one word, the joining
// branch's bit count is negative).
inline constexpr char kExtractBitsHelper[] =
    "int extract_bits(uvec4 payload, int offset, int bits) {\n"
    "  int last_offset = offset + bits - 1;\n"
    "  int result;\n"
    "  if (bits <= 0)\n"
    "    result = 0;\n"
    "  else if ((last_offset >> 5) == (offset >> 5))\n"
    "    result = int(bitfieldExtract(payload[offset >> 5], offset & 31, bits));\n"
    "  else {\n"
    "    int first_bits = 32 - (offset & 31);\n"
    "    int result_first = int(bitfieldExtract(payload[offset >> 5], offset & 31, first_bits));\n"
    "    int result_second = int(bitfieldExtract(payload[(offset >> 5) + 1], 0, bits - "
    "first_bits));\n"
    "    result = result_first | (result_second << first_bits);\n"
    "  }\n"
    "  return result;\n"
    "}\n";

}  // namespace glint::test
