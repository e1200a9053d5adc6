// Uniformity analysis, transfer: the fixed point over the functions an entry point
// reaches. Each round walks every function in reverse post-order; a block's control level
// joins its call sites, the branches it is control dependent on and callees' kills; a
// value's level joins its operands (phis also the branches that choose their incoming
// edge); calls pass argument levels into parameters and return levels out. Levels only
// rise, so the rounds end; a round budget bounds them (the caller refuses past it).
#include "SPIRV/analysis/uniformity/one_block_helpers.h"
#include "SPIRV/analysis/uniformity/uniformity_internal.h"

#include <algorithm>

#include "SPIRV/analysis/uniformity/uniformity_filters.h"

namespace glint::spirv {
namespace uniformity_detail {

UniformitySolver::UniformitySolver(ModuleFacts& facts, const Instruction& entry_point,
                                   const UniformityOptions& options, Partition partition)
    : facts_(facts), options_(options), partition_(partition) {
  proven_.value_levels.assign(facts_.module.header.bound, Divergence::kUniform);
  proven_.reads = &reads_;
  EntryPointInterfaceView view(entry_point);
  model_ = view.model();
  entry_name_ = view.name();
  reached_ = ReachedFunctions(facts_.calls, view.function());
  one_subgroup_ =
      std::make_shared<OneSubgroupRegions>(facts_, model_, reached_.root(), reached_.list());
  dimensions_ = std::make_shared<WorkgroupDimensions>(
      facts_.module, facts_.builtins, model_, reached_.root(),
      [&def_use = facts_.def_use](uint32_t id) -> const Instruction* {
        return def_use.Definition(id);
      });
  for (const Instruction& inst : facts_.module.types_values)
    if (inst.opcode == spv::OpVariable) {
      Fact initial = StaticMemoryFact(inst);
      Raise(FactKind::kMemory, inst.result_id, memory_.Writable(inst.result_id), initial.level,
            initial.cause);
    }
  if (HasWorkgroups(model_))
    phases_ =
        std::make_shared<BarrierPhases>(facts_.def_use, facts_.calls, reached_.list(), facts_.cfgs);
  contexts_ = std::make_shared<CallContexts>();
}

bool UniformitySolver::Raise(Fact& fact, Divergence level, const Cause& cause) {
  level = LevelIn(partition_, level);
  if (level <= fact.level) return false;
  fact.level = level;
  fact.cause = cause;
  ++raises_;
  return true;
}

bool UniformitySolver::RaiseValue(uint32_t id, Divergence level, const Cause& cause) {
  if (LevelIn(partition_, level) <= proven_.UnnotedValue(id)) return false;
  Fact& fact = proven_.values[id];
  if (!Raise(FactKind::kValue, id, fact, level, cause)) return false;
  if (id < proven_.value_levels.size()) proven_.value_levels[id] = fact.level;
  return true;
}

// Rounds over every reachable function until one round raises nothing. A block is
// passed over when no fact its previous pass read has risen since (fact_reads.h): its
// transfer reads only the solver's facts (and memos that are functions of the module),
// so running it again would raise nothing. That holds for its call contexts too (their
// results are kept by their inputs, which the pass read), unless its previous pass ran
// a context whose result could not be kept (it read the caller's control): running it
// again would run that context again and spend the context budget, so such a block is
// not passed over. The rounds, and every fact with its cause, are those of running
// every block in every round (UniformityOptions::rerun_every_block does that).
std::string UniformitySolver::Run(uint32_t* rounds) {
  previous_passes_.clear();
  for (uint32_t round = 1; round <= options_.round_budget; ++round) {
    const uint64_t raises_before = raises_;
    for (Function* function : reached_.list()) ProcessFunction(*function);
    *rounds = std::max(*rounds, round);
    if (raises_ == raises_before) return "";
  }
  return "uniformity analysis of entry point `" + entry_name_ +
         "` found no fixed point within its round budget (" +
         std::to_string(options_.round_budget) + " rounds)";
}

void UniformitySolver::ProcessFunction(Function& function) {
  const ControlDependence& dependence = *facts_.control_dependence.at(function.id());
  for (const Block* block : dependence.cfg().ReversePostOrder()) {
    PreviousPass& pass = previous_passes_[block];
    if (pass.done && !pass.ran_uncached_context && !options_.rerun_every_block &&
        (pass.raises_at_start == raises_ || !reads_.RoseSinceRead(pass.reads)))
      continue;
    const uint64_t uncached = uncached_context_runs_;
    pass.done = true;
    ++block_passes_;
    pass.raises_at_start = raises_;
    reads_.Begin(&pass.reads);
    Fact control = BlockControl(function, *block);
    reads_.Note(FactKind::kLocalBlock, block->id());
    running_local_ = proven_.local_blocks[block];
    if (facts_.relevance) {
      for (const Instruction* inst : facts_.relevance->TransferredIn(block))
        Transfer(function, *block, *inst, &control);
    } else {
      for (const Instruction& inst : block->instructions)
        Transfer(function, *block, inst, &control);
    }
    reads_.End();
    pass.ran_uncached_context = uncached_context_runs_ != uncached;
  }
}

// The control level of a block: its function's call sites, the branches it depends
// on (their conditions and their own control), and callees' kills before it.
// Only this block's pass raises its own control facts: they are noted as read once
// raised, as the pass returns them.
Fact UniformitySolver::BlockControl(const Function& function, const Block& block) {
  const uint32_t label = block.id();
  Fact& fact = proven_.blocks[&block];
  reads_.Note(FactKind::kEntry, function.id());
  const Fact& entry = entries_[function.id()];
  Raise(FactKind::kBlock, label, fact, entry.level, entry.cause);
  Fact& local = proven_.local_blocks[&block];
  const ControlDependence& dependence = *facts_.control_dependence.at(function.id());
  for (const Block* branch : dependence.ControllersOf(&block)) {
    const Divergence condition = proven_.Value(ConditionOf(*branch));
    Raise(FactKind::kBlock, label, fact, condition, MakeCause(Cause::kBranch, 0, branch));
    reads_.Note(FactKind::kBlock, branch->id());
    Raise(FactKind::kBlock, label, fact, proven_.blocks[branch].level,
          MakeCause(Cause::kNested, 0, branch));
    Raise(FactKind::kLocalBlock, label, local, condition, MakeCause(Cause::kBranch, 0, branch));
    reads_.Note(FactKind::kLocalBlock, branch->id());
    Raise(FactKind::kLocalBlock, label, local, proven_.local_blocks[branch].level,
          MakeCause(Cause::kNestedLocal, 0, branch));
  }
  // Kills by callees on the way here (not by calls later in this block).
  for (const Block* pred : dependence.cfg().Predecessors(&block)) {
    reads_.Note(FactKind::kKilledOut, pred->id());
    Fact killed = killed_out_[pred];
    Raise(FactKind::kBlock, label, fact, killed.level, killed.cause);
    Raise(FactKind::kLocalBlock, label, local, killed.level, killed.cause);
    Raise(FactKind::kKilledOut, label, killed_out_[&block], killed.level, killed.cause);
  }
  reads_.Note(FactKind::kBlock, label);
  return fact;
}

void UniformitySolver::Transfer(const Function& function, const Block& block,
                                const Instruction& inst, Fact* control) {
  switch (inst.opcode) {
    case spv::OpFunctionCall:
      TransferCall(block, inst, control);
      return;
    case spv::OpPhi:
      TransferPhi(function, block, inst);
      return;
    case spv::OpReturnValue: {
      uint32_t value = ReturnValueView(inst).value();
      Fact& returned = proven_.returns[function.id()];
      Raise(FactKind::kReturn, function.id(), returned, proven_.Value(value),
            MakeCause(Cause::kReturn, value, &block, &inst));
      // Within the function: the invocations of one call see the same returns.
      Raise(FactKind::kReturn, function.id(), returned, running_local_.level,
            MakeCause(Cause::kReturnControlLocal, 0, &block, &inst));
      return;
    }
    case spv::OpKill:
    case spv::OpTerminateInvocation:
      Raise(FactKind::kKill, function.id(), proven_.kills[function.id()], control->level,
            MakeCause(Cause::kKill, 0, &block, &inst));
      return;
    default:
      break;
  }
  if (TransferMemory(function, block, inst, *control)) return;
  if (TransferSource(inst, *control)) return;
  // A component of a built-in the whole workgroup shares (workgroup_dimensions.h) does
  // not take the level of the vector it comes from.
  if (dimensions_->ExtractsShared(inst)) return;
  // A loop's top test whose counter and bound share a per-invocation offset takes the
  // level of what decides it, not of its operands (offset_shared_loops.h). Asked only
  // once an operand is non-uniform (the answer is the module's; only the cost differs).
  if (OffsetSharedLoops::MayApply(inst.opcode) && OperandsRaised(inst)) {
    const OffsetSharedLoops::Test& test = facts_.offset_shared_loops->Of(inst);
    if (test.holds) {
      for (uint32_t id : test.deciding)
        RaiseValue(inst.result_id, proven_.Value(id), MakeCause(Cause::kOperand, id));
      return;
    }
  }
  if (inst.result_id) JoinOperands(inst);
}

bool UniformitySolver::OperandsRaised(const Instruction& inst) const {
  for (uint32_t id : facts_.OperandsOf(inst))
    if (proven_.Value(id) != Divergence::kUniform) return true;
  return false;
}

void UniformitySolver::JoinOperands(const Instruction& inst) {
  for (uint32_t id : facts_.OperandsOf(inst))
    RaiseValue(inst.result_id, proven_.Value(id), MakeCause(Cause::kOperand, id));
}

void UniformitySolver::TransferCall(const Block& block, const Instruction& inst, Fact* control) {
  uint32_t callee_id = FunctionCallView(inst).callee();
  Function* callee = facts_.calls.FunctionById(callee_id);
  if (!callee) return;
  Raise(FactKind::kEntry, callee_id, entries_[callee_id], control->level,
        MakeCause(Cause::kCallSite, 0, &block, &inst));
  ForEachArgument(*callee, inst, [&](const Instruction& parameter, uint32_t argument) {
    RaiseValue(parameter.result_id, proven_.Value(argument),
               MakeCause(Cause::kParameter, argument, &block, &inst));
    if (facts_.IsPointer(parameter) &&
        bindings_.Writable(parameter.result_id).insert(facts_.RootOf(argument)).second) {
      ++raises_;
      ++bindings_version_;
      reads_.Rose(FactKind::kBinding, parameter.result_id);
    }
  });
  if (inst.result_id && !facts_.AssumedUniform(callee_id, options_) &&
      (!facts_.relevance || facts_.relevance->Value(inst.result_id))) {
    std::optional<Fact> own = OneBlockHelperResult(*this, phases_.get(), *callee, block, inst);
    if (!own) own = ContextResult(*callee, block, inst, *control);
    reads_.Note(FactKind::kReturn, callee_id);
    const Fact& returned = proven_.returns[callee_id];
    if (own)
      RaiseValue(inst.result_id, own->level, own->cause);
    else
      RaiseValue(inst.result_id, returned.level,
                 MakeCause(Cause::kCallResult, callee_id, &block, &inst));
  }
  reads_.Note(FactKind::kKill, callee_id);
  const Fact& kill = proven_.kills[callee_id];
  Cause after = MakeCause(Cause::kKillAfterCall, callee_id, &block, &inst);
  RaiseLocal(*control, kill.level, after);
  RaiseLocal(running_local_, kill.level, after);
  Raise(FactKind::kKilledOut, block.id(), killed_out_[&block], kill.level, after);
}

// A phi is as divergent as its values, and as the branches that choose between its
// incoming edges but do not also control the phi's own block.
void UniformitySolver::TransferPhi(const Function& function, const Block& block,
                                   const Instruction& inst) {
  // Raised as a copy, kept only where it rose (RaiseValue): reading the phi's own value
  // (a loop's phi among its incoming values or conditions) can never raise it. What it
  // was before is not a read the pass depends on (RaiseValue's UnnotedValue).
  const Fact* known = proven_.values.Find(inst.result_id);
  Fact fact = known ? *known : Fact{};
  const ControlDependence& dependence = *facts_.control_dependence.at(function.id());
  PhiView phi(inst);
  for (size_t pair = 0; pair < phi.pair_count(); ++pair) {
    Raise(fact, proven_.Value(phi.value(pair)), MakeCause(Cause::kOperand, phi.value(pair)));
    if (const Block* pred = dependence.cfg().BlockById(phi.parent(pair)))
      RaiseMerge(fact, dependence, &block, pred);
  }
  if (fact.level != (known ? known->level : Divergence::kUniform)) {
    proven_.values[inst.result_id] = fact;
    if (inst.result_id < proven_.value_levels.size())
      proven_.value_levels[inst.result_id] = fact.level;
    reads_.Rose(FactKind::kValue, inst.result_id);
  }
}

// Raises `fact` by the conditions of the branches that choose whether the edge from
// `pred` into `join` is taken but do not also control `join` itself.
void UniformitySolver::RaiseMerge(Fact& fact, const ControlDependence& dependence,
                                  const Block* join, const Block* pred) {
  const ControlDependence::Branches own = dependence.ControllersOf(join);
  auto controls_join = [&](const Block* branch) { return own.Contains(branch); };
  // The branches `pred` depends on, then `pred`'s own (in that order: the first to raise
  // names the cause).
  auto raise_by = [&](const Block* branch) {
    if (!controls_join(branch))
      Raise(fact, proven_.Value(ConditionOf(*branch)), MakeCause(Cause::kMerge, 0, branch));
  };
  for (const Block* branch : dependence.ControllersOf(pred)) raise_by(branch);
  if (ConditionOf(*pred)) raise_by(pred);
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
