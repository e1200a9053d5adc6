#version 450
#extension GL_GOOGLE_include_directive : require
// A fragment shader with a sampler, a uniform block and an include.
#include "common.glsl"
layout(set = 0, binding = 0) uniform sampler2D albedo;
layout(set = 0, binding = 1) uniform Light { vec4 direction; vec4 tint; } light;
layout(location = 0) in vec2 uv;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec4 color;
void main() {
  float lit = max(dot(normalize(normal), -light.direction.xyz), 0.1);
  color = texture(albedo, uv) * light.tint * lit;
}
