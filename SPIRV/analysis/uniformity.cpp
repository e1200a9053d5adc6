#include "uniformity.h"

#include <algorithm>
#include <functional>
#include <list>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "SPIRV/analysis/barrier_phases.h"
#include "SPIRV/analysis/convergence_classes.h"
#include "SPIRV/analysis/value_flow.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/grammar.h"

namespace glint::spirv {
namespace {

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
    kSource,          // `text` names the source
    kOperand,         // value `id`
    kLoad,            // memory object `id`, loaded by `at`
    kStore,           // value `id` stored by `at`
    kStoreControl,    // store `at` in non-uniform block `block`
    kParameter,       // argument `id` of call `at`
    kCallResult,      // function `id` returns a non-uniform value to call `at`
    kReturn,          // value `id` returned by `at`
    kReturnControl,   // return `at` in non-uniform block `block`
    kBranch,          // controlled by the non-uniform branch ending `block`
    kNested,          // controlled by the branch ending `block`, itself non-uniform
    kCallSite,        // function entered by call `at` in non-uniform block `block`
    kKillAfterCall,   // after call `at` of function `id`, which may end invocations
    kKill,            // OpKill / OpTerminateInvocation `at` in non-uniform block `block`
    kMerge,           // phi merging the paths of the branch ending `block`
    kNestedLocal,     // kNested, within the function (call sites left out)
    kStoreControlLocal,  // kStoreControl, within the function (call sites left out)
    kReturnControlLocal,  // kReturnControl, within the function (call sites left out)
    kLocalLoad,       // Function variable `id` loaded by `at`: the stores that reach it
    kSharedControl,   // shared variable `id` loaded by `at` in non-uniform block `block`
    kPhaseBarrier,    // shared variable `id` read after barrier `at` in non-uniform `block`
  };
  Kind kind = kNone;
  uint32_t id = 0;
  const Block* block = nullptr;
  const Instruction* at = nullptr;
  std::string text;
};

struct Fact {
  Divergence level = Divergence::kUniform;
  Cause cause;
};

Cause MakeCause(Cause::Kind kind, uint32_t id = 0, const Block* block = nullptr,
                const Instruction* at = nullptr) {
  Cause cause;
  cause.kind = kind;
  cause.id = id;
  cause.block = block;
  cause.at = at;
  return cause;
}

// Raises a fact that is not part of the fixed point (a copy walked along a block).
void RaiseLocal(Fact& fact, Divergence level, const Cause& cause) {
  if (level <= fact.level) return;
  fact.level = level;
  fact.cause = cause;
}

Cause SourceCause(std::string text) {
  Cause cause;
  cause.kind = Cause::kSource;
  cause.text = std::move(text);
  return cause;
}

// Control dependence of one function: for each block, the blocks ending in a
// multi-way branch it is control dependent on (post-dominator walk per edge).
struct FunctionShape {
  const Cfg* cfg = nullptr;
  std::unordered_map<const Block*, std::vector<const Block*>> controllers;
};

std::vector<uint32_t> DistinctTargets(const Block& block) {
  const Instruction* terminator = block.Terminator();
  if (!terminator) return {};
  std::vector<uint32_t> targets = BranchTargets(*terminator);
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  return targets;
}

std::unique_ptr<FunctionShape> ShapeOf(const Cfg& cfg) {
  auto shape = std::make_unique<FunctionShape>();
  shape->cfg = &cfg;
  for (const Block* branch : cfg.ReversePostOrder()) {
    if (DistinctTargets(*branch).size() < 2) continue;
    const Block* stop = cfg.ImmediatePostDominator(branch);
    for (const Block* runner : cfg.Successors(branch)) {
      // Post-dominator chains are paths in a tree: the walk ends at `stop` or the root.
      while (runner && runner != stop) {
        auto& list = shape->controllers[runner];
        if (std::find(list.begin(), list.end(), branch) == list.end()) list.push_back(branch);
        runner = cfg.ImmediatePostDominator(runner);
      }
    }
  }
  return shape;
}

// Facts about the module every entry point shares: decorations, names, line info,
// operand lists, control dependence and convergence classes.
struct ModuleFacts {
  ModuleFacts(Module& m, const UniformityInputs& inputs)
      : module(m), def_use(inputs.def_use), classes(inputs.classes) {}

  Module& module;
  const DefUse& def_use;
  const ConvergenceClasses& classes;
  std::unordered_map<uint32_t, std::string> names;
  std::unordered_map<uint32_t, std::string> strings;
  std::unordered_map<uint32_t, uint32_t> builtins;  // variable -> BuiltIn
  std::unordered_set<uint32_t> flat, non_writable, buffer_blocks;
  std::unordered_map<uint32_t, uint32_t> non_writable_members;  // struct -> count
  std::unordered_map<const Instruction*, SourceLocation> locations;
  std::unordered_set<const Instruction*> inferred;  // locations taken from a nearby OpLine
  std::unordered_map<const Instruction*, std::vector<uint32_t>> operands;
  std::unordered_map<uint32_t, std::unique_ptr<FunctionShape>> shapes;
  std::unordered_map<uint32_t, const Cfg*> cfgs;
  std::unordered_map<uint32_t, const ValueFlow*> flows;  // locals, per function
};

void IndexDecorations(ModuleFacts& facts) {
  for (const Instruction& inst : facts.module.annotations) {
    if (inst.opcode == spv::OpMemberDecorate && inst.words.size() >= 3 &&
        inst.words[2] == spv::DecorationNonWritable)
      ++facts.non_writable_members[inst.words[0]];
    if (inst.opcode != spv::OpDecorate || inst.words.size() < 2) continue;
    uint32_t target = inst.words[0];
    switch (inst.words[1]) {
      case spv::DecorationBuiltIn:
        if (inst.words.size() >= 3) facts.builtins[target] = inst.words[2];
        break;
      case spv::DecorationFlat: facts.flat.insert(target); break;
      case spv::DecorationNonWritable: facts.non_writable.insert(target); break;
      case spv::DecorationBufferBlock: facts.buffer_blocks.insert(target); break;
      default: break;
    }
  }
}

// Locations from OpLine. glslang emits OpLine only when the line changes, so a block
// without one of its own (often the header of an `if` that follows an `if`) gets the
// next line that appears in the function, marked as inferred ("near").
void IndexFunctionLines(ModuleFacts& facts, Function& function) {
  SourceLocation previous;
  std::vector<const Instruction*> pending;
  for (Block& block : function.blocks) {
    SourceLocation current;  // OpLine applies until OpNoLine or the end of the block
    for (Instruction& inst : block.instructions) {
      if (inst.opcode == spv::OpLine && inst.words.size() >= 3) {
        auto file = facts.strings.find(inst.words[0]);
        current = {file == facts.strings.end() ? "" : file->second, inst.words[1], inst.words[2]};
        previous = current;
        for (const Instruction* waiting : pending) facts.locations[waiting] = current;
        facts.inferred.insert(pending.begin(), pending.end());
        pending.clear();
      } else if (inst.opcode == spv::OpNoLine) {
        current = {};
      }
      if (current.line)
        facts.locations[&inst] = current;
      else
        pending.push_back(&inst);
    }
  }
  if (!previous.line) return;
  for (const Instruction* waiting : pending) facts.locations[waiting] = previous;
  facts.inferred.insert(pending.begin(), pending.end());
}

void IndexNamesAndLines(ModuleFacts& facts) {
  for (const Instruction& inst : facts.module.debug_names)
    if (inst.opcode == spv::OpName && inst.words.size() >= 2) facts.names[inst.words[0]] = inst.StringAt(1);
  for (const Instruction& inst : facts.module.debug_strings)
    if (inst.opcode == spv::OpString) facts.strings[inst.result_id] = inst.StringAt(0);
  for (Function& function : facts.module.functions) IndexFunctionLines(facts, function);
  for (Function& function : facts.module.functions)
    for (Block& block : function.blocks)
      for (const Instruction& inst : block.instructions) {
        std::vector<uint32_t>& ids = facts.operands[&inst];
        uint32_t width = 1;
        if (inst.opcode == spv::OpSwitch && !inst.words.empty())
          if (const Instruction* selector_type = facts.def_use.TypeOf(inst.words[0]))
            width = facts.module.LiteralWidthOfType(selector_type->result_id);
        inst.ForEachIdOperand([&](uint32_t id) { ids.push_back(id); }, width);
        if (inst.type_id && !ids.empty()) ids.erase(ids.begin());  // the result type
      }
}

