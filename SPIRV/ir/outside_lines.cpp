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

bool Refuse(std::string* why, const std::string& reason) {
  if (why) *why = reason;
  return false;
}

}  // namespace

void OutsideLinesCollector::String(uint32_t id, const std::string& text) {
  file_of_string_[id] = table_.FileIndex(text);
}

bool OutsideLinesCollector::Line(const uint32_t* words, size_t at, spv::Op opcode,
                                 uint32_t count, std::string* why) {
  if (!in_block_) return true;  // SourceLines reads only lines inside blocks
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

void OutsideLinesCollector::Kept(spv::Op opcode, size_t plain_offset) {
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

namespace {

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
        if (!lines_.Line(located_.data(), l_, opcode, count, why)) return false;
        l_ += count;
        return true;
      case spv::OpString: {
        // A string both modules hold (debugPrintf's formats) is matched by its text; one
        // only the module with lines holds names a file.
        if (count < 3) return Refuse(why, "an OpString without a string");
        std::string text = LiteralString(located_.data(), l_ + 2, l_ + count);
        lines_.String(located_[l_ + 1], text);
        if (PlainIs(spv::OpString) && (plain_[p_] >> 16) == count &&
            LiteralString(plain_.data(), p_ + 2, p_ + count) == text)
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
  OutsideLinesCollector lines_;
};

}  // namespace

std::optional<OutsideLines> AlignOutsideLines(const std::vector<uint32_t>& plain,
                                              const std::vector<uint32_t>& located,
                                              std::string* why) {
  Aligner aligner(plain, located);
  if (!aligner.Run(why)) return std::nullopt;
  return std::move(aligner.table());
}

std::optional<LineStringIds> FindLineStringIds(const uint32_t* words, size_t count,
                                               std::string* why) {
  if (count < kHeaderWords) {
    Refuse(why, "the module is shorter than its header");
    return std::nullopt;
  }
  const uint32_t bound = words[3];
  if (bound > kMaxIdBound) {  // the tables below are by id
    Refuse(why, "the id bound is over SPIR-V's maximum");
    return std::nullopt;
  }
  std::vector<uint32_t> strings, named_by_lines;
  for (size_t at = kHeaderWords; at < count;) {
    const uint32_t word_count = words[at] >> 16;
    if (word_count == 0 || at + word_count > count) {
      Refuse(why, "malformed word count at word " + std::to_string(at));
      return std::nullopt;
    }
    const auto opcode = static_cast<spv::Op>(words[at] & 0xffff);
    if (opcode == spv::OpString && word_count >= 3) {
      if (words[at + 1] >= bound) {
        Refuse(why, "an OpString id is past the bound");
        return std::nullopt;
      }
      strings.push_back(words[at + 1]);
    } else if (opcode == spv::OpLine && word_count == 4) {
      named_by_lines.push_back(words[at + 1]);
    } else if (opcode == spv::OpSource && word_count >= 4) {
      named_by_lines.push_back(words[at + 3]);
    } else if (opcode == spv::OpExtInstImport) {
      std::string set = LiteralString(words, at + 2, at + word_count);
      if (set.rfind("NonSemantic.", 0) == 0 && set != "NonSemantic.DebugPrintf") {
        Refuse(why, "the module has non-semantic debug information");
        return std::nullopt;
      }
    }
    at += word_count;
  }
  std::sort(named_by_lines.begin(), named_by_lines.end());
  LineStringIds ids;
  ids.kept_string.assign(bound, 0);
  std::vector<uint32_t> removed;
  for (uint32_t id : strings) {
    if (std::binary_search(named_by_lines.begin(), named_by_lines.end(), id))
      removed.push_back(id);
    else
      ids.kept_string[id] = 1;
  }
  std::sort(removed.begin(), removed.end());
  removed.erase(std::unique(removed.begin(), removed.end()), removed.end());
  // new id = old id - the removed ids below it; 0 for a removed one.
  ids.new_ids.assign(bound, 0);
  uint32_t below = 0;
  size_t next_removed = 0;
  for (uint32_t id = 1; id < bound; ++id) {
    if (next_removed < removed.size() && removed[next_removed] == id) {
      ++below;
      ++next_removed;
      continue;
    }
    ids.new_ids[id] = id - below;
  }
  ids.new_bound = bound - below;
  return ids;
}

}  // namespace glint::spirv
