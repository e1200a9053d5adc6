// Uniformity analysis, call sites: the result of a call computed from that call's own
// arguments instead of the join of every call site's (parameters are context-insensitive
// in the fixed point). Proves: a one-block helper without variables, stores, calls or
// sources returns at most the join of what it reads at this call. Refuses (nullopt, so
// the joined result is used) any other callee.
#include "SPIRV/analysis/uniformity_internal.h"

namespace glint::spirv {
namespace uniformity_detail {

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

}  // namespace uniformity_detail
}  // namespace glint::spirv
