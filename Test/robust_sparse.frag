// glint-flags: -V --robust-access
#version 450
#extension GL_ARB_sparse_texture2 : require
// Sparse fetch and sparse image read are clamped like their plain forms.
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1, rgba8) uniform image2D storage;
layout(location = 0) flat in ivec3 where;
layout(location = 0) out vec4 color;
void main() {
  vec4 fetched, read;
  int a = sparseTexelFetchARB(tex, where.xy, where.z, fetched);
  int b = sparseImageLoadARB(storage, where.xy, read);
  color = fetched + read + float(a + b);
}
