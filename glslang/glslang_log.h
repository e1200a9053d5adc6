// glslang's code generation log ("warning: ...", "error: ...", "Missing functionality:
// ...", one message a line) as diagnostics of origin "glslang": a line that starts with
// "error:" is an error, any other a warning. Both the C++ API (process.cpp) and the C
// API (c_input.cpp) read the log this way.
#ifndef GLINT_GLSLANG_GLSLANG_LOG_H
#define GLINT_GLSLANG_GLSLANG_LOG_H

#include <string>
#include <vector>

#include "glint/glint.h"

namespace glint::frontend {

// Appends one diagnostic per non-empty line of `log` to `out`.
void AppendGlslangLog(const std::string& log, std::vector<Diagnostic>* out);

}  // namespace glint::frontend

#endif  // GLINT_GLSLANG_GLSLANG_LOG_H
