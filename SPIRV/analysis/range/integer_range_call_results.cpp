// Call results (full mode): the integer an OpFunctionCall returns.
//
// What it proves: a call's result lies in the union, over every OpReturnValue of the
// callee, of the range of the returned value taken at that return (RangeAt), so the
// guards in the callee that dominate a return narrow what it returns
// (`if (i >= 8u) return 0u; return i;`). The callee's parameters have their own rule
// (integer_range_calls.cpp: the union over every call site), so the result holds for
// this call whatever arguments it passes.
//
// Why it holds: SPIR-V has no indirect calls, and a function returns only through its
// OpReturnValue instructions; the value each returns is the latest execution of its
// operand there, which the range at that return covers.
//
// Refuses, naming why: a recursive call (SPIR-V for shaders forbids recursion; were it
// met, the evaluation driver sees the result depend on itself, "cyclic definition", and
// a callee already being followed is refused: "recursive call"), calls followed deeper
// than kMaxCallDepth (a budget: each nested call result ranges its callee's returns
// inside the caller's evaluation), a callee with more than kMaxReturns returns, and a
// returned value without a range ("a value the function returns has no range: ...").
//
// This call's own arguments: where a parameter's range at this call is known (a value
// parameter: the call's operand ranged at the call; a parameter pointer the callee only
// loads: the value this call stored into its argument variable, ranged at that store,
// parameter_arguments.h), each returned value's expression is also re-evaluated with
// those ranges in place of the union over every call (UseRanges::RangeAt given them), and
// the result is the meet of both unions: `uint count(uint n) { return bitCount(
// bitfieldExtract(mask, 0, int(n))); }` called with gl_LocalInvocationIndex < 32 here
// and with 32 elsewhere gives [0, 31] here. Sound because during this call the parameter
// holds exactly that call's value: a value parameter is the call's operand, and a
// parameter pointer the callee only loads reads what the caller stored before the call
// (the parameter-arguments analysis refuses a pointer the callee writes, or one whose
// variable is stored elsewhere). Nodes of the expression that are not re-evaluated
// (phis, loop counters, nested calls, past the context budgets) keep their range for
// every call, which holds for this one too; a load of a local assigned on several paths
// is ranged in this call (integer_range_locals_in_call.cpp). Where neither union has a
// range, the cases of this call's arguments may (integer_range_argument_cases.cpp).
#include "SPIRV/analysis/range/integer_range_call_results.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

// The callee's OpReturnValue instructions; empty when there are more than kMaxReturns.
std::vector<const Instruction*> CallResults::ReturnsOf(const Function& function) const {
  std::vector<const Instruction*> returns;
  for (const Block& block : function.blocks) {
    const Instruction* last = block.Terminator();
    if (!last || last->opcode != spv::OpReturnValue) continue;
    if (returns.size() == kMaxReturns) return {};
    returns.push_back(last);
  }
  return returns;
}

// The values a call's result depends on: what its callee returns.
std::vector<uint32_t> CallResults::ReturnedValues(const Instruction& call) {
  const Function* callee = inputs_.calls.FunctionById(FunctionCallView(call).callee());
  std::vector<uint32_t> values;
  bool is_signed = false;
  uint32_t width = 0;
  if (!callee || in_progress_.Following(callee) ||
      !rules_.widths.IntWidth(call.type_id, &is_signed, &width))
    return values;
  for (const Instruction* ret : ReturnsOf(*callee)) values.push_back(ReturnValueView(*ret).value());
  return values;
}

// True when `range` is `parameter`'s range over every call, already known: given, it
// changes nothing in this call.
bool CallResults::SameAsEveryCall(uint32_t parameter, const IntegerRange& range) const {
  std::optional<IntegerRange> every = memo_.Find(parameter);
  return every && every->valid && range.valid && every->is_signed == range.is_signed &&
         every->min == range.min && every->max == range.max;
}

