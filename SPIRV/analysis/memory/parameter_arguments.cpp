#include "SPIRV/analysis/memory/parameter_arguments.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

// True when `user`, using the parameter as operand `word`, only reads what it points to:
// the pointer of OpLoad, or the base of an access chain with constant indices whose
// result is only loaded (a part read by a path known at compile time).
bool ParameterArguments::OnlyReads(const Instruction& user, uint32_t word) const {
  if (user.opcode == spv::OpLoad) return word == 0;
  if (user.opcode != spv::OpAccessChain && user.opcode != spv::OpInBoundsAccessChain) return false;
  AccessChainView chain(user);
  uint64_t value = 0;
  if (word != 0) return false;  // the parameter as an index is not a pointer use
  for (uint32_t index : chain.indices())
    if (!def_use_.IntConstant(index, &value)) return false;
  for (const Use& use : def_use_.Uses(user.result_id))
    if (def_use_.BlockOf(use.user) && (use.user->opcode != spv::OpLoad || use.word != 0))
      return false;
  return true;
}

const CallArguments& ParameterArguments::Of(const Instruction& parameter) {
  auto found = found_.find(&parameter);
  if (found == found_.end()) found = found_.emplace(&parameter, Find(parameter)).first;
  return found->second;
}

CallArguments ParameterArguments::Find(const Instruction& parameter) {
  CallArguments found;
  size_t position = 0;
  const Function* callee = calls_.ParameterOwner(parameter, &position);
  for (const Use& use : def_use_.Uses(parameter.result_id))  // names and decorations aside
    if (def_use_.BlockOf(use.user) && !OnlyReads(*use.user, use.word))
      found.reason = "the parameter is not only loaded in its function";
  if (!callee || !found.reason.empty()) {
    if (found.reason.empty()) found.reason = "parameter of an unknown function";
    return found;
  }
  for (const CallGraph::Call* call : calls_.CallsOf(callee->id())) {
    const Instruction* store = ArgumentStore(*call->call, position, &found.reason);
    if (!store) break;
    found.values.push_back(StoreView(*store).object());
    found.stores.push_back(store);
  }
  if (found.values.empty() && found.reason.empty()) found.reason = "function is never called";
  if (!found.reason.empty()) found.values.clear(), found.stores.clear();
  return found;
}

// The one store that fills argument `position` of `call` (see the header), or null
// with `why` set.
const Instruction* ParameterArguments::ArgumentStore(const Instruction& call, size_t position,
                                                     std::string* why) {
  FunctionCallView view(call);
  const Instruction* variable = position < view.arguments().size()
                                    ? def_use_.Definition(view.arguments()[position])
                                    : nullptr;
  *why = "an argument is not a local stored once right before the call";
  if (!variable || variable->opcode != spv::OpVariable ||
      VariableView(*variable).storage_class() != spv::StorageClassFunction)
    return nullptr;
  const Instruction* store = nullptr;
  int calls = 0;
  for (const Use& use : def_use_.Uses(variable->result_id)) {
    calls += use.user == &call;
    if (!def_use_.BlockOf(use.user) || use.user == &call ||
        (use.user->opcode == spv::OpLoad && use.word == 0))
      continue;
    if (use.user->opcode != spv::OpStore || use.word != 0 || store) return nullptr;
    store = use.user;
  }
  if (!store || calls != 1 || def_use_.BlockOf(store) != def_use_.BlockOf(&call) ||
      positions_.Of(store) > positions_.Of(&call))
    return nullptr;
  why->clear();
  return store;
}

}  // namespace glint::spirv
