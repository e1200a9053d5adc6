// Helpers the analysis tests share to find what they ask about in a compiled module:
// GLSL compiled and parsed into Glint's IR, a variable by the name glslang gave it, the
// first load of a variable.
#ifndef GLINT_GTESTS_MODULE_QUERIES_H
#define GLINT_GTESTS_MODULE_QUERIES_H

#include <cstdint>
#include <string>
#include <vector>

#include "SPIRV/ir/module.h"

namespace glint::test {

// test::CompileGlsl, then Glint's parser; fails the current test (an empty module) when
// either fails.
spirv::Module CompileModule(const std::string& source, const std::string& stage,
                            const std::string& env = "vulkan1.0");

// The variable glslang named `name` (OpName): a module-scope one, else a local of any
// function. Fails the current test (0) when there is none.
uint32_t VariableNamed(const spirv::Module& module, const std::string& name);

// The result of the first OpLoad (in module order) of variable `name` itself, not
// through an access chain. Fails the current test (0) when there is none.
uint32_t FirstLoadOf(const spirv::Module& module, const std::string& name);

// Every OpLoad of variable `name` itself (not through an access chain), in module order.
std::vector<const spirv::Instruction*> LoadsOf(const spirv::Module& module,
                                               const std::string& name);

}  // namespace glint::test

#endif  // GLINT_GTESTS_MODULE_QUERIES_H
