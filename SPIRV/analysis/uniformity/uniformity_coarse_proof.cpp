// Uniformity coarse proof: where every block that holds a uniform-control instruction (or a
// call of a function holding one) runs in control no more divergent than that
// instruction tolerates, by a coarse fixed point, the uniformity analysis (uniformity.h)
// has nothing to report, and is not built.
//
// Why: engines' compute kernels put barriers and cooperative-matrix operations in loops
// whose bounds come from push constants and specialization constants, and their fragment
// shaders sample under branches on a material read through a flat index. The analysis
// proves them fine and reports nothing, but its module facts, value flow, relevance and
// solver cost up to half of glslang's own compile on them. This proof is one pass per
// round over the instructions with a level per id, and no causes.
//
// What it computes, per entry point, a level per value, block, function entry, function
// return and memory class, in the analysis's order (uniform < uniform within a subgroup
// < uniform within a quad < divergent), as a least fixed point (levels only rise; a join
// is the larger):
//   values   constants and types are uniform. A result of an arithmetic, bitwise,
//            relational, logical, conversion or composite instruction, an access chain,
//            a copy, a select, an image/sampler handle or size query, or a GLSL.std.450
//            instruction joins its id operands (when its convergence class is empty); a
//            parameter joins its arguments at every call site; a call's result is its
//            callee's return; a load joins its pointer and its memory class (a pointer
//            the proof cannot trace: divergent), but a load or component of a built-in
//            the workgroup shares by its size (workgroup_dimensions.h, the one rule both
//            use) joins only its address. Every other result is divergent (atomics,
//            cross-thread operations, image reads, OpUndef, ...).
//   phis     join their incoming values, and each incoming block's control and its own
//            branch condition.
//   memory   a class per variable, pointer parameters joined with every caller variable
//            passed to them (union-find). A class starts where the analysis starts its
//            variable, by the one rule both use (starting_levels.h: uniform and
//            push-constant blocks, NonWritable buffers,
//            UniformConstant, Private and Function memory, the uniform built-ins it names
//            and a mesh shader's task payload are uniform; flat fragment inputs,
//            FrontFacing, PrimitiveId, Layer and ViewportIndex in fragment shaders are
//            uniform within a quad; SubgroupId, and SubgroupSize outside compute, within
//            a subgroup; Workgroup memory and the rest divergent) and joins what every
//            store, copy and initializer writes: the value, the address and the control
//            it runs in; an atomic makes it divergent.
//   control  a block joins its function's entry (the control of every call of it) and,
//            for each branch or switch it is control dependent on (the analysis's
//            post-dominator walk from each successor of a block with two or more distinct
//            targets), that branch's condition and control.
//   returns  join each returned value and the return's control.
//
// Why it suffices: each rule gives at least the level the analysis's rule gives
// (uniformity_transfer.cpp, uniformity_memory.cpp, uniformity_sources.cpp): its other
// sources are divergent here or start as high; its flow-sensitive locals, forwarded
// parameter loads, barrier phases for shared memory, call contexts, lane analysis,
// one-subgroup blocks and assume-uniform filter only lower levels below the
// flow-insensitive, context-insensitive join computed here; its local control (call
// sites left out) is at most the control here, which includes the entry. So by induction
// over the rounds every level of the analysis is at most the level here. The analysis
// reports an instruction only where its block's control within its function, or the
// control of a call site of its function (transitively), is above what the instruction
// tolerates (UniformityReporter::Allowed: quad for derivatives and implicit-LOD samples,
// the Execution scope for barriers); here a block's control must not exceed the
// strictest of its instructions and of the functions it calls, taking a quad-scope
// instruction as one in every stage, and a function's entry covers every call site. A
// callee that may kill the invocation (OpKill, OpTerminateInvocation) in non-uniform
// control makes the proof give up, and a phi with an unreachable conditional predecessor
// (whose condition the analysis reads) counts that condition as divergent.
//
// What it does not prove: anything where a need's block is too divergent here. Those
// modules, including every one with a finding, go to the analysis, which decides; the
// proof only moves cost. It gives up (the analysis decides) on unclassified
// instructions, missing operands and past its round budget. Like uniformity_screen.h, a
// module it proves gets no note if the analysis would have refused for its own round
// budget.
#include "SPIRV/analysis/uniformity/uniformity_coarse_proof.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "SPIRV/analysis/uniformity/starting_levels.h"
#include "SPIRV/analysis/uniformity/uniformity_internal.h"
#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/operands.h"

