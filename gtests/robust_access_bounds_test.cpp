// The safety promise of robust access, in pairs: an index whose range is known and ends
// exactly at the object's last element is left alone; one whose known range ends one
// past it (or further) is clamped. A known range alone proves nothing: the comparison
// with the limit does. Each pair is checked twice, in the text (FileCheck: the access
// uses the index itself, or the UMin of it) and on lavapipe (the writes land where the
// clamp says, and the guard words around the object are untouched).
//
// Objects: a 16-element array in a buffer, a uvec4 in a buffer, the columns of a mat4
// in a buffer, a 16-element shared array. Indices: `key % length` (proven) and
// `key % (length + 1)` (clamped); the lane id of a 64-wide workgroup (clamped); a loop
// whose last value is length - 1 (proven) and one whose last value is length (clamped).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <tuple>

#include "glint/glint.h"
#include "support/compute_kernel.h"
#include "support/test_support.h"

namespace glint {
namespace {

constexpr uint32_t kGuard = 0x6A6A6A6Au;
constexpr uint32_t kGuardWords = 4;  // before and after the object

struct Object {
  const char* name;
  const char* member;   // the object's declaration inside the buffer block
  uint32_t length;      // elements
  uint32_t stride;      // words per element in the buffer
  const char* element;  // GLSL lvalue for element `IDX` ("IDX" replaced)
  const char* access;   // FileCheck: the access chain up to the index operand
  const char* limit;    // FileCheck: the constant the clamp uses
  bool shared;          // the object lives in shared memory, copied in and out
  bool is_float;
};

const Object kObjects[] = {
    {"Array", "uint values[16];", 16, 1, "values[IDX]",
     "OpAccessChain %_ptr_Uniform_uint %_ %int_1", "%uint_15", false, false},
    {"Vector", "uvec4 v;", 4, 1, "v[IDX]", "OpAccessChain %_ptr_Uniform_uint %_ %int_1", "%uint_3",
     false, false},
    {"MatrixColumn", "mat4 m;", 4, 4, "m[IDX][0]", "OpAccessChain %_ptr_Uniform_float %_ %int_1",
     "%uint_3", false, true},
    {"SharedArray", "uint values[16];", 16, 1, "tile[IDX]",
     "OpAccessChain %_ptr_Workgroup_uint %tile", "%uint_15", true, false},
};

enum class IndexKind { kKeyModLength, kKeyModLengthPlusOne, kLaneOf64, kLoopToLast, kLoopPastLast };

struct Index {
  const char* name;
  IndexKind kind;
  bool proven;
};

const Index kIndices[] = {
    {"KeyModLength_Proven", IndexKind::kKeyModLength, true},
    {"KeyModLengthPlusOne_Clamped", IndexKind::kKeyModLengthPlusOne, false},
    {"LaneOf64_Clamped", IndexKind::kLaneOf64, false},
    {"LoopEndsAtLast_Proven", IndexKind::kLoopToLast, true},
    {"LoopEndsOnePast_Clamped", IndexKind::kLoopPastLast, false},
};

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// The statement under test: writes 1000 + x to element `index` of the object.
std::string Write(const Object& object, const std::string& index, const std::string& x) {
  std::string value = "1000u + " + x;
  if (object.is_float) value = "float(" + value + ")";
  return Replace(object.element, "IDX", index) + " = " + value + ";";
}

std::string Body(const Object& object, IndexKind kind) {
  std::string length = std::to_string(object.length) + "u";
  std::string past = std::to_string(object.length + 1) + "u";
  switch (kind) {
    case IndexKind::kKeyModLength:
      return Write(object, "key % " + length, "key");
    case IndexKind::kKeyModLengthPlusOne:
      return Write(object, "key % " + past, "key");
    case IndexKind::kLaneOf64:
      return Write(object, "gl_LocalInvocationID.x", "gl_LocalInvocationID.x");
    case IndexKind::kLoopToLast:
      return "for (uint k = 0u; k < " + length + "; ++k) " + Write(object, "k", "k");
    case IndexKind::kLoopPastLast:
      return "for (uint k = 0u; k <= " + length + "; ++k) " + Write(object, "k", "k");
  }
  return "";
}

// Shared memory cannot be read back directly: invocation 0 copies the buffer's words
// (guards included) into shared arrays of the same shape, and back after the write.
const char kSharedCopies[] = R"(shared uint tile_before[4];
shared uint tile[16];
shared uint tile_after[4];
void CopyIn() {
  for (uint c = 0u; c < 4u; ++c) { tile_before[c] = before[c]; tile_after[c] = after[c]; }
  for (uint c = 0u; c < 16u; ++c) tile[c] = values[c];
}
void CopyOut() {
  for (uint c = 0u; c < 4u; ++c) { before[c] = tile_before[c]; after[c] = tile_after[c]; }
  for (uint c = 0u; c < 16u; ++c) values[c] = tile[c];
}
)";

std::string Kernel(const Object& object, IndexKind kind) {
  std::string glsl = "#version 440\n";
  glsl += kind == IndexKind::kLaneOf64 ? "layout(local_size_x = 64) in;\n"
                                       : "layout(local_size_x = 1) in;\n";
  glsl += "layout(std430, binding = 0) buffer Data { uint before[4]; " +
          std::string(object.member) + " uint after[4]; };\n";
  glsl += "layout(push_constant) uniform P { uint key; };\n";
  if (!object.shared) return glsl + "void main() { " + Body(object, kind) + " }\n";
  return glsl + kSharedCopies +
         "void main() {\n"
         "  if (gl_LocalInvocationIndex == 0u) CopyIn();\n"
         "  barrier();\n"
         "  " +
         Body(object, kind) +
         "\n"
         "  barrier();\n"
         "  if (gl_LocalInvocationIndex == 0u) CopyOut();\n"
         "}\n";
}

// FileCheck lines: the access of the statement under test uses the index itself
// (proven) or the UMin of it with the last index (clamped). Proven kernels have no
// UMin at all (the copies of the shared case are proven too).
std::string Checks(const Object& object, const Index& index) {
  std::string access = std::string("CHECK: ") + object.access;
  std::string checks = index.proven ? "CHECK-NOT: UMin\n" : "";
  if (object.shared) checks += "CHECK-LABEL: %main = OpFunction\nCHECK: OpControlBarrier\n";
  switch (index.kind) {
    case IndexKind::kKeyModLength:
    case IndexKind::kKeyModLengthPlusOne:
      checks += "CHECK: %[[INDEX:[0-9]+]] = OpUMod %uint %{{[0-9]+}} %uint_" +
                std::to_string(object.length + (index.proven ? 0 : 1)) + "\n";
      break;
    case IndexKind::kLaneOf64:
      checks += "CHECK: %[[INDEX:[0-9]+]] = OpLoad %uint\n";
      break;
    case IndexKind::kLoopToLast:
    case IndexKind::kLoopPastLast:
      checks += std::string("CHECK: ") + (index.proven ? "OpULessThan" : "OpULessThanEqual") +
                " %bool %{{[0-9]+}} %uint_" + std::to_string(object.length) + "\n" +
                "CHECK: OpBranchConditional\nCHECK: %[[INDEX:[0-9]+]] = OpLoad %uint %k\n";
      break;
  }
  std::string suffix = object.is_float ? " %uint_0{{$}}\n" : "{{$}}\n";
  if (index.proven) return checks + access + " %[[INDEX]]" + suffix + "CHECK-NOT: UMin\n";
  return checks + "CHECK: %[[CLAMP:[0-9]+]] = OpExtInst %uint %{{[0-9]+}} UMin %[[INDEX]] " +
         object.limit + "\nCHECK-NEXT: " + object.access + " %[[CLAMP]]" + suffix;
}

// The writes the kernel makes for `key`: (unclamped element index, value) pairs.
std::vector<std::pair<uint32_t, uint32_t>> Writes(const Object& object, IndexKind kind,
                                                  uint32_t key) {
  std::vector<std::pair<uint32_t, uint32_t>> writes;
  auto value = [&](uint32_t x) {
    uint32_t word = 1000u + x;
    if (object.is_float) {
      float f = static_cast<float>(word);
      std::memcpy(&word, &f, 4);
    }
    return word;
  };
  switch (kind) {
    case IndexKind::kKeyModLength:
      writes.push_back({key % object.length, value(key)});
      break;
    case IndexKind::kKeyModLengthPlusOne:
      writes.push_back({key % (object.length + 1), value(key)});
      break;
    case IndexKind::kLaneOf64:
      for (uint32_t lane = 0; lane < 64; ++lane) writes.push_back({lane, value(lane)});
      break;
    case IndexKind::kLoopToLast:
    case IndexKind::kLoopPastLast:
      for (uint32_t k = 0; k < object.length + (kind == IndexKind::kLoopPastLast); ++k)
        writes.push_back({k, value(k)});
      break;
  }
  return writes;
}

// Keys that reach the largest index `key % n` can give, and a small one.
std::vector<uint32_t> Keys(const Object& object, IndexKind kind) {
  uint32_t n = object.length + (kind == IndexKind::kKeyModLengthPlusOne);
  if (kind == IndexKind::kKeyModLength || kind == IndexKind::kKeyModLengthPlusOne)
    return {n - 1, 3 * n - 1, 1};
  return {0};
}

std::vector<uint32_t> RobustKernel(const Object& object, IndexKind kind) {
  std::vector<uint32_t> words = test::CompileGlsl(Kernel(object, kind), "comp");
  Options options;
  options.robust_access = true;
  options.range_analysis = RangeAnalysisMode::kFull;
  options.validate = true;
  Report report;
  EXPECT_TRUE(Process(words, options, &report))
      << (report.diagnostics.empty() ? "" : report.diagnostics[0].message);
  return words;
}

void PrintTo(const Object& object, std::ostream* out) { *out << object.name; }
void PrintTo(const Index& index, std::ostream* out) { *out << index.name; }

class RobustAccessBounds : public ::testing::TestWithParam<std::tuple<Object, Index>> {};

TEST_P(RobustAccessBounds, Text) {
  const auto& [object, index] = GetParam();
  std::vector<uint32_t> words = RobustKernel(object, index.kind);
  std::string text = test::Disassemble(words);
  EXPECT_TRUE(test::FileCheck(text, Checks(object, index))) << Kernel(object, index.kind);
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "");
}

