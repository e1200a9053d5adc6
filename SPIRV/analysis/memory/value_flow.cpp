#include "SPIRV/analysis/memory/value_flow.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/grouped_by_key.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {
namespace {

bool IsAtomic(spv::Op opcode) {
  const grammar::OpcodeInfo* info = grammar::FindOpcode(opcode);
  return info && std::strcmp(info->instruction_class, "Atomic") == 0;
}

ValueFlowRefusal ReasonForUse(spv::Op opcode) {
  switch (opcode) {
    case spv::OpFunctionCall:
      return ValueFlowRefusal::kPassedToCall;
    case spv::OpCopyMemory:
    case spv::OpCopyMemorySized:
      return ValueFlowRefusal::kCopied;
    case spv::OpPtrAccessChain:
    case spv::OpInBoundsPtrAccessChain:
      return ValueFlowRefusal::kPtrAccessChain;
    case spv::OpSelect:
    case spv::OpPhi:
      return ValueFlowRefusal::kSelected;
    default:
      return IsAtomic(opcode) ? ValueFlowRefusal::kAtomic : ValueFlowRefusal::kOtherUse;
  }
}

bool IsPrefix(const std::vector<uint32_t>& prefix, const std::vector<uint32_t>& path) {
  return prefix.size() <= path.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
}

}  // namespace

const char* ValueFlowRefusalName(ValueFlowRefusal reason) {
  switch (reason) {
    case ValueFlowRefusal::kNone:
      return "followed";
    case ValueFlowRefusal::kPassedToCall:
      return "passed to a function call";
    case ValueFlowRefusal::kStoredAsValue:
      return "its pointer is stored";
    case ValueFlowRefusal::kCopied:
      return "copied with OpCopyMemory";
    case ValueFlowRefusal::kDynamicIndex:
      return "indexed by a non-constant";
    case ValueFlowRefusal::kAtomic:
      return "used by an atomic";
    case ValueFlowRefusal::kPtrAccessChain:
      return "used by OpPtrAccessChain";
    case ValueFlowRefusal::kSelected:
      return "its pointer is selected or phi'd";
    case ValueFlowRefusal::kOtherUse:
      return "its pointer has a use the analysis cannot follow";
    case ValueFlowRefusal::kBudget:
      return "the work budget ran out";
  }
  return "?";
}

// The state of one construction: what the pointers are, the CFG as dense indices
// (reverse post-order numbers of reachable blocks), then phi placement and renaming.
struct ValueFlowBuilder {
  struct Pointer {
    uint32_t variable;
    std::vector<uint32_t> path;
  };
  // A load or store of a followed pointer in a reachable block, in block order: the
  // stores place phis, and the reads before a whole store in their block say where a
  // variable is live.
  struct Access {
    enum class Kind : uint8_t { kLoad, kStorePart, kStoreWhole };
    int block;
    uint32_t variable;
    Kind kind;
  };

  ValueFlowBuilder(const Module& m, const Function& f, const Cfg& c, const ValueFlowOptions& o,
                   ValueFlow& result)
      : module(m), function(f), cfg(c), options(o), out(result) {}

  const Module& module;
  const Function& function;
  const Cfg& cfg;
  ValueFlowOptions options;
  ValueFlow& out;

  std::optional<ValueFlowModuleIndex> own_module_index;  // when the options bring none
  const ValueFlowModuleIndex* module_index = nullptr;
  std::unordered_map<uint32_t, uint32_t> initializers;  // variable -> initializer id
  std::unordered_map<uint32_t, Pointer> pointers;       // variables and their chains
  // The ids in `pointers`, marked by id: ClassifyUse asks of every word of every
  // instruction whether it may be one.
  std::vector<uint8_t> pointer_marks;
  uint32_t marks_base = 0;
  // By id from marks_base, the first id marked: the pointers are the function's own
  // results, so the table spans the function's ids, not the module's (by id from 0,
  // every function of a module of many paid for the whole module: quadratic).
  void MarkPointer(uint32_t id) {
    if (pointer_marks.empty()) {
      marks_base = id;
    } else if (id < marks_base) {  // an id below the first (rare): the table starts there
      pointer_marks.insert(pointer_marks.begin(), size_t(marks_base - id), 0);
      marks_base = id;
    }
    const size_t at = id - marks_base;
    if (at >= pointer_marks.size()) pointer_marks.resize(at + 1, 0);
    pointer_marks[at] = 1;
  }
  bool MayBePointer(uint32_t word) const {
    return word >= marks_base && word - marks_base < pointer_marks.size() &&
           pointer_marks[word - marks_base];
  }
  std::vector<Access> accesses;

