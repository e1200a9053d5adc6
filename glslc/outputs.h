// What glslc writes and where: the output name of each input (-o, a.spv when linking, or
// a name made from the input's), the binary formats of -mfmt (raw words, hex numbers, a C
// initializer list), and make dependency rules (-M, -MD) with their file names.
#ifndef GLINT_GLSLC_OUTPUTS_H
#define GLINT_GLSLC_OUTPUTS_H

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "options.h"

namespace glint::glslc {

// The output name of `input` ("-": standard output).
std::string OutputName(const InputFile& input, const GlslcOptions& options);

// The bytes of `words` in `format`.
std::string FormatBinary(const std::vector<uint32_t>& words, BinaryFormat format);

// The dependency rule's target for `input` (-MT, else the object name glslc would give).
std::string DependencyTarget(const InputFile& input, const GlslcOptions& options);
// Where -MD writes the rule (-MF, else the object name and ".d").
std::string DependencyFile(const InputFile& input, const GlslcOptions& options);
// "TARGET: SOURCE INCLUDE...\n", the includes in the order of `included`'s iteration.
std::string DependencyRule(const std::string& target, const std::string& source,
                           const std::unordered_set<std::string>& included);

// Writes `bytes` to `name` ("-": standard output). On failure returns glslc's error line.
bool WriteOutput(const std::string& name, const std::string& bytes, std::string* error);

}  // namespace glint::glslc

#endif  // GLINT_GLSLC_OUTPUTS_H
