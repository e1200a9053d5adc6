// Internal to the integer range analysis (not a public header): what every rule of the
// range analysis shares, and the base class its rules derive from.
//
// RangeShared holds the structure the rules read and never the rules themselves: the
// analysis context's facts (RangeInputs), the options, the parts that say what values
// stand for and never ask for a range (canonical values, value origins, local
// definitions), the memo of computed ranges, what is in progress, and the operand
// substitutions of a re-evaluation. The evaluator (integer_range_evaluator.h) owns it.
//
// A rule is a RangePart: it reads the shared structure through the members below
// (named as the rules have always named them), asks the evaluator for the range of
// another value (RangeOf: computed on demand; Operand: a dependency that the
// evaluator computed first, see RangeRule::Dependencies), and asks another rule by
// name through `rules_` (range_rules.h), so every question one rule asks another is
// visible where it is asked.
#ifndef GLINT_SPIRV_ANALYSIS_RANGE_PART_H
#define GLINT_SPIRV_ANALYSIS_RANGE_PART_H

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "SPIRV/analysis/facts/range_math.h"
#include "SPIRV/analysis/range/canonical_values.h"
#include "SPIRV/analysis/range/integer_range_memo.h"
#include "SPIRV/analysis/range/integer_range_nesting.h"
#include "SPIRV/analysis/range/integer_range_origins.h"
#include "SPIRV/analysis/range/local_definitions.h"
#include "SPIRV/analysis/range/range_types.h"
#include "SPIRV/ir/grammar.h"

namespace glint::spirv {

namespace range_detail {

using range_math::kI32Max;
using range_math::kI32Min;
using range_math::kU32Max;
using range_math::TypeMax;
using range_math::TypeMin;

inline bool Fits(int64_t value, bool is_signed) {
  return value >= TypeMin(is_signed) && value <= TypeMax(is_signed);
}
inline const char* TypeName(bool is_signed) { return is_signed ? "i32" : "u32"; }

// [lo, hi] in the given type, or no range naming the operation that overflowed.
inline IntegerRange Checked(bool is_signed, int64_t lo, int64_t hi, const std::string& operation) {
  if (!Fits(lo, is_signed) || !Fits(hi, is_signed))
    return IntegerRange::None(std::string(TypeName(is_signed)) + " " + operation + " may overflow");
  return IntegerRange::Of(is_signed, lo, hi);
}

// The reference conversion rules: u32(x) needs x.min >= 0, i32(x) needs x.max <= 2^31-1.
inline IntegerRange Convert(const IntegerRange& range, bool to_signed) {
  if (!range.valid || range.is_signed == to_signed) return range;
  if (to_signed && range.max > kI32Max)
    return IntegerRange::None("conversion to i32 of a u32 value that may exceed 2147483647");
  if (!to_signed && range.min < 0)
    return IntegerRange::None("conversion to u32 of a possibly negative i32 value");
  return IntegerRange::Of(to_signed, range.min, range.max);
}

// The same for a range about to be dropped: its reason moves instead of being copied
// (Convert is asked of nearly every operand, and most reasons are longer than a
// string holds in place).
inline IntegerRange Convert(IntegerRange&& range, bool to_signed) {
  if (!range.valid || range.is_signed == to_signed) return std::move(range);
  return Convert(static_cast<const IntegerRange&>(range), to_signed);
}

inline IntegerRange FullDomain(bool is_signed) {
  return IntegerRange::Of(is_signed, TypeMin(is_signed), TypeMax(is_signed));
}

// The same bits in the other reading, exactly: a range within one half of the type keeps
// its values or moves by 2^32 (u32 4294967292 is i32 -4); one across the half's edge
// reads as two pieces, whose hull is the whole domain. For values whose bits are what
// matters (a counter compared through a reinterpretation), not for the reference rules.
inline IntegerRange Reinterpret(const IntegerRange& range, bool to_signed) {
  if (!range.valid || range.is_signed == to_signed) return range;
  const int64_t half = kI32Max + 1, wrap = kU32Max + 1;
  if (range.min >= 0 && range.max < half) return IntegerRange::Of(to_signed, range.min, range.max);
  if (to_signed && range.min >= half)
    return IntegerRange::Of(true, range.min - wrap, range.max - wrap);
  if (!to_signed && range.max < 0)
    return IntegerRange::Of(false, range.min + wrap, range.max + wrap);
  return FullDomain(to_signed);
}

// a * b for 0 <= a, b <= 2^32, or -1 when the product leaves the u32 range.
inline int64_t BoundedProduct(int64_t a, int64_t b) {
  if (a != 0 && b > (kU32Max + 1) / a) return -1;
  return a * b;
}

// The smallest range holding `so_far` (when valid) and `next` (valid), both in
// `is_signed`'s reading: the union of the values a load, a call or a phi may give.
inline IntegerRange Hull(const IntegerRange& so_far, const IntegerRange& next, bool is_signed) {
  if (!so_far.valid) return next;
  return IntegerRange::Of(is_signed, std::min(so_far.min, next.min),
                          std::max(so_far.max, next.max));
}

// What two sound ranges of one value both allow, in `is_signed`'s reading: `kept` itself
// (its guard and reason with it) when `other` has no range or narrows nothing, and also
// when the two do not meet: disjoint sound ranges say the value is never computed, where
// any range holds, and `kept` already names its cause.
inline IntegerRange Meet(const IntegerRange& kept, const IntegerRange& other, bool is_signed) {
  if (!other.valid) return kept;
  if (!kept.valid) return other;
  int64_t low = std::max(kept.min, other.min), high = std::min(kept.max, other.max);
  if (low > high || (low == kept.min && high == kept.max)) return kept;
  return IntegerRange::Of(is_signed, low, high);
}

// clamp(x, lo, hi) whose bound `lo` or `hi` has no range: the first such bound's reason.
inline IntegerRange ClampBoundsWithoutRange(const IntegerRange& lo, const IntegerRange& hi) {
  return IntegerRange::None("clamp bounds have no range: " + (lo.valid ? hi : lo).reason);
}

// What reference mode says about opcodes it has no rule for.
std::string UnsupportedOpcode(spv::Op opcode);

}  // namespace range_detail

using range_detail::UnsupportedOpcode;

class RangeEvaluator;
struct RangeRules;

// What the rules share (see the file comment). Member order is construction order.
struct RangeShared {
  RangeShared(Module& module, const RangeInputs& inputs, const IntegerRangeOptions& options,
              const NestedEvaluations::Budgets& budgets)
      : module(module),
        inputs(inputs),
        options(options),
        // The members, not the arguments: the parts keep references to what they get.
        canonical(this->module, this->inputs, this->options.mode == RangeAnalysisMode::kFull),
        origins(this->inputs.def_use, canonical),
        local_definitions(this->inputs.def_use, this->inputs.builtins,
                          this->options.mode == RangeAnalysisMode::kFull, canonical, origins),
        in_progress(budgets) {}

