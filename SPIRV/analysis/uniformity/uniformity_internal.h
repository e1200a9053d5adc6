// Uniformity analysis, internals shared by its files (not part of the API): the facts
// and causes the fixed point raises, the module facts every entry point reads, and the
// per-entry-point solver (the fixed point; uniformity_reporter.h turns what it proved
// into findings). Each uniformity_*.cpp file implements one part of one class; the
// header comment of each says which. What is proven is in uniformity.h.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_INTERNAL_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_INTERNAL_H

#include <algorithm>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "SPIRV/analysis/convergence/convergence_classes.h"
#include "SPIRV/analysis/facts/control_dependence.h"
#include "SPIRV/analysis/facts/interned_texts.h"
#include "SPIRV/analysis/facts/stable_flat_map.h"
#include "SPIRV/analysis/memory/pointer_origins.h"
#include "SPIRV/analysis/memory/value_flow.h"
#include "SPIRV/analysis/uniformity/barrier_phases.h"
#include "SPIRV/analysis/uniformity/call_contexts.h"
#include "SPIRV/analysis/uniformity/fact_reads.h"
#include "SPIRV/analysis/uniformity/forwarded_stores.h"
#include "SPIRV/analysis/uniformity/offset_shared_loops.h"
#include "SPIRV/analysis/uniformity/one_subgroup_regions.h"
#include "SPIRV/analysis/uniformity/reached_functions.h"
#include "SPIRV/analysis/uniformity/starting_levels.h"
#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/analysis/uniformity/workgroup_dimensions.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/flat_key_index.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/module.h"
#include "SPIRV/ir/workgroup_size.h"

namespace glint::spirv::uniformity_detail {

// A reason chain as it is written: each line with the place it names.
struct ReasonLines {
  std::vector<std::string> text;
  std::vector<SourceLocation> where;
  void Add(std::string line, SourceLocation location) {
    text.push_back(std::move(line));
    where.push_back(std::move(location));
  }
};

// Why a level was raised. A fact is only raised by a fact that already had the new
// level, so following causes never loops.
struct Cause {
  enum Kind : uint8_t {
    kNone,
    kSource,              // source text number `id` (ModuleFacts::SourceText)
    kOperand,             // value `id`
    kLoad,                // memory object `id`, loaded by `at`
    kStore,               // value `id` stored by `at`
    kStoreControl,        // store `at` in non-uniform block `block`
    kParameter,           // argument `id` of call `at`
    kCallResult,          // function `id` returns a non-uniform value to call `at`
    kReturn,              // value `id` returned by `at`
    kReturnControl,       // return `at` in non-uniform block `block`
    kBranch,              // controlled by the non-uniform branch ending `block`
    kNested,              // controlled by the branch ending `block`, itself non-uniform
    kCallSite,            // function entered by call `at` in non-uniform block `block`
    kKillAfterCall,       // after call `at` of function `id`, which may end invocations
    kKill,                // OpKill / OpTerminateInvocation `at` in non-uniform block `block`
    kMerge,               // phi merging the paths of the branch ending `block`
    kNestedLocal,         // kNested, within the function (call sites left out)
    kStoreControlLocal,   // kStoreControl, within the function (call sites left out)
    kReturnControlLocal,  // kReturnControl, within the function (call sites left out)
    kLocalLoad,           // Function variable `id` loaded by `at`: the stores that reach it
    kSharedControl,       // shared variable `id` loaded by `at` in non-uniform block `block`
    kPhaseBarrier,        // shared variable `id` read after barrier `at` in non-uniform `block`
    kSharedUnguarded,     // shared variable `id` loaded by `at` with no workgroup barrier before
    kSharedPhaseWrite,    // a write in a load's phase, number `id` (ModuleFacts::PhaseWrite)
    kStoreUnderBranch,    // store `at` decided by the non-uniform branch ending `block`,
                          // which does not decide whether the load runs
  };
  // Pointers first, so the 3 bytes after `kind` are tail padding a Fact's level fills.
  const Block* block = nullptr;
  const Instruction* at = nullptr;
  uint32_t id = 0;
  Kind kind = kNone;
};

// A level and the cause that raised it. The solver holds one per non-uniform value,
// block, variable and load, each in a hash node: the level sits in the cause's tail
// padding, so a fact is 24 bytes and a node with its key 40 (a 48-byte malloc block,
// not 64 as with a 40-byte fact; a quarter of the solver's memory on a large shader).
struct Fact {
  Fact() = default;
  Fact(Divergence raised_to, const Cause& raised_by) : cause(raised_by), level(raised_to) {}

