// Uniformity analysis, call sites: the result of a call computed from that call's own
// arguments instead of the join of every call site's (parameters are context-insensitive
// in the fixed point), so a helper called once with a per-invocation argument does not
// make every other call of it non-uniform.
//
// Two rules, the first that applies:
//   one-block helpers  a callee of one block without variables, stores, calls or sources
//                      returns at most the join of what it reads at this call (evaluated
//                      directly, no fixed point: one_block_helpers.h).
//   call contexts      any other callee whose result is non-uniform, where this call's
//                      control or one of its arguments is more uniform than the joined
//                      call sites': a fresh UniformitySolver of the callee and what it
//                      calls, seeded with this call's argument levels and control, run to
//                      its own fixed point. Its result is the call's.
// Why the context is sound: it reads from the caller only what the callee's instructions
// can see - the argument levels, the call's control, module-scope memory and pointer
// bindings (copied: they already hold every write anywhere, this callee's included, so
// they are at least what any call sees), and the barrier phases and lane analysis of the
// entry point (properties of the module). Everything else is computed inside, for this
// call's subtree of functions only. The context's result (a level) is cached per call
// with those inputs, by content: the context's depth, the argument levels, the control,
// the roots each pointer argument stands for (its alias list through the bindings) with
// their memory levels, and the memory levels of the module-scope variables the subtree's
// functions name (its own variables and parameters start fresh). A context reads nothing
// else of its caller but the caller's control at barriers, and a result that read it is
// not kept; so a kept result is what a run would give. The cache is shared by every
// solver of the entry point, so the contexts of a context are not run again when it is.
// Inputs that cannot change the result are left out of the key, so that equal contexts
// are run once:
//   - which call: a context reads it only where its subtree loads shared memory (the
//     barrier phases judge such a load by the barriers before the call); results of
//     other callees are kept per callee, shared by all its calls (a helper called from
//     many places with uniform arguments is analysed once, not once per call);
//   - the depth, where it refuses nothing: a context at depth d of a callee whose calls
//     nest h deep below it runs contexts down to depth d + h, all allowed when
//     d + h <= kMaxContextDepth, so then every such depth gives one result;
//   - which Function variable of the caller side a pointer argument reaches (glslang
//     passes each argument through a temporary of its own): the subtree cannot name it,
//     so it reads only its level (kept) and which arguments share it (kept, by its first
//     place in the lists). Other roots (module-scope variables, parameters) keep their
//     ids: the subtree may name them or read their storage.
// The caller's last round saw every context computed from its final facts.
// Bounded: contexts nest at most kMaxContextDepth deep and an entry point runs at most
// kContextRunBudget of them (call_contexts.h keeps the budget and the results); past either, or
// where a context misses its round budget, the call takes the joined result (sound, less precise;
// nothing is refused).
#include "SPIRV/analysis/uniformity/uniformity_internal.h"

#include <algorithm>

