// Uniformity analysis, memory: loads, stores, copies, atomics and variables. Memory is
// tracked per root (a variable or a pointer parameter, which aliases the caller variables
// bound to it); a load is as divergent as its root's memory, except where a stronger
// rule applies: a followed Function variable takes the stores that reach the load
// (value_flow.h, flow-sensitive), and a Workgroup variable read after a barrier in
// uniform control flow with no aliasing write in the barrier's phase is uniform
// (barrier_phases.h). A pointer the analysis cannot trace reads as divergent memory.
#include "SPIRV/analysis/uniformity/uniformity_internal.h"

#include <algorithm>
#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {
namespace uniformity_detail {

// The variable (or pointer parameter) a pointer points into; 0 when Glint does not
// follow the pointer (loaded pointers, physical addresses, selects of pointers).
uint32_t ModuleFacts::RootOf(uint32_t pointer) const {
  return PointerOrigins(def_use).RootOf(pointer);
}

Fact UniformitySolver::MemoryFact(uint32_t root) const {
  if (root == 0) {
    Fact unknown;
    unknown.level = Divergence::kDivergent;
    unknown.cause = facts_.UnfollowedMemoryCause();
    return unknown;
  }
  Fact joined;
  ForEachAliasedRoot(root, [&](uint32_t aliased) {
    reads_.Note(FactKind::kMemory, aliased);
    const Fact* fact = memory_.Find(aliased);
    if (!fact || fact->level <= joined.level) return;
    joined.level = fact->level;
    joined.cause = aliased == root ? fact->cause : MakeCause(Cause::kLoad, aliased);
  });
  return joined;
}

void UniformitySolver::WriteMemory(uint32_t root, Divergence level, const Cause& cause) {
  if (root == 0) return;  // unknown memory is already divergent when read
  ForEachAliasedRoot(root, [&](uint32_t aliased) {
    Raise(FactKind::kMemory, aliased, memory_.Writable(aliased), level, cause);
  });
}

// A load of a Function variable the value-flow view follows: as non-uniform as the
// stores (or initializer) that reach it, the branches that choose between them at the
// phis on the way, and the branches that decide whether a store runs but not whether
// the load does (flow-sensitive: stores that cannot reach this load do not count).
// Why not the store's whole control: the invocations that run the load, and the same
// store before it, agree on whether they ran every branch both depend on, so those
// branches cannot give them different values; a value stored after a divergent early
// return is the same for all that run on (the return is what the finding must name).
// A branch only the store depends on can: it decides which invocations stored (a loop
// left at different iterations, a store under an `if` the load is after), so it
// counts. False for other loads.
const std::vector<const Block*>& ModuleFacts::DecidingBranches(uint32_t function,
                                                               const Block* block) const {
  auto known = deciding_branches.find(block);
  if (known != deciding_branches.end()) return known->second;
  const ControlDependence& dependence = *control_dependence.at(function);
  const Cfg& cfg = dependence.cfg();
  if (deciding_marks.size() < cfg.BlockCount()) deciding_marks.resize(cfg.BlockCount(), 0);
  const uint32_t stamp = ++deciding_stamp;
  std::vector<const Block*> found;
  // A loop's test block depends on its own branch: it is among its own deciding branches.
  std::vector<const Block*> work = {block};
  while (!work.empty()) {
    const Block* dependent = work.back();
    work.pop_back();
    for (const Block* branch : dependence.ControllersOf(dependent)) {
      uint32_t& mark = deciding_marks[size_t(cfg.NumberOf(branch))];
      if (mark == stamp) continue;
      mark = stamp;
      found.push_back(branch);
      work.push_back(branch);
    }
  }
  std::sort(found.begin(), found.end());
  return deciding_branches[block] = std::move(found);
}

const std::vector<ModuleFacts::StoreOnlyBranch>& ModuleFacts::StoreOnlyBranches(
    uint32_t function, const Block& load_block, const Instruction& load, const ValueFlow& flow,
    const uint32_t* first, const uint32_t* last) {
  auto known = store_only_branches.find(&load);
  if (known != store_only_branches.end()) return known->second;
  std::vector<StoreOnlyBranch> found;
  // A copy: the second call may rehash the memo the first returned into.
  const std::vector<const Block*> load_deciders = DecidingBranches(function, &load_block);
  for (const uint32_t* at = first; at != last; ++at) {
    const ValueFlowNode& node = flow.Node(*at);
    // One block has one set of deciding branches.
    if (node.kind != ValueFlowNode::Kind::kStore || node.block == &load_block) continue;
    for (const Block* branch : DecidingBranches(function, node.block))
      if (!std::binary_search(load_deciders.begin(), load_deciders.end(), branch))
        found.push_back({branch, node.store});
  }
  return store_only_branches[&load] = std::move(found);
}

bool UniformitySolver::TransferLocalLoad(const Function& function, const Block& block,
                                         const Instruction& inst) {
  const ValueFlow& flow = *facts_.flows.at(function.id());
  if (flow.Reaching(&inst) == ValueFlow::kNoNode) return false;
  // Only this load's pass raises and reads what reaches it (fact_reads.h).
  Fact& local = proven_.local_loads[&inst];
  const Divergence local_before = local.level;
  // One covering store (most loads) is asked for each time; more, or phis, once (memo).
  uint32_t covering = flow.CoveringDefinition(&inst);
  const uint32_t* first = &covering;
  const uint32_t* last = first + 1;
  const uint32_t* phis_end = last;
  if (covering == ValueFlow::kNoNode) {
    auto known = facts_.reaching_definitions.find(&inst);
    if (known == facts_.reaching_definitions.end()) {
      std::vector<uint32_t> phis;
      std::vector<uint32_t> definitions = flow.Definitions(&inst, &phis);
      ModuleFacts::ReachingDefinitions found{uint32_t(facts_.reaching_ids.size()),
                                             uint32_t(definitions.size()), uint32_t(phis.size())};
      facts_.reaching_ids.insert(facts_.reaching_ids.end(), definitions.begin(), definitions.end());
      facts_.reaching_ids.insert(facts_.reaching_ids.end(), phis.begin(), phis.end());
      known = facts_.reaching_definitions.emplace(&inst, found).first;
    }
    first = facts_.reaching_ids.data() + known->second.start;
    last = first + known->second.definitions;
    phis_end = last + known->second.phis;
  }
  for (const uint32_t* at = first; at != last; ++at) {
    const uint32_t id = *at;
    const ValueFlowNode& node = flow.Node(id);
    if (node.kind == ValueFlowNode::Kind::kStore) {
      // A shared component of a built-in vector stored whole (workgroup_dimensions.h).
      if (!dimensions_->LoadsSharedComponentOf(inst, node.value))
        Raise(local, proven_.Value(node.value),
              MakeCause(Cause::kStore, node.value, node.block, node.store));
    } else if (node.kind == ValueFlowNode::Kind::kInitializer) {
      Raise(local, proven_.Value(node.value),
            MakeCause(Cause::kStore, node.value, node.block,
                      facts_.def_use.Definition(node.variable)));
    }
  }
  // (Nothing more can raise a local already divergent: most, in shaders full of
  // per-invocation data, so the memo is not even asked.)
  if (local.level != Divergence::kDivergent)
    for (const auto& [branch, store] :
         facts_.StoreOnlyBranches(function.id(), block, inst, flow, first, last))
      Raise(local, proven_.Value(ConditionOf(*branch)),
            MakeCause(Cause::kStoreUnderBranch, 0, branch, store));
  const ControlDependence& dependence = *facts_.control_dependence.at(function.id());
  for (const uint32_t* at = last; at != phis_end; ++at) {
    const ValueFlowNode& phi = flow.Node(*at);
    BlockSpan preds = dependence.cfg().Predecessors(phi.block);
    for (size_t i = 0; i < preds.size() && i < phi.incoming.size(); ++i)
      if (phi.incoming[i] != ValueFlow::kNoNode) RaiseMerge(local, dependence, phi.block, preds[i]);
  }
  if (local.level != local_before) reads_.Rose(FactKind::kLocalLoad, inst.result_id);
  uint32_t variable = 0;
  flow.LoadTarget(&inst, &variable, nullptr);
  RaiseValue(inst.result_id, local.level, MakeCause(Cause::kLocalLoad, variable, &block, &inst));
  return true;
}

// A load through a Function pointer parameter (how glslang passes GLSL parameters) that
// an earlier store in the same block wrote through the same pointer, with nothing
// between that may write through it, reads what that store wrote: the stored value's
// level, not the parameter's joined memory ("v = tmp[0]; barrier(); return v;"). False
// for other loads.
bool UniformitySolver::TransferForwardedLoad(const Block& block, const Instruction& inst) {
  const Instruction* store = facts_.forwarded_stores.StoreRead(block, inst);
  if (!store) return false;
  uint32_t object = StoreView(*store).object();
  RaiseValue(inst.result_id, proven_.Value(object), MakeCause(Cause::kStore, object, &block, store));
  return true;
}

// A load of a Workgroup variable is workgroup-uniform when it runs in uniform control
// flow at a uniform address after barriers in uniform control flow (its own function's,
// a closing call's, or those before each call site of a helper), with no write that may
// alias it in their phases (barrier_phases.h); otherwise the reason says which condition
// failed. False for loads of other memory.
bool UniformitySolver::TransferSharedLoad(const Function& function, const Block& block,
                                          const Instruction& inst, const Fact& control) {
  uint32_t root = phases_ ? phases_->WorkgroupRoot(LoadView(inst).pointer()) : 0;
  if (!root) return false;
  if (partition_ == Partition::kLanes) {
    // Barrier phases prove workgroup-uniform values in workgroup-uniform control only.
    RaiseValue(inst.result_id, Divergence::kDivergent,
               facts_.SourceCause("shared variable " + facts_.NameOf(root) + " (lane analysis)"));
    return true;
  }
  if (control.level != Divergence::kUniform) {
    RaiseValue(inst.result_id, Divergence::kDivergent,
               MakeCause(Cause::kSharedControl, root, &block, &inst));
    return true;
  }
  BarrierPhases::Verdict verdict = phases_->Check(function, block, inst, context_call_);
  if (!verdict.barrier) {
    RaiseValue(inst.result_id, Divergence::kDivergent,
               MakeCause(Cause::kSharedUnguarded, root, &block, &inst));
    return true;
  }
  for (const Instruction* barrier : verdict.barriers) {
    const Block* barrier_block = facts_.def_use.BlockOf(barrier);
    if (!barrier_block || BarrierControl(barrier_block) != Divergence::kUniform) {
      RaiseValue(inst.result_id, Divergence::kDivergent,
                 MakeCause(Cause::kPhaseBarrier, root, barrier_block, barrier));
      return true;
    }
  }
  if (verdict.write)
    RaiseValue(inst.result_id, Divergence::kDivergent,
               facts_.PhaseWriteCause({root, verdict.barrier, verdict.write}));
  return true;
}

// A call context reads the control of barriers outside its own functions (those before
// the call it analyses) from its caller, and then its result depends on levels the
// caller may still raise.
Divergence UniformitySolver::BarrierControl(const Block* block) const {
  if (reached_.Contains(facts_.def_use.FunctionOfBlock(block))) {
    const Fact* fact = proven_.BlockFact(block);
    return fact ? fact->level : Divergence::kUniform;
  }
  if (!caller_) return Divergence::kDivergent;
  read_caller_control_ = true;
  return caller_->BarrierControl(block);
}

// Loads, stores, copies, variables and atomics; true when `inst` was one of them.
bool UniformitySolver::TransferMemory(const Function& function, const Block& block,
                                      const Instruction& inst, const Fact& control) {
  switch (inst.opcode) {
    case spv::OpLoad:
      TransferLoad(function, block, inst, control);
      return true;
    case spv::OpStore:
      TransferStore(block, inst, control);
      return true;
    case spv::OpCopyMemory:
    case spv::OpCopyMemorySized: {
      CopyMemoryView copy(inst);
      uint32_t target = facts_.RootOf(copy.target());
      Fact source = MemoryFact(facts_.RootOf(copy.source()));
      WriteMemory(target, source.level, source.cause);
      WriteMemory(target, control.level, MakeCause(Cause::kStoreControl, 0, &block, &inst));
      return true;
    }
    case spv::OpVariable:
      if (VariableView variable(inst); variable.has_initializer())
        WriteMemory(inst.result_id, proven_.Value(variable.initializer()),
                    MakeCause(Cause::kStore, variable.initializer(), &block, &inst));
      return true;
    default:
      break;
  }
  if (!IsAtomic(inst.opcode)) return false;
  Fact source = facts_.StaticFact(Divergence::kDivergent,
                                  std::string(grammar::OpcodeName(inst.opcode)) +
                                      " returns a different value to each invocation");
  if (inst.result_id) RaiseValue(inst.result_id, source.level, source.cause);
  WriteMemory(facts_.RootOf(AtomicView(inst).pointer()), source.level, source.cause);
  return true;
}

// A load: as non-uniform as its address, then by the first rule that applies (a built-in
// the workgroup shares, a followed local, a parameter just stored through, a shared
// variable) or else by the memory it reads.
void UniformitySolver::TransferLoad(const Function& function, const Block& block,
                                    const Instruction& inst, const Fact& control) {
  uint32_t pointer = LoadView(inst).pointer();
  RaiseValue(inst.result_id, proven_.Value(pointer), MakeCause(Cause::kOperand, pointer));
  // A built-in the whole workgroup shares (workgroup_dimensions.h): only its address
  // counts, and that is a constant chain into an Input variable.
  if (dimensions_->LoadsShared(inst)) return;
  if (TransferLocalLoad(function, block, inst) || TransferForwardedLoad(block, inst) ||
      TransferSharedLoad(function, block, inst, control))
    return;
  uint32_t root = facts_.RootOf(pointer);
  Fact memory = MemoryFact(root);
  RaiseValue(inst.result_id, memory.level,
             root ? MakeCause(Cause::kLoad, root, &block, &inst) : memory.cause);
}

// A store raises its memory by the value, the address and the control flow it runs in.
void UniformitySolver::TransferStore(const Block& block, const Instruction& inst,
                                     const Fact& control) {
  // Followed locals read their stores' deciding branches instead (TransferLocalLoad).
  StoreView store(inst);
  uint32_t root = facts_.RootOf(store.pointer());
  WriteMemory(root, proven_.Value(store.object()), MakeCause(Cause::kStore, store.object(), &block, &inst));
  WriteMemory(root, proven_.Value(store.pointer()),
              MakeCause(Cause::kStore, store.pointer(), &block, &inst));
  WriteMemory(root, control.level, MakeCause(Cause::kStoreControl, 0, &block, &inst));
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
