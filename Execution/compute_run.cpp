// Compute runs: a pipeline created with VK_PIPELINE_CREATE_DISPATCH_BASE_BIT, one
// command buffer recorded once (timestamps around vkCmdDispatchBase), submitted once per
// repetition with the buffers refilled before each.
#include <chrono>

#include "vk_context.h"

namespace glint::vk {

double ComputePipeline::CreationMilliseconds() const { return objects_->creation_ms; }

namespace {

// Refuses a workgroup the device cannot run.
bool CheckWorkgroupSize(const Context::State& state, const ShaderInterface& interface,
                        std::string* error) {
  const VkPhysicalDeviceLimits& limits = state.properties.limits;
  uint64_t invocations = 1;
  for (int axis = 0; axis < 3; ++axis) {
    invocations *= interface.local_size[axis];
    if (interface.local_size[axis] > limits.maxComputeWorkGroupSize[axis]) {
      *error = "pipeline creation refused: local size " +
               std::to_string(interface.local_size[axis]) + " along axis " + std::to_string(axis) +
               " exceeds the device's maxComputeWorkGroupSize " +
               std::to_string(limits.maxComputeWorkGroupSize[axis]);
      return false;
    }
  }
  if (invocations > limits.maxComputeWorkGroupInvocations) {
    *error = "pipeline creation refused: " + std::to_string(invocations) +
             " invocations per workgroup exceed the device's maxComputeWorkGroupInvocations " +
             std::to_string(limits.maxComputeWorkGroupInvocations);
    return false;
  }
  return true;
}

bool CheckGroups(const Context::State& state, const ComputeRun& run, std::string* error) {
  for (int axis = 0; axis < 3; ++axis) {
    uint64_t end = static_cast<uint64_t>(run.base_group[axis]) + run.group_count[axis];
    if (run.group_count[axis] == 0 ||
        end > state.properties.limits.maxComputeWorkGroupCount[axis]) {
      *error = "dispatch refused: base " + std::to_string(run.base_group[axis]) + " + count " +
               std::to_string(run.group_count[axis]) + " along axis " + std::to_string(axis) +
               " must be in 1.." +
               std::to_string(state.properties.limits.maxComputeWorkGroupCount[axis]);
      return false;
    }
  }
  return true;
}

void RecordDispatch(const PipelineObjects& pipeline, const ComputeRun& run,
                    const BoundBuffers& bound, const Submission& submission) {
  VkCommandBuffer commands = submission.commands;
  vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
  if (!bound.sets.empty())
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0,
                            static_cast<uint32_t>(bound.sets.size()), bound.sets.data(), 0,
                            nullptr);
  if (!run.push_constants.empty())
    vkCmdPushConstants(commands, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       static_cast<uint32_t>(run.push_constants.size()), run.push_constants.data());
  if (submission.timestamps) {
    vkCmdResetQueryPool(commands, submission.timestamps, 0, 2);
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, submission.timestamps, 0);
  }
  vkCmdDispatchBase(commands, run.base_group[0], run.base_group[1], run.base_group[2],
                    run.group_count[0], run.group_count[1], run.group_count[2]);
  if (submission.timestamps)
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, submission.timestamps, 1);
  VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                       0, 1, &to_host, 0, nullptr, 0, nullptr);
}

}  // namespace

std::unique_ptr<ComputePipeline> Context::CreateComputePipeline(const Shader& shader,
                                                                std::string* error) {
  State& state = *state_;
  if (RefuseIfLost(state, error)) return nullptr;
  std::optional<ShaderInterface> interface =
      ReadShaderInterface(shader.spirv, shader.entry_point, error);
  if (!interface || !CheckModule(state, *interface, ShaderStage::kCompute, error) ||
      !CheckWorkgroupSize(state, *interface, error) ||
      !ValidateForDevice(state, shader.spirv, error))
    return nullptr;
  auto objects = std::make_shared<PipelineObjects>();
  objects->interface = std::move(*interface);
  auto start = std::chrono::steady_clock::now();
  if (!CreateLayouts(state, VK_SHADER_STAGE_COMPUTE_BIT, objects.get(), error)) return nullptr;
  Specialization specialization;
  if (!BuildSpecialization(objects->interface, shader, &specialization, error)) return nullptr;
  VkShaderModule module = CreateShaderModule(state, shader.spirv, &objects->cleanup, error);
  if (!module) return nullptr;
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT;
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = shader.entry_point.c_str();
  info.stage.pSpecializationInfo = &specialization.info;
  info.layout = objects->layout;
  VkResult result =
      vkCreateComputePipelines(state.device, VK_NULL_HANDLE, 1, &info, nullptr, &objects->pipeline);
  if (result != VK_SUCCESS) {
    *error = std::string("pipeline creation failed: vkCreateComputePipelines returned ") +
             ResultName(result);
    return nullptr;
  }
  VkDevice device = state.device;
  VkPipeline pipeline = objects->pipeline;
  objects->cleanup.Add([device, pipeline] { vkDestroyPipeline(device, pipeline, nullptr); });
  objects->creation_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return std::make_unique<ComputePipeline>(std::move(objects));
}

bool Context::RunCompute(const ComputePipeline& pipeline, const ComputeRun& run,
                         ComputeResult* result, std::string* error) {
  State& state = *state_;
  if (RefuseIfLost(state, error) || !CheckGroups(state, run, error)) return false;
  auto submission = std::make_unique<Submission>();
  submission->pipeline = pipeline.Objects();
  BoundBuffers bound;
  if (!BindBuffers(state, *submission->pipeline, run.buffers, run.push_constants.size(),
                   submission.get(), &bound, error) ||
      !BeginSubmission(state, submission.get(), error))
    return false;
  RecordDispatch(*submission->pipeline, run, bound, *submission);
  if (vkEndCommandBuffer(submission->commands) != VK_SUCCESS) {
    *error = "vkEndCommandBuffer failed";
    return false;
  }
  if (!SubmitRepeatedly(state, submission, bound, run.warmup_runs, run.repetitions,
                        run.time_budget_ms, &result->timing, error))
    return false;
  result->buffers = ReadBack(bound, run.buffers);
  result->timing.pipeline_ms = pipeline.CreationMilliseconds();
  return true;
}

bool Context::RunCompute(const ComputeRun& run, ComputeResult* result, std::string* error) {
  std::unique_ptr<ComputePipeline> pipeline = CreateComputePipeline(run.shader, error);
  return pipeline && RunCompute(*pipeline, run, result, error);
}

}  // namespace glint::vk
