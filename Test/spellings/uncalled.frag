#version 440
layout(location = 0) in vec4 value;
layout(location = 0) out vec4 color;
vec4 never_called(vec4 x) { return x * 3.0; }
void main() { color = clamp(min(value, vec4(1.0)), max(value.x, 0.25), 2.0); }
