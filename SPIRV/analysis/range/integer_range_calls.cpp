// Parameters across calls (full mode): the range of a load through a parameter, and of a
// parameter passed by value.
//
// What it proves: a load through a parameter pointer lies in the union, over every
// call site of its function, of the range of the value stored into the argument
// variable, taken at that store (so a guard around the call narrows it:
// `if (i < 8u) f(i)`). A parameter passed by value (glslang passes `const in` scalars
// so) is the union, over every OpFunctionCall of its function, of the range of the
// call's operand at that call: SPIR-V has no indirect calls, so those are all the values
// it can take; a function never called gives no range ("no call"). For a parameter
// pointer, which values are stored and why the load reads one of them is the
// parameter-arguments analysis's (parameter_arguments.h); a parameter it refuses has no
// range, with its reason.
//
// Budget: the guards at a call narrow its argument (the range at the store) for at most
// kMaxGuardedCallSites call sites; past that, each argument's own range (memoized, no
// walk of the guards around every call) — a summary of the function's callers that is
// still sound, since an argument's range holds wherever it is stored. A reason past the
// budget names it.
//
// Parts: a load through an access chain of the parameter with constant indices (a member
// of a struct parameter, a component of a vector one) lies in the union of the same part
// of every call's argument, found through the stored value (ComponentSource: constructs,
// inserts, shuffles, copies), or, for an argument that is the caller's own parameter
// loaded whole (a struct passed down a chain of helpers), through that parameter's
// arguments in turn; an argument whose part cannot be found that way (a struct loaded
// whole from a buffer) names where it was read.
//
// Guards: every load of such a parameter reads the same value, so the loads are one
// canonical value (the parameter's id) for the facts of range_guards.h: a test on one
// load narrows the others. Recursion cannot occur in valid SPIR-V; were it met, the
// evaluation driver would see a cyclic definition and give no range.
#include "SPIRV/analysis/range/integer_range_calls.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include <string>

#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

IntegerRange ParameterLoads::ParameterLoad(const Instruction& parameter, bool is_signed) {
  const CallArguments& arguments = inputs_.arguments.Of(parameter);
  if (!arguments.reason.empty())
    return IntegerRange::None("function parameter has no range: " + arguments.reason);
  return ArgumentUnion(arguments.values, arguments.stores, is_signed);
}

// The part of each call's argument that `chain` (constant indices into the parameter)
// selects: a scalar id with its call's store where the stored value shows it, else a
// component (vector, index) of a computed vector (integer_range_components.cpp). `why`
// is set, and nothing else is to be used, when a part is neither (a struct loaded whole
// from memory: then `why` names where it was read).
ParameterLoads::ArgumentPartList ParameterLoads::ArgumentParts(
    const Instruction& chain, const CallArguments& arguments) const {
  ArgumentPartList list;
  std::vector<uint32_t> path;
  for (uint32_t index : AccessChainView(chain).indices()) {
    int64_t value = 0;
    if (!canonical_.ConstantValue(index, &value) || value < 0) {
      list.why = "a part of a function parameter selected by an index that is not a constant";
      return list;
    }
    path.push_back(uint32_t(value));
  }
  CollectArgumentParts(arguments, path, 0, &list);
  return list;
}

// ArgumentParts for each call of `arguments`, the part at `path`. An argument that is
// the caller's own parameter loaded whole (a struct handed down a chain of helpers) is
// followed to that parameter's arguments, with the rest of the path, kMaxCallDepth deep:
// the caller's parameter is only loaded, so it holds its arguments' value while the
// caller runs (parameter_arguments.h).
void ParameterLoads::CollectArgumentParts(const CallArguments& arguments,
                                          const std::vector<uint32_t>& path, int depth,
                                          ArgumentPartList* list) const {
  for (size_t call = 0; call < arguments.values.size() && list->why.empty(); ++call) {
    uint32_t value = arguments.values[call];
    uint32_t part = value, before = 0;
    size_t level = 0;
    for (; part && level < path.size(); ++level) {
      before = part;
      part = canonical_.ComponentSource(part, path[level]);
    }
    if (part) {
      list->parts.push_back(part);
      list->stores.push_back(arguments.stores[call]);
      continue;
    }
    const Instruction* aggregate = inputs_.def_use.Definition(before);
    if (const Instruction* outer = aggregate ? canonical_.ParameterOfLoad(*aggregate) : nullptr) {
      const CallArguments& outer_arguments = inputs_.arguments.Of(*outer);
      if (!outer_arguments.reason.empty()) {
        list->why = "function parameter has no range: " + outer_arguments.reason;
      } else if (depth >= kMaxCallDepth) {
        list->why = "a part of an argument passed down more than " + std::to_string(kMaxCallDepth) +
                    " calls (budget kMaxCallDepth)";
      } else {
        std::vector<uint32_t> rest(path.begin() + (level - 1), path.end());
        CollectArgumentParts(outer_arguments, rest, depth + 1, list);
      }
      continue;
    }
    std::string origin = origins_.MemoryOrigin(value);
    const Instruction* type = before ? inputs_.def_use.TypeOf(before) : nullptr;
    if (origin.empty() && level == path.size() && type && type->opcode == spv::OpTypeVector) {
      list->components.push_back({before, path.back()});  // the last step: a vector component
      continue;
    }
    const Instruction* def = inputs_.def_use.Definition(before ? before : value);
    list->why = !origin.empty() ? "an argument passed to the parameter has no range: " + origin
                                : std::string(
                                      "a part of an argument passed to the parameter is not "
                                      "a known component of the value stored (computed by ") +
                                      (def ? grammar::OpcodeName(def->opcode) : "?") +
                                      ", whose components are not followed)";
  }
}

