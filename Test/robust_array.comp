// glint-flags: -V --robust-access --range-analysis=off --dump-ranges
#version 450
// Fixed-size arrays, matrix columns and vector elements indexed at run time: each index
// becomes UMin(uint(index), count - 1); constant in-bounds indices stay.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data {
  int signed_index;
  uint unsigned_index;
  float result;
  float values[8];
  mat4x3 m;
  vec4 v;
};
void main() {
  float sum = values[signed_index] + values[unsigned_index] + values[7];
  sum += m[signed_index][unsigned_index] + v[signed_index];
  result = sum;
}
