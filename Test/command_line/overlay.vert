#version 450
// A vertex shader for a 2D overlay: scale and offset from push constants.
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 uv;
layout(location = 2) in vec4 tint;
layout(push_constant) uniform Transform { vec2 scale; vec2 offset; } transform;
layout(location = 0) out vec2 out_uv;
layout(location = 1) out vec4 out_tint;
out gl_PerVertex { vec4 gl_Position; };
void main() {
  out_uv = uv;
  out_tint = tint;
  gl_Position = vec4(position * transform.scale + transform.offset, 0.0, 1.0);
}
