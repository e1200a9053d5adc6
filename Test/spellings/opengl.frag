#version 440
uniform vec4 tint;
uniform float strength;
out vec4 color;
void main() { color = tint * strength; }
