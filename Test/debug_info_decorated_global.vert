// glint-flags: -V -gV
// -gV with a decorated global that has an initializer: glslang 12 makes a function-local
// temporary for it before it enters main, and names the top of its empty stack of debug
// scopes as that variable's DebugLocalVariable scope (Glint's guard,
// glslang/debug_scope_guard.h); the module is Debian's glslangValidator's.
#version 460
#extension GL_EXT_spirv_intrinsics : require
spirv_decorate(0) float x = 0.5;
void main() { gl_Position = vec4(x); }