  [[no_unique_address]] Cause cause;
  Divergence level = Divergence::kUniform;
};
static_assert(sizeof(void*) != 8 || sizeof(Fact) == 24,
              "a fact's level fits in its cause's tail padding");

inline Cause MakeCause(Cause::Kind kind, uint32_t id = 0, const Block* block = nullptr,
                       const Instruction* at = nullptr) {
  Cause cause;
  cause.kind = kind;
  cause.id = id;
  cause.block = block;
  cause.at = at;
  return cause;
}

// Raises a fact that is not part of the fixed point (a copy walked along a block).
inline void RaiseLocal(Fact& fact, Divergence level, const Cause& cause) {
  if (level <= fact.level) return;
  fact.level = level;
  fact.cause = cause;
}



// The level a built-in input starts at (for the analysis's scope partition, or with
// `lanes` the lane partition of uniformity_lanes.cpp) and, where it is not uniform, why
// ("differs between invocations"). One table for the analysis and the coarse proof.
struct BuiltInStart {
  Divergence level = Divergence::kUniform;
  const char* why = "";
};
BuiltInStart BuiltInStartOf(uint32_t builtin, spv::ExecutionModel model, bool lanes);

// Control dependence of one function: for each block, the blocks ending in a
// multi-way branch it is control dependent on (post-dominator walk per edge), in the
// reverse post-order of the branches, each once.
class ControlDependence {
 public:
  explicit ControlDependence(const Cfg& cfg);
  const Cfg& cfg() const { return *cfg_; }

  struct Branches {
    const Block* const* first;
    const Block* const* last;
    const Block* const* begin() const { return first; }
    const Block* const* end() const { return last; }
    bool empty() const { return first == last; }
    bool Contains(const Block* branch) const { return std::find(first, last, branch) != last; }
  };
  // The branches `block` depends on; empty for a block of another function.
  Branches ControllersOf(const Block* block) const {
    const int number = cfg_->NumberOf(block);
    if (number < 0) return {nullptr, nullptr};
    const Block* const* base = branches_.data();
    return {base + first_[size_t(number)], base + first_[size_t(number) + 1]};
  }

 private:
  const Cfg* cfg_;
  // Every block's list in one array, by the block's CFG number: block b's branches are
  // branches_[first_[b] .. first_[b + 1]) (one allocation, not a vector per block).
  std::vector<uint32_t> first_;
  std::vector<const Block*> branches_;
};

struct ModuleFacts;

// The facts a finding can depend on (uniformity_relevance.cpp): the values by id, the
// memory roots relevant loads read, and the functions whose return value a relevant
// call reads. The solver transfers only what Transfers says.
struct Relevance {
  std::vector<uint8_t> values;      // by id
  std::vector<uint8_t> read_roots;  // by id
  std::unordered_set<uint32_t> returns;
  bool Value(uint32_t id) const { return id < values.size() && values[id]; }
  // Whether the solver must transfer `inst` of `function`.
  bool Transfers(const ModuleFacts& facts, const Function& function,
                 const Instruction& inst) const;
  // What the solver transfers in each block of a function, in order: decided once
  // here rather than for each instruction in every round. All blocks' lists sit in one
  // array; a block's is [first, last) of it, kept in `transferred_ranges` at the index
  // `transferred` gives the block (a block with none has no entry). A flat index, not a
  // node per block: this was a fifth of the analysis's allocations on a large kernel.
  std::vector<const Instruction*> transferred_list;
  FlatKeyIndex<const Block*> transferred;
  std::vector<std::pair<uint32_t, uint32_t>> transferred_ranges;
  struct InstructionRange {
    const Instruction* const* first;
    const Instruction* const* last;
    const Instruction* const* begin() const { return first; }
    const Instruction* const* end() const { return last; }
  };
  InstructionRange TransferredIn(const Block* block) const {
    const uint32_t found = transferred.Find(block);
    if (found == FlatKeyIndex<const Block*>::kAbsent) return {nullptr, nullptr};
    const Instruction* const* data = transferred_list.data();
    const std::pair<uint32_t, uint32_t>& range = transferred_ranges[found];
    return {data + range.first, data + range.second};
  }
};

// Whether `inst` has a pointer type; `definition_of(id)` gives a definition or null (the
// solver's def-use, the coarse proof's table).
template <class DefinitionOf>
bool HasPointerType(const Instruction& inst, const DefinitionOf& definition_of) {
  const Instruction* type = definition_of(inst.type_id);
  return type && type->opcode == spv::OpTypePointer;
}

// Facts about the module every entry point shares: decorations, names, source lines,
// control dependence and convergence classes (operand lists are def-use's).
struct ModuleFacts {
  ModuleFacts(Module& m, const UniformityInputs& inputs)
      : module(m),
        def_use(inputs.def_use),
        builtins(inputs.builtins),
        calls(inputs.calls),
        classes(inputs.classes),
        lines(inputs.lines) {}

