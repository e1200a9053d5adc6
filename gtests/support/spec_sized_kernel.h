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

// The same workgroup and Data, a tree of halving steps instead of the loop: invocation
// tid writes values[tid] = tid + 1, then for s = BLOCK / 2, BLOCK / 4, ..., 1 (between
// barriers) adds 1000 to values[tid + s] where `tid TEST s` (`step_test`: "<" proves,
// "<=" is the near-miss that reaches values[BLOCK] at the first step). With "<" and a
// power of two BLOCK, every element but values[0] gets 1000 once.
std::string SpecSizedReduction(const std::string& step_test);

// One invocation, the same Data: first = before[0], stride = before[1]; where `run_test`
// holds a helper writes values[n] = 7 + n for n < BLOCK, else (when first < stride) for
// n < stride - first. "first + BLOCK <= stride" proves; "first + 2u * BLOCK <= stride"
// is the near-miss that lets the rest reach 2 * BLOCK - 1.
std::string SpecSizedRows(const std::string& run_test);

}  // namespace glint::test

#endif  // GLINT_GTESTS_SPEC_SIZED_KERNEL_H
