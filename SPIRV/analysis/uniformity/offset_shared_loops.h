// Loops whose bounds share a per-invocation offset: the top test of a loop such as
// `for (uint t = start + tid; t < end + tid; t += step)` decides the same way in every
// invocation that evaluates it together, although `t` and `end + tid` differ between
// them, when `start`, `end` and `step` are the same in all of them and no sum can wrap.
// A part of the uniformity solver: it names the values that decide such a test, and the
// solver gives the test their level instead of its operands' (uniformity_transfer.cpp).
// The rule and its proof: offset_shared_loops.cpp.
//
// The part reads the module's structure (def-use, the loops of loop_shapes.h) and asks
// the bounds of integer values where they are read (UniformityInputs::value_bounds, the
// range analysis lent by the analysis context); without bounds it refuses. Each test's
// answer is found once (a memo shared by every entry point's solvers).
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_OFFSET_SHARED_LOOPS_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_OFFSET_SHARED_LOOPS_H

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "SPIRV/analysis/facts/loop_shapes.h"
#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {
namespace uniformity_detail {

class OffsetSharedLoops {
 public:
  using CfgOf = std::function<const Cfg*(uint32_t function)>;
  // `loops` and `bounds` may be empty (every test is then refused); all must outlive this.
  OffsetSharedLoops(const DefUse& def_use, CfgOf cfg_of, std::function<LoopShapes&()> loops,
                    ValueBoundsQuery bounds);

  // The answer for one comparison.
  struct Test {
    bool holds = false;
    std::string reason;  // why the rule does not hold ("" when it holds)
    // When it holds: the values whose levels decide the test (the start's and the
    // bound's addends other than the shared offset, and the step).
    std::vector<uint32_t> deciding;
    // Once the start and the bound are found to share an addend (whether or not the rule
    // then holds): what names it, the local or input it was loaded from or the value.
    uint32_t offset_name = 0;
  };

  // True for the opcodes the rule can apply to (ordering comparisons of integers): the
  // solver asks Of only for these.
  static bool MayApply(spv::Op opcode);
  // The answer for `comparison` (memoized).
  const Test& Of(const Instruction& comparison);

 private:
  // An addend of a start or bound: the value it stands for (through loads of locals
  // written once, see the .cpp), a key equal for two addends that are the same value in
  // every invocation, and the instruction that reads the value (where bounds are asked).
  struct Addend {
    uint32_t value = 0;
    std::string key;
    const Instruction* reader = nullptr;
    uint32_t name = 0;  // the variable the first load read, or the value
  };
  Test Find(const Instruction& comparison);
  bool MayShareAnAddend(const Instruction& comparison, const Block& header, const Cfg& cfg);
  // Appends the addends of `value` read by `reader`; false past the addend budget.
  bool AddendsOf(uint32_t value, const Instruction* reader, std::vector<Addend>* addends,
                 int depth);
  // What `value`, read by `reader`, stands for: the stored value of a local written
  // once, or itself; and its key ("" when two reads of it may differ in one invocation).
  Addend Resolve(uint32_t value, const Instruction* reader, int depth);
  std::string InputKey(uint32_t pointer) const;
  bool InAnyLoop(const Block* block);
  std::optional<ValueBounds> BoundsOf(uint32_t value, const Instruction& reader,
                                      bool is_signed) const;

  const DefUse& def_use_;
  CfgOf cfg_of_;
  std::function<LoopShapes&()> loops_;
  ValueBoundsQuery bounds_;
  std::unordered_map<const Instruction*, Test> found_;
  bool ignore_loops_ = false;  // MayShareAnAddend: every block counts as in no loop
};

}  // namespace uniformity_detail
}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_OFFSET_SHARED_LOOPS_H
