// Parses a SPIR-V binary into a Module. Refuses, with a message naming the word offset,
// anything it cannot represent faithfully: bad magic, a truncated stream, a zero word
// count, an unknown opcode, operands that do not fit the grammar, an id of 0 or at or
// above the bound, an instruction in the wrong section, or broken function structure.
//
// Input limits (bounded work and memory on hostile input): a module of more than
// kMaxModuleWords words or more than kMaxInstructions instructions is refused before
// anything is built (a scan of the word counts only), with a message naming the
// limit; so is an id bound over kMaxIdBound (module.h, SPIR-V's universal limit), which
// caps every table indexed by id. The largest real shaders are far below all three (a
// few hundred thousand words); the parsed IR holds about 25 bytes per word of a typical
// module and 80 per word of one-word instructions (bench/ir_memory_bench), so the limits
// cap the IR near 200 MB.
#ifndef GLINT_SPIRV_IR_PARSER_H
#define GLINT_SPIRV_IR_PARSER_H

#include <optional>
#include <string>
#include <vector>

#include "module.h"
#include "outside_lines.h"

namespace glint::spirv {

inline constexpr size_t kMaxModuleWords = size_t{1} << 23;   // 8,388,608 words (32 MiB)
inline constexpr size_t kMaxInstructions = size_t{1} << 21;  // 2,097,152 instructions

// "" when `word_count` words are within kMaxModuleWords, else the refusal.
std::string CheckModuleSize(size_t word_count);

std::optional<Module> ParseModule(const uint32_t* words, size_t word_count, std::string* error);
inline std::optional<Module> ParseModule(const std::vector<uint32_t>& words, std::string* error) {
  return ParseModule(words.data(), words.size(), error);
}

// ParseModule of `located`, a module glslang generated with line information, as the
// module glslang 12 generates without it: its OpString (those only lines and OpSource
// name), OpLine, OpNoLine, OpSourceContinued, OpModuleProcessed and the OpSource of
// included files left out, the first OpSource without its file and text, and every id
// renumbered as it is decoded (each id glslang took for such an OpString is given back,
// each later id moves down by the removed ids below it: glslang takes ids from one
// counter in the same order either way). Gives the module (source offsets are the
// stripped words'), the stripped words and the lines as an outside table
// (outside_lines.h), in one walk and one decode. For a compile that will surely report
// (robust access, the range report) this saves generating the module twice.
// Refuses what it cannot strip exactly (FindLineStringIds: non-semantic debug
// information; an OpString that a line names and another instruction uses, as a
// debugPrintf format equal to a file name, which glslang numbers differently without
// lines; an OpString nothing names) and what ParseModule refuses. Checked corpus-wide
// against glslang's own output (the corpus suite's check (h)).
struct StrippedParse {
  Module module;
  std::vector<uint32_t> words;
  OutsideLines lines;
};
std::optional<StrippedParse> ParseModuleStrippingLines(const std::vector<uint32_t>& located,
                                                       std::string* error);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_PARSER_H