  Module& module;
  const DefUse& def_use;
  const BuiltInIndex& builtins;
  const CallGraph& calls;
  const ConvergenceClasses& classes;
  SourceLines& lines;
  // The imported GLSL.std.450 set (the first; 0 when none), found once: one-block
  // helpers' OpExtInsts ask in every round.
  uint32_t glsl_std450_import = 0;
  // The OpName of each named id (the last one where there are several), decoded only
  // when a message or a filter asks (SourceName): most compiles ask for none.
  std::unordered_map<uint32_t, const Instruction*> names;
  // The id's source name, "" when it has none.
  std::string SourceName(uint32_t id) const;
  StorageDecorations decorations;  // Flat, NonWritable, BufferBlock (starting_levels.h)
  std::unordered_map<uint32_t, std::unique_ptr<ControlDependence>> control_dependence;
  std::unordered_map<uint32_t, const Cfg*> cfgs;
  std::unordered_map<uint32_t, const ValueFlow*> flows;  // locals, per function
  std::vector<std::unique_ptr<ValueFlow>> own_flows;     // views of the read variables only
  // Per load through a pointer parameter: the store it reads (forwarded_stores.h).
  ForwardedStores forwarded_stores{def_use};
  // Per loop test: the values that decide it when its counter and bound share an offset
  // (offset_shared_loops.h); built by CollectModuleFacts.
  std::unique_ptr<OffsetSharedLoops> offset_shared_loops;
  // What reaches each load of a followed Function variable (ValueFlow::Definitions: the
  // stores and initializers, and the phis on the way), found once per load (memo): it
  // depends on the module alone, and the solver reads it in every round.
  // Both lists of a load sit in one shared array (definitions, then phis).
  struct ReachingDefinitions {
    uint32_t start;
    uint32_t definitions;
    uint32_t phis;
  };
  std::unordered_map<const Instruction*, ReachingDefinitions> reaching_definitions;
  std::vector<uint32_t> reaching_ids;
  // The branches that decide, directly or through other branches, whether a block runs
  // within its function (control dependence, closed transitively), sorted; and per
  // followed load, each (branch, store) where the branch decides whether a store that
  // reaches the load runs but not whether the load does (memos: the solver asks for
  // every followed load in every round).
  using StoreOnlyBranch = std::pair<const Block*, const Instruction*>;
  const std::vector<const Block*>& DecidingBranches(uint32_t function, const Block* block) const;
  const std::vector<StoreOnlyBranch>& StoreOnlyBranches(uint32_t function, const Block& load_block,
                                                        const Instruction& load,
                                                        const ValueFlow& flow,
                                                        const uint32_t* first,
                                                        const uint32_t* last);
  mutable std::unordered_map<const Block*, std::vector<const Block*>> deciding_branches;
  // DecidingBranches' marks of branches already found, by CFG block number: a query's
  // stamp marks them, so no set is made (or cleared) per query.
  mutable std::vector<uint32_t> deciding_marks;
  mutable uint32_t deciding_stamp = 0;
  std::unordered_map<const Instruction*, std::vector<StoreOnlyBranch>> store_only_branches;
  // The module-scope variables the functions reachable from a function name (memo, by
  // function id): the memory a call context of it can read besides its arguments'.
  std::unordered_map<uint32_t, std::vector<uint32_t>> module_variables_reached;
  const std::vector<uint32_t>& ModuleVariablesReached(uint32_t function);
  // The most calls nested below a function (0 for one that calls nothing; memo, by
  // function id): how deep its call contexts may nest.
  std::unordered_map<uint32_t, int> call_heights;
  int CallHeight(uint32_t function);
  // The id operands of `inst` (its result type left out), decoded once by the def-use
  // index; an empty range for an instruction outside every block.
  using IdRange = DefUse::IdRange;
  IdRange OperandsOf(const Instruction& inst) const { return def_use.OperandIds(inst); }
  bool HasOperandList(const Instruction& inst) const { return def_use.HasOperandIds(inst); }
  // Whether `inst` (a parameter, mostly) has a pointer type.
  bool IsPointer(const Instruction& inst) const {
    return HasPointerType(inst, [this](uint32_t id) { return def_use.Definition(id); });
  }

