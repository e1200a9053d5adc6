// glint-flags: -V --robust-access --dump-ranges
#version 450
// An array whose length is a specialization constant: the application may give the
// length any value, so only index 0 is in bounds for every one. tile[i & 7u] has the
// range [0, 7] and stays clamped (its limit is set by a specialization constant);
// tile[0] needs nothing. With --spec-constant 0=8 the length is fixed and
// tile[i & 7u] is proven.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint kTiles = 16u;
shared uint tile[kTiles * 4u];
layout(std430, binding = 0) buffer Data { uint data[64]; };
void main() {
  uint i = gl_LocalInvocationID.x;
  tile[i & 7u] = data[i];
  tile[0] = 1u;
}
