// Execution tests on lavapipe of the range analysis's traps (the generator's traps in
// Test/audit/generate_shaders.py): shaders whose guard looks like a proof but
// is not one. For each, unclamped (glslang's own output) the out-of-bounds index really
// reaches the access at run time: the index is recorded beside the access, and the write
// lands on a guard word next to the array, or, for an index far outside the buffer,
// where lavapipe's 32-bit byte offset wraps to (values[0xFFFFFFFF] is before[3],
// values[INT_MIN] is values[0]: memory the index never named), unless robustBufferAccess
// drops it. Clamped with
// --robust-access in full mode, the analysis proves none of them, so every clamp stays:
// the write lands on the array's last element and every guard word is unchanged.
// The traps of the later full-mode rules (call results, 8-bit narrowing, switch
// case and default guards, vector guards, general loop updates, guards through ranged
// offsets, trip-count counters, exit counters, constant tables, locals read at run-time
// indices, tests around every call, tests on quotients, tests held in bool locals,
// counted loops' counter-dependent steps, bitfield inserts, differences under an
// order, struct parts passed down a chain of helpers, remainders written out by hand,
// bounds tested above their own test, call results of one call's own arguments, vector
// bit fields of one call's count, counters a helper writes, tested before their uses, bit
// fields whose helper's branch each call's arguments decide, what a vectorized loop leaves
// for its remainder loop) are rows of the same table, each the near-miss of its rule's
// sound form; RangeProof runs those sound forms: proven, no clamp, and the same output as
// glslang's.
// The promised dispatch size (--max-workgroups) is run the same way: kept, its proof
// removes the clamp and the output is the unclamped one; one group too large, the
// access stays clamped and a dispatch of that size stays contained. Arrays whose length
// is a specialization constant run at two specializations: the proofs for every value
// leave glslang's module and its output, and the `<=` near-miss writes past the array
// unclamped and is contained clamped, at both.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <climits>
#include <ostream>
#include <string>
#include <vector>

#include "Execution/vk_runner.h"
#include "support/compute_kernel.h"
#include "support/spec_sized_kernel.h"
#include "support/test_support.h"

namespace glint {
namespace {

constexpr uint32_t kGuard = 0x6A6A6A6Au;
constexpr uint32_t kMark = 0xC0FFEEu;

// Data: before[4] (words 0-3), values[8] (4-11), after[4] (12-15), then the index the
// access saw (16) and a buffer element the reload trap tests (17).
constexpr size_t kValues = 4, kAfter = 12, kSeen = 16, kSlot = 17, kWords = 18;

// `prelude`: its #extension lines go right after #version, the rest (helper functions,
// which may use the buffer and the push constants) right before main.
std::string Kernel(const std::string& body, const std::string& prelude = "") {
  std::string extensions, helpers;
  for (size_t at = 0; at < prelude.size();) {
    size_t end = prelude.find('\n', at);
    end = end == std::string::npos ? prelude.size() : end + 1;
    (prelude[at] == '#' ? extensions : helpers) += prelude.substr(at, end - at);
    at = end;
  }
  return "#version 440\n" + extensions + R"(layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data {
  uint before[4]; uint values[8]; uint after[4]; uint seen; uint slot;
};
layout(push_constant) uniform P { int a; int b; };
)" + helpers +
         "void main() {\n" + body + "\n}\n";
}

std::vector<uint32_t> Input() {
  std::vector<uint32_t> data(kWords, kGuard);
  for (uint32_t i = 0; i < 8; ++i) data[kValues + i] = 100 + i;
  data[kSeen] = 0;
  data[kSlot] = 5;
  return data;
}

// glslang's output, or Glint's with --robust-access (full mode); spirv-val checks each.
std::vector<uint32_t> Compile(const std::string& glsl, bool clamped, Report* report = nullptr,
                              std::array<uint32_t, 3> max_workgroups = {}) {
  std::vector<uint32_t> words = test::CompileGlsl(glsl, "comp");
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "") << "glslang's output\n" << glsl;
  if (!clamped) return words;
  Options options;
  options.robust_access = true;
  options.range_analysis = RangeAnalysisMode::kFull;
  options.max_workgroups = max_workgroups;
  options.collect_ranges = true;
  options.validate = true;
  Report local;
  Report* out = report ? report : &local;
  EXPECT_TRUE(Process(words, options, out))
      << (out->diagnostics.empty() ? "" : out->diagnostics[0].message);
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "") << "clamped\n" << glsl;
  return words;
}

// Preludes of the rows below.
constexpr const char* kPickLe =
    "uint pickLe(uint x, uint n) {\n  if (x > n) return 0u;\n  return x;\n}\n";
constexpr const char* kPick =
    "uint pick(uint x, uint n) {\n  if (x >= n) return n - 1u;\n  return x;\n}\n";
constexpr const char* kInt8 = "#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require\n";
constexpr const char* kStoreAtA =
    "void store() {\n  seen = uint(a);\n  values[uint(a)] = 0xC0FFEEu;\n}\n";
constexpr const char* kStoreAfterA =
    "void store() {\n  seen = uint(a) + 1u;\n  values[uint(a) + 1u] = 0xC0FFEEu;\n}\n";

// A helper called with a narrow argument here and a wide one at its other call.
constexpr const char* kTwice =
    "uint twice(uint x) { return x * 2u; }\n"
    "void wide() { seen = twice(uint(b)); }\n";

// A helper returning two fields of `bits` bits; its other call passes any width.
constexpr const char* kFields =
    "uvec2 fields(uint w, uint bits) { return bitfieldExtract(uvec2(w, w >> 4u), 0, int(bits)); }\n"
    "void anyWidth() { seen = fields(uint(a), uint(b)).x; }\n";

// A counter the helper writes (count++), tested before its uses; and the near-miss
// that writes it between the test and the use.
constexpr const char* kPush =
    "void push(inout uint count) {\n"
    "  if (count < 2u) { seen = 4u * count + 3u; values[4u * count + 3u] = 0xC0FFEEu; }\n"
    "  count++;\n}\n";
constexpr const char* kPushAfterWrite =
    "void push(inout uint count) {\n"
    "  if (count < 2u) { count += 1u; seen = 4u * count; values[4u * count] = 0xC0FFEEu; }\n}\n";

// A field of `bits` bits at `offset` (below 32) in two words, joined from both when it
// crosses the first (Granite's extract_bits): which branch runs is decided by each call's
// arguments.
constexpr const char* kField =
    "uint field(uvec2 words, uint offset, uint bits) {\n"
    "  uint result;\n"
    "  if (((offset + bits - 1u) >> 5) == (offset >> 5))\n"
    "    result = bitfieldExtract(words.x, int(offset & 31u), int(bits));\n"
    "  else {\n"
    "    uint first = 32u - (offset & 31u);\n"
    "    result = bitfieldExtract(words.x, int(offset & 31u), int(first)) |\n"
    "             (bitfieldExtract(words.y, 0, int(bits - first)) << first);\n"
    "  }\n"
    "  return result;\n}\n";

