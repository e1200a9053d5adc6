// Device selection and creation, the capability check, teardown, and Context's
// small accessors. See vk_runner.h for how a device is chosen.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <vector>

#include "vk_context.h"

namespace glint::vk {

const char* ResultName(VkResult result) {
  switch (result) {
    case VK_SUCCESS:
      return "VK_SUCCESS";
    case VK_TIMEOUT:
      return "VK_TIMEOUT";
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED:
      return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST:
      return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_EXTENSION_NOT_PRESENT:
      return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT:
      return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_FORMAT_NOT_SUPPORTED:
      return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_INVALID_SHADER_NV:
      return "VK_ERROR_INVALID_SHADER_NV";
    default:
      return "VkResult error";
  }
}

void Cleanup::RunAll() {
  for (auto it = destroys_.rbegin(); it != destroys_.rend(); ++it) (*it)();
  destroys_.clear();
}

namespace {

// How long teardown waits for an abandoned submission before leaking the device.
constexpr uint64_t kTeardownGraceNs = 60ull * 1000 * 1000 * 1000;

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool IsLavapipeName(const std::string& name) {
  return Lower(name).find("llvmpipe") != std::string::npos;
}

VkResult CreateInstance(VkInstance* instance) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "glint-vk";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  return vkCreateInstance(&info, nullptr, instance);
}

std::vector<VkPhysicalDevice> Devices(VkInstance instance) {
  uint32_t count = 0;
  if (vkEnumeratePhysicalDevices(instance, &count, nullptr) != VK_SUCCESS) return {};
  std::vector<VkPhysicalDevice> devices(count);
  if (vkEnumeratePhysicalDevices(instance, &count, devices.data()) != VK_SUCCESS) return {};
  devices.resize(count);
  return devices;
}

std::string DeviceNameOf(VkPhysicalDevice device) {
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(device, &properties);
  return properties.deviceName;
}

// The device `choice` names (see vk_runner.h), or null.
VkPhysicalDevice Choose(const std::vector<VkPhysicalDevice>& devices, const std::string& choice) {
  auto type_of = [](VkPhysicalDevice device) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(device, &properties);
    return properties.deviceType;
  };
  if (choice.empty()) {
    for (VkPhysicalDevice device : devices)
      if (IsLavapipeName(DeviceNameOf(device))) return device;
    return nullptr;
  }
  if (Lower(choice) == "gpu") {
    for (VkPhysicalDeviceType wanted :
         {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU})
      for (VkPhysicalDevice device : devices)
        if (type_of(device) == wanted) return device;
    return nullptr;
  }
  if (choice[0] == '#') {
    size_t index = std::strtoul(choice.c_str() + 1, nullptr, 10);
    return index < devices.size() ? devices[index] : nullptr;
  }
  for (VkPhysicalDevice device : devices)
    if (Lower(DeviceNameOf(device)).find(Lower(choice)) != std::string::npos) return device;
  return nullptr;
}

// Lavapipe's ICD manifest in the usual places, or "".
std::string FindLavapipeIcd() {
  for (const char* dir :
       {"/usr/share/vulkan/icd.d", "/usr/local/share/vulkan/icd.d", "/etc/vulkan/icd.d"}) {
    std::error_code ignored;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ignored)) {
      std::string name = entry.path().filename().string();
      if (name.rfind("lvp_icd", 0) == 0) return entry.path().string();
    }
  }
  return "";
}

// Points the loader at lavapipe when the user has not chosen ICDs; false when it cannot.
bool PointLoaderAtLavapipe() {
  if (std::getenv("VK_ICD_FILENAMES") || std::getenv("VK_DRIVER_FILES")) return false;
  std::string icd = FindLavapipeIcd();
  if (icd.empty()) return false;
  setenv("VK_ICD_FILENAMES", icd.c_str(), 1);
  setenv("VK_DRIVER_FILES", icd.c_str(), 1);
  return true;
}

std::string ListDevices(const std::vector<VkPhysicalDevice>& devices) {
  std::string list;
  for (size_t i = 0; i < devices.size(); ++i)
    list += (i ? ", " : "") + std::string("#") + std::to_string(i) + " " + DeviceNameOf(devices[i]);
  return list.empty() ? "none" : list;
}