// Every element ends holding its initial value or one of the values written to it
// (after the clamp: an element index past the end lands on the last element); the
// guard words around the object never change.
TEST_P(RobustAccessBounds, Execution) {
  const auto& [object, index] = GetParam();
  std::vector<uint32_t> spirv = RobustKernel(object, index.kind);
  const uint32_t object_words = object.length * object.stride;
  for (uint32_t key : Keys(object, index.kind)) {
    SCOPED_TRACE("key " + std::to_string(key));
    std::vector<uint32_t> input(kGuardWords * 2 + object_words, kGuard);
    for (uint32_t w = 0; w < object_words; ++w) input[kGuardWords + w] = 100 + w;
    std::map<uint32_t, std::set<uint32_t>> allowed;  // word -> values it may hold
    for (uint32_t w = 0; w < input.size(); ++w) allowed[w].insert(input[w]);
    for (const auto& [element, value] : Writes(object, index.kind, key)) {
      uint32_t clamped = std::min(element, object.length - 1);
      allowed[kGuardWords + clamped * object.stride].insert(value);
    }
    std::vector<std::vector<uint32_t>> out = test::RunComputeKernel(spirv, {input}, {key});
    ASSERT_EQ(out.size(), 1u);
    ASSERT_EQ(out[0].size(), input.size());
    for (uint32_t w = 0; w < input.size(); ++w) {
      bool guard = w < kGuardWords || w >= kGuardWords + object_words;
      EXPECT_EQ(allowed[w].count(out[0][w]), 1u)
          << (guard ? "guard" : "object") << " word " << w << " holds " << out[0][w];
    }
  }
}

// Without Glint the clamped kernels do write a guard (so the test above can fail).
TEST(RobustAccessBoundsWithoutClamps, KeyModLengthPlusOne_WritesTheGuardAfterTheArray) {
  std::vector<uint32_t> spirv =
      test::CompileGlsl(Kernel(kObjects[0], IndexKind::kKeyModLengthPlusOne), "comp");
  std::vector<uint32_t> input(kGuardWords * 2 + 16, kGuard);
  std::vector<std::vector<uint32_t>> out = test::RunComputeKernel(spirv, {input}, {16});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0][kGuardWords + 16], 1016u) << "values[16] is after[0]";
}

INSTANTIATE_TEST_SUITE_P(Pairs, RobustAccessBounds,
                         ::testing::Combine(::testing::ValuesIn(kObjects),
                                            ::testing::ValuesIn(kIndices)),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).name) + "_" +
                                  std::get<1>(info.param).name;
                         });

}  // namespace
}  // namespace glint
