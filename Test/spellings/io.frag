#version 440
in Varyings { vec4 color; float fade[2]; } ins;
out vec4 color;
layout(binding = 2) uniform Material { vec4 albedo[2]; } material;
void main() { color = ins.color * ins.fade[1] + material.albedo[1]; }
