// Where a flat hash table of ids or pointers starts looking for a key: the one hash of
// FlatKeyIndex (ir/flat_key_index.h) and StableFlatMap (analysis/facts/stable_flat_map.h).
//
// Fibonacci hashing: the key times 2^64 / golden ratio, keeping the product's top bits.
// Ids are dense and pointers share their low (alignment) bits; the top bits of the
// product mix every bit of the key, so both spread over the table.
#ifndef GLINT_SPIRV_IR_KEY_HASH_H
#define GLINT_SPIRV_IR_KEY_HASH_H

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace glint::spirv {

// The shift that keeps log2(capacity) top bits of a 64-bit product (`capacity` a power
// of two, at least 2).
inline unsigned KeyHashShift(size_t capacity) {
  unsigned shift = 64;
  for (size_t c = capacity; c > 1; c >>= 1) --shift;
  return shift;
}

// The first slot to probe for `key` in a table whose KeyHashShift is `shift`.
template <class Key>
size_t FirstSlotOf(Key key, unsigned shift) {
  static_assert(std::is_integral_v<Key> || std::is_pointer_v<Key>, "keys are ids or pointers");
  uint64_t bits;
  if constexpr (std::is_pointer_v<Key>)
    bits = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(key));
  else
    bits = static_cast<uint64_t>(key);
  return static_cast<size_t>((bits * 0x9E3779B97F4A7C15ull) >> shift);
}

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_KEY_HASH_H
