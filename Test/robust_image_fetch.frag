// glint-flags: -V --robust-access
#version 450
// texelFetch: the level is clamped to OpImageQueryLevels - 1, then the coordinate to
// OpImageQuerySizeLod(level) - 1; a constant offset is folded into the coordinate first.
// A texel buffer is clamped to OpImageQuerySize - 1. Adds the ImageQuery capability.
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) uniform sampler2DArray layers;
layout(binding = 2) uniform samplerBuffer texels;
layout(binding = 3) uniform sampler2DMS multi;
layout(location = 0) flat in ivec4 where;
layout(location = 0) out vec4 color;
void main() {
  color = texelFetch(tex, where.xy, where.z) + texelFetchOffset(tex, where.xy, 0, ivec2(1, -1))
        + texelFetch(layers, where.xyz, where.w) + texelFetch(texels, where.x)
        + texelFetch(multi, where.xy, where.w);
}
