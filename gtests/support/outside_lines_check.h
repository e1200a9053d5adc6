// Checks that lines kept outside a module (SPIRV/ir/outside_lines.h) locate every
// instruction as the OpLine of the module generated with lines do: used by the outside
// lines suite on hand-made and glslang-made modules, and by the corpus suite on every
// corpus shader in every environment.
#ifndef GLINT_GTESTS_SUPPORT_OUTSIDE_LINES_CHECK_H
#define GLINT_GTESTS_SUPPORT_OUTSIDE_LINES_CHECK_H

#include <cstdint>
#include <string>
#include <vector>

namespace glint::test {

// Aligns `plain` with `located` and compares, for every instruction in a block of the
// plain module, SourceLines' location (and whether it was inherited) through the
// outside table with SourceLines' location of the matching instruction of `located`.
// Empty when all agree; else the first disagreement (or why the modules did not align).
// *compared (optional) receives the number of instructions compared.
std::string CompareOutsideLines(const std::vector<uint32_t>& plain,
                                const std::vector<uint32_t>& located, size_t* compared = nullptr);

}  // namespace glint::test

#endif  // GLINT_GTESTS_SUPPORT_OUTSIDE_LINES_CHECK_H
