#include "cfg.h"

#include <algorithm>
#include <functional>

#include "instruction_views.h"

namespace glint::spirv {
namespace {

// A graph over nodes 0..n-1 as one successor table: node v's successors are
// targets[first[v] .. first[v + 1]), in order.
struct Graph {
  std::vector<uint32_t> first;  // n + 1 offsets
  std::vector<int> targets;
  int size() const { return static_cast<int>(first.size()) - 1; }
};

// Immediate dominators of `graph` from `root`; -1 for the root and for nodes unreachable
// from it. Also returns the reverse post-order (successors visited in their order).
std::vector<int> ImmediateDominators(const Graph& graph, int root,
                                     std::vector<int>* reverse_post_order) {
  const int n = graph.size();
  std::vector<int> order;  // post-order
  order.reserve(n);
  std::vector<char> visited(n, 0);
  // Iterative DFS so that deep CFGs cannot overflow the stack.
  std::vector<std::pair<int, uint32_t>> stack = {{root, graph.first[root]}};
  visited[root] = 1;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < graph.first[node + 1]) {
      int succ = graph.targets[next++];
      if (!visited[succ]) {
        visited[succ] = 1;
        stack.push_back({succ, graph.first[succ]});
      }
      continue;
    }
    order.push_back(node);
    stack.pop_back();
  }
  // The rounds work on reverse post-order numbers (the root is 0): comparing two
  // nodes' places is then comparing the numbers, and the tables are read in order.
  const int reached = static_cast<int>(order.size());
  std::vector<int> rpo_of(n, -1);
  for (int at = 0; at < reached; ++at) rpo_of[order[reached - 1 - at]] = at;
  // Predecessors among the reached nodes, by reverse post-order number, as one table.
  std::vector<uint32_t> pred_first(reached + 1, 0);
  for (int node = 0; node < n; ++node)
    if (visited[node])
      for (uint32_t e = graph.first[node]; e < graph.first[node + 1]; ++e)
        ++pred_first[rpo_of[graph.targets[e]] + 1];
  for (int at = 0; at < reached; ++at) pred_first[at + 1] += pred_first[at];
  std::vector<int> preds(pred_first[reached]);
  std::vector<uint32_t> fill(pred_first.begin(), pred_first.end() - 1);
  for (int node = 0; node < n; ++node)
    if (visited[node])
      for (uint32_t e = graph.first[node]; e < graph.first[node + 1]; ++e)
        preds[fill[rpo_of[graph.targets[e]]]++] = rpo_of[node];
  // Cooper, Harvey and Kennedy's rounds; the dominator tree they reach is unique, so
  // the order predecessors are met in does not change it.
  std::vector<int> idom_rpo(reached, -1);
  idom_rpo[0] = 0;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (a > b) a = idom_rpo[a];
      while (b > a) b = idom_rpo[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (int at = 1; at < reached; ++at) {
      int candidate = -1;
      for (uint32_t p = pred_first[at]; p < pred_first[at + 1]; ++p) {
        const int pred = preds[p];
        if (idom_rpo[pred] == -1) continue;
        candidate = candidate == -1 ? pred : intersect(pred, candidate);
      }
      if (candidate != idom_rpo[at]) {
        idom_rpo[at] = candidate;
        changed = true;
      }
    }
  }
  std::vector<int> idom(n, -1);
  for (int at = 1; at < reached; ++at)
    if (idom_rpo[at] >= 0) idom[order[reached - 1 - at]] = order[reached - 1 - idom_rpo[at]];
  reverse_post_order->assign(order.rbegin(), order.rend());
  return idom;
}