namespace glint::spirv {
namespace {

// How the rounds treat an opcode, decided once per opcode: a result that is a function of
// its id operands alone (by the grammar's instruction class or by name, see the file
// comment, and an empty convergence class), an atomic, or anything else (its result
// varies). OpExtInst is decided per instruction (its set and convergence class).
enum OpcodeKind : uint8_t { kOtherOpcode, kPureOpcode, kAtomicOpcode };

const std::vector<uint8_t>& OpcodeKinds() {
  static const std::vector<uint8_t> kKinds = [] {
    std::vector<uint8_t> kinds;
    auto set = [&](uint32_t opcode, OpcodeKind kind) {
      if (kinds.size() <= opcode) kinds.resize(opcode + 1, kOtherOpcode);
      kinds[opcode] = kind;
    };
    // The convergence table's row decides an opcode's class for all but OpExtInst
    // (ConvergenceClasses::Of); an opcode without a row is left to vary.
    auto unclassed = [](uint32_t opcode) {
      std::optional<OpcodeConvergence> row = ClassifyOpcode(opcode);
      return row && row->flags == kNotConvergent;
    };
    grammar::ForEachOpcode([&](const grammar::OpcodeInfo& info) {
      const char* kind = info.instruction_class;
      if (AtomicView<const Instruction>::Accepts(spv::Op(info.opcode))) {
        set(info.opcode, kAtomicOpcode);
        return;
      }
      if (!info.has_result || info.opcode == spv::OpExtInst || !unclassed(info.opcode)) return;
      if (std::strcmp(kind, "Arithmetic") == 0 || std::strcmp(kind, "Bit") == 0 ||
          std::strcmp(kind, "Relational_and_Logical") == 0 ||
          std::strcmp(kind, "Conversion") == 0 || std::strcmp(kind, "Composite") == 0)
        set(info.opcode, kPureOpcode);
    });
    for (spv::Op op : {spv::OpAccessChain, spv::OpInBoundsAccessChain, spv::OpPtrAccessChain,
                       spv::OpInBoundsPtrAccessChain, spv::OpCopyObject, spv::OpSelect,
                       spv::OpArrayLength, spv::OpSampledImage, spv::OpImage, spv::OpImageQuerySize,
                       spv::OpImageQuerySizeLod, spv::OpImageQueryLevels, spv::OpImageQuerySamples})
      if (unclassed(op)) set(op, kPureOpcode);
    return kinds;
  }();
  return kKinds;
}

// Levels, as the analysis orders them (Divergence): uniform, uniform within a subgroup,
// uniform within a quad, divergent. A join is the larger.
constexpr uint8_t kUniform = 0, kSubgroup = 1, kQuad = 2, kVaries = 3;
constexpr uint8_t kNoNeed = 0xff;            // a block without uniform-control instructions
constexpr uint8_t kUnknownTolerance = 0xfe;  // a function Tolerated has not looked at yet

// Whether an instruction of `opcode` may be uniform-control (ConvergenceClasses::Of
// answers for those); for most opcodes the convergence table's row says it is not.
bool MayNeedUniformControl(uint32_t opcode) {
  static const std::vector<uint8_t> kMay = [] {
    std::vector<uint8_t> may;
    grammar::ForEachOpcode([&](const grammar::OpcodeInfo& info) {
      if (may.size() <= info.opcode) may.resize(info.opcode + 1, 1);
      std::optional<OpcodeConvergence> row = ClassifyOpcode(info.opcode);
      may[info.opcode] = !row || (row->flags & kUniformControl) ||
                         info.opcode == spv::OpFunctionCall || info.opcode == spv::OpExtInst ||
                         info.opcode == spv::OpImageSampleFootprintNV;
    });
    return may;
  }();
  return opcode >= kMay.size() || kMay[opcode];
}

class CoarseProof {
 public:
  explicit CoarseProof(const CoarseProofInputs& inputs)
      : in_(inputs), module_(inputs.module), bound_(LargestId(inputs.module) + 1) {}

