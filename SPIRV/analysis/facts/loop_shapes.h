// The loops of a function as the range analysis needs them, found from the code's shape
// alone (def-use and the CFG; no ranges):
//
// For-loops around a Function variable: the reference design's counted loop as glslang
// emits it (integer_range_analysis.h, "for-loop"): the header's only predecessor outside
// the loop ends with "OpStore %i %init; OpBranch %header"; the header is "OpLoopMerge;
// OpBranch %cond"; %cond is exactly "OpLoad %i; compare with a constant;
// OpBranchConditional %cmp %body %merge"; the continue target is exactly "OpLoad %i;
// OpIAdd/OpISub with a positive constant; OpStore %i; OpBranch %header"; every other use
// of %i is a load. The shape records the direction, the step, the bound normalized to
// "i <= bound" (increasing) or "i >= bound" (decreasing), the initializer's value id and
// the body block; a refusal names the first part that differs ("loop bound is not a
// constant"). Always-true and always-false conditions and a direction that does not
// match the comparison are refused (the variable could wrap, or the body never runs).
//
// Natural loops: for each block that is the target of a back edge (a predecessor it
// dominates), the block with every block that reaches one of those back edges without
// passing it. Refused as a whole ("a back edge targets a block that declares no loop")
// when a back edge targets a block without OpLoopMerge: then the CFG is not the
// structured one these rules reason about.
//
// Exit counters (full mode's trip counts, loop_exit_counters.cpp): a natural loop whose
// test at its top compares a counter that one store in the loop steps by a constant on
// every iteration; see that file for the shape and why it bounds the iterations. Stepped
// counters are the same shape with a step that may be any value (the uniformity
// analysis's loops whose bounds share an offset ask for them).
//
// Owned by the analysis context, built on its def-use and CFGs and dropped with either;
// each variable's shape and each function's loops are found once, on first query.
#ifndef GLINT_SPIRV_ANALYSIS_LOOP_SHAPES_H
#define GLINT_SPIRV_ANALYSIS_LOOP_SHAPES_H

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "SPIRV/analysis/facts/range_relations.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/def_use.h"

namespace glint::spirv {

// The structural match of a for-loop around a Function variable; the range itself is
// computed later from the initializer's range.
struct LoopShape {
  bool ok = false;
  std::string reason;
  bool is_signed = false;
  bool increasing = false;
  int64_t step = 0;
  int64_t bound = 0;  // normalized: i <= bound (increasing) or i >= bound (decreasing)
  uint32_t init_value = 0;
  uint32_t variable = 0;  // the control variable
  const Block* body = nullptr;
  Function* function = nullptr;
};

// The blocks of a natural loop, as a set: sorted addresses in one array (a hash set
// was a heap node per block of every loop, and range analyses ask only membership).
// Iteration is in address order, which nothing may depend on.
class LoopBlocks {
 public:
  LoopBlocks() = default;
  explicit LoopBlocks(std::vector<const Block*> blocks) : sorted_(std::move(blocks)) {
    std::sort(sorted_.begin(), sorted_.end());
    sorted_.erase(std::unique(sorted_.begin(), sorted_.end()), sorted_.end());
  }
  size_t count(const Block* block) const {
    return std::binary_search(sorted_.begin(), sorted_.end(), block) ? 1 : 0;
  }
  size_t size() const { return sorted_.size(); }
  std::vector<const Block*>::const_iterator begin() const { return sorted_.begin(); }
  std::vector<const Block*>::const_iterator end() const { return sorted_.end(); }

 private:
  std::vector<const Block*> sorted_;
};

// A natural loop: its header and every block in it.
struct NaturalLoop {
  const Block* header = nullptr;
  LoopBlocks blocks;
};

// A loop whose body runs only while "counter REL bound" holds at its top, where the
// counter is a Function variable that exactly one store in the loop steps by a constant
// once per iteration (loop_exit_counters.cpp). Ranges are left to the range analysis.
struct ExitCounter {
  bool ok = false;
  std::string reason;
  uint32_t variable = 0;
  const Instruction* test_load = nullptr;  // the counter's load the test compares
  const Instruction* update = nullptr;     // the counter's one store inside the loop
  int64_t step = 0;                        // negative when the counter decreases
                                           // (stepped counters: 0 unless constant)
  uint32_t step_value = 0;                 // the value added or subtracted (any id)
  bool step_subtracts = false;             // the update is `x - step_value`
  Relation relation = Relation::kNone;     // the body runs while "counter REL bound"
  uint32_t bound = 0;                      // any value id
  bool is_signed = false;                  // the comparison's reading
  bool reinterpreted = false;              // compared through an OpBitcast to the other one
  // OffsetExitCounterOf only: the test compares `counter + test_offset` (a constant added
  // to the counter's load), not the counter itself.
  int64_t test_offset = 0;
};

class LoopShapes {
 public:
  LoopShapes(const DefUse& def_use, CfgLookup cfgs) : def_use_(def_use), cfgs_(std::move(cfgs)) {}

