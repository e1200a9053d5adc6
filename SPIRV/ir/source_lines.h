// Source lines of instructions: the one reader of OpLine / OpNoLine for every finding
// and record Glint reports (uniformity warnings and their reasons, --dump-ranges
// records and the guards they name, robust-access decisions, hoisted tables).
//
// What it gives: the location in effect at an instruction. Within a block that is the
// last OpLine before it (OpNoLine clears it). A block that has no OpLine before the
// instruction starts with the location in effect at the end of its immediate dominator
// (recursively up the dominator tree), instead of no location.
//
// Why: glslang emits OpLine when a statement starts or the line changes, not at every
// block. The blocks it creates inside an expression carry none: the merge block of a
// lowered `?:` (which stores into a temporary in both arms and loads it in the merge)
// and of a short-circuit `&&` / `||` (whose OpPhi, and the OpBranchConditional of an
// `if` on it, sit there). Everything in such a block belongs to the expression whose
// selection header dominates it, so that header's line is the one the user wrote. The
// dominator, not the block before it in module order, is used because the block before
// may be the other arm of the selection, or code of a nested construct on another line.
//
// The rule replaces the ones readers had before: "the next OpLine in module order" put
// the branch of `if (a && b)` on the line after it (the && merge block has no line, the
// next one is the body's), and "none past the block's end" gave no line at all there.
//
// Lines kept outside the module (outside_lines.h; Module::outside_lines) are read as if
// each event were an OpLine / OpNoLine before the instruction it is keyed to: the
// module's findings are located without the module carrying lines. An instruction a pass
// inserted (no source offset) opens the events keyed to the next instruction that has
// one, as an OpLine before that one would locate an instruction inserted after it.
//
// Assumes: blocks of the instruction's function are reachable from its entry (an
// unreachable block gets only its own OpLines). Refuses nothing; a module without line
// information gives empty locations. Cost: each block is scanned once; the dominator
// chain of a block without lines is walked once and memoized; the first Locate in a
// block indexes the block's instructions (one entry each), so later ones are O(1).
#ifndef GLINT_SPIRV_IR_SOURCE_LINES_H
#define GLINT_SPIRV_IR_SOURCE_LINES_H

#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "glint/types.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/outside_lines.h"

namespace glint::spirv {

class SourceLines {
 public:
  // `outside`: lines kept outside the module, made when first needed (may be null).
  SourceLines(const DefUse& def_use, CfgLookup cfgs, OutsideLinesSource* outside = nullptr)
      : def_use_(def_use), cfgs_(std::move(cfgs)), outside_(outside) {}

  // The location in effect at `inst` (empty when none is known).
  SourceLocation At(const Instruction* inst) { return Locate(inst).location; }
  // The same, and whether it was inherited from a dominator (no OpLine of its own block
  // precedes `inst`): readers that print it may say "near" instead of "at".
  struct Located {
    SourceLocation location;
    bool inherited = false;
  };
  Located Locate(const Instruction* inst);
  // The location `block` starts with: its immediate dominator's at its end.
  SourceLocation AtStart(const Block* block, Function& function);
  // Applies `inst` to `location` when it is OpLine or OpNoLine; true when it was one.
  bool Apply(const Instruction& inst, SourceLocation* location) const;

 private:
  // Whether `block` has OpLine / OpNoLine of its own, and the location at its end then.
  bool OwnEnd(const Block* block, SourceLocation* location);

  // The locations one block's instructions are at: segment 0 is the block's start (the
  // dominator's), each OpLine / OpNoLine opens the next. An instruction's segment is
  // found by its source offset (Instruction::source_offset), by binary search over the
  // offsets where segments open, when the block's nonzero offsets rise in block order
  // (as the parser read them; a pass that moved instructions may break it); the rest
  // (instructions a pass made, offset 0, or every instruction of a block whose offsets
  // do not rise) are in a map. A block of thousands of instructions has a few segments:
  // a map entry for each instruction cost most of a findings report.
  struct BlockIndex {
    std::vector<Located> segments;
    std::vector<std::pair<uint32_t, uint32_t>> opening_offsets;  // (offset, segment)
    std::unordered_map<const Instruction*, uint32_t> segment_of;
  };
  const BlockIndex& IndexOf(const Block* block, Function& function);
  // The segment of `inst`, an instruction of the indexed block; none when not indexed.
  static std::optional<uint32_t> SegmentOf(const BlockIndex& index, const Instruction* inst);
  // The outside table's events of `block` (none without a table, or for a block a pass
  // made), and the table.
  std::pair<const OutsideLines::Event*, const OutsideLines::Event*> OutsideEvents(
      const Block* block);

  const DefUse& def_use_;
  CfgLookup cfgs_;
  OutsideLinesSource* outside_;
  const OutsideLines* outside_table_ = nullptr;  // outside_->Get(), once asked
  std::unordered_map<const Block*, BlockIndex> blocks_;
  std::unordered_map<const Block*, SourceLocation> start_;                 // memo of AtStart
  std::unordered_map<const Block*, std::pair<bool, SourceLocation>> end_;  // memo of OwnEnd
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_SOURCE_LINES_H
