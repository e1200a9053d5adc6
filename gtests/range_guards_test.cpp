// Tests of GuardFacts (SPIRV/analysis/range/range_guards.h) asked directly: the facts drawn
// from a block's guard conditions over ranges given by hand, and the ranges a drawing
// names when it needs one not given yet; and of GuardFactMemo, which joins a block's
// facts with its dominators'. No range analysis runs here.
#include "SPIRV/analysis/range/range_guards.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "support/range_parts.h"

namespace glint::spirv {
namespace {

using range_math::Interval;

// A module's guard conditions and the guard facts drawn from them.
class Drawings : public test::RangeParts {
 public:
  explicit Drawings(const std::string& source)
      : RangeParts(source),
        conditions_(def_use(), canonical()),
        facts_(def_use(), canonical(), conditions_) {}

  // Draws the facts into `block`, condition by condition, giving each range a drawing
  // names from `give` (by id; absent: the value has no range) until it completes. The
  // ids named, in order, go to `asked`.
  GuardFacts::Facts DrawAll(const Block* block,
                            const std::vector<std::pair<uint32_t, Interval>>& give,
                            std::vector<uint32_t>* asked) {
    GuardRanges ranges;
    GuardFacts::Facts facts;
    for (const GuardCondition& condition : conditions_.Into(MainCfg(), block)) {
      for (int round = 0; !facts_.Draw(MainCfg(), condition, &ranges, &facts); ++round) {
        if (round == 16) {
          ADD_FAILURE() << "a drawing never completed";
          return {};
        }
        uint32_t needed = ranges.missing();
        asked->push_back(needed);
        bool known = false;
        Interval range;
        for (const auto& [id, given] : give)
          if (id == needed) known = true, range = given;
        ranges.Add(needed, known, range);
      }
    }
    return facts;
  }

  // The first fact of `kind` about `id`'s canonical value; null when none.
  const GuardFact* About(const GuardFacts::Facts& facts, uint32_t id, GuardFact::Kind kind) {
    for (const GuardFact& fact : facts)
      if (fact.value == canonical().Canonical(id) && fact.kind == kind) return &fact;
    return nullptr;
  }

 private:
  GuardConditions conditions_;
  GuardFacts facts_;
};

constexpr char kBelowN[] = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint i = data[0], n = data[1];
  if (i < n) data[i] = 1u;
})";

TEST(GuardFacts, ADrawingNamesEachRangeItNeedsInTheOrderItReadsThem) {
  Drawings drawings(kBelowN);
  auto [i, n] = drawings.OperandsOf(spv::OpULessThan);
  std::vector<uint32_t> asked;
  GuardFacts::Facts facts =
      drawings.DrawAll(drawings.Target(spv::OpULessThan, true),
                       {{n, Interval{false, 0, 10}}, {i, Interval{false, 3, 50}}}, &asked);
  // i < n reads n's range; its mirror n > i reads i's.
  EXPECT_EQ(asked, (std::vector<uint32_t>{n, i}));
  const GuardFact* below = drawings.About(facts, i, GuardFact::Kind::kInterval);
  ASSERT_NE(below, nullptr);
  EXPECT_EQ(below->interval.min, 0);
  EXPECT_EQ(below->interval.max, 9);  // below n's largest value, 10
  const GuardFact* above = drawings.About(facts, n, GuardFact::Kind::kInterval);
  ASSERT_NE(above, nullptr);
  EXPECT_EQ(above->interval.min, 4);  // above i's smallest value, 3
}

TEST(GuardFacts, ABoundWithoutARangeGivesOnlyStrictness) {
  Drawings drawings(kBelowN);
  auto [i, n] = drawings.OperandsOf(spv::OpULessThan);
  std::vector<uint32_t> asked;
  GuardFacts::Facts facts = drawings.DrawAll(drawings.Target(spv::OpULessThan, true), {}, &asked);
  EXPECT_EQ(asked, (std::vector<uint32_t>{n, i}));
  EXPECT_EQ(drawings.About(facts, i, GuardFact::Kind::kInterval), nullptr);
  const GuardFact* strict = drawings.About(facts, i, GuardFact::Kind::kStrict);
  ASSERT_NE(strict, nullptr);
  EXPECT_EQ(strict->interval.max, int64_t{0xfffffffe});  // i + 1 cannot wrap
}