// The parameters whose range this call gives (see the file comment), ranged in the
// caller before the callee is followed (an argument may be a call of the same callee).
std::vector<UseRanges::GivenParameter> CallResults::GivenParameters(const Instruction& call,
                                                                    const Function& callee) {
  std::vector<UseRanges::GivenParameter> given;
  auto arguments = FunctionCallView(call).arguments();
  size_t index = 0;
  for (const Instruction& parameter : callee.parameters) {
    if (parameter.opcode != spv::OpFunctionParameter) continue;
    if (index >= arguments.size()) break;
    uint32_t argument = arguments[index++];
    bool is_signed = false;
    IntegerRange range;
    if (IsScalarInt(parameter.result_id, &is_signed)) {
      range = rules_.at_uses.RangeAt(argument, call);
    } else {
      const CallArguments& stored = inputs_.arguments.Of(parameter);
      if (!stored.reason.empty()) continue;
      const Instruction* store = nullptr;
      uint32_t value = 0;
      for (size_t i = 0; i < stored.stores.size(); ++i) {
        if (!stored.stores[i] || StoreView(*stored.stores[i]).pointer() != argument) continue;
        if (store) {  // two stores for one call: not this call's value alone
          store = nullptr;
          break;
        }
        store = stored.stores[i];
        value = stored.values[i];
      }
      if (!store || !IsScalarInt(value, &is_signed)) continue;
      range = rules_.locals.StoredRange(value, store);
    }
    if (!range.valid) continue;
    range.guard = nullptr;
    given.push_back({parameter.result_id, range});
  }
  return given;
}

std::vector<UseRanges::GivenParameter> CallResults::ChangedInThisCall(
    const std::vector<UseRanges::GivenParameter>& given) const {
  std::vector<UseRanges::GivenParameter> changed;
  for (const UseRanges::GivenParameter& parameter : given)
    if (!SameAsEveryCall(parameter.parameter, parameter.range)) changed.push_back(parameter);
  return changed;
}

IntegerRange CallResults::CallResult(const Instruction& call, bool is_signed) {
  const Function* callee = inputs_.calls.FunctionById(FunctionCallView(call).callee());
  if (!callee) return IntegerRange::None("call of a function the module does not define");
  // Every parameter's range at this call; those that differ from their range over every
  // call are the ones given to the re-evaluation (the others change nothing there).
  std::vector<UseRanges::GivenParameter> every_given =
      in_progress_.Following(callee) ? std::vector<UseRanges::GivenParameter>{}
                                     : GivenParameters(call, *callee);
  std::vector<UseRanges::GivenParameter> given = ChangedInThisCall(every_given);
  NestedEvaluations::Scope following = in_progress_.Callee(callee);
  if (following.refusal() == NestedEvaluations::Refusal::kAlreadyInProgress)
    return IntegerRange::None("recursive call (the function is already being followed)");
  if (following.refusal() == NestedEvaluations::Refusal::kTooDeep)
    return IntegerRange::None("call results nested deeper than 8 (budget kMaxCallDepth)");
  std::vector<const Instruction*> returns = ReturnsOf(*callee);
  if (returns.empty())
    return IntegerRange::None("function has no return value or more than 64 (budget kMaxReturns)");
  IntegerRange result;
  for (const Instruction* ret : returns) {
    IntegerRange returned =
        Convert(rules_.locals.StoredRange(ReturnValueView(*ret).value(), ret), is_signed);
    if (!returned.valid) {
      result = IntegerRange::None("a value the function returns has no range: " + returned.reason);
      break;
    }
    result = Hull(result, returned, is_signed);
  }
  if (given.empty()) return result;
  IntegerRange in_this_call;
  for (const Instruction* ret : returns) {
    IntegerRange returned =
        Convert(rules_.at_uses.RangeAt(ReturnValueView(*ret).value(), *ret, &given), is_signed);
    if (!returned.valid) {
      in_this_call = returned;
      break;
    }
    in_this_call = Hull(in_this_call, returned, is_signed);
  }
  // Where neither holds, the cases of this call's arguments may
  // (integer_range_argument_cases.cpp).
  if (!in_this_call.valid && !result.valid) {
    bool budget_reached = false;
    IntegerRange over_cases = rules_.argument_cases.ReturnedOverCases(
        returns, every_given, in_this_call, is_signed, &budget_reached);
    if (over_cases.valid) return over_cases;
    if (budget_reached) result.reason += " (" + over_cases.reason + ")";
    return result;
  }
  if (!in_this_call.valid) return result;
  in_this_call.guard = nullptr;
  return Meet(result, in_this_call, is_signed);
}

void CallResults::Register(Table& table) { table[size_t(ValueKind::kCallResult)] = this; }

DependencyIds CallResults::Dependencies(const Instruction& def, ValueKind) {
  return ReturnedValues(def);
}

IntegerRange CallResults::Range(const Instruction& def, ValueKind, bool is_signed) {
  return CallResult(def, is_signed);
}

}  // namespace glint::spirv
