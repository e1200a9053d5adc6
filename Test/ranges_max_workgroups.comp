// glint-flags: -V --robust-access --dump-ranges --max-workgroups 16,2,1
// --max-workgroups promises the largest dispatch: gl_WorkGroupID.x in [0, 15],
// gl_NumWorkGroups.y in [1, 2], gl_GlobalInvocationID.x in [0, 16 * 64 - 1]. tile[16]
// and rows[1024] are proven; cols[2] is one short of the promise and stays clamped, and
// so does anything indexed by gl_WorkGroupID.z * 2 + 1 (z is 0, but 1 > limit 0).
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint tile[16]; uint rows[1024]; uint cols[2]; uint one[1]; };
void main() {
  tile[gl_WorkGroupID.x] = 1u;
  rows[gl_GlobalInvocationID.x] = 2u;
  cols[gl_NumWorkGroups.y] = 3u;
  one[gl_WorkGroupID.z * 2u + 1u] = 4u;
}
