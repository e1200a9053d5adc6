#version 450
// glslang 12 dereferences null when an atomic's memory operand is not a variable.
layout(local_size_x = 1) in;
void main() { uint count = 3u; atomicOr(count + 1u, 1u); }
