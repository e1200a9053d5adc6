// glint-flags: -V --robust-access --range-analysis=full --dump-ranges
#version 450
// Runtime-sized arrays: the index is clamped to max(OpArrayLength, 1) - 1 (an empty
// binding gives index 0, never 0xFFFFFFFF); the range analysis never proves these.
// The array in a descriptor-array element needs a pointer to that element's block; the
// descriptor index itself is left alone ("unbounded").
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint header; uint values[]; };
layout(std430, binding = 1) buffer More { uint items[]; } more[4];
layout(push_constant) uniform P { int which; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  values[i * 3u] = header + more[which].items[i] + values[0];
}
