#version 440
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
uniform sampler2D combined;
uniform texture2D picture;
uniform sampler nearest;
layout(rgba8) uniform readonly image2D pixels;
uniform Tint { vec4 tint; float gain; vec3 shift; };
buffer Weights { vec4 weight; };
void main() {
  color = texture(combined, uv) + texture(sampler2D(picture, nearest), uv) +
          imageLoad(pixels, ivec2(uv)) * tint * weight + vec4(shift * gain, 0.0);
}