  // The variable (or pointer parameter) a pointer points into; 0 when the analysis does
  // not follow the pointer (loaded pointers, physical addresses, selects of pointers).
  uint32_t RootOf(uint32_t pointer) const;
  // Whether a helper's result follows from its operands alone: no source, no memory, no
  // call or phi (uniformity_call_sites.cpp reads a helper's result this way).
  bool FollowsFromOperands(const Instruction& inst) const;
  // Whether the user promises that calls of `callee` return a uniform value.
  bool AssumedUniform(uint32_t callee, const UniformityOptions& options) const;
  // BarrierPhases::LoadsWorkgroupMemory, kept once per module for every entry point's
  // solvers (the answer depends on the module alone).
  bool LoadsWorkgroupMemory(const Function& function, const BarrierPhases& phases) {
    auto known = loads_workgroup_memory.find(function.id());
    if (known != loads_workgroup_memory.end()) return known->second;
    return loads_workgroup_memory[function.id()] = phases.LoadsWorkgroupMemory(function);
  }
  std::unordered_map<uint32_t, bool> loads_workgroup_memory;  // by function id
  // What the findings can depend on; null where every fact is computed (the levels).
  std::unique_ptr<Relevance> relevance;

  // The texts of source causes, each once, by number (a kSource cause's `id`).
  InternedTexts source_texts;
  const std::string& SourceText(uint32_t number) const { return source_texts.Text(number); }

  // A cause whose source is `text`; a fact at `level` with that cause (none for uniform).
  Cause SourceCause(std::string text);
  // The cause of memory read through a pointer the analysis does not follow (interned
  // once: loads through such pointers ask for it in every round).
  Cause UnfollowedMemoryCause() {
    if (!unfollowed_memory_cause)
      unfollowed_memory_cause =
          SourceCause("memory reached through a pointer the analysis does not follow");
    return *unfollowed_memory_cause;
  }
  std::optional<Cause> unfollowed_memory_cause;
  Fact StaticFact(Divergence level, std::string text);

  // A write that may alias a shared load after its barrier, in the load's phase
  // (kSharedPhaseWrite): each once, by number. Causes that name source lines are kept
  // as instructions and put into words only when a finding is explained, so a compile
  // that reports nothing never asks where anything is.
  struct PhaseWrite {
    uint32_t root = 0;                     // the shared variable
    const Instruction* barrier = nullptr;  // the barrier the load follows
    const Instruction* write = nullptr;    // the write after it
  };
  std::vector<PhaseWrite> phase_writes;
  std::map<std::tuple<uint32_t, const Instruction*, const Instruction*>, uint32_t>
      phase_write_numbers;
  Cause PhaseWriteCause(const PhaseWrite& write);

