// One-block helpers (uniformity_call_sites.cpp's first rule; see one_block_helpers.h).
#include "SPIRV/analysis/uniformity/one_block_helpers.h"

#include <unordered_map>

namespace glint::spirv {
namespace uniformity_detail {

namespace {

// A helper's load: through a pointer parameter, the caller's memory at this call; from
// a pointer defined outside the helper, the load's own level (it does not depend on
// the helper's parameters). nullopt for pointers computed inside the helper and for
// Workgroup memory.
std::optional<Fact> HelperLoad(const UniformitySolver& solver, const BarrierPhases* phases,
                               const Instruction& load,
                               const std::unordered_map<uint32_t, uint32_t>& pointer_args,
                               const Block& block, const Instruction& call) {
  const ModuleFacts& facts = solver.facts();
  uint32_t pointer = LoadView(load).pointer();
  auto argument = pointer_args.find(pointer);
  if (argument != pointer_args.end()) {
    uint32_t root = facts.RootOf(argument->second);
    Fact memory = solver.MemoryFact(root);
    return Fact{memory.level, root ? MakeCause(Cause::kLoad, root, &block, &call) : memory.cause};
  }
  if (facts.def_use.FunctionOf(facts.def_use.Definition(pointer))) return std::nullopt;
  // A shared load's phase depends on the barriers before this call: a call context.
  if (phases && phases->WorkgroupRoot(pointer)) return std::nullopt;
  const Fact* fact = solver.proven().ValueFact(load.result_id);
  return fact ? *fact : Fact{};
}

}  // namespace

// The result of a call of a small helper, from this call's own arguments rather than
// the join of every call site's (parameters are context-insensitive otherwise): for a
// callee of one block that returns a value, with no variables, stores, calls or
// instructions whose level does not follow from their operands, and that loads only
// through its pointer parameters or from memory outside it. nullopt for other callees.
std::optional<Fact> OneBlockHelperResult(const UniformitySolver& solver,
                                         const BarrierPhases* phases, const Function& callee,
                                         const Block& block, const Instruction& call) {
  const ModuleFacts& facts = solver.facts();
  const ProvenLevels& proven = solver.proven();
  if (callee.blocks.size() != 1 ||
      FunctionCallView(call).arguments().size() < callee.parameters.size())
    return std::nullopt;
  std::unordered_map<uint32_t, Fact> local;
  std::unordered_map<uint32_t, uint32_t> pointer_args;  // pointer parameter -> argument
  ForEachArgument(callee, call, [&](const Instruction& parameter, uint32_t argument) {
    if (facts.IsPointer(parameter))
      pointer_args[parameter.result_id] = argument;
    else
      local[parameter.result_id] = {proven.Value(argument),
                                    MakeCause(Cause::kParameter, argument, &block, &call)};
  });
  auto level_of = [&](uint32_t id) {
    auto found = local.find(id);
    return found != local.end() ? found->second
                                : Fact{proven.Value(id), MakeCause(Cause::kOperand, id)};
  };
  for (const Instruction& inst : callee.blocks.front().instructions) {
    if (inst.opcode == spv::OpLine || inst.opcode == spv::OpNoLine) continue;
    if (inst.opcode == spv::OpReturnValue) return level_of(ReturnValueView(inst).value());
    if (!facts.FollowsFromOperands(inst)) return std::nullopt;
    if (inst.opcode == spv::OpLoad) {
      std::optional<Fact> loaded = HelperLoad(solver, phases, inst, pointer_args, block, call);
      if (!loaded) return std::nullopt;
      local[inst.result_id] = *loaded;
      continue;
    }
    Fact joined;
    // As the solver's transfer: a shared component of a built-in (workgroup_dimensions.h).
    if (solver.dimensions().ExtractsShared(inst)) {
      local[inst.result_id] = joined;
      continue;
    }
    for (uint32_t id : facts.OperandsOf(inst)) {
      Fact operand = level_of(id);
      RaiseLocal(joined, operand.level, operand.cause);
    }
    local[inst.result_id] = joined;
  }
  return std::nullopt;
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
