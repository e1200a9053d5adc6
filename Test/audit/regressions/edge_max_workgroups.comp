// audit-args: --max-workgroups=5,3,2
// Edge case kept for good: the dispatch built-ins under a promised grid (--max-workgroups,
// which the audit checks by dispatching exactly that grid): every component of
// WorkgroupId, NumWorkgroups and GlobalInvocationId reaches the top of its proven range,
// through a swizzle, a loaded vector, a signed round trip and arithmetic.
#version 450
layout(local_size_x = 4, local_size_y = 2) in;
layout(std430, set = 0, binding = 0) buffer Data { uint data_u[64]; int data_i[8]; };
layout(std430, set = 0, binding = 1) buffer Result { uint result[]; };
void main() {
  uint acc = gl_LocalInvocationIndex;
  acc += data_u[gl_WorkGroupID.x];
  acc += data_u[gl_WorkGroupID.y * 5u + gl_WorkGroupID.z];
  acc += data_u[gl_NumWorkGroups.x + gl_NumWorkGroups.z];
  acc += data_u[gl_GlobalInvocationID.x];
  acc += data_u[gl_GlobalInvocationID.y * 10u + gl_GlobalInvocationID.z];
  uvec3 w = gl_WorkGroupID;
  acc += data_u[w.x + w.y + w.z];
  acc += data_u[uint(int(gl_GlobalInvocationID.x) - 19 + 19)];
  result[gl_GlobalInvocationID.x + 20u * gl_GlobalInvocationID.y] = acc;
}
