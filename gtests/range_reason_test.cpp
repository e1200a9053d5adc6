// RangeReason (SPIRV/analysis/range/range_reason.h): a range's reason reads as the text it
// was given, copies share that text, and appending makes a new text without changing the
// copies that share the old one.
#include "SPIRV/analysis/range/range_reason.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace glint::spirv {
namespace {

TEST(RangeReason, ReadsAsTheTextItWasGiven) {
  RangeReason reason = "u32 subtraction may underflow";
  EXPECT_FALSE(reason.empty());
  EXPECT_EQ(reason, "u32 subtraction may underflow");
  EXPECT_EQ(reason.str(), std::string("u32 subtraction may underflow"));
  EXPECT_EQ(reason.size(), 29u);
  EXPECT_EQ(reason.find("may"), 16u);
  EXPECT_EQ(reason.rfind("u"), 20u);  // "underflow"
  EXPECT_EQ(reason.substr(0, 3), "u32");
  EXPECT_EQ(reason.compare("u32 subtraction may underflow"), 0);
  EXPECT_THAT(reason.str(), testing::HasSubstr("subtraction"));
  std::ostringstream printed;
  printed << reason;
  EXPECT_EQ(printed.str(), "u32 subtraction may underflow");
}

TEST(RangeReason, EmptyTextAndDefaultAreEmpty) {
  RangeReason none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none, "");
  EXPECT_TRUE(RangeReason(std::string()).empty());
  EXPECT_EQ(none.str().size(), 0u);
}

TEST(RangeReason, CopiesShareOneText) {
  RangeReason first = "a value stored to the local has no range: value read from memory";
  RangeReason copy = first;
  EXPECT_EQ(&first.str(), &copy.str()) << "a copy points at the same characters";
  EXPECT_EQ(copy, first);
}

TEST(RangeReason, AppendingLeavesTheOtherCopiesAlone) {
  RangeReason first = "function parameters have no range";
  RangeReason copy = first;
  copy += " (past 64 cases, budget kMaxCasesPerCall)";
  EXPECT_EQ(first, "function parameters have no range");
  EXPECT_EQ(copy, "function parameters have no range (past 64 cases, budget kMaxCasesPerCall)");
  RangeReason empty;
  empty += "now set";
  EXPECT_EQ(empty, "now set");
}

TEST(RangeReason, JoinsWithTextOnEitherSide) {
  RangeReason root = "value read from Uniform memory";
  EXPECT_EQ("a value the function returns has no range: " + root,
            "a value the function returns has no range: value read from Uniform memory");
  EXPECT_EQ(std::string("in this call: ") + root, "in this call: value read from Uniform memory");
  EXPECT_EQ(root + " (twice)", "value read from Uniform memory (twice)");
  EXPECT_TRUE(root != "another reason");
  EXPECT_TRUE("value read from Uniform memory" == root);
  EXPECT_TRUE(root == std::string("value read from Uniform memory"));
}

}  // namespace
}  // namespace glint::spirv
