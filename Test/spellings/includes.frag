#version 440
#extension GL_GOOGLE_include_directive : require
#include "common.h"
layout(location = 0) in vec4 color_in;
layout(location = 0) out vec4 color;
void main() { color = darken(color_in); }