std::unique_ptr<ModuleFacts> CollectModuleFacts(Module& module, const UniformityInputs& inputs) {
  auto facts = std::make_unique<ModuleFacts>(module, inputs);
  IndexDecorations(*facts);
  IndexNamesAndLines(*facts);
  for (Function& function : module.functions) {
    const Cfg& cfg = inputs.cfgs(function);
    facts->shapes[function.id()] = ShapeOf(cfg);
    facts->cfgs[function.id()] = &cfg;
    facts->flows[function.id()] = &inputs.value_flows(function);
  }
  return facts;
}

bool IsAtomic(spv::Op op) {
  return (op >= spv::OpAtomicLoad && op <= spv::OpAtomicXor) || op == spv::OpAtomicFlagTestAndSet ||
         op == spv::OpAtomicFlagClear || op == spv::OpAtomicFMinEXT || op == spv::OpAtomicFMaxEXT ||
         op == spv::OpAtomicFAddEXT;
}

// GroupOperation Reduce gives every invocation the same result; scans and clustered or
// partitioned reductions differ per invocation.
bool IsReduce(const Instruction& inst) { return inst.words.size() > 1 && inst.words[1] == spv::GroupOperationReduce; }

// Results whose level is fixed by the opcode alone: per invocation (shuffles, Elect,
// helper and clock queries), per quad, or per subgroup (votes, ballots, broadcasts).
std::optional<Divergence> FixedResultLevel(spv::Op opcode) {
  switch (opcode) {
    case spv::OpGroupNonUniformElect: case spv::OpGroupNonUniformShuffle: case spv::OpGroupNonUniformShuffleXor:
    case spv::OpGroupNonUniformShuffleUp: case spv::OpGroupNonUniformShuffleDown:
    case spv::OpGroupNonUniformQuadSwap: case spv::OpGroupNonUniformPartitionNV:
    case spv::OpGroupNonUniformRotateKHR: case spv::OpGroupNonUniformInverseBallot:
    case spv::OpSubgroupShuffleINTEL: case spv::OpSubgroupShuffleDownINTEL: case spv::OpSubgroupShuffleUpINTEL:
    case spv::OpSubgroupShuffleXorINTEL: case spv::OpIsHelperInvocationEXT: case spv::OpReadClockKHR:
      return Divergence::kDivergent;
    case spv::OpGroupNonUniformQuadBroadcast:
      return Divergence::kQuadUniform;
    case spv::OpGroupNonUniformAll: case spv::OpGroupNonUniformAny: case spv::OpGroupNonUniformAllEqual:
    case spv::OpGroupNonUniformBroadcast: case spv::OpGroupNonUniformBroadcastFirst:
    case spv::OpGroupNonUniformBallot: case spv::OpSubgroupBallotKHR: case spv::OpSubgroupFirstInvocationKHR:
    case spv::OpSubgroupAllKHR: case spv::OpSubgroupAnyKHR: case spv::OpSubgroupAllEqualKHR:
    case spv::OpSubgroupReadInvocationKHR:
      return Divergence::kSubgroupUniform;
    default:
      return std::nullopt;
  }
}

bool IsDerivative(spv::Op op) { return op >= spv::OpDPdx && op <= spv::OpFwidthCoarse; }

// "needs uniform control flow for: " begins the list of a call-site warning.
const std::string kCalleeNeeds = "needs uniform control flow for: ";

// Entry-point level analysis state. Built fresh per entry point.
class EntryPointAnalysis {
 public:
  EntryPointAnalysis(ModuleFacts& facts, const Instruction& entry_point, const UniformityOptions& options);
  // Runs to the fixed point; returns a refusal or "".
  std::string Run(uint32_t* rounds);
  void CollectFindings(std::vector<UniformityFinding>* findings,
                       std::unordered_set<const Instruction*>* reported);

 private:
  // --- facts ---
  bool Raise(Fact& fact, Divergence level, const Cause& cause);
  Divergence Value(uint32_t id) const;
  const Fact* ValueFact(uint32_t id) const;
  uint32_t RootOf(uint32_t pointer, int depth = 0) const;
  std::vector<uint32_t> AliasedRoots(uint32_t root) const;
  Fact MemoryFact(uint32_t root) const;
  void WriteMemory(uint32_t root, Divergence level, const Cause& cause);
  Fact StaticMemoryFact(const Instruction& variable) const;
  Fact BuiltInFact(uint32_t builtin) const;
  Fact InputFact(const Instruction& variable) const;
  bool IsNonWritable(uint32_t variable) const;
  uint32_t ConditionOf(const Block* block) const;

  // --- transfer ---
  void ProcessFunction(Function& function);
  Fact BlockControl(const Function& function, const Block& block);
  void Transfer(const Function& function, const Block& block, const Instruction& inst, Fact* control);
  void TransferCall(const Block& block, const Instruction& inst, Fact* control);
  std::optional<Fact> ResultAtCallSite(const Function& callee, const Block& block, const Instruction& call) const;
  std::optional<Fact> HelperLoad(const Instruction& load, const std::unordered_map<uint32_t, uint32_t>& pointer_args,
                                 const Block& block, const Instruction& call) const;
  void TransferPhi(const Function& function, const Block& block, const Instruction& inst);
  bool TransferMemory(const Function& function, const Block& block, const Instruction& inst,
                      const Fact& control);
  bool TransferLocalLoad(const Function& function, const Block& block, const Instruction& inst);
  bool TransferSharedLoad(const Function& function, const Block& block, const Instruction& inst,
                          const Fact& control);
  void RaiseMerge(Fact& fact, const FunctionShape& shape, const Block* join, const Block* pred);
  bool TransferSource(const Instruction& inst);
  void JoinOperands(const Instruction& inst);

  // --- reporting ---
  std::string Where(const Instruction* inst) const;
  std::string ExitNote(const Block* branch) const;
  std::string NameOf(uint32_t id) const;
  ReasonLines Explain(const Fact& control) const;
  SourceLocation LocationOf(const Instruction* inst) const;
  bool ExplainControl(const Cause& cause, ReasonLines* lines) const;
  const Cause* NextControlCause(const Cause& cause) const;
  const Cause* ExplainData(const Cause& cause, ReasonLines* lines, std::list<Fact>* memory_facts) const;
  const Cause* CauseOfValue(uint32_t id) const;
  const Cause* CauseOfBlock(const Block* block) const;
  UniformityFinding MakeFinding(const Instruction& inst, const Fact& control, UniformScope scope) const;
  bool DerivativesApply() const;

  // A uniform-control instruction that is fine within its function, so its function's
  // call sites must be uniform enough: reported once at the call site that is not.
  struct Need {
    const Instruction* inst;
    Divergence allowed;
    std::string what;  // "barrier (OpControlBarrier, workgroup scope) at x.comp:5"
    const char* rule;  // the rule of a finding about the instruction itself
  };
  std::vector<Function*> CalleesFirst() const;
  void CollectInFunction(const Function& function, std::vector<UniformityFinding>* findings,
                         std::unordered_set<const Instruction*>* reported);
  void CheckCall(const Function& caller, const Instruction& call, const Fact& control,
                 std::vector<UniformityFinding>* findings, std::unordered_set<const Instruction*>* reported);
  std::optional<Divergence> Allowed(const Instruction& inst, UniformScope* scope) const;
  ReasonLines ExplainAlternatives(const Instruction& inst, const Fact& control, Divergence allowed) const;

  ModuleFacts& facts_;
  const UniformityOptions& options_;
  spv::ExecutionModel model_;
  uint32_t entry_function_;
  std::string entry_name_;
  std::vector<Function*> functions_;  // reachable, callers first
  bool changed_ = false;

  std::unordered_map<uint32_t, Fact> values_;
  std::unordered_map<uint32_t, Fact> memory_;
  std::unordered_map<uint32_t, std::set<uint32_t>> bindings_;  // pointer parameter -> roots
  std::unordered_map<const Block*, Fact> blocks_;
  std::unordered_map<const Block*, Fact> killed_out_;  // kills by callees seen at block end
  std::unordered_map<uint32_t, Fact> entries_, returns_, kills_;  // per function
  std::unordered_map<const Block*, Fact> local_blocks_;  // blocks_ without call sites
  std::unordered_map<const Instruction*, Fact> local_loads_;    // Function-variable loads
  std::unordered_map<const Instruction*, Fact> store_control_;  // local control at each store
  Fact running_local_;  // local_blocks_ of the block being processed, with callees' kills
  std::unique_ptr<BarrierPhases> phases_;  // only where there are workgroups
  std::unordered_map<uint32_t, std::vector<Need>> needs_;  // per function
};

