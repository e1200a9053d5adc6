#version 450
#extension GL_GOOGLE_include_directive : require
// A compute shader that compacts the visible instances into a list.
#include "common.glsl"
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Instances { Instance instances[]; };
layout(set = 0, binding = 1) buffer Visible { uint count; uint ids[]; } visible;
layout(push_constant) uniform Camera { vec3 eye; uint total; } camera;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= camera.total) return;
  if (Visibility(instances[i].position_radius, camera.eye) > 0.0)
    visible.ids[atomicAdd(visible.count, 1u)] = i;
}
