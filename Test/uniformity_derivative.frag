// glint-flags: -V --uniformity=warn
#version 450
// A derivative and an implicit-LOD sample under a branch on an interpolated input:
// warnings with the chain of reasons. The sample after the merge is fine.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;

float edge(float v) {
  return dFdx(v);
}

void main() {
  color = vec4(0.0);
  float t = uv.x;
  if (t > 0.5) {
    color.x = edge(uv.y);
    color.y = texture(tex, uv).x;
  }
  color.z = texture(tex, uv).y;
}
