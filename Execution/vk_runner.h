// Glint's Vulkan execution harness: runs a compute shader, or a fragment shader over a
// full-screen triangle, given as SPIR-V words, on a Vulkan 1.1+ device, and returns the
// buffers (or the image) it left behind plus timing.
//
// Device choice: DeviceOptions::device, else the environment variable GLINT_VK_DEVICE,
// else Mesa's lavapipe (llvmpipe). A choice is a case-insensitive substring of the
// device name, a device index ("#1"), or "gpu" (the first discrete, then integrated GPU).
// When the Vulkan loader finds no device at all and VK_ICD_FILENAMES / VK_DRIVER_FILES
// are unset, the harness points the loader at lavapipe's ICD file itself and retries.
//
// Descriptor bindings are read from the SPIR-V (shader_interface.h): every binding the
// module declares must be described by the run, or the run is refused, naming it.
//
// Timing: each repetition is its own submission; the time of one repetition is read
// from timestamp queries written just before and just after the dispatch (or draw)
// in the command buffer, converted with the device's timestampPeriod. On a queue without
// timestamps it falls back to host time around vkQueueSubmit + fence wait, and
// Timing::method says which. Pipeline creation (shader module + pipeline, no cache) is
// host time.
//
// Refusals (false + message, never a crash): no Vulkan device; a module that fails
// to parse or lacks the entry point; a capability the device lacks; a binding the run
// lacks or the harness cannot back (images, samplers); pipeline creation failure; a
// submission that exceeds its time budget. On a timeout the context marks itself lost
// and refuses all further work (the device is never waited on without a bound).
#ifndef GLINT_EXECUTION_VK_RUNNER_H
#define GLINT_EXECUTION_VK_RUNNER_H

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "shader_interface.h"

namespace glint::vk {

struct DeviceOptions {
  std::string device;  // empty: $GLINT_VK_DEVICE, else lavapipe
  // Enable robustBufferAccess when the device has it, so that an out-of-bounds buffer
  // access of an unknown shader cannot crash the process.
  bool robust_buffer_access = true;
  // Refuse the device, naming the feature, when robust_buffer_access is set and the
  // device lacks it (by default the context is then created without it).
  bool require_robust_buffer_access = false;
  // Also enable robustBufferAccess2 (VK_EXT_robustness2): out-of-bounds loads return
  // zero and stores are discarded, against the exact descriptor range. Implies (and
  // requires) robustBufferAccess; refused, naming what is missing, when the device lacks
  // the extension or the feature. Only the buffer feature: robustImageAccess2 and
  // nullDescriptor stay off.
  bool robust_buffer_access2 = false;
  // Validate every module with spirv-val for the device's Vulkan version before it
  // reaches the driver (a driver may crash on invalid SPIR-V); a failure refuses the
  // pipeline.
  bool validate_modules = true;
};

// How a buffer is filled before each repetition.
struct BufferContents {
  enum class Source { kZeros, kBytes, kFile, kSeeded };
  // Seeded patterns: kBytes any byte; kSmallUints 32-bit words in [0, 16) (keeps
  // data-driven loops and indices short); kUnitFloats 32-bit floats in [0, 1).
  enum class Pattern { kBytes, kSmallUints, kUnitFloats };

  Source source = Source::kZeros;
  std::vector<uint8_t> bytes;  // kBytes
  std::string path;            // kFile
  uint64_t seed = 0;           // kSeeded
  Pattern pattern = Pattern::kBytes;

  static BufferContents Zeros();
  static BufferContents Bytes(std::vector<uint8_t> bytes);
  static BufferContents File(std::string path);
  static BufferContents Seeded(uint64_t seed, Pattern pattern);
};

struct BufferBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  uint64_t size = 0;  // bytes; 0: the size of kBytes / kFile contents
  BufferContents contents;
};

struct BufferData {
  uint32_t set = 0;
  uint32_t binding = 0;
  std::vector<uint8_t> bytes;
};

struct Shader {
  std::vector<uint32_t> spirv;
  std::string entry_point = "main";
  // Specialization constant values by SpecId; the width comes from the module.
  std::map<uint32_t, uint64_t> spec_constants;
};

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  uint32_t runs = 0;
  // The first submission alone (a warm-up one when there are any): on lavapipe it
  // includes the LLVM compilation that the driver defers from pipeline creation to the
  // first use of the pipeline.
  double first_ms = 0;
  std::string method;      // "timestamp queries" or "host: submit + fence wait"
  double pipeline_ms = 0;  // shader module + pipeline creation, host time
  // Median over the timed runs of this process's processor time (all threads) from the
  // submission to its fence. On a CPU device (lavapipe) that is the work its threads did
  // for the dispatch, which other processes on a loaded machine disturb far less than
  // they disturb elapsed time; on a GPU it is only the host's waiting.
  double cpu_median_ms = 0;
};

