#version 460
#extension GL_EXT_null_initializer : enable
// glslang 12 reads past an empty initializer list nested in an array initializer.
void main() { float table[2][2] = { {} }; }
