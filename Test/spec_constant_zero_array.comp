// glint-flags: -V --spec-constant 3=0
#version 440
// 0 makes N, the length of the shared array s, 0: refused by value, constant and array,
// nothing written (it used to write an array of length 0, which spirv-val rejects, and
// exit 0 unless --spirv-val was given).
layout(local_size_x = 1) in;
layout(constant_id = 3) const uint N = 4u;
shared uint s[N];
layout(std430, binding = 0) buffer B { uint x[]; };
void main() { s[0] = 1u; barrier(); x[0] = s[0]; }