  std::vector<const Block*> blocks;  // reachable, in reverse post-order
  // A block's place in `blocks` by its CFG number (-1: unreachable), read through
  // IndexOf; a vector, not a hash map of blocks (one heap node per block).
  std::vector<int> index_by_number;
  int IndexOf(const Block* block) const {
    const int number = cfg.NumberOf(block);
    return number < 0 ? -1 : index_by_number[size_t(number)];
  }
  std::vector<int> idom;
  // The dominator tree's children of block b: child_list[child_starts[b] ..
  // child_starts[b + 1]), in block order (one array, not a vector per block).
  std::vector<int> child_starts;
  std::vector<int> child_list;
  // Block b's dominance frontier: frontier_list[frontier_starts[b] .. frontier_starts[b + 1]),
  // joins in the order found (one array, not a vector per block).
  std::vector<int> frontier_starts;
  std::vector<int> frontier_list;
  bool HasFrontier(int b) const { return frontier_starts[b] != frontier_starts[b + 1]; }

  std::unordered_map<uint32_t, size_t> dense;  // followed variable -> 0..k-1
  std::vector<uint32_t> dense_variable;
  std::vector<std::vector<std::pair<size_t, uint32_t>>> phis_at;  // block -> (var, node)
  std::vector<uint32_t> current;                                  // per dense variable
  std::vector<std::pair<size_t, uint32_t>> undo;                  // (var, old version)
  // PlacePhis's marks by block: the last variable (+1) that queued the block / placed
  // a phi there.
  std::vector<uint32_t> queued_for, phi_for;
  std::vector<int> phi_work;
  // Pruning by liveness (MarkLiveIn): each dense variable's accesses, grouped in block
  // order (var_accesses[access_starts[v] .. access_starts[v + 1])), the reachable
  // predecessors of each block (pred_list[pred_starts[b] .. pred_starts[b + 1])), and
  // marks by block: the last variable (+1) live on entry there / stored whole there.
  std::vector<uint32_t> access_starts;
  std::vector<Access> var_accesses;
  std::vector<int> pred_starts, pred_list;
  std::vector<uint32_t> live_for, stored_whole_for;

  bool Spend(uint64_t steps) {
    out.work_ += steps;
    return out.work_ <= options.work_budget;
  }

  void IndexModule();
  void CollectVariables();
  void Refuse(uint32_t variable, ValueFlowRefusal reason, const Instruction& at);
  void FollowChains();
  void ClassifyUse(const Instruction& inst, int block);
  void ClassifyUses();
  void IndexCfg();
  bool ComputeFrontiers();
  bool MarkLiveIn(size_t var);
  bool PlacePhis(size_t var);
  bool PlaceAllPhis();
  uint32_t AddNode(ValueFlowNode node);
  void SetCurrent(size_t var, uint32_t version);
  bool RenameBlock(int block);
  bool Rename();
  void RefuseAllForBudget();
  void Run();
};

ValueFlowModuleIndex::ValueFlowModuleIndex(const Module& module) {
  std::unordered_set<uint32_t> int_types;
  for (const Instruction& inst : module.types_values) {
    if (inst.opcode == spv::OpTypeInt) int_types.insert(inst.result_id);
    if (inst.opcode != spv::OpConstant || !int_types.count(inst.type_id)) continue;
    // A 64-bit constant whose high word is set is no usable index.
    ConstantView constant(inst);
    auto value = constant.value_words();
    bool fits = value.size() == 1 || (value.size() == 2 && value[1] == 0);
    if (fits) int_constants[inst.result_id] = constant.value32();
  }
  for (const Instruction& inst : module.ext_inst_imports)
    if (inst.StringAt(0).rfind("NonSemantic.", 0) == 0) non_semantic_sets.insert(inst.result_id);
}

