// LazyOpcodeTable (SPIRV/ir/opcode_table.h): a table by opcode built on first use.
// Its builder runs once, even when the first lookups race on several threads; every
// lookup reads what the builder made, and an opcode past the table's end reads the
// entry's default.
#include "SPIRV/ir/opcode_table.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace glint::spirv {
namespace {

std::atomic<int> squares_built{0};

std::vector<uint32_t> Squares() {
  ++squares_built;
  std::vector<uint32_t> squares;
  for (uint32_t opcode = 0; opcode < 100; ++opcode) squares.push_back(opcode * opcode + 1);
  return squares;
}

using SquareTable = LazyOpcodeTable<uint32_t, &Squares>;

TEST(LazyOpcodeTable, FirstLookupsOnManyThreadsBuildOnceAndReadTheSameTable) {
  std::vector<std::thread> threads;
  std::vector<uint32_t> answers(8);
  for (size_t i = 0; i < answers.size(); ++i)
    threads.emplace_back([&answers, i] { answers[i] = SquareTable::At(uint32_t(i + 3)); });
  for (std::thread& thread : threads) thread.join();
  for (size_t i = 0; i < answers.size(); ++i)
    EXPECT_EQ(answers[i], (i + 3) * (i + 3) + 1) << "thread " << i;
  EXPECT_EQ(squares_built.load(), 1);
  EXPECT_EQ(SquareTable::At(0), 1u);
  EXPECT_EQ(SquareTable::At(99), 99u * 99u + 1);
  EXPECT_EQ(squares_built.load(), 1) << "later lookups read the published table";
}

std::vector<const char*> Names() { return {"zero", nullptr, "two"}; }

TEST(LazyOpcodeTable, PastTheEndReadsTheDefault) {
  using NameTable = LazyOpcodeTable<const char*, &Names>;
  EXPECT_STREQ(NameTable::At(0), "zero");
  EXPECT_EQ(NameTable::At(1), nullptr);
  EXPECT_STREQ(NameTable::At(2), "two");
  EXPECT_EQ(NameTable::At(3), nullptr);
  EXPECT_EQ(NameTable::At(UINT32_MAX), nullptr);
}

}  // namespace
}  // namespace glint::spirv
