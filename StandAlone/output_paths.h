// The files one run of the command line reads and writes, by name: which inputs are
// SPIR-V, the default output names (glslang's "<stage>.spv", Glint's "<name>.glint.spv"
// for a .spv input), and the check that no output overwrites an input or another output.
#ifndef GLINT_STANDALONE_OUTPUT_PATHS_H
#define GLINT_STANDALONE_OUTPUT_PATHS_H

#include <string>

#include "command_line.h"

namespace glint::standalone {

// An input named *.spv is a SPIR-V module for Glint's passes.
bool IsSpirvFile(const std::string& name);

// Where the SPIR-V of a stage goes: -o, else glslang's "<stage>.spv".
std::string BinaryName(const CommandLine& line, EShLanguage stage);

// Where the module Glint makes from the .spv input `input` goes: -o, else "<name>.glint.spv".
std::string SpirvOutputName(const CommandLine& line, const std::string& input);

// "" when every output of the run (-o or the default SPIR-V names, --depfile,
// --report=html, --report=sarif) names a file that no input (sources, .spv inputs, the
// .conf) and no other output of the run names; else one line naming both, e.g.
// "--report=html s.comp would overwrite the input s.comp". Names are compared after
// resolving symlinks and "..", and by device and inode where both exist (hard links).
// Two names of one existing device or FIFO (/dev/stdout) do not clash: they are written
// in place, not replaced. Default SPIR-V names are not compared with each other: glslang
// 12 writes "frag.spv" once per fragment input, and so does Glint. Files reached by
// #include are not known before the compile and are not checked.
std::string OutputPathClash(const CommandLine& line);

}  // namespace glint::standalone

#endif  // GLINT_STANDALONE_OUTPUT_PATHS_H
