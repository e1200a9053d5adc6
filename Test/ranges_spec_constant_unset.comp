// glint-flags: -V --dump-ranges
#version 450
// Specialization constants without values stay unknown (no range) instead of becoming constants before the
// analysis: the workgroup size (local_size_x_id) and a loop bound (N * 2).
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint N = 4u;
const uint M = N * 2u;
layout(std430, binding = 1) buffer Probe { uint probe[32]; };

void main() {
    for (uint i = 0u; i < M; i++) probe[i] = 0u;   // [0, 11]
    probe[gl_LocalInvocationID.x] = 1u;            // [0, 31]
}
