// Source lines of instructions (see source_lines.h).
#include "source_lines.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <vector>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

bool SourceLines::Apply(const Instruction& inst, SourceLocation* location) const {
  if (inst.opcode == spv::OpNoLine) {
    *location = SourceLocation{};
    return true;
  }
  if (inst.opcode != spv::OpLine) return false;
  LineView line(inst);
  const Instruction* file = def_use_.Definition(line.file());
  location->file = file && file->opcode == spv::OpString ? StringView(*file).text() : "";
  location->line = line.line();
  location->column = line.column();
  return true;
}

std::pair<const OutsideLines::Event*, const OutsideLines::Event*> SourceLines::OutsideEvents(
    const Block* block) {
  if (!outside_ || block->label.source_offset == 0) return {nullptr, nullptr};
  if (!outside_table_) outside_table_ = outside_->Get();
  if (!outside_table_) return {nullptr, nullptr};
  return outside_table_->EventsOf(block->label.source_offset);
}

bool SourceLines::OwnEnd(const Block* block, SourceLocation* location) {
  auto memo = end_.find(block);
  if (memo == end_.end()) {
    bool has_lines = false;
    SourceLocation end;
    auto [first, last] = OutsideEvents(block);
    if (first != last) {
      has_lines = true;
      end = outside_table_->LocationOf(*(last - 1));
    }
    for (const Instruction& inst : block->instructions) has_lines |= Apply(inst, &end);
    memo = end_.emplace(block, std::make_pair(has_lines, std::move(end))).first;
  }
  if (memo->second.first) *location = memo->second.second;
  return memo->second.first;
}

SourceLocation SourceLines::AtStart(const Block* block, Function& function) {
  auto memo = start_.find(block);
  if (memo != start_.end()) return memo->second;
  const Cfg& cfg = cfgs_(function);
  // Walk up until a dominator with lines of its own, or one whose start is known; every
  // block passed on the way has no lines, so it starts and ends with what is found.
  std::vector<const Block*> chain{block};
  SourceLocation found;
  for (const Block* up = cfg.ImmediateDominator(block); up; up = cfg.ImmediateDominator(up)) {
    if (OwnEnd(up, &found)) break;
    auto known = start_.find(up);
    if (known != start_.end()) {
      found = known->second;
      break;
    }
    chain.push_back(up);
  }
  for (const Block* each : chain) start_[each] = found;
  return found;
}

const SourceLines::BlockIndex& SourceLines::IndexOf(const Block* block, Function& function) {
  auto known = blocks_.find(block);
  if (known != blocks_.end()) return known->second;
  BlockIndex index;
  index.segments.push_back({AtStart(block, function), true});
  auto [next, last] = OutsideEvents(block);
  // For each instruction, the source offset of the first one at or after it that has
  // one: the events keyed up to there open before it.
  std::vector<uint32_t> next_kept;
  if (next != last) {
    next_kept.resize(block->instructions.size());
    uint32_t kept = UINT32_MAX;
    size_t i = next_kept.size();
    for (auto it = block->instructions.rbegin(); it != block->instructions.rend(); ++it) {
      if (it->source_offset) kept = it->source_offset;
      next_kept[--i] = kept;
    }
  }
  bool offsets_rise = true;
  uint32_t previous_offset = 0;
  for (const Instruction& inst : block->instructions) {
    if (inst.source_offset == 0) continue;
    offsets_rise &= inst.source_offset > previous_offset;
    previous_offset = inst.source_offset;
  }
  size_t position = 0;
  uint32_t opened = UINT32_MAX;  // the segment opening_offsets last recorded
  for (const Instruction& inst : block->instructions) {
    if (next != last && next->before_offset <= next_kept[position]) {
      while (next + 1 != last && (next + 1)->before_offset <= next_kept[position]) ++next;
      index.segments.push_back({outside_table_->LocationOf(*next), false});
      ++next;
    }
    ++position;
    const uint32_t segment = static_cast<uint32_t>(index.segments.size() - 1);
    if (offsets_rise && inst.source_offset != 0) {
      if (segment != opened) index.opening_offsets.emplace_back(inst.source_offset, segment);
      opened = segment;
    } else {
      index.segment_of.emplace(&inst, segment);
    }
    if (inst.opcode == spv::OpLine || inst.opcode == spv::OpNoLine) {  // copied only for those
      Located next{index.segments.back().location, false};
      if (Apply(inst, &next.location)) index.segments.push_back(std::move(next));
    }
  }
  return blocks_.emplace(block, std::move(index)).first->second;
}

std::optional<uint32_t> SourceLines::SegmentOf(const BlockIndex& index, const Instruction* inst) {
  auto mapped = index.segment_of.find(inst);
  if (mapped != index.segment_of.end()) return mapped->second;
  if (inst->source_offset == 0 || index.opening_offsets.empty()) return std::nullopt;
  // The last segment opened at or before the instruction's offset (the caller found the
  // instruction in this block).
  auto after = std::upper_bound(index.opening_offsets.begin(), index.opening_offsets.end(),
                                inst->source_offset,
                                [](uint32_t offset, const std::pair<uint32_t, uint32_t>& entry) {
                                  return offset < entry.first;
                                });
  if (after == index.opening_offsets.begin()) return std::nullopt;
  return std::prev(after)->second;
}

SourceLines::Located SourceLines::Locate(const Instruction* inst) {
  const Block* block = inst ? def_use_.BlockOf(inst) : nullptr;
  Function* function = inst ? def_use_.FunctionOf(inst) : nullptr;
  if (!block || !function) return {};
  const BlockIndex& index = IndexOf(block, *function);
  std::optional<uint32_t> segment = SegmentOf(index, inst);
  return segment ? index.segments[*segment] : Located{};
}

}  // namespace glint::spirv