  // How causes and reasons name things: "`count`" (or "%12" without a name); "at
  // x.comp:5", "near x.comp:5" (a line inherited from an earlier instruction) or "in
  // `f` (no line information)"; and the location itself.
  std::string NameOf(uint32_t id) const;
  const std::string& Where(const Instruction* inst) const;
  SourceLocation LocationOf(const Instruction* inst) const;
  // Each instruction located, and its Where written, once: reasons name the same
  // branches and loads for many findings, and each asks Where and LocationOf. (Kept
  // here, not in SourceLines: the module does not change while findings are explained.)
  struct Place {
    SourceLines::Located located;
    std::string where;  // Where's text; empty until asked
  };
  Place& PlaceOf(const Instruction* inst) const;
  mutable std::unordered_map<const Instruction*, Place> places;
};

// `findings_only`: the facts findings read (Relevance) are all the solver computes, and
// each function's value flow follows only the variables those read (unless the full
// view is built already).
std::unique_ptr<ModuleFacts> CollectModuleFacts(Module& module, const UniformityInputs& inputs,
                                                bool findings_only);
std::unique_ptr<Relevance> FindRelevance(ModuleFacts& facts);

bool IsAtomic(spv::Op op);
// GroupOperation Reduce gives every invocation the same result; scans and clustered or
// partitioned reductions differ per invocation.
bool IsReduce(const Instruction& inst);
// Results whose level is fixed by the opcode alone: per invocation (shuffles, Elect,
// helper and clock queries), per quad, or per subgroup (votes, ballots, broadcasts).
std::optional<Divergence> FixedResultLevel(spv::Op opcode);
bool IsDerivative(spv::Op op);

// Calls `visit(parameter, argument)` for each parameter of `callee` that `call` passes an
// argument for (a malformed call with too few arguments binds only those it has).
template <class Visit>
void ForEachArgument(const Function& callee, const Instruction& call, Visit visit) {
  auto arguments = FunctionCallView(call).arguments();
  size_t index = 0;
  for (const Instruction& parameter : callee.parameters) {
    if (index >= arguments.size()) return;
    visit(parameter, arguments[index++]);
  }
}

// "needs uniform control flow for: " begins the list of a call-site warning.
inline const std::string kCalleeNeeds = "needs uniform control flow for: ";

// The fixed point for one entry point: a level and a cause for every value, block and
// memory object it reaches. Built fresh per entry point (and per call context); what it
// proved is read through the const queries below, by the reporter and by
// AnalyzeUniformityLevels.
// A solver's facts by id over its caller's: a call context reads the caller's memory
// facts and bindings as they are at the call (the caller waits while its context runs)
// and keeps only what it writes or drops, instead of copying the caller's whole tables
// for every context run. Reads and writes answer as a copy of the caller's table would.
template <class Value>
class LayeredTable {
 public:
  // Reads fall through to `below` for ids this table neither holds nor dropped.
  void Over(const LayeredTable* below) { below_ = below; }
  const Value* Find(uint32_t id) const {
    auto own = own_.find(id);
    if (own != own_.end()) return &own->second;
    if (!below_ || dropped_.count(id)) return nullptr;
    return below_->Find(id);
  }
  // The entry for `id`, made from what reads gave (or a default value) when missing.
  Value& Writable(uint32_t id) {
    auto own = own_.find(id);
    if (own != own_.end()) return own->second;
    const Value* inherited = Find(id);
    return own_.emplace(id, inherited ? Value(*inherited) : Value()).first->second;
  }
  void Drop(uint32_t id) {
    own_.erase(id);
    if (below_) dropped_.insert(id);
  }

 private:
  std::unordered_map<uint32_t, Value> own_;
  std::unordered_set<uint32_t> dropped_;
  const LayeredTable* below_ = nullptr;
};

// What the fixed point has proven so far (levels only rise): each value's fact, and its
// level by id (read for every operand in every round); each block's control with its
// function's call sites and within the function alone; what reaches each followed load
// of a Function variable; what each function returns and whether it may end
// invocations. The solver raises them (UniformitySolver::Raise, RaiseValue); the
// reporter, the lane analysis and tools read them. Reads through the queries below are
// noted in `reads` while the solver runs a block's pass (fact_reads.h).
struct ProvenLevels {
  StableFlatMap<uint32_t, Fact> values;
  std::vector<Divergence> value_levels;              // values' levels, below the bound
  StableFlatMap<const Block*, Fact> blocks;          // with the function's call sites
  StableFlatMap<const Block*, Fact> local_blocks;    // within the function alone
  StableFlatMap<const Instruction*, Fact> local_loads;  // followed Function-variable loads
  StableFlatMap<uint32_t, Fact> returns, kills;      // per function
  const FactReads* reads = nullptr;                  // the solver's

