// audit-args: --groups=236,25,3 --group-budget=11
// Regression: lavapipe returned a negative OpSMod of a negative dividend by 7; full
// mode once assumed SPIR-V's divisor-sign rule and claimed [0, 6].
#version 450
layout(local_size_x = 5, local_size_y = 1, local_size_z = 2) in;
layout(std430, set = 0, binding = 0) buffer Data {
  uint data_u[1804];
  int data_i[49];
};
layout(std430, set = 0, binding = 1) buffer Result { uint result[]; };
void main() {
  uint acc = gl_LocalInvocationIndex;
  acc += uvec4(acc, 1u, 2u, 3u)[min(gl_LocalInvocationID.x, 3u)];
  data_u[13] = acc + 5u;
  data_u[int(uint(((data_i[39] * int(gl_LocalInvocationIndex)) % 7)) % 1804u)] = acc + 2u;
  result[gl_LocalInvocationIndex] = acc;
}
