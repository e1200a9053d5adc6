#version 440
layout(location = 0) out vec4 color;
void main() {
  color = vec4(1.0) + undeclared;
  float x = vec3(1.0);
}
