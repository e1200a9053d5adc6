// Uniformity coarse proof: where every block that holds a uniform-control instruction (or a
// call of a function holding one) runs in uniform control by a coarse fixed point, the
// uniformity analysis (uniformity.h) has nothing to report, and is not built.
//
// Why: engines' compute kernels put barriers and cooperative-matrix operations in loops
// whose bounds come from push constants and specialization constants. The analysis
// proves them uniform and reports nothing, but its module facts, value flow, relevance
// and solver cost up to half of glslang's own compile on them. This proof is one pass
// per round over the instructions with a bit per id, and no causes.
//
// What it computes, per entry point, one bit "may vary" per value, block, function entry,
// function return and memory class, as a least fixed point (bits only rise):
//   values   constants and types never vary. A result of an arithmetic, bitwise,
//            relational, logical, conversion or composite instruction, an access chain,
//            a copy, a select, an image/sampler handle or size query, or a GLSL.std.450
//            instruction varies when an id operand varies (when its convergence class is
//            empty); a parameter when an argument at some call site does; a call's
//            result when its callee's return does; a load when its pointer does or its
//            memory class does (a pointer the proof cannot trace: always). Every other
//            result varies (atomics, cross-thread operations, image reads, OpUndef, ...).
//   phis     vary when an incoming value does, or an incoming block's control or its own
//            branch condition does.
//   memory   a class per variable, pointer parameters joined with every caller variable
//            passed to them (union-find). Classes start as the storage class says (uniform
//            only: uniform and push-constant blocks, NonWritable buffers, UniformConstant,
//            Private, Function, the uniform built-ins the analysis names, a mesh shader's
//            task payload) and vary once a store, copy or initializer writes a varying
//            value or address or runs in varying control, or an atomic writes them.
//            Workgroup memory always varies.
//   control  a block varies when its function's entry does (any call of it in varying
//            control), or a branch or switch it is control dependent on (the analysis's
//            post-dominator walk from each successor of a block with two or more distinct
//            targets) has a varying condition or varying control.
//   returns  vary when a returned value or the return's control does.
//
// Why it suffices: each rule gives at least the level the analysis's rule gives
// (uniformity_transfer.cpp, uniformity_memory.cpp, uniformity_sources.cpp), with "varies"
// above every non-uniform level: the analysis's sources are a subset of the results
// that always vary here; its flow-sensitive locals, forwarded parameter loads, barrier
// phases for shared memory, call contexts, lane analysis, one-subgroup blocks and
// assume-uniform filter only lower levels below the flow-insensitive, context-insensitive
// join computed here; its local control (call sites left out) is at most the control
// here, which includes the entry. So by induction over the rounds every level of the
// analysis is at most the bit here. The analysis reports an instruction only where its
// block's control within its function, or the control of a call site of its function
// (transitively), is above uniform; control here covers both, since a function's entry
// varies as soon as one call site's block does. A callee that may kill the invocation
// (OpKill, OpTerminateInvocation) in varying control makes the proof give up, as does a
// phi with an unreachable conditional predecessor (whose condition the analysis reads).
//
// What it does not prove: anything where a need's block varies here. Those modules,
// including every one with a finding, go to the analysis, which decides; the proof only
// moves cost. It gives up (the analysis decides) on unclassified instructions, missing
// operands and past its round budget. Like uniformity_screen.h, a module it proves gets
// no note if the analysis would have refused for its own round budget.
#include "SPIRV/analysis/uniformity_coarse_proof.h"

#include <cstring>
#include <stdexcept>
#include <vector>

#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/operands.h"

namespace glint::spirv {
namespace {

// Bits per id. Value, label, function and variable ids are distinct, so one byte per id
// holds all of them.
enum : uint8_t {
  kValueVaries = 1,        // a value
  kControlVaries = 2,      // a block (by label id)
  kBranchVaries = 4,       // a block whose branch condition or control varies
  kEntryVaries = 8,        // a function (by id): some call site's control varies
  kReturnVaries = 16,      // a function: some returned value or return control varies
  kMemoryVaries = 32,      // a memory class (by its representative id)
  kHoldsNeed = 64,         // a block holding a uniform-control instruction or such a call
  kUnreachableBranch = 128 // an unreachable block ending in a conditional branch or switch
};

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
                       spv::OpArrayLength, spv::OpSampledImage, spv::OpImage,
                       spv::OpImageQuerySize, spv::OpImageQuerySizeLod, spv::OpImageQueryLevels,
                       spv::OpImageQuerySamples})
      if (unclassed(op)) set(op, kPureOpcode);
    return kinds;
  }();
  return kKinds;
}

