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
  std::vector<Block*> blocks;
  std::unordered_map<const Block*, int> index;
  for (Block& block : function.blocks) {
    index[&block] = static_cast<int>(blocks.size());
    blocks.push_back(&block);
    by_id_[block.id()] = &block;
  }
  for (Block* block : blocks) {
    successors_[block];
    predecessors_[block];
  }
  for (Block* block : blocks) {
    const Instruction* terminator = block->Terminator();
    if (!terminator) continue;
    for (uint32_t target : BranchTargets(*terminator)) {
      Block* succ = BlockById(target);
      if (!succ) continue;
      auto& list = successors_[block];
      if (std::find(list.begin(), list.end(), succ) != list.end()) continue;
      list.push_back(succ);
      predecessors_[succ].push_back(block);
    }
  }
  const int n = static_cast<int>(blocks.size());
  std::vector<std::vector<int>> forward(n), backward(n + 1);
  for (int i = 0; i < n; ++i) {
    for (Block* succ : successors_[blocks[i]]) {
      forward[i].push_back(index[succ]);
      backward[index[succ]].push_back(i);
    }
    if (successors_[blocks[i]].empty()) backward[n].push_back(i);  // exit -> virtual sink
  }
  std::vector<int> order;
  std::vector<int> idom = ImmediateDominators(forward, 0, &order);
  for (int node : order) {
    rpo_index_[blocks[node]] = rpo_.size();
    rpo_.push_back(blocks[node]);
    if (idom[node] >= 0) idom_[blocks[node]] = blocks[idom[node]];
  }
  std::vector<int> post_order;
  std::vector<int> ipdom = ImmediateDominators(backward, n, &post_order);
  for (int node : post_order)
    if (node < n && ipdom[node] >= 0 && ipdom[node] < n) ipdom_[blocks[node]] = blocks[ipdom[node]];
}

Block* Cfg::BlockById(uint32_t id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : it->second;
}

const std::vector<Block*>& Cfg::Successors(const Block* block) const {
  static const std::vector<Block*> kNone;
  auto it = successors_.find(block);
  return it == successors_.end() ? kNone : it->second;
}

const std::vector<Block*>& Cfg::Predecessors(const Block* block) const {
  static const std::vector<Block*> kNone;
  auto it = predecessors_.find(block);
  return it == predecessors_.end() ? kNone : it->second;
}

Block* Cfg::ImmediateDominator(const Block* block) const {
  auto it = idom_.find(block);
  return it == idom_.end() ? nullptr : it->second;
}

bool Cfg::Dominates(const Block* a, const Block* b) const {
  if (!IsReachable(b)) return false;
  for (const Block* walk = b; walk; walk = ImmediateDominator(walk))
    if (walk == a) return true;
  return false;
}

Block* Cfg::ImmediatePostDominator(const Block* block) const {
  auto it = ipdom_.find(block);
  return it == ipdom_.end() ? nullptr : it->second;
}

bool Cfg::PostDominates(const Block* a, const Block* b) const {
  for (const Block* walk = b; walk; walk = ImmediatePostDominator(walk))
    if (walk == a) return true;
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
