// A fixed-size table from ids or pointers to small indices, for per-function tables
// that are filled once and then only read (a CFG's block of a label id, a block's node).
//
// Why not std::unordered_map: these tables are built for every function of every
// compile, and a node-based map allocates (and later frees) one heap node per entry;
// with a few thousand blocks that was most of a CFG's construction. Here the keys live
// in one array probed linearly from a multiplicative hash, so filling the table costs
// one allocation and a lookup touches one or two cache lines.
//
// The capacity is fixed when the table is made (at least twice the keys it will hold,
// so probes stay short); inserting more keys than that is a programming error. There is
// no erase: the tables it serves never forget a key.
#ifndef GLINT_SPIRV_IR_FLAT_KEY_INDEX_H
#define GLINT_SPIRV_IR_FLAT_KEY_INDEX_H

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "key_hash.h"

namespace glint::spirv {

template <class Key>
class FlatKeyIndex {
  static_assert(std::is_integral_v<Key> || std::is_pointer_v<Key>, "keys are ids or pointers");

 public:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  FlatKeyIndex() = default;
  // Room for `expected_keys` keys.
  explicit FlatKeyIndex(size_t expected_keys) {
    size_t capacity = 8;
    while (capacity < 2 * expected_keys) capacity *= 2;
    slots_.assign(capacity, Slot{});
    shift_ = KeyHashShift(capacity);
    limit_ = expected_keys;
  }

  // Sets `key`'s index to `value` (replacing an earlier one). `value` is not kAbsent.
  void Set(Key key, uint32_t value) {
    assert(value != kAbsent && !slots_.empty());
    Slot& slot = slots_[Probe(key)];
    if (slot.value == kAbsent) {
      assert(size_ < limit_);
      ++size_;
    }
    slot.key = key;
    slot.value = value;
  }

  // `key`'s index, or kAbsent.
  uint32_t Find(Key key) const {
    if (slots_.empty()) return kAbsent;
    return slots_[Probe(key)].value;
  }

  size_t size() const { return size_; }

 private:
  struct Slot {
    Key key{};
    uint32_t value = kAbsent;
  };

  // The slot holding `key`, or the empty slot where it would go (key_hash.h).
  size_t Probe(Key key) const {
    const size_t mask = slots_.size() - 1;
    size_t at = FirstSlotOf(key, shift_);
    while (slots_[at].value != kAbsent && slots_[at].key != key) at = (at + 1) & mask;
    return at;
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
  size_t limit_ = 0;
  unsigned shift_ = 64;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_FLAT_KEY_INDEX_H
