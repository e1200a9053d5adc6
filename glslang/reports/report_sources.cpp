// SourcesFromSpirv: the source text a module embeds in its debug information (see
// report_format.h). glslang -g writes OpString (the file name) and OpSource naming it
// with the whole text, continued by OpSourceContinued when it does not fit one
// instruction; included files get an OpSource of their own.
#include "glint/report_format.h"

#include <map>

#include <spirv/unified1/spirv.hpp>

namespace glint {
namespace {

constexpr size_t kHeaderWords = 5;

// The NUL-terminated literal string starting at word `at` of an instruction that ends
// before word `end`; stops at `end` when the terminator is missing.
std::string LiteralString(const std::vector<uint32_t>& words, size_t at, size_t end) {
  std::string text;
  for (; at < end; ++at)
    for (int byte = 0; byte < 4; ++byte) {
      char c = static_cast<char>((words[at] >> (8 * byte)) & 0xff);
      if (c == '\0') return text;
      text += c;
    }
  return text;
}

}  // namespace

std::vector<ReportSource> SourcesFromSpirv(const std::vector<uint32_t>& words) {
  std::vector<ReportSource> sources;
  std::map<uint32_t, std::string> strings;
  ReportSource* continuing = nullptr;
  for (size_t at = kHeaderWords; at < words.size();) {
    uint32_t opcode = words[at] & spv::OpCodeMask, count = words[at] >> spv::WordCountShift;
    if (count == 0 || at + count > words.size()) break;
    size_t end = at + count;
    if (opcode == spv::OpString && count >= 3) {
      strings[words[at + 1]] = LiteralString(words, at + 2, end);
    } else if (opcode == spv::OpSource && count >= 5 && strings.count(words[at + 3])) {
      sources.push_back({strings[words[at + 3]], LiteralString(words, at + 4, end)});
      continuing = &sources.back();
    } else if (opcode == spv::OpSourceContinued && continuing && count >= 2) {
      continuing->text += LiteralString(words, at + 1, end);
    } else if (opcode != spv::OpSourceContinued) {
      continuing = nullptr;
    }
    at = end;
  }
  return sources;
}

bool ModuleHasLineInformation(const std::vector<uint32_t>& words) {
  for (size_t at = kHeaderWords; at < words.size();) {
    uint32_t count = words[at] >> spv::WordCountShift;
    if ((words[at] & spv::OpCodeMask) == spv::OpLine) return true;
    if (count == 0) return false;
    at += count;
  }
  return false;
}

}  // namespace glint
