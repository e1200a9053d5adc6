#version 450
// One triangle that covers the whole viewport: vertices (-1,-1), (3,-1), (-1,3).
// Compiled to SPIR-V at build time (Execution/CMakeLists.txt) for fragment runs.
void main() {
  vec2 corner = vec2(float((gl_VertexIndex & 1) << 2), float((gl_VertexIndex & 2) << 1));
  gl_Position = vec4(corner - 1.0, 0.0, 1.0);
}
