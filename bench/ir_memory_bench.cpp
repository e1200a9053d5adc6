// Memory of the SPIR-V IR per input word: parses large modules and prints the heap
// bytes the parsed Module holds (mallinfo2's in-use bytes, malloc's own overhead
// included) and the peak during the parse, divided by the module's word count.
//
//   build/bench/ir_memory_bench [copies]      (default 20000)
//
// Two inputs, each one function: a body of OpNop (one word per instruction: the worst
// case for per-instruction overhead) and a shader-like body: ten instructions repeated
// `copies` times, each copy with its own result ids. Also times ParseModule's refusal of a 64 MB
// module (over kMaxModuleWords, parser.h). The function around each body is the one the
// IR tests parse (gtests/support/synthetic_module.h).
#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "SPIRV/ir/parser.h"
#include "heap_counter.h"
#include "support/synthetic_module.h"

namespace glint::spirv {
namespace {

size_t HeapInUse() { return mallinfo2().uordblks; }

struct Measure {
  double held_per_word = 0;  // the parsed Module
  double peak_per_word = 0;  // the most the parse had allocated at once
  double seconds = 0;
  std::string error;
};

Measure MeasureParse(const std::vector<uint32_t>& words) {
  Measure measure;
  malloc_trim(0);
  size_t before = HeapInUse();
  size_t live_before = glint::bench::HeapLive();
  glint::bench::ResetHeapPeak();
  auto start = std::chrono::steady_clock::now();
  std::optional<Module> module = ParseModule(words, &measure.error);
  measure.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  measure.held_per_word = static_cast<double>(HeapInUse() - before) / words.size();
  measure.peak_per_word = static_cast<double>(glint::bench::HeapPeak() - live_before) / words.size();
  return measure;
}

// A function body typical of compute shaders as glslang emits them: loads, arithmetic,
// access chains, stores, compares, extracts and selects, `copies` times, every copy
// with results of its own (ids from 100 up; types and inputs below 40).
std::vector<uint32_t> ShaderLikeBody(size_t copies, uint32_t* bound) {
  std::vector<uint32_t> body;
  for (size_t i = 0; i < copies; ++i) {
    const uint32_t r = 100 + static_cast<uint32_t>(i) * 10;  // this copy's first result
    // clang-format off: one instruction (word count << 16 | opcode, operands) per line
    const uint32_t copy[] = {
        (4u << 16) | spv::OpLoad,              10, r,     30,
        (5u << 16) | spv::OpIAdd,              10, r + 1, r,     31,
        (6u << 16) | spv::OpAccessChain,       11, r + 2, 32,    33, r + 1,
        (4u << 16) | spv::OpLoad,              12, r + 3, r + 2,
        (5u << 16) | spv::OpFMul,              12, r + 4, r + 3, 34,
        (3u << 16) | spv::OpStore,             r + 2, r + 4,
        (5u << 16) | spv::OpULessThan,         13, r + 5, r + 1, 35,
        (5u << 16) | spv::OpCompositeExtract,  12, r + 6, 36,    0,
        (5u << 16) | spv::OpBitwiseAnd,        10, r + 7, r + 1, 31,
        (6u << 16) | spv::OpSelect,            12, r + 8, r + 5, r + 6, r + 4};
    // clang-format on
    body.insert(body.end(), std::begin(copy), std::end(copy));
  }
  *bound = 100 + static_cast<uint32_t>(copies) * 10;
  return body;
}

void Report(const char* name, const std::vector<uint32_t>& words) {
  Measure m = MeasureParse(words);
  std::printf("%-28s %9zu words: %6.1f bytes/word held, %6.1f peak in the parse, %.3f s%s%s\n",
              name, words.size(), m.held_per_word, m.peak_per_word, m.seconds,
              m.error.empty() ? "" : ", refused: ", m.error.c_str());
}

void Refusal(const char* name, const std::vector<uint32_t>& words) {
  std::string error;
  auto start = std::chrono::steady_clock::now();
  std::optional<Module> module = ParseModule(words, &error);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%-28s %9zu words: %s in %.3f s: %s\n", name, words.size(),
              module ? "ACCEPTED" : "refused", seconds, error.c_str());
}

}  // namespace
}  // namespace glint::spirv

int main(int argc, char** argv) {
  using namespace glint::spirv;
  size_t copies = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 20000;
  using glint::test::NopModule;
  Report("OpNop function body", NopModule(copies * 40));
  uint32_t bound = 0;
  std::vector<uint32_t> body = ShaderLikeBody(copies, &bound);
  Report("shader-like function body", glint::test::SingleFunctionModule(body, 1, bound));
  // 64 MB of OpNop: refused before anything is built.
  Refusal("64 MB OpNop module", NopModule(16u << 20));
  return 0;
}
