// glint-flags: -V --target-env vulkan1.2 --robust-access --dump-ranges
#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_nonuniform_qualifier : require
// What robust access leaves alone, reported "unbounded": accesses through a
// PhysicalStorageBuffer pointer (buffer_reference) and descriptor arrays indexed at run
// time. Struct member indices are constants and never touched.
layout(local_size_x = 1) in;
layout(buffer_reference, std430) buffer Values { float v[16]; };
layout(binding = 0) uniform sampler2D textures[];
layout(std430, binding = 1) buffer Out { float result; };
layout(push_constant) uniform P { Values values; int index; };
void main() {
  values.v[index] = 1.0;
  result = textureLod(textures[nonuniformEXT(index)], vec2(0.5), 0.0).x;
}
