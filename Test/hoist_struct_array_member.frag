// glint-flags: -V --target-env vulkan1.0
#version 450
// A const struct with an array member indexed at run time (glslang folds the member
// access to the member's constant array, which is the table that gets hoisted).
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
struct Params { float weights[4]; int count; };
const Params params = Params(float[4](0.1, 0.2, 0.3, 0.4), 4);
void main() { color = vec4(params.weights[index % params.count]); }
