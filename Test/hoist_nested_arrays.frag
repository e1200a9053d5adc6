// glint-flags: -V --target-env vulkan1.1
#version 450
// A two-dimensional constant table indexed at run time in both dimensions.
layout(location = 0) flat in ivec2 index;
layout(location = 0) out vec4 color;
const int t[2][3] = int[2][3](int[3](1, 2, 3), int[3](4, 5, 6));
void main() { color = vec4(float(t[index.x][index.y])); }
