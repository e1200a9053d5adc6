// audit-args: --groups=3,2,1
// Edge case kept for good: derived values at the limits of each rule - a modulo whose
// operand crosses a multiple of the divisor, shifts to bit 31, min/max with a buffer
// value of unknown range, int/uint round trips and nested loops whose inner start
// depends on the outer control value.
#version 450
layout(local_size_x = 16, local_size_y = 4) in;
layout(std430, set = 0, binding = 0) buffer Data { uint data_u[256]; int data_i[8]; };
layout(std430, set = 0, binding = 1) buffer Result { uint result[]; };
shared uint tile[64];
void main() {
  uint acc = gl_LocalInvocationIndex;
  tile[(gl_LocalInvocationID.x + 3u) % 4u] = acc;
  acc += data_u[(gl_LocalInvocationIndex << 2u) >> 2u];
  acc += data_u[min(data_u[1], 255u)];
  acc += data_u[uint(max(data_i[0], 0)) % 256u];
  acc += data_u[uint(int(gl_LocalInvocationID.y)) * 16u + gl_LocalInvocationID.x];
  acc += data_u[(gl_LocalInvocationIndex << 25u) >> 25u];
  for (uint i = 0u; i < 4u; i++) {
    for (uint j = i * 2u; j < 8u; j++) acc += tile[i * 8u + j];
  }
  for (int k = 10; k > 0; k--) acc += tile[k * 6 - 6];
  result[gl_LocalInvocationIndex] = acc;
}
