// SmallIdList (SPIRV/analysis/facts/small_ids.h): short id lists held in place, longer
// ones on the heap, with the same contents and order either way.
#include <gtest/gtest.h>

#include <vector>

#include "SPIRV/analysis/facts/small_ids.h"

namespace glint::spirv {
namespace {

std::vector<uint32_t> Contents(const SmallIdList<4>& list) {
  return std::vector<uint32_t>(list.begin(), list.end());
}

TEST(SmallIdList, KeepsOrderAcrossTheMoveToTheHeap) {
  SmallIdList<4> list;
  EXPECT_TRUE(list.empty());
  std::vector<uint32_t> expected;
  for (uint32_t id = 10; id < 20; ++id) {  // past kInline: the ids move to the heap whole
    list.push_back(id);
    expected.push_back(id);
    ASSERT_EQ(Contents(list), expected) << "after " << id;
    ASSERT_EQ(list.size(), expected.size());
    EXPECT_EQ(list[list.size() - 1], id);
  }
  EXPECT_EQ(list.ToVector(), expected);
}

TEST(SmallIdList, BuiltFromListsIteratorsAndVectors) {
  EXPECT_EQ(Contents({}), std::vector<uint32_t>{});
  EXPECT_EQ(Contents({7, 8}), (std::vector<uint32_t>{7, 8}));
  std::vector<uint32_t> many = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(Contents(many), many);  // the implicit conversion rules use
  const uint32_t words[] = {9, 8, 7};
  EXPECT_EQ(Contents(SmallIdList<4>(words, words + 3)), (std::vector<uint32_t>{9, 8, 7}));
}

TEST(SmallIdList, CopiesAreIndependent) {
  SmallIdList<4> heap = std::vector<uint32_t>{1, 2, 3, 4, 5};
  SmallIdList<4> in_place = {6, 7};
  SmallIdList<4> copy = heap;
  copy.push_back(99);
  EXPECT_EQ(Contents(heap), (std::vector<uint32_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(Contents(copy), (std::vector<uint32_t>{1, 2, 3, 4, 5, 99}));
  copy = in_place;  // from the heap back to in place
  EXPECT_EQ(Contents(copy), (std::vector<uint32_t>{6, 7}));
  copy = heap;
  EXPECT_EQ(Contents(copy), (std::vector<uint32_t>{1, 2, 3, 4, 5}));
  copy.clear();
  EXPECT_TRUE(copy.empty());
  copy.push_back(3);
  EXPECT_EQ(Contents(copy), (std::vector<uint32_t>{3}));
}

}  // namespace
}  // namespace glint::spirv
