// Uniformity analysis, relevance: which facts a finding can depend on, so that the
// fixed point of the findings path (AnalyzeUniformity) computes those and passes over the
// rest. AnalyzeUniformityLevels, which reports every value's level, computes every fact.
//
// What it proves: every fact the reporter, the reason chains, the call-context decisions
// and the context caches read is computed exactly as when every instruction is transferred;
// only facts nothing of those reads are left at their starting level. The solver's
// transfer rules are followed backwards, for values and for the control of blocks:
//   - a value-like instruction (operands joined, loads, phis, cross-thread sources) reads
//     its operands; it is relevant when its result is;
//   - a load reads its pointer and the memory of its root (the variable or parameter the
//     pointer points into): the root is read, and every store into a read root is
//     relevant, with its value, its pointer and its block's control (a store writes its
//     control into the memory, UniformitySolver::TransferStore);
//   - a call's result reads what its callee returns: the values of the callee's
//     OpReturnValue instructions, and their blocks' control, are relevant once one
//     call's result is;
//   - a phi reads the conditions of the branches that choose its incoming edges (the
//     branches its predecessors depend on, and the predecessors' own; RaiseMerge); so do
//     loads of a read Function variable, whose versions meet at phis the value flow
//     places at the iterated dominance frontier of the blocks that may write it;
//   - a block's control reads the conditions of the branches it depends on and those
//     branches' own control (BlockControl). Control is read where a finding is decided
//     (every uniform-control instruction's block), where calls are (the call-context
//     decisions read the call's control, and it enters the callee), where kills, copies,
//     atomics and initialized variables write memory or kills at their control, and where
//     relevant loads (shared loads are judged by it) and cross-thread results (lane
//     broadcasts) are.
// A branch that controls none of those blocks is not read: on kernels whose bounds checks
// guard only data (`if (k < K) v = A[k]`), most branches are skipped.
// Always relevant, because the call-context rules read them for every call whose result
// is computed (whether a context may help, and the inputs a context result is cached by):
// every call argument, the roots of pointer arguments, and the module-scope variables any
// called function names. Stores through a pointer parameter write every root the
// parameter may stand for, so they are always relevant; stores through a pointer the
// analysis does not follow write nothing it keeps.
// Calls, kills, initialized variables, copies and atomics are always transferred (they
// raise what blocks and memory read); a call's result is computed only where it is
// relevant. Instructions whose transfer changes nothing (branches, merges, barriers,
// variables without an initializer) are not transferred at all.
//
// Cost: one walk over the functions' instructions to index stores and returns, then each
// id, root and block at most once; dominance frontiers once per function that has a read
// Function variable.
#include <algorithm>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "SPIRV/analysis/uniformity/uniformity_internal.h"
#include "SPIRV/ir/grouped_by_key.h"

namespace glint::spirv {
namespace uniformity_detail {
namespace {

// Calls, kills, copies, atomics and initialized variables: transferred whether or not a
// value of theirs is relevant (they raise what blocks and memory read).
bool AlwaysTransferred(const Instruction& inst) {
  switch (inst.opcode) {
    case spv::OpFunctionCall:
    case spv::OpKill:
    case spv::OpTerminateInvocation:
    case spv::OpCopyMemory:
    case spv::OpCopyMemorySized:
      return true;
    case spv::OpVariable:
      return VariableView(inst).has_initializer();
    default:
      return IsAtomic(inst.opcode);
  }
}

class RelevanceFinder {
 public:
  RelevanceFinder(ModuleFacts& facts, Relevance* out) : facts_(facts), out_(*out) {}

  void Run() {
    out_.values.assign(IdLimit(), 0);
    out_.read_roots.assign(IdLimit(), 0);
    IndexAndSeed();
    // Roots are read once every store is indexed by its root.
    for (uint32_t root : seed_roots_) ReadRoot(root);
    Drain();
  }

 private:
  uint32_t IdLimit() const { return facts_.module.header.bound; }

  bool IsParameter(uint32_t id) const {
    const Instruction* def = facts_.def_use.Definition(id);
    return def && def->opcode == spv::OpFunctionParameter;
  }

