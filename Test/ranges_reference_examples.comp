// glint-flags: -V --dump-ranges --range-analysis=reference
#version 450
// Every example of the reference design (Tint's rules, docs/RANGE_ANALYSIS.md) in
// GLSL, analysed with exactly the reference rules. Each probe[] index is one example;
// the comment gives the reference's expected range. (GLSL locals are variables, so the
// reference's `let` examples index with the expression itself.)
layout(local_size_x = 16, local_size_y = 8) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(std430, binding = 1) buffer Probe { uint probe[128]; };
shared uint scratch[256];

void main() {
    probe[gl_LocalInvocationID.x] = 0u;       // [0, 15]
    probe[gl_LocalInvocationID.y] = 0u;       // [0, 7]
    probe[gl_LocalInvocationIndex] = 0u;      // [0, 127]

    for (int i = 0; i < 10; i++) probe[i] = 1u;                 // [0, 9]
    for (uint i = 0u; i <= 16u; i += 6u) probe[i] = 1u;         // [0, 12]
    for (int i = 10; i > 0; i--) probe[i] = 1u;                 // [1, 10]
    for (uint i = 10u; i >= 1u; i -= 2u) probe[i] = 1u;         // [2, 10]
    for (uint i = gl_LocalInvocationIndex; i < 256u; i += 128u) scratch[i] = 1u;  // [0, 255]
    for (uint i = 0u; i < 4u; i++) {
        probe[i] = 2u;                                          // [0, 3]
        for (uint j = i * 2u; j < 8u; j++) probe[j] = 2u;       // [0, 7]
    }

    // Unsupported loops.
    for (uint i = 10u; i >= 0u; i--) probe[i] = 3u;             // always true
    for (int i = 0; i > -10; i++) probe[i] = 3u;                // direction
    for (int i = 10; i > 0; i += -1) probe[i] = 3u;             // negative step
    uint n = data[0];
    for (uint i = 0u; i < n; i++) probe[i] = 3u;                // bound not constant
    for (int i = 0; i < 10; i += 2) { i++; probe[i] = 3u; }     // modified in body
    for (int i = 0; i < 10; i *= 2) probe[i] = 3u;              // not add/sub
    for (int i = 0; ; i++) { if (i >= 10) break; probe[i] = 3u; }  // not the for shape

    // Modulo and min/max.
    probe[data[1] % 16u] = 4u;                                  // [0, 15]
    probe[(gl_LocalInvocationID.x + 3u) % 4u] = 4u;             // [0, 3]
    probe[gl_LocalInvocationID.x % 128u] = 4u;                  // [0, 15] here (lid.x < 16)
    probe[min(int(data[2]), 15)] = 5u;                          // [-2147483648, 15]
    probe[max(int(data[2]), 0)] = 5u;                           // [0, 2147483647]
    probe[min(max(int(data[2]), 0), 15)] = 5u;                  // [0, 15]
    probe[min(data[3], 63u)] = 5u;                              // [0, 63]
}