namespace glint::spirv {
namespace uniformity_detail {

// Whether analysing `callee` for this call alone may give less than the joined result:
// the callee returns a non-uniform value, and this call's control or an argument is more
// uniform than the joined call sites', or the callee loads shared memory (whose phase
// depends on the barriers before this call).
bool UniformitySolver::ContextMayHelp(const Function& callee, const Instruction& call,
                                      const Fact& control) const {
  const Fact* returned = proven_.ReturnFact(callee.id());
  if (!returned || returned->level == Divergence::kUniform) return false;
  reads_.Note(FactKind::kEntry, callee.id());
  const Fact* entry = entries_.Find(callee.id());
  if (entry && control.level < entry->level) return true;
  // A shared load in the callee is judged by the barriers before this call alone there,
  // but only in workgroup-uniform control of the scope partition: in non-uniform control
  // (every block of the subtree is at least as non-uniform as the call) and in the lane
  // partition such a load is divergent in the context as in the joined fixed point, so a
  // context would see what the joined fixed point sees. (Calls inside the subtree whose
  // own arguments are more uniform get contexts of their own in both.)
  if ((phases_ && facts_.LoadsWorkgroupMemory(callee, *phases_)) &&
      partition_ == Partition::kScope && control.level == Divergence::kUniform)
    return true;
  bool helps = false;
  ForEachArgument(callee, call, [&](const Instruction& parameter, uint32_t argument) {
    helps = helps || proven_.Value(argument) < proven_.Value(parameter.result_id) ||
            // glslang passes GLSL parameters as pointers to temporaries: compare what they hold.
            (facts_.IsPointer(parameter) &&
             MemoryFact(facts_.RootOf(argument)).level < MemoryFact(parameter.result_id).level);
  });
  return helps;
}

// What a context of `callee` for `call` reads from this solver (CallContexts::Inputs).
CallContexts::Inputs UniformitySolver::ContextInputsOf(const Function& callee,
                                                       const Instruction& call,
                                                       Divergence control) const {
  // The depth matters only where some context below would be refused for it.
  const int depth = context_depth_ + 1;
  const bool deep_enough = depth + facts_.CallHeight(callee.id()) <= kMaxContextDepth;
  CallContexts::Inputs inputs{deep_enough ? 0 : depth, {}, control, {}, {}};
  for (uint32_t argument : FunctionCallView(call).arguments())
    inputs.arguments.push_back(proven_.Value(argument));
  // A Function variable of the caller side (a parameter's temporary, mostly) is reached
  // in the subtree only through these pointers: what the context reads of it is its level
  // (in `memory`) and which pointers share it, so it is named by its first place here.
  std::vector<uint32_t> locals;
  auto name_of = [&](uint32_t root) {
    const Instruction* variable = facts_.def_use.Definition(root);
    if (!variable || variable->opcode != spv::OpVariable ||
        VariableView(*variable).storage_class() != spv::StorageClassFunction)
      return root;
    auto place = std::find(locals.begin(), locals.end(), root);
    if (place == locals.end()) place = locals.insert(locals.end(), root);
    return CallContexts::kCallerLocal | static_cast<uint32_t>(place - locals.begin());
  };
  ForEachArgument(callee, call, [&](const Instruction& parameter, uint32_t argument) {
    if (!facts_.IsPointer(parameter)) return;
    uint32_t root = facts_.RootOf(argument);
    if (root) {
      ForEachAliasedRoot(root, [&](uint32_t aliased) {
        inputs.alias_lists.push_back(name_of(aliased));
        reads_.Note(FactKind::kMemory, aliased);
        const Fact* fact = memory_.Find(aliased);
        inputs.memory.push_back(fact ? fact->level : Divergence::kUniform);
      });
    }
    inputs.alias_lists.push_back(0);
  });
  for (uint32_t variable : facts_.ModuleVariablesReached(callee.id())) {
    reads_.Note(FactKind::kMemory, variable);
    const Fact* fact = memory_.Find(variable);
    inputs.memory.push_back(fact ? fact->level : Divergence::kUniform);
  }
  return inputs;
}

std::optional<Fact> UniformitySolver::ContextResult(Function& callee, const Block& block,
                                                    const Instruction& call, const Fact& control) {
  if (context_depth_ >= kMaxContextDepth || !ContextMayHelp(callee, call, control))
    return std::nullopt;
  CallContexts::Inputs inputs = ContextInputsOf(callee, call, control.level);
  // Only a shared load reads which call this is (the barriers before it); without one,
  // equal inputs give equal results from any call, which share them.
  const Instruction* key =
      (phases_ && facts_.LoadsWorkgroupMemory(callee, *phases_)) ? &call : &callee.definition;
  if (std::optional<Divergence> known = contexts_->Known(key, inputs))
    return Fact{*known, MakeCause(Cause::kCallResult, callee.id(), &block, &call)};
  if (!contexts_->StartRun()) return std::nullopt;
  UniformitySolver context(*this, callee, call, control.level);
  uint32_t rounds = 0;
  bool finished = context.Run(&rounds).empty();
  contexts_->Ran(rounds);
  if (!finished) return std::nullopt;
  Divergence level = context.proven_.returns[callee.id()].level;
  if (context.read_caller_control_)
    ++uncached_context_runs_;
  else
    contexts_->Keep(key, std::move(inputs), level);
  return Fact{level, MakeCause(Cause::kCallResult, callee.id(), &block, &call)};
}

UniformitySolver::UniformitySolver(const UniformitySolver& caller, Function& callee,
                                   const Instruction& call, Divergence control)
    : facts_(caller.facts_), options_(caller.options_) {
  contexts_ = caller.contexts_;
  proven_.value_levels = contexts_->TakeUniformLevels(facts_.module.header.bound);
  proven_.reads = &reads_;
  model_ = caller.model_;
  entry_name_ = caller.entry_name_;
  memory_.Over(&caller.memory_);
  bindings_.Over(&caller.bindings_);
  phases_ = caller.phases_;
  partition_ = caller.partition_;
  lanes_ = caller.lanes_;
  context_depth_ = caller.context_depth_ + 1;
  caller_ = &caller;
  context_call_ = &call;
  reached_ = ReachedFunctions(facts_.calls, callee.id());
  one_subgroup_ = caller.one_subgroup_;  // the callee's blocks are among the caller's
  dimensions_ = caller.dimensions_;      // the entry point's workgroup
  ForgetSubtreeMemory();
  Raise(FactKind::kEntry, callee.id(), entries_[callee.id()], control,
        MakeCause(Cause::kCallSite, 0, facts_.def_use.BlockOf(&call), &call));
  ForEachArgument(callee, call, [&](const Instruction& parameter, uint32_t argument) {
    RaiseValue(parameter.result_id, caller.proven().Value(argument),
               MakeCause(Cause::kParameter, argument, nullptr, &call));
    if (facts_.IsPointer(parameter)) {
      bindings_.Writable(parameter.result_id) = {facts_.RootOf(argument)};
      ++bindings_version_;
    }
  });
}

// A call context gives its table of value levels back, uniform again, for the next
// context: it raised few of them (proven_.values holds each one it raised).
UniformitySolver::~UniformitySolver() {
  if (!caller_) return;
  std::vector<Divergence>& levels = proven_.value_levels;
  proven_.values.ForEachKey([&levels](uint32_t id) {
    if (id < levels.size()) levels[id] = Divergence::kUniform;
  });
  contexts_->GiveBackUniformLevels(std::move(levels));
}

// Within one call, the subtree's parameters are bound only by calls inside it and its
// own variables are fresh: what the caller joined for them over every call site is
// dropped, and the context's own rounds raise them again. The caller's variables (what
// this call's pointer arguments point to) keep the caller's facts.
void UniformitySolver::ForgetSubtreeMemory() {
  for (const Function* function : reached_.list()) {
    for (const Instruction& parameter : function->parameters) {
      memory_.Drop(parameter.result_id);
      bindings_.Drop(parameter.result_id);
      ++bindings_version_;
    }
    for (const Block& block : function->blocks)
      for (const Instruction& inst : block.instructions)
        if (inst.opcode == spv::OpVariable) memory_.Drop(inst.result_id);
  }
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
