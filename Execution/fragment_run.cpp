// Fragment runs: the built-in full-screen triangle (fullscreen_triangle.vert, compiled
// at build time) and the given fragment shader draw into an offscreen colour target of
// the run's size and format, which is then copied to a host buffer. Timestamps
// surround the render pass (clear + draw).
#include <chrono>
#include <cstdint>

#include "fullscreen_triangle_vert.h"  // generated: kFullscreenTriangleVert
#include "vk_context.h"

namespace glint::vk {

namespace {

VkFormat VulkanFormat(ColorFormat format) {
  switch (format) {
    case ColorFormat::kRgba8Unorm:
      return VK_FORMAT_R8G8B8A8_UNORM;
    case ColorFormat::kRgba32Float:
      return VK_FORMAT_R32G32B32A32_SFLOAT;
    case ColorFormat::kRgba32Uint:
      return VK_FORMAT_R32G32B32A32_UINT;
  }
  return VK_FORMAT_UNDEFINED;
}

bool CheckTarget(const Context::State& state, const FragmentRun& run, std::string* error) {
  const VkPhysicalDeviceLimits& limits = state.properties.limits;
  if (run.width == 0 || run.height == 0 || run.width > limits.maxFramebufferWidth ||
      run.height > limits.maxFramebufferHeight) {
    *error = "render target " + std::to_string(run.width) + "x" + std::to_string(run.height) +
             " is outside the device's 1.." + std::to_string(limits.maxFramebufferWidth) +
             " x 1.." + std::to_string(limits.maxFramebufferHeight);
    return false;
  }
  VkFormatProperties properties;
  vkGetPhysicalDeviceFormatProperties(state.physical, VulkanFormat(run.format), &properties);
  if (!(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT)) {
    *error = "the device cannot render to the requested colour format";
    return false;
  }
  return true;
}

bool CreateRenderPass(Context::State& state, ColorFormat format, PipelineObjects* pipeline,
                      std::string* error) {
  VkAttachmentDescription attachment{};
  attachment.format = VulkanFormat(format);
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachment.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  VkAttachmentReference color{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color;
  // The copy to the host buffer reads what the subpass wrote.
  VkSubpassDependency to_copy{0,
                              VK_SUBPASS_EXTERNAL,
                              VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                              VK_PIPELINE_STAGE_TRANSFER_BIT,
                              VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                              VK_ACCESS_TRANSFER_READ_BIT,
                              0};
  VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  info.attachmentCount = 1;
  info.pAttachments = &attachment;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = 1;
  info.pDependencies = &to_copy;
  VkResult result = vkCreateRenderPass(state.device, &info, nullptr, &pipeline->render_pass);
  if (result != VK_SUCCESS) {
    *error = std::string("vkCreateRenderPass failed with ") + ResultName(result);
    return false;
  }
  VkDevice device = state.device;
  VkRenderPass pass = pipeline->render_pass;
  pipeline->cleanup.Add([device, pass] { vkDestroyRenderPass(device, pass, nullptr); });
  return true;
}

// Fixed-function state of a full-screen draw without blending, depth or culling.
struct FixedFunction {
  VkPipelineVertexInputStateCreateInfo vertex_input{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  VkViewport viewport{};
  VkRect2D scissor{};
  VkPipelineViewportStateCreateInfo viewport_state{
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  VkPipelineRasterizationStateCreateInfo raster{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  VkPipelineMultisampleStateCreateInfo multisample{
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  VkPipelineColorBlendAttachmentState blend_attachment{};
  VkPipelineColorBlendStateCreateInfo blend{
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};

  FixedFunction(uint32_t width, uint32_t height) {
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    viewport = {0, 0, static_cast<float>(width), static_cast<float>(height), 0, 1};
    scissor = {{0, 0}, {width, height}};
    viewport_state.viewportCount = 1;
    viewport_state.pViewports = &viewport;
    viewport_state.scissorCount = 1;
    viewport_state.pScissors = &scissor;
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;
    raster.lineWidth = 1.0f;
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    blend_attachment.colorWriteMask = 0xf;
    blend.attachmentCount = 1;
    blend.pAttachments = &blend_attachment;
  }
};

bool CreateGraphicsPipeline(Context::State& state, const FragmentRun& run,
                            PipelineObjects* pipeline, std::string* error) {
  std::vector<uint32_t> vertex_words(std::begin(kFullscreenTriangleVert),
                                     std::end(kFullscreenTriangleVert));
  VkShaderModule vertex = CreateShaderModule(state, vertex_words, &pipeline->cleanup, error);
  VkShaderModule fragment =
      vertex ? CreateShaderModule(state, run.shader.spirv, &pipeline->cleanup, error) : nullptr;
  Specialization specialization;
  if (!fragment || !BuildSpecialization(pipeline->interface, run.shader, &specialization, error))
    return false;
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vertex;
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = fragment;
  stages[1].pName = run.shader.entry_point.c_str();
  stages[1].pSpecializationInfo = &specialization.info;
  FixedFunction fixed(run.width, run.height);
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &fixed.vertex_input;
  info.pInputAssemblyState = &fixed.assembly;
  info.pViewportState = &fixed.viewport_state;
  info.pRasterizationState = &fixed.raster;
  info.pMultisampleState = &fixed.multisample;
  info.pColorBlendState = &fixed.blend;
  info.layout = pipeline->layout;
  info.renderPass = pipeline->render_pass;
  VkResult result = vkCreateGraphicsPipelines(state.device, VK_NULL_HANDLE, 1, &info, nullptr,
                                              &pipeline->pipeline);
  if (result != VK_SUCCESS) {
    *error = std::string("pipeline creation failed: vkCreateGraphicsPipelines returned ") +
             ResultName(result);
    return false;
  }
  VkDevice device = state.device;
  VkPipeline created = pipeline->pipeline;
  pipeline->cleanup.Add([device, created] { vkDestroyPipeline(device, created, nullptr); });
  return true;
}

std::shared_ptr<PipelineObjects> BuildFragmentPipeline(Context::State& state,
                                                       const FragmentRun& run, std::string* error) {
  std::optional<ShaderInterface> interface =
      ReadShaderInterface(run.shader.spirv, run.shader.entry_point, error);
  if (!interface || !CheckModule(state, *interface, ShaderStage::kFragment, error) ||
      !CheckTarget(state, run, error) || !ValidateForDevice(state, run.shader.spirv, error))
    return nullptr;
  auto pipeline = std::make_shared<PipelineObjects>();
  pipeline->interface = std::move(*interface);
  auto start = std::chrono::steady_clock::now();
  if (!CreateLayouts(state, VK_SHADER_STAGE_FRAGMENT_BIT, pipeline.get(), error) ||
      !CreateRenderPass(state, run.format, pipeline.get(), error) ||
      !CreateGraphicsPipeline(state, run, pipeline.get(), error))
    return nullptr;
  pipeline->creation_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return pipeline;
}

void RecordDraw(const PipelineObjects& pipeline, const FragmentRun& run, const BoundBuffers& bound,
                const Submission& submission, VkImage image, VkFramebuffer framebuffer,
                const HostBuffer& readback) {
  VkCommandBuffer commands = submission.commands;
  if (submission.timestamps) {
    vkCmdResetQueryPool(commands, submission.timestamps, 0, 2);
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, submission.timestamps, 0);
  }
  VkClearValue clear{};
  VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  begin.renderPass = pipeline.render_pass;
  begin.framebuffer = framebuffer;
  begin.renderArea = {{0, 0}, {run.width, run.height}};
  begin.clearValueCount = 1;
  begin.pClearValues = &clear;
  vkCmdBeginRenderPass(commands, &begin, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.pipeline);
  if (!bound.sets.empty())
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout, 0,
                            static_cast<uint32_t>(bound.sets.size()), bound.sets.data(), 0,
                            nullptr);
  if (!run.push_constants.empty())
    vkCmdPushConstants(commands, pipeline.layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                       static_cast<uint32_t>(run.push_constants.size()), run.push_constants.data());
  vkCmdDraw(commands, 3, 1, 0, 0);
  vkCmdEndRenderPass(commands);
  if (submission.timestamps)
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, submission.timestamps, 1);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {run.width, run.height, 1};
  vkCmdCopyImageToBuffer(commands, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1,
                         &region);
  VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands,
                       VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 0, nullptr);
}

// The colour image, its memory, view and framebuffer, owned by the submission.
bool CreateTarget(Context::State& state, const FragmentRun& run, const PipelineObjects& pipeline,
                  Submission* submission, VkImage* image, VkFramebuffer* framebuffer,
                  std::string* error) {
  VkDevice device = state.device;
  VkImageCreateInfo image_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  image_info.imageType = VK_IMAGE_TYPE_2D;
  image_info.format = VulkanFormat(run.format);
  image_info.extent = {run.width, run.height, 1};
  image_info.mipLevels = 1;
  image_info.arrayLayers = 1;
  image_info.samples = VK_SAMPLE_COUNT_1_BIT;
  image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
  image_info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkResult result = vkCreateImage(device, &image_info, nullptr, image);
  if (result != VK_SUCCESS) {
    *error = std::string("vkCreateImage failed with ") + ResultName(result);
    return false;
  }
  VkImage created = *image;
  submission->cleanup.Add([device, created] { vkDestroyImage(device, created, nullptr); });
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(device, created, &requirements);
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = UINT32_MAX;
  for (uint32_t i = 0; i < state.memory.memoryTypeCount && allocate.memoryTypeIndex == UINT32_MAX;
       ++i)
    if (requirements.memoryTypeBits & (1u << i)) allocate.memoryTypeIndex = i;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  if (vkAllocateMemory(device, &allocate, nullptr, &memory) != VK_SUCCESS) {
    *error = "cannot allocate memory for the render target";
    return false;
  }
  submission->cleanup.Add([device, memory] { vkFreeMemory(device, memory, nullptr); });
  vkBindImageMemory(device, created, memory, 0);
  VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view_info.image = created;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view_info.format = image_info.format;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  if (vkCreateImageView(device, &view_info, nullptr, &view) != VK_SUCCESS) {
    *error = "vkCreateImageView failed";
    return false;
  }
  submission->cleanup.Add([device, view] { vkDestroyImageView(device, view, nullptr); });
  VkFramebufferCreateInfo framebuffer_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  framebuffer_info.renderPass = pipeline.render_pass;
  framebuffer_info.attachmentCount = 1;
  framebuffer_info.pAttachments = &view;
  framebuffer_info.width = run.width;
  framebuffer_info.height = run.height;
  framebuffer_info.layers = 1;
  if (vkCreateFramebuffer(device, &framebuffer_info, nullptr, framebuffer) != VK_SUCCESS) {
    *error = "vkCreateFramebuffer failed";
    return false;
  }
  VkFramebuffer made = *framebuffer;
  submission->cleanup.Add([device, made] { vkDestroyFramebuffer(device, made, nullptr); });
  return true;
}

}  // namespace

bool Context::RunFragment(const FragmentRun& run, FragmentResult* result, std::string* error) {
  State& state = *state_;
  if (RefuseIfLost(state, error)) return false;
  auto submission = std::make_unique<Submission>();
  submission->pipeline = BuildFragmentPipeline(state, run, error);
  if (!submission->pipeline) return false;
  const PipelineObjects& pipeline = *submission->pipeline;
  BoundBuffers bound;
  VkImage image = VK_NULL_HANDLE;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  Image& out = result->image;
  out = Image{run.width, run.height, run.format, {}};
  HostBuffer readback;
  if (!BindBuffers(state, pipeline, run.buffers, run.push_constants.size(), submission.get(),
                   &bound, error) ||
      !CreateTarget(state, run, pipeline, submission.get(), &image, &framebuffer, error) ||
      !CreateHostBuffer(state, uint64_t{run.width} * run.height * out.BytesPerPixel(),
                        VK_BUFFER_USAGE_TRANSFER_DST_BIT, &submission->cleanup, &readback, error) ||
      !BeginSubmission(state, submission.get(), error))
    return false;
  RecordDraw(pipeline, run, bound, *submission, image, framebuffer, readback);
  if (vkEndCommandBuffer(submission->commands) != VK_SUCCESS) {
    *error = "vkEndCommandBuffer failed";
    return false;
  }
  if (!SubmitRepeatedly(state, submission, bound, run.warmup_runs, run.repetitions,
                        run.time_budget_ms, &result->timing, error))
    return false;
  out.pixels.assign(readback.mapped, readback.mapped + readback.size);
  result->buffers = ReadBack(bound, run.buffers);
  result->timing.pipeline_ms = pipeline.creation_ms;
  return true;
}

}  // namespace glint::vk
