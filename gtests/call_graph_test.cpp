// Tests of CallGraph (SPIRV/ir/call_graph.h), asked directly on a small module: the
// function each id defines, the calls of and in a function in module order, a
// parameter's owner and position (line instructions among parameters not counted), and
// the two reachability orders, also on a chain too long for recursion (run on a small
// stack, so a recursive walk would crash).
#include <gtest/gtest.h>
#include <pthread.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "SPIRV/ir/call_graph.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// main calls b then a; a calls c; b calls c twice, in two blocks; unused calls c but
// nothing reaches it.
const char kModule[] = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "s.comp"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%fn = OpTypeFunction %void
%fn2 = OpTypeFunction %uint %uint %uint
%u1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%m0 = OpLabel
%mb = OpFunctionCall %uint %b %u1 %u1
%ma = OpFunctionCall %void %a
OpReturn
OpFunctionEnd
%a = OpFunction %void None %fn
%a0 = OpLabel
%ac = OpFunctionCall %uint %c %u1 %u1
OpReturn
OpFunctionEnd
%b = OpFunction %uint None %fn2
%bx = OpFunctionParameter %uint
OpLine %file 3 0
%by = OpFunctionParameter %uint
%b0 = OpLabel
%bc1 = OpFunctionCall %uint %c %bx %by
OpBranch %b1
%b1 = OpLabel
%bc2 = OpFunctionCall %uint %c %by %bx
OpReturnValue %bc2
OpFunctionEnd
%c = OpFunction %uint None %fn2
%cx = OpFunctionParameter %uint
%cy = OpFunctionParameter %uint
%c0 = OpLabel
OpReturnValue %cx
OpFunctionEnd
%unused = OpFunction %void None %fn
%u0 = OpLabel
%uc = OpFunctionCall %uint %c %u1 %u1
OpReturn
OpFunctionEnd
)";

struct Graph {
  std::optional<Module> module;
  std::optional<CallGraph> calls;
  uint32_t Id(size_t function) const {
    auto it = module->functions.begin();
    std::advance(it, function);
    return it->id();
  }
  // The result ids of `list`'s calls.
  std::vector<uint32_t> Results(const std::vector<const CallGraph::Call*>& list) const {
    std::vector<uint32_t> ids;
    for (const CallGraph::Call* call : list) ids.push_back(call->call->result_id);
    return ids;
  }
  std::vector<uint32_t> Ids(const std::vector<Function*>& functions) const {
    std::vector<uint32_t> ids;
    for (const Function* function : functions) ids.push_back(function->id());
    return ids;
  }
};

Graph Build(const std::string& text) {
  Graph graph;
  graph.module = test::AssembleModule(text);
  if (!graph.module) return graph;
  graph.calls.emplace(*graph.module);
  return graph;
}

uint32_t ResultOf(const Graph& graph, size_t function, size_t block, size_t index) {
  auto f = graph.module->functions.begin();
  std::advance(f, function);
  auto b = f->blocks.begin();
  std::advance(b, block);
  auto i = b->instructions.begin();
  std::advance(i, index);
  return i->result_id;
}

TEST(CallGraph, FunctionsCallsAndCallers) {
  Graph g = Build(kModule);
  ASSERT_TRUE(g.calls);
  const uint32_t main = g.Id(0), a = g.Id(1), b = g.Id(2), c = g.Id(3), unused = g.Id(4);
  EXPECT_EQ(g.calls->FunctionById(b), &*std::next(g.module->functions.begin(), 2));
  EXPECT_EQ(g.calls->FunctionById(g.module->functions.front().blocks.front().id()),
            nullptr);  // a label is not a function
  const uint32_t mb = ResultOf(g, 0, 0, 0), ma = ResultOf(g, 0, 0, 1), ac = ResultOf(g, 1, 0, 0),
                 bc1 = ResultOf(g, 2, 0, 0), bc2 = ResultOf(g, 2, 1, 0), uc = ResultOf(g, 4, 0, 0);
  // Callers of c in module order, with their function and block.
  EXPECT_EQ(g.Results(g.calls->CallsOf(c)), (std::vector<uint32_t>{ac, bc1, bc2, uc}));
  const CallGraph::Call* second_in_b = g.calls->CallsOf(c)[2];
  EXPECT_EQ(second_in_b->caller->id(), b);
  EXPECT_EQ(second_in_b->block, &*std::next(second_in_b->caller->blocks.begin()));
  EXPECT_EQ(second_in_b->callee, c);
  EXPECT_EQ(g.Results(g.calls->CallsIn(main)), (std::vector<uint32_t>{mb, ma}));
  EXPECT_EQ(g.Results(g.calls->CallsIn(b)), (std::vector<uint32_t>{bc1, bc2}));
  EXPECT_TRUE(g.calls->CallsIn(c).empty());
  EXPECT_TRUE(g.calls->CallsOf(main).empty());
  EXPECT_TRUE(g.calls->CallsOf(unused).empty());
  EXPECT_EQ(g.Results(g.calls->CallsOf(a)), (std::vector<uint32_t>{ma}));
}

TEST(CallGraph, ParameterOwnerCountsOnlyParameters) {
  Graph g = Build(kModule);
  ASSERT_TRUE(g.calls);
  Function& b = *std::next(g.module->functions.begin(), 2);
  std::vector<const Instruction*> parameters, lines;
  for (const Instruction& inst : b.parameters)
    (inst.opcode == spv::OpFunctionParameter ? parameters : lines).push_back(&inst);
  ASSERT_EQ(parameters.size(), 2u);
  ASSERT_EQ(lines.size(), 1u);  // the OpLine between them
  size_t position = 99;
  EXPECT_EQ(g.calls->ParameterOwner(*parameters[1], &position), &b);
  EXPECT_EQ(position, 1u);  // not 2: the OpLine is not a parameter
  EXPECT_EQ(g.calls->ParameterOwner(*parameters[0], &position), &b);
  EXPECT_EQ(position, 0u);
  position = 99;
  EXPECT_EQ(g.calls->ParameterOwner(*lines[0], &position), nullptr);
  EXPECT_EQ(g.calls->ParameterOwner(b.blocks.front().instructions.front(), &position), nullptr);
  EXPECT_EQ(position, 99u);
}

