// StableFlatMap (SPIRV/analysis/facts/stable_flat_map.h): the uniformity solver's tables. A
// value's address holds while other keys are inserted and the table grows; absent keys
// read as absent; ids and pointers both key it; clear forgets everything.
#include "SPIRV/analysis/facts/stable_flat_map.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace glint::spirv {
namespace {

TEST(StableFlatMap, EmptyMapFindsNothingAndHoldsNothing) {
  StableFlatMap<uint32_t, int> map;
  EXPECT_EQ(map.Find(0), nullptr);
  EXPECT_EQ(map.Find(7), nullptr);
  EXPECT_EQ(map.size(), 0u);
}

TEST(StableFlatMap, ValuesStartDefaultAndKeepWhatWasSet) {
  StableFlatMap<uint32_t, int> map;
  EXPECT_EQ(map[5], 0);
  map[5] = 42;
  map[0] = 9;  // 0 is a key like any other
  ASSERT_NE(map.Find(5), nullptr);
  EXPECT_EQ(*map.Find(5), 42);
  EXPECT_EQ(*map.Find(0), 9);
  EXPECT_EQ(map.Find(6), nullptr);
  EXPECT_EQ(map.size(), 2u);
}

// The solver holds one fact while raising others: every address taken survives
// thousands of inserts (many growths of the slot table, many value chunks).
TEST(StableFlatMap, AddressesHoldWhileTheTableGrows) {
  StableFlatMap<uint32_t, uint64_t> map;
  std::vector<uint64_t*> addresses;
  for (uint32_t id = 1; id <= 5000; ++id) {
    uint64_t& value = map[id * 7919u];
    value = id;
    addresses.push_back(&value);
  }
  EXPECT_EQ(map.size(), 5000u);
  for (uint32_t id = 1; id <= 5000; ++id) {
    ASSERT_EQ(map.Find(id * 7919u), addresses[id - 1]) << id;
    EXPECT_EQ(*addresses[id - 1], id);
  }
  EXPECT_EQ(map.Find(3), nullptr);
}

TEST(StableFlatMap, PointersAreKeys) {
  std::vector<int> objects(300);
  StableFlatMap<const int*, int> map;
  for (size_t i = 0; i < objects.size(); i += 2) map[&objects[i]] = static_cast<int>(i);
  for (size_t i = 0; i < objects.size(); ++i) {
    const int* found = map.Find(&objects[i]);
    if (i % 2) {
      EXPECT_EQ(found, nullptr) << i;
    } else {
      ASSERT_NE(found, nullptr) << i;
      EXPECT_EQ(*found, static_cast<int>(i));
    }
  }
}

TEST(StableFlatMap, ClearForgetsEveryKey) {
  StableFlatMap<uint32_t, int> map;
  for (uint32_t id = 0; id < 100; ++id) map[id] = 1;
  map.clear();
  EXPECT_EQ(map.size(), 0u);
  EXPECT_EQ(map.Find(50), nullptr);
  EXPECT_EQ(map[50], 0) << "a key set before the clear starts over";
}

}  // namespace
}  // namespace glint::spirv
