// Parameters across calls (full mode): the range of a load through a parameter.
//
// What it proves: a load through a parameter pointer lies in the union, over every
// call site of its function, of the range of the value stored into the argument
// variable, taken at that store (so a guard around the call narrows it:
// `if (i < 8u) f(i)`). Which values those are, and why the load reads one of them, is
// the parameter-arguments analysis's (parameter_arguments.h); a parameter it refuses
// has no range, with its reason.
//
// Budget: the guards at a call narrow its argument (the range at the store) for at most
// kMaxGuardedCallSites call sites; past that, each argument's own range (memoized, no
// walk of the guards around every call) — a summary of the function's callers that is
// still sound, since an argument's range holds wherever it is stored. A reason past the
// budget names it.
//
// Guards: every load of such a parameter reads the same value, so the loads are one
// canonical value (the parameter's id) for the facts of range_guards.h: a test on one
// load narrows the others. Recursion cannot occur in valid SPIR-V; were it met, the
// evaluation driver would see a cyclic definition and give no range.
#include "integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

// The parameter `load` reads when it is followed here (its arguments are known): then no
// instruction writes what it points to while the function runs, so every load of it
// reads one value (Canonical, for guards); null otherwise.
const Instruction* IntegerRangeAnalysis::Evaluator::LoadedParameter(const Instruction& load) {
  if (!Full() || load.opcode != spv::OpLoad) return nullptr;
  const Instruction* pointer = def_use_.Definition(LoadView(load).pointer());
  if (!pointer || pointer->opcode != spv::OpFunctionParameter) return nullptr;
  return arguments_.Of(*pointer).reason.empty() ? pointer : nullptr;
}

IntegerRange IntegerRangeAnalysis::Evaluator::ParameterLoad(const Instruction& parameter,
                                                            bool is_signed) {
  const CallArguments& arguments = arguments_.Of(parameter);
  if (!arguments.reason.empty())
    return IntegerRange::None("function parameter has no range: " + arguments.reason);
  bool guarded = arguments.values.size() <= kMaxGuardedCallSites;
  IntegerRange result;
  for (size_t i = 0; i < arguments.values.size(); ++i) {
    IntegerRange stored =
        Convert(guarded ? StoredRange(arguments.values[i], arguments.stores[i])
                        : Operand(arguments.values[i]),
                is_signed);
    if (!stored.valid)
      return IntegerRange::None(
          std::string("an argument passed to the parameter has no range") +
          (guarded ? "" : " (function has more than 64 call sites: arguments are ranged "
                          "without the guards at their calls, budget kMaxGuardedCallSites)") +
          ": " + stored.reason);
    result = result.valid ? IntegerRange::Of(is_signed, std::min(result.min, stored.min),
                                             std::max(result.max, stored.max))
                          : stored;
  }
  return result;
}

}  // namespace glint::spirv
