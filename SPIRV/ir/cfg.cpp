#include "cfg.h"

#include <functional>

#include "instruction_views.h"

namespace glint::spirv {
namespace {

// Immediate dominators of a graph given as successor lists over nodes 0..n-1 from
// `root`; -1 for the root and for nodes unreachable from it. Also returns the order.
std::vector<int> ImmediateDominators(const std::vector<std::vector<int>>& successors, int root,
                                     std::vector<int>* reverse_post_order) {
  const int n = static_cast<int>(successors.size());
  std::vector<int> post_number(n, -1);
  std::vector<int> order;  // post-order
  std::vector<char> visited(n, 0);
  // Iterative DFS so that deep CFGs cannot overflow the stack.
  std::vector<std::pair<int, size_t>> stack = {{root, 0}};
  visited[root] = 1;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < successors[node].size()) {
      int succ = successors[node][next++];
      if (!visited[succ]) {
        visited[succ] = 1;
        stack.push_back({succ, 0});
      }
      continue;
    }
    post_number[node] = static_cast<int>(order.size());
    order.push_back(node);
    stack.pop_back();
  }
  std::vector<std::vector<int>> predecessors(n);
  for (int node = 0; node < n; ++node)
    if (visited[node])
      for (int succ : successors[node]) predecessors[succ].push_back(node);
  std::vector<int> idom(n, -1);
  idom[root] = root;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (post_number[a] < post_number[b]) a = idom[a];
      while (post_number[b] < post_number[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      int node = *it;
      if (node == root) continue;
      int candidate = -1;
      for (int pred : predecessors[node]) {
        if (idom[pred] == -1) continue;
        candidate = candidate == -1 ? pred : intersect(pred, candidate);
      }
      if (candidate != idom[node]) {
        idom[node] = candidate;
        changed = true;
      }
    }
  }
  idom[root] = -1;
  reverse_post_order->assign(order.rbegin(), order.rend());
  return idom;
}

}  // namespace

std::vector<uint32_t> BranchTargets(const Instruction& terminator) {
  switch (terminator.opcode) {
    case spv::OpBranch:
      return {BranchView(terminator).target()};
    case spv::OpBranchConditional:
      return {BranchConditionalView(terminator).true_label(),
              BranchConditionalView(terminator).false_label()};
    case spv::OpSwitch: {
      // Case literals are one word for 32-bit selectors; the label follows each.
      SwitchView selection(terminator);
      std::vector<uint32_t> targets = {selection.default_label()};
      for (size_t k = 0; k < selection.case_count(); ++k)
        targets.push_back(selection.case_label(k));
      return targets;
    }
    default:
      return {};
  }
}

Cfg::Cfg(Function& function) {
  if (function.blocks.empty()) return;
  entry_ = &function.blocks.front();
  const size_t block_count = function.blocks.size();
  node_of_.reserve(block_count);
  by_id_.reserve(block_count);
  blocks_.reserve(block_count);
  for (Block& block : function.blocks) {
    node_of_.emplace(&block, static_cast<uint32_t>(blocks_.size()));
    blocks_.push_back(&block);
    by_id_[block.id()] = &block;
  }
  nodes_.resize(blocks_.size());
  const int n = static_cast<int>(blocks_.size());
  std::vector<std::vector<int>> forward(n), backward(n + 1);
  for (int i = 0; i < n; ++i) {
    const Instruction* terminator = blocks_[i]->Terminator();
    std::vector<Block*>& successors = nodes_[i].successors;
    if (terminator) {
      for (uint32_t target : BranchTargets(*terminator)) {
        Block* succ = BlockById(target);
        if (!succ || std::find(successors.begin(), successors.end(), succ) != successors.end())
          continue;
        successors.push_back(succ);
        const int j = static_cast<int>(node_of_.at(succ));
        nodes_[j].predecessors.push_back(blocks_[i]);
        forward[i].push_back(j);
        backward[j].push_back(i);
      }
    }
    if (successors.empty()) backward[n].push_back(i);  // exit -> virtual sink
  }
  std::vector<int> order;
  std::vector<int> idom = ImmediateDominators(forward, 0, &order);
  rpo_.reserve(order.size());
  for (int node : order) {
    nodes_[node].reachable = true;
    rpo_.push_back(blocks_[node]);
    if (idom[node] >= 0) nodes_[node].idom = static_cast<uint32_t>(idom[node]);
  }
  std::vector<int> post_order;
  std::vector<int> ipdom = ImmediateDominators(backward, n, &post_order);
  for (int node : post_order)
    if (node < n && ipdom[node] >= 0 && ipdom[node] < n)
      nodes_[node].ipdom = static_cast<uint32_t>(ipdom[node]);
}

const Cfg::Node* Cfg::NodeOf(const Block* block) const {
  auto it = node_of_.find(block);
  return it == node_of_.end() ? nullptr : &nodes_[it->second];
}

Block* Cfg::BlockById(uint32_t id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : it->second;
}

const std::vector<Block*>& Cfg::Successors(const Block* block) const {
  static const std::vector<Block*> kNone;
  const Node* node = NodeOf(block);
  return node ? node->successors : kNone;
}

const std::vector<Block*>& Cfg::Predecessors(const Block* block) const {
  static const std::vector<Block*> kNone;
  const Node* node = NodeOf(block);
  return node ? node->predecessors : kNone;
}

Block* Cfg::ImmediateDominator(const Block* block) const {
  const Node* node = NodeOf(block);
  return node && node->idom != kNoNode ? blocks_[node->idom] : nullptr;
}

bool Cfg::Dominates(const Block* a, const Block* b) const {
  auto walk = node_of_.find(b);
  if (walk == node_of_.end() || !nodes_[walk->second].reachable) return false;
  for (uint32_t node = walk->second; node != kNoNode; node = nodes_[node].idom)
    if (blocks_[node] == a) return true;
  return false;
}

Block* Cfg::ImmediatePostDominator(const Block* block) const {
  const Node* node = NodeOf(block);
  return node && node->ipdom != kNoNode ? blocks_[node->ipdom] : nullptr;
}

bool Cfg::PostDominates(const Block* a, const Block* b) const {
  if (a == b) return true;
  auto walk = node_of_.find(b);
  if (walk == node_of_.end()) return false;
  for (uint32_t node = nodes_[walk->second].ipdom; node != kNoNode; node = nodes_[node].ipdom)
    if (blocks_[node] == a) return true;
  return false;
}

uint32_t Cfg::MergeTarget(const Block* header) const {
  const Instruction* merge = header->MergeInstruction();
  if (!merge) return 0;
  return merge->opcode == spv::OpLoopMerge ? LoopMergeView(*merge).merge_block()
                                           : SelectionMergeView(*merge).merge_block();
}

uint32_t Cfg::ContinueTarget(const Block* header) const {
  const Instruction* merge = header->MergeInstruction();
  return merge && merge->opcode == spv::OpLoopMerge ? LoopMergeView(*merge).continue_target() : 0;
}

bool Cfg::IsLoopHeader(const Block* block) const {
  const Instruction* merge = block->MergeInstruction();
  return merge && merge->opcode == spv::OpLoopMerge;
}

}  // namespace glint::spirv
