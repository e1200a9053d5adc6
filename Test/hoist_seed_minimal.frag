// glint-flags: --target-env opengl
#version 450
// The seed's minimal repro: a 16-entry constant table indexed at run time becomes one
// Private variable with the table as Initializer; no per-invocation OpStore.
layout(location = 0) flat in int index;
layout(location = 0) out float color;
const float table[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
void main() { color = table[index]; }