bool HasWorkgroups(spv::ExecutionModel model) {
  return model == spv::ExecutionModelGLCompute || model == spv::ExecutionModelKernel ||
         model == spv::ExecutionModelTaskNV || model == spv::ExecutionModelMeshNV ||
         model == spv::ExecutionModelTaskEXT || model == spv::ExecutionModelMeshEXT;
}

EntryPointAnalysis::EntryPointAnalysis(ModuleFacts& facts, const Instruction& entry_point,
                                       const UniformityOptions& options)
    : facts_(facts), options_(options) {
  EntryPointView view = ViewEntryPoint(entry_point);
  model_ = view.model;
  entry_function_ = view.function;
  entry_name_ = view.name;
  // Reachable functions, callers first (depth-first preorder, each once).
  std::vector<uint32_t> stack = {entry_function_};
  std::unordered_set<uint32_t> seen = {entry_function_};
  while (!stack.empty()) {
    Function* function = facts_.module.FindFunction(stack.back());
    stack.pop_back();
    if (!function) continue;
    functions_.push_back(function);
    for (Block& block : function->blocks)
      for (Instruction& inst : block.instructions)
        if (inst.opcode == spv::OpFunctionCall && !inst.words.empty() && seen.insert(inst.words[0]).second)
          stack.push_back(inst.words[0]);
  }
  for (const Instruction& inst : facts_.module.types_values)
    if (inst.opcode == spv::OpVariable) {
      Fact initial = StaticMemoryFact(inst);
      Raise(memory_[inst.result_id], initial.level, initial.cause);
    }
  if (HasWorkgroups(model_)) phases_ = std::make_unique<BarrierPhases>(facts_.def_use, functions_, facts_.cfgs);
}

bool EntryPointAnalysis::Raise(Fact& fact, Divergence level, const Cause& cause) {
  if (level <= fact.level) return false;
  fact.level = level;
  fact.cause = cause;
  changed_ = true;
  return true;
}

const Fact* EntryPointAnalysis::ValueFact(uint32_t id) const {
  auto it = values_.find(id);
  return it == values_.end() ? nullptr : &it->second;
}

Divergence EntryPointAnalysis::Value(uint32_t id) const {
  const Fact* fact = ValueFact(id);
  return fact ? fact->level : Divergence::kUniform;
}

std::string EntryPointAnalysis::NameOf(uint32_t id) const {
  auto it = facts_.names.find(id);
  if (it != facts_.names.end() && !it->second.empty()) return "`" + it->second + "`";
  return "%" + std::to_string(id);
}

// The variable (or pointer parameter) a pointer points into; 0 when Glint does not
// follow the pointer (loaded pointers, physical addresses, selects of pointers).
uint32_t EntryPointAnalysis::RootOf(uint32_t pointer, int depth) const {
  const Instruction* def = facts_.def_use.Definition(pointer);
  if (!def || depth > 64) return 0;
  switch (def->opcode) {
    case spv::OpVariable:
    case spv::OpFunctionParameter:
      return def->result_id;
    case spv::OpAccessChain:
    case spv::OpInBoundsAccessChain:
    case spv::OpPtrAccessChain:
    case spv::OpInBoundsPtrAccessChain:
    case spv::OpCopyObject:
      return def->words.empty() ? 0 : RootOf(def->words[0], depth + 1);
    default:
      return 0;
  }
}

// `root` and every caller variable it stands for through pointer parameters, each once.
std::vector<uint32_t> EntryPointAnalysis::AliasedRoots(uint32_t root) const {
  std::vector<uint32_t> roots = {root};
  std::unordered_set<uint32_t> seen = {root};
  for (size_t i = 0; i < roots.size(); ++i) {
    auto bound = bindings_.find(roots[i]);
    if (bound == bindings_.end()) continue;
    for (uint32_t caller_root : bound->second)
      if (caller_root && seen.insert(caller_root).second) roots.push_back(caller_root);
  }
  return roots;
}

Fact EntryPointAnalysis::MemoryFact(uint32_t root) const {
  if (root == 0) {
    Fact unknown;
    unknown.level = Divergence::kDivergent;
    unknown.cause = SourceCause("memory reached through a pointer the analysis does not follow");
    return unknown;
  }
  Fact joined;
  for (uint32_t aliased : AliasedRoots(root)) {
    auto fact = memory_.find(aliased);
    if (fact == memory_.end() || fact->second.level <= joined.level) continue;
    joined.level = fact->second.level;
    joined.cause = aliased == root ? fact->second.cause : MakeCause(Cause::kLoad, aliased);
  }
  return joined;
}

void EntryPointAnalysis::WriteMemory(uint32_t root, Divergence level, const Cause& cause) {
  if (root == 0) return;  // unknown memory is already divergent when read
  for (uint32_t aliased : AliasedRoots(root)) Raise(memory_[aliased], level, cause);
}

bool EntryPointAnalysis::IsNonWritable(uint32_t variable) const {
  if (facts_.non_writable.count(variable)) return true;
  const Instruction* pointer_type = facts_.def_use.TypeOf(variable);
  if (!pointer_type || pointer_type->words.size() < 2) return false;
  const Instruction* pointee = facts_.def_use.Definition(pointer_type->words[1]);
  // Arrays of buffers (descriptor arrays): look at the element struct.
  while (pointee && (pointee->opcode == spv::OpTypeArray || pointee->opcode == spv::OpTypeRuntimeArray))
    pointee = facts_.def_use.Definition(pointee->words[0]);
  if (!pointee || pointee->opcode != spv::OpTypeStruct) return false;
  auto members = facts_.non_writable_members.find(pointee->result_id);
  return members != facts_.non_writable_members.end() && members->second >= pointee->words.size();
}

Fact StaticFact(Divergence level, std::string text) {
  Fact fact;
  fact.level = level;
  if (level != Divergence::kUniform) fact.cause = SourceCause(std::move(text));
  return fact;
}

Fact EntryPointAnalysis::BuiltInFact(uint32_t builtin) const {
  const char* name = grammar::EnumerantName(grammar::OperandKind::kBuiltIn, builtin);
  std::string what = std::string("built-in ") + (name ? name : "?");
  switch (builtin) {
    case spv::BuiltInWorkgroupId: case spv::BuiltInNumWorkgroups: case spv::BuiltInWorkgroupSize:
    case spv::BuiltInSubgroupSize: case spv::BuiltInNumSubgroups: case spv::BuiltInDrawIndex:
    case spv::BuiltInBaseVertex: case spv::BuiltInBaseInstance: case spv::BuiltInDeviceIndex:
    case spv::BuiltInViewIndex:
      return {};
    case spv::BuiltInSubgroupId:
      return StaticFact(Divergence::kSubgroupUniform, what + " differs between subgroups");
    case spv::BuiltInPrimitiveId: case spv::BuiltInPatchVertices:
      // One patch is one tessellation-control workgroup; in fragment shaders a quad
      // never spans two primitives.
      if (model_ == spv::ExecutionModelTessellationControl) return {};
      [[fallthrough]];
    case spv::BuiltInFrontFacing: case spv::BuiltInLayer: case spv::BuiltInViewportIndex:
      if (model_ == spv::ExecutionModelFragment)
        return StaticFact(Divergence::kQuadUniform, what + " differs between primitives");
      return StaticFact(Divergence::kDivergent, what + " differs between invocations");
    default:
      return StaticFact(Divergence::kDivergent, what + " differs between invocations");
  }
}

Fact EntryPointAnalysis::InputFact(const Instruction& variable) const {
  uint32_t id = variable.result_id;
  auto builtin = facts_.builtins.find(id);
  if (builtin != facts_.builtins.end()) return BuiltInFact(builtin->second);
  if (model_ != spv::ExecutionModelFragment)
    return StaticFact(Divergence::kDivergent, "input " + NameOf(id) + " differs between invocations");
  if (facts_.flat.count(id))
    return StaticFact(Divergence::kQuadUniform, "flat fragment input " + NameOf(id) + " differs between primitives");
  return StaticFact(Divergence::kDivergent, "fragment input " + NameOf(id) + " is interpolated (not flat)");
}