constexpr const char* kRelay =
    "struct Part { uint index; uint other; };\n"
    "void storePart(Part p) {\n  seen = p.index;\n  values[p.index] = 0xC0FFEEu;\n}\n"
    "void relay(Part p) { storePart(p); }\n";

struct Trap {
  const char* name;
  const char* body;  // records the index in `seen`, then writes kMark through it
  int32_t a, b;      // push constants
  uint32_t index;    // the index the access sees (as u32)
  // The word the unclamped write overwrites. For an index far outside the buffer
  // (far = true) the write is either dropped (robustBufferAccess) or, as lavapipe does,
  // lands where the byte offset wraps in 32 bits: 16 + 4 * index modulo 2^32.
  int hit;
  bool far = false;
  const char* prelude = "";  // Kernel's prelude: helpers, an #extension
};

void PrintTo(const Trap& t, std::ostream* out) { *out << t.name; }

const Trap kTraps[] = {
    // `<=` where `<` was meant: index 8 of values[8] passes.
    {"WrongBoundLessEqual", "uint q = uint(a);\nif (q <= 8u) { seen = q; values[q] = 0xC0FFEEu; }",
     8, 0, 8, int(kAfter)},
    // The `q > 16` form: an early exit that lets the size itself through.
    {"WrongBoundExitAbove",
     "uint q = uint(a);\nif (q > 8u) return;\nseen = q;\nvalues[q] = 0xC0FFEEu;", 8, 0, 8,
     int(kAfter)},
    // A test on one load of a buffer element, the use of a later load of it.
    {"TestOneLoadUseAnother",
     "if (slot < 8u) {\n  slot = slot + uint(a);\n  seen = slot;\n  values[slot] = 0xC0FFEEu;\n}",
     3, 0, 8, int(kAfter)},
    // A signed test on an unsigned value: int(u) < 8 holds for u = 0xFFFFFFFF.
    {"SignedTestUnsignedUse",
     "uint u = uint(a);\nif (int(u) < 8) { seen = u; values[u] = 0xC0FFEEu; }", -1, 0, 0xFFFFFFFFu,
     int(kValues) - 1, true},
    // ... and its signed reading has no lower bound: values[-1] is before[3].
    {"SignedTestNoLowerBound",
     "uint u = uint(a);\nif (int(u) < 8) { seen = u; values[int(u)] = 0xC0FFEEu; }", -1, 0,
     0xFFFFFFFFu, int(kValues) - 1},
    // abs(INT_MIN) is INT_MIN: abs(m) < 8 holds, the index is far below the array.
    {"AbsOfIntMin", "int m = abs(a);\nif (m < 8) { seen = uint(m); values[m] = 0xC0FFEEu; }",
     INT_MIN, 0, 0x80000000u, int(kValues), true},
    // A local overwritten after its test.
    {"LocalOverwrittenAfterTest",
     "int i = a;\nif (i >= 0 && i < 8) {\n  i = b;\n  seen = uint(i);\n  values[i] = 0xC0FFEEu;\n}",
     3, 8, 8, int(kAfter)},
    // The later full-mode rules, each by the near-miss of its sound form
    // (RangeProof below holds the sound forms): a rule that trusted the shape without
    // its condition would prove the index and drop the clamp.
    // Call results: the helper's guard is `x > n`, so it returns n itself.
    {"CallWrongBound", "uint q = pickLe(uint(a), 8u);\nseen = q;\nvalues[q] = 0xC0FFEEu;", 8, 0, 8,
     int(kAfter), false, kPickLe},
    // 8-bit narrowing: [0, 255] does not fit int8_t, 255 becomes -1 (values[-1] is
    // before[3]); kept as [0, 255] the test i < 8 would prove [0, 7]. From int, so
    // glslang emits OpSConvert (from uint it bitcasts the 8-bit value, which no rule
    // follows: the trap would then be clamped for another reason).
    {"NarrowTruncation",
     "int q = a & 0xFF;\nint i = int(int8_t(q));\nif (i < 8) { seen = uint(i); values[i] = "
     "0xC0FFEEu; }",
     255, 0, 0xFFFFFFFFu, int(kValues) - 1, false, kInt8},
    // Switch: case 8 falls through into case 7's block, which 7 alone does not bound.
    {"SwitchFallthrough",
     "uint s = uint(a);\nswitch (s) {\ncase 8u: seen = 1u;\ncase 7u: seen = s; values[s] = "
     "0xC0FFEEu; break;\n"
     "default: break;\n}",
     8, 0, 8, int(kAfter)},
    // Switch default: the literal 7 is not at the end of [0, 8], so 8 reaches default.
    {"SwitchDefault",
     "uint s = uint(a) % 9u;\nswitch (s) {\ncase 7u: seen = 1u; break;\n"
     "default: seen = s; values[s] = 0xC0FFEEu; break;\n}",
     8, 0, 8, int(kAfter)},
    // Vector guard: all() false (not every component >= 8) says nothing about x.
    {"VectorAllFalse",
     "uvec2 v = uvec2(uint(a), uint(b));\nif (all(greaterThanEqual(v, uvec2(8u)))) return;\n"
     "seen = v.x;\nvalues[v.x] = 0xC0FFEEu;",
     8, 0, 8, int(kAfter)},
    // Vector guard: the tested component is overwritten (y + 1) before its use.
    {"VectorOverwrite",
     "uvec2 v = uvec2(uint(a), uint(b));\nif (all(lessThan(v, uvec2(8u)))) {\n  v.x = v.y + 1u;\n"
     "  seen = v.x;\n  values[v.x] = 0xC0FFEEu;\n}",
     0, 7, 8, int(kAfter)},
    // General loop update: the loop's bound holds in its body, not at its exit
    // (3, 5, 8: p leaves at 8).
    {"LoopExitValue",
     "uint p = (uint(a) % 3u) + 1u;\nwhile (p < 8u) p = p + p / 2u + 1u;\nseen = p;\n"
     "values[p] = 0xC0FFEEu;",
     2, 0, 8, int(kAfter)},
    // Ranged offset: q + d wraps (d = 2^32 - 8), so q + d < 8 holds for q = 8.
    {"OffsetWrap",
     "uint q = uint(a) & 15u;\nuint d = 4294967288u + (uint(b) & 7u);\n"
     "if (q + d < 8u) { seen = q; values[q] = 0xC0FFEEu; }",
     8, 0, 8, int(kAfter)},
    // Ranged offset: d is stored again after the test, the recomputed q + d is 5 + 3.
    {"OffsetRestored",
     "uint q = uint(a) & 15u;\nuint d = 1u + (uint(b) & 1u);\nif (q + d < 8u) {\n  d = 3u;\n"
     "  seen = q + d;\n  values[q + d] = 0xC0FFEEu;\n}",
     5, 1, 8, int(kAfter)},
    // Trip-count counter: 2 * 5 trips take n to 9; only n >= a (9) writes: values[9]
    // is after[1].
    {"CounterOverrun",
     "int n = -1;\nfor (int i = 0; i < 2; ++i)\n  for (int j = 0; j < 5; ++j) {\n    n++;\n"
     "    if (n >= a) { seen = uint(n); values[n] = 0xC0FFEEu; }\n  }",
     9, 0, 9, int(kAfter) + 1},
    // Exit counter: `j <= 8u` runs nine times, so n, stepped beside j, reaches 8.
    {"ExitCounterOverrun",
     "uint n = 0u;\nuint j = 0u;\nwhile (j <= 8u) {\n"
     "  if (n >= uint(a)) { seen = n; values[n] = 0xC0FFEEu; }\n  n++;\n  j++;\n}",
     8, 0, 8, int(kAfter)},
    // Exit counter tested through a reinterpretation: int(j) starts at -5, so the loop
    // runs nine times (read as a u32 the start is past the bound) and n reaches 8.
    {"ReinterpretedExitCounterStartsNegative",
     "uint n = 0u;\nuint j = 4294967291u;\nwhile (int(j) < 4) {\n"
     "  if (n >= uint(a)) { seen = n; values[n] = 0xC0FFEEu; }\n  n++;\n  j++;\n}",
     8, 0, 8, int(kAfter)},
    // Tested right after its step, but the loop is entered a second time without a
    // reset: s enters at 8, the body writes values[8] before the test stops it.
    {"TestedAfterUpdateEnteredAgain",
     "uint s = 0u;\nfor (int o = 0; o < 2; o++) {\n  while (true) {\n"
     "    if (s >= uint(a)) { seen = s; values[s] = 0xC0FFEEu; }\n    s++;\n"
     "    if (s >= 8u) break;\n  }\n}",
     8, 0, 8, int(kAfter)},
    // Constant table holding the array's size (read at an index the analysis cannot
    // bound, so the table's hull is what the access sees).
    {"ConstantTableHoldsTheSize",
     "const uint k[2] = uint[](3u, 8u);\nuint q = k[a];\nseen = q;\nvalues[q] = 0xC0FFEEu;", 1, 0,
     8, int(kAfter)},
    // A local written element by element, one element the array's size.
    {"IndexedLocalHoldsTheSize",
     "uint m[2];\nm[0] = 3u;\nm[1] = 8u;\nuint q = m[a];\nseen = q;\nvalues[q] = 0xC0FFEEu;", 1, 0,
     8, int(kAfter)},
    // A test around the only call that lets a + 1 reach 8 inside the helper.
    {"CallerTestOffByOne", "if (uint(a) <= 7u) store();", 7, 0, 8, int(kAfter), false,
     kStoreAfterA},
    // q / 2u <= 4u lets q = 9 and 8 through.
    {"QuotientBoundLessEqual",
     "uint q = uint(a);\nif (q / 2u <= 4u) { seen = q; values[q] = 0xC0FFEEu; }", 8, 0, 8,
     int(kAfter)},
    // Steps of a counted loop that sum to the array's size: 5 + 2 + 1 + 0.
    {"CountedStepsSumPastTheArray",
     "uint ix = 0u;\nfor (uint i = 0u; i < 4u; i++) { if (uint(a) != 99u) ix += 5u >> i; }\n"
     "seen = ix;\nvalues[ix] = 0xC0FFEEu;",
     1, 0, 8, int(kAfter)},
    // A 3-bit field at bit 1 reaches 8 (b = 4).
    {"BitfieldInsertFieldPastTheArray",
     "uint q = bitfieldInsert(uint(a) & 1u, uint(b), 1, 3);\nseen = q;\nvalues[q] = 0xC0FFEEu;", 0,
     4, 8, int(kAfter)},
    // x >= y keeps x - y from wrapping, but its top end is x's: 8 - 0.
    {"OrderedDifferencePastTheArray",
     "uint x = uint(a) & 15u;\nuint y = uint(b) & 7u;\n"
     "if (x >= y) { seen = x - y; values[x - y] = 0xC0FFEEu; }",
     8, 0, 8, int(kAfter)},
    // y is stored again after the test: 0 - 1 wraps to values[0xFFFFFFFF].
    {"OrderTestedBeforeAStore",
     "uint x = uint(a) & 7u;\nuint y = uint(b) & 7u;\n"
     "if (x >= y) {\n  y = y + 1u;\n  seen = x - y;\n  values[x - y] = 0xC0FFEEu;\n}",
     0, 0, 0xFFFFFFFFu, 3, true},
    // A struct passed down two helpers: the outer caller's part reaches 8.
    {"PartPassedDownPastTheArray", "relay(Part(uint(a) & 15u, 1u));", 8, 0, 8, int(kAfter), false,
     kRelay},
    // A bool local stored twice: the second store sets it whatever q is.
    {"BoolLocalStoredTwice",
     "uint q = uint(a);\nbool ok = q < 8u;\nif (b != 0) ok = true;\n"
     "if (ok) { seen = q; values[q] = 0xC0FFEEu; }",
     8, 1, 8, int(kAfter)},
    // A remainder by hand whose multiplier is not its divisor: 16 - 4 * (16 / 8) = 8.
    {"RemainderOfAnotherDivisor",
     "uint x = uint(a) & 1023u;\nuint r = x - 4u * (x / 8u);\nseen = r;\nvalues[r] = 0xC0FFEEu;",
     16, 0, 8, int(kAfter)},
    // The quotient of x + 1: 7 - 8 * 1 wraps to values[0xFFFFFFFF].
    {"RemainderOfTheNextValue",
     "uint x = uint(a);\nuint r = x - 8u * ((x + 1u) / 8u);\nseen = r;\nvalues[r] = 0xC0FFEEu;", 7,
     0, 0xFFFFFFFFu, 3, true},
    // The bound is tested against 9, one more than the array holds: k = 8 < n = 9.
    {"BoundTestedAboveWithRoomForOneMore",
     "uint n = uint(a);\nif (n > 9u) return;\nuint k = uint(b);\n"
     "if (k < n) { seen = k; values[k] = 0xC0FFEEu; }",
     9, 8, 8, int(kAfter)},
    // This call's argument reaches 4: twice(4) = 8.
    {"CallResultOfAWiderArgument",
     "if (b == 99) wide();\nuint q = twice(uint(a) & 7u);\nseen = q;\nvalues[q] = 0xC0FFEEu;", 4, 0,
     8, int(kAfter), false, kTwice},
    // Four-bit fields at this call: 0x80's second field is 8.
    {"VectorFieldsOfAWiderCount",
     "if (b == 99) anyWidth();\nuint q = fields(uint(a), 4u).y;\nseen = q;\nvalues[q] = 0xC0FFEEu;",
     0x80, 0, 8, int(kAfter), false, kFields},
    // The counter written between its test and its use: count 1 passes, then reads 2.
    {"CounterWrittenAfterItsTest", "uint c = uint(a);\npush(c);", 1, 0, 8, int(kAfter), false,
     kPushAfterWrite},
    // Bit 31 of values[0] (0) and bit 0 of b = 3, shifted up, then bit 1 of b: 2 + 4 + 4.
    {"FieldOneBitWiderThanItsRoom",
     "uint q = field(uvec2(values[0], uint(b)), 30u + uint(a & 1), 2u + uint(a & 1)) + 4u;\n"
     "seen = q;\nvalues[q] = 0xC0FFEEu;",
     1, 3, 10, int(kValues + 10), false, kField},
    // A break leaves the vectorized loop at z = 0 with b = 10: 10 left, the last is 9.
    {"RemainderAfterALoopLeftByABreak",
     "int z = 0;\nfor (; z + 3 < b; z += 4) { if (z == a) break; }\nint remain = b - z;\n"
     "if (remain > 0) { int last = remain - 1; seen = uint(last) + 4u; values[last + 4] = "
     "0xC0FFEEu; }",
     0, 10, 13, int(kValues + 13)},
    // An i32 remainder (-1 for a = -5) read as u32.
    {"SignedRemainderReadAsU32",
     "int y = a;\nuint r = uint(y) - 4u * uint(y / 4);\nseen = r;\nvalues[r] = 0xC0FFEEu;", -5, 0,
     0xFFFFFFFFu, 3, true},
};

