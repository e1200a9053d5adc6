// Execution tests of robust access on lavapipe (Execution/vk_runner.h): out-of-bounds
// indices (negative, exactly the length, huge) read and write the clamped element and
// leave guard data around the array unchanged; in-bounds programs give the same output
// with and without --robust-access, in every analysis mode.
#include <gtest/gtest.h>

#include <climits>
#include <cstring>
#include <ostream>

#include "Execution/vk_runner.h"
#include "support/compute_kernel.h"
#include "support/test_support.h"

namespace glint::vk {
namespace {

// glslang's output, optionally through Glint with --robust-access in `mode`.
std::vector<uint32_t> Compile(const std::string& glsl, bool robust,
                              RangeAnalysisMode mode = RangeAnalysisMode::kFull) {
  std::vector<uint32_t> words = test::CompileGlsl(glsl, "comp");
  if (!robust) return words;
  Options options;
  options.robust_access = true;
  options.range_analysis = mode;
  options.validate = true;
  Report report;
  EXPECT_TRUE(Process(words, options, &report))
      << (report.diagnostics.empty() ? "" : report.diagnostics[0].message);
  return words;
}

// Runs `spirv` once with buffers 0..n-1 holding `buffers` and `index` as push constant.
std::vector<std::vector<uint32_t>> RunKernel(const std::vector<uint32_t>& spirv,
                                             const std::vector<std::vector<uint32_t>>& buffers,
                                             int32_t index) {
  return test::RunComputeKernel(spirv, buffers, {static_cast<uint32_t>(index)});
}

// Fixed-size arrays between guards: before[4], values[8], after[4], then a vec4 and a
// guard word, then the value read back.
const char kFixedArrays[] = R"(#version 440
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data {
  uint before[4];
  uint values[8];
  uint after[4];
  uvec4 v;
  uint v_after;
  uint read_back;
};
layout(push_constant) uniform P { int index; };
void main() {
  read_back = values[index];
  values[index] = 0xC0FFEEu;
  v[index] = 0xBEEFu;
}
)";

constexpr uint32_t kGuard = 0x6A6A6A6Au;

std::vector<uint32_t> FixedArraysInput() {
  std::vector<uint32_t> data(22, kGuard);
  for (uint32_t i = 0; i < 8; ++i) data[4 + i] = 100 + i;
  for (uint32_t i = 0; i < 4; ++i) data[16 + i] = 200 + i;
  data[21] = 0;
  return data;
}

class RobustAccessOutOfBounds : public ::testing::TestWithParam<int32_t> {};

TEST_P(RobustAccessOutOfBounds, FixedArray_ClampedElementAndGuardsUnchanged) {
  std::vector<uint32_t> input = FixedArraysInput();
  std::vector<std::vector<uint32_t>> out =
      RunKernel(Compile(kFixedArrays, true), {input}, GetParam());
  ASSERT_EQ(out.size(), 1u);
  const std::vector<uint32_t>& data = out[0];
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(data[i], kGuard) << "before[" << i << "]";
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(data[12 + i], kGuard) << "after[" << i << "]";
  EXPECT_EQ(data[20], kGuard) << "v_after";
  EXPECT_EQ(data[21], 107u) << "read values[7]";
  EXPECT_EQ(data[4 + 7], 0xC0FFEEu) << "wrote values[7]";
  EXPECT_EQ(data[16 + 3], 0xBEEFu) << "wrote v.w";
  for (uint32_t i = 0; i < 7; ++i) EXPECT_EQ(data[4 + i], 100 + i);
}

// The same program without clamps writes the guards: the test above can fail.
TEST(RobustAccessExecution, FixedArray_WithoutClampsIndexEightWritesTheGuard) {
  std::vector<std::vector<uint32_t>> out =
      RunKernel(Compile(kFixedArrays, false), {FixedArraysInput()}, 8);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0][12], 0xC0FFEEu) << "values[8] is after[0]";
}

INSTANTIATE_TEST_SUITE_P(Indices, RobustAccessOutOfBounds,
                         ::testing::Values(-1, 8, 9, 1 << 20, INT_MAX, INT_MIN),
                         [](const auto& info) {
                           int32_t index = info.param;
                           return index < 0 ? "Minus" + std::to_string(-int64_t(index))
                                            : std::to_string(index);
                         });

