// A map from ids or pointers to values for the hot tables of the uniformity solver.
//
// What it keeps of std::unordered_map: a reference to a value stays valid while other
// keys are inserted (the solver raises one fact while it holds another), and an absent
// key reads as absent. What it drops: a heap node per entry and a hash of the key
// through a bucket list. Keys probe one flat array of (key, index) slots, linearly;
// values live in chunks of kChunk that never move. There is no erase (the solver never
// forgets a fact) and no iteration (nothing may depend on an order).
//
// An empty map allocates nothing, so a solver made for one call context and asked
// nothing costs nothing here.
#ifndef GLINT_SPIRV_ANALYSIS_STABLE_FLAT_MAP_H
#define GLINT_SPIRV_ANALYSIS_STABLE_FLAT_MAP_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "SPIRV/ir/key_hash.h"

namespace glint::spirv {

template <class Key, class Value>
class StableFlatMap {
  static_assert(std::is_integral_v<Key> || std::is_pointer_v<Key>,
                "keys are ids or pointers");

 public:
  // The value of `key`, default-constructed on first use.
  Value& operator[](Key key) {
    if (Value* found = Find(key)) return *found;
    if (2 * (size_ + 1) > slots_.size()) Grow();
    Slot& slot = slots_[Probe(key)];
    slot.key = key;
    slot.index = static_cast<uint32_t>(size_);
    if (size_ % kChunk == 0) chunks_.push_back(std::make_unique<Value[]>(kChunk));
    ++size_;
    return At(slot.index);
  }

  // The value of `key`, or null when it was never set.
  const Value* Find(Key key) const {
    if (slots_.empty()) return nullptr;
    const Slot& slot = slots_[Probe(key)];
    return slot.index == kEmpty ? nullptr : &chunks_[slot.index / kChunk][slot.index % kChunk];
  }
  Value* Find(Key key) {
    return const_cast<Value*>(static_cast<const StableFlatMap&>(*this).Find(key));
  }

  size_t size() const { return size_; }

  // Calls visit(key) for every key set, in no particular order.
  template <class Visit>
  void ForEachKey(Visit visit) const {
    for (const Slot& slot : slots_)
      if (slot.index != kEmpty) visit(slot.key);
  }

  void clear() {
    slots_.clear();
    chunks_.clear();
    size_ = 0;
  }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  static constexpr size_t kChunk = 64;

  struct Slot {
    Key key{};
    uint32_t index = kEmpty;
  };

  // The slot holding `key`, or the empty slot where it would go (SPIRV/ir/key_hash.h).
  // The table is never more than half full, so a probe ends.
  size_t Probe(Key key) const {
    const size_t mask = slots_.size() - 1;
    size_t at = FirstSlotOf(key, shift_);
    while (slots_[at].index != kEmpty && slots_[at].key != key) at = (at + 1) & mask;
    return at;
  }

  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    const size_t capacity = old.empty() ? 16 : old.size() * 2;
    slots_.assign(capacity, Slot{});
    shift_ = KeyHashShift(capacity);
    for (const Slot& slot : old)
      if (slot.index != kEmpty) slots_[Probe(slot.key)] = slot;
  }

  Value& At(uint32_t index) { return chunks_[index / kChunk][index % kChunk]; }

  std::vector<Slot> slots_;  // a power of two in size, at most half full
  std::vector<std::unique_ptr<Value[]>> chunks_;
  size_t size_ = 0;
  unsigned shift_ = 64;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_STABLE_FLAT_MAP_H
