// glint-flags: -V --robust-access --range-analysis=off --dump-ranges
#version 450
// An rvalue vector indexed at run time is OpVectorExtractDynamic; its index is clamped
// to the width - 1.
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data { int index; float result; vec3 a; vec3 b; };
void main() { result = (a + b)[index]; }
