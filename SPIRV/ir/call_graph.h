// The calls of a module: which function each id defines, every OpFunctionCall with the
// function and block it sits in, which function a parameter belongs to and at which
// position, and the functions an entry point reaches. SPIR-V has no indirect calls, so
// the calls that name a function are all of its callers.
//
// One owner for these facts: the integer range analysis (parameters across calls, call
// results), barrier phases (returning into callers) and uniformity (the functions an
// entry point reaches, in two orders) read them here instead of scanning the module or
// looking functions up one by one. Built in one pass over the module; the analysis
// context keeps it with def-use (a change that moves an instruction drops both).
//
// Positions count OpFunctionParameter only: line instructions kept among a function's
// parameters are not parameters. A call of an id that no function defines is listed
// (CallsOf, CallsIn) but reaches nothing. Reachability walks with explicit stacks, so
// a long chain of helpers cannot exhaust the native stack.
#ifndef GLINT_SPIRV_IR_CALL_GRAPH_H
#define GLINT_SPIRV_IR_CALL_GRAPH_H

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "SPIRV/ir/module.h"

namespace glint::spirv {

class CallGraph {
 public:
  explicit CallGraph(Module& module);

  struct Call {
    Function* caller = nullptr;
    Block* block = nullptr;
    Instruction* call = nullptr;  // the OpFunctionCall
    uint32_t callee = 0;          // the id it names
  };

  // The function whose OpFunction defines `id`, or null.
  Function* FunctionById(uint32_t id) const;
  // The calls naming `callee`, in module order.
  const std::vector<const Call*>& CallsOf(uint32_t callee) const;
  // The calls `function` makes, in its block order.
  const std::vector<const Call*>& CallsIn(uint32_t function) const;
  // The function `parameter` (an OpFunctionParameter) belongs to, with its position
  // among that function's parameters; null (position untouched) for anything else.
  Function* ParameterOwner(const Instruction& parameter, size_t* position) const;
  // The operand every call of its function gives `parameter` (an OpFunctionParameter,
  // passed by value), in module order, and the calls (`calls` may be null); false for
  // anything else or a call with too few operands.
  bool OperandsOf(const Instruction& parameter, std::vector<uint32_t>* operands,
                  std::vector<const Instruction*>* calls) const;

  // The functions `root` reaches, `root` first: a walk that takes the most recently
  // found function next and finds a function's callees in call order (each function
  // once). Empty when no function defines `root`.
  std::vector<Function*> ReachableFrom(uint32_t root) const;
  // The functions `root` reaches, each after every function it calls (a depth-first
  // post-order in call order; `root` last).
  std::vector<Function*> CalleesFirst(uint32_t root) const;

 private:
  struct ParameterPlace {
    Function* function;
    size_t position;
  };
  std::vector<Call> calls_;  // module order
  std::unordered_map<uint32_t, Function*> functions_;
  std::unordered_map<uint32_t, std::vector<const Call*>> calls_of_;  // callee id ->
  std::unordered_map<uint32_t, std::vector<const Call*>> calls_in_;  // caller id ->
  std::unordered_map<const Instruction*, ParameterPlace> parameters_;
  std::vector<const Call*> none_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_CALL_GRAPH_H
