// Value numbers for pure integer arithmetic (full mode): a guard on `tid + n` narrows
// another `tid + n` computed later from new loads of the same locals.
//
// What it gives: for U = `a OP b` (OP in kNumberedOps, a scalar 32-bit result), an
// earlier instruction R = `a' OP b'` of the same opcode and result type whose operands
// have the same canonical values (Canonical: copies, bitcasts, loads that read one known
// store or version) in the same order (either order for commutative OP), where R comes
// before U in U's block or lies in a block that dominates U's. Canonical(U) is then R's.
//
// Why U equals R's latest value wherever U runs: OP is a pure function of its operand
// bits, and R dominates U. Each canonical operand value C has a definition (an SSA
// instruction, a store, or the join that made a local's version) that dominates R's
// operand, which dominates R. For values v dominating w dominating U, every path to U
// runs w after the last run of v before U (otherwise a path from the entry to v that
// avoids w, joined to the rest, would reach U without w). So R's latest run, and its
// operand's latest run before it, come after C's latest definition: R read C's current
// bits, the same ones U's operand reads (same canonical value: same bits), and
// computed the same result. A guard that tested R therefore holds for U (the guard
// facts' own argument, range_guards.h, covers why a fact about R holds where U runs).
//
// Refuses (U stays its own value): other opcodes, operands of another type, no such
// R within kMaxNumberingScan instructions of the dominator chain (a budget; without a
// match nothing is lost but the narrowing), reference mode.
#include "integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

namespace {

bool NumberedOp(spv::Op opcode, bool* commutes) {
  switch (opcode) {
    case spv::OpIAdd:
    case spv::OpIMul:
    case spv::OpBitwiseAnd:
    case spv::OpBitwiseOr:
    case spv::OpBitwiseXor:
      *commutes = true;
      return true;
    case spv::OpISub:
    case spv::OpUDiv:
    case spv::OpSDiv:
    case spv::OpUMod:
    case spv::OpShiftLeftLogical:
    case spv::OpShiftRightLogical:
    case spv::OpShiftRightArithmetic:
      *commutes = false;
      return true;
    default:
      return false;
  }
}

}  // namespace

// True when `candidate` computes `def`'s opcode and type over the canonical operands
// `left` and `right` (either order when the operation commutes).
bool IntegerRangeAnalysis::Evaluator::SameComputation(const Instruction& def,
                                                      const Instruction& candidate, uint32_t left,
                                                      uint32_t right, bool commutes) {
  if (candidate.opcode != def.opcode || candidate.type_id != def.type_id ||
      candidate.words.size() != def.words.size())
    return false;
  BinaryOpView other(candidate);
  uint32_t other_left = Canonical(other.left()), other_right = Canonical(other.right());
  if (left == other_left && right == other_right) return true;
  return commutes && left == other_right && right == other_left;
}

// The nearest earlier instruction that computes `def`'s value (see the file comment),
// or 0. Memoized per instruction.
uint32_t IntegerRangeAnalysis::Evaluator::EarlierEqualValue(const Instruction& def) {
  bool commutes = false, is_signed = false;
  if (!Full() || !NumberedOp(def.opcode, &commutes) || !ScalarInt(def.type_id, &is_signed) ||
      def.words.size() != 2)
    return 0;
  auto found = numbered_.find(def.result_id);
  if (found != numbered_.end()) return found->second;
  numbered_[def.result_id] = 0;  // a query reached again on the way finds none
  const Block* block = def_use_.BlockOf(&def);
  Function* function = def_use_.FunctionOf(&def);
  uint32_t result = 0;
  size_t scanned = 0;
  BinaryOpView operands(def);
  uint32_t left = Canonical(operands.left()), right = Canonical(operands.right());
  const Cfg* cfg = function ? &CfgOf(*function) : nullptr;
  for (const Block* b = block; cfg && b && !result && scanned < kMaxNumberingScan;
       b = cfg->ImmediateDominator(b)) {
    for (const Instruction& candidate : b->instructions) {
      if (b == block && &candidate == &def) break;  // only what comes before it
      if (++scanned > kMaxNumberingScan) break;
      if (&candidate != &def && SameComputation(def, candidate, left, right, commutes))
        result = candidate.result_id;  // the last match in the block is the nearest
    }
  }
  numbered_[def.result_id] = result;
  return result;
}

}  // namespace glint::spirv
