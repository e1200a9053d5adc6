// What robust access costs at run time: compute kernels, each compiled several ways and
// run side by side in one process:
//   glslang       glslang 12's output, no clamps, on a device without robustBufferAccess
//                 (the baseline)
//   glslang-again the same module again, its own pipeline: the noise between identical
//                 modules (its median should be 0 within its spread)
//   spirv-opt     glslang's output through `/usr/bin/spirv-opt --graphics-robust-access`
//   glint-off     Glint --robust-access --range-analysis=off (every dynamic index clamped)
//   glint-ref     Glint --robust-access --range-analysis=reference
//   glint-full    Glint --robust-access (--range-analysis=full, the default)
//   glslang+rba   glslang's unclamped output on a second device (context) with
//                 robustBufferAccess enabled: what many engines pick instead of clamps
//   glslang+rba2  the same on a third device with robustBufferAccess2 (VK_EXT_robustness2),
//                 where the device offers it (else the column says n/a)
// Kernels: matrix multiply with a workgroup tile, reduction, histogram, stencil, gather
// through a lookup table, and four in the guarded styles real shaders use: an early
// return on the global id, a guard against a runtime length, a while loop, a reduction
// whose loads are `?:` against the length. The last column says whether full mode proved
// every index (no clamp left), where the goal is full's median within +1%.
//
// Variants run round-robin (one dispatch each per round, the first variant rotating,
// after warm-up rounds that absorb lavapipe's deferred compilation), so that drift on a
// shared machine hits all of them alike. Each round gives every variant a ratio to
// glslang's time in that round (timestamp queries); a cell is the median of those ratios
// as a percentage over glslang, with the half-width of its ~95% distribution-free
// confidence interval (order statistics n/2 -+ 0.98 sqrt(n)): an effect smaller than
// that is noise. Every variant must produce the same output bytes (checked).
//
//   robust_access_bench [--rounds N] [--warmup N] [--only KERNEL] [--device NAME]
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "Execution/vk_runner.h"
#include "SPIRV/validate.h"
#include "glint/glint.h"
#include "glslang/front_end/compile_driver.h"

namespace {

using namespace glint::vk;

struct Kernel {
  const char* name;
  const char* glsl;
  std::array<uint32_t, 3> groups;
  std::vector<BufferBinding> buffers;  // the last one is compared across variants
};

const char kMatmul[] = R"(#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
shared float tileA[16][16];
shared float tileB[16][16];
const uint N = 128u;
void main() {
  uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
  uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
  float sum = 0.0;
  for (uint t = 0u; t < N / 16u; ++t) {
    tileA[ly][lx] = a[row * N + t * 16u + lx];
    tileB[ly][lx] = b[(t * 16u + ly) * N + col];
    barrier();
    for (int k = 0; k < 16; ++k) sum += tileA[ly][k] * tileB[k][lx];
    barrier();
  }
  c[row * N + col] = sum;
}
)";

const char kReduction[] = R"(#version 450
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer In { float values[]; };
layout(std430, binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[256];
void main() {
  uint lid = gl_LocalInvocationID.x;
  float s = 0.0;
  for (int k = 0; k < 64; ++k) s += values[gl_WorkGroupID.x * 16384u + uint(k) * 256u + lid];
  partial[lid] = s;
  barrier();
  for (uint stride = 128u; stride > 0u; stride >>= 1u) {
    if (lid < stride) partial[lid] += partial[lid + stride];
    barrier();
  }
  if (lid == 0u) sums[gl_WorkGroupID.x] = partial[0];
}
)";

const char kHistogram[] = R"(#version 450
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer In { uint values[]; };
layout(std430, binding = 1) buffer Hist { uint hist[256]; };
shared uint bins[256];
void main() {
  uint lid = gl_LocalInvocationID.x;
  bins[lid] = 0u;
  barrier();
  for (int k = 0; k < 64; ++k) {
    uint v = values[gl_WorkGroupID.x * 16384u + uint(k) * 256u + lid];
    atomicAdd(bins[v % 256u], 1u);
  }
  barrier();
  atomicAdd(hist[lid], bins[lid]);
}
)";

const char kStencil[] = R"(#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) writeonly buffer Out { float dst[]; };
const int W = 1024, H = 1024;
float at(int x, int y) { return src[clamp(y, 0, H - 1) * W + clamp(x, 0, W - 1)]; }
void main() {
  int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
  dst[y * W + x] = 0.5 * at(x, y) + 0.125 * (at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1));
}
)";

