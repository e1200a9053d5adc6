// Guard facts: what the conditional branches that dominate a block prove about the
// integer values used there (full range-analysis mode only).
//
// What it proves: a block X whose only predecessor P ends with
// "OpBranchConditional %c %T %F" (T != F) runs only after the edge P -> X was taken, so
// %c was true (X == T) or false (X == F); X dominates every block where that holds.
// Early exits fall out of this: after `if (x >= N) return;` (or break, continue,
// discard), the if's merge block has the header as its only predecessor. From %c it
// derives facts:
//   - comparisons (OpIEqual, OpINotEqual, OpS/OpU Less/Greater[Equal]) between two
//     32-bit integers: each side lies within what the other side's range allows, in
//     the comparison's own reading (a signed test narrows the i32 reading only; the
//     reader converts a fact to the other reading only where both readings agree);
//   - `x < OpArrayLength(block, member)` (also with the length bitcast): a symbolic
//     fact that proves an index into that runtime array in bounds (`<=` proves nothing);
//   - through a constant offset or factor: a fact about `x + c`, `x - c`, `x * c`
//     (c > 0) or `x << c` is one about x too, when x's range shows that the operation
//     cannot wrap in the fact's reading (then it is exact); kMaxOperandDepth steps;
//   - through a ranged offset: a fact about `a + b` or `a - b` (neither a constant,
//     both ranged, no wrap possible in the fact's reading) bounds each operand by the
//     fact and the other operand's range (`x + n < B`: x <= B.max - 1 - n.min);
//   - `x < y` / `x > y` where y has no range: x is not the type's largest (smallest)
//     value in that reading (kStrict; what widening a loop counter needs);
//   - `x >= y` / `x > y` where neither is a constant: the order itself (kNotBelow; what
//     `x - y` needs to be known not to wrap: `if (i >= (1u << k)) s[i - (1u << k)]`);
//   - OpLogicalNot (negation), OpLogicalAnd when true, OpLogicalOr when false (both
//     operands), and the boolean OpPhi glslang emits for a short-circuit && / ||
//     (only the facts about values defined before the first test are kept).
// Facts constrain canonical values (GuardSource::Canonical: copies, bitcasts and
// loads of locals that read one known SSA value, or one known component of a stored
// vector, are looked through, and arithmetic recomputed from the same canonical
// operands is the earlier computation: canonical_values.cpp), so a test on one
// load of a local narrows another load of it that reads the same store. A value is
// never canonicalized across memory another invocation or a call may write: each load
// of a buffer, shared variable or image is its own value, and a test on it narrows
// only that load.
//
// Why facts hold at the use: the tested values' definitions dominate the test, and the
// test's edge dominates the use, so no path re-defines a tested value between the test
// and the use without passing the test again (SSA: the latest execution of each).
//
//   - OpSwitch edges (range_guard_switch.cpp): a case target reached from the switch
//     alone holds the selector to its case literals; the default edge moves an end of
//     the selector's range past the literals there;
//   - all() / any() of a component-wise comparison of integer vectors
//     (range_guard_vectors.cpp): where every component's comparison holds, each
//     component is narrowed (a fact about a component of a vector value).
// Refuses (adds no fact): a target with several predecessors (a loop header, a merge
// reached from both sides, a case reached by fallthrough), conditions deeper than
// kMaxConditionDepth operators. Cost: each block's facts are built once from its
// immediate dominator's, capped at kMaxFacts (the nearest guards are kept).
#ifndef GLINT_SPIRV_ANALYSIS_RANGE_GUARDS_H
#define GLINT_SPIRV_ANALYSIS_RANGE_GUARDS_H

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "SPIRV/analysis/range_math.h"
#include "SPIRV/analysis/range_relations.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/def_use.h"

