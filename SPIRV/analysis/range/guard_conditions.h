// Guard conditions: which comparisons the conditional branches into a block prove,
// read from the module's structure alone (full range-analysis mode only). The first
// half of the guard facts (range_guards.h): GuardFacts turns these conditions into
// intervals once the ranges they name are known; this half asks for no range, so it
// never starts an evaluation.
//
// What it proves: a block X whose only predecessor P ends with
// "OpBranchConditional %c %T %F" (T != F) runs only after the edge P -> X was taken, so
// %c was true (X == T) or false (X == F). From "%c is true (false)" it reads:
//   - a comparison (OpIEqual, OpINotEqual, OpS/OpU Less/Greater[Equal]) of two 32-bit
//     scalars: `x REL y` in the comparison's reading, and its mirror `y REL' x`;
//   - OpLogicalNot (the operand negated), OpLogicalAnd when true and OpLogicalOr when
//     false (both operands), a load of a bool local (the value its reaching store wrote,
//     canonical_values.h);
//   - the boolean OpPhi glslang emits for a short-circuit && / ||: where one incoming
//     value remains possible, the conditions of its block's edge and of the value hold,
//     kept only for values defined above the first test (GuardCondition::defined_above);
//   - all() true / any() false of a component-wise comparison of integer vectors: per
//     component, `x[i] REL y[i]` where y's component is a known scalar (a scalar
//     comparison where x's component is one too);
//   - an OpSwitch edge: X is a case target or the default (range_guard_switch.cpp
//     reads the literals).
// Refuses (no condition): a block with several predecessors or that is its own only
// predecessor, conditions deeper than kMaxConditionDepth operators, comparisons of
// other widths or types.
// Cost: one walk of a block's entry edge per question (up to kMaxConditionDepth
// operators); nothing is kept.
#ifndef GLINT_SPIRV_ANALYSIS_GUARD_CONDITIONS_H
#define GLINT_SPIRV_ANALYSIS_GUARD_CONDITIONS_H

#include <cstdint>
#include <vector>

#include "SPIRV/analysis/range/canonical_values.h"
#include "SPIRV/analysis/facts/range_relations.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/def_use.h"

namespace glint::spirv {

struct GuardCondition {
  enum class Kind {
    kCompare,           // `x relation y` in the reading `is_signed`
    kComponentCompare,  // component `component` of the vector x: `x[component] relation y`
    kSwitchEdge,        // the block `target` is entered from the OpSwitch `branch`
  };
  Kind kind = Kind::kCompare;
  uint32_t x = 0;  // kSwitchEdge: the selector
  uint32_t y = 0;  // a scalar
  Relation relation = Relation::kNone;
  bool is_signed = false;
  uint32_t component = 0;
  const Block* target = nullptr;
  const Instruction* branch = nullptr;  // the branch whose edge proves it
  const Instruction* compare = nullptr;  // kCompare: the comparison whose result it reads
  // Facts drawn from this condition hold only for values defined above each of these
  // blocks (a short-circuit phi's first test; nested phis add one each).
  std::vector<const Block*> defined_above;
};

class GuardConditions {
 public:
  static constexpr int kMaxConditionDepth = 8;

  GuardConditions(const DefUse& def_use, CanonicalValues& canonical)
      : def_use_(def_use), canonical_(canonical) {}

  // The conditions the edge into `block` (of `cfg`'s function) proves, in the order
  // facts are drawn from them; none where that edge is not the block's only way in.
  // Not memoized: each block's facts are drawn once (range_guards.h), so the
  // conditions live only while they are drawn.
  std::vector<GuardCondition> Into(const Cfg& cfg, const Block* block) {
    return EdgeConditions(cfg, block, 0);
  }

  // Structural readings the guard facts share.
  // The scalar component `index` of vector `id` was built from (looking through a
  // local's stored vector); 0 when unknown.
  uint32_t ComponentOf(uint32_t id, uint32_t index);
  // True for a canonical id that is one value for the whole invocation (an immutable
  // load of an Input or PushConstant part): it is "defined above" every block.
  bool IsInvocationConstant(uint32_t canonical);
  // True when `value` (canonical) is defined outside any block, in one dominating
  // `block`, or is one value for the whole invocation.
  bool DefinedAbove(const Cfg& cfg, uint32_t value, const Block* block);

 private:
  using Conditions = std::vector<GuardCondition>;
  Conditions EdgeConditions(const Cfg& cfg, const Block* block, int depth);
  void Decompose(const Cfg& cfg, uint32_t condition, bool holds, const Instruction* branch,
                 int depth, Conditions* out);
  void CompareConditions(const Instruction& compare, bool holds, const Instruction* branch,
                         Conditions* out);
  void PhiConditions(const Cfg& cfg, const Instruction& phi, bool holds, int depth,
                     Conditions* out);
  void VectorConditions(uint32_t compare, bool each_holds, const Instruction* branch,
                        Conditions* out);
  void ComponentCondition(uint32_t x, uint32_t index, Relation relation, uint32_t y, bool is_signed,
                          const Instruction* branch, Conditions* out);

  const DefUse& def_use_;
  CanonicalValues& canonical_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_GUARD_CONDITIONS_H
