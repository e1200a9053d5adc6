// Source lines kept outside a module (see outside_lines.h).
#include "outside_lines.h"

#include <algorithm>
#include <unordered_map>

#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/module.h"

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

// The walk over both modules: `located` advances over every instruction, `plain` only
// over those the two share.
class Aligner {
 public:
  Aligner(const std::vector<uint32_t>& plain, const std::vector<uint32_t>& located)
      : plain_(plain), located_(located) {}

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

  // A line instruction: an event when it sits inside a block, else dropped (SourceLines
  // reads no other).
  bool Line(spv::Op opcode, uint32_t count, std::string* why) {
    if (in_block_) {
      OutsideLines::Event event{label_offset_, 0, -1, 0, 0};
      if (opcode == spv::OpLine) {
        if (count != 4) return Refuse(why, "an OpLine of " + std::to_string(count) + " words");
        auto file = file_of_string_.find(located_[l_ + 1]);
        if (file == file_of_string_.end())
          return Refuse(why, "an OpLine names %" + std::to_string(located_[l_ + 1]) +
                                 ", which is no OpString");
        event.file = file->second;
        event.line = located_[l_ + 2];
        event.column = located_[l_ + 3];
      }
      pending_.push_back(event);
    }
    l_ += count;
    return true;
  }

  bool Step(spv::Op opcode, uint32_t count, std::string* why) {
    switch (opcode) {
      case spv::OpLine:
      case spv::OpNoLine:
        return Line(opcode, count, why);
      case spv::OpString: {
        // A string both modules hold (debugPrintf's formats) is matched by its text; one
        // only the module with lines holds names a file.
        if (count < 3) return Refuse(why, "an OpString without a string");
        std::string text = StringIn(located_, l_ + 2, l_ + count);
        file_of_string_[located_[l_ + 1]] = table_.FileIndex(text);
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
    if (opcode == spv::OpLabel) {
      in_block_ = true;
      label_offset_ = static_cast<uint32_t>(p_);
    }
    for (OutsideLines::Event& event : pending_) {
      event.before_offset = static_cast<uint32_t>(p_);
      table_.Add(event);
    }
    pending_.clear();
    if (opcode == spv::OpFunction || opcode == spv::OpFunctionEnd || IsBlockTerminator(opcode))
      in_block_ = false;
    p_ += count;
    l_ += count;
    return true;
  }

  const std::vector<uint32_t>& plain_;
  const std::vector<uint32_t>& located_;
  size_t p_ = kHeaderWords;
  size_t l_ = kHeaderWords;
  bool in_block_ = false;
  bool source_matched_ = false;
  uint32_t label_offset_ = 0;
  std::vector<OutsideLines::Event> pending_;
  std::unordered_map<uint32_t, int32_t> file_of_string_;
  OutsideLines table_;
};

}  // namespace

std::optional<OutsideLines> AlignOutsideLines(const std::vector<uint32_t>& plain,
                                              const std::vector<uint32_t>& located,
                                              std::string* why) {
  Aligner aligner(plain, located);
  if (!aligner.Run(why)) return std::nullopt;
  return std::move(aligner.table());
}

}  // namespace glint::spirv
