// ParseGlslCase (glsl_case.h).
#include "support/glsl_case.h"

#include "SPIRV/ir/parser.h"
#include "support/test_support.h"

namespace glint::test {

std::optional<spirv::Module> ParseGlslCase(const GlslCase& c, std::string* error) {
  return spirv::ParseModule(CompileGlsl(c.source, c.stage, c.env), error);
}

}  // namespace glint::test
