// glslang::GlslangToSpv without glslang 12's out-of-bounds read on the -gV / -gVS path.
//
// What glslang 12 does wrong: with NonSemantic.Shader.DebugInfo.100 on, every source
// line it records emits a DebugScope for the top of spv::Builder's stack of debug
// scopes. That stack holds the current function (and its lexical blocks) and is empty
// outside functions, yet glslang still records lines there: global initializers (code
// it puts at the start of the entry point before entering it) and specialization-
// constant operations it meets after the last function. std::stack::top() on an empty
// std::deque follows a pointer the deque never initialised. Debian's glslangValidator
// survives only because its heap happens to leave a pointer to a zero word there (it
// reads 0, NoResult, and writes a DebugLine with no DebugScope, or `DebugScope 0` after a
// function's scope); under valgrind the same binary dies at address 0x1fc. Nothing in
// the inputs avoids the read (the same shader, names, text and setup calls take it in
// glslangValidator): any module with Debian's bytes needs those line markers.
//
// The same read happens when glslang makes a Function variable outside every function
// (the temporary of a global initializer such as `float x = 0.5;` with
// spirv_decorate in a compute shader): its DebugLocalVariable names the top of the
// stack as its scope (Debian's tool writes scope 0 there, an invalid module).
//
// The guard: the link wraps spv::Builder::setLine(int, const char*), the only way
// GlslangToSpv reaches the line markers, and spv::Builder::createVariable, the only way
// it reaches DebugLocalVariable outside a function's entry (ld --wrap,
// glslang/CMakeLists.txt). While the stack is empty each wrapper lets it hold NoResult
// for the call: the value Debian's tool reads there, now read in bounds. Same bytes as
// Debian's glslangValidator wherever it survives; the stack is left as it was found.
//
// Every call Glint makes to glslang::GlslangToSpv goes through GuardedGlslangToSpv,
// which also keeps the wrapper's object in every link that contains glslang's generator.
#ifndef GLINT_GLSLANG_FRONT_END_DEBUG_SCOPE_GUARD_H
#define GLINT_GLSLANG_FRONT_END_DEBUG_SCOPE_GUARD_H

#include <vector>

#include <glslang/SPIRV/GlslangToSpv.h>
#include <glslang/SPIRV/Logger.h>

namespace glint::frontend {

// glslang::GlslangToSpv(intermediate, words, logger, options) with the guard linked in.
void GuardedGlslangToSpv(const glslang::TIntermediate& intermediate,
                         std::vector<unsigned int>& words, spv::SpvBuildLogger* logger,
                         glslang::SpvOptions* options);

// How many of GlslangToSpv's line markers and variables in this process came while
// the stack was empty (tests: proof that the wrappers are linked in and reached).
unsigned long GuardedCalls();

}  // namespace glint::frontend

#endif  // GLINT_GLSLANG_FRONT_END_DEBUG_SCOPE_GUARD_H
