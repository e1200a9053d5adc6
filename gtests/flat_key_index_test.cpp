// FlatKeyIndex (SPIRV/ir/flat_key_index.h): the fixed-size key-to-index tables of a CFG.
// Keys read back what was set, a key set twice keeps the last index, absent keys (and
// an empty table) read as absent, and ids and pointers both key it, many of them at
// once without losing any.
#include "SPIRV/ir/flat_key_index.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace glint::spirv {
namespace {

TEST(FlatKeyIndex, EmptyTableFindsNothing) {
  FlatKeyIndex<uint32_t> unsized;
  EXPECT_EQ(unsized.Find(0), FlatKeyIndex<uint32_t>::kAbsent);
  EXPECT_EQ(unsized.Find(12), FlatKeyIndex<uint32_t>::kAbsent);
  FlatKeyIndex<uint32_t> sized(4);
  EXPECT_EQ(sized.Find(3), FlatKeyIndex<uint32_t>::kAbsent);
  EXPECT_EQ(sized.size(), 0u);
}

TEST(FlatKeyIndex, KeysReadBackTheirIndexAndTheLastSetWins) {
  FlatKeyIndex<uint32_t> index(3);
  index.Set(7, 0);
  index.Set(0, 1);  // 0 is a key like any other
  index.Set(7, 2);  // an id given twice: the last one
  EXPECT_EQ(index.Find(7), 2u);
  EXPECT_EQ(index.Find(0), 1u);
  EXPECT_EQ(index.Find(8), FlatKeyIndex<uint32_t>::kAbsent);
  EXPECT_EQ(index.size(), 2u);
}

// Dense ids and pointers a stride apart are the keys it holds; each of thousands keeps
// its own index, and keys just beside them stay absent.
TEST(FlatKeyIndex, ManyIdsAndPointersKeepTheirIndices) {
  constexpr uint32_t kKeys = 5000;
  FlatKeyIndex<uint32_t> ids(kKeys);
  for (uint32_t i = 0; i < kKeys; ++i) ids.Set(100 + 3 * i, i);
  for (uint32_t i = 0; i < kKeys; ++i) {
    EXPECT_EQ(ids.Find(100 + 3 * i), i);
    EXPECT_EQ(ids.Find(101 + 3 * i), FlatKeyIndex<uint32_t>::kAbsent);
  }
  std::vector<uint64_t> storage(kKeys);
  FlatKeyIndex<const uint64_t*> pointers(kKeys);
  for (uint32_t i = 0; i < kKeys; ++i) pointers.Set(&storage[i], kKeys - i);
  for (uint32_t i = 0; i < kKeys; ++i) EXPECT_EQ(pointers.Find(&storage[i]), kKeys - i);
  const uint64_t elsewhere = 0;
  EXPECT_EQ(pointers.Find(&elsewhere), FlatKeyIndex<const uint64_t*>::kAbsent);
  EXPECT_EQ(pointers.Find(nullptr), FlatKeyIndex<const uint64_t*>::kAbsent);
  EXPECT_EQ(pointers.size(), kKeys);
}

}  // namespace
}  // namespace glint::spirv
