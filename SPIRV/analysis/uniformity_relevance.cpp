// Uniformity analysis, relevance: which facts a finding can depend on, so that the
// fixed point of the findings path (AnalyzeUniformity) computes those and passes over the
// rest. AnalyzeUniformityLevels, which reports every value's level, computes every fact.
//
// What it proves: every fact the reporter, the reason chains, the call-context decisions
// and the context caches read is computed exactly as when every instruction is transferred;
// only facts nothing of those reads are left at their starting level. A finding reads the
// control of blocks and the kills of callees; a block's control reads the conditions of
// the branches that control it; everything else follows the solver's transfer rules
// backwards:
//   - a value-like instruction (operands joined, loads, phis, cross-thread sources) reads
//     its operands; it is relevant when its result is;
//   - a load reads its pointer and the memory of its root (the variable or parameter the
//     pointer points into): the root is read, and every store into a read root is
//     relevant, with its value and pointer;
//   - a call's result reads what its callee returns: the values of the callee's
//     OpReturnValue instructions are relevant once one call's result is.
// Always relevant, because the call-context rules read them for every call whose result
// is computed (whether a context may help, and the inputs a context result is cached by):
// the conditions and selectors of every branch, every call argument, the roots of pointer
// arguments, and the module-scope variables any called function names. Stores through a
// pointer parameter write every root the parameter may stand for, so they are always
// relevant; stores through a pointer the analysis does not follow write nothing it keeps.
// Calls, kills, initialized variables, copies and atomics are always transferred (they
// raise what blocks and memory read); a call's result is computed only where it is
// relevant. Instructions whose transfer changes nothing (branches, merges, barriers,
// variables without an initializer) are not transferred at all.
//
// Cost: one walk over the functions' instructions to index stores and returns, then each
// id and root at most once.
#include <algorithm>
#include <cstdlib>
#include <unordered_map>
#include <vector>

#include "SPIRV/analysis/uniformity_internal.h"

namespace glint::spirv {
namespace uniformity_detail {
namespace {

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
          switch (inst.opcode) {
            case spv::OpBranchConditional:
              Use(BranchConditionalView(inst).condition());
              break;
            case spv::OpSwitch:
              Use(SwitchView(inst).selector());
              break;
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
              returns_by_function_[function.id()].push_back(ReturnValueView(inst).value());
              break;
            case spv::OpStore: {
              StoreView store(inst);
              uint32_t root = facts_.RootOf(store.pointer());
              if (root == 0) break;  // written where the analysis keeps nothing
              if (IsParameter(root)) {
                Use(store.object());
                Use(store.pointer());
              } else {
                stores_by_root_[root].push_back(&inst);
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
    auto stores = stores_by_root_.find(root);
    if (stores == stores_by_root_.end()) return;
    for (const Instruction* inst : stores->second) {
      StoreView store(*inst);
      Use(store.object());
      Use(store.pointer());
    }
  }

  void Drain() {
    while (!pending_.empty()) {
      uint32_t id = pending_.back();
      pending_.pop_back();
      const Instruction* def = facts_.def_use.Definition(id);
      if (!def) continue;
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
            for (uint32_t value : returns->second) Use(value);
          break;
        }
        default:
          if (IsAtomic(def->opcode)) break;  // a fixed level, whatever its operands
          for (uint32_t operand : facts_.OperandsOf(*def)) Use(operand);
          break;
      }
    }
  }

  ModuleFacts& facts_;
  Relevance& out_;
  std::vector<uint32_t> pending_;
  std::unordered_map<uint32_t, std::vector<const Instruction*>> stores_by_root_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> returns_by_function_;
  // Read whatever the shader: pointer arguments' roots, copies' sources, the
  // module-scope variables called functions name.
  std::vector<uint32_t> seed_roots_;
};

}  // namespace

std::unique_ptr<Relevance> FindRelevance(ModuleFacts& facts) {
  auto relevance = std::make_unique<Relevance>();
  RelevanceFinder(facts, relevance.get()).Run();
  for (const Function& function : facts.module.functions)
    for (const Block& block : function.blocks) {
      std::vector<const Instruction*>& list = relevance->transferred[&block];
      for (const Instruction& inst : block.instructions)
        if (relevance->Transfers(facts, function, inst)) list.push_back(&inst);
    }
  return relevance;
}

bool Relevance::Transfers(const ModuleFacts& facts, const Function& function,
                          const Instruction& inst) const {
  switch (inst.opcode) {
    case spv::OpFunctionCall:
    case spv::OpKill:
    case spv::OpTerminateInvocation:
    case spv::OpCopyMemory:
    case spv::OpCopyMemorySized:
      return true;
    case spv::OpVariable:
      return VariableView(inst).has_initializer();
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
      if (IsAtomic(inst.opcode)) return true;
      return inst.result_id && Value(inst.result_id);
  }
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
