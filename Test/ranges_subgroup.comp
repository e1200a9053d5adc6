// glint-flags: -V --target-env vulkan1.1 --dump-ranges --subgroup-size 32
#version 450
#extension GL_KHR_shader_subgroup_basic : require
// The subgroup size the application guarantees gives the subgroup built-ins ranges.
layout(local_size_x = 64) in;
layout(std430, binding = 1) buffer Probe { uint probe[64]; };

void main() {
    probe[gl_SubgroupInvocationID] = 0u;   // [0, 31]
    probe[gl_SubgroupSize] = 1u;           // [32, 32]
}
