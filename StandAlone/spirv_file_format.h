// The bytes of a SPIR-V output file exactly as glslang 12's glslangValidator writes
// them: the binary (-V) and the hexadecimal text (-x, and --vn's C array). Glint
// produces the bytes itself (glslang's OutputSpvBin/OutputSpvHex write the file and
// report no error), so that output_file.h can check every write; standalone_test
// proves the bytes identical to those functions'.
#ifndef GLINT_STANDALONE_SPIRV_FILE_FORMAT_H
#define GLINT_STANDALONE_SPIRV_FILE_FORMAT_H

#include <cstdint>
#include <string>
#include <vector>

namespace glint::standalone {

// The words in host byte order, as glslang writes them.
std::string SpirvBinaryBytes(const std::vector<uint32_t>& words);

// A comment with glslang's version, then eight "0x%08x" words a line; with a
// `variable_name`, wrapped in "#pragma once" and "const uint32_t NAME[] = { ... };".
std::string SpirvHexText(const std::vector<uint32_t>& words, const char* variable_name);

}  // namespace glint::standalone

#endif  // GLINT_STANDALONE_SPIRV_FILE_FORMAT_H