const char kGather[] = R"(#version 450
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Keys { uint keys[]; };
layout(std430, binding = 1) readonly buffer Lut { vec4 lut[256]; };
layout(std430, binding = 2) writeonly buffer Out { vec4 result[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 acc = vec4(0.0);
  for (int k = 0; k < 16; ++k) acc += lut[keys[i * 16u + uint(k)] % 256u] * float(k + 1);
  result[i] = acc;
}
)";

// Guarded styles: every index is provable in full mode.
const char kEarlyReturn[] = R"(#version 450
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer In { vec4 src[262144]; };
layout(std430, binding = 1) readonly buffer Weights { float weights[64]; };
layout(std430, binding = 2) writeonly buffer Out { vec4 dst[262144]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= 262144u) return;
  vec4 acc = src[i];
  for (int k = 0; k < 16; ++k) acc = acc * weights[(i + uint(k)) & 63u] + weights[k];
  dst[i] = acc;
}
)";

const char kLengthGuard[] = R"(#version 450
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer In { float values[]; };
layout(std430, binding = 1) buffer Out { float result[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= uint(values.length()) || i >= uint(result.length())) return;
  float v = values[i];
  for (int k = 0; k < 16; ++k) v = v * 0.999 + 0.001;
  result[i] = v;
}
)";

const char kWhileLoop[] = R"(#version 450
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Starts { uint starts[65536]; };
layout(std430, binding = 1) readonly buffer Table { float table[256]; };
layout(std430, binding = 2) writeonly buffer Out { float result[65536]; };
void main() {
  uint i = gl_GlobalInvocationID.x & 65535u;
  uint k = starts[i] & 15u;
  float acc = 0.0;
  while (k < 256u) {
    acc += table[k];
    k += 3u;
  }
  result[i] = acc;
}
)";

const char kTernaryReduction[] = R"(#version 450
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer In { float values[]; };
layout(std430, binding = 1) writeonly buffer Out { float sums[1024]; };
shared float partial[256];
void main() {
  uint lid = gl_LocalInvocationID.x;
  uint group = gl_WorkGroupID.x;
  float s = 0.0;
  for (uint k = 0u; k < 64u; ++k) {
    uint idx = (group * 64u + k) * 256u + lid;
    s += idx < uint(values.length()) ? values[idx] : 0.0;
  }
  partial[lid] = s;
  barrier();
  for (int level = 7; level >= 0; --level) {
    uint stride = 1u << uint(level);
    if (lid < stride) partial[lid] += partial[lid + stride];
    barrier();
  }
  if (lid == 0u && group < 1024u) sums[group] = partial[0];
}
)";

BufferBinding Buffer(uint32_t binding, uint64_t size, BufferContents contents) {
  BufferBinding buffer;
  buffer.binding = binding;
  buffer.size = size;
  buffer.contents = std::move(contents);
  return buffer;
}

std::vector<Kernel> Kernels() {
  using P = BufferContents::Pattern;
  const uint64_t kFloats = 256 * 16384 * 4;
  return {
      {"matmul-tile",
       kMatmul,
       {8, 8, 1},
       {Buffer(0, 128 * 128 * 4, BufferContents::Seeded(1, P::kUnitFloats)),
        Buffer(1, 128 * 128 * 4, BufferContents::Seeded(2, P::kUnitFloats)),
        Buffer(2, 128 * 128 * 4, BufferContents::Zeros())}},
      {"reduction",
       kReduction,
       {256, 1, 1},
       {Buffer(0, kFloats, BufferContents::Seeded(3, P::kUnitFloats)),
        Buffer(1, 256 * 4, BufferContents::Zeros())}},
      {"histogram",
       kHistogram,
       {256, 1, 1},
       {Buffer(0, kFloats, BufferContents::Seeded(4, P::kBytes)),
        Buffer(1, 256 * 4, BufferContents::Zeros())}},
      {"stencil",
       kStencil,
       {64, 64, 1},
       {Buffer(0, 1024 * 1024 * 4, BufferContents::Seeded(5, P::kUnitFloats)),
        Buffer(1, 1024 * 1024 * 4, BufferContents::Zeros())}},
      {"gather-lut",
       kGather,
       {1024, 1, 1},
       {Buffer(0, 1024 * 256 * 16 * 4, BufferContents::Seeded(6, P::kBytes)),
        Buffer(1, 256 * 16, BufferContents::Seeded(7, P::kUnitFloats)),
        Buffer(2, 1024 * 256 * 16, BufferContents::Zeros())}},
      // 1040 groups: the last 16 return early.
      {"early-return",
       kEarlyReturn,
       {1040, 1, 1},
       {Buffer(0, 262144 * 16, BufferContents::Seeded(8, P::kUnitFloats)),
        Buffer(1, 64 * 4, BufferContents::Seeded(9, P::kUnitFloats)),
        Buffer(2, 262144 * 16, BufferContents::Zeros())}},
      // 4100 groups over 1M values: the guard cuts the last 4 groups.
      {"length-guard",
       kLengthGuard,
       {4100, 1, 1},
       {Buffer(0, 1048576 * 4, BufferContents::Seeded(10, P::kUnitFloats)),
        Buffer(1, 1048576 * 4, BufferContents::Zeros())}},
      {"while-loop",
       kWhileLoop,
       {256, 1, 1},
       {Buffer(0, 65536 * 4, BufferContents::Seeded(11, P::kBytes)),
        Buffer(1, 256 * 4, BufferContents::Seeded(12, P::kUnitFloats)),
        Buffer(2, 65536 * 4, BufferContents::Zeros())}},
      // 256 groups of 64 x 256 values, 4M values: every ?: is taken.
      {"ternary-reduce",
       kTernaryReduction,
       {256, 1, 1},
       {Buffer(0, kFloats, BufferContents::Seeded(13, P::kUnitFloats)),
        Buffer(1, 1024 * 4, BufferContents::Zeros())}},
  };
}

