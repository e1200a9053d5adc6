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

std::string SpecSizedReduction(const std::string& step_test) {
  return R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint BLOCK = 4;
layout(std430, binding = 0) buffer Data { uint before[4]; uint values[BLOCK]; };
void main() {
  uint tid = gl_LocalInvocationID.x;
  values[tid] = tid + 1u;
  memoryBarrierBuffer();
  barrier();
  for (int s = int(BLOCK) / 2; s > 0; s >>= 1) {
    if (tid )" +
         step_test + R"( s) values[tid + s] += 1000u;
    memoryBarrierBuffer();
    barrier();
  }
}
)";
}

std::string SpecSizedRows(const std::string& run_test) {
  return R"(#version 450
layout(local_size_x = 1) in;
layout(constant_id = 0) const uint BLOCK = 4;
layout(std430, binding = 0) buffer Data { uint before[4]; uint values[BLOCK]; };
void rows(uint count) {
  for (uint n = 0u; n < count; ++n) values[n] = 7u + n;
}
void main() {
  uint first = before[0];
  uint stride = before[1];
  if ()" +
         run_test +
         R"() {
    rows(BLOCK);
  } else {
    if (first >= stride) return;
    rows(stride - first);
  }
}
)";
}

}  // namespace glint::test
