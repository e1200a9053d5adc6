// Resources every run shares: shader modules, descriptor and pipeline layouts from the
// module's declared bindings, specialization data, host-visible buffers bound in
// descriptor sets, and the bounded submit-and-wait.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "vk_context.h"

namespace glint::vk {

namespace {

bool Check(VkResult result, const char* what, std::string* error) {
  if (result == VK_SUCCESS) return true;
  *error = std::string(what) + " failed with " + ResultName(result);
  return false;
}

std::string BindingName(uint32_t set, uint32_t binding) {
  return "(set " + std::to_string(set) + ", binding " + std::to_string(binding) + ")";
}

std::string Describe(const BindingInfo& info) {
  std::string text = BindingName(info.set, info.binding);
  if (!info.name.empty()) text += " '" + info.name + "'";
  return text;
}

// Memory type with all of `required` (and `preferred` when there is one).
uint32_t FindMemoryType(const Context::State& state, uint32_t allowed_types,
                        VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) {
  uint32_t fallback = UINT32_MAX;
  for (uint32_t i = 0; i < state.memory.memoryTypeCount; ++i) {
    if (!(allowed_types & (1u << i))) continue;
    VkMemoryPropertyFlags flags = state.memory.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return i;
    if (fallback == UINT32_MAX) fallback = i;
  }
  return fallback;
}

}  // namespace

VkShaderModule CreateShaderModule(Context::State& state, const std::vector<uint32_t>& words,
                                  Cleanup* cleanup, std::string* error) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = words.size() * sizeof(uint32_t);
  info.pCode = words.data();
  VkShaderModule module = VK_NULL_HANDLE;
  if (!Check(vkCreateShaderModule(state.device, &info, nullptr, &module), "vkCreateShaderModule",
             error))
    return VK_NULL_HANDLE;
  VkDevice device = state.device;
  cleanup->Add([device, module] { vkDestroyShaderModule(device, module, nullptr); });
  return module;
}

bool CreateLayouts(Context::State& state, VkShaderStageFlags stages, PipelineObjects* pipeline,
                   std::string* error) {
  const ShaderInterface& interface = pipeline->interface;
  uint32_t set_count = 0;
  for (const BindingInfo& info : interface.bindings) {
    if (info.kind == BindingKind::kUnsupported) {
      *error = "the shader declares binding " + Describe(info) + " as " + info.description +
               "; the harness backs only uniform and storage buffers";
      return false;
    }
    set_count = std::max(set_count, info.set + 1);
  }
  VkDevice device = state.device;
  for (uint32_t set = 0; set < set_count; ++set) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (const BindingInfo& info : interface.bindings) {
      if (info.set != set) continue;
      VkDescriptorType type = info.kind == BindingKind::kStorageBuffer
                                  ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                                  : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
      bindings.push_back({info.binding, type, 1, stages, nullptr});
    }
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = static_cast<uint32_t>(bindings.size());
    info.pBindings = bindings.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    if (!Check(vkCreateDescriptorSetLayout(device, &info, nullptr, &layout),
               "vkCreateDescriptorSetLayout", error))
      return false;
    pipeline->cleanup.Add(
        [device, layout] { vkDestroyDescriptorSetLayout(device, layout, nullptr); });
    pipeline->set_layouts.push_back(layout);
  }
  VkPushConstantRange range{stages, 0,
                            static_cast<uint32_t>((interface.push_constant_size + 3) & ~3ull)};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = set_count;
  info.pSetLayouts = pipeline->set_layouts.data();
  info.pushConstantRangeCount = range.size ? 1 : 0;
  info.pPushConstantRanges = &range;
  if (!Check(vkCreatePipelineLayout(device, &info, nullptr, &pipeline->layout),
             "vkCreatePipelineLayout", error))
    return false;
  VkPipelineLayout layout = pipeline->layout;
  pipeline->cleanup.Add([device, layout] { vkDestroyPipelineLayout(device, layout, nullptr); });
  return true;
}

bool BuildSpecialization(const ShaderInterface& interface, const Shader& shader,
                         Specialization* out, std::string* error) {
  for (const auto& [id, value] : shader.spec_constants) {
    auto size = interface.spec_constant_sizes.find(id);
    if (size == interface.spec_constant_sizes.end()) {
      *error = "the run sets specialization constant " + std::to_string(id) +
               ", which the module does not declare";
      return false;
    }
    VkSpecializationMapEntry entry{id, static_cast<uint32_t>(out->data.size()), size->second};
    out->entries.push_back(entry);
    for (uint32_t byte = 0; byte < size->second; ++byte)
      out->data.push_back(static_cast<uint8_t>(value >> (8 * byte)));
  }
  out->info.mapEntryCount = static_cast<uint32_t>(out->entries.size());
  out->info.pMapEntries = out->entries.data();
  out->info.dataSize = out->data.size();
  out->info.pData = out->data.data();
  return true;
}