class RangeTrap : public ::testing::TestWithParam<Trap> {};

// Unclamped, the out-of-bounds index reaches the access and the write leaves the array.
TEST_P(RangeTrap, Unclamped_OutOfBoundsIndexOccurs) {
  const Trap& t = GetParam();
  std::vector<std::vector<uint32_t>> out = test::RunComputeKernel(
      Compile(Kernel(t.body, t.prelude), false), {Input()}, {uint32_t(t.a), uint32_t(t.b)});
  ASSERT_EQ(out.size(), 1u);
  const std::vector<uint32_t>& data = out[0];
  EXPECT_EQ(data[kSeen], t.index) << "the trap's index reached the access";
  EXPECT_EQ(data[kValues + 7], 107u) << "not where a clamp would have put it";
  for (uint32_t i = 0; i < 8; ++i) {
    if (int(kValues + i) != t.hit) {
      EXPECT_EQ(data[kValues + i], 100 + i) << "values[" << i << "]";
    }
  }
  size_t marks = size_t(std::count(data.begin(), data.end(), kMark));
  if (!t.far || marks) {
    EXPECT_EQ(data[t.hit], kMark) << "the write landed on word " << t.hit;
    EXPECT_EQ(marks, 1u);
  }
}

// Clamped in full mode, no proof removes the trap's clamp: the write lands on values[7]
// and every guard word keeps its value.
TEST_P(RangeTrap, ClampedFullMode_Contained) {
  const Trap& t = GetParam();
  Report report;
  std::vector<uint32_t> words = Compile(Kernel(t.body, t.prelude), true, &report);
  for (const AccessRecord& record : report.accesses)
    EXPECT_NE(record.verdict, AccessVerdict::kProvenInBounds)
        << "line " << record.location.line << ": " << record.object << " proven in bounds";
  EXPECT_FALSE(report.accesses.empty());
  EXPECT_TRUE(std::any_of(report.accesses.begin(), report.accesses.end(), [](auto& r) {
    return r.verdict == AccessVerdict::kClamped;
  })) << "the trap's access keeps its clamp";
  std::vector<std::vector<uint32_t>> out =
      test::RunComputeKernel(words, {Input()}, {uint32_t(t.a), uint32_t(t.b)});
  ASSERT_EQ(out.size(), 1u);
  const std::vector<uint32_t>& data = out[0];
  EXPECT_EQ(data[kSeen], t.index) << "the same index reached the access";
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(data[i], kGuard) << "before[" << i << "]";
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(data[kAfter + i], kGuard) << "after[" << i << "]";
  EXPECT_EQ(data[kValues + 7], kMark) << "the clamp wrote values[7]";
  for (uint32_t i = 0; i < 7; ++i) EXPECT_EQ(data[kValues + i], 100 + i) << "values[" << i << "]";
}