// The devices variants run on: glslang's and the clamped modules on `plain` (no
// robustBufferAccess), the unclamped module again on `rba` and `rba2` (null: not offered).
struct Devices {
  std::unique_ptr<Context> plain, rba, rba2;
  std::string rba2_refusal;
};

struct Variant {
  std::string name;
  std::vector<uint32_t> words;
  uint32_t clamps = 0;  // Glint's count; 0 for the others
  Context* context = nullptr;
};

// Runs spirv-opt on `input` in a private temporary directory (never a fixed path).
bool SpirvOptRobust(const std::vector<uint32_t>& input, std::vector<uint32_t>* output,
                    std::string* error) {
  char pattern[] = "/tmp/glint-robust-bench-XXXXXX";
  if (!mkdtemp(pattern)) {
    *error = "mkdtemp failed";
    return false;
  }
  std::string dir = pattern, in = dir + "/in.spv", out = dir + "/out.spv";
  std::ofstream(in, std::ios::binary)
      .write(reinterpret_cast<const char*>(input.data()), input.size() * 4);
  std::string command = "/usr/bin/spirv-opt --graphics-robust-access '" + in + "' -o '" + out + "'";
  bool ok = std::system(command.c_str()) == 0;
  if (ok) {
    std::ifstream file(out, std::ios::binary | std::ios::ate);
    output->resize(static_cast<size_t>(file.tellg()) / 4);
    file.seekg(0);
    file.read(reinterpret_cast<char*>(output->data()), output->size() * 4);
  } else {
    *error = "spirv-opt --graphics-robust-access failed";
  }
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return ok;
}

bool GlintRobust(std::vector<uint32_t> words, glint::RangeAnalysisMode mode, Variant* variant,
                 std::string* error) {
  glint::Options options;
  options.robust_access = true;
  options.range_analysis = mode;
  glint::Report report;
  if (!glint::Process(words, options, &report)) {
    *error = report.diagnostics.empty() ? "glint failed" : report.diagnostics[0].message;
    return false;
  }
  for (const glint::PassStatistic& pass : report.passes)
    if (pass.pass == "robust-access") variant->clamps = pass.rewrites;
  variant->words = std::move(words);
  return true;
}

bool BuildVariants(const Kernel& kernel, const Devices& devices, std::vector<Variant>* variants,
                   std::string* error) {
  std::vector<uint32_t> glslang;
  if (!glint::frontend::CompileSourceToSpirv({kernel.glsl, "comp", "vulkan1.0"}, &glslang, error))
    return false;
  variants->clear();
  variants->push_back({"glslang", glslang, 0, devices.plain.get()});
  variants->push_back({"glslang-again", glslang, 0, devices.plain.get()});
  Variant spirv_opt{"spirv-opt", {}, 0, devices.plain.get()};
  if (!SpirvOptRobust(glslang, &spirv_opt.words, error)) return false;
  variants->push_back(spirv_opt);
  const char* names[] = {"glint-off", "glint-ref", "glint-full"};
  const glint::RangeAnalysisMode modes[] = {glint::RangeAnalysisMode::kOff,
                                            glint::RangeAnalysisMode::kReference,
                                            glint::RangeAnalysisMode::kFull};
  for (int i = 0; i < 3; ++i) {
    Variant variant{names[i], {}, 0, devices.plain.get()};
    if (!GlintRobust(glslang, modes[i], &variant, error)) return false;
    variants->push_back(std::move(variant));
  }
  variants->push_back({"glslang+rba", glslang, 0, devices.rba.get()});
  if (devices.rba2) variants->push_back({"glslang+rba2", glslang, 0, devices.rba2.get()});
  for (const Variant& variant : *variants) {
    std::string problem = glint::spirv::Validate(variant.words, glint::spirv::TargetEnv::kVulkan10);
    if (!problem.empty()) {
      *error = variant.name + " fails spirv-val: " + problem;
      return false;
    }
  }
  return true;
}

