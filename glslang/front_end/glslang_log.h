// glslang's code generation log ("warning: ...", "error: ...", "Missing functionality:
// ...", one message a line) as diagnostics of origin "glslang": a line that starts with
// "error:" is an error, any other a warning; and back into a logger for the C++ API's
// glslang-shaped entry points (glslang_shapes.cpp). Both the C++ API (process.cpp) and the C
// API (c_input.cpp) read the log this way.
#ifndef GLINT_GLSLANG_FRONT_END_GLSLANG_LOG_H
#define GLINT_GLSLANG_FRONT_END_GLSLANG_LOG_H

#include <string>
#include <vector>

#include "glint/glint.h"

namespace spv {
class SpvBuildLogger;
}  // namespace spv

namespace glint::frontend {

// Appends one diagnostic per non-empty line of `log` to `out`.
void AppendGlslangLog(const std::string& log, std::vector<Diagnostic>* out);

// The inverse for glslang's logger: `lines` (the log, a line each, as AppendGlslangLog
// keeps them) become the calls that logged them (tbdFunctionality, missingFunctionality,
// warning, error); a line without one of the four prefixes continues the message
// before it. A fresh logger's getAllMessages() then reads as the log did.
void ReplayGlslangLog(const std::vector<std::string>& lines, spv::SpvBuildLogger& logger);

}  // namespace glint::frontend

#endif  // GLINT_GLSLANG_FRONT_END_GLSLANG_LOG_H
