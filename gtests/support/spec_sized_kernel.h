// A compute kernel whose workgroup and arrays are sized by specialization constant 0
// (BLOCK, default 4), for the tests of proofs below such a length
// (SPIRV/analysis/range/integer_range_spec_lengths.cpp) that run it: each invocation
// writes its own element of a shared array, then a loop from its id, tested by
// `loop_test` ("i < BLOCK" proves, "i <= BLOCK" is the near-miss that reaches index
// BLOCK), writes values[i] = tmp[i % BLOCK] + 100 * i, tmp[t] being 3 * t + 1.
// Data: before[4], then values[BLOCK].
#ifndef GLINT_GTESTS_SPEC_SIZED_KERNEL_H
#define GLINT_GTESTS_SPEC_SIZED_KERNEL_H

#include <string>

namespace glint::test {

std::string SpecSizedKernel(const std::string& loop_test);

}  // namespace glint::test

#endif  // GLINT_GTESTS_SPEC_SIZED_KERNEL_H