namespace glint::spirv {

struct GuardFact {
  enum class Kind {
    kInterval,     // value lies in `interval`
    kNotEqual,     // value != interval.min (in interval's reading)
    kBelowLength,  // value < OpArrayLength(length_base, length_member), in interval's reading
    kStrict,       // value < y or value > y for a y without a range: `interval` is the
                   // type's domain less its top (or bottom) value; only the widening of
                   // loop-carried locals reads it (it proves that `value + 1` cannot wrap)
    kNotBelow,     // value >= other + interval.min (0, or 1 for `>`) in interval's reading;
                   // only differences read it (integer_range_ordered_differences.cpp)
  };
  static constexpr uint32_t kWhole = ~0u;
  Kind kind = Kind::kInterval;
  uint32_t value = 0;  // canonical value id
  // kWhole: the fact is about `value`; otherwise about this component of the vector
  // `value` (range_guard_vectors.cpp), read by an extract or a load of one element.
  uint32_t component = kWhole;
  range_math::Interval interval;
  uint32_t length_base = 0;
  uint32_t length_member = 0;
  uint32_t other = 0;                   // kNotBelow: the canonical value `value` is not below
  const Instruction* branch = nullptr;  // the OpBranchConditional that proves it
};

// What the collector asks of the range analysis.
class GuardSource {
 public:
  virtual ~GuardSource() = default;
  // The value `id` stands for (see the header comment); `id` itself when none.
  virtual uint32_t Canonical(uint32_t id) = 0;
  // The context-free range of a scalar 32-bit integer value, in its own reading.
  virtual bool RangeOf(uint32_t id, range_math::Interval* range) = 0;
  // True for scalar 32-bit integers; `is_signed` is the type's reading.
  virtual bool IsScalarInt(uint32_t id, bool* is_signed) = 0;
  // For a canonical id that names a version of a local made at a join (no
  // instruction defines it): the join's block; null otherwise.
  virtual const Block* VersionBlock(uint32_t id) { return nullptr; }
  // The scalar component `index` of the vector `id` was built from; 0 when unknown.
  virtual uint32_t ComponentOf(uint32_t id, uint32_t index) { return 0; }
  // True for a canonical id that is one value for the whole invocation (a load of an
  // Input or PushConstant part): it is "defined above" every block.
  virtual bool IsInvocationConstant(uint32_t id) { return false; }
};

class GuardFacts {
 public:
  static constexpr size_t kMaxFacts = 64;
  static constexpr int kMaxConditionDepth = 8;
  static constexpr int kMaxOperandDepth = 3;  // x in `(x * 2u + 1u) < n`: two steps

  GuardFacts(const DefUse& def_use, GuardSource& source) : def_use_(def_use), source_(source) {}

  // The facts holding in `block` (of `cfg`'s function), nearest guard first.
  const std::vector<GuardFact>& At(const Cfg& cfg, const Block* block);

 private:
  using Facts = std::vector<GuardFact>;
  Facts EdgeFacts(const Cfg& cfg, const Block* block, int depth);
  void Decompose(const Cfg& cfg, uint32_t condition, bool holds, const Instruction* branch,
                 int depth, Facts* out);
  void CompareFacts(const Instruction& compare, bool holds, const Instruction* branch, Facts* out);
  void SideFacts(uint32_t x, Relation relation, uint32_t y, bool is_signed, const Instruction* branch,
                 Facts* out);
  void OrderFact(uint32_t x, Relation relation, uint32_t y, bool is_signed,
                 const Instruction* branch, Facts* out);
  void PhiFacts(const Cfg& cfg, const Instruction& phi, bool holds, int depth, Facts* out);
  // range_guard_switch.cpp
  void SwitchFacts(const Block* block, const Instruction& branch, Facts* out);
  // range_guard_vectors.cpp
  void VectorFacts(uint32_t compare, bool each_holds, const Instruction* branch, Facts* out);
  void ComponentFacts(uint32_t x, uint32_t index, Relation relation, uint32_t y, bool is_signed,
                      const Instruction* branch, Facts* out);
  void OperandFacts(uint32_t y, const GuardFact& fact, int depth, Facts* out);
  void QuotientFacts(const Instruction& def, const GuardFact& fact, int depth, Facts* out);
  void RangedOffsetFacts(const Instruction& def, const GuardFact& fact, int depth, Facts* out);
  bool ConstantIn(uint32_t id, bool is_signed, int64_t* value) const;
  bool DefinedAbove(const Cfg& cfg, uint32_t value, const Block* block) const;

  const DefUse& def_use_;
  GuardSource& source_;
  std::unordered_map<const Block*, std::shared_ptr<const Facts>> memo_;
  Facts empty_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_RANGE_GUARDS_H