  CoarseProofResult Run() {
    CoarseProofResult result;
    if (!in_.classes.ok() || !IndexModule()) return result;
    for (const Instruction& entry_point : module_.entry_points) {
      if (!ProveEntryPoint(entry_point, &result.rounds)) return result;
    }
    result.proven = true;
    return result;
  }

 private:
  // One block as the rounds walk it: its branch's dependent blocks are
  // controlled_[first, last).
  struct BlockPlan {
    const Block* block;
    uint32_t condition;  // of its conditional branch or switch; else 0
    uint32_t first, last;
  };
  struct FunctionPlan {
    Function* function;
    std::vector<BlockPlan> blocks;  // reverse post-order
  };
  // A level per id, and the round that last read each (Level), as a byte: only whether
  // it is this round's counts, and the stamps start again before they would wrap.
  struct Levels {
    std::vector<uint8_t> level;
    std::vector<uint8_t> read_in;  // 0: not read yet
  };

  // --- set-up shared by every entry point ---

  // The tables are sized by the ids the module defines, not by its header's bound: a
  // module may claim millions of ids it never uses. An id past them (defined nowhere)
  // reads as divergent.
  // (Ids defined in other sections - strings, decoration groups - are never read as
  // values, labels or functions here.)
  static uint32_t LargestId(const Module& module) {
    uint32_t largest = 0;
    for (const Instruction& inst : module.types_values) largest = std::max(largest, inst.result_id);
    for (const Instruction& inst : module.ext_inst_imports)
      largest = std::max(largest, inst.result_id);
    for (const Function& function : module.functions) {
      largest = std::max(largest, function.id());
      for (const Instruction& parameter : function.parameters)
        largest = std::max(largest, parameter.result_id);
      for (const Block& block : function.blocks) {
        largest = std::max(largest, block.id());
        for (const Instruction& inst : block.instructions)
          largest = std::max(largest, inst.result_id);
      }
    }
    return std::min(largest, module.header.bound);
  }

  // Indexes the definitions, and checks on the way that every instruction the proof may
  // read has the operands its opcode requires (the typed views read them by position):
  // false where one lacks one. The analysis then refuses the module by name
  // (DefUse::FirstMalformed).
  bool IndexModule() {
    const std::vector<uint8_t>& required = RequiredOperandCounts();
    for (const InstructionList* section : {&module_.entry_points, &module_.annotations})
      for (const Instruction& inst : *section)
        if (!HasRequiredOperandWords(inst, required)) return false;
    definitions_.assign(bound_, nullptr);
    bool complete = true;
    auto define = [&](const Instruction& inst) {
      complete = complete && HasRequiredOperandWords(inst, required);
      if (inst.result_id && inst.result_id < bound_) definitions_[inst.result_id] = &inst;
    };
    for (const Instruction& inst : module_.types_values) define(inst);
    for (const Instruction& inst : module_.ext_inst_imports) {
      define(inst);
      if (!complete) return false;
      if (!glsl_std450_ && ExtInstImportView(inst).name() == "GLSL.std.450")
        glsl_std450_ = inst.result_id;
    }
    for (const Function& function : module_.functions) {
      for (const Instruction& parameter : function.parameters) define(parameter);
      for (const Block& block : function.blocks)
        for (const Instruction& inst : block.instructions) define(inst);
    }
    if (!complete) return false;
    decorations_ = uniformity_detail::StorageDecorations::Of(module_);
    return true;
  }

