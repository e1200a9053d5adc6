// The Vulkan objects behind glint::vk::Context and the helpers every run shares:
// device selection and creation, buffers in host-visible memory, descriptor layouts and
// sets for the bindings a module declares, capability checks, and a bounded
// submit-and-wait that abandons (never frees) the objects of a submission that ran past
// its budget.
//
// Internal to the harness (Execution/); users include vk_runner.h.
#ifndef GLINT_EXECUTION_VK_CONTEXT_H
#define GLINT_EXECUTION_VK_CONTEXT_H

#include <vulkan/vulkan.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "vk_runner.h"

namespace glint::vk {

// Destroy calls run in reverse order of registration when the owner goes away.
class Cleanup {
 public:
  Cleanup() = default;
  Cleanup(const Cleanup&) = delete;
  Cleanup& operator=(const Cleanup&) = delete;
  ~Cleanup() { RunAll(); }
  void Add(std::function<void()> destroy) { destroys_.push_back(std::move(destroy)); }
  void RunAll();
  // Forgets every destroy call (the objects leak): used when the device may still use them.
  void Forget() { destroys_.clear(); }

 private:
  std::vector<std::function<void()>> destroys_;
};

// Objects a pipeline needs for its whole life (shared with the submissions that use it,
// so that an abandoned submission keeps them alive).
struct PipelineObjects {
  ShaderInterface interface;
  std::vector<VkDescriptorSetLayout> set_layouts;  // index = set number
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkRenderPass render_pass = VK_NULL_HANDLE;  // fragment runs only
  double creation_ms = 0;
  Cleanup cleanup;
};

// Objects of one recorded command buffer and everything it touches.
struct Submission {
  std::shared_ptr<PipelineObjects> pipeline;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkQueryPool timestamps = VK_NULL_HANDLE;
  Cleanup cleanup;
};

struct Context::State {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queue_family = 0;
  VkCommandPool command_pool = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memory{};
  VkPhysicalDeviceFeatures features{};
  VkPhysicalDeviceVulkan11Features features11{};
  VkPhysicalDeviceVulkan12Features features12{};
  VkPhysicalDeviceVulkan13Features features13{};
  VkPhysicalDeviceSubgroupProperties subgroup{};
  uint32_t timestamp_valid_bits = 0;
  bool robust_buffer_access2 = false;  // enabled on the device (VK_EXT_robustness2)
  bool validate_modules = true;
  bool lost = false;
  // Submissions that ran past their budget: kept alive until the device is done
  // with them (bounded wait at teardown), leaked if it never is.
  std::vector<std::unique_ptr<Submission>> abandoned;

  ~State();
};

// Creates the instance and device; fills `state`.
bool CreateDevice(const DeviceOptions& options, Context::State* state, std::string* error);

// Refuses a module whose stage, capabilities or extensions the device (or the harness)
// cannot honour.
bool CheckModule(const Context::State& state, const ShaderInterface& interface,
                 ShaderStage expected_stage, std::string* error);

// Refuses a module that spirv-val rejects for the device's Vulkan version (when the
// context validates modules).
bool ValidateForDevice(const Context::State& state, const std::vector<uint32_t>& words,
                       std::string* error);

VkShaderModule CreateShaderModule(Context::State& state, const std::vector<uint32_t>& words,
                                  Cleanup* cleanup, std::string* error);

// Descriptor set layouts for every set up to the highest one the module uses, and the
// pipeline layout with its push-constant range. Refuses bindings that are not buffers.
bool CreateLayouts(Context::State& state, VkShaderStageFlags stages, PipelineObjects* pipeline,
                   std::string* error);

// VkSpecializationInfo storage for a module's spec constants.
struct Specialization {
  std::vector<VkSpecializationMapEntry> entries;
  std::vector<uint8_t> data;
  VkSpecializationInfo info{};
};
bool BuildSpecialization(const ShaderInterface& interface, const Shader& shader,
                         Specialization* out, std::string* error);

// A buffer in host-visible, coherent memory, mapped while its submission lives.
struct HostBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  uint8_t* mapped = nullptr;
  uint64_t size = 0;
};
bool CreateHostBuffer(Context::State& state, uint64_t size, VkBufferUsageFlags usage,
                      Cleanup* cleanup, HostBuffer* out, std::string* error);

// The run's buffers, checked against the module and bound in descriptor sets.
struct BoundBuffers {
  std::vector<HostBuffer> buffers;            // in the run's order
  std::vector<std::vector<uint8_t>> initial;  // contents before each repetition
  std::vector<VkDescriptorSet> sets;          // index = set number
};
// Refuses a declared binding the run lacks, a buffer for a binding the module does not
// declare, a buffer smaller than its block's fixed part, and push constants that do not
// match the module's block.
bool BindBuffers(Context::State& state, const PipelineObjects& pipeline,
                 const std::vector<BufferBinding>& buffers, size_t push_constant_bytes,
                 Submission* submission, BoundBuffers* out, std::string* error);
void RefillBuffers(const BoundBuffers& bound);
std::vector<BufferData> ReadBack(const BoundBuffers& bound,
                                 const std::vector<BufferBinding>& buffers);

// A command buffer, fence and two-entry timestamp pool owned by `submission`.
bool BeginSubmission(Context::State& state, Submission* submission, std::string* error);

// Submits `submission`, waits at most `budget_ms`; *device_ms gets the timestamp
// difference (or host time when the queue has no timestamps), *cpu_ms (when given) the
// process's processor time from the submission to the fence (Timing::cpu_median_ms). On
// a timeout the state is marked lost, `submission` is moved into state.abandoned, and
// the call refuses.
bool SubmitAndWait(Context::State& state, std::unique_ptr<Submission>& submission, double budget_ms,
                   double* run_ms, std::string* error, double* cpu_ms = nullptr);

bool RefuseIfLost(const Context::State& state, std::string* error);

// Submits `warmup` untimed then `repetitions` timed times, refilling the buffers before
// each; fills median / min / max / first of `timing`.
bool SubmitRepeatedly(Context::State& state, std::unique_ptr<Submission>& submission,
                      const BoundBuffers& bound, uint32_t warmup, uint32_t repetitions,
                      double budget_ms, Timing* timing, std::string* error);
std::string TimingMethod(const Context::State& state);

const char* ResultName(VkResult result);

}  // namespace glint::vk

#endif  // GLINT_EXECUTION_VK_CONTEXT_H
