// What robust access costs at run time: five compute kernels (matrix multiply with a
// workgroup tile, reduction, histogram, stencil, gather through a lookup table), each
// compiled five ways and run side by side in one process on one device:
//   glslang     glslang 12's output, no clamps (the baseline)
//   spirv-opt   glslang's output through `/usr/bin/spirv-opt --graphics-robust-access`
//   glint-off   Glint --robust-access --range-analysis=off (every dynamic index clamped)
//   glint-ref   Glint --robust-access --range-analysis=reference
//   glint-full  Glint --robust-access (--range-analysis=full, the default)
// Variants run round-robin (one dispatch each per round, the first variant rotating,
// after a warm-up that absorbs lavapipe's deferred compilation), so that drift on a
// shared machine hits all of them alike. Each cell is the median over the rounds of the
// dispatch time (timestamp queries), as a ratio to glslang's median; the ratios of the
// fastest rounds follow (single outliers move them more on a loaded machine). Every
// variant must produce the same output bytes (checked). Target: full costs at most 3%
// over glslang on every kernel and is never slower than spirv-opt.
//
//   robust_access_bench [--rounds N] [--device NAME]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "glslang/compile_driver.h"
#include "Execution/vk_runner.h"
#include "glint/glint.h"
#include "SPIRV/validate.h"

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
const uint N = 256u;
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
      {"matmul-tile", kMatmul, {16, 16, 1},
       {Buffer(0, 256 * 256 * 4, BufferContents::Seeded(1, P::kUnitFloats)),
        Buffer(1, 256 * 256 * 4, BufferContents::Seeded(2, P::kUnitFloats)),
        Buffer(2, 256 * 256 * 4, BufferContents::Zeros())}},
      {"reduction", kReduction, {256, 1, 1},
       {Buffer(0, kFloats, BufferContents::Seeded(3, P::kUnitFloats)),
        Buffer(1, 256 * 4, BufferContents::Zeros())}},
      {"histogram", kHistogram, {256, 1, 1},
       {Buffer(0, kFloats, BufferContents::Seeded(4, P::kBytes)), Buffer(1, 256 * 4, BufferContents::Zeros())}},
      {"stencil", kStencil, {64, 64, 1},
       {Buffer(0, 1024 * 1024 * 4, BufferContents::Seeded(5, P::kUnitFloats)),
        Buffer(1, 1024 * 1024 * 4, BufferContents::Zeros())}},
      {"gather-lut", kGather, {1024, 1, 1},
       {Buffer(0, 1024 * 256 * 16 * 4, BufferContents::Seeded(6, P::kBytes)),
        Buffer(1, 256 * 16, BufferContents::Seeded(7, P::kUnitFloats)),
        Buffer(2, 1024 * 256 * 16, BufferContents::Zeros())}},
  };
}

struct Variant {
  std::string name;
  std::vector<uint32_t> words;
  uint32_t clamps = 0;  // Glint's count; 0 for glslang and spirv-opt
};