  const Instruction* Definition(uint32_t id) const {
    return id < bound_ ? definitions_[id] : nullptr;
  }

  // The variable or pointer parameter a pointer points into; 0 when not traced (the
  // rule of pointer_origins.h, which the analysis follows too).
  uint32_t RootOf(uint32_t pointer) const {
    return TracePointer(pointer, [this](uint32_t id) { return Definition(id); }).root_id();
  }

  // --- memory classes ---

  uint32_t Find(uint32_t id) {
    while (parent_[id] != id) {
      parent_[id] = parent_[parent_[id]];
      id = parent_[id];
    }
    return id;
  }
  void Join(uint32_t a, uint32_t b) {
    a = Find(a);
    b = Find(b);
    if (a == b) return;
    parent_[b] = a;
    memory_.level[a] = std::max(memory_.level[a], memory_.level[b]);
  }

  // A module-scope variable's level before any store, for `model`: where the analysis
  // starts it (starting_levels.h, the scope partition; one rule for both).
  uint8_t StartLevel(const Instruction& variable, spv::ExecutionModel model) const {
    return uint8_t(uniformity_detail::StartOf(variable, model, /*lanes=*/false, decorations_,
                                              in_.builtins,
                                              [this](uint32_t id) { return Definition(id); })
                       .level);
  }

  // The most divergent control a uniform-control instruction tolerates (the reporter's
  // Allowed, taking a quad-scope need as one whatever the stage: never less strict).
  uint8_t AllowedFor(const Instruction& inst) const {
    switch (in_.classes.RequiredScope(inst)) {
      case UniformScope::kNone:
        return kNoNeed;
      case UniformScope::kQuad:
        return kQuad;
      case UniformScope::kSubgroup:
        return kSubgroup;
      default:
        return kUniform;
    }
  }

  // --- per entry point ---

  bool ProveEntryPoint(const Instruction& entry_point, uint32_t* rounds) {
    EntryPointInterfaceView view(entry_point);
    const spv::ExecutionModel model = view.model();
    entry_function_ = view.function();
    functions_ = in_.calls.ReachableFrom(entry_function_);
    for (Levels* levels : {&value_, &control_, &condition_, &entry_, &return_, &memory_}) {
      levels->level.assign(bound_, kUniform);
      levels->read_in.assign(bound_, 0);
    }
    round_ = 0;
    allowed_.assign(bound_, kNoNeed);
    parent_.resize(bound_);
    for (uint32_t id = 0; id < bound_; ++id) parent_[id] = id;
    for (const Instruction& inst : module_.types_values)
      if (inst.opcode == spv::OpVariable && inst.result_id < bound_)
        memory_.level[inst.result_id] = StartLevel(inst, model);
    dimensions_.emplace(module_, in_.builtins, model, entry_function_,
                        [this](uint32_t id) { return Definition(id); });
    plans_.assign(functions_.size(), std::nullopt);
    controlled_.clear();
    tolerated_.assign(bound_, kUnknownTolerance);
    for (;;) {
      if (*rounds >= in_.round_budget) return false;
      ++*rounds;
      if (round_ == UINT8_MAX) {  // the next stamp would wrap: no read is this round's yet
        for (Levels* levels : {&value_, &control_, &condition_, &entry_, &return_, &memory_})
          levels->read_in.assign(bound_, 0);
        round_ = 0;
      }
      ++round_;
      changed_ = false;
      for (size_t at = 0; at < functions_.size(); ++at) {
        if (!plans_[at]) plans_[at] = Plan(*functions_[at], /*after_walks=*/at > 0);
        if (!WalkFunction(*plans_[at])) return false;
      }
      if (!changed_) return true;
    }
  }

