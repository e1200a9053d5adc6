// glint-flags: -V --dump-ranges --range-analysis=reference
#version 450
// Full mode's extensions over the reference rules (each is "no range" with
// --range-analysis=reference, see ranges_full_mode_reference.comp): a local assigned
// once, a constant AND mask, clamp, unsigned bitfieldExtract.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(std430, binding = 1) buffer Probe { uint probe[256]; };

void main() {
    uint lane = gl_LocalInvocationID.x;
    probe[lane] = 0u;                                   // [0, 63]: single store
    probe[data[0] & 255u] = 1u;                         // [0, 255]
    probe[clamp(int(data[1]), 0, 255)] = 2u;            // [0, 255]
    probe[bitfieldExtract(data[2], 4, 8)] = 3u;         // [0, 255]
    uint twice = 5u;
    twice = data[3];
    probe[twice] = 4u;                                  // no range: two stores
}
