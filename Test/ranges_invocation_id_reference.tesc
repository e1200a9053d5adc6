// glint-flags: -V --dump-ranges --range-analysis=reference
#version 450
// Full mode: gl_InvocationID of a tessellation control shader lies in
// [0, vertices - 1], so gl_out[gl_InvocationID] is in bounds (reference mode: no range).
layout(vertices = 3) out;
layout(location = 0) in vec4 inColor[];
layout(location = 0) out vec4 outColor[3];

void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    outColor[gl_InvocationID] = inColor[gl_InvocationID];
    gl_TessLevelOuter[0] = 1.0;
}
