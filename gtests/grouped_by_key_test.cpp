// GroupStablyByKey (SPIRV/ir/grouped_by_key.h): every key's values come back in the order
// given, keys without pairs read as empty, and on random pairs the groups equal a
// stable sort by key.
#include "SPIRV/ir/grouped_by_key.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace glint::spirv {
namespace {

TEST(GroupStablyByKey, KeepsEachKeysOrderAndLeavesOtherKeysEmpty) {
  const std::vector<std::pair<int, int>> pairs = {{2, 30}, {0, 10}, {2, 31}, {0, 11}, {2, 29}};
  std::vector<int> starts, values;
  GroupStablyByKey(pairs, 4, &starts, &values);
  EXPECT_EQ(starts, (std::vector<int>{0, 2, 2, 5, 5}));
  EXPECT_EQ(values, (std::vector<int>{10, 11, 30, 31, 29}));
}

TEST(GroupStablyByKey, NoPairsGiveEmptyGroups) {
  std::vector<uint32_t> starts = {7, 7};
  std::vector<const int*> values = {nullptr};
  GroupStablyByKey(std::vector<std::pair<uint32_t, const int*>>{}, 3, &starts, &values);
  EXPECT_EQ(starts, (std::vector<uint32_t>{0, 0, 0, 0}));
  EXPECT_TRUE(values.empty());
}

TEST(GroupStablyByKey, MatchesAStableSortOnRandomPairs) {
  std::mt19937 random(45);
  for (int round = 0; round < 50; ++round) {
    const size_t keys = 1 + random() % 40;
    std::vector<std::pair<uint32_t, int>> pairs(random() % 300);
    for (size_t i = 0; i < pairs.size(); ++i) pairs[i] = {uint32_t(random() % keys), int(i)};
    std::vector<uint32_t> starts;
    std::vector<int> values;
    GroupStablyByKey(pairs, keys, &starts, &values);
    std::vector<std::pair<uint32_t, int>> sorted = pairs;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    ASSERT_EQ(values.size(), pairs.size());
    for (size_t i = 0; i < sorted.size(); ++i) {
      EXPECT_EQ(values[i], sorted[i].second);
      EXPECT_GE(i, starts[sorted[i].first]);
      EXPECT_LT(i, starts[sorted[i].first + 1]);
    }
  }
}

}  // namespace
}  // namespace glint::spirv