TEST(GuardFacts, AnOffsetCarriesTheFactToItsOperandWhereItCannotWrap) {
  Drawings drawings(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint i = data[0];
  if (i + 1u < 8u) data[i] = 1u;
})");
  auto [sum, eight] = drawings.OperandsOf(spv::OpULessThan);
  auto [i, one] = drawings.OperandsOf(spv::OpIAdd);
  std::vector<uint32_t> asked;
  GuardFacts::Facts facts =
      drawings.DrawAll(drawings.Target(spv::OpULessThan, true),
                       {{eight, Interval{false, 8, 8}}, {i, Interval{false, 0, 100}}}, &asked);
  // The bound first; then, for `i + 1 < 8` to say something of i, i's range (no wrap).
  EXPECT_EQ(asked, (std::vector<uint32_t>{eight, i}));
  const GuardFact* on_sum = drawings.About(facts, sum, GuardFact::Kind::kInterval);
  ASSERT_NE(on_sum, nullptr);
  EXPECT_EQ(on_sum->interval.max, 7);
  const GuardFact* on_i = drawings.About(facts, i, GuardFact::Kind::kInterval);
  ASSERT_NE(on_i, nullptr);
  EXPECT_EQ(on_i->interval.min, 0);
  EXPECT_EQ(on_i->interval.max, 6);

  // Where i's range lets i + 1 wrap, nothing is carried to i.
  std::vector<uint32_t> asked_again;
  GuardFacts::Facts wrapping = drawings.DrawAll(
      drawings.Target(spv::OpULessThan, true),
      {{eight, Interval{false, 8, 8}}, {i, Interval{false, 0, 0xffffffff}}}, &asked_again);
  EXPECT_NE(drawings.About(wrapping, sum, GuardFact::Kind::kInterval), nullptr);
  EXPECT_EQ(drawings.About(wrapping, i, GuardFact::Kind::kInterval), nullptr);
}

TEST(GuardFacts, FactsFromAShortCircuitKeepOnlyValuesDefinedAboveTheFirstTest) {
  Drawings drawings(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint i = data[0];
  if (i < 8u && data[i] > 2u) data[i + 1u] = 1u;
})");
  auto [i, eight] = drawings.OperandsOf(spv::OpULessThan);
  auto [loaded, two] = drawings.OperandsOf(spv::OpUGreaterThan);
  std::vector<uint32_t> asked;
  GuardFacts::Facts facts = drawings.DrawAll(
      drawings.Target(spv::OpPhi, true),
      {{eight, Interval{false, 8, 8}}, {two, Interval{false, 2, 2}}, {i, Interval{false, 0, 99}}},
      &asked);
  const GuardFact* on_i = drawings.About(facts, i, GuardFact::Kind::kInterval);
  ASSERT_NE(on_i, nullptr);
  EXPECT_EQ(on_i->interval.max, 7);
  // data[i] > 2 held too, but data[i] is loaded after the first test: no fact names it.
  for (const GuardFact& fact : facts) EXPECT_NE(fact.value, drawings.canonical().Canonical(loaded));
}