// What a module-scope variable holds before any store of this entry point.
Fact EntryPointAnalysis::StaticMemoryFact(const Instruction& variable) const {
  uint32_t id = variable.result_id;
  uint32_t storage = variable.words.empty() ? 0 : variable.words[0];
  const Instruction* pointer_type = facts_.def_use.TypeOf(id);
  bool buffer_block = false;
  if (pointer_type && pointer_type->words.size() >= 2) {
    const Instruction* pointee = facts_.def_use.Definition(pointer_type->words[1]);
    while (pointee && (pointee->opcode == spv::OpTypeArray || pointee->opcode == spv::OpTypeRuntimeArray))
      pointee = facts_.def_use.Definition(pointee->words[0]);
    buffer_block = pointee && facts_.buffer_blocks.count(pointee->result_id);
  }
  switch (storage) {
    case spv::StorageClassInput:
      return InputFact(variable);
    case spv::StorageClassUniform:
      if (!buffer_block) return {};
      [[fallthrough]];
    case spv::StorageClassStorageBuffer:
      if (IsNonWritable(id)) return {};
      return StaticFact(Divergence::kDivergent, "storage buffer " + NameOf(id) + " may be written by other invocations");
    case spv::StorageClassUniformConstant: case spv::StorageClassPushConstant:
    case spv::StorageClassPrivate: case spv::StorageClassFunction:
      return {};
    case spv::StorageClassTaskPayloadWorkgroupEXT:
      if (model_ == spv::ExecutionModelMeshEXT) return {};
      [[fallthrough]];
    case spv::StorageClassWorkgroup:
      return StaticFact(Divergence::kDivergent, "shared variable " + NameOf(id) + " is written by other invocations");
    case spv::StorageClassOutput:
      return StaticFact(Divergence::kDivergent, "output " + NameOf(id) + " is written per invocation");
    default:
      return StaticFact(Divergence::kDivergent, "variable " + NameOf(id) + " (storage class " +
                                                     std::to_string(storage) + ") is per invocation");
  }
}

uint32_t EntryPointAnalysis::ConditionOf(const Block* block) const {
  const Instruction* terminator = block->Terminator();
  if (!terminator || terminator->words.empty()) return 0;
  if (terminator->opcode == spv::OpBranchConditional || terminator->opcode == spv::OpSwitch)
    return terminator->words[0];
  return 0;
}

std::string EntryPointAnalysis::Run(uint32_t* rounds) {
  for (uint32_t round = 1; round <= options_.round_budget; ++round) {
    changed_ = false;
    for (Function* function : functions_) ProcessFunction(*function);
    *rounds = std::max(*rounds, round);
    if (!changed_) return "";
  }
  return "uniformity analysis of entry point `" + entry_name_ + "` found no fixed point within its round budget (" +
         std::to_string(options_.round_budget) + " rounds)";
}

void EntryPointAnalysis::ProcessFunction(Function& function) {
  const FunctionShape& shape = *facts_.shapes.at(function.id());
  for (const Block* block : shape.cfg->ReversePostOrder()) {
    Fact control = BlockControl(function, *block);
    running_local_ = local_blocks_[block];
    for (const Instruction& inst : block->instructions) Transfer(function, *block, inst, &control);
  }
}

// The control level of a block: its function's call sites, the branches it depends
// on (their conditions and their own control), and callees' kills before it.
Fact EntryPointAnalysis::BlockControl(const Function& function, const Block& block) {
  Fact& fact = blocks_[&block];
  const Fact& entry = entries_[function.id()];
  Raise(fact, entry.level, entry.cause);
  Fact& local = local_blocks_[&block];
  const FunctionShape& shape = *facts_.shapes.at(function.id());
  auto controllers = shape.controllers.find(&block);
  if (controllers != shape.controllers.end())
    for (const Block* branch : controllers->second) {
      Raise(fact, Value(ConditionOf(branch)), MakeCause(Cause::kBranch, 0, branch));
      Raise(fact, blocks_[branch].level, MakeCause(Cause::kNested, 0, branch));
      Raise(local, Value(ConditionOf(branch)), MakeCause(Cause::kBranch, 0, branch));
      Raise(local, local_blocks_[branch].level, MakeCause(Cause::kNestedLocal, 0, branch));
    }
  // Kills by callees on the way here (not by calls later in this block).
  for (const Block* pred : shape.cfg->Predecessors(&block)) {
    Fact killed = killed_out_[pred];
    Raise(fact, killed.level, killed.cause);
    Raise(local, killed.level, killed.cause);
    Raise(killed_out_[&block], killed.level, killed.cause);
  }
  return fact;
}

void EntryPointAnalysis::Transfer(const Function& function, const Block& block, const Instruction& inst,
                                  Fact* control) {
  switch (inst.opcode) {
    case spv::OpFunctionCall:
      TransferCall(block, inst, control);
      return;
    case spv::OpPhi:
      TransferPhi(function, block, inst);
      return;
    case spv::OpReturnValue:
      if (!inst.words.empty())
        Raise(returns_[function.id()], Value(inst.words[0]), MakeCause(Cause::kReturn, inst.words[0], &block, &inst));
      // Within the function: the invocations of one call see the same returns.
      Raise(returns_[function.id()], running_local_.level, MakeCause(Cause::kReturnControlLocal, 0, &block, &inst));
      return;
    case spv::OpKill:
    case spv::OpTerminateInvocation:
      Raise(kills_[function.id()], control->level, MakeCause(Cause::kKill, 0, &block, &inst));
      return;
    default:
      break;
  }
  if (TransferMemory(function, block, inst, *control)) return;
  if (TransferSource(inst)) return;
  if (inst.result_id) JoinOperands(inst);
}

void EntryPointAnalysis::JoinOperands(const Instruction& inst) {
  Fact& fact = values_[inst.result_id];
  for (uint32_t id : facts_.operands.at(&inst)) Raise(fact, Value(id), MakeCause(Cause::kOperand, id));
}

void EntryPointAnalysis::TransferCall(const Block& block, const Instruction& inst, Fact* control) {
  if (inst.words.empty()) return;
  uint32_t callee_id = inst.words[0];
  Function* callee = facts_.module.FindFunction(callee_id);
  if (!callee) return;
  Raise(entries_[callee_id], control->level, MakeCause(Cause::kCallSite, 0, &block, &inst));
  size_t index = 1;
  for (const Instruction& parameter : callee->parameters) {
    if (index >= inst.words.size()) break;
    uint32_t argument = inst.words[index++];
    Raise(values_[parameter.result_id], Value(argument), MakeCause(Cause::kParameter, argument, &block, &inst));
    const Instruction* type = facts_.def_use.Definition(parameter.type_id);
    if (type && type->opcode == spv::OpTypePointer && bindings_[parameter.result_id].insert(RootOf(argument)).second)
      changed_ = true;
  }
  if (inst.result_id) {
    std::optional<Fact> own = ResultAtCallSite(*callee, block, inst);
    const Fact& returned = returns_[callee_id];
    if (own)
      Raise(values_[inst.result_id], own->level, own->cause);
    else
      Raise(values_[inst.result_id], returned.level, MakeCause(Cause::kCallResult, callee_id, &block, &inst));
  }
  const Fact& kill = kills_[callee_id];
  Cause after = MakeCause(Cause::kKillAfterCall, callee_id, &block, &inst);
  RaiseLocal(*control, kill.level, after);
  RaiseLocal(running_local_, kill.level, after);
  Raise(killed_out_[&block], kill.level, after);
}

// The result of a call of a small helper, from this call's own arguments rather than
// the join of every call site's (parameters are context-insensitive otherwise): for a
// callee of one block that returns a value, with no variables, stores, calls or
// instructions whose level does not follow from their operands, and that loads only
// through its pointer parameters or from memory outside it. nullopt for other callees.
std::optional<Fact> EntryPointAnalysis::ResultAtCallSite(const Function& callee, const Block& block,
                                                         const Instruction& call) const {
  if (callee.blocks.size() != 1) return std::nullopt;
  const Block& body = callee.blocks.front();
  std::unordered_map<uint32_t, Fact> local;
  std::unordered_map<uint32_t, uint32_t> pointer_args;  // pointer parameter -> argument
  size_t index = 1;
  for (const Instruction& parameter : callee.parameters) {
    if (index >= call.words.size()) return std::nullopt;
    uint32_t argument = call.words[index++];
    const Instruction* type = facts_.def_use.Definition(parameter.type_id);
    if (type && type->opcode == spv::OpTypePointer) pointer_args[parameter.result_id] = argument;
    else local[parameter.result_id] = {Value(argument), MakeCause(Cause::kParameter, argument, &block, &call)};
  }
  auto level_of = [&](uint32_t id) {
    auto found = local.find(id);
    return found != local.end() ? found->second : Fact{Value(id), MakeCause(Cause::kOperand, id)};
  };
  for (const Instruction& inst : body.instructions) {
    if (inst.opcode == spv::OpLine || inst.opcode == spv::OpNoLine) continue;
    if (inst.opcode == spv::OpReturnValue) return level_of(inst.words.at(0));
    bool foreign_ext = inst.opcode == spv::OpExtInst && inst.words.at(0) != facts_.module.GlslStd450Import();
    bool source = FixedResultLevel(inst.opcode) || IsAtomic(inst.opcode) || inst.opcode == spv::OpImageRead ||
                  inst.opcode == spv::OpImageSparseRead || foreign_ext;
    std::optional<OpcodeConvergence> row = ClassifyOpcode(inst.opcode);
    if (!inst.result_id || source || !row || row->flags != kNotConvergent || inst.opcode == spv::OpVariable ||
        inst.opcode == spv::OpFunctionCall || inst.opcode == spv::OpPhi)
      return std::nullopt;
    if (inst.opcode == spv::OpLoad) {
      std::optional<Fact> loaded = HelperLoad(inst, pointer_args, block, call);
      if (!loaded) return std::nullopt;
      local[inst.result_id] = *loaded;
      continue;
    }
    Fact joined;
    for (uint32_t id : facts_.operands.at(&inst)) {
      Fact operand = level_of(id);
      RaiseLocal(joined, operand.level, operand.cause);
    }
    local[inst.result_id] = joined;
  }
  return std::nullopt;
}

