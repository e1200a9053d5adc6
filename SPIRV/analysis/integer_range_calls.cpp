// Parameters across calls (full mode). glslang does not inline: it passes every `in`
// parameter as a pointer to a Function variable of the caller (`param`), stores the
// argument there right before OpFunctionCall, and the callee loads it through its
// OpFunctionParameter.
//
// What it proves: a load through a parameter pointer lies in the union, over every
// call site of its function, of the range of the value stored into the argument
// variable, taken at that store (so a guard around the call narrows it:
// `if (i < 8u) f(i)`).
//
// Why it holds: the callee uses the parameter only as the pointer of OpLoad, so it
// never changes what it points to; in the caller the argument is a Function variable
// whose only store is in the call's block before the call, whose only call is this
// one, and whose other uses are loads, so at the call it holds the value of that
// store's latest execution, and nothing writes it during the call. SPIR-V has no
// indirect calls, so the OpFunctionCall uses of the function are all its callers.
//
// Guards: every load of such a parameter reads the same value, so the loads are one
// canonical value (the parameter's id) for the facts of range_guards.h: a test on one
// load narrows the others.
//
// Refuses, naming why: a parameter that its function stores through, indexes or passes
// on ("the parameter is not only loaded in its function"); a function never called; an
// argument that is not such a variable (written elsewhere, passed to two calls, stored
// in another block, a debug-info or any other use); more than kMaxCallSites call sites
// (a budget that names itself). Recursion cannot occur in valid SPIR-V; were it met,
// the evaluation driver would see a cyclic definition and give no range.
#include "integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

const CallArguments& IntegerRangeAnalysis::Evaluator::ArgumentsOf(const Instruction& parameter) {
  auto found = call_arguments_.find(parameter.result_id);
  if (found == call_arguments_.end())
    found = call_arguments_.emplace(parameter.result_id, FindArguments(parameter)).first;
  return found->second;
}

CallArguments IntegerRangeAnalysis::Evaluator::FindArguments(const Instruction& parameter) {
  CallArguments found;
  const Function* callee = nullptr;
  size_t position = 0;
  for (const Function& function : module_.functions) {
    size_t index = 0;
    for (const Instruction& candidate : function.parameters) {
      if (&candidate == &parameter) callee = &function, position = index;
      ++index;
    }
  }
  for (const Use& use : def_use_.Uses(parameter.result_id))  // names and decorations aside
    if (def_use_.BlockOf(use.user) && (use.user->opcode != spv::OpLoad || use.word != 0))
      found.reason = "the parameter is not only loaded in its function";
  if (!callee || !found.reason.empty()) {
    if (found.reason.empty()) found.reason = "parameter of an unknown function";
    return found;
  }
  for (const Use& use : def_use_.Uses(callee->id())) {
    if (use.user->opcode != spv::OpFunctionCall || use.word != 0) continue;
    if (found.values.size() == kMaxCallSites) {
      found.reason = "function has more than 64 call sites (budget kMaxCallSites)";
      break;
    }
    const Instruction* store = ArgumentStore(*use.user, position, &found.reason);
    if (!store) break;
    found.values.push_back(StoreView(*store).object());
    found.stores.push_back(store);
  }
  if (found.values.empty() && found.reason.empty()) found.reason = "function is never called";
  if (!found.reason.empty()) found.values.clear(), found.stores.clear();
  return found;
}

// The one store that fills argument `position` of `call` (see the file comment), or
// null with `why` set.
const Instruction* IntegerRangeAnalysis::Evaluator::ArgumentStore(const Instruction& call,
                                                                  size_t position,
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
  for (const Use& use : def_use_.Uses(variable->result_id)) {
    if (!def_use_.BlockOf(use.user) || use.user == &call ||
        (use.user->opcode == spv::OpLoad && use.word == 0))
      continue;
    if (use.user->opcode != spv::OpStore || use.word != 0 || store) return nullptr;
    store = use.user;
  }
  int calls = 0;
  for (const Use& use : def_use_.Uses(variable->result_id)) calls += use.user == &call;
  if (!store || calls != 1 || def_use_.BlockOf(store) != def_use_.BlockOf(&call) ||
      PositionInBlock(store) > PositionInBlock(&call))
    return nullptr;
  why->clear();
  return store;
}

// The parameter `load` reads when it is followed here (ArgumentsOf succeeds): then no
// instruction writes what it points to while the function runs, so every load of it
// reads one value (Canonical, for guards); null otherwise.
const Instruction* IntegerRangeAnalysis::Evaluator::LoadedParameter(const Instruction& load) {
  if (!Full() || load.opcode != spv::OpLoad) return nullptr;
  const Instruction* pointer = def_use_.Definition(LoadView(load).pointer());
  if (!pointer || pointer->opcode != spv::OpFunctionParameter) return nullptr;
  return ArgumentsOf(*pointer).reason.empty() ? pointer : nullptr;
}

IntegerRange IntegerRangeAnalysis::Evaluator::ParameterLoad(const Instruction& parameter,
                                                            bool is_signed) {
  const CallArguments& arguments = ArgumentsOf(parameter);
  if (!arguments.reason.empty())
    return IntegerRange::None("function parameter has no range: " + arguments.reason);
  IntegerRange result;
  for (size_t i = 0; i < arguments.values.size(); ++i) {
    IntegerRange stored = Convert(StoredRange(arguments.values[i], arguments.stores[i]), is_signed);
    if (!stored.valid)
      return IntegerRange::None("an argument passed to the parameter has no range: " +
                                stored.reason);
    result = result.valid ? IntegerRange::Of(is_signed, std::min(result.min, stored.min),
                                             std::max(result.max, stored.max))
                          : stored;
  }
  return result;
}

}  // namespace glint::spirv
