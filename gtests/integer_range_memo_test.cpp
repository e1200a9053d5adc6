// IntegerRangeMemo (SPIRV/analysis/range/integer_range_memo.h): what is put is found again,
// field for field, and a reason shared by many values is held once; a reason with an
// elided middle comes back character for character while its texts are held once.
#include "SPIRV/analysis/range/integer_range_memo.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace glint::spirv {
namespace {

void ExpectSame(const IntegerRange& expected, const IntegerRange& found) {
  EXPECT_EQ(expected.valid, found.valid);
  EXPECT_EQ(expected.is_signed, found.is_signed);
  EXPECT_EQ(expected.min, found.min);
  EXPECT_EQ(expected.max, found.max);
  EXPECT_EQ(expected.reason, found.reason);
  EXPECT_EQ(expected.guard, found.guard);
}

TEST(IntegerRangeMemo, FindsWhatWasPut_FieldForField) {
  IntegerRangeMemo memo;
  Instruction branch;
  IntegerRange signed_range = IntegerRange::Of(true, -7, 12);
  signed_range.guard = &branch;
  IntegerRange unsigned_range = IntegerRange::Of(false, 0, 4294967295);
  IntegerRange none = IntegerRange::None("value read from Uniform memory");
  memo.Put(3, signed_range);
  memo.Put(4, unsigned_range);
  memo.Put(9, none);
  ASSERT_TRUE(memo.Has(3) && memo.Has(4) && memo.Has(9));
  ExpectSame(signed_range, *memo.Find(3));
  ExpectSame(unsigned_range, *memo.Find(4));
  ExpectSame(none, *memo.Find(9));
  EXPECT_EQ(3u, memo.size());
}

TEST(IntegerRangeMemo, FoundReasonSharesTheHeldText) {
  IntegerRangeMemo memo;
  IntegerRange none = IntegerRange::None("value read from StorageBuffer memory");
  memo.Put(7, none);
  memo.Put(8, none);
  IntegerRange first = *memo.Find(7), second = *memo.Find(8);
  EXPECT_EQ(first.reason, "value read from StorageBuffer memory");
  EXPECT_EQ(&first.reason.str(), &second.reason.str())
      << "reading a reason back copies no characters";
  EXPECT_EQ(&first.reason.str(), &none.reason.str()) << "the memo holds the text it was given";
}

TEST(IntegerRangeMemo, AnIdNeverPutIsNotFound) {
  IntegerRangeMemo memo;
  memo.Put(5, IntegerRange::Of(false, 1, 2));
  EXPECT_FALSE(memo.Has(6));
  EXPECT_FALSE(memo.Find(6).has_value());
  EXPECT_FALSE(memo.Find(0).has_value());
}

TEST(IntegerRangeMemo, PutAgainReplaces) {
  IntegerRangeMemo memo;
  memo.Put(5, IntegerRange::None("cyclic definition of %5"));
  memo.Put(5, IntegerRange::Of(false, 0, 3));
  ExpectSame(IntegerRange::Of(false, 0, 3), *memo.Find(5));
  EXPECT_EQ(1u, memo.size());
}

TEST(IntegerRangeMemo, OneReasonReachingManyValuesIsHeldOnce) {
  IntegerRangeMemo memo;
  const std::string shared =
      "a value stored to the local has no range: value read from "
      "StorageBuffer memory (data the application provides)";
  for (uint32_t id = 1; id <= 1000; ++id) memo.Put(id, IntegerRange::None(shared));
  memo.Put(1001, IntegerRange::None("local may be read before it is assigned"));
  memo.Put(1002, IntegerRange::Of(false, 0, 1));  // no reason: nothing interned
  EXPECT_EQ(2u, memo.distinct_reasons());
  for (uint32_t id : {1u, 500u, 1000u}) EXPECT_EQ(shared, memo.Find(id)->reason);
  EXPECT_EQ("local may be read before it is assigned", memo.Find(1001)->reason);
}

// The reason text of a value `depth` calls down a chain, as BoundedReason writes it.
std::string ChainReason(uint32_t depth) {
  return "a value the function returns has no range: a value stored to the local has no "
         "range: an argument passed to the parameter has no range: [" +
         std::to_string(depth) +
         " more steps] a value stored to the local has no range: value read from Uniform "
         "memory (data the application provides)";
}

TEST(IntegerRangeMemo, ReasonsThatDifferOnlyInTheirElidedCountShareTheirTexts) {
  IntegerRangeMemo memo;
  for (uint32_t depth = 1; depth <= 500; ++depth)
    memo.Put(depth, IntegerRange::None(ChainReason(depth)));
  EXPECT_EQ(2u, memo.distinct_reasons()) << "the text before the marker and the text after it";
  for (uint32_t depth : {1u, 9u, 10u, 499u, 500u})
    EXPECT_EQ(ChainReason(depth), memo.Find(depth)->reason);
}

TEST(IntegerRangeMemo, AnythingShapedLikeAMarkerComesBackCharacterForCharacter) {
  // Only a count written as BoundedReason writes it is split; anything else that looks
  // like a marker (from a name in the text, say) is held whole.
  const std::vector<std::string> reasons = {"[07 more steps] leading zero",
                                            "[ more steps] no count",
                                            "x7 more steps] no bracket",
                                            "[1234567890 more steps] ten digits",
                                            "[0 more steps] zero",
                                            "[3 more steps] [4 more steps] two markers",
                                            "ends with the marker [12 more steps] ",
                                            "[4294967295 more steps] too many digits"};
  IntegerRangeMemo memo;
  for (uint32_t id = 0; id < reasons.size(); ++id)
    memo.Put(id + 1, IntegerRange::None(reasons[id]));
  for (uint32_t id = 0; id < reasons.size(); ++id)
    EXPECT_EQ(reasons[id], memo.Find(id + 1)->reason);
}

TEST(RangeReasonText, SplitsAtTheFirstMarkerAndJoinsBackTheSameText) {
  auto split = range_reason_text::SplitAtElision("a has no range: [42 more steps] b: c");
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ("a has no range: ", split->head);
  EXPECT_EQ(42u, split->steps);
  EXPECT_EQ("b: c", split->tail);
  EXPECT_EQ("a has no range: [42 more steps] b: c",
            range_reason_text::JoinElided(split->head, split->steps, split->tail));
  EXPECT_FALSE(range_reason_text::SplitAtElision("value read from Uniform memory").has_value());
  EXPECT_FALSE(range_reason_text::SplitAtElision("[042 more steps] x").has_value());
  EXPECT_FALSE(range_reason_text::SplitAtElision("42 more steps] x").has_value());
  // The first marker is the one split at, past brackets and near misses before it.
  auto later = range_reason_text::SplitAtElision(
      "range [0, 4] of x more steps]: [3 more steps]x [7 more steps] y: [9 more steps] z");
  ASSERT_TRUE(later.has_value());
  EXPECT_EQ("range [0, 4] of x more steps]: [3 more steps]x ", later->head);
  EXPECT_EQ(7u, later->steps);
  EXPECT_EQ("y: [9 more steps] z", later->tail);
  EXPECT_EQ(range_reason_text::FindMoreClose("] more steps] "), 1u);
  EXPECT_EQ(range_reason_text::FindMoreClose("x more steps]x "), std::string_view::npos);
  EXPECT_EQ(range_reason_text::FindMoreClose("[1 more steps] "), 2u);
  EXPECT_EQ(range_reason_text::FindMoreClose(" more steps]"), std::string_view::npos);
}

}  // namespace
}  // namespace glint::spirv
