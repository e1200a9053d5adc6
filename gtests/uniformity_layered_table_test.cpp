// LayeredTable (SPIRV/analysis/uniformity/uniformity_internal.h): a call context's memory facts and
// bindings over its caller's. Every read and write must answer as a copy of the caller's
// table would, and the caller's table must never change.
#include <gtest/gtest.h>

#include <set>

#include "SPIRV/analysis/uniformity/uniformity_internal.h"

namespace glint::spirv::uniformity_detail {
namespace {

TEST(LayeredTable, ReadsFallThroughToTheTableBelow) {
  LayeredTable<int> caller;
  caller.Writable(7) = 3;
  LayeredTable<int> context;
  context.Over(&caller);
  ASSERT_NE(context.Find(7), nullptr);
  EXPECT_EQ(*context.Find(7), 3);
  EXPECT_EQ(context.Find(8), nullptr);
}

TEST(LayeredTable, WritesStartFromWhatReadsGaveAndStayInTheLayer) {
  LayeredTable<std::set<uint32_t>> caller;
  caller.Writable(1).insert(10);
  LayeredTable<std::set<uint32_t>> context;
  context.Over(&caller);
  EXPECT_FALSE(context.Writable(1).insert(10).second) << "the copy already holds 10";
  EXPECT_TRUE(context.Writable(1).insert(11).second);
  EXPECT_EQ(*context.Find(1), (std::set<uint32_t>{10, 11}));
  EXPECT_EQ(*caller.Find(1), (std::set<uint32_t>{10})) << "the caller's table is unchanged";
}

TEST(LayeredTable, DroppedIdsReadAsMissingThenStartFresh) {
  LayeredTable<int> caller;
  caller.Writable(5) = 9;
  LayeredTable<int> context;
  context.Over(&caller);
  context.Drop(5);
  EXPECT_EQ(context.Find(5), nullptr);
  EXPECT_EQ(context.Writable(5), 0) << "a dropped id starts from the default, not the caller's";
  EXPECT_EQ(*caller.Find(5), 9);
}

TEST(LayeredTable, ThreeLayersReadThroughEach) {
  LayeredTable<int> top, middle, bottom;
  top.Writable(1) = 1;
  top.Writable(2) = 2;
  middle.Over(&top);
  middle.Writable(2) = 20;
  bottom.Over(&middle);
  bottom.Drop(1);
  EXPECT_EQ(bottom.Find(1), nullptr);
  EXPECT_EQ(*bottom.Find(2), 20);
  EXPECT_EQ(*middle.Find(1), 1);
}

}  // namespace
}  // namespace glint::spirv::uniformity_detail
