// The range analysis's memo: the range of every value it has computed, held compactly.
//
// A large shader asks for tens of thousands of values, and many have no range; each of
// those carries a reason that names its root cause, and the same reason reaches many
// values (every value computed from one buffer read says so). An entry holds the
// interval, the guard and the numbers of its reason's texts in a table of distinct
// texts, so an entry costs 40 bytes (in chunks of a flat map, with an 8-byte probe slot
// at most half full: no heap node, and no allocation, per entry) and a text is held
// once, however many values share it. A reason with an elided middle ("... [N more
// steps] ...", range_reason_text.h) is held as its two texts and N: along a chain of 500
// calls each depth had its own 300-character reason, 3.5 bytes per input word in all.
// Find() gives back exactly the range that Put() was given, its reason sharing the
// held text (RangeReason: no copy of the characters). (An array by id was tried:
// at the peak of a large shader's run it held more than this map, since by then not
// every id has been asked for.)
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_MEMO_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_MEMO_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "SPIRV/analysis/facts/stable_flat_map.h"
#include "SPIRV/analysis/range/range_reason.h"
#include "SPIRV/analysis/range/range_reason_text.h"
#include "SPIRV/analysis/range/range_types.h"

namespace glint::spirv {

class IntegerRangeMemo {
 public:
  bool Has(uint32_t id) const { return entries_.Find(id) != nullptr; }
  // Replaces what `id` held, if anything.
  void Put(uint32_t id, const IntegerRange& range);
  std::optional<IntegerRange> Find(uint32_t id) const;

  size_t size() const { return entries_.size(); }
  // Distinct texts held: whole reasons, and the parts around an elision.
  size_t distinct_reasons() const { return reasons_.size(); }

 private:
  struct Entry {
    int64_t min = 0;
    int64_t max = 0;
    const Instruction* guard = nullptr;
    // Positions in reasons_: the whole reason, or the texts before and after its elision
    // marker with `elided_steps` its count (kNotElided for a reason without one).
    uint32_t reason = kNoReason;
    uint32_t reason_tail = kNoReason;
    uint32_t elided_steps = kNotElided;
    bool valid = false;
    bool is_signed = false;
  };
  static constexpr uint32_t kNoReason = ~uint32_t{0};
  static constexpr uint32_t kNotElided = ~uint32_t{0};

  // The number of `text`, held from now on if it was not yet (as `text` itself, shared).
  uint32_t Intern(const RangeReason& text);

  // Flat, values in chunks: a node per entry was an allocation per value asked.
  StableFlatMap<uint32_t, Entry> entries_;
  // Distinct texts, each once; the index views the texts, which never move.
  std::vector<RangeReason> reasons_;
  std::unordered_map<std::string_view, uint32_t> reason_numbers_;
};

inline uint32_t IntegerRangeMemo::Intern(const RangeReason& text) {
  auto known = reason_numbers_.find(text.str());
  if (known != reason_numbers_.end()) return known->second;
  uint32_t number = uint32_t(reasons_.size());
  reasons_.push_back(text);
  reason_numbers_.emplace(reasons_.back().str(), number);
  return number;
}

inline void IntegerRangeMemo::Put(uint32_t id, const IntegerRange& range) {
  Entry entry;
  entry.min = range.min;
  entry.max = range.max;
  entry.guard = range.guard;
  if (!range.reason.empty()) {
    if (auto elided = range_reason_text::SplitAtElision(range.reason.str())) {
      entry.reason = Intern(std::string(elided->head));
      entry.reason_tail = Intern(std::string(elided->tail));
      entry.elided_steps = elided->steps;
    } else {
      entry.reason = Intern(range.reason);
    }
  }
  entry.valid = range.valid;
  entry.is_signed = range.is_signed;
  entries_[id] = entry;
}

inline std::optional<IntegerRange> IntegerRangeMemo::Find(uint32_t id) const {
  const Entry* found = entries_.Find(id);
  if (!found) return std::nullopt;
  const Entry& entry = *found;
  IntegerRange range;
  range.valid = entry.valid;
  range.is_signed = entry.is_signed;
  range.min = entry.min;
  range.max = entry.max;
  range.guard = entry.guard;
  if (entry.elided_steps != kNotElided) {
    range.reason = range_reason_text::JoinElided(reasons_[entry.reason].str(), entry.elided_steps,
                                                 reasons_[entry.reason_tail].str());
  } else if (entry.reason != kNoReason) {
    range.reason = reasons_[entry.reason];
  }
  return range;
}

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_MEMO_H
