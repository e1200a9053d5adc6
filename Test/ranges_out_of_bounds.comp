// glint-flags: -V --robust-access --dump-ranges
#version 450
// An index the range analysis cannot prove and the witness analysis proves out of
// bounds: invocation 31 of every workgroup computes t[32] (one past the end). Beside it,
// two indices proven in bounds, and u[iid + 1u], out of bounds as well but under a
// condition: a witness is claimed only for an access every invocation runs.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { uint t[32]; uint u[32]; };
void main() {
  uint iid = gl_LocalInvocationID.x;
  t[iid] = 1u;
  u[31u - iid] = 2u;
  t[iid + 1u] = 3u;
  if (iid != 5u) u[iid + 1u] = 4u;
}
