#version 440
#extension GL_EXT_no_such_extension : warn
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0); }
