// What a function parameter holds at every call site, for glslang's convention of
// passing values: it passes every `in` parameter as a pointer to a Function variable of
// the caller (`param`), stores the argument there right before OpFunctionCall, and the
// callee loads it through its OpFunctionParameter.
//
// What it finds: for a parameter its function only reads through (the pointer of
// OpLoad, or the base of an access chain with constant indices whose result is only
// loaded: a part of a struct or vector parameter), the value stored into its argument
// variable at each call site (with that OpStore), in the order of the calls in the
// module.
//
// Why that is what every load of the parameter, or of such a part, reads: the callee
// never changes what the parameter points to (it only loads through it, or through a
// chain that selects a part by constant indices); in the caller the argument is a
// Function variable whose only store is in the call's block before the call, whose only
// call is this one, and whose other uses are loads, so at the call it holds the value
// of that store's latest execution, and nothing writes it during the call. SPIR-V has
// no indirect calls, so the calls CallGraph lists are all of the function's callers.
//
// Refuses, naming why: a parameter that its function stores through, indexes or passes
// on ("the parameter is not only loaded in its function"); a function never called; an
// argument that is not such a variable (written elsewhere, passed to two calls, stored
// in another block or after the call, any other use). Every call site is listed: the
// work is one pass over the calls and their argument variables' uses, linear in the
// module; what a reader does per value is the reader's budget.
//
// Owned by the analysis context with def-use (memoized per parameter as asked); the
// integer range analysis reads it for parameters across calls.
#ifndef GLINT_SPIRV_ANALYSIS_PARAMETER_ARGUMENTS_H
#define GLINT_SPIRV_ANALYSIS_PARAMETER_ARGUMENTS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "SPIRV/ir/block_positions.h"
#include "SPIRV/ir/call_graph.h"
#include "SPIRV/ir/def_use.h"

namespace glint::spirv {

// The values stored into a parameter's argument variable at every call site, or why
// they are not known.
struct CallArguments {
  std::vector<uint32_t> values;
  std::vector<const Instruction*> stores;  // values[i]'s OpStore in the caller
  std::string reason;                      // non-empty: not known (values empty)
};

class ParameterArguments {
 public:
  // `positions` is the analysis context's, over the same def-use.
  ParameterArguments(const DefUse& def_use, const CallGraph& calls, BlockPositions& positions)
      : def_use_(def_use), calls_(calls), positions_(positions) {}

  // For an OpFunctionParameter (anything else: "parameter of an unknown function").
  const CallArguments& Of(const Instruction& parameter);

 private:
  CallArguments Find(const Instruction& parameter);
  bool OnlyReads(const Instruction& user, uint32_t word) const;
  const Instruction* ArgumentStore(const Instruction& call, size_t position, std::string* why);

  const DefUse& def_use_;
  const CallGraph& calls_;
  BlockPositions& positions_;
  std::unordered_map<const Instruction*, CallArguments> found_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_PARAMETER_ARGUMENTS_H
