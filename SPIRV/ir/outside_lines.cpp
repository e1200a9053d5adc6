// Source lines kept outside a module (see outside_lines.h).
#include "outside_lines.h"

#include <algorithm>
#include <unordered_map>

#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/module.h"
#include "SPIRV/ir/operands.h"

namespace glint::spirv {

int32_t OutsideLines::FileIndex(const std::string& file) {
  for (size_t i = 0; i < files_.size(); ++i)
    if (files_[i] == file) return static_cast<int32_t>(i);
  files_.push_back(file);
  return static_cast<int32_t>(files_.size() - 1);
}

std::pair<const OutsideLines::Event*, const OutsideLines::Event*> OutsideLines::EventsOf(
    uint32_t label_offset) const {
  auto first = std::lower_bound(
      events_.begin(), events_.end(), label_offset,
      [](const Event& event, uint32_t offset) { return event.label_offset < offset; });
  auto last = std::upper_bound(
      first, events_.end(), label_offset,
      [](uint32_t offset, const Event& event) { return offset < event.label_offset; });
  const Event* base = events_.data();
  return {base + (first - events_.begin()), base + (last - events_.begin())};
}

SourceLocation OutsideLines::LocationOf(const Event& event) const {
  if (event.file < 0) return SourceLocation{};
  return SourceLocation{files_[static_cast<size_t>(event.file)], event.line, event.column};
}

namespace {

constexpr size_t kHeaderWords = 5;

// The literal string that starts at words[first], within the instruction ending at `end`.
std::string StringIn(const std::vector<uint32_t>& words, size_t first, size_t end) {
  std::string text;
  for (size_t at = first; at < end; ++at)
    for (int byte = 0; byte < 4; ++byte) {
      char c = static_cast<char>((words[at] >> (8 * byte)) & 0xff);
      if (c == 0) return text;
      text.push_back(c);
    }
  return text;
}

bool Refuse(std::string* why, const std::string& reason) {
  if (why) *why = reason;
  return false;
}

// What both walks below do with line information: the files OpStrings name, and the
// line instructions inside blocks, each keyed to the next instruction the module
// without lines holds (events before it wait in `pending_`).
class LineCollector {
 public:
  explicit LineCollector(OutsideLines& table) : table_(table) {}

  void String(uint32_t id, const std::string& text) { file_of_string_[id] = table_.FileIndex(text); }

  // OpLine / OpNoLine at words[at]: pending when inside a block, else dropped
  // (SourceLines reads no other). False, with why, for one it cannot read.
  bool Line(const std::vector<uint32_t>& words, size_t at, spv::Op opcode, uint32_t count,
            std::string* why) {
    if (!in_block_) return true;
    OutsideLines::Event event{label_offset_, 0, -1, 0, 0};
    if (opcode == spv::OpLine) {
      if (count != 4) return Refuse(why, "an OpLine of " + std::to_string(count) + " words");
      auto file = file_of_string_.find(words[at + 1]);
      if (file == file_of_string_.end())
        return Refuse(why, "an OpLine names %" + std::to_string(words[at + 1]) +
                               ", which is no OpString before it");
      event.file = file->second;
      event.line = words[at + 2];
      event.column = words[at + 3];
    }
    pending_.push_back(event);
    return true;
  }

  // An instruction the module without lines holds, at `plain_offset` there: the pending
  // lines are keyed to it, and blocks open and close.
  void Kept(spv::Op opcode, size_t plain_offset) {
    if (opcode == spv::OpLabel) {
      in_block_ = true;
      label_offset_ = static_cast<uint32_t>(plain_offset);
    }
    for (OutsideLines::Event& event : pending_) {
      event.before_offset = static_cast<uint32_t>(plain_offset);
      table_.Add(event);
    }
    pending_.clear();
    if (opcode == spv::OpFunction || opcode == spv::OpFunctionEnd || IsBlockTerminator(opcode))
      in_block_ = false;
  }

 private:
  OutsideLines& table_;
  std::unordered_map<uint32_t, int32_t> file_of_string_;
  bool in_block_ = false;
  uint32_t label_offset_ = 0;
  std::vector<OutsideLines::Event> pending_;
};

// The walk over both modules: `located` advances over every instruction, `plain` only
// over those the two share.
class Aligner {
 public:
  Aligner(const std::vector<uint32_t>& plain, const std::vector<uint32_t>& located)
      : plain_(plain), located_(located), lines_(table_) {}

