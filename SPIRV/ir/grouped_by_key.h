// GroupStablyByKey: (key, value) pairs grouped by key into one flat array, each key's
// values in the order they were given (a counting sort). Per-block lists built this way
// (dominance frontiers, ...) cost two arrays per function instead of a vector per block,
// and keep the order the lists were found in, which later walks depend on.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace glint::spirv {

// Afterwards key k's values are (*values)[(*starts)[k] .. (*starts)[k + 1]); every key
// must be below key_count (keys with no pair get an empty range).
template <class Start, class Key, class Value>
void GroupStablyByKey(const std::vector<std::pair<Key, Value>>& pairs, size_t key_count,
                      std::vector<Start>* starts, std::vector<Value>* values) {
  starts->assign(key_count + 1, Start(0));
  for (const auto& pair : pairs) ++(*starts)[size_t(pair.first) + 1];
  for (size_t key = 0; key < key_count; ++key) (*starts)[key + 1] += (*starts)[key];
  values->assign(pairs.size(), Value{});
  std::vector<Start> next(starts->begin(), starts->end() - 1);
  for (const auto& [key, value] : pairs) (*values)[size_t(next[size_t(key)]++)] = value;
}

}  // namespace glint::spirv