// Instance plus chosen physical device; retries once with lavapipe's ICD when the
// default choice (lavapipe) is not among the devices the loader found.
bool PickDevice(const std::string& choice, Context::State* state, std::string* error) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    VkResult result = CreateInstance(&state->instance);
    std::vector<VkPhysicalDevice> devices;
    if (result == VK_SUCCESS) devices = Devices(state->instance);
    state->physical = result == VK_SUCCESS ? Choose(devices, choice) : VK_NULL_HANDLE;
    if (state->physical) return true;
    if (result != VK_SUCCESS)
      *error = std::string("no Vulkan device: vkCreateInstance failed with ") + ResultName(result);
    else if (devices.empty())
      *error =
          "no Vulkan device: the Vulkan loader found no physical device (is lavapipe, "
          "mesa-vulkan-drivers, installed?)";
    else
      *error = "no Vulkan device matches '" +
               (choice.empty() ? std::string("llvmpipe (lavapipe)") : choice) +
               "'; devices: " + ListDevices(devices);
    if (result == VK_SUCCESS) vkDestroyInstance(state->instance, nullptr);
    state->instance = VK_NULL_HANDLE;
    if (attempt == 0 && choice.empty() && PointLoaderAtLavapipe()) continue;
    return false;
  }
  return false;
}

uint32_t PickQueueFamily(VkPhysicalDevice physical, uint32_t* timestamp_bits) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  for (uint32_t i = 0; i < count; ++i) {
    VkQueueFlags wanted = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    if ((families[i].queueFlags & wanted) == wanted) {
      *timestamp_bits = families[i].timestampValidBits;
      return i;
    }
  }
  return UINT32_MAX;
}

// Reads the device's features and properties into `state`, with pNext chains that
// CreateLogicalDevice can pass on unchanged (it enables everything the device has).
void QueryDevice(Context::State* state, VkPhysicalDeviceFeatures2* features2) {
  vkGetPhysicalDeviceProperties(state->physical, &state->properties);
  vkGetPhysicalDeviceMemoryProperties(state->physical, &state->memory);
  uint32_t api = state->properties.apiVersion;
  state->features11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  state->features12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  state->features13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  *features2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  if (api >= VK_API_VERSION_1_2) {
    features2->pNext = &state->features11;
    state->features11.pNext = &state->features12;
    if (api >= VK_API_VERSION_1_3) state->features12.pNext = &state->features13;
  }
  vkGetPhysicalDeviceFeatures2(state->physical, features2);
  state->features = features2->features;
  state->subgroup = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties2.pNext = &state->subgroup;
  vkGetPhysicalDeviceProperties2(state->physical, &properties2);
}

bool HasDeviceExtension(VkPhysicalDevice physical, const char* name) {
  uint32_t count = 0;
  if (vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr) != VK_SUCCESS)
    return false;
  std::vector<VkExtensionProperties> extensions(count);
  if (vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data()) !=
      VK_SUCCESS)
    return false;
  for (const VkExtensionProperties& extension : extensions)
    if (std::strcmp(extension.extensionName, name) == 0) return true;
  return false;
}