// A helper's load: through a pointer parameter, the caller's memory at this call; from
// a pointer defined outside the helper, the load's own level (it does not depend on
// the helper's parameters). nullopt for pointers computed inside the helper.
std::optional<Fact> EntryPointAnalysis::HelperLoad(const Instruction& load,
                                                   const std::unordered_map<uint32_t, uint32_t>& pointer_args,
                                                   const Block& block, const Instruction& call) const {
  uint32_t pointer = load.words.at(0);
  auto argument = pointer_args.find(pointer);
  if (argument != pointer_args.end()) {
    uint32_t root = RootOf(argument->second);
    Fact memory = MemoryFact(root);
    return Fact{memory.level, root ? MakeCause(Cause::kLoad, root, &block, &call) : memory.cause};
  }
  if (facts_.def_use.FunctionOf(facts_.def_use.Definition(pointer))) return std::nullopt;
  const Fact* fact = ValueFact(load.result_id);
  return fact ? *fact : Fact{};
}

// A phi is as divergent as its values, and as the branches that choose between its
// incoming edges but do not also control the phi's own block.
void EntryPointAnalysis::TransferPhi(const Function& function, const Block& block, const Instruction& inst) {
  Fact& fact = values_[inst.result_id];
  const FunctionShape& shape = *facts_.shapes.at(function.id());
  for (size_t i = 0; i + 1 < inst.words.size(); i += 2) {
    Raise(fact, Value(inst.words[i]), MakeCause(Cause::kOperand, inst.words[i]));
    if (const Block* pred = shape.cfg->BlockById(inst.words[i + 1])) RaiseMerge(fact, shape, &block, pred);
  }
}

// Raises `fact` by the conditions of the branches that choose whether the edge from
// `pred` into `join` is taken but do not also control `join` itself.
void EntryPointAnalysis::RaiseMerge(Fact& fact, const FunctionShape& shape, const Block* join, const Block* pred) {
  auto own = shape.controllers.find(join);
  auto controls_join = [&](const Block* branch) {
    return own != shape.controllers.end() &&
           std::find(own->second.begin(), own->second.end(), branch) != own->second.end();
  };
  std::vector<const Block*> choosers;
  auto controllers = shape.controllers.find(pred);
  if (controllers != shape.controllers.end()) choosers = controllers->second;
  if (ConditionOf(pred)) choosers.push_back(pred);
  for (const Block* branch : choosers)
    if (!controls_join(branch)) Raise(fact, Value(ConditionOf(branch)), MakeCause(Cause::kMerge, 0, branch));
}

// A load of a Function variable the value-flow view follows: as non-uniform as the
// stores (or initializer) that reach it, the control flow of those stores, and the
// branches that choose between them at the phis on the way (flow-sensitive: stores that
// cannot reach this load do not count). False for other loads.
bool EntryPointAnalysis::TransferLocalLoad(const Function& function, const Block& block, const Instruction& inst) {
  const ValueFlow& flow = *facts_.flows.at(function.id());
  if (flow.Reaching(&inst) == ValueFlow::kNoNode) return false;
  Fact& local = local_loads_[&inst];
  std::vector<uint32_t> phis;
  for (uint32_t id : flow.Definitions(&inst, &phis)) {
    const ValueFlowNode& node = flow.Node(id);
    if (node.kind == ValueFlowNode::Kind::kStore) {
      Raise(local, Value(node.value), MakeCause(Cause::kStore, node.value, node.block, node.store));
      const Fact& control = store_control_[node.store];
      Raise(local, control.level, control.cause);
    } else if (node.kind == ValueFlowNode::Kind::kInitializer) {
      Raise(local, Value(node.value),
            MakeCause(Cause::kStore, node.value, node.block, facts_.def_use.Definition(node.variable)));
    }
  }
  const FunctionShape& shape = *facts_.shapes.at(function.id());
  for (uint32_t id : phis) {
    const ValueFlowNode& phi = flow.Node(id);
    const std::vector<Block*>& preds = shape.cfg->Predecessors(phi.block);
    for (size_t i = 0; i < preds.size() && i < phi.incoming.size(); ++i)
      if (phi.incoming[i] != ValueFlow::kNoNode) RaiseMerge(local, shape, phi.block, preds[i]);
  }
  uint32_t variable = 0;
  flow.LoadTarget(&inst, &variable, nullptr);
  Raise(values_[inst.result_id], local.level, MakeCause(Cause::kLocalLoad, variable, &block, &inst));
  return true;
}

// A load of a Workgroup variable is workgroup-uniform when it runs in uniform control
// flow at a uniform address after a barrier in uniform control flow, with no write that
// may alias it in the barrier's phase (barrier_phases.h); otherwise the reason says which
// condition failed. False for loads of other memory.
bool EntryPointAnalysis::TransferSharedLoad(const Function& function, const Block& block, const Instruction& inst,
                                            const Fact& control) {
  uint32_t root = phases_ ? phases_->WorkgroupRoot(inst.words[0]) : 0;
  if (!root) return false;
  Fact& fact = values_[inst.result_id];
  if (control.level != Divergence::kUniform) {
    Raise(fact, Divergence::kDivergent, MakeCause(Cause::kSharedControl, root, &block, &inst));
    return true;
  }
  BarrierPhases::Verdict verdict = phases_->Check(function, block, inst);
  std::string name = "shared variable " + NameOf(root);
  if (!verdict.barrier) {
    Raise(fact, Divergence::kDivergent,
          SourceCause(name + " is written by other invocations and no workgroup barrier comes before its load " +
                      Where(&inst)));
    return true;
  }
  const Block* barrier_block = facts_.def_use.BlockOf(verdict.barrier);
  if (barrier_block && blocks_[barrier_block].level != Divergence::kUniform) {
    Raise(fact, Divergence::kDivergent, MakeCause(Cause::kPhaseBarrier, root, barrier_block, verdict.barrier));
    return true;
  }
  if (verdict.write)
    Raise(fact, Divergence::kDivergent,
          SourceCause(name + " may be written after the barrier " + Where(verdict.barrier) + " (by the " +
                      grammar::OpcodeName(verdict.write->opcode) + " " + Where(verdict.write) + ")"));
  return true;
}

// Loads, stores and variables; true when `inst` was one of them.
bool EntryPointAnalysis::TransferMemory(const Function& function, const Block& block, const Instruction& inst,
                                        const Fact& control) {
  switch (inst.opcode) {
    case spv::OpLoad: {
      Fact& fact = values_[inst.result_id];
      uint32_t pointer = inst.words[0];
      Raise(fact, Value(pointer), MakeCause(Cause::kOperand, pointer));
      if (TransferLocalLoad(function, block, inst) || TransferSharedLoad(function, block, inst, control))
        return true;
      uint32_t root = RootOf(pointer);
      Fact memory = MemoryFact(root);
      Raise(fact, memory.level, root ? MakeCause(Cause::kLoad, root, &block, &inst) : memory.cause);
      return true;
    }
    case spv::OpStore: {
      // For followed locals the control within the function is what matters: the
      // invocations that run this call of the function all see the same stores.
      Raise(store_control_[&inst], running_local_.level, MakeCause(Cause::kStoreControlLocal, 0, &block, &inst));
      uint32_t root = RootOf(inst.words[0]);
      WriteMemory(root, Value(inst.words[1]), MakeCause(Cause::kStore, inst.words[1], &block, &inst));
      WriteMemory(root, Value(inst.words[0]), MakeCause(Cause::kStore, inst.words[0], &block, &inst));
      WriteMemory(root, control.level, MakeCause(Cause::kStoreControl, 0, &block, &inst));
      return true;
    }
    case spv::OpCopyMemory:
    case spv::OpCopyMemorySized: {
      uint32_t target = RootOf(inst.words[0]);
      Fact source = MemoryFact(RootOf(inst.words[1]));
      WriteMemory(target, source.level, source.cause);
      WriteMemory(target, control.level, MakeCause(Cause::kStoreControl, 0, &block, &inst));
      return true;
    }
    case spv::OpVariable:
      if (inst.words.size() >= 2)
        WriteMemory(inst.result_id, Value(inst.words[1]), MakeCause(Cause::kStore, inst.words[1], &block, &inst));
      return true;
    default:
      break;
  }
  if (!IsAtomic(inst.opcode)) return false;
  Fact source = StaticFact(Divergence::kDivergent, std::string(grammar::OpcodeName(inst.opcode)) +
                                                         " returns a different value to each invocation");
  if (inst.result_id) Raise(values_[inst.result_id], source.level, source.cause);
  if (!inst.words.empty()) WriteMemory(RootOf(inst.words[0]), source.level, source.cause);
  return true;
}