void ValueFlowBuilder::IndexModule() {
  module_index = options.module_index;
  if (!module_index) module_index = &own_module_index.emplace(module);
}

void ValueFlowBuilder::CollectVariables() {
  if (function.blocks.empty()) return;
  for (const Instruction& inst : function.blocks.front().instructions) {
    if (inst.opcode != spv::OpVariable) continue;
    VariableView variable(inst);
    if (variable.storage_class() != spv::StorageClassFunction) continue;
    if (const std::vector<uint8_t>* only = options.only_variables;
        only && (inst.result_id >= only->size() || !(*only)[inst.result_id]))
      continue;
    out.variables_.push_back(inst.result_id);
    out.followed_.insert(inst.result_id);
    pointers[inst.result_id] = {inst.result_id, {}};
    MarkPointer(inst.result_id);
    if (variable.has_initializer()) initializers[inst.result_id] = variable.initializer();
  }
}

void ValueFlowBuilder::Refuse(uint32_t variable, ValueFlowRefusal reason, const Instruction& at) {
  if (!out.followed_.erase(variable)) return;  // the first reason is the one reported
  out.refusals_[variable] = {reason, &at, ""};  // the message when first asked (Refusal)
}

// Access chains come before their uses in block order (definitions dominate uses, and
// blocks are ordered so that dominators come first), so one walk finds chains of chains.
void ValueFlowBuilder::FollowChains() {
  for (const Block& block : function.blocks) {
    for (const Instruction& inst : block.instructions) {
      if (inst.opcode != spv::OpAccessChain && inst.opcode != spv::OpInBoundsAccessChain) continue;
      AccessChainView chain(inst);
      auto base = pointers.find(chain.base());
      if (base == pointers.end()) continue;
      Pointer derived = base->second;
      bool constant_path = true;
      for (size_t i = 0; i < chain.index_count() && constant_path; ++i) {
        auto constant = module_index->int_constants.find(chain.index(i));
        constant_path = constant != module_index->int_constants.end();
        if (constant_path) derived.path.push_back(constant->second);
      }
      if (!constant_path) Refuse(derived.variable, ValueFlowRefusal::kDynamicIndex, inst);
      if (constant_path) {
        pointers[inst.result_id] = std::move(derived);
        MarkPointer(inst.result_id);
      }
    }
  }
}

void ValueFlowBuilder::ClassifyUse(const Instruction& inst, int block) {
  switch (inst.opcode) {
    case spv::OpLoad: {  // the pointer operand is the only id that can be ours
      const uint32_t pointer = LoadView(inst).pointer();
      if (block < 0 || !MayBePointer(pointer)) return;
      auto source = pointers.find(pointer);
      if (source != pointers.end())
        accesses.push_back({block, source->second.variable, Access::Kind::kLoad});
      return;
    }
    case spv::OpAccessChain:
    case spv::OpInBoundsAccessChain:  // bases were followed by FollowChains
      return;
    case spv::OpStore: {
      auto target = pointers.find(StoreView(inst).pointer());
      if (target != pointers.end() && block >= 0)
        accesses.push_back(
            {block, target->second.variable,
             target->second.path.empty() ? Access::Kind::kStoreWhole : Access::Kind::kStorePart});
      auto object = pointers.find(StoreView(inst).object());
      if (object != pointers.end())
        Refuse(object->second.variable, ValueFlowRefusal::kStoredAsValue, inst);
      return;
    }
    case spv::OpExtInst:
      if (module_index->non_semantic_sets.count(ExtInstView(inst).set()))
        return;  // debug info reads nothing
      break;
    default:
      break;
  }
  // Decoding operands with the grammar is the costly part; most instructions have no
  // word equal to one of our pointers, and those need no decoding (a literal that
  // happens to be equal is then told apart by the decode).
  bool mentions = std::any_of(inst.words.begin(), inst.words.end(),
                              [&](uint32_t word) { return MayBePointer(word); });
  if (!mentions) return;
  inst.ForEachIdOperand([&](uint32_t id) {
    auto pointer = pointers.find(id);
    if (pointer != pointers.end())
      Refuse(pointer->second.variable, ReasonForUse(inst.opcode), inst);
  });
}

