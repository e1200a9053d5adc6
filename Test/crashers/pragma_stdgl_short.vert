#version 450
// glslang 12 reads past the tokens of a #pragma STDGL with fewer than four of them.
#pragma STDGL invariant(
void main() {}