bool CreateHostBuffer(Context::State& state, uint64_t size, VkBufferUsageFlags usage,
                      Cleanup* cleanup, HostBuffer* out, std::string* error) {
  VkDevice device = state.device;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = std::max<uint64_t>(size, 4);
  info.usage = usage;
  if (!Check(vkCreateBuffer(device, &info, nullptr, &out->buffer), "vkCreateBuffer", error))
    return false;
  VkBuffer buffer = out->buffer;
  cleanup->Add([device, buffer] { vkDestroyBuffer(device, buffer, nullptr); });
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device, buffer, &requirements);
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex =
      FindMemoryType(state, requirements.memoryTypeBits,
                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                     VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (allocate.memoryTypeIndex == UINT32_MAX) {
    *error = "the device has no host-visible coherent memory for buffers";
    return false;
  }
  VkDeviceMemory memory = VK_NULL_HANDLE;
  if (!Check(vkAllocateMemory(device, &allocate, nullptr, &memory), "vkAllocateMemory", error))
    return false;
  cleanup->Add([device, memory] { vkFreeMemory(device, memory, nullptr); });
  if (!Check(vkBindBufferMemory(device, buffer, memory, 0), "vkBindBufferMemory", error))
    return false;
  void* mapped = nullptr;
  if (!Check(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory", error))
    return false;
  out->mapped = static_cast<uint8_t*>(mapped);
  out->size = size;
  return true;
}

namespace {

// Refuses a run whose buffers do not match the module's declared bindings one to one.
bool MatchBindings(const ShaderInterface& interface, const std::vector<BufferBinding>& buffers,
                   std::string* error) {
  for (const BindingInfo& info : interface.bindings) {
    bool described = std::any_of(buffers.begin(), buffers.end(), [&](const BufferBinding& b) {
      return b.set == info.set && b.binding == info.binding;
    });
    if (!described) {
      std::string size = std::to_string(info.static_size) + " bytes";
      if (info.runtime_array_stride)
        size +=
            " plus " + std::to_string(info.runtime_array_stride) + " per run-time array element";
      *error = "the shader declares binding " + Describe(info) + " (a " +
               (info.kind == BindingKind::kStorageBuffer ? "storage" : "uniform") + " buffer of " +
               size + ") but the run describes no buffer for it";
      return false;
    }
  }
  for (const BufferBinding& buffer : buffers) {
    if (!interface.Find(buffer.set, buffer.binding)) {
      *error = "the run describes a buffer for " + BindingName(buffer.set, buffer.binding) +
               ", which the shader does not declare";
      return false;
    }
  }
  return true;
}

// The buffer's size: as given, else its contents' size, else the block's fixed part plus
// 256 elements of a trailing run-time array.
bool SizeAndContents(const BindingInfo& info, const BufferBinding& buffer,
                     std::vector<uint8_t>* bytes, std::string* error) {
  uint64_t size = buffer.size;
  if (size == 0 && buffer.contents.source != BufferContents::Source::kBytes &&
      buffer.contents.source != BufferContents::Source::kFile)
    size = std::max<uint64_t>(info.static_size + 256 * info.runtime_array_stride, 4);
  if (!FillContents(buffer.contents, size, bytes, error)) {
    *error = "buffer " + Describe(info) + ": " + *error;
    return false;
  }
  if (bytes->size() < info.static_size) {
    *error = "buffer " + Describe(info) + " has " + std::to_string(bytes->size()) +
             " bytes; the shader's block needs at least " + std::to_string(info.static_size);
    return false;
  }
  return true;
}

bool AllocateSets(Context::State& state, const PipelineObjects& pipeline, Submission* submission,
                  std::vector<VkDescriptorSet>* sets, std::string* error) {
  if (pipeline.set_layouts.empty()) return true;
  VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0},
                                  {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 0}};
  for (const BindingInfo& info : pipeline.interface.bindings)
    ++sizes[info.kind == BindingKind::kStorageBuffer ? 0 : 1].descriptorCount;
  std::vector<VkDescriptorPoolSize> used;
  for (const VkDescriptorPoolSize& size : sizes)
    if (size.descriptorCount) used.push_back(size);
  VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  info.maxSets = static_cast<uint32_t>(pipeline.set_layouts.size());
  info.poolSizeCount = static_cast<uint32_t>(used.size());
  info.pPoolSizes = used.data();
  VkDevice device = state.device;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  if (!Check(vkCreateDescriptorPool(device, &info, nullptr, &pool), "vkCreateDescriptorPool",
             error))
    return false;
  submission->cleanup.Add([device, pool] { vkDestroyDescriptorPool(device, pool, nullptr); });
  VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocate.descriptorPool = pool;
  allocate.descriptorSetCount = info.maxSets;
  allocate.pSetLayouts = pipeline.set_layouts.data();
  sets->resize(info.maxSets);
  return Check(vkAllocateDescriptorSets(device, &allocate, sets->data()),
               "vkAllocateDescriptorSets", error);
}

}  // namespace