  Module& module;
  // The analysis context's facts: def-use, built-ins, calls, parameter arguments, loop
  // shapes, CFGs and value flow (range_types.h).
  const RangeInputs inputs;
  const IntegerRangeOptions options;
  // What values stand for (canonical_values.h): structure only, never ranges.
  CanonicalValues canonical;
  // Where values without a range were read from (integer_range_origins.h): texts only.
  ValueOrigins origins;
  // What loads of locals may read (local_definitions.h): structure only, never ranges.
  LocalDefinitionsAnalysis local_definitions;
  // The range of every value computed so far (integer_range_memo.h).
  IntegerRangeMemo memo;
  // What is in progress (integer_range_nesting.h): a guard read while widening a
  // loop-carried local may ask again for a value whose range is being computed (RangeOf
  // then refuses it), a fixed point may meet its own local, a call result its own callee.
  NestedEvaluations in_progress;
  // Operand ranges of a re-evaluation (at a use, or under a fixed point's iterate),
  // read before the memo (Operand()).
  OperandSubstitutions<IntegerRange> substituted;
};

class RangePart {
 public:
  RangePart(RangeShared& shared, RangeEvaluator& evaluator, RangeRules& rules)
      : module_(shared.module),
        inputs_(shared.inputs),
        options_(shared.options),
        canonical_(shared.canonical),
        origins_(shared.origins),
        local_definitions_(shared.local_definitions),
        memo_(shared.memo),
        in_progress_(shared.in_progress),
        substituted_(shared.substituted),
        evaluator_(evaluator),
        rules_(rules) {}
  RangePart(const RangePart&) = delete;
  RangePart& operator=(const RangePart&) = delete;

  // Budgets that several rules share: how deep calls are followed, how many loop-carried
  // widenings nest, how many call sites have their guards read.
  static constexpr int kMaxCallDepth = 8;
  static constexpr int kMaxWideningDepth = 8;
  static constexpr size_t kMaxGuardedCallSites = 64;

 protected:
  // The range of `id`, computed now if it is not memoized (the evaluator's RangeOf).
  IntegerRange RangeOf(uint32_t id);
  // The range of `id`, a dependency of the value being computed: the re-evaluation's
  // substitute when one is open, else the memo's.
  IntegerRange Operand(uint32_t id) const {
    if (const IntegerRange* substitute = substituted_.Find(id)) return *substitute;
    std::optional<IntegerRange> found = memo_.Find(id);
    if (!found) return IntegerRange::None("cyclic definition of %" + std::to_string(id));
    return std::move(*found);
  }
  bool Full() const { return options_.mode == RangeAnalysisMode::kFull; }
  uint32_t Canonical(uint32_t id) { return canonical_.Canonical(id); }
  bool IsScalarInt(uint32_t id, bool* is_signed) { return canonical_.IsScalarInt(id, is_signed); }
  std::string NotInReference(spv::Op opcode) const {
    return UnsupportedOpcode(opcode) + " in reference mode";
  }

  Module& module_;
  const RangeInputs& inputs_;
  const IntegerRangeOptions& options_;
  CanonicalValues& canonical_;
  ValueOrigins& origins_;
  LocalDefinitionsAnalysis& local_definitions_;
  const IntegerRangeMemo& memo_;
  NestedEvaluations& in_progress_;
  OperandSubstitutions<IntegerRange>& substituted_;
  RangeEvaluator& evaluator_;
  RangeRules& rules_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_RANGE_PART_H
