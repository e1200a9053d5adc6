// glint-flags: -V --target-env vulkan1.3
#version 450
// Negative: a table built from a specialization constant is not a constant (glslang 12
// builds it at run time), so nothing is hoisted and the output is glslang's own.
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
layout(constant_id = 0) const float scale = 2.0;
void main() {
  const vec2 t[2] = vec2[2](vec2(scale), vec2(1.0));
  color = vec4(t[index], 0.0, 1.0);
}