  // What the rounds need of `function`, the first time they reach it (a shader whose
  // first need is too divergent is refused before the rest is planned): its blocks in
  // reverse post-order with the blocks each branch controls, what its blocks' needs
  // tolerate, and the memory classes its calls join to their callees' pointer
  // parameters. The classes a join merges take the higher level; where a function was
  // walked before it in this round (`after_walks`), what that walk read may have
  // changed, so the round reports a change (the analysis's levels are bounded all the
  // same: levels and classes only grow). Planning reads no level.
  FunctionPlan Plan(Function& function, bool after_walks) {
    const Cfg& cfg = in_.cfgs(function);
    FunctionPlan plan;
    plan.function = &function;
    for (const Block* block : cfg.ReversePostOrder()) {
      BlockPlan step{block, ConditionOf(*block), uint32_t(controlled_.size()), 0};
      ForEachControlDependent(cfg, block, [&](const Block*, const Block* dependent) {
        controlled_.push_back(dependent->id());
      });
      step.last = uint32_t(controlled_.size());
      plan.blocks.push_back(step);
    }
    // The analysis reads the condition of a phi's predecessor even where the rounds
    // never reach it.
    for (const Block& block : function.blocks)
      if (!cfg.IsReachable(&block) && block.id() < bound_ && ConditionOf(block))
        condition_.level[block.id()] = kVaries;
    Tolerated(function.id());
    for (const Block& block : function.blocks)
      for (const Instruction& inst : block.instructions) {
        if (inst.opcode != spv::OpFunctionCall) continue;
        const Function* callee = in_.calls.FunctionById(FunctionCallView(inst).callee());
        if (!callee) continue;
        auto arguments = FunctionCallView(inst).arguments();
        size_t index = 0;
        // Arguments bind to the parameter list in order, as the analysis binds them
        // (ForEachArgument).
        for (const Instruction& parameter : callee->parameters) {
          if (index >= arguments.size()) break;
          uint32_t argument = arguments[index++];
          auto definition_of = [this](uint32_t id) { return Definition(id); };
          if (!parameter.result_id || parameter.result_id >= bound_ ||
              !uniformity_detail::HasPointerType(parameter, definition_of))
            continue;
          uint32_t root = RootOf(argument);
          if (root)
            Join(parameter.result_id, root);
          else
            memory_.level[Find(parameter.result_id)] = kVaries;
        }
      }
    if (after_walks) changed_ = true;
    return plan;
  }

  // The most divergent control `function`'s strictest need tolerates, its callees'
  // included (kNoNeed: none), found once; each of its blocks' tolerance is kept in
  // allowed_. A call tolerates what its callee does.
  uint8_t Tolerated(uint32_t function_id) {
    if (function_id >= bound_) return kNoNeed;
    if (tolerated_[function_id] != kUnknownTolerance) return tolerated_[function_id];
    tolerated_[function_id] = kUniform;  // the strictest while in progress (a call cycle)
    uint8_t strictest = kNoNeed;
    const Function* function = in_.calls.FunctionById(function_id);
    if (function && (in_.classes.OfFunction(function_id) & kUniformControl))
      for (const Block& block : function->blocks) {
        uint8_t block_allowed = kNoNeed;
        for (const Instruction& inst : block.instructions) {
          if (!MayNeedUniformControl(inst.opcode) || !(in_.classes.Of(inst) & kUniformControl))
            continue;
          uint8_t allowed = inst.opcode == spv::OpFunctionCall
                                ? Tolerated(FunctionCallView(inst).callee())
                                : AllowedFor(inst);
          block_allowed = std::min(block_allowed, allowed);
        }
        if (block.id() < bound_) allowed_[block.id()] = block_allowed;
        strictest = std::min(strictest, block_allowed);
      }
    return tolerated_[function_id] = strictest;
  }