// The median of `values` and the half-width of its ~95% distribution-free confidence
// interval: the order statistics at n/2 -+ 0.98 sqrt(n) (the binomial's normal
// approximation), clipped to the sample.
struct MedianSpread {
  double median = 0;
  double half_width = 0;
};

MedianSpread MedianWithSpread(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const double n = double(values.size());
  auto at = [&](double rank) {
    long index = std::lround(rank);
    return values[size_t(std::clamp(index, 0L, long(values.size()) - 1))];
  };
  double low = at(n / 2 - 0.98 * std::sqrt(n) - 0.5), high = at(n / 2 + 0.98 * std::sqrt(n) - 0.5);
  return {values[values.size() / 2], (high - low) / 2};
}

struct BenchSettings {
  uint32_t rounds = 61;
  uint32_t warmup = 2;
};

// One kernel's results: per metric (0: elapsed, timestamp queries; 1: processor time),
// glslang's median ms and every other variant's median ratio with its spread.
struct Row {
  std::string kernel;
  double base_ms[2] = {0, 0};
  std::vector<MedianSpread> cells[2];
  uint32_t clamps[3] = {0, 0, 0};  // off, ref, full
  bool same_output = true;
};

// Times every variant of `kernel` round-robin.
bool BenchKernel(const Kernel& kernel, const Devices& devices, const BenchSettings& settings,
                 Row* row, std::string* error) {
  std::vector<Variant> variants;
  if (!BuildVariants(kernel, devices, &variants, error)) return false;
  std::vector<std::unique_ptr<ComputePipeline>> pipelines;
  for (const Variant& variant : variants) {
    Shader shader;
    shader.spirv = variant.words;
    pipelines.push_back(variant.context->CreateComputePipeline(shader, error));
    if (!pipelines.back()) return false;
  }
  ComputeRun run;
  run.buffers = kernel.buffers;
  run.group_count = kernel.groups;
  const size_t count = variants.size();
  std::vector<std::vector<double>> ratios[2], times[2];
  for (int metric = 0; metric < 2; ++metric)
    ratios[metric].resize(count), times[metric].resize(count);
  std::vector<uint64_t> checksums(count);
  for (uint32_t round = 0; round < settings.warmup + settings.rounds; ++round) {
    std::vector<double> now[2] = {std::vector<double>(count), std::vector<double>(count)};
    for (size_t step = 0; step < count; ++step) {
      size_t v = (step + round) % count;  // each variant leads some rounds
      ComputeResult result;
      if (!variants[v].context->RunCompute(*pipelines[v], run, &result, error)) return false;
      now[0][v] = result.timing.median_ms;
      now[1][v] = result.timing.cpu_median_ms;
      checksums[v] = Fnv1a(result.buffers.back().bytes);
    }
    if (round < settings.warmup) continue;
    for (int metric = 0; metric < 2; ++metric)
      for (size_t v = 0; v < count; ++v) {
        times[metric][v].push_back(now[metric][v]);
        ratios[metric][v].push_back(now[metric][v] / std::max(now[metric][0], 1e-6));
      }
  }
  row->kernel = kernel.name;
  for (int metric = 0; metric < 2; ++metric) {
    row->base_ms[metric] = MedianWithSpread(times[metric][0]).median;
    for (size_t v = 1; v < count; ++v)
      row->cells[metric].push_back(MedianWithSpread(ratios[metric][v]));
  }
  for (int i = 0; i < 3; ++i) row->clamps[i] = variants[3 + i].clamps;
  row->same_output = std::all_of(checksums.begin(), checksums.end(),
                                 [&](uint64_t c) { return c == checksums[0]; });
  if (!row->same_output) *error = std::string(kernel.name) + ": the variants' outputs differ";
  return row->same_output;
}