bool SpirvOptRobust(const std::vector<uint32_t>& input, std::vector<uint32_t>* output, std::string* error) {
  std::string in = "/tmp/robust_access_bench_in.spv", out = "/tmp/robust_access_bench_out.spv";
  std::ofstream(in, std::ios::binary).write(reinterpret_cast<const char*>(input.data()), input.size() * 4);
  std::string command = "/usr/bin/spirv-opt --graphics-robust-access " + in + " -o " + out;
  if (std::system(command.c_str()) != 0) {
    *error = "spirv-opt --graphics-robust-access failed";
    return false;
  }
  std::ifstream file(out, std::ios::binary | std::ios::ate);
  output->resize(static_cast<size_t>(file.tellg()) / 4);
  file.seekg(0);
  file.read(reinterpret_cast<char*>(output->data()), output->size() * 4);
  return true;
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

bool BuildVariants(const Kernel& kernel, std::vector<Variant>* variants, std::string* error) {
  std::vector<uint32_t> glslang;
  if (!glint::frontend::CompileSourceToSpirv({kernel.glsl, "comp", "vulkan1.0"}, &glslang, error)) return false;
  variants->assign(5, Variant{});
  (*variants)[0] = {"glslang", glslang, 0};
  (*variants)[1].name = "spirv-opt";
  if (!SpirvOptRobust(glslang, &(*variants)[1].words, error)) return false;
  const char* names[] = {"glint-off", "glint-ref", "glint-full"};
  const glint::RangeAnalysisMode modes[] = {glint::RangeAnalysisMode::kOff, glint::RangeAnalysisMode::kReference,
                                            glint::RangeAnalysisMode::kFull};
  for (int i = 0; i < 3; ++i) {
    (*variants)[2 + i].name = names[i];
    if (!GlintRobust(glslang, modes[i], &(*variants)[2 + i], error)) return false;
  }
  for (const Variant& variant : *variants) {
    std::string problem = glint::spirv::Validate(variant.words, glint::spirv::TargetEnv::kVulkan10);
    if (!problem.empty()) {
      *error = variant.name + " fails spirv-val: " + problem;
      return false;
    }
  }
  return true;
}

uint64_t Fnv1a(const std::vector<uint8_t>& bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint8_t byte : bytes) hash = (hash ^ byte) * 0x100000001b3ull;
  return hash;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double Fastest(const std::vector<double>& values) { return *std::min_element(values.begin(), values.end()); }

// Runs every variant of `kernel` round-robin; prints one row.
bool BenchKernel(Context& context, const Kernel& kernel, uint32_t rounds, std::string* error) {
  std::vector<Variant> variants;
  if (!BuildVariants(kernel, &variants, error)) return false;
  std::vector<std::unique_ptr<ComputePipeline>> pipelines;
  for (const Variant& variant : variants) {
    Shader shader;
    shader.spirv = variant.words;
    pipelines.push_back(context.CreateComputePipeline(shader, error));
    if (!pipelines.back()) return false;
  }
  ComputeRun run;
  run.buffers = kernel.buffers;
  run.group_count = kernel.groups;
  std::vector<std::vector<double>> times(variants.size());
  std::vector<uint64_t> checksums(variants.size());
  for (uint32_t round = 0; round <= rounds; ++round) {  // round 0 is the warm-up
    for (size_t step = 0; step < variants.size(); ++step) {
      size_t v = (step + round) % variants.size();  // each variant leads some rounds
      ComputeResult result;
      if (!context.RunCompute(*pipelines[v], run, &result, error)) return false;
      if (round > 0) times[v].push_back(result.timing.median_ms);
      checksums[v] = Fnv1a(result.buffers.back().bytes);
    }
  }
  double base = Median(times[0]);
  std::printf("%-12s %9.3f", kernel.name, base);
  for (size_t v = 1; v < variants.size(); ++v) std::printf(" %9.3f", Median(times[v]) / base);
  std::printf("   %4u %4u %4u", variants[2].clamps, variants[3].clamps, variants[4].clamps);
  std::printf("   fastest:");
  for (size_t v = 1; v < variants.size(); ++v) std::printf(" %.3f", Fastest(times[v]) / Fastest(times[0]));
  bool same = std::all_of(checksums.begin(), checksums.end(), [&](uint64_t c) { return c == checksums[0]; });
  std::printf("   %s\n", same ? "same output" : "OUTPUTS DIFFER");
  if (!same) *error = std::string(kernel.name) + ": the variants' outputs differ";
  return same;
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t rounds = 41;
  DeviceOptions device;
  device.robust_buffer_access = false;  // measure the shaders' own clamps only
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--rounds") rounds = static_cast<uint32_t>(std::max(1, std::atoi(argv[i + 1])));
    else if (flag == "--device") device.device = argv[i + 1];
    else {
      std::fprintf(stderr, "usage: robust_access_bench [--rounds N] [--device NAME]\n");
      return 2;
    }
  }
  setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string error;
  std::unique_ptr<Context> context = Context::Create(device, &error);
  if (!context) {
    std::fprintf(stderr, "robust_access_bench: ERROR: %s\n", error.c_str());
    return 1;
  }
  std::printf("device: %s; median of %u rounds; glslang in ms, others as time / glslang's\n",
              context->DeviceName().c_str(), rounds);
  std::printf("%-12s %9s %9s %9s %9s %9s   %s\n", "kernel", "glslang", "spirv-opt", "glint-off", "glint-ref",
              "glint-full", "clamps off/ref/full");
  bool ok = true;
  for (const Kernel& kernel : Kernels()) {
    if (!BenchKernel(*context, kernel, rounds, &error)) {
      std::fprintf(stderr, "robust_access_bench: ERROR: %s\n", error.c_str());
      ok = false;
      if (context->Lost()) return 1;
    }
  }
  return ok ? 0 : 1;
}