  // --- the rounds ---

  // A level read by a transfer: the read is stamped with the round, so that a later
  // raise of the same entry in this round asks for another (what read it saw a stale
  // level). A raise of an entry nothing has read yet this round does not: its readers
  // later in the round see the new level. So the last round is one in which every read
  // saw its final level, a fixed point, and the least one: the rounds walk exactly as
  // when every raise asked for another round, which stop at that fixed point, only no
  // later (the same answer within the same round budget, often a round or two sooner).
  uint8_t Level(Levels& levels, uint32_t id) {
    if (id >= bound_) return kVaries;
    levels.read_in[id] = round_;
    return levels.level[id];
  }
  uint8_t Level(const std::vector<uint8_t>& levels, uint32_t id) const {
    return id < bound_ ? levels[id] : kVaries;
  }
  uint8_t Value(uint32_t id) { return Level(value_, id); }
  void Raise(Levels& levels, uint32_t id, uint8_t level) {
    if (id >= bound_ || levels.level[id] >= level) return;
    levels.level[id] = level;
    if (levels.read_in[id] == round_) changed_ = true;
  }
  uint8_t Memory(uint32_t root) { return root ? Level(memory_, Find(root)) : kVaries; }
  void WriteMemory(uint32_t root, uint8_t level) {
    if (root) Raise(memory_, Find(root), level);
  }

  // False where the proof gives up: a need in control more divergent than it tolerates,
  // or a kill in divergent control in a called function.
  bool WalkFunction(const FunctionPlan& plan) {
    const uint8_t entry = Level(entry_, plan.function->id());
    for (const BlockPlan& step : plan.blocks) {
      const uint32_t label = step.block->id();
      Raise(control_, label, entry);
      const uint8_t control = Level(control_, label);
      if (control > Level(allowed_, label)) return false;
      for (const Instruction& inst : step.block->instructions)
        if (!Transfer(*plan.function, inst, control)) return false;
      // A phi reads its incoming block's condition even where both targets are one.
      const uint8_t condition = step.condition ? Value(step.condition) : kUniform;
      Raise(condition_, label, condition);
      const uint8_t pushed = std::max(control, condition);
      if (pushed != kUniform)
        for (uint32_t at = step.first; at != step.last; ++at)
          Raise(control_, controlled_[at], pushed);
    }
    return true;
  }

