#include "spirv_file_format.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

namespace glint::standalone {

std::string SpirvBinaryBytes(const std::vector<uint32_t>& words) {
  std::string bytes(words.size() * sizeof(uint32_t), '\0');
  if (!words.empty()) std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

namespace {

// glslang's first line: the generator version run into its own version, with no
// separator ("\t// 1112.0.0" for generator 11 and glslang 12.0.0).
std::string VersionComment() {
  glslang::Version version = glslang::GetVersion();
  return "\t// " + std::to_string(glslang::GetSpirvGeneratorVersion()) +
         std::to_string(version.major) + "." + std::to_string(version.minor) + "." +
         std::to_string(version.patch) + version.flavor + "\n";
}

// Eight words a line, each line opened by a tab, words separated by commas; the last
// word has no comma and ends its line.
std::string WordLines(const std::vector<uint32_t>& words) {
  std::string text;
  char word[16];
  for (size_t i = 0; i < words.size(); ++i) {
    if (i % 8 == 0) text += '\t';
    std::snprintf(word, sizeof(word), "0x%08" PRIx32, words[i]);
    text += word;
    if (i + 1 == words.size())
      text += '\n';
    else
      text += (i % 8 == 7) ? ",\n" : ",";
  }
  return text;
}

}  // namespace

std::string SpirvHexText(const std::vector<uint32_t>& words, const char* variable_name) {
  std::string text = VersionComment();
  if (variable_name)
    text += "\t #pragma once\nconst uint32_t " + std::string(variable_name) + "[] = {\n";
  text += WordLines(words);
  if (variable_name) text += "};\n";
  return text;
}

}  // namespace glint::standalone