INSTANTIATE_TEST_SUITE_P(Traps, RangeTrap, ::testing::ValuesIn(kTraps),
                         [](const auto& info) { return std::string(info.param.name); });

// The sound forms of the rules the traps above nearly match: full mode proves every
// dynamic index in bounds (no clamp is emitted), and the output is exactly glslang's
// unclamped output, in which the index reaches the access and the guard words stay.
struct Proof {
  const char* name;
  const char* body;
  int32_t a, b;
  uint32_t index;  // the last index the access sees (recorded in `seen`)
  const char* prelude = "";
};

void PrintTo(const Proof& p, std::ostream* out) { *out << p.name; }

const Proof kProofs[] = {
    {"CallResultBelowBound", "uint q = pick(uint(a), 8u);\nseen = q;\nvalues[q] = 0xC0FFEEu;", 20,
     0, 7, kPick},
    {"NarrowFits",
     "int q = a & 0x7F;\nint i = int(int8_t(q));\nif (i < 8) { seen = uint(i); values[i] = "
     "0xC0FFEEu; }",
     5, 0, 5, kInt8},
    {"SwitchCaseTarget",
     "uint s = uint(a);\nswitch (s) {\ncase 3u: case 7u: seen = s; values[s] = 0xC0FFEEu; break;\n"
     "default: break;\n}",
     7, 0, 7},
    {"SwitchDefaultMovesTheEnd",
     "uint s = uint(a) % 9u;\nswitch (s) {\ncase 8u: seen = 1u; break;\n"
     "default: seen = s; values[s] = 0xC0FFEEu; break;\n}",
     6, 0, 6},
    {"VectorAnyExit",
     "uvec2 v = uvec2(uint(a), uint(b));\nif (any(greaterThanEqual(v, uvec2(8u)))) return;\n"
     "seen = v.x;\nvalues[v.x] = 0xC0FFEEu;",
     6, 2, 6},
    {"VectorAllTested",
     "uvec2 v = uvec2(uint(a), uint(b));\nif (all(lessThan(v, uvec2(8u)))) {\n  seen = v.y;\n"
     "  values[v.y] = 0xC0FFEEu;\n}",
     0, 7, 7},
    {"LoopBodyBelowBound",
     "uint p = (uint(a) % 3u) + 1u;\nwhile (p < 8u) {\n  seen = p;\n  values[p] = 0xC0FFEEu;\n"
     "  p = p + p / 2u + 1u;\n}",
     2, 0, 5},
    {"OffsetNoWrap",
     "uint q = uint(a) & 15u;\nuint d = uint(b) & 7u;\nif (q + d < 8u) { seen = q; values[q] = "
     "0xC0FFEEu; }",
     3, 4, 3},
    {"OffsetKept",
     "uint q = uint(a) & 15u;\nuint d = 1u + (uint(b) & 1u);\nif (q + d < 8u) {\n  seen = q + d;\n"
     "  values[q + d] = 0xC0FFEEu;\n}",
     5, 1, 7},
    {"CounterWithinTrips",
     "int n = -1;\nfor (int i = 0; i < 2; ++i)\n  for (int j = 0; j < 4; ++j) {\n    n++;\n"
     "    if (n >= a) { seen = uint(n); values[n] = 0xC0FFEEu; }\n  }",
     5, 0, 7},
    // glslang loads the push constant again for each use; a test on one load holds for
    // the others (push constants do not change while the invocation runs).
    {"PushConstantTestedThenReloaded",
     "if (uint(a) < 8u) {\n  seen = uint(a);\n  values[uint(a)] = 0xC0FFEEu;\n}", 5, 0, 5},
    {"ExitCounterWithinTrips",
     "uint n = 0u;\nuint j = uint(a) & 1u;\nwhile (j < 8u) {\n  seen = n;\n"
     "  values[n] = 0xC0FFEEu;\n  n++;\n  j++;\n}",
     0, 0, 7},
    {"ReinterpretedExitCounterWithinTrips",
     "uint n = 0u;\nint j = int(uint(a) & 1u);\nwhile (uint(j) < 8u) {\n  seen = n;\n"
     "  values[n] = 0xC0FFEEu;\n  n++;\n  j++;\n}",
     0, 0, 7},
    {"TestedAfterUpdateWithinTheArray",
     "uint s = uint(a) & 1u;\nwhile (true) {\n  seen = s;\n  values[s] = 0xC0FFEEu;\n  s++;\n"
     "  if (s == 8u) break;\n}",
     0, 0, 7},
    {"ConstantTableInBounds",
     "const uint k[3] = uint[](1u, 7u, 4u);\nuint q = k[uint(a) % 3u];\nseen = q;\n"
     "values[q] = 0xC0FFEEu;",
     1, 0, 7},
    {"IndexedLocalInBounds",
     "uint m[2];\nm[0] = 2u;\nm[1] = uint(b) & 7u;\nuint q = m[uint(a) & 1u];\nseen = q;\n"
     "values[q] = 0xC0FFEEu;",
     1, 6, 6},
    {"CallerTestedPushConstant", "if (uint(a) < 8u) store();", 5, 0, 5, kStoreAtA},
    {"BitfieldInsertWithinTheArray",
     "uint q = bitfieldInsert(uint(a) & 1u, uint(b) & 3u, 1, 2);\nseen = q;\nvalues[q] = "
     "0xC0FFEEu;",
     1, 3, 7},
    {"CountedStepsWithinTheArray",
     "uint ix = 0u;\nfor (uint i = 0u; i < 4u; i++) {\n  uint p = ix + (4u >> i);\n"
     "  if (uint(a) != 99u) ix = p;\n}\nseen = ix;\nvalues[ix] = 0xC0FFEEu;",
     1, 0, 7},
    {"PrefixSumStepBackWithinTheArray",
     "uint x = uint(a) & 7u;\nfor (uint i = 0u; i < 3u; i++) {\n"
     "  if (x >= (1u << i)) { seen = x - (1u << i); values[x - (1u << i)] = 0xC0FFEEu; }\n}",
     7, 0, 3},
    {"PartPassedDownWithinTheArray", "relay(Part(uint(a) & 7u, 1u));", 6, 0, 6, kRelay},
    {"QuotientBound",
     "uint q = uint(a);\nif (q / 2u < 4u && (q >> 1u) < 4u) { seen = q; values[q] = 0xC0FFEEu; }",
     7, 0, 7},
    {"BoolLocalHoldsTheTest",
     "uint q = uint(a);\nbool ok = q < 8u && b == 0;\nif (ok) { seen = q; values[q] = 0xC0FFEEu; }",
     6, 0, 6},
    {"BoundTestedAboveTheLoop",
     "uint n = uint(a);\nif (n > 8u) return;\n"
     "for (uint i = 0u; i < n; i++) { seen = i; values[i] = 0xC0FFEEu; }",
     8, 0, 7},
    {"BoundTestedAboveATest",
     "uint n = uint(a);\nif (n > 8u) return;\nuint k = uint(b);\n"
     "if (k < n) { seen = k; values[k] = 0xC0FFEEu; }",
     8, 7, 7},
    {"CallResultOfThisCallsArgument",
     "if (b == 99) wide();\nuint q = twice(uint(a) & 3u);\nseen = q;\nvalues[q] = 0xC0FFEEu;", 3, 0,
     6, kTwice},
    {"VectorFieldsOfThisCallsCount",
     "if (b == 99) anyWidth();\nuint q = fields(uint(a), 3u).y;\nseen = q;\nvalues[q] = 0xC0FFEEu;",
     0x50, 0, 5, kFields},
    {"CounterTestedBeforeItsUses", "uint c = uint(a);\npush(c);\npush(c);", 0, 0, 7, kPush},
    // b = 10: the loop leaves z at 8, 2 are left, the last is 1.
    {"RemainderAfterAVectorizedLoop",
     "int z = 0;\nfor (; z + 3 < b; z += 4) {}\nint remain = b - z;\n"
     "if (remain > 0) { int last = remain - 1; seen = uint(last) + 4u; values[last + 4] = "
     "0xC0FFEEu; }",
     0, 10, 5},
    // Offset 31, 2 bits: bit 31 of values[0] (0), then bit 0 of b = 3 above it: 2, + 4.
    {"FieldOfArgumentsThatDecideTheBranch",
     "uint q = field(uvec2(values[0], uint(b)), 30u + uint(a & 1), 2u) + 4u;\nseen = q;\n"
     "values[q] = 0xC0FFEEu;",
     1, 3, 6, kField},
    {"RemainderByHandWithinTheArray",
     "uint x = uint(a);\nuint r = x - 8u * (x / 8u);\nseen = r;\nvalues[r] = 0xC0FFEEu;", 13, 0, 5},
    // -3 >> 3 is -1 (arithmetic), -1 << 3 is -8: -3 - -8 = 5, x's low three bits.
    {"ShiftRemainderOfANegativeValue",
     "int y = a;\nint r = y - ((y >> 3) << 3);\nseen = uint(r);\nvalues[r] = 0xC0FFEEu;", -3, 0, 5},
    {"SignedRemainderOfANonNegativeValue",
     "int y = a & 0xFFFF;\nint r = y - (y / 8) * 8;\nseen = uint(r);\nvalues[r] = 0xC0FFEEu;", 15,
     0, 7},
};