  bool Transfer(const Function& function, const Instruction& inst, uint8_t control) {
    const uint32_t result = inst.result_id;
    switch (inst.opcode) {
      case spv::OpFunctionCall: {
        FunctionCallView call(inst);
        const Function* callee = in_.calls.FunctionById(call.callee());
        if (!callee) {
          Raise(value_, result, kVaries);
          return true;
        }
        Raise(entry_, callee->id(), control);
        auto arguments = call.arguments();
        size_t index = 0;
        for (const Instruction& parameter : callee->parameters) {
          if (index >= arguments.size()) break;
          const uint8_t argument = Value(arguments[index++]);
          if (parameter.result_id) Raise(value_, parameter.result_id, argument);
        }
        Raise(value_, result, Level(return_, callee->id()));
        return true;
      }
      case spv::OpPhi: {
        PhiView phi(inst);
        uint8_t level = kUniform;
        for (size_t pair = 0; pair < phi.pair_count(); ++pair)
          level = std::max({level, Value(phi.value(pair)), Level(control_, phi.parent(pair)),
                            Level(condition_, phi.parent(pair))});
        Raise(value_, result, level);
        return true;
      }
      case spv::OpReturnValue:
        Raise(return_, function.id(), std::max(control, Value(ReturnValueView(inst).value())));
        return true;
      case spv::OpKill:
      case spv::OpTerminateInvocation:
        // The analysis carries a called function's kill into its callers' control.
        return control == kUniform || function.id() == entry_function_;
      case spv::OpLoad: {
        LoadView load(inst);
        if (dimensions_->LoadsShared(inst)) {
          Raise(value_, result, Value(load.pointer()));
          return true;
        }
        Raise(value_, result, std::max(Value(load.pointer()), Memory(RootOf(load.pointer()))));
        return true;
      }
      case spv::OpStore: {
        StoreView store(inst);
        WriteMemory(RootOf(store.pointer()),
                    std::max({control, Value(store.object()), Value(store.pointer())}));
        return true;
      }
      case spv::OpCopyMemory:
      case spv::OpCopyMemorySized: {
        CopyMemoryView copy(inst);
        WriteMemory(RootOf(copy.target()), std::max(control, Memory(RootOf(copy.source()))));
        return true;
      }
      case spv::OpVariable: {
        VariableView variable(inst);
        if (variable.has_initializer()) WriteMemory(result, Value(variable.initializer()));
        return true;
      }
      default:
        break;
    }
    const uint8_t kind = inst.opcode < kinds_.size() ? kinds_[inst.opcode] : uint8_t(kOtherOpcode);
    if (kind == kAtomicOpcode) {
      Raise(value_, result, kVaries);
      WriteMemory(RootOf(AtomicView(inst).pointer()), kVaries);
      return true;
    }
    // (Not a read the result depends on: a divergent result can rise no further.)
    if (!result || (result < bound_ && value_.level[result] == kVaries)) return true;
    if (dimensions_->ExtractsShared(inst)) return true;
    const bool pure =
        kind == kPureOpcode || (inst.opcode == spv::OpExtInst && glsl_std450_ &&
                                ExtInstView(inst).set() == glsl_std450_ && !in_.classes.Of(inst));
    Raise(value_, result, pure ? JoinedOperands(inst) : kVaries);
    return true;
  }

  uint8_t JoinedOperands(const Instruction& inst) {
    uint8_t level = kUniform;
    if (inst.opcode == spv::OpExtInst) {
      for (uint32_t id : ExtInstView(inst).operands()) level = std::max(level, Value(id));
      return level;
    }
    if (HasOnlyIdOperandWords(inst)) {
      for (uint32_t id : inst.words) level = std::max(level, Value(id));
      return level;
    }
    std::string error;
    if (!DecodeOperands(inst, 1, &operands_, &error)) return kVaries;
    for (const Operand& operand : operands_)
      if (operand.is_id) level = std::max(level, Value(inst.words[operand.first_word]));
    return level;
  }

  const CoarseProofInputs& in_;
  const std::vector<uint8_t>& kinds_ = OpcodeKinds();
  Module& module_;
  const uint32_t bound_;
  std::vector<const Instruction*> definitions_;
  uniformity_detail::StorageDecorations decorations_;
  uint32_t glsl_std450_ = 0;
  uint32_t entry_function_ = 0;
  std::optional<WorkgroupDimensions> dimensions_;  // the entry point's
  std::vector<Function*> functions_;
  std::vector<std::optional<FunctionPlan>> plans_;  // functions_' plans, made when first walked
  std::vector<uint8_t> tolerated_;                  // by function id (Tolerated)
  std::vector<uint32_t> controlled_;                // label ids, BlockPlan ranges
  // Levels by id: a value's; a block's control and its branch condition's (by label);
  // a function's entry and return; a memory class's (by its representative).
  Levels value_, control_, condition_, entry_, return_, memory_;
  uint8_t round_ = 0;             // this entry point's rounds, counted from 1 (read_in)
  std::vector<uint8_t> allowed_;  // by label: the most divergent control its needs tolerate
  std::vector<uint32_t> parent_;  // memory classes (union-find)
  bool changed_ = false;
  OperandList operands_;
};

}  // namespace

CoarseProofResult ProveNothingToReport(const CoarseProofInputs& inputs) {
  return CoarseProof(inputs).Run();
}

}  // namespace glint::spirv