// Calls `visit` with each label `terminator` can branch to, in operand order (as
// BranchTargets, without building a list).
template <class Visit>
void ForEachBranchTarget(const Instruction& terminator, const Visit& visit) {
  switch (terminator.opcode) {
    case spv::OpBranch:
      visit(BranchView(terminator).target());
      return;
    case spv::OpBranchConditional:
      visit(BranchConditionalView(terminator).true_label());
      visit(BranchConditionalView(terminator).false_label());
      return;
    case spv::OpSwitch: {
      SwitchView selection(terminator);
      visit(selection.default_label());
      for (size_t k = 0; k < selection.case_count(); ++k) visit(selection.case_label(k));
      return;
    }
    default:
      return;
  }
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
  node_of_ = FlatKeyIndex<const Block*>(block_count);
  node_by_id_ = FlatKeyIndex<uint32_t>(block_count);
  blocks_.reserve(block_count);
  for (Block& block : function.blocks) {
    const auto node = static_cast<uint32_t>(blocks_.size());
    node_of_.Set(&block, node);
    node_by_id_.Set(block.id(), node);  // a label id given twice (invalid): the last block
    blocks_.push_back(&block);
  }
  nodes_.resize(blocks_.size());
  const int n = static_cast<int>(blocks_.size());
  // Successors, distinct, in operand order: edges_[0 .. edge count).
  Graph forward;
  forward.first.reserve(n + 1);
  edges_.reserve(4 * block_count);
  forward.targets.reserve(2 * block_count);
  std::vector<uint32_t> predecessor_counts(n, 0);
  for (int i = 0; i < n; ++i) {
    Node& node = nodes_[i];
    node.first_successor = static_cast<uint32_t>(edges_.size());
    forward.first.push_back(node.first_successor);
    const Instruction* terminator = blocks_[i]->Terminator();
    if (!terminator) continue;
    ForEachBranchTarget(*terminator, [&](uint32_t target) {
      const uint32_t succ_node = node_by_id_.Find(target);
      if (succ_node == FlatKeyIndex<uint32_t>::kAbsent) return;
      Block* succ = blocks_[succ_node];
      auto begin = edges_.begin() + node.first_successor;
      if (std::find(begin, edges_.end(), succ) != edges_.end()) return;
      const int j = static_cast<int>(succ_node);
      edges_.push_back(succ);
      forward.targets.push_back(j);
      ++predecessor_counts[j];
    });
    node.successor_count = static_cast<uint32_t>(edges_.size()) - node.first_successor;
  }
  forward.first.push_back(static_cast<uint32_t>(edges_.size()));
  // Predecessors, in block order of their sources, after every successor.
  uint32_t next = static_cast<uint32_t>(edges_.size());
  for (int j = 0; j < n; ++j) {
    nodes_[j].first_predecessor = next;
    next += predecessor_counts[j];
  }
  edges_.resize(next);
  successor_slots_.resize(forward.first[n]);
  for (int i = 0; i < n; ++i)
    for (uint32_t e = forward.first[i]; e < forward.first[i + 1]; ++e) {
      Node& target = nodes_[forward.targets[e]];
      successor_slots_[e] = target.predecessor_count;
      edges_[target.first_predecessor + target.predecessor_count++] = blocks_[i];
    }
  // The reverse graph, with a virtual sink (node n) before every exit.
  Graph backward;
  backward.first.reserve(n + 2);
  backward.targets.reserve(forward.targets.size() + n);
  for (int j = 0; j < n; ++j) {
    backward.first.push_back(static_cast<uint32_t>(backward.targets.size()));
    const Node& node = nodes_[j];
    for (uint32_t p = 0; p < node.predecessor_count; ++p)
      backward.targets.push_back(NumberOf(edges_[node.first_predecessor + p]));
  }
  backward.first.push_back(static_cast<uint32_t>(backward.targets.size()));
  for (int i = 0; i < n; ++i)
    if (nodes_[i].successor_count == 0) backward.targets.push_back(i);  // exit -> sink
  backward.first.push_back(static_cast<uint32_t>(backward.targets.size()));

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
  const int number = NumberOf(block);
  return number < 0 ? nullptr : &nodes_[number];
}

Block* Cfg::BlockById(uint32_t id) const {
  const uint32_t node = node_by_id_.Find(id);
  return node == FlatKeyIndex<uint32_t>::kAbsent ? nullptr : blocks_[node];
}

BlockSpan Cfg::Successors(const Block* block) const {
  const Node* node = NodeOf(block);
  return node ? BlockSpan(edges_.data() + node->first_successor, node->successor_count)
              : BlockSpan();
}

BlockSpan Cfg::Predecessors(const Block* block) const {
  const Node* node = NodeOf(block);
  return node ? BlockSpan(edges_.data() + node->first_predecessor, node->predecessor_count)
              : BlockSpan();
}

Block* Cfg::ImmediateDominator(const Block* block) const {
  const Node* node = NodeOf(block);
  return node && node->idom != kNoNode ? blocks_[node->idom] : nullptr;
}

bool Cfg::Dominates(const Block* a, const Block* b) const {
  const int start = NumberOf(b);
  if (start < 0 || !nodes_[start].reachable) return false;
  for (uint32_t node = static_cast<uint32_t>(start); node != kNoNode; node = nodes_[node].idom)
    if (blocks_[node] == a) return true;
  return false;
}

Block* Cfg::ImmediatePostDominator(const Block* block) const {
  const Node* node = NodeOf(block);
  return node && node->ipdom != kNoNode ? blocks_[node->ipdom] : nullptr;
}

bool Cfg::PostDominates(const Block* a, const Block* b) const {
  if (a == b) return true;
  const int start = NumberOf(b);
  if (start < 0) return false;
  for (uint32_t node = nodes_[start].ipdom; node != kNoNode; node = nodes_[node].ipdom)
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