// Robustness of the logical device: robustBufferAccess where the device has it (or
// refused when required), robustBufferAccess2 chained in front of `features2`'s chain
// with its extension when asked for. `features2` holds what the device supports.
bool ChooseRobustness(const DeviceOptions& options, Context::State* state,
                      VkPhysicalDeviceFeatures2* features2,
                      VkPhysicalDeviceRobustness2FeaturesEXT* robustness2,
                      std::vector<const char*>* extensions, std::string* error) {
  const std::string device = "'" + std::string(state->properties.deviceName) + "'";
  if (!options.robust_buffer_access && !options.robust_buffer_access2) {
    features2->features.robustBufferAccess = VK_FALSE;
    return true;
  }
  if ((options.require_robust_buffer_access || options.robust_buffer_access2) &&
      !features2->features.robustBufferAccess) {
    *error = "robust buffer access: device " + device + " lacks the robustBufferAccess feature";
    return false;
  }
  if (!options.robust_buffer_access2) return true;
  VkPhysicalDeviceRobustness2FeaturesEXT supported{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
  if (HasDeviceExtension(state->physical, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME)) {
    VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    query.pNext = &supported;
    vkGetPhysicalDeviceFeatures2(state->physical, &query);
  }
  if (!supported.robustBufferAccess2) {
    *error = "robust buffer access 2: device " + device +
             " lacks " VK_EXT_ROBUSTNESS_2_EXTENSION_NAME "'s robustBufferAccess2 feature";
    return false;
  }
  *robustness2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
  robustness2->robustBufferAccess2 = VK_TRUE;
  robustness2->pNext = features2->pNext;
  features2->pNext = robustness2;
  extensions->push_back(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
  return true;
}

bool CreateLogicalDevice(const DeviceOptions& options, Context::State* state, std::string* error) {
  VkPhysicalDeviceFeatures2 features2;
  QueryDevice(state, &features2);
  if (state->properties.apiVersion < VK_API_VERSION_1_1) {
    *error = "no Vulkan device: '" + std::string(state->properties.deviceName) +
             "' supports only Vulkan 1.0; the harness needs 1.1 (vkCmdDispatchBase)";
    return false;
  }
  state->queue_family = PickQueueFamily(state->physical, &state->timestamp_valid_bits);
  if (state->queue_family == UINT32_MAX) {
    *error = "no Vulkan device: '" + std::string(state->properties.deviceName) +
             "' has no graphics+compute queue";
    return false;
  }
  VkPhysicalDeviceRobustness2FeaturesEXT robustness2{};
  std::vector<const char*> extensions;
  if (!ChooseRobustness(options, state, &features2, &robustness2, &extensions, error)) return false;
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = state->queue_family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &features2;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkResult result = vkCreateDevice(state->physical, &info, nullptr, &state->device);
  if (result != VK_SUCCESS) {
    *error = std::string("no Vulkan device: vkCreateDevice failed with ") + ResultName(result);
    return false;
  }
  state->features.robustBufferAccess = features2.features.robustBufferAccess;
  state->robust_buffer_access2 = !extensions.empty();
  vkGetDeviceQueue(state->device, state->queue_family, 0, &state->queue);
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = state->queue_family;
  result = vkCreateCommandPool(state->device, &pool_info, nullptr, &state->command_pool);
  if (result != VK_SUCCESS) {
    *error = std::string("vkCreateCommandPool failed with ") + ResultName(result);
    return false;
  }
  return true;
}

}  // namespace

bool CreateDevice(const DeviceOptions& options, Context::State* state, std::string* error) {
  std::string choice = options.device;
  if (choice.empty() && std::getenv("GLINT_VK_DEVICE")) choice = std::getenv("GLINT_VK_DEVICE");
  state->validate_modules = options.validate_modules;
  return PickDevice(choice, state, error) && CreateLogicalDevice(options, state, error);
}

Context::State::~State() {
  bool device_idle = true;
  for (auto& submission : abandoned) {
    VkResult waited = vkWaitForFences(device, 1, &submission->fence, VK_TRUE, kTeardownGraceNs);
    if (waited == VK_SUCCESS) continue;
    device_idle = false;  // still running: leak it all rather than free memory in use
    submission->cleanup.Forget();
    if (submission->pipeline) submission->pipeline->cleanup.Forget();
  }
  abandoned.clear();
  if (!device_idle) return;
  if (device != VK_NULL_HANDLE) {
    vkDeviceWaitIdle(device);
    if (command_pool) vkDestroyCommandPool(device, command_pool, nullptr);
    vkDestroyDevice(device, nullptr);
  }
  if (instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
}

bool RefuseIfLost(const Context::State& state, std::string* error) {
  if (!state.lost) return false;
  *error =
      "the Vulkan context is lost (an earlier submission ran past its time budget or the "
      "device was lost); it refuses further work";
  return true;
}

Context::Context(std::unique_ptr<State> state) : state_(std::move(state)) {}
Context::~Context() = default;

std::unique_ptr<Context> Context::Create(const DeviceOptions& options, std::string* error) {
  auto state = std::make_unique<State>();
  if (!CreateDevice(options, state.get(), error)) return nullptr;
  return std::unique_ptr<Context>(new Context(std::move(state)));
}

std::string Context::DeviceName() const { return state_->properties.deviceName; }
bool Context::IsLavapipe() const { return IsLavapipeName(DeviceName()); }
bool Context::RobustBufferAccess() const { return state_->features.robustBufferAccess == VK_TRUE; }
bool Context::RobustBufferAccess2() const { return state_->robust_buffer_access2; }
bool Context::Lost() const { return state_->lost; }

}  // namespace glint::vk