  bool Run(std::string* why) {
    if (plain_.size() < kHeaderWords || located_.size() < kHeaderWords)
      return Refuse(why, "a module is shorter than its header");
    while (l_ < located_.size()) {
      const uint32_t count = located_[l_] >> 16;
      if (count == 0 || l_ + count > located_.size())
        return Refuse(why, "the module with lines has a malformed word count at word " +
                               std::to_string(l_));
      const auto opcode = static_cast<spv::Op>(located_[l_] & 0xffff);
      if (!Step(opcode, count, why)) return false;
    }
    if (p_ != plain_.size())
      return Refuse(why, "the module without lines has instructions past word " +
                             std::to_string(p_) + " that the one with lines lacks");
    return true;
  }

  OutsideLines& table() { return table_; }

 private:
  bool PlainIs(spv::Op opcode) const {
    return p_ < plain_.size() && static_cast<spv::Op>(plain_[p_] & 0xffff) == opcode;
  }

  bool Step(spv::Op opcode, uint32_t count, std::string* why) {
    switch (opcode) {
      case spv::OpLine:
      case spv::OpNoLine:
        if (!lines_.Line(located_, l_, opcode, count, why)) return false;
        l_ += count;
        return true;
      case spv::OpString: {
        // A string both modules hold (debugPrintf's formats) is matched by its text; one
        // only the module with lines holds names a file.
        if (count < 3) return Refuse(why, "an OpString without a string");
        std::string text = StringIn(located_, l_ + 2, l_ + count);
        lines_.String(located_[l_ + 1], text);
        if (PlainIs(spv::OpString) && (plain_[p_] >> 16) == count &&
            StringIn(plain_, p_ + 2, p_ + count) == text)
          p_ += count;
        l_ += count;
        return true;
      }
      case spv::OpSource:
        // The first OpSource is both modules' (with lines it also names the file and
        // holds the text); the others name included files.
        if (!source_matched_ && PlainIs(spv::OpSource)) {
          source_matched_ = true;
          p_ += plain_[p_] >> 16;
        }
        l_ += count;
        return true;
      case spv::OpSourceContinued:
      case spv::OpModuleProcessed:
        l_ += count;
        return true;
      default:
        return Shared(opcode, count, why);
    }
  }

  // An instruction both modules must hold at this point.
  bool Shared(spv::Op opcode, uint32_t count, std::string* why) {
    if (p_ >= plain_.size())
      return Refuse(why, "the module with lines has instructions past the end of the other");
    const uint32_t plain_count = plain_[p_] >> 16;
    const auto plain_opcode = static_cast<spv::Op>(plain_[p_] & 0xffff);
    if (plain_opcode != opcode || plain_count != count)
      return Refuse(why, "the modules differ at word " + std::to_string(p_) +
                             " of the one without lines (" + grammar::OpcodeName(plain_opcode) + " of " +
                             std::to_string(plain_count) + " words; with lines " +
                             grammar::OpcodeName(opcode) + " of " + std::to_string(count) + ")");
    lines_.Kept(opcode, p_);
    p_ += count;
    l_ += count;
    return true;
  }

  const std::vector<uint32_t>& plain_;
  const std::vector<uint32_t>& located_;
  size_t p_ = kHeaderWords;
  size_t l_ = kHeaderWords;
  bool source_matched_ = false;
  OutsideLines table_;
  LineCollector lines_;
};

}  // namespace

std::optional<OutsideLines> AlignOutsideLines(const std::vector<uint32_t>& plain,
                                              const std::vector<uint32_t>& located,
                                              std::string* why) {
  Aligner aligner(plain, located);
  if (!aligner.Run(why)) return std::nullopt;
  return std::move(aligner.table());
}

namespace {

// The strip's walk: a first pass finds the OpString ids that only lines and OpSource
// name, a second writes every other instruction with its ids renumbered.
class Stripper {
 public:
  explicit Stripper(const std::vector<uint32_t>& located) : in_(located), lines_(out_.lines) {}

