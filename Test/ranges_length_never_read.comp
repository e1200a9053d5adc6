// glint-flags: -V --robust-access --dump-ranges
#version 450
// Runtime arrays: the application chooses each buffer's length when it binds it, so an
// index into one is in bounds for every binding only where the shader tests it against
// `.length()`. Counts is never asked for its length: its clamp is an input's whatever
// the index's range ("runtime array length never read by the shader"). Items' length is
// read once: the access the test covers is proven, the other is left to a stronger
// analysis (no "never read").
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Counts { uint counts[]; };
layout(std430, binding = 1) buffer Items { uint items[]; };
void main() {
  uint i = gl_LocalInvocationIndex;
  counts[i] = 1u;
  if (i < uint(items.length())) items[i] = 2u;
  items[i / 2u] = 3u;
}