void ValueFlowBuilder::ClassifyUses() {
  for (const Block& block : function.blocks) {
    const int number = IndexOf(&block);
    for (const Instruction& inst : block.instructions) ClassifyUse(inst, number);
  }
}

void ValueFlowBuilder::IndexCfg() {
  const std::vector<Block*>& order = cfg.ReversePostOrder();
  index_by_number.assign(cfg.BlockCount(), -1);
  blocks.reserve(order.size());
  for (Block* block : order) {
    index_by_number[size_t(cfg.NumberOf(block))] = static_cast<int>(blocks.size());
    blocks.push_back(block);
  }
  const int n = static_cast<int>(blocks.size());
  idom.assign(n, -1);
  frontier_starts.assign(size_t(n) + 1, 0);
  child_starts.assign(size_t(n) + 1, 0);
  size_t edges = 0;
  for (int b = 0; b < n; ++b) {
    if (Block* parent = cfg.ImmediateDominator(blocks[b])) {
      idom[b] = IndexOf(parent);
      ++child_starts[size_t(idom[b]) + 1];
    }
    edges += cfg.Predecessors(blocks[b]).size();
  }
  for (int b = 0; b < n; ++b) child_starts[size_t(b) + 1] += child_starts[b];
  child_list.assign(size_t(child_starts[n]), 0);
  std::vector<int> next_child(child_starts.begin(), child_starts.end() - 1);
  pred_starts.assign(size_t(n) + 1, 0);
  pred_list.reserve(edges);
  for (int b = 0; b < n; ++b) {
    if (idom[b] >= 0) child_list[size_t(next_child[idom[b]]++)] = b;
    BlockSpan preds = cfg.Predecessors(blocks[b]);
    for (Block* pred_block : preds) {
      const int pred = IndexOf(pred_block);
      if (pred >= 0) pred_list.push_back(pred);
    }
    pred_starts[size_t(b) + 1] = static_cast<int>(pred_list.size());
  }
}

// Dominance frontiers by walking up from each predecessor of a join to the join's
// immediate dominator (Cooper, Harvey and Kennedy's formulation).
bool ValueFlowBuilder::ComputeFrontiers() {
  const int n = static_cast<int>(blocks.size());
  std::vector<std::pair<int, int>> found_pairs;  // (block, join of its frontier), as found
  std::vector<int> last_join(size_t(n), -1);     // joins are found in rising order
  for (int b = 0; b < n; ++b) {
    BlockSpan preds = cfg.Predecessors(blocks[b]);
    if (preds.size() < 2) continue;
    for (Block* pred : preds) {
      const int found = IndexOf(pred);
      if (found < 0) continue;
      for (int runner = found; runner >= 0 && runner != idom[b]; runner = idom[runner]) {
        if (!Spend(1)) return false;
        if (last_join[runner] != b) {
          last_join[runner] = b;
          found_pairs.push_back({runner, b});
        }
      }
    }
  }
  // Grouped by block, stably: each block's joins keep their order.
  GroupStablyByKey(found_pairs, size_t(n), &frontier_starts, &frontier_list);
  return true;
}

uint32_t ValueFlowBuilder::AddNode(ValueFlowNode node) {
  out.nodes_.push_back(std::move(node));
  return static_cast<uint32_t>(out.nodes_.size() - 1);
}

