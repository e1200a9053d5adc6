// The range analysis's memo: the range of every value it has computed, held compactly.
//
// A large shader asks for tens of thousands of values, and many have no range; each of
// those carries a reason that names its root cause, and the same reason reaches many
// values (every value computed from one buffer read says so). An entry holds the
// interval, the guard and the number of its reason in a table of distinct reasons, so
// an entry costs 32 bytes and a reason is held once, however many values share it.
// Find() gives back exactly the range that Put() was given. (An array by id was tried:
// at the peak of a large shader's run it held more than this map, since by then not
// every id has been asked for.)
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_MEMO_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_MEMO_H

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "SPIRV/analysis/integer_range_analysis.h"

namespace glint::spirv {

class IntegerRangeMemo {
 public:
  bool Has(uint32_t id) const { return entries_.count(id) != 0; }
  // Replaces what `id` held, if anything.
  void Put(uint32_t id, const IntegerRange& range);
  std::optional<IntegerRange> Find(uint32_t id) const;

  size_t size() const { return entries_.size(); }
  size_t distinct_reasons() const { return reasons_.size(); }

 private:
  struct Entry {
    int64_t min = 0;
    int64_t max = 0;
    const Instruction* guard = nullptr;
    uint32_t reason = kNoReason;  // position in reasons_
    bool valid = false;
    bool is_signed = false;
  };
  static constexpr uint32_t kNoReason = ~uint32_t{0};
  uint32_t Intern(const std::string& reason);

  std::unordered_map<uint32_t, Entry> entries_;
  std::unordered_map<std::string, uint32_t> reason_numbers_;
  std::vector<const std::string*> reasons_;  // the keys of reason_numbers_ (stable)
};

inline void IntegerRangeMemo::Put(uint32_t id, const IntegerRange& range) {
  Entry entry;
  entry.min = range.min;
  entry.max = range.max;
  entry.guard = range.guard;
  entry.reason = range.reason.empty() ? kNoReason : Intern(range.reason);
  entry.valid = range.valid;
  entry.is_signed = range.is_signed;
  entries_[id] = entry;
}

inline std::optional<IntegerRange> IntegerRangeMemo::Find(uint32_t id) const {
  auto found = entries_.find(id);
  if (found == entries_.end()) return std::nullopt;
  const Entry& entry = found->second;
  IntegerRange range;
  range.valid = entry.valid;
  range.is_signed = entry.is_signed;
  range.min = entry.min;
  range.max = entry.max;
  range.guard = entry.guard;
  if (entry.reason != kNoReason) range.reason = *reasons_[entry.reason];
  return range;
}

inline uint32_t IntegerRangeMemo::Intern(const std::string& reason) {
  auto [found, added] = reason_numbers_.emplace(reason, uint32_t(reasons_.size()));
  if (added) reasons_.push_back(&found->first);
  return found->second;
}

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_MEMO_H
