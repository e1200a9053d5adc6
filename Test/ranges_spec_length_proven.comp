// glint-flags: -V --robust-access --dump-ranges
#version 450
// Arrays whose length is a specialization constant, indexed where the index is below
// the length for every value the application may give it: the invocation's own id in a
// workgroup sized by the same constant ID (glslang gives the size a constant of its own,
// SpecId 0, default 1), a loop tested against the length, a remainder by it. Proven in
// bounds, their limit still set by a specialization constant. The last loop tests `<=`:
// invocation 0 reaches index BLOCK, so that access stays clamped.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint BLOCK = 32;
shared uint tmp[BLOCK];
layout(std430, binding = 0) buffer Data { uint data[BLOCK]; };
void main() {
  uint tid = gl_LocalInvocationID.x;
  tmp[tid] = tid;
  barrier();
  for (uint i = tid; i < BLOCK; i += BLOCK) data[i] = tmp[(i + 1u) % BLOCK];
  for (uint i = tid; i <= BLOCK; i += BLOCK) data[i] = 0u;
}