// Phis of one variable at the iterated dominance frontier of the blocks that store it,
// where the variable is live on entry (MarkLiveIn, run first): a phi where it is dead
// is reached from no load, and the frontier is iterated over every join all the same,
// so the live phis are those of the unpruned placement. The sets of blocks queued and
// given a phi are marks by block stamped with the variable (var + 1), so no set is
// allocated per variable.
bool ValueFlowBuilder::PlacePhis(size_t var) {
  const uint32_t stamp = static_cast<uint32_t>(var + 1);
  std::vector<int>& work = phi_work;
  work.clear();
  for (uint32_t at = access_starts[var]; at < access_starts[var + 1]; ++at) {
    const Access& access = var_accesses[at];
    if (access.kind == Access::Kind::kLoad || queued_for[access.block] == stamp) continue;
    queued_for[access.block] = stamp;
    work.push_back(access.block);
  }
  while (!work.empty()) {
    int block = work.back();
    work.pop_back();
    for (int at = frontier_starts[block]; at < frontier_starts[block + 1]; ++at) {
      const int join = frontier_list[size_t(at)];
      if (!Spend(1)) return false;
      if (phi_for[join] == stamp) continue;
      phi_for[join] = stamp;
      if (live_for[join] == stamp || options.keep_dead_phis) {
        ValueFlowNode phi(ValueFlowNode::Kind::kPhi);
        phi.variable = dense_variable[var];
        phi.block = blocks[join];
        phi.incoming.assign(cfg.Predecessors(blocks[join]).size(), ValueFlow::kNoNode);
        phis_at[join].push_back({var, AddNode(std::move(phi))});
      }
      if (queued_for[join] != stamp) {
        queued_for[join] = stamp;
        work.push_back(join);
      }
    }
  }
  return true;
}

// Marks with the variable's stamp (var + 1) the blocks where `var` is live on entry:
// a block that reads it before storing it whole (a load, or a store of a part, which
// updates the version before it), and a block from whose end such a read is reached
// along a path with no whole store of it. Backwards over predecessor edges from the
// reading blocks, stopping at blocks that store it whole.
bool ValueFlowBuilder::MarkLiveIn(size_t var) {
  const uint32_t stamp = static_cast<uint32_t>(var + 1);
  std::vector<int>& work = phi_work;
  work.clear();
  for (uint32_t at = access_starts[var]; at < access_starts[var + 1]; ++at) {
    const Access& access = var_accesses[at];
    if (access.kind == Access::Kind::kStoreWhole) {
      stored_whole_for[access.block] = stamp;
    } else if (stored_whole_for[access.block] != stamp && live_for[access.block] != stamp) {
      live_for[access.block] = stamp;  // read before any whole store in its block
      work.push_back(access.block);
    }
  }
  while (!work.empty()) {
    const int block = work.back();
    work.pop_back();
    for (int at = pred_starts[block]; at < pred_starts[block + 1]; ++at) {
      if (!Spend(1)) return false;
      const int pred = pred_list[size_t(at)];
      if (live_for[pred] == stamp || stored_whole_for[pred] == stamp) continue;
      live_for[pred] = stamp;
      work.push_back(pred);
    }
  }
  return true;
}

bool ValueFlowBuilder::PlaceAllPhis() {
  for (uint32_t variable : out.variables_) {
    if (!out.followed_.count(variable)) continue;
    dense[variable] = dense_variable.size();
    dense_variable.push_back(variable);
    ValueFlowNode entry(ValueFlowNode::Kind::kUndefined);
    entry.variable = variable;
    entry.block = blocks.empty() ? nullptr : blocks.front();
    auto init = initializers.find(variable);
    if (init != initializers.end()) {
      entry.kind = ValueFlowNode::Kind::kInitializer;
      entry.value = init->second;
    }
    current.push_back(AddNode(std::move(entry)));
  }
  phis_at.assign(blocks.size(), {});
  queued_for.assign(blocks.size(), 0);
  phi_for.assign(blocks.size(), 0);
  // The accesses grouped by variable, each group in block order (a counting sort).
  std::vector<uint32_t> access_var(accesses.size(), ~0u);
  access_starts.assign(dense_variable.size() + 1, 0);
  for (size_t at = 0; at < accesses.size(); ++at) {
    auto var = dense.find(accesses[at].variable);
    if (var == dense.end()) continue;
    access_var[at] = static_cast<uint32_t>(var->second);
    ++access_starts[var->second + 1];
  }
  for (size_t var = 0; var < dense_variable.size(); ++var)
    access_starts[var + 1] += access_starts[var];
  var_accesses.resize(access_starts.back(), Access{0, 0, Access::Kind::kLoad});
  std::vector<uint32_t> next_access(access_starts.begin(), access_starts.end() - 1);
  for (size_t at = 0; at < accesses.size(); ++at)
    if (access_var[at] != ~0u) var_accesses[next_access[access_var[at]]++] = accesses[at];
  live_for.assign(blocks.size(), 0);
  stored_whole_for.assign(blocks.size(), 0);
  for (size_t var = 0; var < dense_variable.size(); ++var) {
    // A variable stored only in blocks that are no join's dominance frontier source
    // (straight-line code) gets no phi: its liveness is not needed.
    bool may_place = false;
    for (uint32_t at = access_starts[var]; at < access_starts[var + 1] && !may_place; ++at)
      may_place =
          var_accesses[at].kind != Access::Kind::kLoad && HasFrontier(var_accesses[at].block);
    if (may_place && (!MarkLiveIn(var) || !PlacePhis(var))) return false;
  }
  return true;
}

