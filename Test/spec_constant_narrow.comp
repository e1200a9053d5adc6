// glint-flags: -V --target-env vulkan1.3 --spec-constant 0=255 --spec-constant 1=-1 --spec-constant 2=40000 --spec-constant 3=0x3c00 --spec-constant 4=-1
#version 450
// Specialization values for 8-, 16- and 64-bit constants are written as the SPIR-V spec
// says for the constant's type: int8 255 and int16 40000 sign-extended (-1, -25536),
// uint8 -1 as 255 with high bits 0, float16 bits 0x3c00 (1.0), uint64 -1 as all ones.
// SpecIds 0..3 are the ones spirv_fuzzer's specializing mode sets, so its seed from
// this shader exercises narrow types.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(constant_id = 0) const int8_t i8 = int8_t(1);
layout(constant_id = 1) const uint8_t u8 = uint8_t(1);
layout(constant_id = 2) const int16_t i16 = int16_t(1);
layout(constant_id = 3) const float16_t f16 = float16_t(1);
layout(constant_id = 4) const uint64_t u64 = 1ul;
layout(std430, binding = 0) buffer B { int x[]; };
void main() { x[0] = int(i8) + int(u8) + int(i16) + int(f16) + int(u64); }
