#version 450
#extension GL_EXT_debug_printf : require
// glslang 12 dereferences null on arithmetic with string literals.
void main() { "a" * "b"; }
