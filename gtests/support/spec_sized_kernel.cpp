#include "spec_sized_kernel.h"

namespace glint::test {

std::string SpecSizedKernel(const std::string& loop_test) {
  return R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint BLOCK = 4;
shared uint tmp[BLOCK];
layout(std430, binding = 0) buffer Data { uint before[4]; uint values[BLOCK]; };
void main() {
  uint tid = gl_LocalInvocationID.x;
  tmp[tid] = 3u * tid + 1u;
  barrier();
  for (uint i = tid; )" +
         loop_test + R"(; i += BLOCK) values[i] = tmp[i % BLOCK] + 100u * i;
}
)";
}

}  // namespace glint::test
