// Locals tested right after their update (full mode): a loop-carried local whose one
// update is followed, in the same block, by the test that leaves the loop, so the loop
// goes on only with a value the test let through. piet-gpu's tile loop takes this shape:
//
//   uint slice_ix = 0u;
//   while (true) {
//     if (bitmap == 0u) {
//       slice_ix++;
//       if (slice_ix == N_SLICE) break;   // every later read sees slice_ix < N_SLICE
//       bitmap = sh_bitmaps[slice_ix][th_ix];
//     }
//     ... slice_ix * 32u + findLSB(bitmap) ...
//   }
//
// No guard dominates the update (the test comes after it), so the widening
// (integer_range_loop_locals.cpp) has no bound to widen to.
//
// What it proves: let x be a scalar local, U its one store inside LP (the innermost
// natural loop around U's block) storing x_new = x_old + s (s of one sign; x_old a load
// of x), every other store of x outside LP, and LP entered only with such a store's
// value (LP is in no other loop, or its one entering block stores x). U's block ends in
// OpBranchConditional on "a REL N" where a is a load of x after U in U's block (it reads
// x_new) and N has a range; one target leaves LP ("exit"), the other stays in it, and
// the loop goes on only while "x_new C N" holds (C: REL, or its negation when the
// exit is the true edge). Let I_U be the hull of the values that reach U's own load
// x_old from stores other than U, and I_L the same for the load L asked, in LP and not
// after U in U's block. For s >= 0:
//   - C is "<": B = N.max - 1; "<=": B = N.max; "!=" with s exactly 1, N one value and
//     I_U.max <= N - 1: B = N - 1 (stepping by 1 from below N must meet N);
//   - X = [I_U.min, max(I_U.max, B)], and X.max + s.max fits the type (U never wraps).
// Claim: every value of U that a load in LP outside U's window reads lies in X, so L
// reads within hull(I_L, X). By induction over the execution:
//   - x_old is a value that reached U's load: from a store other than U (in I_U), or
//     from U itself; U's value cannot reach it by leaving LP and entering again, since
//     each entry of LP stores x first (the entry condition), so it came round a back
//     edge of LP, through the test: a value that passed, in X by induction.
//   - From U, every path leaves U's block through the test, and the exit edge leaves LP,
//     so a value of U read in LP after U's block passed "x_new C N": x_new <= B ("!=":
//     x_old <= N - 1, so x_new <= N, and x_new != N); and x_new >= x_old >= I_U.min
//     since s >= 0 and nothing wraps. So x_new lies in X.
//   - Any other value L reads came from a store other than U: within I_L.
// s <= 0 mirrors this (">", ">=", "!=" with s = -1). Loads outside LP (which may read
// the value that left by the exit edge) and in U's window are not asked here.
//
// Refuses (the widening's reason stands): more than one update, a store of x inside LP
// other than U, an entry that may carry U's value in, a test that is not U's block's
// terminator or reads x before U, an exit that stays in LP, a bound without a range, a
// direction the test does not stop, a wrap.
#include "SPIRV/analysis/range/integer_range_tested_after_update.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

namespace {

// The bound the continuing test "x_new C N" puts on x_new in the update's direction, or
// false when C does not stop that direction.
bool ContinueBound(Relation relation, const IntegerRange& n, const range_math::Interval& step,
                   const IntegerRange& at_update, int direction, int64_t* bound) {
  switch (direction > 0 ? relation : Mirror(relation)) {
    case Relation::kLess:  // mirrored: x_new > N
      *bound = direction > 0 ? n.max - 1 : n.min + 1;
      return true;
    case Relation::kLessEqual:
      *bound = direction > 0 ? n.max : n.min;
      return true;
    case Relation::kNotEqual:
      // Stepping by exactly one from the near side of one value N must meet it.
      if (n.min != n.max || step.min != step.max || step.min != direction) return false;
      if (direction > 0 ? at_update.max > n.max - 1 : at_update.min < n.min + 1) return false;
      *bound = n.max - direction;
      return true;
    default:
      return false;
  }
}

}  // namespace

// The hull of what reaches U's own load from stores other than U (I_U in the file
// comment); no range when a part of a composite or a built-in reaches it.
IntegerRange TestedAfterUpdate::EnteringValues(const CarriedUpdate& update, bool is_signed) {
  const Instruction* loaded = inputs_.def_use.Definition(update.loaded);
  const LocalDefinitions* local = loaded ? local_definitions_.Of(*loaded) : nullptr;
  if (!local || !local->composite_parts.empty() || !local->builtin_parts.empty() ||
      local->values.empty())
    return IntegerRange::None("");
  for (const CarriedUpdate& carried : local->carried)
    if (carried.store != update.store) return IntegerRange::None("");
  IntegerRange hull = IntegerRange::None("");
  for (size_t i = 0; i < local->values.size(); ++i) {
    IntegerRange range =
        Convert(rules_.locals.StoredRange(local->values[i], local->stores[i]), is_signed);
    if (!range.valid) return range;
    hull = Hull(hull, range, is_signed);
  }
  return hull;
}

