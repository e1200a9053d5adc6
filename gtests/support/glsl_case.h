// A named GLSL shader for parameterized suites: its stage and target environment as
// glslangValidator names them, and its SPIR-V parsed into Glint's IR.
#ifndef GLINT_GTESTS_SUPPORT_GLSL_CASE_H
#define GLINT_GTESTS_SUPPORT_GLSL_CASE_H

#include <optional>
#include <ostream>
#include <string>

#include "SPIRV/ir/module.h"

namespace glint::test {

struct GlslCase {
  const char* name;   // the test's name
  const char* stage;  // "comp", "frag", ...
  const char* env;    // "vulkan1.0", ...
  const char* source;
};

inline void PrintTo(const GlslCase& c, std::ostream* out) { *out << c.name; }

// The case compiled by glslang (test::CompileGlsl) and parsed; *error says why not.
std::optional<spirv::Module> ParseGlslCase(const GlslCase& c, std::string* error);

}  // namespace glint::test

#endif  // GLINT_GTESTS_SUPPORT_GLSL_CASE_H