  void IndexAndSeed() {
    std::vector<uint32_t> callees;
    for (Function& function : facts_.module.functions) {
      for (const Block& block : function.blocks) {
        for (const Instruction& inst : block.instructions) {
          if (ReadsControlAlways(inst)) ReadControl(function, block);
          switch (inst.opcode) {
            case spv::OpFunctionCall: {
              FunctionCallView call(inst);
              callees.push_back(call.callee());
              for (uint32_t argument : call.arguments()) {
                Use(argument);
                seed_roots_.push_back(facts_.RootOf(argument));
              }
              break;
            }
            case spv::OpReturnValue:
              returns_by_function_[function.id()].push_back(
                  {ReturnValueView(inst).value(), &function, &block});
              break;
            case spv::OpStore: {
              StoreView store(inst);
              uint32_t root = facts_.RootOf(store.pointer());
              if (root == 0) break;  // written where the analysis keeps nothing
              if (IsParameter(root)) {
                Use(store.object());
                Use(store.pointer());
                ReadControl(function, block);
              } else {
                stores_by_root_[root].push_back({&inst, &function, &block});
              }
              break;
            }
            case spv::OpCopyMemory:
            case spv::OpCopyMemorySized:
              seed_roots_.push_back(facts_.RootOf(CopyMemoryView(inst).source()));
              break;
            default:
              break;
          }
        }
      }
    }
    std::sort(callees.begin(), callees.end());
    callees.erase(std::unique(callees.begin(), callees.end()), callees.end());
    for (uint32_t callee : callees)
      if (facts_.calls.FunctionById(callee))
        for (uint32_t variable : facts_.ModuleVariablesReached(callee))
          seed_roots_.push_back(variable);
  }

  void Use(uint32_t id) {
    if (id == 0 || id >= out_.values.size() || out_.values[id]) return;
    out_.values[id] = 1;
    pending_.push_back(id);
  }

  void ReadRoot(uint32_t root) {
    if (root == 0 || root >= out_.read_roots.size() || out_.read_roots[root]) return;
    out_.read_roots[root] = 1;
    ChooseLocalVersions(root);
    auto stores = stores_by_root_.find(root);
    if (stores == stores_by_root_.end()) return;
    for (const Placed& placed : stores->second) {
      StoreView store(*placed.inst);
      Use(store.object());
      Use(store.pointer());
      ReadControl(*placed.function, *placed.block);  // the store's control is written
    }
  }

  // Instructions whose transfer reads their block's control whether or not a value of
  // theirs is relevant: uniform-control instructions (the findings), and those always
  // transferred: calls (call-context decisions and their callees' entries), kills,
  // copies, atomics and initialized variables (they write memory at their control).
  bool ReadsControlAlways(const Instruction& inst) const {
    return AlwaysTransferred(inst) || (facts_.classes.Of(inst) & kUniformControl) != 0;
  }

  // `block`'s control is read: so are the conditions of the branches it depends on and
  // those branches' own control (UniformitySolver::BlockControl).
  void ReadControl(const Function& function, const Block& block) {
    if (!control_read_.insert(&block).second) return;
    control_pending_.push_back({&function, &block});
  }

  void UseCondition(const Block& branch) {
    const Instruction* terminator = branch.Terminator();
    if (!terminator) return;
    if (auto conditional = ViewIf<BranchConditionalView>(*terminator))
      Use(conditional->condition());
    else if (auto selection = ViewIf<SwitchView>(*terminator))
      Use(selection->selector());
  }

  // The branches that choose whether the edge from `pred` into a join is taken
  // (UniformitySolver::RaiseMerge reads their conditions, less those controlling the join).
  void UseChoosers(const Function& function, const Block& pred) {
    const ControlDependence& dependence = *facts_.control_dependence.at(function.id());
    for (const Block* branch : dependence.ControllersOf(&pred)) UseCondition(*branch);
    UseCondition(pred);
  }