IntegerRange ParameterLoads::ParameterPartLoad(const Instruction& chain,
                                               const Instruction& parameter, bool is_signed) {
  const CallArguments& arguments = inputs_.arguments.Of(parameter);
  if (!arguments.reason.empty())
    return IntegerRange::None("function parameter has no range: " + arguments.reason);
  ArgumentPartList list = ArgumentParts(chain, arguments);
  if (!list.why.empty()) return IntegerRange::None(list.why);
  IntegerRange result;
  if (!list.parts.empty()) {
    result = ArgumentUnion(list.parts, list.stores, is_signed);
    if (!result.valid) return result;
  }
  for (const auto& [vector, component] : list.components) {
    IntegerRange part = Convert(rules_.components.ComponentRange(vector, component), is_signed);
    if (!part.valid)
      return IntegerRange::None("an argument passed to the parameter has no range: " + part.reason);
    result = Hull(result, part, is_signed);
  }
  if (!result.valid) return IntegerRange::None("function parameter has no range: no call");
  return result;
}

// The union over the calls of `values[i]`'s range at its store `stores[i]` (see the file
// comment for the budget past which the guards at the calls are left out).
IntegerRange ParameterLoads::ArgumentUnion(const std::vector<uint32_t>& values,
                                           const std::vector<const Instruction*>& stores,
                                           bool is_signed) {
  bool guarded = values.size() <= kMaxGuardedCallSites;
  IntegerRange result;
  for (size_t i = 0; i < values.size(); ++i) {
    IntegerRange stored = Convert(
        guarded ? rules_.locals.StoredRange(values[i], stores[i]) : Operand(values[i]), is_signed);
    if (!stored.valid)
      return IntegerRange::None(
          std::string("an argument passed to the parameter has no range") +
          (guarded ? ""
                   : " (function has more than 64 call sites: arguments are ranged "
                     "without the guards at their calls, budget kMaxGuardedCallSites)") +
          ": " + stored.reason);
    result = Hull(result, stored, is_signed);
  }
  return result;
}

IntegerRange ParameterLoads::ValueParameter(const Instruction& parameter, bool is_signed) {
  std::vector<uint32_t> values;
  std::vector<const Instruction*> calls;
  if (!inputs_.calls.OperandsOf(parameter, &values, &calls))
    return IntegerRange::None("function parameter has no range: its function is not known");
  if (values.empty()) return IntegerRange::None("function parameter has no range: no call");
  return ArgumentUnion(values, calls, is_signed);
}

void ParameterLoads::Register(Table& table) {
  table[size_t(ValueKind::kParameterLoad)] = this;
  table[size_t(ValueKind::kParameterPartLoad)] = this;
  table[size_t(ValueKind::kValueParameter)] = this;
}

// A whole parameter's loads read its arguments; a part's, the parts its list names.
DependencyIds ParameterLoads::Dependencies(const Instruction& load, ValueKind kind) {
  if (kind == ValueKind::kValueParameter) {
    std::vector<uint32_t> values;
    inputs_.calls.OperandsOf(load, &values, nullptr);
    return DependencyIds(values.begin(), values.end());
  }
  const Instruction* pointer = inputs_.def_use.Definition(LoadView(load).pointer());
  if (kind == ValueKind::kParameterLoad) return inputs_.arguments.Of(*pointer).values;
  const Instruction* base = inputs_.def_use.Definition(AccessChainView(*pointer).base());
  return ArgumentParts(*pointer, inputs_.arguments.Of(*base)).parts;
}

IntegerRange ParameterLoads::Range(const Instruction& load, ValueKind kind, bool is_signed) {
  if (kind == ValueKind::kValueParameter) return ValueParameter(load, is_signed);
  const Instruction* pointer = inputs_.def_use.Definition(LoadView(load).pointer());
  if (kind == ValueKind::kParameterLoad) return ParameterLoad(*pointer, is_signed);
  const Instruction* base = inputs_.def_use.Definition(AccessChainView(*pointer).base());
  return ParameterPartLoad(*pointer, *base, is_signed);
}

}  // namespace glint::spirv