void ValueFlowBuilder::SetCurrent(size_t var, uint32_t version) {
  undo.push_back({var, current[var]});
  current[var] = version;
}

// Gives the block's loads their versions, makes its stores new versions, and fills the
// successors' phi slots for the edges out of the block.
bool ValueFlowBuilder::RenameBlock(int block) {
  for (const auto& [var, phi] : phis_at[block]) SetCurrent(var, phi);
  for (const Instruction& inst : blocks[block]->instructions) {
    if (!Spend(1)) return false;
    if (inst.opcode != spv::OpLoad && inst.opcode != spv::OpStore) continue;
    bool is_load = inst.opcode == spv::OpLoad;
    auto pointer = pointers.find(is_load ? LoadView(inst).pointer() : StoreView(inst).pointer());
    if (pointer == pointers.end()) continue;
    auto var = dense.find(pointer->second.variable);
    if (var == dense.end()) continue;
    if (is_load) {
      out.loads_[&inst] = {var->first, pointer->second.path, current[var->second]};
      continue;
    }
    ValueFlowNode store(ValueFlowNode::Kind::kStore);
    store.variable = var->first;
    store.store = &inst;
    store.value = StoreView(inst).object();
    store.path = pointer->second.path;
    if (!store.path.empty()) store.previous = current[var->second];
    store.block = blocks[block];
    SetCurrent(var->second, AddNode(std::move(store)));
  }
  const BlockSpan successors = cfg.Successors(blocks[block]);
  for (size_t k = 0; k < successors.size(); ++k) {
    const int s = IndexOf(successors[k]);
    const uint32_t slot = cfg.SlotInSuccessor(blocks[block], k);
    for (const auto& [var, phi] : phis_at[s]) {
      if (!Spend(1)) return false;
      out.nodes_[phi].incoming[slot] = current[var];
    }
  }
  return true;
}

// Depth-first over the dominator tree with an explicit stack (deep trees must not
// overflow the call stack); each block's versions are undone when its subtree is done.
bool ValueFlowBuilder::Rename() {
  if (blocks.empty()) return true;
  struct Frame {
    int block;
    size_t next_child;
    size_t undo_mark;
  };
  std::vector<Frame> stack = {{0, 0, undo.size()}};
  if (!RenameBlock(0)) return false;
  while (!stack.empty()) {
    Frame& frame = stack.back();
    const size_t children = size_t(child_starts[frame.block + 1] - child_starts[frame.block]);
    if (frame.next_child < children) {
      int child = child_list[size_t(child_starts[frame.block]) + frame.next_child++];
      stack.push_back({child, 0, undo.size()});
      if (!RenameBlock(child)) return false;
      continue;
    }
    for (size_t i = undo.size(); i > frame.undo_mark; --i)
      current[undo[i - 1].first] = undo[i - 1].second;
    undo.resize(frame.undo_mark);
    stack.pop_back();
  }
  return true;
}

void ValueFlowBuilder::RefuseAllForBudget() {
  out.function_refusal_ = "value-flow work budget of " + std::to_string(options.work_budget) +
                          " steps exhausted in this function";
  for (uint32_t variable : std::vector<uint32_t>(out.followed_.begin(), out.followed_.end())) {
    out.followed_.erase(variable);
    out.refusals_[variable] = {ValueFlowRefusal::kBudget, nullptr, out.function_refusal_};
  }
  out.nodes_.clear();
  out.loads_.clear();
}

