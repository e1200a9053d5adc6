// glint-flags: -V --uniformity=error
#version 450
// Barriers under branches on uniform values (uniform buffer, push constant,
// gl_WorkGroupID, a readonly buffer), in a loop with a uniform trip count, and after a
// divergent branch has reconverged: no message even with --uniformity=error.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
layout(std430, binding = 1) readonly buffer Sizes { uint size; };
layout(binding = 2) uniform Params { uint count; };
layout(push_constant) uniform Push { uint mode; };
shared uint scratch[64];

void main() {
  uint i = gl_LocalInvocationID.x;
  if (values[i] > 3u) values[i] = 3u;
  barrier();
  if (count > 2u) barrier();
  if (mode == 1u) barrier();
  if (gl_WorkGroupID.x == 0u) barrier();
  for (uint k = 0u; k < size; ++k) {
    scratch[i] = values[i] + k;
    barrier();
  }
  values[i] = scratch[63u - i];
}
