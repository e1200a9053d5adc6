// glint-flags: -V --uniformity=off
#version 450
// The same divergent barrier as uniformity_barrier_error.comp, with the analysis off:
// no message, output as glslang's.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
shared uint scratch[64];

void main() {
  uint i = gl_LocalInvocationID.x;
  if (values[i] == 0u) return;
  scratch[i] = values[i];
  barrier();
  values[i] = scratch[63u - i];
}
