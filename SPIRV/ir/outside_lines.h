// Source lines kept outside a module: where the OpLine / OpNoLine of a second
// generation of the same module stood, by the word offsets of the module without them.
//
// Why: a compile without debug information has no OpLine, yet its findings should name
// source lines, and its output must not change because something was said. Running
// the whole pipeline a second time on a module generated with lines (what Glint did
// before) doubled the cost of every compile that reported anything. Instead the plain
// module is the one analysed and written; only when a finding asks for a line is the
// module generated again with lines (OutsideLinesSource), and the two are aligned
// (AlignOutsideLines) into a table that SourceLines (source_lines.h) reads as if the
// lines were in the plain module.
//
// What the alignment relies on, and checks: glslang generates the same instructions in
// the same order with and without line information, and adds only debug instructions
// (OpString, OpSource / OpSourceContinued for the source text and each included file,
// OpModuleProcessed, OpLine, OpNoLine). Ids may differ (OpString takes ids from the same
// counter), so only opcodes and word counts are compared; every other instruction must
// match one to one, or there is no table and findings are unlocated (never guessed).
//
// What a table holds: for each line instruction that sat inside a block (after its
// OpLabel, before its terminator), the plain module's offset of that block's OpLabel and
// of the instruction it preceded. Line instructions elsewhere (before a function's first
// OpLabel, after a terminator, between functions) are dropped: SourceLines reads only
// those inside blocks. Keying by the parser's source offsets (Instruction::source_offset)
// survives passes: an instruction they remove leaves its event to the next one they
// kept, and one they insert (offset 0) takes the location an OpLine before its
// successor would have given it.
//
// Cost: one walk over both modules' words; nothing is decoded.
#ifndef GLINT_SPIRV_IR_OUTSIDE_LINES_H
#define GLINT_SPIRV_IR_OUTSIDE_LINES_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <spirv/unified1/spirv.hpp>

#include "glint/types.h"

namespace glint::spirv {

class OutsideLines {
 public:
  // One OpLine (file >= 0) or OpNoLine (file < 0) of the module with lines.
  struct Event {
    uint32_t label_offset;   // the plain module's offset of the block's OpLabel
    uint32_t before_offset;  // ... and of the instruction the line instruction preceded
    int32_t file;            // index into files(), or -1: OpNoLine
    uint32_t line;
    uint32_t column;
  };

  // Appends an event; events must come in module order (offsets ascending).
  void Add(const Event& event) { events_.push_back(event); }
  // The index of `file` in files(), added when new.
  int32_t FileIndex(const std::string& file);

  // The events of the block whose OpLabel is at `label_offset`, in order.
  std::pair<const Event*, const Event*> EventsOf(uint32_t label_offset) const;
  // The location an event sets.
  SourceLocation LocationOf(const Event& event) const;
  size_t size() const { return events_.size(); }
  const std::vector<Event>& events() const { return events_; }

 private:
  std::vector<Event> events_;
  std::vector<std::string> files_;
};

// Aligns `plain` (a module without line information) with `located` (the same module
// generated with it). Returns nullopt, with the reason in *why, when they are not the
// same module apart from debug instructions.
std::optional<OutsideLines> AlignOutsideLines(const std::vector<uint32_t>& plain,
                                              const std::vector<uint32_t>& located,
                                              std::string* why);

// Makes the table when it is first asked for: generating the module with lines costs
// about as much as the first generation, so it is paid only by a compile that reports
// something with a location. Get() is called at most once per source by SourceLines'
// users through Module::outside_lines; null when no table could be made.
class OutsideLinesSource {
 public:
  virtual ~OutsideLinesSource() = default;
  const OutsideLines* Get() {
    if (!made_) {
      made_ = true;
      table_ = Make();
    }
    return table_ ? &*table_ : nullptr;
  }

 protected:
  virtual std::optional<OutsideLines> Make() = 0;

 private:
  bool made_ = false;
  std::optional<OutsideLines> table_;
};

// What the strip needs before it walks (FindLineStringIds): the new id of each old one
// (0: removed, an OpString only lines and OpSource name), the new bound, and which ids
// are OpStrings it keeps (each must be named by some other instruction).
struct LineStringIds {
  std::vector<uint32_t> new_ids;
  uint32_t new_bound = 0;
  std::vector<uint8_t> kept_string;
};
std::optional<LineStringIds> FindLineStringIds(const uint32_t* words, size_t count,
                                               std::string* why);

// What both walks over a module with lines (the alignment, the stripping parse) do with
// its line information: the files OpStrings name, and the line instructions inside
// blocks, each keyed to the next instruction the module without lines holds.
class OutsideLinesCollector {
 public:
  explicit OutsideLinesCollector(OutsideLines& table) : table_(table) {}
  // An OpString of the module with lines.
  void String(uint32_t id, const std::string& text);
  // OpLine / OpNoLine at words[at]: pending when inside a block, else dropped
  // (SourceLines reads no other). False, with why, for one it cannot read.
  bool Line(const uint32_t* words, size_t at, spv::Op opcode, uint32_t count,
            std::string* why);
  // An instruction the module without lines holds, at `plain_offset` there: the pending
  // lines are keyed to it, and blocks open and close.
  void Kept(spv::Op opcode, size_t plain_offset);

 private:
  OutsideLines& table_;
  std::unordered_map<uint32_t, int32_t> file_of_string_;
  bool in_block_ = false;
  uint32_t label_offset_ = 0;
  std::vector<OutsideLines::Event> pending_;
};

// A source whose table was made beforehand (the stripping parse's, parser.h).
class MadeOutsideLines : public OutsideLinesSource {
 public:
  explicit MadeOutsideLines(OutsideLines lines) : lines_(std::move(lines)) {}

 protected:
  std::optional<OutsideLines> Make() override { return std::move(lines_); }

 private:
  OutsideLines lines_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_OUTSIDE_LINES_H
