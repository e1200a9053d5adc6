// OperandWords (SPIRV/ir/operand_words.h): an instruction's operand words, held in place
// up to four and on the heap beyond. Each operation must give what std::vector gives,
// on both sides of that line and across it.
#include "SPIRV/ir/operand_words.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "SPIRV/ir/module.h"

namespace glint::spirv {
namespace {

std::vector<uint32_t> Counting(uint32_t count, uint32_t first = 1) {
  std::vector<uint32_t> words;
  for (uint32_t i = 0; i < count; ++i) words.push_back(first + i);
  return words;
}

TEST(OperandWords, AnInstructionIsNoLargerThanWithAVector) {
  if (sizeof(void*) != 8) GTEST_SKIP() << "sizes measured for 64-bit pointers only";
  EXPECT_EQ(sizeof(OperandWords), sizeof(std::vector<uint32_t>));
  EXPECT_EQ(sizeof(Instruction), 40u);
}

TEST(OperandWords, HoldsFourWordsInPlaceAndMoreOnTheHeap) {
  OperandWords four(Counting(4));
  EXPECT_EQ(four.capacity(), OperandWords::kInlineWords);
  EXPECT_TRUE(four.data() >= reinterpret_cast<const uint32_t*>(&four) &&
              four.data() < reinterpret_cast<const uint32_t*>(&four + 1))
      << "four words are inside the object";
  OperandWords five(Counting(5));
  EXPECT_GT(five.capacity(), OperandWords::kInlineWords);
  EXPECT_EQ(five, Counting(5));
}

TEST(OperandWords, PushBackAcrossTheInlineLimitKeepsEveryWord) {
  OperandWords words;
  std::vector<uint32_t> expected;
  for (uint32_t i = 0; i < 40; ++i) {
    words.push_back(i * 7);
    expected.push_back(i * 7);
    ASSERT_EQ(words, expected) << "after " << i + 1 << " words";
  }
  words.pop_back();
  expected.pop_back();
  EXPECT_EQ(words, expected);
  EXPECT_EQ(words.back(), expected.back());
}

TEST(OperandWords, InsertAndEraseMatchAVector) {
  for (uint32_t size : {0u, 2u, 3u, 4u, 6u}) {
    for (uint32_t at = 0; at <= size; ++at) {
      OperandWords words(Counting(size));
      std::vector<uint32_t> expected = Counting(size);
      std::vector<uint32_t> inserted = {90, 91};
      words.insert(words.begin() + at, inserted.begin(), inserted.end());
      expected.insert(expected.begin() + at, inserted.begin(), inserted.end());
      ASSERT_EQ(words, expected) << "two inserted at " << at << " of " << size;
      words.insert(words.begin() + at, 77u);
      expected.insert(expected.begin() + at, 77u);
      ASSERT_EQ(words, expected);
      words.erase(words.begin() + at, words.begin() + at + 2);
      expected.erase(expected.begin() + at, expected.begin() + at + 2);
      ASSERT_EQ(words, expected) << "two erased at " << at << " of " << size;
      words.erase(words.begin() + at);
      expected.erase(expected.begin() + at);
      ASSERT_EQ(words, expected);
    }
  }
}

TEST(OperandWords, InsertingItsOwnWordsCopiesThemFirst) {
  for (uint32_t size : {3u, 4u, 8u}) {
    OperandWords words(Counting(size));
    std::vector<uint32_t> expected = Counting(size);
    words.insert(words.begin() + 1, words.begin(), words.end());
    std::vector<uint32_t> copy = expected;
    expected.insert(expected.begin() + 1, copy.begin(), copy.end());
    EXPECT_EQ(words, expected) << size << " words";
  }
}

TEST(OperandWords, ResizeAssignAndClear) {
  OperandWords words(Counting(3));
  words.resize(6, 9);
  EXPECT_EQ(words, (std::vector<uint32_t>{1, 2, 3, 9, 9, 9}));
  words.resize(2);
  EXPECT_EQ(words, (std::vector<uint32_t>{1, 2}));
  words.resize(3);
  EXPECT_EQ(words, (std::vector<uint32_t>{1, 2, 0}));
  words.assign(5, 4u);
  EXPECT_EQ(words, (std::vector<uint32_t>{4, 4, 4, 4, 4}));
  words.assign({8, 9});
  EXPECT_EQ(words, (std::vector<uint32_t>{8, 9}));
  words.clear();
  EXPECT_TRUE(words.empty());
  EXPECT_THROW(words.at(0), std::out_of_range);
}

TEST(OperandWords, CopiesAndMovesOnBothSidesOfTheLimit) {
  for (uint32_t size : {0u, 1u, 4u, 5u, 12u}) {
    const OperandWords original(Counting(size, 100));
    OperandWords copied(original);
    EXPECT_EQ(copied, original);
    OperandWords moved(std::move(copied));
    EXPECT_EQ(moved, original);
    EXPECT_TRUE(copied.empty()) << "a moved-from set of words is empty";
    OperandWords assigned(Counting(7));
    assigned = original;
    EXPECT_EQ(assigned, original);
    OperandWords move_assigned(Counting(2));
    move_assigned = std::move(assigned);
    EXPECT_EQ(move_assigned, original);
    copied = move_assigned;  // a moved-from one can be assigned again
    EXPECT_EQ(copied, original);
  }
}

TEST(OperandWords, InstructionsRoundTripTheirWords) {
  // An OpName with a long string (heap) and an access chain (in place).
  Instruction name(spv::OpName, 0, 0, {7});
  std::vector<uint32_t> text = EncodeString("a_rather_long_variable_name");
  name.words.insert(name.words.end(), text.begin(), text.end());
  EXPECT_EQ(name.StringAt(1), "a_rather_long_variable_name");
  Instruction chain(spv::OpAccessChain, 3, 4, {5, 6});
  std::vector<uint32_t> encoded;
  chain.Encode(encoded);
  EXPECT_EQ(encoded, (std::vector<uint32_t>{(5u << 16) | spv::OpAccessChain, 3, 4, 5, 6}));
}

}  // namespace
}  // namespace glint::spirv