class RangeProof : public ::testing::TestWithParam<Proof> {};

TEST_P(RangeProof, ProvenFullMode_SameOutputAsUnclamped) {
  const Proof& p = GetParam();
  const std::string glsl = Kernel(p.body, p.prelude);
  Report report;
  std::vector<uint32_t> words = Compile(glsl, true, &report);
  size_t proven = 0;
  for (const AccessRecord& record : report.accesses) {
    EXPECT_NE(record.verdict, AccessVerdict::kClamped)
        << "line " << record.location.line << ": " << record.object << " still clamped";
    proven += record.verdict == AccessVerdict::kProvenInBounds;
  }
  // The access to values, and the index into a table or local that computes its index.
  EXPECT_GE(proven, 1u) << "the access to values is proven";
  const std::vector<uint32_t> push = {uint32_t(p.a), uint32_t(p.b)};
  std::vector<std::vector<uint32_t>> plain =
      test::RunComputeKernel(Compile(glsl, false), {Input()}, push);
  std::vector<std::vector<uint32_t>> out = test::RunComputeKernel(words, {Input()}, push);
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(out, plain);
  const std::vector<uint32_t>& data = plain[0];
  EXPECT_EQ(data[kSeen], p.index);
  EXPECT_EQ(data[kValues + p.index], kMark);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(data[i], kGuard) << "before[" << i << "]";
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(data[kAfter + i], kGuard) << "after[" << i << "]";
}

