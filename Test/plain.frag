#version 450
// A plain fragment shader with no constant table: Glint changes nothing, so the
// output is glslang 12's, byte for byte.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D image;
layout(set = 0, binding = 1) uniform Params { vec4 tint; float exposure; };

void main() {
    vec4 texel = texture(image, uv);
    color = vec4(texel.rgb * tint.rgb * exposure, texel.a);
}