  // A value's level (uniform for ids never raised: constants, types).
  Divergence Value(uint32_t id) const {
    Noted(FactKind::kValue, id);
    return UnnotedValue(id);
  }
  // A value that stays uniform has no entry (most values of a shader): null.
  const Fact* ValueFact(uint32_t id) const {
    Noted(FactKind::kValue, id);
    return values.Find(id);
  }
  const Fact* BlockFact(const Block* block) const {
    Noted(FactKind::kBlock, block->id());
    return blocks.Find(block);
  }
  const Fact* LocalBlockFact(const Block* block) const {
    Noted(FactKind::kLocalBlock, block->id());
    return local_blocks.Find(block);
  }
  const Fact* LocalLoadFact(const Instruction* load) const {
    Noted(FactKind::kLocalLoad, load->result_id);
    return local_loads.Find(load);
  }
  const Fact* ReturnFact(uint32_t function) const {
    Noted(FactKind::kReturn, function);
    return returns.Find(function);
  }
  const Fact* KillFact(uint32_t function) const {
    Noted(FactKind::kKill, function);
    return kills.Find(function);
  }
  // The solver's own read of a value it is about to raise (not a read its pass
  // depends on: a second pass finds it at least as high and raises nothing).
  Divergence UnnotedValue(uint32_t id) const {
    if (id < value_levels.size()) return value_levels[id];
    const Fact* fact = values.Find(id);  // an id past the module's bound (invalid input)
    return fact ? fact->level : Divergence::kUniform;
  }

 private:
  void Noted(FactKind kind, uint32_t id) const {
    if (reads) reads->Note(kind, id);
  }
};

class UniformitySolver {
 public:
  // What "uniform" means: the same value in every invocation of the scope (workgroup for
  // compute-like stages), or in every invocation with the same SubgroupLocalInvocationId
  // (kLanes: lane-determined values, uniformity_lanes.cpp).
  enum class Partition : uint8_t { kScope, kLanes };
  UniformitySolver(ModuleFacts& facts, const Instruction& entry_point,
                   const UniformityOptions& options, Partition partition = Partition::kScope);
  // A call context gives its value levels back to the entry point's contexts.
  ~UniformitySolver();
  UniformitySolver(const UniformitySolver&) = delete;
  UniformitySolver& operator=(const UniformitySolver&) = delete;
  // Runs to the fixed point; returns a refusal or "".
  std::string Run(uint32_t* rounds);
  // A lane analysis of the same entry point (WantsLaneAnalysis), run to its fixed point,
  // that outlives this analysis.
  void UseLanes(const UniformitySolver* lanes) { lanes_ = lanes; }
  // This entry point's call contexts (call_contexts.h): the runs so far (kept results
  // not counted) and the most rounds one needed.
  const CallContexts& contexts() const { return *contexts_; }
  // The blocks' passes Run made (a block passed over in a round is not counted).
  uint64_t block_passes() const { return block_passes_; }

  // --- what the fixed point proved (valid after Run) ---
  const ModuleFacts& facts() const { return facts_; }
  spv::ExecutionModel model() const { return model_; }
  uint32_t entry_function() const { return reached_.root(); }
  const std::string& entry_name() const { return entry_name_; }
  const std::vector<Function*>& functions() const { return reached_.list(); }  // callers first
  // Levels of values, blocks, local loads, returns and kills (ProvenLevels).
  const ProvenLevels& proven() const { return proven_; }
  // A memory object's level, joined over the objects it may alias.
  Fact MemoryFact(uint32_t root) const;
  // The built-ins the entry point's workgroup shares by its size.
  const WorkgroupDimensions& dimensions() const { return *dimensions_; }