const char* const kColumns[] = {"glslang-again", "spirv-opt",   "glint-off",   "glint-ref",
                                "glint-full",    "glslang+rba", "glslang+rba2"};

void PrintTable(const std::vector<Row>& rows, int metric) {
  std::printf("\n%s\n%-14s %8s",
              metric == 0 ? "elapsed time (timestamp queries)"
                          : "processor time (all threads, submit to fence)",
              "kernel", "glslang");
  for (const char* name : kColumns) std::printf("  %14s", name);
  std::printf("   clamps off/ref/full  all proven\n");
  for (const Row& row : rows) {
    std::printf("%-14s %8.3f", row.kernel.c_str(), row.base_ms[metric]);
    for (size_t c = 0; c < std::size(kColumns); ++c) {
      if (c >= row.cells[metric].size()) {
        std::printf("  %14s", "n/a");
        continue;
      }
      const MedianSpread& cell = row.cells[metric][c];
      std::printf("  %+6.1f%% ±%-5.1f", (cell.median - 1) * 100, cell.half_width * 100);
    }
    std::printf("   %4u %4u %4u        %s%s\n", row.clamps[0], row.clamps[1], row.clamps[2],
                row.clamps[2] == 0 ? "yes" : "no", row.same_output ? "" : "  OUTPUTS DIFFER");
  }
}

bool CreateDevices(const std::string& name, Devices* devices, std::string* error) {
  DeviceOptions plain;
  plain.device = name;
  plain.robust_buffer_access = false;  // the shaders' own clamps only
  devices->plain = Context::Create(plain, error);
  if (!devices->plain) return false;
  DeviceOptions rba = plain;
  rba.robust_buffer_access = rba.require_robust_buffer_access = true;
  devices->rba = Context::Create(rba, error);
  if (!devices->rba) return false;
  DeviceOptions rba2 = rba;
  rba2.robust_buffer_access2 = true;
  devices->rba2 = Context::Create(rba2, &devices->rba2_refusal);  // optional
  return true;
}

bool ParseArguments(int argc, char** argv, BenchSettings* settings, std::string* only,
                    std::string* device) {
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--rounds")
      settings->rounds = static_cast<uint32_t>(std::max(3, std::atoi(argv[i + 1])));
    else if (flag == "--warmup")
      settings->warmup = static_cast<uint32_t>(std::max(1, std::atoi(argv[i + 1])));
    else if (flag == "--only")
      *only = argv[i + 1];
    else if (flag == "--device")
      *device = argv[i + 1];
    else
      return false;
  }
  return argc % 2 == 1;
}

}  // namespace

int main(int argc, char** argv) {
  BenchSettings settings;
  std::string only, device_name;
  if (!ParseArguments(argc, argv, &settings, &only, &device_name)) {
    std::fprintf(
        stderr,
        "usage: robust_access_bench [--rounds N] [--warmup N] [--only KERNEL] [--device NAME]\n");
    return 2;
  }
  setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string error;
  Devices devices;
  if (!CreateDevices(device_name, &devices, &error)) {
    std::fprintf(stderr, "robust_access_bench: ERROR: %s\n", error.c_str());
    return 1;
  }
  const char* threads = std::getenv("LP_NUM_THREADS");
  std::printf(
      "device: %s (LP_NUM_THREADS=%s); %u rounds after %u warm-up; glslang: median ms; others: "
      "median\n"
      "of the per-round ratios to glslang, as %% over glslang, +- the half-width of its ~95%% "
      "confidence interval\n",
      devices.plain->DeviceName().c_str(), threads ? threads : "unset", settings.rounds,
      settings.warmup);
  if (!devices.rba2) std::printf("glslang+rba2: n/a (%s)\n", devices.rba2_refusal.c_str());
  bool ok = true;
  std::vector<Row> rows;
  for (const Kernel& kernel : Kernels()) {
    if (!only.empty() && only != kernel.name) continue;
    Row row;
    bool done = BenchKernel(kernel, devices, settings, &row, &error);
    if (!row.kernel.empty()) {
      rows.push_back(row);
      std::printf("done: %s (full %+.1f%%)\n", kernel.name, (row.cells[0][4].median - 1) * 100);
    }
    if (!done) {
      std::fprintf(stderr, "robust_access_bench: ERROR: %s\n", error.c_str());
      ok = false;
      if (devices.plain->Lost() || devices.rba->Lost() || (devices.rba2 && devices.rba2->Lost()))
        return 1;
    }
  }
  PrintTable(rows, 0);
  PrintTable(rows, 1);
  return ok ? 0 : 1;
}
