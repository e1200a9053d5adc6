// The instruction lists' node allocator (SPIRV/ir/node_pool.h): lists behave as with
// std::allocator whichever thread takes or frees a node, and in pooled builds a freed
// node is reused, by the same thread or, once a thread ends, by another.
#include "SPIRV/ir/node_pool.h"

#include <gtest/gtest.h>

#include <list>
#include <set>
#include <thread>
#include <vector>

#include "SPIRV/ir/module.h"

namespace glint::spirv {
namespace {

// A type of its own size class, so that no other test's nodes share its free list.
struct Probe {
  uint64_t words[7] = {};
};
using ProbeList = std::list<Probe, NodePoolAllocator<Probe>>;

Probe Numbered(uint64_t n) {
  Probe probe;
  probe.words[0] = n;
  return probe;
}

std::vector<uint64_t> Numbers(const ProbeList& list) {
  std::vector<uint64_t> numbers;
  for (const Probe& probe : list) numbers.push_back(probe.words[0]);
  return numbers;
}

TEST(NodePool, ListsKeepTheirElementsThroughInsertEraseSpliceAndCopy) {
  ProbeList first, second;
  for (uint64_t n = 0; n < 1000; ++n) first.push_back(Numbered(n));
  for (auto it = first.begin(); it != first.end();)
    it = it->words[0] % 3 ? std::next(it) : first.erase(it);
  second.splice(second.end(), first, first.begin(), std::next(first.begin(), 10));
  ProbeList copied = first;
  first.clear();
  std::vector<uint64_t> expected_second, expected_copied;
  uint64_t kept = 0;
  for (uint64_t n = 0; n < 1000; ++n) {
    if (n % 3 == 0) continue;
    (kept++ < 10 ? expected_second : expected_copied).push_back(n);
  }
  EXPECT_EQ(Numbers(second), expected_second);
  EXPECT_EQ(Numbers(copied), expected_copied);
  EXPECT_TRUE(first.empty());
}

TEST(NodePool, ArraysOfSeveralElementsAreNotTakenFromThePool) {
  NodePoolAllocator<Probe> allocator;
  // A node just freed heads its free list: a pooled allocation would get it back.
  Probe* one = allocator.allocate(1);
  allocator.deallocate(one, 1);
  Probe* several = allocator.allocate(5);
  EXPECT_NE(several, one);
  for (int i = 0; i < 5; ++i) several[i] = Numbered(i);
  EXPECT_EQ(several[4].words[0], 4u);
  allocator.deallocate(several, 5);
}

TEST(NodePool, NodesFreedByAnotherThreadAreValidAndReusable) {
  ProbeList built;
  for (uint64_t n = 0; n < 600; ++n) built.push_back(Numbered(n));
  // Freed on another thread, which then ends: its free nodes go to the shared list.
  std::thread([list = std::move(built)]() mutable { list.clear(); }).join();
  ProbeList rebuilt;
  std::thread([&rebuilt] {
    for (uint64_t n = 0; n < 600; ++n) rebuilt.push_back(Numbered(2 * n));
  }).join();
  ASSERT_EQ(rebuilt.size(), 600u);
  EXPECT_EQ(rebuilt.back().words[0], 1198u);
  rebuilt.clear();
}

#if GLINT_NODE_POOL
TEST(NodePool, AFreedNodeIsTheNextOneTaken) {
  NodePoolAllocator<Probe> allocator;
  Probe* first = allocator.allocate(1);
  allocator.deallocate(first, 1);
  Probe* second = allocator.allocate(1);
  EXPECT_EQ(first, second);
  allocator.deallocate(second, 1);
}

TEST(NodePool, AThreadThatEndsLeavesItsNodesToTheNextThread) {
  // A size class of its own again (81 to 96 bytes): its free list starts empty here.
  struct Fresh {
    uint64_t words[11] = {};
  };
  NodePoolAllocator<Fresh> allocator;
  std::set<Fresh*> freed_by_first;
  std::thread([&] {
    std::vector<Fresh*> taken;
    for (int i = 0; i < 300; ++i) taken.push_back(allocator.allocate(1));
    for (Fresh* node : taken) {
      freed_by_first.insert(node);
      allocator.deallocate(node, 1);
    }
  }).join();
  size_t reused = 0;
  std::thread([&] {
    std::vector<Fresh*> taken;
    for (int i = 0; i < 300; ++i) taken.push_back(allocator.allocate(1));
    for (Fresh* node : taken) reused += freed_by_first.count(node);
    for (Fresh* node : taken) allocator.deallocate(node, 1);
  }).join();
  EXPECT_EQ(reused, 300u);
}
#else
TEST(NodePool, UnderAddressSanitizerNodesComeFromStdAllocator) {
  // The pool is off so that the sanitizer sees each node: a freed node may be handed
  // out again only by the sanitizer's own allocator, after its quarantine.
  NodePoolAllocator<Probe> allocator;
  Probe* first = allocator.allocate(1);
  allocator.deallocate(first, 1);
  Probe* second = allocator.allocate(1);
  EXPECT_NE(first, second);
  allocator.deallocate(second, 1);
}
#endif

TEST(NodePool, ModuleInstructionListsUseThePool) {
  static_assert(std::is_same_v<InstructionList::allocator_type, NodePoolAllocator<Instruction>>);
  Block block;
  block.instructions.emplace_back(spv::OpNop, 0, 0, OperandWords{});
  block.instructions.emplace_back(spv::OpReturn, 0, 0, OperandWords{});
  Block moved = block;
  EXPECT_EQ(moved.instructions.size(), 2u);
  EXPECT_EQ(moved.instructions.back().opcode, spv::OpReturn);
}

}  // namespace
}  // namespace glint::spirv