 private:
  // --- facts ---
  bool Raise(Fact& fact, Divergence level, const Cause& cause);
  // Raises a fact of the fixed point, keyed for fact_reads.h: stamps it when it rose.
  bool Raise(FactKind kind, uint32_t id, Fact& fact, Divergence level, const Cause& cause) {
    if (!Raise(fact, level, cause)) return false;
    reads_.Rose(kind, id);
    return true;
  }
  // Raises value `id`'s fact. A value that stays uniform gets no entry in values_ (most
  // values of a shader are uniform): ValueFact is null and Value uniform for it, as for
  // a value never raised.
  bool RaiseValue(uint32_t id, Divergence level, const Cause& cause);
  template <class Visit>
  void ForEachAliasedRoot(uint32_t root, const Visit& visit) const;
  void WriteMemory(uint32_t root, Divergence level, const Cause& cause);
  Fact StaticMemoryFact(const Instruction& variable) const;

  // --- transfer ---
  void ProcessFunction(Function& function);
  Fact BlockControl(const Function& function, const Block& block);
  void Transfer(const Function& function, const Block& block, const Instruction& inst,
                Fact* control);
  void TransferCall(const Block& block, const Instruction& inst, Fact* control);
  void TransferPhi(const Function& function, const Block& block, const Instruction& inst);
  bool TransferMemory(const Function& function, const Block& block, const Instruction& inst,
                      const Fact& control);
  void TransferLoad(const Function& function, const Block& block, const Instruction& inst,
                    const Fact& control);
  void TransferStore(const Block& block, const Instruction& inst, const Fact& control);
  bool TransferLocalLoad(const Function& function, const Block& block, const Instruction& inst);
  bool TransferForwardedLoad(const Block& block, const Instruction& inst);
  bool TransferSharedLoad(const Function& function, const Block& block, const Instruction& inst,
                          const Fact& control);
  void RaiseMerge(Fact& fact, const ControlDependence& dependence, const Block* join,
                  const Block* pred);
  bool TransferSource(const Instruction& inst, const Fact& control);
  bool TransferGroupOperation(const Instruction& inst);
  bool LaneBroadcastIsUniform(const Instruction& inst, const Fact& control) const;


  // --- call sites analysed in their own context (uniformity_call_sites.cpp) ---
  // A fresh analysis of `callee` and what it calls, with this call's argument levels and
  // control; reads the caller's memory, bindings, barrier phases and lane analysis.
  UniformitySolver(const UniformitySolver& caller, Function& callee, const Instruction& call,
                   Divergence control);
  std::optional<Fact> ContextResult(Function& callee, const Block& block, const Instruction& call,
                                    const Fact& control);
  bool ContextMayHelp(const Function& callee, const Instruction& call, const Fact& control) const;
  // The control level of a barrier's block: this analysis's own where it covers the
  // block's function, else the caller's (a call context; see TransferSharedLoad).
  Divergence BarrierControl(const Block* block) const;
  void ForgetSubtreeMemory();
  void JoinOperands(const Instruction& inst);
  // Whether some operand of `inst` is above uniform.
  bool OperandsRaised(const Instruction& inst) const;

  ModuleFacts& facts_;
  const UniformityOptions& options_;
  spv::ExecutionModel model_;
  std::string entry_name_;
  ReachedFunctions reached_;  // the entry point's (or call context's) functions
  // Every rise of a fact or a binding so far (the clock of fact_reads.h), every call
  // context run whose result could not be kept (it read the caller's control), and each
  // block's previous pass in Run with what it read (a block is passed over when nothing
  // it read has risen since and it ran no such context: running it again would run
  // that context again).
  uint64_t raises_ = 0;
  FactReads reads_{&raises_};
  uint64_t uncached_context_runs_ = 0;
  uint64_t block_passes_ = 0;
  struct PreviousPass {
    bool done = false;
    uint64_t raises_at_start = 0;
    bool ran_uncached_context = false;
    FactReads::Log reads;
  };
  StableFlatMap<const Block*, PreviousPass> previous_passes_;