bool BindBuffers(Context::State& state, const PipelineObjects& pipeline,
                 const std::vector<BufferBinding>& buffers, size_t push_constant_bytes,
                 Submission* submission, BoundBuffers* out, std::string* error) {
  const ShaderInterface& interface = pipeline.interface;
  if (push_constant_bytes != interface.push_constant_size) {
    *error = "the shader's push-constant block has " +
             std::to_string(interface.push_constant_size) + " bytes but the run gives " +
             std::to_string(push_constant_bytes);
    return false;
  }
  if (!MatchBindings(interface, buffers, error)) return false;
  if (!AllocateSets(state, pipeline, submission, &out->sets, error)) return false;
  for (const BufferBinding& buffer : buffers) {
    const BindingInfo& info = *interface.Find(buffer.set, buffer.binding);
    std::vector<uint8_t> bytes;
    if (!SizeAndContents(info, buffer, &bytes, error)) return false;
    bool storage = info.kind == BindingKind::kStorageBuffer;
    VkBufferUsageFlags usage =
        (storage ? VK_BUFFER_USAGE_STORAGE_BUFFER_BIT : VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    HostBuffer host;
    if (!CreateHostBuffer(state, bytes.size(), usage, &submission->cleanup, &host, error))
      return false;
    VkDescriptorBufferInfo buffer_info{host.buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = out->sets[info.set];
    write.dstBinding = info.binding;
    write.descriptorCount = 1;
    write.descriptorType =
        storage ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    write.pBufferInfo = &buffer_info;
    vkUpdateDescriptorSets(state.device, 1, &write, 0, nullptr);
    out->buffers.push_back(host);
    out->initial.push_back(std::move(bytes));
  }
  return true;
}

void RefillBuffers(const BoundBuffers& bound) {
  for (size_t i = 0; i < bound.buffers.size(); ++i)
    if (!bound.initial[i].empty())
      std::memcpy(bound.buffers[i].mapped, bound.initial[i].data(), bound.initial[i].size());
}

std::vector<BufferData> ReadBack(const BoundBuffers& bound,
                                 const std::vector<BufferBinding>& buffers) {
  std::vector<BufferData> out;
  for (size_t i = 0; i < bound.buffers.size(); ++i) {
    const HostBuffer& host = bound.buffers[i];
    out.push_back({buffers[i].set, buffers[i].binding,
                   std::vector<uint8_t>(host.mapped, host.mapped + host.size)});
  }
  return out;
}

bool BeginSubmission(Context::State& state, Submission* submission, std::string* error) {
  VkDevice device = state.device;
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = state.command_pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  if (!Check(vkAllocateCommandBuffers(device, &allocate, &submission->commands),
             "vkAllocateCommandBuffers", error))
    return false;
  VkCommandBuffer commands = submission->commands;
  VkCommandPool pool = state.command_pool;
  submission->cleanup.Add(
      [device, pool, commands] { vkFreeCommandBuffers(device, pool, 1, &commands); });
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (!Check(vkCreateFence(device, &fence_info, nullptr, &submission->fence), "vkCreateFence",
             error))
    return false;
  VkFence fence = submission->fence;
  submission->cleanup.Add([device, fence] { vkDestroyFence(device, fence, nullptr); });
  if (state.timestamp_valid_bits) {
    VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = 2;
    if (!Check(vkCreateQueryPool(device, &query_info, nullptr, &submission->timestamps),
               "vkCreateQueryPool", error))
      return false;
    VkQueryPool queries = submission->timestamps;
    submission->cleanup.Add([device, queries] { vkDestroyQueryPool(device, queries, nullptr); });
  }
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  return Check(vkBeginCommandBuffer(submission->commands, &begin), "vkBeginCommandBuffer", error);
}

namespace {

std::string FormatMilliseconds(double ms) {
  char text[64];
  std::snprintf(text, sizeof(text), "%g ms", ms);
  return text;
}

double TimestampMilliseconds(const Context::State& state, VkQueryPool pool) {
  uint64_t stamps[2] = {0, 0};
  vkGetQueryPoolResults(state.device, pool, 0, 2, sizeof(stamps), stamps, sizeof(uint64_t),
                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  uint64_t mask =
      state.timestamp_valid_bits >= 64 ? ~0ull : (1ull << state.timestamp_valid_bits) - 1;
  uint64_t ticks = (stamps[1] - stamps[0]) & mask;
  return ticks * static_cast<double>(state.properties.limits.timestampPeriod) / 1e6;
}

}  // namespace

namespace {

// Processor time of the whole process (every thread), in milliseconds.
double ProcessCpuMilliseconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

}  // namespace

bool SubmitAndWait(Context::State& state, std::unique_ptr<Submission>& submission, double budget_ms,
                   double* run_ms, std::string* error, double* cpu_ms) {
  if (RefuseIfLost(state, error)) return false;
  vkResetFences(state.device, 1, &submission->fence);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &submission->commands;
  auto start = std::chrono::steady_clock::now();
  double cpu_start = ProcessCpuMilliseconds();
  if (!Check(vkQueueSubmit(state.queue, 1, &submit, submission->fence), "vkQueueSubmit", error))
    return false;
  uint64_t budget_ns = static_cast<uint64_t>(std::max(budget_ms, 0.0) * 1e6);
  VkResult waited = vkWaitForFences(state.device, 1, &submission->fence, VK_TRUE, budget_ns);
  double host_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (cpu_ms) *cpu_ms = ProcessCpuMilliseconds() - cpu_start;
  if (waited == VK_TIMEOUT || waited == VK_ERROR_DEVICE_LOST) {
    state.lost = true;
    state.abandoned.push_back(std::move(submission));
    *error = waited == VK_TIMEOUT
                 ? "the submission exceeded its time budget of " + FormatMilliseconds(budget_ms) +
                       "; the context is now lost and refuses further work"
                 : std::string("the device was lost (VK_ERROR_DEVICE_LOST)");
    return false;
  }
  if (!Check(waited, "vkWaitForFences", error)) return false;
  *run_ms = submission->timestamps ? TimestampMilliseconds(state, submission->timestamps) : host_ms;
  return true;
}

std::string TimingMethod(const Context::State& state) {
  return state.timestamp_valid_bits ? "timestamp queries" : "host: submit + fence wait";
}

namespace {

void Summarize(std::vector<double> times_ms, Timing* timing) {
  timing->runs = static_cast<uint32_t>(times_ms.size());
  if (times_ms.empty()) return;
  std::sort(times_ms.begin(), times_ms.end());
  size_t n = times_ms.size();
  timing->median_ms = n % 2 ? times_ms[n / 2] : (times_ms[n / 2 - 1] + times_ms[n / 2]) / 2;
  timing->min_ms = times_ms.front();
  timing->max_ms = times_ms.back();
}

}  // namespace

bool SubmitRepeatedly(Context::State& state, std::unique_ptr<Submission>& submission,
                      const BoundBuffers& bound, uint32_t warmup, uint32_t repetitions,
                      double budget_ms, Timing* timing, std::string* error) {
  std::vector<double> times, cpu_times;
  repetitions = std::max(repetitions, 1u);
  for (uint32_t run = 0; run < warmup + repetitions; ++run) {
    RefillBuffers(bound);
    double ms = 0, cpu_ms = 0;
    if (!SubmitAndWait(state, submission, budget_ms, &ms, error, &cpu_ms)) return false;
    if (run == 0) timing->first_ms = ms;
    if (run >= warmup) times.push_back(ms), cpu_times.push_back(cpu_ms);
  }
  Summarize(std::move(times), timing);
  std::sort(cpu_times.begin(), cpu_times.end());
  timing->cpu_median_ms = cpu_times[cpu_times.size() / 2];
  timing->method = TimingMethod(state);
  return true;
}

}  // namespace glint::vk
