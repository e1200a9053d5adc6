// glint-flags: -V --target-env vulkan1.1 --target-env spirv1.4 --robust-access --range-analysis=full
#version 450
// Vulkan 1.1 + SPIR-V 1.4 target: storage buffers, a runtime array and an image.
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 0) buffer Data { int index; float values[]; };
layout(binding = 1, rgba8) uniform image2D picture;
void main() {
  ivec2 at = ivec2(gl_GlobalInvocationID.xy) + ivec2(index);
  values[index] = imageLoad(picture, at).x;
}