void ValueFlowBuilder::Run() {
  CollectVariables();
  if (out.variables_.empty()) return;  // nothing to follow: the module's constants unread
  IndexModule();
  IndexCfg();
  FollowChains();
  ClassifyUses();
  if (out.followed_.empty()) return;
  if (!ComputeFrontiers() || !PlaceAllPhis() || !Rename()) RefuseAllForBudget();
  out.nodes_.shrink_to_fit();  // held as long as the function's analyses are
}

ValueFlow::ValueFlow(const Module& module, const Function& function, const Cfg& cfg,
                     const ValueFlowOptions& options)
    : module_(&module) {
  ValueFlowBuilder builder(module, function, cfg, options, *this);
  builder.Run();
}

bool ValueFlow::IsFollowed(uint32_t variable) const { return followed_.count(variable) != 0; }

const ValueFlowVariableRefusal* ValueFlow::Refusal(uint32_t variable) const {
  auto it = refusals_.find(variable);
  if (it == refusals_.end()) return nullptr;
  ValueFlowVariableRefusal& refusal = it->second;
  if (refusal.message.empty() && refusal.at) {  // budget refusals carry their message
    std::string name = module_->NameOf(variable);
    name = name.empty() ? "%" + std::to_string(variable) : "`" + name + "`";
    refusal.message = name + " is not followed: " + ValueFlowRefusalName(refusal.reason) + " (" +
                      grammar::OpcodeName(refusal.at->opcode) + ")";
  }
  return &refusal;
}

uint32_t ValueFlow::Reaching(const Instruction* load) const {
  auto it = loads_.find(load);
  return it == loads_.end() ? kNoNode : it->second.version;
}

bool ValueFlow::LoadTarget(const Instruction* load, uint32_t* variable,
                           std::vector<uint32_t>* path) const {
  auto it = loads_.find(load);
  if (it == loads_.end()) return false;
  if (variable) *variable = it->second.variable;
  if (path) *path = it->second.path;
  return true;
}

uint32_t ValueFlow::CoveringDefinition(const Instruction* load) const {
  auto record = loads_.find(load);
  if (record == loads_.end() || record->second.version == kNoNode) return kNoNode;
  const ValueFlowNode& reaching = nodes_[record->second.version];
  if (reaching.kind == ValueFlowNode::Kind::kPhi) return kNoNode;
  if (reaching.kind == ValueFlowNode::Kind::kStore && !IsPrefix(reaching.path, record->second.path))
    return kNoNode;
  return record->second.version;
}

std::vector<uint32_t> ValueFlow::Definitions(const Instruction* load,
                                             std::vector<uint32_t>* phis) const {
  std::vector<uint32_t> found;
  auto record = loads_.find(load);
  if (record == loads_.end()) return found;
  const std::vector<uint32_t>& path = record->second.path;
  // Most loads read one store (or the initializer) that covers them: answered without
  // the walk's work list and visited set.
  if (uint32_t covering = CoveringDefinition(load); covering != kNoNode) {
    found.push_back(covering);
    return found;
  }
  if (seen_in_walk_.size() < nodes_.size()) seen_in_walk_.resize(nodes_.size(), 0);
  if (++walk_ == 0) {  // the numbers wrapped: forget every earlier walk
    std::fill(seen_in_walk_.begin(), seen_in_walk_.end(), 0);
    walk_ = 1;
  }
  std::vector<uint32_t>& work = walk_work_;
  work.assign(1, record->second.version);
  while (!work.empty()) {
    uint32_t id = work.back();
    work.pop_back();
    if (id == kNoNode || seen_in_walk_[id] == walk_) continue;
    seen_in_walk_[id] = walk_;
    const ValueFlowNode& node = nodes_[id];
    if (node.kind == ValueFlowNode::Kind::kPhi) {
      if (phis) phis->push_back(id);
      work.insert(work.end(), node.incoming.rbegin(), node.incoming.rend());
      continue;
    }
    if (node.kind != ValueFlowNode::Kind::kStore || IsPrefix(node.path, path)) {
      found.push_back(id);  // covers every bit the load reads
      continue;
    }
    if (IsPrefix(path, node.path)) found.push_back(id);  // part of a larger load
    work.push_back(node.previous);                       // the rest comes from before
  }
  return found;
}

}  // namespace glint::spirv