  // The for-loop shape around `variable` (a Function variable of a 32-bit integer).
  const LoopShape& ForLoopOf(uint32_t variable);
  // The for-loop whose continue target is the loop `header` declares, when that block
  // updates a variable with a for-loop shape and branches only back to `header`; null
  // otherwise.
  const LoopShape* ForLoopAt(const Cfg& cfg, const Block* header);
  // The natural loops of `function` (in reverse post-order of their headers); empty with
  // `why` set when refused (see the file comment).
  const std::vector<NaturalLoop>& NaturalLoopsOf(Function& function, std::string* why);
  // The smallest natural loop of `function` that holds `block` (natural loops with
  // different headers are nested or disjoint); null when none does or the loops are
  // refused (`why` set).
  const NaturalLoop* InnermostLoopAround(Function& function, const Block* block, std::string* why);
  // Whether `block` lies in a natural loop of its function, once NaturalLoopsOf that
  // function has been asked and not refused (false before, or when refused): one lookup,
  // for callers that ask it of many blocks.
  bool InSomeNaturalLoop(const Block* block) const { return innermost_loops_.count(block) != 0; }
  // The header's one predecessor outside `loop`; null when it has several.
  static const Block* EnteringBlock(const Cfg& cfg, const NaturalLoop& loop);
  // The exit counter of `loop` (a loop of NaturalLoopsOf its function), or the first part
  // that differs from the shape.
  const ExitCounter& ExitCounterOf(const Cfg& cfg, const NaturalLoop& loop);
  // The same shape with a step that may be any value, not only a non-zero constant.
  const ExitCounter& SteppedCounterOf(const Cfg& cfg, const NaturalLoop& loop);
  // The same shape where the test may compare the counter plus a constant
  // (`for (; z + 3 < n; z += 4)`): `test_offset` holds it.
  const ExitCounter& OffsetExitCounterOf(const Cfg& cfg, const NaturalLoop& loop);
  // The stores of `variable` (uses outside blocks, such as names, skipped); false with
  // `why` naming the first use that is neither a load nor a store through it.
  bool StoresOf(uint32_t variable, std::vector<const Instruction*>* stores, std::string* why) const;

 private:
  LoopShape Match(uint32_t variable);
  bool MatchAround(const Cfg& cfg, const Block& header, const Block& latch, uint32_t variable,
                   LoopShape* shape);
  bool MatchContinue(const Block& block, uint32_t variable, uint32_t header, LoopShape* shape);
  bool MatchCondition(const Block& block, uint32_t variable, uint32_t merge, LoopShape* shape);
  bool NormalizeComparison(Relation compare, int64_t value, LoopShape* shape) const;
  ExitCounter MatchExitCounter(const Cfg& cfg, const NaturalLoop& loop, bool any_step,
                               bool offset_side = false);
  bool MatchExitTest(const Cfg& cfg, const NaturalLoop& loop, ExitCounter* counter);
  bool MatchCounterUpdate(const Cfg& cfg, const NaturalLoop& loop, ExitCounter* counter,
                          bool any_step);
  bool MatchPreheader(const Cfg& cfg, const Block& header, const Block& latch, uint32_t variable,
                      LoopShape* shape);

  const DefUse& def_use_;
  CfgLookup cfgs_;
  std::unordered_map<uint32_t, LoopShape> for_loops_;  // variable ->
  std::unordered_map<const Function*, std::vector<NaturalLoop>> natural_loops_;
  std::unordered_map<const Function*, std::string> natural_loop_refusals_;
  std::unordered_map<const Block*, const NaturalLoop*> innermost_loops_;  // block ->
  std::unordered_map<const Block*, ExitCounter> exit_counters_;  // loop header ->
  std::unordered_map<const Block*, ExitCounter> stepped_counters_;  // loop header ->
  std::unordered_map<const Block*, ExitCounter> offset_counters_;   // loop header ->
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_LOOP_SHAPES_H
