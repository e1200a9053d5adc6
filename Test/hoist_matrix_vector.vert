// glint-flags: -V --target-env vulkan1.3
#version 450
// Vertex stage: a vector table (corners), an array of matrices and a matrix whose
// column is chosen at run time; three tables, three Private variables.
layout(location = 0) in ivec2 index;
const vec2 corners[4] = vec2[4](vec2(-1), vec2(1, -1), vec2(-1, 1), vec2(1));
const mat2 rotations[2] = mat2[2](mat2(1.0), mat2(0.0, 1.0, -1.0, 0.0));
const mat4 basis = mat4(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0,
                        9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0);
void main() {
  vec2 corner = rotations[index.y & 1] * corners[index.x & 3];
  gl_Position = vec4(corner, 0.0, 1.0) + basis[index.y & 3] * 0.0;
}