// Two nested tests, `i < 8u` around `j > 4u`, and a memo over their drawings, each
// drawing counted; i and j get [0, 100] (j's only when `j_range`).
class NestedTests {
 public:
  explicit NestedTests(bool j_range)
      : drawings_(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uint i = data[0], j = data[1];
  if (i < 8u) {
    data[2] = i;
    if (j > 4u) data[i + j] = 1u;
  }
})") {
    std::tie(i, eight_) = drawings_.OperandsOf(spv::OpULessThan);
    std::tie(j, four_) = drawings_.OperandsOf(spv::OpUGreaterThan);
    give_ = {{eight_, Interval{false, 8, 8}},
             {four_, Interval{false, 4, 4}},
             {i, Interval{false, 0, 100}}};
    if (j_range) give_.push_back({j, Interval{false, 0, 100}});
    outer = drawings_.Target(spv::OpULessThan, true);
    inner = drawings_.Target(spv::OpUGreaterThan, true);
  }

  // Draws `block`'s own facts, counting it.
  GuardFacts::Facts Draw(const Block* block) {
    ++draws[block];
    return drawings_.DrawAll(block, give_, &asked_);
  }
  const GuardFacts::Facts& FactsIn(const Block* block, const GuardFactMemo::DrawOwn& draw) {
    return memo.FactsIn(drawings_.MainCfg(), block, draw);
  }
  const GuardFact* About(const GuardFacts::Facts& facts, uint32_t id) {
    return drawings_.About(facts, id, GuardFact::Kind::kInterval);
  }
  uint32_t Canonical(uint32_t id) { return drawings_.canonical().Canonical(id); }

  uint32_t i = 0, j = 0;
  const Block* outer = nullptr;
  const Block* inner = nullptr;
  GuardFactMemo memo;
  std::map<const Block*, int> draws;

 private:
  Drawings drawings_;
  uint32_t eight_ = 0, four_ = 0;
  std::vector<std::pair<uint32_t, Interval>> give_;
  std::vector<uint32_t> asked_;
};

TEST(GuardFactMemo, DrawsEachBlockOnceAndPutsItsOwnFactsBeforeItsDominators) {
  NestedTests tests(true);
  GuardFactMemo::DrawOwn draw = [&tests](const Block* block) { return tests.Draw(block); };

  const GuardFacts::Facts& in_inner = tests.FactsIn(tests.inner, draw);
  ASSERT_FALSE(in_inner.empty());
  EXPECT_EQ(in_inner.front().value, tests.Canonical(tests.j)) << "its own fact first";
  const GuardFact* on_i = tests.About(in_inner, tests.i);
  ASSERT_NE(on_i, nullptr) << "the dominating test's fact holds here too";
  EXPECT_EQ(on_i->interval.max, 7);
  EXPECT_TRUE(tests.draws.count(tests.outer) && tests.draws.count(tests.inner));
  for (const auto& [block, times] : tests.draws) EXPECT_EQ(times, 1);

  // Asked again, or for a dominator already walked, nothing is drawn again.
  size_t drawn_blocks = tests.draws.size();
  tests.FactsIn(tests.inner, draw);
  const GuardFacts::Facts& in_outer = tests.FactsIn(tests.outer, draw);
  EXPECT_EQ(tests.draws.size(), drawn_blocks);
  for (const auto& [block, times] : tests.draws) EXPECT_EQ(times, 1);
  EXPECT_NE(tests.About(in_outer, tests.i), nullptr);
  EXPECT_EQ(tests.About(in_outer, tests.j), nullptr)
      << "a fact of the inner test does not hold above it";
}

TEST(GuardFactMemo, ABlockDrawnByANestedQueryIsTakenAsDrawn) {
  NestedTests tests(false);
  bool nested = false;
  GuardFactMemo::DrawOwn draw = [&](const Block* block) {
    // As when a range the outer test needs is asked at a use inside the inner block:
    // that query walks through the outer block (not known yet) and draws both.
    if (block == tests.outer && !nested) {
      nested = true;
      tests.FactsIn(tests.inner, draw);
    }
    return tests.Draw(block);
  };
  const GuardFacts::Facts& in_inner = tests.FactsIn(tests.inner, draw);
  EXPECT_EQ(tests.draws[tests.outer], 2) << "once by the query, once by the nested one";
  EXPECT_EQ(tests.draws[tests.inner], 1)
      << "the walk takes the inner block as the nested query left it";
  EXPECT_NE(tests.About(in_inner, tests.i), nullptr);
  const GuardFact* on_j = tests.About(in_inner, tests.j);
  ASSERT_NE(on_j, nullptr) << "from the constant bound alone: j's own range is not given";
  EXPECT_EQ(on_j->interval.min, 5);
}

}  // namespace
}  // namespace glint::spirv
