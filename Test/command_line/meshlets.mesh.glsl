#version 450
#extension GL_EXT_mesh_shader : require
#extension GL_GOOGLE_include_directive : require
// A mesh shader that emits one triangle per instance it finds visible.
#include "common.glsl"
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 96, max_primitives = 32) out;
layout(set = 0, binding = 0) readonly buffer Instances { Instance instances[]; };
layout(push_constant) uniform Camera { vec3 eye; uint count; } camera;
layout(location = 0) out vec3 color[];
void main() {
  uint i = gl_LocalInvocationIndex;
  bool visible = i < camera.count && Visibility(instances[i].position_radius, camera.eye) > 0.0;
  SetMeshOutputsEXT(96, 32);
  for (uint v = 0; v < 3; ++v) {
    vec3 corner = instances[i].position_radius.xyz + vec3(v == 1u, v == 2u, 0.0);
    gl_MeshVerticesEXT[i * 3 + v].gl_Position = vec4(corner, 1.0);
    color[i * 3 + v] = vec3(float(instances[i].mesh & 7u) / 7.0);
  }
  gl_PrimitiveTriangleIndicesEXT[i] = uvec3(i * 3, i * 3 + 1, i * 3 + 2);
  gl_MeshPrimitivesEXT[i].gl_CullPrimitiveEXT = !visible;
}