struct ComputeRun {
  Shader shader;
  std::vector<BufferBinding> buffers;
  std::vector<uint8_t> push_constants;
  std::array<uint32_t, 3> base_group = {0, 0, 0};  // vkCmdDispatchBase's base
  std::array<uint32_t, 3> group_count = {1, 1, 1};
  uint32_t repetitions = 1;  // buffers are refilled before every repetition
  // Untimed submissions before the timed ones (lavapipe compiles on first use).
  uint32_t warmup_runs = 0;
  double time_budget_ms = 20000;  // per repetition
};

struct ComputeResult {
  std::vector<BufferData> buffers;  // after the last repetition, in the run's order
  Timing timing;
};

enum class ColorFormat { kRgba8Unorm, kRgba32Float, kRgba32Uint };

struct Image {
  uint32_t width = 0;
  uint32_t height = 0;
  ColorFormat format = ColorFormat::kRgba8Unorm;
  std::vector<uint8_t> pixels;  // tightly packed rows, top row first
  uint32_t BytesPerPixel() const { return format == ColorFormat::kRgba8Unorm ? 4 : 16; }
};

struct FragmentRun {
  Shader shader;  // the fragment shader; writes location 0, reads gl_FragCoord
  std::vector<BufferBinding> buffers;
  std::vector<uint8_t> push_constants;  // visible to the fragment stage
  uint32_t width = 64;
  uint32_t height = 64;
  ColorFormat format = ColorFormat::kRgba8Unorm;
  uint32_t repetitions = 1;
  uint32_t warmup_runs = 0;  // untimed submissions before the timed ones
  double time_budget_ms = 20000;
};

struct FragmentResult {
  Image image;
  std::vector<BufferData> buffers;
  Timing timing;
};

struct PipelineObjects;  // Vulkan objects, defined in vk_context.h

// A compute pipeline built once and run many times; must not outlive its Context.
class ComputePipeline {
 public:
  explicit ComputePipeline(std::shared_ptr<PipelineObjects> objects)
      : objects_(std::move(objects)) {}
  double CreationMilliseconds() const;
  const std::shared_ptr<PipelineObjects>& Objects() const { return objects_; }

 private:
  std::shared_ptr<PipelineObjects> objects_;
};

class Context {
 public:
  // Null with a message when there is no usable Vulkan 1.1 device.
  static std::unique_ptr<Context> Create(const DeviceOptions& options, std::string* error);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  std::string DeviceName() const;
  bool IsLavapipe() const;
  // The robustness features enabled on the logical device (see DeviceOptions).
  bool RobustBufferAccess() const;
  bool RobustBufferAccess2() const;
  // True after a timeout or a lost device; every later call is refused.
  bool Lost() const;

  // Builds a pipeline once, for many RunCompute calls (e.g. one sampled group each).
  std::unique_ptr<ComputePipeline> CreateComputePipeline(const Shader& shader, std::string* error);
  // Runs `run` with an already built pipeline; run.shader is ignored.
  bool RunCompute(const ComputePipeline& pipeline, const ComputeRun& run, ComputeResult* result,
                  std::string* error);
  // Builds the pipeline for run.shader, then runs it.
  bool RunCompute(const ComputeRun& run, ComputeResult* result, std::string* error);
  bool RunFragment(const FragmentRun& run, FragmentResult* result, std::string* error);

  struct State;  // Vulkan objects; defined in vk_context.h

 private:
  explicit Context(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// Fills `bytes` with `size` bytes as `contents` says; false with a message when a file
// cannot be read.
bool FillContents(const BufferContents& contents, uint64_t size, std::vector<uint8_t>* bytes,
                  std::string* error);

// The 64-bit FNV-1a hash of `bytes`: runs compare what they left behind (buffers,
// pixels) by it, and glint-run prints it.
uint64_t Fnv1a(const std::vector<uint8_t>& bytes);

// Writes an 8-bit RGBA PNG (float formats are clamped to [0, 1], uint formats to
// [0, 255]); false with a message on failure, leaving no partial file.
bool WritePng(const Image& image, const std::string& path, std::string* error);

}  // namespace glint::vk

#endif  // GLINT_EXECUTION_VK_RUNNER_H
