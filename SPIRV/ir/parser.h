// Parses a SPIR-V binary into a Module. Refuses, with a message naming the word offset,
// anything it cannot represent faithfully: bad magic, a truncated stream, a zero word
// count, an unknown opcode, operands that do not fit the grammar, an id of 0 or at or
// above the bound, an instruction in the wrong section, or broken function structure.
#ifndef GLINT_SPIRV_IR_PARSER_H
#define GLINT_SPIRV_IR_PARSER_H

#include <optional>
#include <string>
#include <vector>

#include "module.h"

namespace glint::spirv {

std::optional<Module> ParseModule(const uint32_t* words, size_t word_count, std::string* error);
inline std::optional<Module> ParseModule(const std::vector<uint32_t>& words, std::string* error) {
  return ParseModule(words.data(), words.size(), error);
}

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_PARSER_H
