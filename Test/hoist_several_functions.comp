// glint-flags: -V --target-env vulkan1.1 --target-env spirv1.4
#version 450
// Compute stage: the same table read from main() and two helpers shares one variable.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
const uint masks[4] = uint[4](0x1u, 0x3u, 0x7u, 0xfu);
uint low(uint i) { return masks[i & 3u]; }
uint high(uint i) { return masks[(i >> 2) & 3u] << 4; }
void main() {
  uint i = gl_GlobalInvocationID.x;
  values[i] = masks[values[i] & 3u] | low(i) | high(i);
}
