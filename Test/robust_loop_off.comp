// glint-flags: -V --robust-access --range-analysis=off --dump-ranges
#version 450
// The same kernel under each --range-analysis mode: a workgroup tile indexed by
// gl_LocalInvocationID and by a simple for-loop counter (both proven by the reference
// rules), a modulo of a loaded value (proven by the reference rules), a bitwise AND
// (not a reference rule) and a value loaded from memory (never proven).
layout(local_size_x = 16, local_size_y = 16) in;
shared float tile[16][16];
layout(std430, binding = 0) buffer Data { uint key; float result[]; };
void main() {
  uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
  tile[y][x] = float(x + y);
  barrier();
  float sum = 0.0;
  for (int k = 0; k < 16; ++k) sum += tile[y][k];
  sum += tile[key % 16u][x] + tile[key & 15u][y] + tile[key][x];
  result[gl_LocalInvocationIndex] = sum;
}