INSTANTIATE_TEST_SUITE_P(SoundForms, RangeProof, ::testing::ValuesIn(kProofs),
                         [](const auto& info) { return std::string(info.param.name); });

// `<=` against a run-time length: index length passes. The array fills its binding, so
// unclamped the write goes past the binding's end (dropped by robustBufferAccess: no
// element gets it); clamped, OpArrayLength - 1 gets it.
const char kLengthLessEqual[] = R"(#version 440
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Rt { uint arr[]; };
layout(std430, binding = 1) buffer Out { uint seen; uint length_seen; };
layout(push_constant) uniform P { int a; int b; };
void main() {
  uint q = uint(arr.length()) - 1u + uint(a);
  length_seen = uint(arr.length());
  if (q <= uint(arr.length())) { seen = q; arr[q] = 0xC0FFEEu; }
}
)";

TEST(RangeTrapLength, LessEqualLength_OccursUnclampedAndIsContainedClamped) {
  const std::vector<uint32_t> values = {100, 101, 102, 103, 104, 105, 106, 107};
  std::vector<std::vector<uint32_t>> plain =
      test::RunComputeKernel(Compile(kLengthLessEqual, false), {values, {0, 0}}, {1, 0});
  ASSERT_EQ(plain.size(), 2u);
  EXPECT_EQ(plain[1][1], 8u) << "length";
  EXPECT_EQ(plain[1][0], 8u) << "index length reached the access";
  EXPECT_EQ(plain[0], values) << "the write left the array";

  Report report;
  std::vector<uint32_t> words = Compile(kLengthLessEqual, true, &report);
  for (const AccessRecord& record : report.accesses)
    EXPECT_NE(record.verdict, AccessVerdict::kProvenInBounds) << record.object;
  std::vector<std::vector<uint32_t>> clamped =
      test::RunComputeKernel(words, {values, {0, 0}}, {1, 0});
  ASSERT_EQ(clamped.size(), 2u);
  EXPECT_EQ(clamped[1][0], 8u);
  std::vector<uint32_t> expected = values;
  expected[7] = kMark;
  EXPECT_EQ(clamped[0], expected);
}

// --max-workgroups: tile[4] by the workgroup id, wide[8] by the global id (2 per group).
const char kDispatch[] = R"(#version 440
layout(local_size_x = 2) in;
layout(std430, binding = 0) buffer Data { uint tile[4]; uint wide[8]; uint after[4]; };
void main() {
  tile[gl_WorkGroupID.x] = gl_WorkGroupID.x + 1u;
  wide[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x + 10u;
}
)";

std::vector<uint32_t> DispatchInput() { return std::vector<uint32_t>(16, kGuard); }

size_t CountProven(const Report& report) {
  return size_t(std::count_if(report.accesses.begin(), report.accesses.end(),
                              [](auto& r) { return r.verdict == AccessVerdict::kProvenInBounds; }));
}

// The promise kept (4 groups promised, 4 dispatched): both accesses are proven, no
// clamp is emitted, and the output is exactly the unclamped one.
TEST(MaxWorkgroupsExecution, PromiseKept_ProvenAndSameOutputAsUnclamped) {
  Report report;
  std::vector<uint32_t> words = Compile(kDispatch, true, &report, {4, 1, 1});
  EXPECT_EQ(CountProven(report), 2u);
  std::vector<std::vector<uint32_t>> plain =
      test::RunComputeKernel(Compile(kDispatch, false), {DispatchInput()}, {}, {4, 1, 1});
  std::vector<std::vector<uint32_t>> proven =
      test::RunComputeKernel(words, {DispatchInput()}, {}, {4, 1, 1});
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(proven, plain);
  std::vector<uint32_t> expected = {1,  2,  3,  4,  10,     11,     12,     13,
                                    14, 15, 16, 17, kGuard, kGuard, kGuard, kGuard};
  EXPECT_EQ(plain[0], expected);
}