// U is the only store of `variable` in `loop`, and the loop is entered only with another
// store's value (it is in no other loop, or its entering block stores the variable).
bool TestedAfterUpdate::OnlyStoreInLoop(uint32_t variable, const CarriedUpdate& update,
                                        const NaturalLoop& loop, Function& function) {
  std::string why;
  std::vector<const Instruction*> stores;
  if (!inputs_.loops.StoresOf(variable, &stores, &why)) return false;
  bool nested = false;
  for (const NaturalLoop& other : inputs_.loops.NaturalLoopsOf(function, &why))
    nested |= &other != &loop && other.blocks.count(loop.header) > 0;
  const Cfg& cfg = canonical_.CfgOf(function);
  const Block* entering = nested ? LoopShapes::EnteringBlock(cfg, loop) : nullptr;
  bool reset_on_entry = !nested;
  for (const Instruction* store : stores) {
    if (store == update.store) continue;
    const Block* block = inputs_.def_use.BlockOf(store);
    if (loop.blocks.count(block)) return false;
    reset_on_entry |= entering && block == entering;
  }
  return reset_on_entry;
}

// The test that ends U's block, on a load of x after U: `bound_id` gets N and `goes_on`
// the relation "x_new goes_on N" under which the loop goes on; false for another shape.
bool TestedAfterUpdate::ContinuingTest(const CarriedUpdate& update, const NaturalLoop& loop,
                                       const Cfg& cfg, const ValueFlow& flow, uint32_t variable,
                                       bool is_signed, uint32_t* bound_id, Relation* goes_on) {
  const Block* update_block = inputs_.def_use.BlockOf(update.store);
  const Instruction& end = update_block->instructions.back();
  if (end.opcode != spv::OpBranchConditional) return false;
  BranchConditionalView branch(end);
  const Instruction* comparison = inputs_.def_use.Definition(branch.condition());
  bool compare_signed = false;
  Relation relation =
      comparison ? RelationOf(comparison->opcode, &compare_signed) : Relation::kNone;
  if (relation == Relation::kNone || comparison->words.size() != 2) return false;
  if (relation != Relation::kEqual && relation != Relation::kNotEqual &&
      compare_signed != is_signed)
    return false;
  BinaryOpView operands(*comparison);
  auto reads_update = [&](uint32_t id) {
    const Instruction* read = inputs_.def_use.Definition(id);
    uint32_t read_variable = 0;
    std::vector<uint32_t> read_path;
    return read && read->opcode == spv::OpLoad && inputs_.def_use.BlockOf(read) == update_block &&
           inputs_.positions.Of(read) > inputs_.positions.Of(update.store) &&
           flow.LoadTarget(read, &read_variable, &read_path) && read_variable == variable &&
           read_path.empty();
  };
  if (reads_update(operands.left())) {
    *bound_id = operands.right();
  } else if (reads_update(operands.right())) {
    *bound_id = operands.left();
    relation = Mirror(relation);
  } else {
    return false;
  }
  const Block* on_true = cfg.BlockById(branch.true_label());
  const Block* on_false = cfg.BlockById(branch.false_label());
  bool exits_on_true = on_true && !loop.blocks.count(on_true);
  bool exits_on_false = on_false && !loop.blocks.count(on_false);
  if (exits_on_true == exits_on_false) return false;  // one edge leaves, one stays
  *goes_on = exits_on_true ? Negate(relation) : relation;
  return true;
}

IntegerRange TestedAfterUpdate::Range(const Instruction& load, const CarriedUpdate& update,
                                      const IntegerRange& initial, bool is_signed) {
  const IntegerRange refused = IntegerRange::None("");
  const Block* update_block = inputs_.def_use.BlockOf(update.store);
  const Block* load_block = inputs_.def_use.BlockOf(&load);
  Function* function = inputs_.def_use.FunctionOf(update.store);
  const ValueFlow* flow = canonical_.FlowOf(load);
  uint32_t variable = 0;
  std::vector<uint32_t> path;
  if (!initial.valid || !update_block || !load_block || !function || !flow ||
      !flow->LoadTarget(&load, &variable, &path) || !path.empty())
    return refused;
  std::string why;
  const NaturalLoop* loop = inputs_.loops.InnermostLoopAround(*function, update_block, &why);
  bool in_window = load_block == update_block &&
                   inputs_.positions.Of(&load) > inputs_.positions.Of(update.store);
  if (!loop || !loop->blocks.count(load_block) || in_window) return refused;
  if (!OnlyStoreInLoop(variable, update, *loop, *function)) return refused;
  const Cfg& cfg = canonical_.CfgOf(*function);
  uint32_t bound_id = 0;
  Relation goes_on = Relation::kNone;
  if (!ContinuingTest(update, *loop, cfg, *flow, variable, is_signed, &bound_id, &goes_on))
    return refused;
  // The step's direction and the bound the continuing test puts on x_new.
  range_math::Interval step;
  if (!rules_.carried.CarriedStep(update, is_signed, &step, &why)) return refused;
  int direction = step.min >= 0 ? 1 : step.max <= 0 ? -1 : 0;
  IntegerRange n = Convert(RangeOf(bound_id), is_signed);
  int64_t bound = 0;
  IntegerRange at_update = EnteringValues(update, is_signed);
  if (direction == 0 || !n.valid || !at_update.valid ||
      !ContinueBound(goes_on, n, step, at_update, direction, &bound))
    return refused;
  int64_t far = direction > 0 ? std::max(at_update.max, bound) : std::min(at_update.min, bound);
  if (!Fits(far + (direction > 0 ? step.max : step.min), is_signed)) return refused;  // a wrap
  IntegerRange passed = direction > 0 ? IntegerRange::Of(is_signed, at_update.min, far)
                                      : IntegerRange::Of(is_signed, far, at_update.max);
  return Hull(initial, passed, is_signed);
}

}  // namespace glint::spirv
