// Control-flow graph of one function: successors and predecessors from terminators,
// reverse post-order, dominator and post-dominator trees (iterative, Cooper-Harvey-
// Kennedy), and the structured control flow declared by merge instructions (loop
// headers with their merge and continue targets, selection headers with their merge).
#ifndef GLINT_SPIRV_IR_CFG_H
#define GLINT_SPIRV_IR_CFG_H

#include <functional>
#include <vector>

#include "flat_key_index.h"
#include "module.h"

namespace glint::spirv {

// Consecutive blocks of a CFG's edge table: one block's successors or predecessors.
class BlockSpan {
 public:
  BlockSpan() = default;
  BlockSpan(Block* const* first, size_t count) : first_(first), count_(count) {}
  Block* const* begin() const { return first_; }
  Block* const* end() const { return first_ + count_; }
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  Block* operator[](size_t i) const { return first_[i]; }

 private:
  Block* const* first_ = nullptr;
  size_t count_ = 0;
};

class Cfg {
 public:
  explicit Cfg(Function& function);

  Block* Entry() const { return entry_; }
  Block* BlockById(uint32_t id) const;
  // The function's blocks are numbered 0 .. BlockCount() - 1 in function order; an
  // analysis may index its own per-block tables by that number instead of hashing blocks.
  size_t BlockCount() const { return blocks_.size(); }
  // `block`'s number, or -1 for a block of another function.
  int NumberOf(const Block* block) const {
    const uint32_t node = node_of_.Find(block);
    return node == FlatKeyIndex<const Block*>::kAbsent ? -1 : static_cast<int>(node);
  }
  Block* BlockNumbered(size_t number) const { return blocks_[number]; }
  // Distinct targets in branch operand order / sources in block order (empty for a
  // block of another function). Valid while the CFG lives.
  BlockSpan Successors(const Block* block) const;
  BlockSpan Predecessors(const Block* block) const;
  // The place of `block` among the predecessors of its successor Successors(block)[k]
  // (which of a phi's incoming pairs that edge feeds, counted as Predecessors lists).
  uint32_t SlotInSuccessor(const Block* block, size_t k) const {
    return successor_slots_[NodeOf(block)->first_successor + k];
  }
  // Reachable blocks in reverse post-order from the entry.
  const std::vector<Block*>& ReversePostOrder() const { return rpo_; }
  bool IsReachable(const Block* block) const {
    const Node* node = NodeOf(block);
    return node && node->reachable;
  }

  // Immediate dominator (null for the entry and unreachable blocks).
  Block* ImmediateDominator(const Block* block) const;
  bool Dominates(const Block* a, const Block* b) const;
  // Immediate post-dominator; null for exits (blocks with no successors) and blocks
  // from which no exit is reachable. Exits share a virtual sink.
  Block* ImmediatePostDominator(const Block* block) const;
  bool PostDominates(const Block* a, const Block* b) const;

  // Merge / continue targets declared by `header`'s merge instruction (0 when none).
  uint32_t MergeTarget(const Block* header) const;
  uint32_t ContinueTarget(const Block* header) const;
  bool IsLoopHeader(const Block* block) const;

 private:
  // Per block, in function order; the maps below lead to it. One node per block rather
  // than a hash map per fact: on large modules the CFGs are held by every analysis.
  // Edges live in one table (`edges_`): each node's successors, then (after all
  // successors) its predecessors, as ranges.
  static constexpr uint32_t kNoNode = 0xffffffffu;
  struct Node {
    uint32_t first_successor = 0, successor_count = 0;
    uint32_t first_predecessor = 0, predecessor_count = 0;
    uint32_t idom = kNoNode;   // node index
    uint32_t ipdom = kNoNode;  // node index
    bool reachable = false;
  };
  const Node* NodeOf(const Block* block) const;

  Block* entry_ = nullptr;
  std::vector<Block*> blocks_;  // by node index
  std::vector<Node> nodes_;
  std::vector<Block*> edges_;
  std::vector<uint32_t> successor_slots_;  // per successor edge (edges_' first part)
  FlatKeyIndex<const Block*> node_of_;
  FlatKeyIndex<uint32_t> node_by_id_;
  std::vector<Block*> rpo_;
};

// Where an analysis gets the CFG of a function: the analysis context's shared one, or
// (when absent) a CFG the analysis builds for itself.
using CfgLookup = std::function<const Cfg&(Function&)>;

// Labels a terminator can branch to, in operand order.
std::vector<uint32_t> BranchTargets(const Instruction& terminator);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_CFG_H