// What every call gives a parameter passed by value: c's second operand at a's call
// (u1), at b's two calls (by, then bx) and at unused's (u1), in module order.
TEST(CallGraph, OperandsOfAValueParameterAtEveryCall) {
  Graph g = Build(kModule);
  ASSERT_TRUE(g.calls);
  Function& b = *std::next(g.module->functions.begin(), 2);
  Function& c = *std::next(g.module->functions.begin(), 3);
  std::vector<const Instruction*> b_parameters, c_parameters;
  for (const Instruction& inst : b.parameters)
    if (inst.opcode == spv::OpFunctionParameter) b_parameters.push_back(&inst);
  for (const Instruction& inst : c.parameters)
    if (inst.opcode == spv::OpFunctionParameter) c_parameters.push_back(&inst);
  ASSERT_EQ(b_parameters.size(), 2u);
  ASSERT_EQ(c_parameters.size(), 2u);
  std::vector<uint32_t> operands;
  std::vector<const Instruction*> calls;
  ASSERT_TRUE(g.calls->OperandsOf(*c_parameters[1], &operands, &calls));
  ASSERT_EQ(operands.size(), 4u);
  ASSERT_EQ(calls.size(), 4u);
  const uint32_t bx = b_parameters[0]->result_id, by = b_parameters[1]->result_id;
  EXPECT_EQ(operands[1], by) << "bc1 = c(bx, by), first of b's calls in module order";
  EXPECT_EQ(operands[2], bx) << "bc2 = c(by, bx)";
  EXPECT_EQ(operands[0], operands[3]) << "u1 at a's and unused's calls";
  for (const Instruction* call : calls) EXPECT_EQ(call->opcode, spv::OpFunctionCall);
  // Anything but a parameter: false, nothing listed.
  operands.clear();
  EXPECT_FALSE(g.calls->OperandsOf(b.blocks.front().instructions.front(), &operands, nullptr));
  EXPECT_TRUE(operands.empty());
}

TEST(CallGraph, ReachabilityOrders) {
  Graph g = Build(kModule);
  ASSERT_TRUE(g.calls);
  const uint32_t main = g.Id(0), a = g.Id(1), b = g.Id(2), c = g.Id(3), unused = g.Id(4);
  // The walk takes the most recently found function next: main finds b then a; a is
  // taken first and finds c; then c, then b (whose callee c is already found).
  EXPECT_EQ(g.Ids(g.calls->ReachableFrom(main)), (std::vector<uint32_t>{main, a, c, b}));
  // Each function after every function it calls; unused is not reached.
  EXPECT_EQ(g.Ids(g.calls->CalleesFirst(main)), (std::vector<uint32_t>{c, b, a, main}));
  EXPECT_EQ(g.Ids(g.calls->ReachableFrom(unused)), (std::vector<uint32_t>{unused, c}));
  EXPECT_EQ(g.Ids(g.calls->CalleesFirst(c)), (std::vector<uint32_t>{c}));
  const uint32_t label = g.module->functions.front().blocks.front().id();
  EXPECT_TRUE(g.calls->ReachableFrom(label).empty());
  EXPECT_TRUE(g.calls->CalleesFirst(label).empty());
}

// 20,000 helpers, each calling the next: both walks use their own stacks (a recursive
// post-order would need 20,000 native frames).
// Runs `work` on a thread whose stack holds `bytes`.
void OnSmallStack(size_t bytes, const std::function<void()>& work) {
  pthread_attr_t attributes;
  ASSERT_EQ(pthread_attr_init(&attributes), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attributes, bytes), 0);
  auto run = [](void* argument) -> void* {
    (*static_cast<const std::function<void()>*>(argument))();
    return nullptr;
  };
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, &attributes, run, const_cast<std::function<void()>*>(&work)),
            0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attributes);
}

TEST(CallGraph, LongChainOfHelpers) {
  const int kHelpers = 20000;
  std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %f0 "main"
OpExecutionMode %f0 LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
)";
  for (int i = 0; i < kHelpers; ++i) {
    text += "%f" + std::to_string(i) + " = OpFunction %void None %fn\n%l" + std::to_string(i) +
            " = OpLabel\n";
    if (i + 1 < kHelpers)
      text +=
          "%c" + std::to_string(i) + " = OpFunctionCall %void %f" + std::to_string(i + 1) + "\n";
    text += "OpReturn\nOpFunctionEnd\n";
  }
  Graph g = Build(text);
  ASSERT_TRUE(g.calls);
  // Both walks run on a 256 KiB stack: one that recursed once per helper would need a
  // few megabytes for 20,000 of them and crash there.
  std::vector<Function*> reached, post;
  OnSmallStack(256 * 1024, [&] {
    reached = g.calls->ReachableFrom(g.Id(0));
    post = g.calls->CalleesFirst(g.Id(0));
  });
  ASSERT_EQ(reached.size(), size_t(kHelpers));
  ASSERT_EQ(post.size(), size_t(kHelpers));
  EXPECT_EQ(reached.front()->id(), g.Id(0));
  EXPECT_EQ(post.front()->id(), g.module->functions.back().id());
  EXPECT_EQ(post.back()->id(), g.Id(0));
}

}  // namespace
}  // namespace glint::spirv
