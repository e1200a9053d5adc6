// audit-args: --groups=2,1,1
// Edge case kept for good: loops that end just below the top of u32 and just above the
// bottom of i32, whose last step still fits the type, and a u32 loop that counts down
// to 0. Each control value is an index after subtracting its start.
#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Data { uint data_u[64]; int data_i[8]; };
layout(std430, set = 0, binding = 1) buffer Result { uint result[]; };
void main() {
  uint acc = gl_LocalInvocationIndex;
  for (uint i = 4294967290u; i <= 4294967294u; i += 3u) acc += data_u[i - 4294967290u];
  for (int i = -2147483640; i > (-2147483647 - 1); i -= 2) acc += data_u[i + 2147483647];
  for (uint i = 5u; i >= 1u; i--) acc += data_u[i];
  for (int i = 2147483600; i <= 2147483631; i += 16) acc += data_u[i - 2147483600];
  result[gl_LocalInvocationIndex] = acc;
}