class CoarseProof {
 public:
  explicit CoarseProof(const CoarseProofInputs& inputs)
      : in_(inputs), module_(inputs.module), bound_(inputs.module.header.bound) {}

  CoarseProofResult Run() {
    CoarseProofResult result;
    if (!in_.classes.ok()) return result;
    IndexModule();
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

  // --- set-up shared by every entry point ---

  void IndexModule() {
    definitions_.assign(bound_, nullptr);
    auto define = [&](const Instruction& inst) {
      if (inst.result_id && inst.result_id < bound_) definitions_[inst.result_id] = &inst;
    };
    for (const Instruction& inst : module_.types_values) define(inst);
    for (const Instruction& inst : module_.ext_inst_imports) {
      define(inst);
      if (!glsl_std450_ && ExtInstImportView(inst).name() == "GLSL.std.450")
        glsl_std450_ = inst.result_id;
    }
    for (const Function& function : module_.functions) {
      for (const Instruction& parameter : function.parameters) define(parameter);
      for (const Block& block : function.blocks)
        for (const Instruction& inst : block.instructions) define(inst);
    }
    std::vector<uint32_t> non_writable_members(bound_, 0);
    for (const Instruction& inst : module_.annotations) {
      if (auto member = ViewIf<MemberDecorateView>(inst)) {
        if (member->decoration() == spv::DecorationNonWritable &&
            member->structure() < bound_)
          ++non_writable_members[member->structure()];
        continue;
      }
      auto decorate = ViewIf<DecorateView>(inst);
      if (!decorate || decorate->target() >= bound_) continue;
      if (decorate->decoration() == spv::DecorationNonWritable)
        non_writable_variables_.push_back(decorate->target());
      if (decorate->decoration() == spv::DecorationBufferBlock)
        buffer_blocks_.push_back(decorate->target());
    }
    for (uint32_t id = 0; id < bound_; ++id) {
      const Instruction* type = definitions_[id];
      if (non_writable_members[id] && type && type->opcode == spv::OpTypeStruct &&
          non_writable_members[id] >= TypeStructView(*type).member_count())
        non_writable_structs_.push_back(id);
    }
  }

  const Instruction* Definition(uint32_t id) const {
    return id < bound_ ? definitions_[id] : nullptr;
  }

  static bool Contains(const std::vector<uint32_t>& ids, uint32_t id) {
    for (uint32_t each : ids)
      if (each == id) return true;
    return false;
  }

  // The type a variable points to, arrays stripped (as the analysis's PointeeElement).
  const Instruction* PointeeElement(const Instruction& variable) const {
    const Instruction* pointer_type = Definition(variable.type_id);
    if (!pointer_type || pointer_type->opcode != spv::OpTypePointer) return nullptr;
    const Instruction* pointee = Definition(TypePointerView(*pointer_type).pointee());
    for (int depth = 0; pointee && depth < 64; ++depth) {
      if (pointee->opcode == spv::OpTypeArray)
        pointee = Definition(TypeArrayView(*pointee).element_type());
      else if (pointee->opcode == spv::OpTypeRuntimeArray)
        pointee = Definition(TypeRuntimeArrayView(*pointee).element_type());
      else
        return pointee;
    }
    return nullptr;
  }

  // The variable or pointer parameter a pointer points into; 0 when not traced.
  uint32_t RootOf(uint32_t pointer) const {
    for (int depth = 0; depth <= 64; ++depth) {
      const Instruction* def = Definition(pointer);
      if (!def) return 0;
      switch (def->opcode) {
        case spv::OpVariable:
        case spv::OpFunctionParameter:
          return def->result_id;
        case spv::OpAccessChain:
        case spv::OpInBoundsAccessChain:
        case spv::OpPtrAccessChain:
        case spv::OpInBoundsPtrAccessChain:
        case spv::OpCopyObject:
          pointer = def->words.at(0);
          break;
        default:
          return 0;
      }
    }
    return 0;
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
    bits_[a] |= bits_[b] & kMemoryVaries;
  }

  // Whether a module-scope variable's memory may vary before any store, for `model`.
  bool StartsVarying(const Instruction& variable, spv::ExecutionModel model) const {
    const uint32_t id = variable.result_id;
    const Instruction* pointee = PointeeElement(variable);
    // As the analysis's IsNonWritable: the variable decorated, or every member of its
    // block decorated.
    bool non_writable = Contains(non_writable_variables_, id) ||
                        (pointee && pointee->opcode == spv::OpTypeStruct &&
                         Contains(non_writable_structs_, pointee->result_id));
    switch (VariableView(variable).storage_class()) {
      case spv::StorageClassUniform:
        if (!(pointee && Contains(buffer_blocks_, pointee->result_id))) return false;
        return !non_writable;
      case spv::StorageClassStorageBuffer:
        return !non_writable;
      case spv::StorageClassUniformConstant:
      case spv::StorageClassPushConstant:
      case spv::StorageClassPrivate:
      case spv::StorageClassFunction:
        return false;
      case spv::StorageClassTaskPayloadWorkgroupEXT:
        return model != spv::ExecutionModelMeshEXT;
      case spv::StorageClassInput:
        return !UniformBuiltIn(id, model);
      default:  // Workgroup, Output and the rest
        return true;
    }
  }

  // The built-ins the analysis takes as uniform over its whole scope
  // (UniformitySolver::BuiltInFact); others vary here.
  bool UniformBuiltIn(uint32_t variable, spv::ExecutionModel model) const {
    std::optional<uint32_t> builtin = in_.builtins.Of(variable);
    if (!builtin) return false;
    switch (*builtin) {
      case spv::BuiltInWorkgroupId:
      case spv::BuiltInNumWorkgroups:
      case spv::BuiltInWorkgroupSize:
      case spv::BuiltInNumSubgroups:
      case spv::BuiltInDrawIndex:
      case spv::BuiltInBaseVertex:
      case spv::BuiltInBaseInstance:
      case spv::BuiltInDeviceIndex:
      case spv::BuiltInViewIndex:
        return true;
      case spv::BuiltInSubgroupSize:
        return model == spv::ExecutionModelGLCompute || model == spv::ExecutionModelKernel;
      case spv::BuiltInPrimitiveId:
      case spv::BuiltInPatchVertices:
        return model == spv::ExecutionModelTessellationControl;
      default:
        return false;
    }
  }

  bool IsPointer(const Instruction& parameter) const {
    const Instruction* type = Definition(parameter.type_id);
    return type && type->opcode == spv::OpTypePointer;
  }

  // --- per entry point ---

  bool ProveEntryPoint(const Instruction& entry_point, uint32_t* rounds) {
    EntryPointInterfaceView view(entry_point);
    const spv::ExecutionModel model = view.model();
    entry_function_ = view.function();
    functions_ = in_.calls.ReachableFrom(entry_function_);
    bits_.assign(bound_, 0);
    parent_.resize(bound_);
    for (uint32_t id = 0; id < bound_; ++id) parent_[id] = id;
    for (const Instruction& inst : module_.types_values)
      if (inst.opcode == spv::OpVariable && inst.result_id < bound_ &&
          StartsVarying(inst, model))
        bits_[inst.result_id] |= kMemoryVaries;
    if (!PlanFunctions()) return false;
    for (uint32_t round = 0;; ++round) {
      if (*rounds >= in_.round_budget) return false;
      ++*rounds;
      changed_ = false;
      for (const FunctionPlan& plan : plans_)
        if (!WalkFunction(plan)) return false;
      if (!changed_) return true;
    }
  }

  // Control dependence, blocks holding needs, and the memory classes pointer parameters
  // join (they do not change between rounds).
  bool PlanFunctions() {
    plans_.clear();
    controlled_.clear();
    for (Function* function : functions_) {
      const Cfg& cfg = in_.cfgs(*function);
      FunctionPlan plan;
      plan.function = function;
      const bool has_needs = (in_.classes.OfFunction(function->id()) & kUniformControl) != 0;
      for (const Block* block : cfg.ReversePostOrder()) {
        BlockPlan step{block, ConditionOf(*block), uint32_t(controlled_.size()),
                       uint32_t(controlled_.size())};
        BlockSpan successors = cfg.Successors(block);
        if (DistinctCount(successors) >= 2) {
          const Block* stop = cfg.ImmediatePostDominator(block);
          for (const Block* runner : successors)
            for (; runner && runner != stop; runner = cfg.ImmediatePostDominator(runner))
              controlled_.push_back(runner->id());
          step.last = uint32_t(controlled_.size());
        }
        if (has_needs && block->id() < bound_)
          for (const Instruction& inst : block->instructions)
            if (in_.classes.Of(inst) & kUniformControl) {
              bits_[block->id()] |= kHoldsNeed;
              break;
            }
        plan.blocks.push_back(step);
      }
      for (const Block& block : function->blocks)
        if (!cfg.IsReachable(&block) && block.id() < bound_ && ConditionOf(block))
          bits_[block.id()] |= kUnreachableBranch;
      plans_.push_back(std::move(plan));
    }
    for (Function* function : functions_)
      for (const Block& block : function->blocks)
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
            if (!parameter.result_id || parameter.result_id >= bound_ || !IsPointer(parameter))
              continue;
            uint32_t root = RootOf(argument);
            if (root)
              Join(parameter.result_id, root);
            else
              bits_[Find(parameter.result_id)] |= kMemoryVaries;
          }
        }
    return true;
  }

  static size_t DistinctCount(BlockSpan successors) {
    size_t distinct = 0;
    for (size_t i = 0; i < successors.size(); ++i) {
      bool seen = false;
      for (size_t j = 0; j < i && !seen; ++j) seen = successors[j] == successors[i];
      if (!seen) ++distinct;
    }
    return distinct;
  }

  static uint32_t ConditionOf(const Block& block) {
    const Instruction* terminator = block.Terminator();
    if (!terminator) return 0;
    if (terminator->opcode == spv::OpBranchConditional)
      return BranchConditionalView(*terminator).condition();
    if (terminator->opcode == spv::OpSwitch) return SwitchView(*terminator).selector();
    return 0;
  }

  // --- the rounds ---

  bool Varies(uint32_t id, uint8_t bit) const { return id < bound_ && (bits_[id] & bit); }
  void Set(uint32_t id, uint8_t bit) {
    if (id >= bound_ || (bits_[id] & bit)) return;
    bits_[id] |= bit;
    changed_ = true;
  }
  bool ValueVaries(uint32_t id) const { return Varies(id, kValueVaries); }
  bool MemoryVaries(uint32_t root) { return !root || (bits_[Find(root)] & kMemoryVaries); }
  void WriteMemory(uint32_t root, bool varies) {
    if (root && varies) Set(Find(root), kMemoryVaries);
  }

  // False where the proof gives up: a need in varying control, or a kill there in a
  // called function.
  bool WalkFunction(const FunctionPlan& plan) {
    const bool entry_varies = Varies(plan.function->id(), kEntryVaries);
    for (const BlockPlan& step : plan.blocks) {
      const uint32_t label = step.block->id();
      if (entry_varies) Set(label, kControlVaries);
      const bool control = Varies(label, kControlVaries);
      if (control && Varies(label, kHoldsNeed)) return false;
      for (const Instruction& inst : step.block->instructions)
        if (!Transfer(*plan.function, inst, control)) return false;
      // A phi reads its incoming block's condition even where both targets are one.
      const bool condition_varies = ValueVaries(step.condition);
      if (condition_varies) Set(label, kBranchVaries);
      if (control || condition_varies)
        for (uint32_t at = step.first; at != step.last; ++at)
          Set(controlled_[at], kControlVaries);
    }
    return true;
  }

  bool Transfer(const Function& function, const Instruction& inst, bool control) {
    const uint32_t result = inst.result_id;
    switch (inst.opcode) {
      case spv::OpFunctionCall: {
        FunctionCallView call(inst);
        const Function* callee = in_.calls.FunctionById(call.callee());
        if (!callee) {
          Set(result, kValueVaries);
          return true;
        }
        if (control) Set(callee->id(), kEntryVaries);
        auto arguments = call.arguments();
        size_t index = 0;
        for (const Instruction& parameter : callee->parameters) {
          if (index >= arguments.size()) break;
          if (ValueVaries(arguments[index++]) && parameter.result_id)
            Set(parameter.result_id, kValueVaries);
        }
        if (Varies(callee->id(), kReturnVaries)) Set(result, kValueVaries);
        return true;
      }
      case spv::OpPhi: {
        PhiView phi(inst);
        for (size_t pair = 0; pair < phi.pair_count(); ++pair)
          if (ValueVaries(phi.value(pair)) ||
              Varies(phi.parent(pair), kControlVaries | kBranchVaries | kUnreachableBranch)) {
            Set(result, kValueVaries);
            break;
          }
        return true;
      }
      case spv::OpReturnValue:
        if (control || ValueVaries(ReturnValueView(inst).value()))
          Set(function.id(), kReturnVaries);
        return true;
      case spv::OpKill:
      case spv::OpTerminateInvocation:
        // The analysis carries a called function's kill into its callers' control.
        return !(control && function.id() != entry_function_);
      case spv::OpLoad: {
        LoadView load(inst);
        if (ValueVaries(load.pointer()) || MemoryVaries(RootOf(load.pointer())))
          Set(result, kValueVaries);
        return true;
      }
      case spv::OpStore: {
        StoreView store(inst);
        WriteMemory(RootOf(store.pointer()),
                    control || ValueVaries(store.object()) || ValueVaries(store.pointer()));
        return true;
      }
      case spv::OpCopyMemory:
      case spv::OpCopyMemorySized: {
        CopyMemoryView copy(inst);
        WriteMemory(RootOf(copy.target()), control || MemoryVaries(RootOf(copy.source())));
        return true;
      }
      case spv::OpVariable: {
        VariableView variable(inst);
        if (variable.has_initializer())
          WriteMemory(result, ValueVaries(variable.initializer()));
        return true;
      }
      default:
        break;
    }
    const std::vector<uint8_t>& kinds = OpcodeKinds();
    const uint8_t kind = inst.opcode < kinds.size() ? kinds[inst.opcode] : kOtherOpcode;
    if (kind == kAtomicOpcode) {
      Set(result, kValueVaries);
      WriteMemory(RootOf(AtomicView(inst).pointer()), true);
      return true;
    }
    if (!result || Varies(result, kValueVaries)) return true;
    const bool pure = kind == kPureOpcode ||
                      (inst.opcode == spv::OpExtInst && glsl_std450_ &&
                       ExtInstView(inst).set() == glsl_std450_ && !in_.classes.Of(inst));
    if (!pure || AnyOperandVaries(inst)) Set(result, kValueVaries);
    return true;
  }

  bool AnyOperandVaries(const Instruction& inst) {
    if (inst.opcode == spv::OpExtInst) {
      for (uint32_t id : ExtInstView(inst).operands())
        if (ValueVaries(id)) return true;
      return false;
    }
    if (HasOnlyIdOperandWords(inst)) {
      for (uint32_t id : inst.words)
        if (ValueVaries(id)) return true;
      return false;
    }
    std::string error;
    if (!DecodeOperands(inst, 1, &operands_, &error)) return true;
    for (const Operand& operand : operands_)
      if (operand.is_id && ValueVaries(inst.words[operand.first_word])) return true;
    return false;
  }

  const CoarseProofInputs& in_;
  Module& module_;
  const uint32_t bound_;
  std::vector<const Instruction*> definitions_;
  std::vector<uint32_t> non_writable_variables_, non_writable_structs_, buffer_blocks_;
  uint32_t glsl_std450_ = 0;
  uint32_t entry_function_ = 0;
  std::vector<Function*> functions_;
  std::vector<FunctionPlan> plans_;
  std::vector<uint32_t> controlled_;  // label ids, BlockPlan ranges
  std::vector<uint8_t> bits_;
  std::vector<uint32_t> parent_;
  bool changed_ = false;
  OperandList operands_;
};

}  // namespace

CoarseProofResult ProveNothingToReport(const CoarseProofInputs& inputs) {
  try {
    return CoarseProof(inputs).Run();
  } catch (const std::out_of_range&) {
    return {};  // an instruction lacks an operand: the analysis refuses by name
  }
}

}  // namespace glint::spirv