// One group more than the promise covers: unclamped, group 4 writes tile[4] (wide[0])
// and wide[8..9] (after[0..1]); with a promise of 5 (one too large for tile[4]) nothing
// is proven, every clamp stays and the same dispatch stays inside both arrays.
TEST(MaxWorkgroupsExecution, PromiseOffByOne_StaysClampedAndContained) {
  std::vector<std::vector<uint32_t>> plain =
      test::RunComputeKernel(Compile(kDispatch, false), {DispatchInput()}, {}, {5, 1, 1});
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0][12], 18u) << "wide[8] is after[0]: the index occurs unclamped";
  EXPECT_EQ(plain[0][13], 19u) << "wide[9] is after[1]";

  Report report;
  std::vector<uint32_t> words = Compile(kDispatch, true, &report, {5, 1, 1});
  EXPECT_EQ(CountProven(report), 0u);
  std::vector<std::vector<uint32_t>> clamped =
      test::RunComputeKernel(words, {DispatchInput()}, {}, {5, 1, 1});
  ASSERT_EQ(clamped.size(), 1u);
  for (size_t i = 12; i < 16; ++i) EXPECT_EQ(clamped[0][i], kGuard) << "after[" << i - 12 << "]";
  EXPECT_EQ(clamped[0][0], 1u);
  EXPECT_TRUE(clamped[0][3] == 4u || clamped[0][3] == 5u) << "tile[3] by group 3 or 4 (clamped)";
  EXPECT_TRUE(clamped[0][11] == 17u || clamped[0][11] == 18u || clamped[0][11] == 19u)
      << "wide[7] by invocation 7, 8 or 9 (clamped)";
}

// An index the analysis proves out of bounds (analysis/access/out_of_bounds_witness.h): the
// report names an invocation of every workgroup and the index it computes. On the
// device, unclamped, that invocation computes that index (each records its own) and
// writes past the array onto the guard words after it; clamped, the guards stay.
// i = x / 2 + 4y + 4(x & 1) over 8 x 2 invocations: at most 8 for y = 0; for y = 1,
// x = 0..5 give 4, 8, 5, 9, 6, 10: (5, 1, 0) is the first past tile[9], then (7, 1, 0)
// with 11.
const char kWitnessed[] = R"(#version 450
layout(local_size_x = 8, local_size_y = 2) in;
layout(std430, binding = 0) buffer Data { uint seen[16]; uint tile[10]; uint after[6]; };
void main() {
  uint x = gl_LocalInvocationID.x;
  uint i = (x >> 1u) + gl_LocalInvocationID.y * 4u + (x & 1u) * 4u;
  seen[gl_LocalInvocationIndex] = i;
  tile[i] = 0xC0FFEEu;
}
)";

TEST(OutOfBoundsWitness, WitnessComputesItsIndexOnTheDevice) {
  Report report;
  std::vector<uint32_t> words = Compile(kWitnessed, true, &report);
  const AccessRecord* tile = nullptr;
  for (const AccessRecord& record : report.accesses)
    if (record.limit == 9) tile = &record;
  ASSERT_NE(tile, nullptr);
  ASSERT_TRUE(tile->out_of_bounds) << "the witness is found";
  EXPECT_EQ(tile->verdict, AccessVerdict::kClamped);
  EXPECT_EQ(tile->witness_invocation, (std::array<uint32_t, 3>{5, 1, 0}));
  EXPECT_EQ(tile->witness_value, 10);
  for (const AccessRecord& record : report.accesses) {
    if (&record != tile) {
      EXPECT_FALSE(record.out_of_bounds) << "seen[] is in bounds";
    }
  }

  std::vector<uint32_t> input(32, kGuard);
  std::vector<std::vector<uint32_t>> plain =
      test::RunComputeKernel(Compile(kWitnessed, false), {input}, {});
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0][5 + 8 * 1], 10u) << "the device computed 10 at invocation (5, 1, 0)";
  EXPECT_EQ(plain[0][26], kMark) << "unclamped, tile[10] is after[0]";
  EXPECT_EQ(plain[0][27], kMark) << "and tile[11] (invocation (7, 1, 0)) after[1]";

  std::vector<std::vector<uint32_t>> clamped = test::RunComputeKernel(words, {input}, {});
  ASSERT_EQ(clamped.size(), 1u);
  for (size_t i = 26; i < 32; ++i) EXPECT_EQ(clamped[0][i], kGuard) << "after[" << i - 26 << "]";
  EXPECT_EQ(clamped[0][25], kMark) << "clamped, tile[9] took the write";
}

// An array sized by a specialization constant (integer_range_spec_lengths.cpp), run at
// two specializations of constant 0, which sizes both the workgroup and the arrays. The
// sound forms (each invocation's own element of a shared array; a loop from it tested
// against the length, into the buffer's array) are proven for every value, so Glint's
// module is glslang's, and it computes the same on the device at either size. The trap
// tests `<=`: unclamped, invocation 0 writes values[BLOCK], the guard word after the
// array; clamped, the write lands on values[BLOCK - 1] and every guard word stays.
// Data: before[4], then values[BLOCK] (the buffer holds 24 words: 16 past it are guard).

constexpr size_t kSpecBufferWords = 24;

// Glint's module for `glsl` (robust access, full mode): every index whose limit is set by
// a specialization constant is proven, `expected` of them (`what` names them), so the
// module is glslang's own.
std::vector<uint32_t> ProvenSpecModule(const std::string& glsl, size_t expected, const char* what) {
  Report report;
  std::vector<uint32_t> words = Compile(glsl, true, &report);
  size_t proven = 0;
  for (const AccessRecord& record : report.accesses) {
    if (record.limit_kind != AccessLimit::kSpecializationConstant) continue;
    EXPECT_EQ(record.verdict, AccessVerdict::kProvenInBounds)
        << "line " << record.location.line << ": " << record.object;
    proven += record.verdict == AccessVerdict::kProvenInBounds;
  }
  EXPECT_EQ(proven, expected) << what;
  EXPECT_EQ(words, Compile(glsl, false)) << "nothing clamped: glslang's module";
  return words;
}

// Glint's module for a near-miss: `expected` of Data's indices stay clamped.
std::vector<uint32_t> ClampedSpecModule(const std::string& glsl, size_t expected,
                                        const char* what) {
  Report report;
  std::vector<uint32_t> words = Compile(glsl, true, &report);
  size_t clamped = 0;
  for (const AccessRecord& record : report.accesses)
    clamped += record.object == "Data" && record.verdict == AccessVerdict::kClamped;
  EXPECT_EQ(clamped, expected) << what;
  return words;
}

// Data after one workgroup of `words` ran with BLOCK (constant 0) = `block`.
std::vector<uint32_t> RunAtBlock(const std::vector<uint32_t>& words,
                                 const std::vector<uint32_t>& input, uint32_t block);

// A near-miss at BLOCK = `block`: glslang's module writes `written` into values[BLOCK],
// the first guard word after the array; Glint's clamped `words` leave every guard word
// after the array, and before[3], as they were.
void ExpectOutOfBoundsAndContained(const std::string& glsl, const std::vector<uint32_t>& words,
                                   const std::vector<uint32_t>& input, uint32_t block,
                                   uint32_t written) {
  std::vector<uint32_t> plain = RunAtBlock(Compile(glsl, false), input, block);
  ASSERT_EQ(plain.size(), kSpecBufferWords);
  EXPECT_EQ(plain[4 + block], written) << "unclamped, values[BLOCK] is written";
  std::vector<uint32_t> out = RunAtBlock(words, input, block);
  ASSERT_EQ(out.size(), kSpecBufferWords);
  for (uint32_t w = 4 + block; w < kSpecBufferWords; ++w)
    EXPECT_EQ(out[w], input[w]) << "clamped, guard word " << w << " stays";
  EXPECT_EQ(out[3], input[3]) << "before[3]";
}

