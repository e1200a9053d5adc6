// glint-flags: -V --uniformity=error
#version 450
// barrier() after a return taken by only some invocations: with --uniformity=error the
// compilation fails.
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
