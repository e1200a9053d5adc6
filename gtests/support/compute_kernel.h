// Execution tests' way to run a compute kernel on the Vulkan device the harness picks
// (lavapipe unless $GLINT_VK_DEVICE says otherwise): storage buffers in, buffers out.
#ifndef GLINT_GTESTS_COMPUTE_KERNEL_H
#define GLINT_GTESTS_COMPUTE_KERNEL_H

#include <array>
#include <cstdint>
#include <map>
#include <vector>

namespace glint::test {

// Runs `spirv` once (`groups` workgroups, one by default) with buffers[b] at set 0,
// binding b, `push` as push constants and `spec_constants` (values by SpecId; the
// widths come from the module) specialized. Returns the buffers after the run; empty,
// with a test failure recorded, when there is no device or the run fails.
std::vector<std::vector<uint32_t>> RunComputeKernel(
    const std::vector<uint32_t>& spirv, const std::vector<std::vector<uint32_t>>& buffers,
    const std::vector<uint32_t>& push, std::array<uint32_t, 3> groups = {1, 1, 1},
    const std::map<uint32_t, uint64_t>& spec_constants = {});

}  // namespace glint::test

#endif  // GLINT_GTESTS_COMPUTE_KERNEL_H
