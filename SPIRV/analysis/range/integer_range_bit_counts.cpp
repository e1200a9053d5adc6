// Bit counts and bit positions (full mode): OpBitCount, GLSL.std.450 FindILsb, FindUMsb
// and FindSMsb, and OpGroupNonUniformBallotBitCount, for a scalar 32-bit result.
//
// What it proves, with x's range r (when x has one) and BitLength(v) the number of bits
// of v >= 0 (0 for 0):
//   bitCount(x), x of w bits      [0, w]; when r >= 0, at most BitLength(r.max); at
//                                 least 1 when r excludes 0.
//   findLSB(x) (FindILsb)         -1 for 0, else the lowest set bit: [-1, 31]; at least
//                                 0 when r excludes 0; at most BitLength(r.max) - 1 when
//                                 r >= 0.
//   findMSB(uint) (FindUMsb)      -1 for 0, else BitLength(x) - 1 (x as u32):
//                                 [BitLength(u.min) - 1, BitLength(u.max) - 1] with u =
//                                 r as u32; [-1, 31] when r does not convert.
//   findMSB(int) (FindSMsb)       the highest bit that differs from the sign bit, -1 for
//                                 0 and -1: f(v) = BitLength(v) - 1 for v >= 0 and
//                                 BitLength(-v - 1) - 1 for v < 0; over s = r as i32,
//                                 [f(s.min), f(s.max)] when s >= 0, [f(s.max), f(s.min)]
//                                 when s < 0, else [-1, max(f(s.min), f(s.max))];
//                                 [-1, 30] when r does not convert.
//   subgroupBallotBitCount and    the set bits among the first SubgroupSize bits of a
//   its scans                     128-bit ballot: [0, S] for Reduce and InclusiveScan,
//                                 [0, S - 1] for ExclusiveScan (only bits below the
//                                 invocation's id, which is below S), where S is the
//                                 promised subgroup size (--subgroup-size) or else 128.
// The result is then converted to the instruction's result type by the reference rule
// (so a possible -1 gives a u32 result no range, naming the conversion).
//
// Why: a value v with 0 <= v <= M has no set bit at or above BitLength(M), so at most
// BitLength(M) set bits, its lowest set bit (if any) is at most its highest, and its
// highest is BitLength(v) - 1 <= BitLength(M) - 1; BitLength is non-decreasing, which
// gives FindUMsb's lower end too. A non-zero value has a set bit, so bitCount >= 1 and
// findLSB >= 0. For FindSMsb, a negative v's highest bit differing from its sign bit is
// the highest set bit of ~v = -v - 1 >= 0; f is non-decreasing on v >= 0 and
// non-increasing on v < 0, and f(-1) = f(0) = -1 is its least value, so the hulls above
// hold. A ballot is four 32-bit words (128 bits) of which only the first SubgroupSize
// bits count, so no count exceeds S, whatever the device (S = 128) or under the user's
// promise. x without a range leaves only the width bounds, which hold for every value.
//
// Refuses (no range, naming why): a bit count of a value that is not an integer (invalid
// SPIR-V), a ballot count with another group operation, and reference mode, which has
// no rule for these (its reasons are unchanged: "OpBitCount is not supported").
#include "SPIRV/analysis/range/integer_range_bit_counts.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include <algorithm>

#include <spirv/unified1/GLSL.std.450.h>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

namespace {

// The number of bits of `value` (>= 0) up to its highest set bit; 0 for 0.
int64_t BitLength(int64_t value) {
  int64_t bits = 0;
  for (; value > 0; value >>= 1) ++bits;
  return bits;
}

// FindSMsb of one value: the highest bit that differs from the sign bit, -1 for 0 and -1.
int64_t SignedMsb(int64_t value) { return BitLength(value >= 0 ? value : -value - 1) - 1; }

bool ExcludesZero(const IntegerRange& range) { return range.min > 0 || range.max < 0; }

}  // namespace

IntegerRange BitCountRule::BitCount(const Instruction& def, bool is_signed) const {
  uint32_t base = UnaryOpView(def).operand();
  const Instruction* base_def = inputs_.def_use.Definition(base);
  bool base_signed = false;
  uint32_t width = 0;
  if (!base_def || !rules_.widths.IntWidth(base_def->type_id, &base_signed, &width))
    return IntegerRange::None("bit count of a value that is not a scalar integer");
  IntegerRange x = width <= 32 ? Operand(base) : IntegerRange::None("");
  int64_t lo = x.valid && ExcludesZero(x) ? 1 : 0;
  int64_t hi = x.valid && x.min >= 0 ? BitLength(x.max) : int64_t(width);
  return Convert(IntegerRange::Of(true, lo, hi), is_signed);
}

IntegerRange BitCountRule::BitPosition(uint32_t instruction, uint32_t x_id, bool is_signed) const {
  IntegerRange x = Operand(x_id);
  int64_t lo = -1, hi = 31;
  if (instruction == GLSLstd450FindILsb) {
    if (x.valid && ExcludesZero(x)) lo = 0;
    if (x.valid && x.min >= 0) hi = BitLength(x.max) - 1;
  } else if (instruction == GLSLstd450FindUMsb) {
    IntegerRange u = Convert(x, false);
    if (u.valid) lo = BitLength(u.min) - 1, hi = BitLength(u.max) - 1;
  } else {  // FindSMsb
    IntegerRange s = Convert(x, true);
    hi = 30;
    if (s.valid && s.min >= 0) {
      lo = SignedMsb(s.min), hi = SignedMsb(s.max);
    } else if (s.valid && s.max < 0) {
      lo = SignedMsb(s.max), hi = SignedMsb(s.min);
    } else if (s.valid) {
      hi = std::max(SignedMsb(s.min), SignedMsb(s.max));
    }
  }
  return Convert(IntegerRange::Of(true, lo, hi), is_signed);
}

IntegerRange BitCountRule::BallotBitCount(const Instruction& def, bool is_signed) const {
  int64_t size = options_.subgroup_size ? int64_t(options_.subgroup_size) : 128;
  switch (GroupOperationView(def).operation()) {
    case spv::GroupOperationReduce:
    case spv::GroupOperationInclusiveScan:
      return Checked(is_signed, 0, size, "ballot bit count");
    case spv::GroupOperationExclusiveScan:
      return Checked(is_signed, 0, size - 1, "ballot bit count");
    default:
      return IntegerRange::None(
          "ballot bit count with a group operation other than a reduce "
          "or scan");
  }
}

void BitCountRule::Register(Table& table) {
  table[size_t(ValueKind::kBitCount)] = this;
  table[size_t(ValueKind::kBallotBitCount)] = this;
}

DependencyIds BitCountRule::Dependencies(const Instruction& def, ValueKind kind) {
  if (kind == ValueKind::kBitCount) return {UnaryOpView(def).operand()};
  return {};
}

IntegerRange BitCountRule::Range(const Instruction& def, ValueKind kind, bool is_signed) {
  return kind == ValueKind::kBitCount ? BitCount(def, is_signed) : BallotBitCount(def, is_signed);
}

}  // namespace glint::spirv
