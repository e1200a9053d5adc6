// glint-flags: -V --robust-access --range-analysis=off
#version 450
// An array whose length is a specialization constant: the limit is
// OpSpecConstantOp ISub(length, 1), so it follows the value given at pipeline creation.
layout(local_size_x = 64) in;
layout(constant_id = 0) const int kCount = 16;
shared float tile[kCount];
layout(std430, binding = 0) buffer Data { int index; float result; };
void main() {
  tile[gl_LocalInvocationID.x] = 1.0;
  barrier();
  result = tile[index];
}
