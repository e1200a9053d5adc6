// Synthetic SPIR-V modules built word by word, without a front end: one function whose
// body is a given run of instructions repeated. The IR tests (input limits) and
// bench/ir_memory_bench (memory per word) parse the same shape, so it is written once.
// A library of its own (glint_synthetic_module, no GoogleTest) so benchmarks link it.
#ifndef GLINT_GTESTS_SYNTHETIC_MODULE_H
#define GLINT_GTESTS_SYNTHETIC_MODULE_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace glint::test {

// Header, OpCapability Shader, OpMemoryModel Logical GLSL450, %1 = OpTypeVoid,
// %2 = OpTypeFunction %1, %3 = OpFunction, %4 = OpLabel, then `body` `copies` times,
// OpReturn, OpFunctionEnd. Ids 1-4 are taken; `bound` must exceed every id in `body`.
std::vector<uint32_t> SingleFunctionModule(const std::vector<uint32_t>& body, size_t copies,
                                           uint32_t bound);

// SingleFunctionModule with a body of `nops` OpNop: one word per instruction, the worst
// case for per-instruction overhead.
std::vector<uint32_t> NopModule(size_t nops);

}  // namespace glint::test

#endif  // GLINT_GTESTS_SYNTHETIC_MODULE_H