  // A read Function variable's loads may meet versions at phis (value_flow.h), placed at
  // the iterated dominance frontier of the blocks that may write it: the branches that
  // choose each such phi's incoming edge are read (TransferLocalLoad's merges).
  void ChooseLocalVersions(uint32_t root) {
    const Instruction* variable = facts_.def_use.Definition(root);
    if (!variable || variable->opcode != spv::OpVariable ||
        VariableView(*variable).storage_class() != spv::StorageClassFunction)
      return;
    Function* function = facts_.def_use.FunctionOf(variable);
    if (!function) return;
    const Cfg& cfg = *facts_.cfgs.at(function->id());
    std::vector<const Block*> work;
    std::vector<uint32_t> pointers{root};
    while (!pointers.empty()) {  // every block that may write through the variable
      uint32_t pointer = pointers.back();
      pointers.pop_back();
      for (const auto& use : facts_.def_use.Uses(pointer)) {
        if (use.user->opcode == spv::OpLoad) continue;
        if (use.user->opcode == spv::OpAccessChain ||
            use.user->opcode == spv::OpInBoundsAccessChain ||
            use.user->opcode == spv::OpPtrAccessChain || use.user->opcode == spv::OpCopyObject) {
          if (use.user->result_id) pointers.push_back(use.user->result_id);
          continue;
        }
        if (const Block* block = facts_.def_use.BlockOf(use.user)) work.push_back(block);
      }
    }
    const Frontiers& frontiers = FrontiersOf(*function, cfg);
    std::unordered_set<const Block*> joins;
    while (!work.empty()) {
      const Block* block = work.back();
      work.pop_back();
      for (const Block* join : frontiers.Of(cfg.NumberOf(block)))
        if (joins.insert(join).second) {
          for (const Block* pred : cfg.Predecessors(join)) UseChoosers(*function, *pred);
          work.push_back(join);
        }
    }
  }

  // Dominance frontiers of one function's blocks, by the CFG's block numbers: block b's
  // joins are joins[starts[b] .. starts[b + 1]), in the order found (one array, not a
  // vector per block: the vectors were a tenth of this analysis's allocations).
  struct Frontiers {
    std::vector<uint32_t> starts;
    std::vector<Block*> joins;
    BlockSpan Of(int number) const {
      if (number < 0 || size_t(number) + 1 >= starts.size()) return {};
      return BlockSpan(joins.data() + starts[number], starts[number + 1] - starts[number]);
    }
  };

  // Dominance frontiers of `function`'s blocks (Cooper, Harvey and Kennedy), once.
  const Frontiers& FrontiersOf(const Function& function, const Cfg& cfg) {
    auto [known, inserted] = frontiers_.try_emplace(function.id());
    if (!inserted) return known->second;
    const size_t n = cfg.BlockCount();
    std::vector<std::pair<uint32_t, Block*>> found;   // (block number, join), as found
    std::vector<const Block*> last_join(n, nullptr);  // each join is found in one run
    for (Block* join : cfg.ReversePostOrder()) {
      BlockSpan preds = cfg.Predecessors(join);
      if (preds.size() < 2) continue;
      const Block* stop = cfg.ImmediateDominator(join);
      for (const Block* pred : preds) {
        if (!cfg.IsReachable(pred)) continue;
        for (const Block* runner = pred; runner && runner != stop;
             runner = cfg.ImmediateDominator(runner)) {
          const uint32_t number = uint32_t(cfg.NumberOf(runner));
          if (last_join[number] == join) continue;
          last_join[number] = join;
          found.push_back({number, join});
        }
      }
    }
    Frontiers& frontiers = known->second;  // grouped by block, stably
    GroupStablyByKey(found, n, &frontiers.starts, &frontiers.joins);
    return frontiers;
  }

