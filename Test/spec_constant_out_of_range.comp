// glint-flags: -V --target-env vulkan1.3 --spec-constant 0=300
#version 450
// 300 does not fit an int8 (-128..255, the signed or unsigned reading of its 8 bits):
// refused by SpecId, type and range, nothing written (it used to write
// OpConstant %char 300, which spirv-val rejects, and exit 0).
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(constant_id = 0) const int8_t i8 = int8_t(1);
layout(std430, binding = 0) buffer B { int x[]; };
void main() { x[0] = int(i8); }
