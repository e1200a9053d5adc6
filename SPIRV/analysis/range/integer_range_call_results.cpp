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
// Not done: a range for this call site's own argument ranges.
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

IntegerRange CallResults::CallResult(const Instruction& call, bool is_signed) {
  const Function* callee = inputs_.calls.FunctionById(FunctionCallView(call).callee());
  if (!callee) return IntegerRange::None("call of a function the module does not define");
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
  return result;
}

void CallResults::Register(Table& table) { table[size_t(ValueKind::kCallResult)] = this; }

DependencyIds CallResults::Dependencies(const Instruction& def, ValueKind) {
  return ReturnedValues(def);
}

IntegerRange CallResults::Range(const Instruction& def, ValueKind, bool is_signed) {
  return CallResult(def, is_signed);
}

}  // namespace glint::spirv
