#version 440
layout(location = 0) in vec4 color_in;
layout(location = 0) out vec4 color;
void main() { color = color_in * 0.5; }
