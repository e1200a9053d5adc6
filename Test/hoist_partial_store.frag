// glint-flags: -V --target-env vulkan1.0
#version 450
// Negative: a local table that is written again through an index stays a Function
// variable; the output is glslang's own.
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
void main() {
  float t[4] = float[4](1.0, 2.0, 3.0, 4.0);
  t[index & 1] = 5.0;
  color = vec4(t[index]);
}
