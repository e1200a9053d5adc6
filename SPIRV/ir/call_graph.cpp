#include "SPIRV/ir/call_graph.h"

#include <unordered_set>
#include <utility>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

CallGraph::CallGraph(Module& module) {
  size_t count = 0;
  for (Function& function : module.functions)
    for (Block& block : function.blocks)
      for (Instruction& inst : block.instructions) count += inst.opcode == spv::OpFunctionCall;
  calls_.reserve(count);  // the index below points into it
  for (Function& function : module.functions) {
    functions_.emplace(function.id(), &function);
    size_t position = 0;
    for (Instruction& parameter : function.parameters)
      if (parameter.opcode == spv::OpFunctionParameter)
        parameters_.emplace(&parameter, ParameterPlace{&function, position++});
    for (Block& block : function.blocks)
      for (Instruction& inst : block.instructions)
        if (auto call = ViewIf<FunctionCallView>(inst))
          calls_.push_back(Call{&function, &block, &inst, call->callee()});
  }
  for (const Call& call : calls_) {
    calls_of_[call.callee].push_back(&call);
    calls_in_[call.caller->id()].push_back(&call);
  }
}

Function* CallGraph::FunctionById(uint32_t id) const {
  auto found = functions_.find(id);
  return found == functions_.end() ? nullptr : found->second;
}

const std::vector<const CallGraph::Call*>& CallGraph::CallsOf(uint32_t callee) const {
  auto found = calls_of_.find(callee);
  return found == calls_of_.end() ? none_ : found->second;
}

const std::vector<const CallGraph::Call*>& CallGraph::CallsIn(uint32_t function) const {
  auto found = calls_in_.find(function);
  return found == calls_in_.end() ? none_ : found->second;
}

Function* CallGraph::ParameterOwner(const Instruction& parameter, size_t* position) const {
  auto found = parameters_.find(&parameter);
  if (found == parameters_.end()) return nullptr;
  *position = found->second.position;
  return found->second.function;
}

bool CallGraph::OperandsOf(const Instruction& parameter, std::vector<uint32_t>* operands,
                           std::vector<const Instruction*>* calls) const {
  size_t position = 0;
  Function* owner = ParameterOwner(parameter, &position);
  if (!owner) return false;
  for (const Call* call : CallsOf(owner->id())) {
    auto arguments = FunctionCallView(*call->call).arguments();
    if (position >= arguments.size()) return false;
    operands->push_back(arguments[position]);
    if (calls) calls->push_back(call->call);
  }
  return true;
}

std::vector<Function*> CallGraph::ReachableFrom(uint32_t root) const {
  std::vector<Function*> reached;
  std::vector<uint32_t> stack = {root};
  std::unordered_set<uint32_t> seen = {root};
  while (!stack.empty()) {
    Function* function = FunctionById(stack.back());
    stack.pop_back();
    if (!function) continue;
    reached.push_back(function);
    for (const Call* call : CallsIn(function->id()))
      if (seen.insert(call->callee).second) stack.push_back(call->callee);
  }
  return reached;
}

std::vector<Function*> CallGraph::CalleesFirst(uint32_t root) const {
  std::vector<Function*> order;
  Function* start = FunctionById(root);
  if (!start) return order;
  struct Frame {
    Function* function;
    size_t next_call;
  };
  std::vector<Frame> stack = {{start, 0}};
  std::unordered_set<uint32_t> seen = {root};
  while (!stack.empty()) {
    Frame& frame = stack.back();
    const std::vector<const Call*>& calls = CallsIn(frame.function->id());
    if (frame.next_call == calls.size()) {
      order.push_back(frame.function);
      stack.pop_back();
      continue;
    }
    uint32_t callee = calls[frame.next_call++]->callee;
    Function* function = FunctionById(callee);
    if (function && seen.insert(callee).second)
      stack.push_back({function, 0});  // invalidates frame
  }
  return order;
}

}  // namespace glint::spirv