  void Drain() {
    while (!pending_.empty() || !control_pending_.empty()) {
      if (!control_pending_.empty()) {
        auto [function, block] = control_pending_.back();
        control_pending_.pop_back();
        const ControlDependence& dependence = *facts_.control_dependence.at(function->id());
        for (const Block* branch : dependence.ControllersOf(block)) {
          UseCondition(*branch);
          ReadControl(*function, *branch);
        }
        continue;
      }
      uint32_t id = pending_.back();
      pending_.pop_back();
      const Instruction* def = facts_.def_use.Definition(id);
      if (!def) continue;
      const Block* block = facts_.def_use.BlockOf(def);
      const Function* function = facts_.def_use.FunctionOf(def);
      // Shared loads, lane broadcasts and other cross-thread results read their control.
      if (block && function &&
          (def->opcode == spv::OpLoad || (facts_.classes.Of(*def) & kCrossThread)))
        ReadControl(*function, *block);
      switch (def->opcode) {
        case spv::OpFunctionParameter:
        case spv::OpVariable:
          break;  // arguments are all relevant; a variable's pointer has no fact
        case spv::OpLoad: {
          uint32_t pointer = LoadView(*def).pointer();
          Use(pointer);
          ReadRoot(facts_.RootOf(pointer));
          break;
        }
        case spv::OpFunctionCall: {
          uint32_t callee = FunctionCallView(*def).callee();
          if (!out_.returns.insert(callee).second) break;
          auto returns = returns_by_function_.find(callee);
          if (returns != returns_by_function_.end())
            for (const Returned& returned : returns->second) {
              Use(returned.value);
              ReadControl(*returned.function, *returned.block);  // the return's control
            }
          break;
        }
        case spv::OpPhi: {
          for (uint32_t operand : facts_.OperandsOf(*def)) Use(operand);
          if (!block || !function) break;
          const Cfg& cfg = *facts_.cfgs.at(function->id());
          PhiView phi(*def);
          for (size_t pair = 0; pair < phi.pair_count(); ++pair)
            if (const Block* pred = cfg.BlockById(phi.parent(pair))) UseChoosers(*function, *pred);
          break;
        }
        default:
          if (IsAtomic(def->opcode)) break;  // a fixed level, whatever its operands
          for (uint32_t operand : facts_.OperandsOf(*def)) Use(operand);
          break;
      }
    }
  }

  struct Placed {
    const Instruction* inst;
    const Function* function;
    const Block* block;
  };
  struct Returned {
    uint32_t value;
    const Function* function;
    const Block* block;
  };
  ModuleFacts& facts_;
  Relevance& out_;
  std::vector<uint32_t> pending_;
  std::unordered_set<const Block*> control_read_;
  std::vector<std::pair<const Function*, const Block*>> control_pending_;
  std::unordered_map<uint32_t, Frontiers> frontiers_;  // by function id
  std::unordered_map<uint32_t, std::vector<Placed>> stores_by_root_;
  std::unordered_map<uint32_t, std::vector<Returned>> returns_by_function_;
  // Read whatever the shader: pointer arguments' roots, copies' sources, the
  // module-scope variables called functions name.
  std::vector<uint32_t> seed_roots_;
};

}  // namespace

std::unique_ptr<Relevance> FindRelevance(ModuleFacts& facts) {
  auto relevance = std::make_unique<Relevance>();
  RelevanceFinder(facts, relevance.get()).Run();
  size_t blocks = 0;
  for (const Function& function : facts.module.functions) blocks += function.blocks.size();
  relevance->transferred = FlatKeyIndex<const Block*>(blocks);
  std::vector<const Instruction*>& list = relevance->transferred_list;
  std::vector<std::pair<uint32_t, uint32_t>>& ranges = relevance->transferred_ranges;
  for (const Function& function : facts.module.functions)
    for (const Block& block : function.blocks) {
      const uint32_t first = static_cast<uint32_t>(list.size());
      for (const Instruction& inst : block.instructions)
        if (relevance->Transfers(facts, function, inst)) list.push_back(&inst);
      if (list.size() == first) continue;
      relevance->transferred.Set(&block, static_cast<uint32_t>(ranges.size()));
      ranges.emplace_back(first, static_cast<uint32_t>(list.size()));
    }
  return relevance;
}

bool Relevance::Transfers(const ModuleFacts& facts, const Function& function,
                          const Instruction& inst) const {
  if (AlwaysTransferred(inst)) return true;
  switch (inst.opcode) {
    case spv::OpVariable:
      return false;  // without an initializer: its transfer changes nothing
    case spv::OpReturnValue:
      return returns.count(function.id()) != 0;
    case spv::OpStore: {
      uint32_t root = facts.RootOf(StoreView(inst).pointer());
      if (root == 0) return false;
      if (root < read_roots.size() && read_roots[root]) return true;
      const Instruction* def = facts.def_use.Definition(root);
      return def && def->opcode == spv::OpFunctionParameter;
    }
    default:
      // The transfer of any other instruction without a result (branches, merges,
      // barriers, image writes) changes nothing.
      return inst.result_id && Value(inst.result_id);
  }
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
