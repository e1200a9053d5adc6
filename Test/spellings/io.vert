#version 440
in vec4 position;
in float weights[3];
out Varyings { vec4 color; float fade[2]; } outs;
layout(binding = 0) uniform Camera { mat4 view; vec4 lights[4]; float unused_scale; } camera;
layout(binding = 1, std430) buffer Bones { mat4 bones[]; };
void main() {
  outs.color = camera.lights[1] * weights[2];
  outs.fade[1] = 1.0;
  gl_Position = camera.view * bones[0] * position;
}