// Instructions whose result level does not follow from their operands: cross-thread
// results, storage image reads, helper and clock queries. True when handled.
bool EntryPointAnalysis::TransferSource(const Instruction& inst) {
  if (!inst.result_id) return false;
  const std::string op = grammar::OpcodeName(inst.opcode);
  auto set = [&](Divergence level, const std::string& why) {
    Raise(values_[inst.result_id], level, SourceCause(op + " " + why));
    return true;
  };
  if (std::optional<Divergence> fixed = FixedResultLevel(inst.opcode))
    return set(*fixed, *fixed == Divergence::kDivergent    ? "differs between invocations"
                       : *fixed == Divergence::kQuadUniform ? "differs between quads"
                                                            : "differs between subgroups");
  switch (inst.opcode) {
    case spv::OpGroupNonUniformBallotBitCount:
      if (IsReduce(inst)) return false;
      return set(Divergence::kDivergent, "(a scan) differs between invocations");
    case spv::OpImageRead: case spv::OpImageSparseRead: {
      const Instruction* image = facts_.def_use.Definition(inst.words[0]);
      uint32_t root = image && image->opcode == spv::OpLoad ? RootOf(image->words[0]) : 0;
      if (root && IsNonWritable(root)) return false;
      return set(Divergence::kDivergent, "reads an image other invocations may write");
    }
    case spv::OpExtInst: {
      auto name = std::find_if(facts_.module.ext_inst_imports.begin(), facts_.module.ext_inst_imports.end(),
                               [&](const Instruction& import) { return import.result_id == inst.words[0]; });
      if (name == facts_.module.ext_inst_imports.end() || name->StringAt(0) != "SPV_AMD_shader_ballot") return false;
      return set(Divergence::kDivergent, "(SPV_AMD_shader_ballot) differs between invocations");
    }
    default:
      break;
  }
  std::optional<OpcodeConvergence> row = ClassifyOpcode(inst.opcode);
  if (!row || !(row->flags & kCrossThread)) return false;
  // Remaining cross-thread operations are group reductions and scans.
  if (inst.words.size() > 1 && (inst.opcode == spv::OpGroupAll || inst.opcode == spv::OpGroupAny ||
                                inst.opcode == spv::OpGroupBroadcast || IsReduce(inst))) {
    UniformScope scope = facts_.classes.RequiredScope(inst);
    if (scope == UniformScope::kInvocationGroup) return set(Divergence::kUniform, "");
    return set(Divergence::kSubgroupUniform, "differs between subgroups");
  }
  return set(Divergence::kDivergent, "differs between invocations");
}

// "at file:line", or "in `function` (no line information)".
SourceLocation EntryPointAnalysis::LocationOf(const Instruction* inst) const {
  auto it = inst ? facts_.locations.find(inst) : facts_.locations.end();
  return it == facts_.locations.end() ? SourceLocation{} : it->second;
}

std::string EntryPointAnalysis::Where(const Instruction* inst) const {
  if (!inst) return "at an unknown place";
  auto it = facts_.locations.find(inst);
  if (it == facts_.locations.end()) {
    const Function* function = facts_.def_use.FunctionOf(inst);
    return "in " + (function ? NameOf(function->id()) : std::string("a function")) + " (no line information)";
  }
  const SourceLocation& loc = it->second;
  return (facts_.inferred.count(inst) ? "near " : "at ") + (loc.file.empty() ? "line " : loc.file + ":") + std::to_string(loc.line);
}

// ", where some invocations discard" when an arm of `branch` ends the invocation (or
// ", ... return" when it leaves the function): the usual reason code after it diverges.
std::string EntryPointAnalysis::ExitNote(const Block* branch) const {
  const Function* function = facts_.def_use.FunctionOf(branch->Terminator());
  if (!function) return "";
  const Cfg& cfg = *facts_.shapes.at(function->id())->cfg;
  std::string note;
  for (const Block* successor : cfg.Successors(branch)) {
    const Instruction* end = successor->Terminator();
    // Only an arm of its own: not the merge block that ends the whole function.
    if (!end || successor->id() == cfg.MergeTarget(branch) || cfg.Predecessors(successor).size() != 1) continue;
    if (end->opcode == spv::OpKill || end->opcode == spv::OpTerminateInvocation) note = ", where some invocations discard";
    if (note.empty() && (end->opcode == spv::OpReturn || end->opcode == spv::OpReturnValue))
      note = ", where some invocations return";
  }
  return note;
}

// Renders the chain of causes behind a control level, outermost first: why the block
// is non-uniform, which value that depends on, where the value came from.
ReasonLines EntryPointAnalysis::Explain(const Fact& control) const {
  ReasonLines lines;
  std::list<Fact> memory_facts;  // joined memory facts live here while the walk refers to them
  const Cause* cause = &control.cause;
  // Causes are acyclic (see Cause); the step limit only bounds the length of the text.
  for (int step = 0; cause && cause->kind != Cause::kNone && step < 24; ++step)
    cause = ExplainControl(*cause, &lines) ? NextControlCause(*cause) : ExplainData(*cause, &lines, &memory_facts);
  return lines;
}

const Cause* EntryPointAnalysis::CauseOfValue(uint32_t id) const {
  const Fact* fact = ValueFact(id);
  return fact ? &fact->cause : nullptr;
}

const Cause* EntryPointAnalysis::CauseOfBlock(const Block* block) const {
  auto it = blocks_.find(block);
  return it == blocks_.end() ? nullptr : &it->second.cause;
}

// One line for a cause about control flow; false when `cause` is about data.
bool EntryPointAnalysis::ExplainControl(const Cause& cause, ReasonLines* lines) const {
  switch (cause.kind) {
    case Cause::kBranch:
      lines->Add("only some invocations take the branch " + Where(cause.block->Terminator()) +
                     ExitNote(cause.block) + ": its condition is " + DivergenceName(Value(ConditionOf(cause.block))),
                 LocationOf(cause.block->Terminator()));
      return true;
    case Cause::kNested:
    case Cause::kNestedLocal:
      lines->Add("it is inside the branch " + Where(cause.block->Terminator()) + ", which is in non-uniform control flow",
                 LocationOf(cause.block->Terminator()));
      return true;
    case Cause::kMerge:
      lines->Add("it merges the paths of the branch " + Where(cause.block->Terminator()), LocationOf(cause.block->Terminator()));
      return true;
    case Cause::kCallSite:
      lines->Add("its function is called " + Where(cause.at) + " in non-uniform control flow", LocationOf(cause.at));
      return true;
    case Cause::kKillAfterCall:
      lines->Add("the call of " + NameOf(cause.id) + " " + Where(cause.at) + " may end only some invocations (discard)",
                 LocationOf(cause.at));
      return true;
    case Cause::kKill:
      lines->Add("the discard " + Where(cause.at) + " is in non-uniform control flow", LocationOf(cause.at));
      return true;
    default:
      return false;
  }
}

// What a control cause rests on: a branch condition, or the control of another block.
const Cause* EntryPointAnalysis::NextControlCause(const Cause& cause) const {
  switch (cause.kind) {
    case Cause::kBranch:
    case Cause::kMerge:
      return CauseOfValue(ConditionOf(cause.block));
    case Cause::kKillAfterCall: {
      auto kill = kills_.find(cause.id);
      return kill == kills_.end() ? nullptr : &kill->second.cause;
    }
    case Cause::kNestedLocal: {
      auto local = local_blocks_.find(cause.block);
      return local == local_blocks_.end() ? nullptr : &local->second.cause;
    }
    default:  // kNested, kCallSite, kKill
      return CauseOfBlock(cause.block);
  }
}