// A runtime array of 8 elements in its own binding.
const char kRuntimeArray[] = R"(#version 440
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
layout(std430, binding = 1) buffer Out { uint read_back; uint length_seen; };
layout(push_constant) uniform P { int index; };
void main() {
  read_back = values[index];
  values[index] = 0xC0FFEEu;
  length_seen = uint(values.length());
}
)";

TEST(RobustAccessExecution, RuntimeArray_OutOfBoundsReadsAndWritesTheLastElement) {
  for (int32_t index : {-1, 8, 1000, INT_MAX}) {
    std::vector<uint32_t> values = {100, 101, 102, 103, 104, 105, 106, 107};
    std::vector<std::vector<uint32_t>> out =
        RunKernel(Compile(kRuntimeArray, true), {values, {0, 0}}, index);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[1][0], 107u) << index;
    EXPECT_EQ(out[1][1], 8u);
    values[7] = 0xC0FFEEu;
    EXPECT_EQ(out[0], values) << index;
  }
}

// An empty runtime array (the binding ends where the array starts): the clamp gives
// index 0, whose element lies past the end of the binding; the device's
// robustBufferAccess (which the harness enables) discards it. The block's other
// member is untouched and the shader sees length 0.
TEST(RobustAccessExecution, RuntimeArray_EmptyBindingClampsToZeroAndKeepsTheHeader) {
  const char kEmpty[] = R"(#version 440
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data { uvec4 header; uint values[]; };
layout(std430, binding = 1) buffer Out { uint length_seen; };
layout(push_constant) uniform P { int index; };
void main() { values[index] = 0xC0FFEEu; length_seen = uint(values.length()) + 1u; }
)";
  std::vector<uint32_t> header = {1, 2, 3, 4};
  std::vector<std::vector<uint32_t>> out = RunKernel(Compile(kEmpty, true), {header, {0}}, 5);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], header);
  EXPECT_EQ(out[1][0], 1u) << "length 0";
}

// In-bounds programs: identical output with and without --robust-access, every mode.
struct InBoundsProgram {
  const char* name;
  const char* glsl;
};

// Failure messages name the case, not its bytes.
void PrintTo(const InBoundsProgram& c, std::ostream* out) { *out << c.name; }

const InBoundsProgram kInBounds[] = {
    {"TileTranspose", R"(#version 440
layout(local_size_x = 8, local_size_y = 8) in;
shared uint tile[8][8];
layout(std430, binding = 0) buffer Data { uint values[]; };
layout(push_constant) uniform P { int unused; };
void main() {
  uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
  tile[y][x] = values[gl_LocalInvocationIndex] * 3u + 1u;
  barrier();
  uint sum = 0u;
  for (int k = 0; k < 8; ++k) sum += tile[k][x];
  values[gl_LocalInvocationIndex] = tile[x][y] + sum;
}
)"},
    {"LookupAndVectors", R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
layout(push_constant) uniform P { int unused; };
const uint table[16] = uint[](3u, 1u, 4u, 1u, 5u, 9u, 2u, 6u, 5u, 3u, 5u, 8u, 9u, 7u, 9u, 3u);
void main() {
  uint i = gl_LocalInvocationIndex;
  uvec4 v = uvec4(i, i + 1u, i * 2u, 7u);
  mat4 m = mat4(float(i));
  values[i] = table[values[i] % 16u] + v[i % 4u] + uint(m[i % 4u][(i / 4u) % 4u]);
}
)"},
};

class RobustAccessInBounds : public ::testing::TestWithParam<InBoundsProgram> {};

TEST_P(RobustAccessInBounds, SameOutputWithAndWithoutClamps) {
  std::vector<uint32_t> input(64);
  for (uint32_t i = 0; i < 64; ++i) input[i] = (i * 2654435761u) >> 7;
  std::vector<std::vector<uint32_t>> plain = RunKernel(Compile(GetParam().glsl, false), {input}, 0);
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_NE(plain[0], input) << "the program must write something";
  for (RangeAnalysisMode mode :
       {RangeAnalysisMode::kOff, RangeAnalysisMode::kReference, RangeAnalysisMode::kFull}) {
    std::vector<std::vector<uint32_t>> clamped =
        RunKernel(Compile(GetParam().glsl, true, mode), {input}, 0);
    EXPECT_EQ(clamped, plain) << "mode " << static_cast<int>(mode);
  }
}

INSTANTIATE_TEST_SUITE_P(Programs, RobustAccessInBounds, ::testing::ValuesIn(kInBounds),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace glint::vk