  ProvenLevels proven_;  // values, blocks, local loads, returns, kills
  LayeredTable<Fact> memory_;
  LayeredTable<std::set<uint32_t>> bindings_;  // pointer parameter -> roots
  uint64_t bindings_version_ = 0;              // raised with every change of bindings_
  // ForEachAliasedRoot's lists of bound roots, valid for alias_lists_version_.
  mutable std::unordered_map<uint32_t, std::vector<uint32_t>> alias_lists_;
  mutable uint64_t alias_lists_version_ = 0;
  StableFlatMap<const Block*, Fact> killed_out_;  // kills by callees seen at block end
  StableFlatMap<uint32_t, Fact> entries_;         // per function: its calls' control
  Fact running_local_;  // proven_.local_blocks of the block being processed, with callees' kills
  // Blocks run only by one-subgroup workgroups (one_subgroup_regions.h), shared with the
  // entry point's call contexts.
  std::shared_ptr<const OneSubgroupRegions> one_subgroup_;
  // Built-ins the whole workgroup shares by the entry point's workgroup size
  // (workgroup_dimensions.h), shared with the entry point's call contexts.
  std::shared_ptr<const WorkgroupDimensions> dimensions_;
  std::shared_ptr<BarrierPhases>
      phases_;  // only where there are workgroups; shared with call contexts
  Partition partition_ = Partition::kScope;
  const UniformitySolver* lanes_ = nullptr;  // lane-determined levels, where run
  // Call contexts: what one reads from this solver (uniformity_call_sites.cpp), how deep
  // this one is, and the entry point's shared budget and kept results (call_contexts.h).
  CallContexts::Inputs ContextInputsOf(const Function& callee, const Instruction& call,
                                       Divergence control) const;
  int context_depth_ = 0;
  // A call context: the caller's analysis and the call it analyses; whether a barrier's
  // control came from the caller (then its result is not cached: the caller's levels
  // may still rise).
  const UniformitySolver* caller_ = nullptr;
  const Instruction* context_call_ = nullptr;
  mutable bool read_caller_control_ = false;
  std::shared_ptr<CallContexts> contexts_;
};

// The lane partition (uniformity_lanes.cpp): in it only "uniform" and "may differ" exist,
// so a value uniform within a subgroup or quad is divergent there; `level` otherwise.
Divergence LevelIn(UniformitySolver::Partition partition, Divergence level);
// True where a lane analysis could prove more for an entry point of `model` reaching
// `functions`: a stage with workgroups that broadcasts within subgroups.
bool WantsLaneAnalysis(spv::ExecutionModel model, const std::vector<Function*>& functions);

// `root` and every caller variable it stands for through pointer parameters, each once,
// in breadth-first order (MemoryFact names the first of the most divergent). Most roots
// are bound to nothing (a variable, not a parameter): they are their own list. A bound
// root's list is kept until a binding changes: loads of parameters ask in every round.
// (A template, not a std::function: the callers' lambdas would be allocated per call.)
template <class Visit>
void UniformitySolver::ForEachAliasedRoot(uint32_t root, const Visit& visit) const {
  // The list is read from the bindings of each root on it (fact_reads.h).
  if (!bindings_.Find(root)) {
    reads_.Note(FactKind::kBinding, root);
    visit(root);
    return;
  }
  if (alias_lists_version_ != bindings_version_) {
    alias_lists_.clear();
    alias_lists_version_ = bindings_version_;
  }
  auto known = alias_lists_.find(root);
  if (known == alias_lists_.end()) {
    // Lists are short (a root and the few caller variables it stands for): they are
    // searched as they grow, and only a long one gets a hash set.
    constexpr size_t kSearchedInPlace = 32;
    std::vector<uint32_t> roots = {root};
    std::unordered_set<uint32_t> seen;
    auto first_time = [&](uint32_t id) {
      if (roots.size() < kSearchedInPlace)
        return std::find(roots.begin(), roots.end(), id) == roots.end();
      if (seen.empty()) seen.insert(roots.begin(), roots.end());
      return seen.insert(id).second;
    };
    for (size_t i = 0; i < roots.size(); ++i) {
      const std::set<uint32_t>* bound = bindings_.Find(roots[i]);
      if (!bound) continue;
      for (uint32_t caller_root : *bound)
        if (caller_root && first_time(caller_root)) roots.push_back(caller_root);
    }
    known = alias_lists_.emplace(root, std::move(roots)).first;
  }
  for (uint32_t aliased : known->second) {
    reads_.Note(FactKind::kBinding, aliased);
    visit(aliased);
  }
}

}  // namespace glint::spirv::uniformity_detail

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_INTERNAL_H