  std::optional<StrippedModule> Run(std::string* why) {
    if (in_.size() < kHeaderWords) return Failed(why, "the module is shorter than its header");
    bound_ = in_[3];
    if (!FindLineStrings(why)) return std::nullopt;
    Renumbering();
    out_.words.reserve(in_.size());
    out_.words.insert(out_.words.end(), in_.begin(), in_.begin() + kHeaderWords);
    out_.words[3] = bound_ - static_cast<uint32_t>(removed_.size());
    value_types_.assign(bound_, 0);
    for (size_t at = kHeaderWords; at < in_.size(); at += in_[at] >> 16)
      if (!Write(at, why)) return std::nullopt;
    // An OpString nothing names may be one glslang made for lines only (the source file's
    // when there is no OpSource): whether the module without lines has it is unknown.
    for (uint32_t id : strings_)
      if (string_use_[id] == kKeptString)
        return Failed(why, "OpString %" + std::to_string(id) + " is named by nothing");
    return std::move(out_);
  }

 private:
  std::optional<StrippedModule> Failed(std::string* why, const std::string& reason) {
    Refuse(why, reason);
    return std::nullopt;
  }

  static spv::Op OpcodeAt(const std::vector<uint32_t>& words, size_t at) {
    return static_cast<spv::Op>(words[at] & 0xffff);
  }

  // Pass 1: word counts, the OpString ids, which of them lines and OpSource name.
  bool FindLineStrings(std::string* why) {
    for (size_t at = kHeaderWords; at < in_.size();) {
      const uint32_t count = in_[at] >> 16;
      if (count == 0 || at + count > in_.size())
        return Refuse(why, "malformed word count at word " + std::to_string(at));
      const spv::Op opcode = OpcodeAt(in_, at);
      if (opcode == spv::OpString && count >= 3) {
        if (in_[at + 1] >= bound_) return Refuse(why, "an OpString id is past the bound");
        strings_.push_back(in_[at + 1]);
      } else if (opcode == spv::OpLine && count == 4) {
        named_by_lines_.push_back(in_[at + 1]);
      } else if (opcode == spv::OpSource && count >= 4) {
        named_by_lines_.push_back(in_[at + 3]);
      } else if (opcode == spv::OpExtInstImport &&
                 StringIn(in_, at + 2, at + count).rfind("NonSemantic.", 0) == 0 &&
                 StringIn(in_, at + 2, at + count) != "NonSemantic.DebugPrintf") {
        return Refuse(why, "the module has non-semantic debug information");
      }
      at += count;
    }
    std::sort(named_by_lines_.begin(), named_by_lines_.end());
    named_by_lines_.erase(std::unique(named_by_lines_.begin(), named_by_lines_.end()),
                          named_by_lines_.end());
    string_use_.assign(bound_, kNotAString);
    for (uint32_t id : strings_) {
      if (std::binary_search(named_by_lines_.begin(), named_by_lines_.end(), id))
        removed_.push_back(id);
      else
        string_use_[id] = kKeptString;
    }
    std::sort(removed_.begin(), removed_.end());
    return true;
  }

  // new id = old id - the removed ids below it; 0 for a removed one.
  void Renumbering() {
    new_ids_.assign(bound_, 0);
    uint32_t below = 0;
    size_t next_removed = 0;
    for (uint32_t id = 1; id < bound_; ++id) {
      if (next_removed < removed_.size() && removed_[next_removed] == id) {
        ++below;
        ++next_removed;
        continue;
      }
      new_ids_[id] = id - below;
    }
  }

  // `uses`: an operand (not a result id), which makes a kept OpString named.
  bool Renumber(uint32_t& id, bool uses, std::string* why) {
    if (id == 0 || id >= bound_ || new_ids_[id] == 0)
      return Refuse(why, "id " + std::to_string(id) +
                             (id && id < bound_ ? " names a line's file and is used elsewhere"
                                                : " is outside the bound"));
    if (uses && string_use_[id] == kKeptString) string_use_[id] = kNamedString;
    id = new_ids_[id];
    return true;
  }

  bool IsRemovedString(uint32_t id) const {
    return std::binary_search(removed_.begin(), removed_.end(), id);
  }