std::vector<uint32_t> RunAtBlock(const std::vector<uint32_t>& words,
                                 const std::vector<uint32_t>& input, uint32_t block) {
  std::vector<std::vector<uint32_t>> out =
      test::RunComputeKernel(words, {input}, {}, {1, 1, 1}, {{0, block}});
  EXPECT_EQ(out.size(), 1u);
  return out.empty() ? std::vector<uint32_t>() : out[0];
}

TEST(SpecializedLengthExecution, ProvenForEverySpecialization_SameModuleAndOutput) {
  const std::vector<uint32_t> words = ProvenSpecModule(
      test::SpecSizedKernel("i < BLOCK"), 3, "tmp[tid], values[i], and the store of tmp[tid]");
  for (uint32_t block : {8u, 16u}) {
    SCOPED_TRACE("BLOCK " + std::to_string(block));
    std::vector<uint32_t> out =
        RunAtBlock(words, std::vector<uint32_t>(kSpecBufferWords, kGuard), block);
    ASSERT_EQ(out.size(), kSpecBufferWords);
    for (uint32_t w = 0; w < kSpecBufferWords; ++w) {
      bool element = w >= 4 && w < 4 + block;
      uint32_t i = w - 4;
      EXPECT_EQ(out[w], element ? 3u * i + 1u + 100u * i : kGuard) << "word " << w;
    }
  }
}

TEST(SpecializedLengthExecution, TrapLessEqual_OccursUnclampedAndIsContainedClamped) {
  const std::string glsl = test::SpecSizedKernel("i <= BLOCK");
  const std::vector<uint32_t> words = ClampedSpecModule(glsl, 1, "values[i] stays clamped");
  for (uint32_t block : {8u, 16u}) {
    SCOPED_TRACE("BLOCK " + std::to_string(block));
    // Invocation 0 reaches i = BLOCK: tmp[0] + 100 * BLOCK lands after the array.
    ExpectOutOfBoundsAndContained(glsl, words, std::vector<uint32_t>(kSpecBufferWords, kGuard),
                                  block, 1u + 100u * block);
  }
}

// The tree of halving steps (test::SpecSizedReduction), at the same two
// specializations: `tid < s` with s at most BLOCK / 2 keeps tid + s below BLOCK, so
// Glint's module is glslang's; the near-miss `tid <= s` reaches values[BLOCK] at the
// first step (tid = s = BLOCK / 2), the guard word after the array, unclamped, and
// values[BLOCK - 1] clamped.
TEST(SpecializedLengthExecution, HalvedStepsProvenForEverySpecialization_SameModuleAndOutput) {
  const std::vector<uint32_t> words = ProvenSpecModule(
      test::SpecSizedReduction("<"), 3, "values[tid], and values[tid + s] read and written");
  for (uint32_t block : {8u, 16u}) {
    SCOPED_TRACE("BLOCK " + std::to_string(block));
    std::vector<uint32_t> out =
        RunAtBlock(words, std::vector<uint32_t>(kSpecBufferWords, kGuard), block);
    ASSERT_EQ(out.size(), kSpecBufferWords);
    for (uint32_t w = 0; w < kSpecBufferWords; ++w) {
      bool element = w >= 4 && w < 4 + block;
      uint32_t i = w - 4;
      EXPECT_EQ(out[w], !element ? kGuard : i == 0 ? 1u : i + 1u + 1000u) << "word " << w;
    }
  }
}

TEST(SpecializedLengthExecution, TrapHalvedStepLessEqual_OccursUnclampedAndIsContainedClamped) {
  const std::string glsl = test::SpecSizedReduction("<=");
  const std::vector<uint32_t> words =
      ClampedSpecModule(glsl, 2, "values[tid + s], read and written, stays clamped");
  for (uint32_t block : {8u, 16u}) {
    SCOPED_TRACE("BLOCK " + std::to_string(block));
    ExpectOutOfBoundsAndContained(glsl, words, std::vector<uint32_t>(kSpecBufferWords, kGuard),
                                  block, kGuard + 1000u);
  }
}

// A helper's count at most the length at every call (test::SpecSizedRows), at two
// specializations and both calls: BLOCK itself, and the rest of a run of BLOCK
// (stride - first = BLOCK - 1). The near-miss, a run of 2 * BLOCK, gives the helper
// BLOCK + 3: unclamped it writes three guard words after the array, clamped none.
TEST(SpecializedLengthExecution, CountAtMostTheLengthProvenForEverySpecialization) {
  const std::vector<uint32_t> words =
      ProvenSpecModule(test::SpecSizedRows("first + BLOCK <= stride"), 1, "values[n]");
  for (uint32_t block : {8u, 16u}) {
    for (uint32_t first : {0u, 5u}) {
      SCOPED_TRACE("BLOCK " + std::to_string(block) + ", first " + std::to_string(first));
      // first 0: the whole run (BLOCK); first 5: the rest, BLOCK - 1.
      const uint32_t stride = first == 0 ? block + 3u : first + block - 1u;
      const uint32_t count = first == 0 ? block : block - 1u;
      std::vector<uint32_t> input(kSpecBufferWords, kGuard);
      input[0] = first;
      input[1] = stride;
      std::vector<uint32_t> out = RunAtBlock(words, input, block);
      ASSERT_EQ(out.size(), kSpecBufferWords);
      for (uint32_t w = 4; w < kSpecBufferWords; ++w) {
        const uint32_t n = w - 4;
        EXPECT_EQ(out[w], n < count ? 7u + n : kGuard) << "word " << w;
      }
    }
  }
}

TEST(SpecializedLengthExecution, TrapCountOfALongerRun_OccursUnclampedAndIsContainedClamped) {
  const std::string glsl = test::SpecSizedRows("first + 2u * BLOCK <= stride");
  const std::vector<uint32_t> words = ClampedSpecModule(glsl, 1, "values[n] stays clamped");
  for (uint32_t block : {8u, 16u}) {
    SCOPED_TRACE("BLOCK " + std::to_string(block));
    std::vector<uint32_t> input(kSpecBufferWords, kGuard);
    input[0] = 0;
    input[1] = block + 3u;  // below 2 * BLOCK: the rest, BLOCK + 3, is written
    ExpectOutOfBoundsAndContained(glsl, words, input, block, 7u + block);
  }
}

}  // namespace
}  // namespace glint
