#include "compute_kernel.h"

#ifdef GLINT_HAVE_VULKAN

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "Execution/vk_runner.h"

namespace glint::test {
namespace {

// One device for the whole test binary: creating one costs more than most runs.
vk::Context* SharedContext() {
  static std::unique_ptr<vk::Context> context = [] {
    std::string error;
    std::unique_ptr<vk::Context> created = vk::Context::Create(vk::DeviceOptions{}, &error);
    EXPECT_NE(created, nullptr) << "no Vulkan device (install mesa-vulkan-drivers): " << error;
    return created;
  }();
  return context.get();
}

std::vector<uint8_t> Bytes(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> bytes(words.size() * 4);
  if (!bytes.empty()) std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

std::vector<uint32_t> Words(const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  if (!words.empty()) std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

}  // namespace

std::vector<std::vector<uint32_t>> RunComputeKernel(
    const std::vector<uint32_t>& spirv, const std::vector<std::vector<uint32_t>>& buffers,
    const std::vector<uint32_t>& push, std::array<uint32_t, 3> groups,
    const std::map<uint32_t, uint64_t>& spec_constants) {
  vk::Context* context = SharedContext();
  if (!context) return {};
  vk::ComputeRun run;
  run.shader.spirv = spirv;
  run.shader.spec_constants = spec_constants;
  run.group_count = groups;
  for (uint32_t binding = 0; binding < buffers.size(); ++binding)
    run.buffers.push_back({0, binding, 0, vk::BufferContents::Bytes(Bytes(buffers[binding]))});
  run.push_constants = Bytes(push);
  vk::ComputeResult result;
  std::string error;
  if (!context->RunCompute(run, &result, &error)) {
    ADD_FAILURE() << "the kernel did not run: " << error;
    return {};
  }
  std::vector<std::vector<uint32_t>> out;
  for (const vk::BufferData& data : result.buffers) out.push_back(Words(data.bytes));
  return out;
}

}  // namespace glint::test

#endif  // GLINT_HAVE_VULKAN