// One line (or none, for plain operands) for a cause about values and memory; returns
// the cause it rests on.
const Cause* EntryPointAnalysis::ExplainData(const Cause& cause, ReasonLines* lines,
                                             std::list<Fact>* memory_facts) const {
  switch (cause.kind) {
    case Cause::kSource:
      lines->Add(cause.text, SourceLocation{});
      return nullptr;
    case Cause::kOperand:
      return CauseOfValue(cause.id);
    case Cause::kLoad:
      lines->Add(NameOf(cause.id) + " is loaded" + (cause.at ? " " + Where(cause.at) : std::string()), LocationOf(cause.at));
      memory_facts->push_back(MemoryFact(cause.id));
      return &memory_facts->back().cause;
    case Cause::kStore:
      lines->Add("it is assigned a non-uniform value " + Where(cause.at), LocationOf(cause.at));
      return CauseOfValue(cause.id);
    case Cause::kStoreControl:
      lines->Add("it is assigned " + Where(cause.at) + " in non-uniform control flow", LocationOf(cause.at));
      return CauseOfBlock(cause.block);
    case Cause::kReturnControlLocal: {
      lines->Add("it returns " + Where(cause.at) + " in non-uniform control flow", LocationOf(cause.at));
      auto local = local_blocks_.find(cause.block);
      return local == local_blocks_.end() ? nullptr : &local->second.cause;
    }
    case Cause::kStoreControlLocal: {
      lines->Add("it is assigned " + Where(cause.at) + " in non-uniform control flow", LocationOf(cause.at));
      auto local = local_blocks_.find(cause.block);
      return local == local_blocks_.end() ? nullptr : &local->second.cause;
    }
    case Cause::kParameter:
      lines->Add("a parameter receives a non-uniform argument " + Where(cause.at), LocationOf(cause.at));
      return CauseOfValue(cause.id);
    case Cause::kCallResult: {
      lines->Add(NameOf(cause.id) + " returns a non-uniform value (called " + Where(cause.at) + ")", LocationOf(cause.at));
      auto returned = returns_.find(cause.id);
      return returned == returns_.end() ? nullptr : &returned->second.cause;
    }
    case Cause::kReturn:
      lines->Add("it returns a non-uniform value " + Where(cause.at), LocationOf(cause.at));
      return CauseOfValue(cause.id);
    case Cause::kReturnControl:
      lines->Add("it returns " + Where(cause.at) + " in non-uniform control flow", LocationOf(cause.at));
      return CauseOfBlock(cause.block);
    case Cause::kLocalLoad: {
      lines->Add(NameOf(cause.id) + " is loaded " + Where(cause.at), LocationOf(cause.at));
      auto local = local_loads_.find(cause.at);
      return local == local_loads_.end() ? nullptr : &local->second.cause;
    }
    case Cause::kSharedControl:
      lines->Add("shared variable " + NameOf(cause.id) + " is loaded " + Where(cause.at) + " in non-uniform control flow",
                 LocationOf(cause.at));
      return CauseOfBlock(cause.block);
    case Cause::kPhaseBarrier:
      lines->Add("shared variable " + NameOf(cause.id) + " is read after the barrier " + Where(cause.at) +
                     ", which is in non-uniform control flow",
                 LocationOf(cause.at));
      return CauseOfBlock(cause.block);
    default:
      return nullptr;
  }
}

bool EntryPointAnalysis::DerivativesApply() const {
  if (model_ == spv::ExecutionModelFragment) return true;
  // Compute-like stages have derivatives only with a derivative group execution mode.
  for (const Instruction& mode : facts_.module.execution_modes)
    if (mode.words.size() >= 2 && mode.words[0] == entry_function_ &&
        (mode.words[1] == spv::ExecutionModeDerivativeGroupQuadsNV ||
         mode.words[1] == spv::ExecutionModeDerivativeGroupLinearNV))
      return true;
  return false;
}

// The rule id of a finding; the same cases as the message below.
const char* RuleOf(const Instruction& inst, UniformScope scope) {
  if (inst.opcode >= spv::OpDPdx && inst.opcode <= spv::OpFwidthCoarse) return "uniformity/derivative";
  if (scope == UniformScope::kQuad) return "uniformity/implicit-lod";
  if (inst.opcode == spv::OpControlBarrier) return "uniformity/barrier";
  return "uniformity/uniform-control";
}

UniformityFinding EntryPointAnalysis::MakeFinding(const Instruction& inst, const Fact& control,
                                                  UniformScope scope) const {
  UniformityFinding finding;
  finding.instruction = &inst;
  finding.entry_point = entry_name_;
  auto loc = facts_.locations.find(&inst);
  if (loc != facts_.locations.end()) finding.location = loc->second;
  finding.message = UniformityMessage(inst, scope);
  finding.rule = RuleOf(inst, scope);
  std::optional<Divergence> allowed = Allowed(inst, &scope);
  ReasonLines reasons = ExplainAlternatives(inst, control, allowed ? *allowed : Divergence::kUniform);
  finding.reasons = std::move(reasons.text);
  finding.reason_locations = std::move(reasons.where);
  return finding;
}

// The level a uniform-control instruction tolerates; nullopt for other instructions
// (and for derivatives where the stage has none).
std::optional<Divergence> EntryPointAnalysis::Allowed(const Instruction& inst, UniformScope* scope) const {
  *scope = facts_.classes.RequiredScope(inst);
  if (*scope == UniformScope::kNone || (*scope == UniformScope::kQuad && !DerivativesApply())) return std::nullopt;
  return *scope == UniformScope::kQuad       ? Divergence::kQuadUniform
         : *scope == UniformScope::kSubgroup ? Divergence::kSubgroupUniform
                                             : Divergence::kUniform;
}

// The chain behind `control`, then up to two more independent ones: other branches
// the instruction's block depends on that are too divergent for `allowed`, each
// explained from its own condition (or its own enclosing branch), when it ends at a
// source (the last line) that no chain before it ends at.
ReasonLines EntryPointAnalysis::ExplainAlternatives(const Instruction& inst, const Fact& control,
                                                    Divergence allowed) const {
  constexpr int kMaxChains = 3;
  ReasonLines lines = Explain(control);
  const Block* block = facts_.def_use.BlockOf(&inst);
  const Function* function = facts_.def_use.FunctionOf(&inst);
  if (!block || !function) return lines;
  const FunctionShape& shape = *facts_.shapes.at(function->id());
  auto controllers = shape.controllers.find(block);
  if (controllers == shape.controllers.end()) return lines;
  // Each controlling branch offers two chains: its own condition, and the branch
  // it is itself inside.
  std::vector<Cause> candidates;
  for (const Block* branch : controllers->second) {
    if (Value(ConditionOf(branch)) > allowed) candidates.push_back(MakeCause(Cause::kBranch, 0, branch));
    auto local = local_blocks_.find(branch);
    if (local != local_blocks_.end() && local->second.level > allowed)
      candidates.push_back(MakeCause(Cause::kNestedLocal, 0, branch));
  }
  int chains = 1;
  std::vector<std::string> roots;
  if (!lines.text.empty()) roots.push_back(lines.text.back());
  for (const Cause& cause : candidates) {
    if (chains == kMaxChains) break;
    bool same_as_first = (cause.kind == control.cause.kind ||
                          (cause.kind == Cause::kNestedLocal && control.cause.kind == Cause::kNested)) &&
                         cause.block == control.cause.block;
    if (same_as_first) continue;
    Fact alternative;
    alternative.level = Divergence::kDivergent;
    alternative.cause = cause;
    ReasonLines more = Explain(alternative);
    // Independent: it ends at a source no chain shown so far ends at.
    if (more.text.empty() || std::count(roots.begin(), roots.end(), more.text.back())) continue;
    roots.push_back(more.text.back());
    more.text.front() = "also: " + more.text.front();
    lines.text.insert(lines.text.end(), more.text.begin(), more.text.end());
    lines.where.insert(lines.where.end(), more.where.begin(), more.where.end());
    ++chains;
  }
  return lines;
}

// Reachable functions, each after every function it calls.
std::vector<Function*> EntryPointAnalysis::CalleesFirst() const {
  std::unordered_map<uint32_t, Function*> by_id;
  for (Function* function : functions_) by_id[function->id()] = function;
  std::vector<Function*> order;
  std::unordered_set<uint32_t> seen;
  std::function<void(Function*)> visit = [&](Function* function) {
    if (!function || !seen.insert(function->id()).second) return;
    for (const Block& block : function->blocks)
      for (const Instruction& inst : block.instructions)
        if (inst.opcode == spv::OpFunctionCall && !inst.words.empty()) {
          auto callee = by_id.find(inst.words[0]);
          visit(callee == by_id.end() ? nullptr : callee->second);  // call depth: SPIR-V has no recursion
        }
    order.push_back(function);
  };
  if (!functions_.empty()) visit(functions_.front());
  return order;
}

