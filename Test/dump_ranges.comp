// glint-flags: -V --dump-ranges
#version 450
// --dump-ranges without -g: the report names source lines (glslang's line information,
// kept outside the module) while the output module stays glslang's own.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { uint values[64]; };

void main() {
    uint sum = 0u;
    for (int i = 0; i < 8; ++i) sum += values[i];
    values[gl_LocalInvocationID.x] = sum;
}