  // The literal width of OpConstant / OpSpecConstant's value and OpSwitch's cases.
  uint32_t LiteralWidth(const Instruction& inst) const {
    uint32_t type = 0;
    if (inst.opcode == spv::OpConstant || inst.opcode == spv::OpSpecConstant) type = inst.type_id;
    if (inst.opcode == spv::OpSwitch && !inst.words.empty() && inst.words[0] < bound_)
      type = value_types_[inst.words[0]];
    auto width = type_widths_.find(type);
    return width != type_widths_.end() && width->second > 32 ? 2 : 1;
  }

  // Pass 2: one instruction of the located module.
  bool Write(size_t at, std::string* why) {
    const uint32_t count = in_[at] >> 16;
    const spv::Op opcode = OpcodeAt(in_, at);
    switch (opcode) {
      case spv::OpLine:
      case spv::OpNoLine:
        return lines_.Line(in_, at, opcode, count, why);
      case spv::OpString:
        if (count >= 3) lines_.String(in_[at + 1], StringIn(in_, at + 2, at + count));
        if (IsRemovedString(in_[at + 1])) return true;
        break;
      case spv::OpSource:
        // The first is glslang's OpSource Language Version, without the file and text.
        if (!source_written_) {
          source_written_ = true;
          if (count < 3) return Refuse(why, "an OpSource without its version");
          out_.words.push_back((3u << 16) | spv::OpSource);
          out_.words.push_back(in_[at + 1]);
          out_.words.push_back(in_[at + 2]);
        }
        return true;
      case spv::OpSourceContinued:
      case spv::OpModuleProcessed:
        return true;
      default:
        break;
    }
    return Copy(at, opcode, count, why);
  }

  // An instruction both modules hold: copied with its ids renumbered.
  bool Copy(size_t at, spv::Op opcode, uint32_t count, std::string* why) {
    const grammar::OpcodeInfo* info = grammar::FindOpcode(opcode);
    if (!info) return Refuse(why, "unknown opcode " + std::to_string(opcode));
    Instruction inst;
    inst.opcode = opcode;
    size_t next = at + 1;
    const size_t end = at + count;
    if (info->has_type) {
      if (next >= end) return Refuse(why, std::string(info->name) + " lacks its result type");
      inst.type_id = in_[next++];
    }
    if (info->has_result) {
      if (next >= end) return Refuse(why, std::string(info->name) + " lacks its result id");
      inst.result_id = in_[next++];
    }
    inst.words.assign(in_.data() + next, in_.data() + end);
    OperandList operands;
    std::string error;
    if (!DecodeOperands(inst, LiteralWidth(inst), &operands, &error))
      return Refuse(why, std::string(info->name) + ": " + error);
    if (inst.result_id && inst.result_id < bound_ && inst.type_id)
      value_types_[inst.result_id] = inst.type_id;
    if ((opcode == spv::OpTypeInt || opcode == spv::OpTypeFloat) && !inst.words.empty())
      type_widths_[inst.result_id] = inst.words[0];
    const size_t written = out_.words.size();
    lines_.Kept(opcode, written);
    out_.words.insert(out_.words.end(), in_.begin() + at, in_.begin() + end);
    uint32_t* words = out_.words.data() + written;
    size_t word = 1;
    if (info->has_type && !Renumber(words[word++], true, why)) return false;
    if (info->has_result && !Renumber(words[word++], false, why)) return false;
    for (const Operand& operand : operands)
      if (operand.is_id && !Renumber(words[word + operand.first_word], true, why)) return false;
    return true;
  }

  const std::vector<uint32_t>& in_;
  uint32_t bound_ = 0;
  std::vector<uint32_t> strings_;         // every OpString's id
  std::vector<uint32_t> named_by_lines_;  // ids OpLine and OpSource name
  std::vector<uint32_t> removed_;         // OpStrings only lines name, sorted
  std::vector<uint32_t> new_ids_;
  enum : uint8_t { kNotAString, kKeptString, kNamedString };
  std::vector<uint8_t> string_use_;  // by id: kept OpStrings, and whether one is named
  std::vector<uint32_t> value_types_;
  std::unordered_map<uint32_t, uint32_t> type_widths_;
  bool source_written_ = false;
  StrippedModule out_;
  LineCollector lines_;  // into out_.lines
};

}  // namespace

std::optional<StrippedModule> StripLineInformation(const std::vector<uint32_t>& located,
                                                   std::string* why) {
  return Stripper(located).Run(why);
}

}  // namespace glint::spirv