// Reports the uniform-control instructions of `function` whose own control flow is too
// divergent (call sites left out); the others become needs of the function, checked at
// its call sites.
void EntryPointAnalysis::CollectInFunction(const Function& function, std::vector<UniformityFinding>* findings,
                                           std::unordered_set<const Instruction*>* reported) {
  const FunctionShape& shape = *facts_.shapes.at(function.id());
  for (const Block* block : shape.cfg->ReversePostOrder()) {
    Fact control = local_blocks_[block];
    for (const Instruction& inst : block->instructions) {
      if (inst.opcode == spv::OpFunctionCall) {
        CheckCall(function, inst, control, findings, reported);
        const Fact& kill = kills_[inst.words[0]];
        RaiseLocal(control, kill.level, MakeCause(Cause::kKillAfterCall, inst.words[0], block, &inst));
        continue;
      }
      UniformScope scope;
      std::optional<Divergence> allowed = Allowed(inst, &scope);
      if (!allowed) continue;
      if (control.level <= *allowed) {
        needs_[function.id()].push_back(
            {&inst, *allowed, UniformityHead(inst, scope) + " " + Where(&inst), RuleOf(inst, scope)});
        continue;
      }
      if (reported->insert(&inst).second) findings->push_back(MakeFinding(inst, control, scope));
    }
  }
}

// A call whose callee needs more uniformity than the call site has is reported once,
// here, listing what the callee needs; what the call site satisfies is passed on to the
// caller's own call sites.
void EntryPointAnalysis::CheckCall(const Function& caller, const Instruction& call, const Fact& control,
                                   std::vector<UniformityFinding>* findings,
                                   std::unordered_set<const Instruction*>* reported) {
  auto needs = needs_.find(call.words.at(0));
  if (needs == needs_.end()) return;
  std::vector<Need> violated, satisfied;
  for (const Need& need : needs->second) (control.level > need.allowed ? violated : satisfied).push_back(need);
  std::vector<Need>& mine = needs_[caller.id()];
  mine.insert(mine.end(), satisfied.begin(), satisfied.end());
  if (violated.empty() || !reported->insert(&call).second) return;
  UniformityFinding finding;
  finding.instruction = &call;
  finding.entry_point = entry_name_;
  auto loc = facts_.locations.find(&call);
  if (loc != facts_.locations.end()) finding.location = loc->second;
  finding.message = "call of " + NameOf(call.words[0]) + " in non-uniform control flow, but it " + kCalleeNeeds;
  Divergence strictest = Divergence::kDivergent;
  for (size_t i = 0; i < violated.size(); ++i) {
    strictest = std::min(strictest, violated[i].allowed);
    if (i < 3) finding.message += (i ? "; " : "") + violated[i].what;
  }
  if (violated.size() > 3) finding.message += "; and " + std::to_string(violated.size() - 3) + " more";
  finding.rule = violated.front().rule;
  ReasonLines reasons = ExplainAlternatives(call, control, strictest);
  finding.reasons = std::move(reasons.text);
  finding.reason_locations = std::move(reasons.where);
  findings->push_back(std::move(finding));
}

void EntryPointAnalysis::CollectFindings(std::vector<UniformityFinding>* findings,
                                         std::unordered_set<const Instruction*>* reported) {
  for (Function* function : CalleesFirst()) CollectInFunction(*function, findings, reported);
}

}  // namespace

const char* DivergenceName(Divergence level) {
  switch (level) {
    case Divergence::kUniform: return "uniform";
    case Divergence::kSubgroupUniform: return "uniform only within a subgroup";
    case Divergence::kQuadUniform: return "uniform only within a quad";
    case Divergence::kDivergent: return "non-uniform";
  }
  return "?";
}

std::string UniformityHead(const Instruction& inst, UniformScope scope) {
  std::string op = grammar::OpcodeName(inst.opcode);
  if (IsDerivative(inst.opcode)) return "derivative (" + op + ")";
  if (scope == UniformScope::kQuad) return "implicit-LOD texture sample (" + op + ")";
  if (inst.opcode == spv::OpControlBarrier)
    return "barrier (" + op + ", " + (scope == UniformScope::kSubgroup ? "subgroup" : "workgroup") + " scope)";
  if (inst.opcode == spv::OpEmitMeshTasksEXT || inst.opcode == spv::OpSetMeshOutputsEXT)
    return "mesh/task output (" + op + ")";
  if (op.rfind("OpGroup", 0) == 0) return "group operation (" + op + ")";
  return "whole-scope operation (" + op + ")";
}

std::string UniformityMessage(const Instruction& inst, UniformScope scope) {
  std::string head = UniformityHead(inst, scope);
  if (IsDerivative(inst.opcode)) return head + " in non-uniform control flow: its value is undefined";
  if (scope == UniformScope::kQuad) return head + " in non-uniform control flow: its level of detail is undefined";
  if (inst.opcode == spv::OpControlBarrier)
    return head + " in non-uniform control flow: invocations that skip it leave it undefined";
  return head + " must be executed in uniform control flow but is not";
}

std::string UniformityWarningClass(const std::string& message) {
  static const std::pair<const char*, const char*> kClasses[] = {
      {"derivative", "derivative"},           {"implicit-LOD", "implicit-LOD sample"},
      {"barrier", "barrier"},                 {"group operation", "group operation"},
      {"mesh/task output", "mesh/task output"}, {"whole-scope operation", "whole-scope operation"}};
  for (const auto& [prefix, name] : kClasses)
    if (message.rfind(prefix, 0) == 0) return name;
  size_t list = message.find(kCalleeNeeds);
  if (message.rfind("call of ", 0) != 0 || list == std::string::npos) return "";
  std::string inner = UniformityWarningClass(message.substr(list + kCalleeNeeds.size()));
  return inner.empty() ? "" : "call needing uniform control for a " + inner;
}

UniformityResult AnalyzeUniformity(Module& module, const UniformityOptions& options) {
  DefUse def_use(module);
  ConvergenceClasses classes(module);
  std::unordered_map<const Function*, std::unique_ptr<Cfg>> cfgs;
  std::unordered_map<const Function*, std::unique_ptr<ValueFlow>> flows;
  CfgLookup cfg_of = [&cfgs](Function& function) -> const Cfg& {
    std::unique_ptr<Cfg>& cfg = cfgs[&function];
    if (!cfg) cfg = std::make_unique<Cfg>(function);
    return *cfg;
  };
  UniformityInputs inputs{def_use, classes, cfg_of,
                          [&](Function& function) -> const ValueFlow& {
                            std::unique_ptr<ValueFlow>& flow = flows[&function];
                            if (!flow) flow = std::make_unique<ValueFlow>(module, function, cfg_of(function));
                            return *flow;
                          }};
  return AnalyzeUniformity(module, inputs, options);
}

UniformityResult AnalyzeUniformity(Module& module, const UniformityInputs& inputs,
                                   const UniformityOptions& options) {
  UniformityResult result;
  std::unique_ptr<ModuleFacts> facts = CollectModuleFacts(module, inputs);
  if (!facts->classes.ok()) {
    result.refusal = "uniformity analysis refused: " + facts->classes.error();
    return result;
  }
  std::unordered_set<const Instruction*> reported;
  for (const Instruction& entry_point : module.entry_points) {
    EntryPointAnalysis analysis(*facts, entry_point, options);
    std::string refusal = analysis.Run(&result.rounds);
    if (!refusal.empty()) {
      result.findings.clear();
      result.refusal = refusal;
      return result;
    }
    analysis.CollectFindings(&result.findings, &reported);
  }
  return result;
}

std::vector<Diagnostic> UniformityDiagnostics(const UniformityResult& result, Severity severity) {
  std::vector<Diagnostic> diagnostics;
  if (!result.refusal.empty()) {
    Diagnostic note;
    note.severity = Severity::kNote;
    note.origin = "uniformity";
    note.message = result.refusal;
    note.rule = "uniformity/refused";
    diagnostics.push_back(std::move(note));
    return diagnostics;
  }
  for (const UniformityFinding& finding : result.findings) {
    Diagnostic diagnostic;
    diagnostic.severity = severity;
    diagnostic.origin = "uniformity";
    diagnostic.location = finding.location;
    diagnostic.message = finding.message;
    diagnostic.reasons = finding.reasons;
    diagnostic.reason_locations = finding.reason_locations;
    diagnostic.rule = finding.rule;
    diagnostics.push_back(std::move(diagnostic));
  }
  return diagnostics;
}

}  // namespace glint::spirv
