// Tests of the value-flow view of Function variables (SPIRV/analysis/memory/value_flow.h):
// which stores, initializer or "undefined" reach each load, with phis at joins and loop
// headers, for GLSL as glslang 12 lowers it (straight line, if/else, loops, `?:`, `&&`,
// out-parameters, partial stores into arrays and vectors) and for SPIR-V assembly
// (initializers, every kind of escape with its reason, unreachable code, the budget).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <ostream>

#include "SPIRV/analysis/memory/value_flow.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/parser.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// A parsed module with the value flow of its `main` (the first function named main,
// else the first function).
struct Flow {
  std::unique_ptr<Module> module;
  Function* function = nullptr;
  std::unique_ptr<Cfg> cfg;
  std::unique_ptr<DefUse> def_use;
  std::unique_ptr<ValueFlow> flow;
  std::vector<uint32_t> words;

  uint32_t IdOf(const std::string& name) const { return test::IdNamed(*module, name); }

  // The variable an OpLoad/OpStore pointer comes from, through access chains.
  uint32_t RootOf(uint32_t pointer) const {
    for (Instruction* def = def_use->Definition(pointer);
         def && (def->opcode == spv::OpAccessChain || def->opcode == spv::OpInBoundsAccessChain);
         def = def_use->Definition(pointer))
      pointer = def->words.at(0);
    return pointer;
  }

  // Loads from variable `name` (directly or through access chains), in block order.
  std::vector<const Instruction*> LoadsOf(const std::string& name) const {
    return LoadsOfId(IdOf(name));
  }
  std::vector<const Instruction*> LoadsOfId(uint32_t variable) const {
    std::vector<const Instruction*> loads;
    for (const Block& block : function->blocks)
      for (const Instruction& inst : block.instructions)
        if (inst.opcode == spv::OpLoad && RootOf(inst.words.at(0)) == variable)
          loads.push_back(&inst);
    return loads;
  }

  // "store 2", "store IAdd" (the stored value's constant or opcode), "initializer 7",
  // "undefined", "phi(...)" with incoming in predecessor order; a phi met again is "phi^".
  std::string Describe(uint32_t node, std::vector<uint32_t>* open = nullptr) const {
    std::vector<uint32_t> local;
    if (!open) open = &local;
    if (node == ValueFlow::kNoNode) return "none";
    const ValueFlowNode& n = flow->Node(node);
    switch (n.kind) {
      case ValueFlowNode::Kind::kUndefined:
        return "undefined";
      case ValueFlowNode::Kind::kInitializer:
        return "initializer " + Value(n.value);
      case ValueFlowNode::Kind::kStore:
        return "store " + Value(n.value);
      case ValueFlowNode::Kind::kPhi:
        break;
    }
    if (std::count(open->begin(), open->end(), node)) return "phi^";
    open->push_back(node);
    std::string text = "phi(";
    for (size_t i = 0; i < n.incoming.size(); ++i)
      text += (i ? ", " : "") + Describe(n.incoming[i], open);
    open->pop_back();
    return text + ")";
  }

  std::string Value(uint32_t id) const {
    const Instruction* def = def_use->Definition(id);
    if (!def) return "?";
    if (def->opcode == spv::OpConstant) return std::to_string(int32_t(def->words.at(0)));
    if (def->opcode == spv::OpConstantTrue) return "true";
    if (def->opcode == spv::OpConstantFalse) return "false";
    return std::string(grammar::OpcodeName(def->opcode)).substr(2);
  }

  // Definitions(load), described and sorted.
  std::string Defs(const Instruction* load) const {
    std::vector<std::string> parts;
    for (uint32_t node : flow->Definitions(load)) parts.push_back(Describe(node));
    std::sort(parts.begin(), parts.end());
    std::string text;
    for (const std::string& part : parts) text += (text.empty() ? "" : ", ") + part;
    return text;
  }
  std::string Reaching(const Instruction* load) const { return Describe(flow->Reaching(load)); }
};

Flow Build(const std::vector<uint32_t>& words, const ValueFlowOptions& options = {}) {
  Flow result;
  result.words = words;
  std::string error;
  std::optional<Module> parsed = ParseModule(words, &error);
  EXPECT_TRUE(parsed) << error;
  result.module = std::make_unique<Module>(parsed ? std::move(*parsed) : Module());
  if (result.module->functions.empty()) {
    ADD_FAILURE() << "no function";
    return result;
  }
  result.function = &result.module->functions.front();
  for (Function& function : result.module->functions)
    if (result.module->NameOf(function.id()) == "main") result.function = &function;
  result.cfg = std::make_unique<Cfg>(*result.function);
  result.def_use = std::make_unique<DefUse>(*result.module);
  result.flow = std::make_unique<ValueFlow>(*result.module, *result.function, *result.cfg, options);
  EXPECT_EQ(result.module->Encode(), words) << "the analysis must not change the module";
  return result;
}

Flow BuildGlsl(const std::string& body, const std::string& functions = "") {
  std::string source = R"(#version 440
layout(local_size_x = 8) in;
layout(binding = 0) buffer B { int data[]; };
)" + functions + "void main() {\n" +
                       body + "}\n";
  std::vector<uint32_t> words = test::CompileGlsl(source, "comp");
  EXPECT_EQ(test::ValidateFor(words, TargetEnv::kVulkan10), "");
  return Build(words);
}

// --- GLSL as glslang lowers it. ---

TEST(ValueFlowGlsl, StraightLine_LastStoreReaches) {
  Flow f = BuildGlsl("int x = 1;\nx = 2;\ndata[0] = x;\nx = 3;\ndata[1] = x;\n");
  std::vector<const Instruction*> loads = f.LoadsOf("x");
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(f.Reaching(loads[0]), "store 2");
  EXPECT_EQ(f.Reaching(loads[1]), "store 3");
  EXPECT_EQ(f.Defs(loads[1]), "store 3");
  EXPECT_TRUE(f.flow->IsFollowed(f.IdOf("x")));
  EXPECT_EQ(f.flow->Refusal(f.IdOf("x")), nullptr);
}

// ValueFlowOptions::only_variables: the variables asked for get the versions the full
// view gives them; the others are not variables of the view (no versions, no refusal).
TEST(ValueFlowGlsl, OnlyVariables_AskedOnesAsInTheFullView) {
  std::vector<uint32_t> words = test::CompileGlsl(R"(#version 440
layout(local_size_x = 8) in;
layout(binding = 0) buffer B { int data[]; };
void main() {
  int a = data[0];
  int b = 2;
  if (a > 1) { a = 3; b = a; }
  data[1] = a + b;
}
)",
                                                  "comp");
  Flow full = Build(words);
  std::vector<uint8_t> only(full.module->header.bound, 0);
  only[full.IdOf("a")] = 1;
  ValueFlowOptions asked;
  asked.only_variables = &only;
  Flow partial = Build(words, asked);
  EXPECT_EQ(partial.flow->Variables(), std::vector<uint32_t>{full.IdOf("a")});
  EXPECT_TRUE(partial.flow->IsFollowed(full.IdOf("a")));
  EXPECT_FALSE(partial.flow->IsFollowed(full.IdOf("b")));
  EXPECT_EQ(partial.flow->Refusal(full.IdOf("b")), nullptr);
  ASSERT_EQ(partial.LoadsOf("a").size(), full.LoadsOf("a").size());
  for (size_t i = 0; i < full.LoadsOf("a").size(); ++i)
    EXPECT_EQ(partial.Defs(partial.LoadsOf("a")[i]), full.Defs(full.LoadsOf("a")[i]));
  for (const Instruction* load : partial.LoadsOf("b"))
    EXPECT_EQ(partial.flow->Reaching(load), ValueFlow::kNoNode);
  EXPECT_NE(full.flow->Reaching(full.LoadsOf("b").back()), ValueFlow::kNoNode);
}

// Phis of `variable` (of every variable when 0).
size_t PhiCount(const Flow& f, uint32_t variable = 0) {
  size_t count = 0;
  for (uint32_t node = 0; node < f.flow->NodeCount(); ++node) {
    const ValueFlowNode& n = f.flow->Node(node);
    count += n.kind == ValueFlowNode::Kind::kPhi && (!variable || n.variable == variable);
  }
  return count;
}

// Pruning by liveness: what every load of every variable reads, and the definitions it
// expands to, are those of the unpruned placement; only dead phis are left out.
void ExpectPrunedAsUnpruned(const std::string& body) {
  std::string source = R"(#version 440
layout(local_size_x = 8) in;
layout(binding = 0) buffer B { int data[]; };
void main() {
)" + body + "}\n";
  std::vector<uint32_t> words = test::CompileGlsl(source, "comp");
  Flow pruned = Build(words);
  ValueFlowOptions unpruned_options;
  unpruned_options.keep_dead_phis = true;
  Flow unpruned = Build(words, unpruned_options);
  size_t loads = 0;
  for (uint32_t variable : unpruned.flow->Variables()) {
    std::vector<const Instruction*> a = pruned.LoadsOfId(variable),
                                    b = unpruned.LoadsOfId(variable);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i, ++loads) {
      EXPECT_EQ(pruned.Reaching(a[i]), unpruned.Reaching(b[i])) << body;
      EXPECT_EQ(pruned.Defs(a[i]), unpruned.Defs(b[i])) << body;
      EXPECT_EQ(pruned.flow->CoveringDefinition(a[i]) == ValueFlow::kNoNode,
                unpruned.flow->CoveringDefinition(b[i]) == ValueFlow::kNoNode);
    }
  }
  EXPECT_GT(loads, 0u);
  EXPECT_LE(PhiCount(pruned), PhiCount(unpruned));
}

TEST(ValueFlowGlsl, Pruning_DeadAfterTheJoinGetsNoPhi) {
  // t is read before the selection and never after it: the join's phi would be dead.
  Flow f = BuildGlsl("int t = data[0];\ndata[1] = t;\nif (data[2] > 0) t = 5; else t = 6;\n");
  EXPECT_EQ(PhiCount(f, f.IdOf("t")), 0u);
  ValueFlowOptions keep;
  keep.keep_dead_phis = true;
  Flow unpruned = Build(f.words, keep);
  EXPECT_EQ(PhiCount(unpruned, unpruned.IdOf("t")), 1u) << "the phi pruning leaves out";
}

TEST(ValueFlowGlsl, Pruning_StoredBeforeEachReadInTheLoopGetsNoHeaderPhi) {
  // x is stored before it is read in every iteration: not live at the loop header; i is.
  Flow f = BuildGlsl("for (int i = 0; i < data[1]; ++i) {\n  int x = i * 2;\n  data[i] = x;\n}\n");
  EXPECT_EQ(PhiCount(f, f.IdOf("x")), 0u);
  EXPECT_EQ(PhiCount(f, f.IdOf("i")), 1u);
  for (const Instruction* load : f.LoadsOf("x")) EXPECT_EQ(f.Defs(load), "store IMul");
}

TEST(ValueFlowGlsl, Pruning_LiveThroughAPartialStoreKeepsItsPhi) {
  // The store to v[1] after the join updates the joined version: the phi is live.
  Flow f = BuildGlsl(
      "ivec2 v = ivec2(1, 2);\nif (data[0] > 0) v = ivec2(3, 4);\nv[1] = 7;\ndata[1] = v.x;\n");
  EXPECT_EQ(PhiCount(f, f.IdOf("v")), 1u);
  for (const Instruction* load : f.LoadsOf("v"))
    EXPECT_EQ(f.Defs(load), "store ConstantComposite, store ConstantComposite");
}

TEST(ValueFlowGlsl, Pruning_LoadsReadWhatTheUnprunedPlacementGives) {
  ExpectPrunedAsUnpruned("int x = 1;\nif (data[1] > 0) x = 2; else x = 3;\ndata[0] = x;\n");
  ExpectPrunedAsUnpruned(
      "int s = 0;\nfor (int i = 0; i < data[1]; ++i)\n  for (int j = 0; j < data[2]; ++j) {\n"
      "    int t = j * i;\n    if (t > 4) { s += t; continue; }\n    s -= 1;\n  }\ndata[0] = s;\n");
  ExpectPrunedAsUnpruned(
      "int a[4] = int[4](0, 1, 2, 3);\nint k = 0;\nwhile (k < data[0]) {\n  a[1] = k;\n"
      "  if (data[k] == 3) break;\n  k++;\n}\ndata[2] = a[1] + (k > 2 ? a[0] : a[3]);\n");
  ExpectPrunedAsUnpruned(
      "int m = data[0];\nswitch (m) {\n  case 0: m = 4; break;\n  case 1: data[3] = m;\n"
      "  default: m = data[m] > 0 && data[m + 1] > 0 ? 1 : 2;\n}\nint n = m;\ndo { n--; } "
      "while (n > data[5]);\ndata[1] = n;\n");
}

TEST(ValueFlowGlsl, IfElse_PhiAtJoin) {
  Flow f = BuildGlsl("int x = 1;\nif (data[1] > 0) x = 2; else x = 3;\ndata[0] = x;\n");
  std::vector<const Instruction*> loads = f.LoadsOf("x");
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(f.Reaching(loads[0]), "phi(store 2, store 3)");
  EXPECT_EQ(f.Defs(loads[0]), "store 2, store 3");  // the first store is killed on both paths
  const ValueFlowNode& phi = f.flow->Node(f.flow->Reaching(loads[0]));
  EXPECT_EQ(phi.kind, ValueFlowNode::Kind::kPhi);
  EXPECT_EQ(phi.block, f.def_use->BlockOf(loads[0]));
}

TEST(ValueFlowGlsl, IfWithoutElse_BothReach) {
  Flow f = BuildGlsl("int x = 1;\nif (data[1] > 0) x = 2;\ndata[0] = x;\n");
  std::vector<const Instruction*> loads = f.LoadsOf("x");
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(f.Reaching(loads[0]), "phi(store 1, store 2)");
}

TEST(ValueFlowGlsl, Loop_PhiAtHeader) {
  Flow f = BuildGlsl("int s = 0;\nfor (int i = 0; i < data[1]; ++i) s += i;\ndata[0] = s;\n");
  std::vector<const Instruction*> s_loads = f.LoadsOf("s");
  ASSERT_EQ(s_loads.size(), 2u);  // s += i, then data[0] = s
  EXPECT_EQ(f.Reaching(s_loads[0]), "phi(store 0, store IAdd)");
  EXPECT_EQ(f.Reaching(s_loads[1]), "phi(store 0, store IAdd)");
  const ValueFlowNode& phi = f.flow->Node(f.flow->Reaching(s_loads[1]));
  EXPECT_TRUE(f.cfg->IsLoopHeader(phi.block)) << "the merge of s is at the loop header";
  for (const Instruction* load : f.LoadsOf("i")) EXPECT_EQ(f.Defs(load), "store 0, store IAdd");
}

TEST(ValueFlowGlsl, NestedLoops_PhisSeeEachOther) {
  Flow f = BuildGlsl(
      "int s = 0;\nfor (int i = 0; i < data[1]; ++i)\n  for (int j = 0; j < data[2]; ++j) s += j;\n"
      "data[0] = s;\n");
  std::vector<const Instruction*> loads = f.LoadsOf("s");
  ASSERT_EQ(loads.size(), 2u);
  // After the loops: the outer header's phi, whose back edge brings the inner header's
  // phi, whose back edge brings the store in the inner body.
  EXPECT_EQ(f.Reaching(loads[1]), "phi(store 0, phi(phi^, store IAdd))");
  EXPECT_EQ(f.Defs(loads[1]), "store 0, store IAdd");
}

TEST(ValueFlowGlsl, Conditional_LoweredToBranchesAndATemporary) {
  Flow f = BuildGlsl("int y = data[1] > 0 ? data[2] : data[3];\ndata[0] = y;\n");
  // glslang stores each arm into an unnamed temporary and loads it at the merge.
  const Instruction* temp_load = nullptr;
  for (const Block& block : f.function->blocks)
    for (const Instruction& inst : block.instructions)
      if (inst.opcode == spv::OpStore && inst.words[0] == f.IdOf("y"))
        temp_load = f.def_use->Definition(inst.words[1]);
  ASSERT_TRUE(temp_load && temp_load->opcode == spv::OpLoad);
  EXPECT_EQ(f.Reaching(temp_load), "phi(store Load, store Load)");
  std::vector<uint32_t> defs = f.flow->Definitions(temp_load);
  ASSERT_EQ(defs.size(), 2u);
  EXPECT_NE(f.flow->Node(defs[0]).block, f.flow->Node(defs[1]).block) << "one store per arm";
  std::vector<const Instruction*> y_loads = f.LoadsOf("y");
  ASSERT_EQ(y_loads.size(), 1u);
  EXPECT_EQ(f.Reaching(y_loads[0]), "store Load");
}

TEST(ValueFlowGlsl, ShortCircuitAnd_StoreUnderCondition) {
  // glslang gives `&&` an OpPhi; the local assigned under the condition still merges.
  Flow f = BuildGlsl(
      "bool ok = data[1] > 0 && data[2] > 0;\nint x = 0;\nif (ok && data[3] > 0) x = 1;\n"
      "data[0] = x;\n");
  std::vector<const Instruction*> ok_loads = f.LoadsOf("ok");
  ASSERT_EQ(ok_loads.size(), 1u);
  EXPECT_EQ(f.Reaching(ok_loads[0]), "store Phi");
  std::vector<const Instruction*> x_loads = f.LoadsOf("x");
  ASSERT_EQ(x_loads.size(), 1u);
  EXPECT_EQ(f.Reaching(x_loads[0]), "phi(store 0, store 1)");
}

TEST(ValueFlowGlsl, OutParameter_PassedToCallIsRefused) {
  Flow f = BuildGlsl("int v;\nf(v);\ndata[0] = v;\n", "void f(out int r) { r = 3; }\n");
  // glslang passes a temporary `param` and copies it into v after the call.
  uint32_t param = f.IdOf("param");
  EXPECT_FALSE(f.flow->IsFollowed(param));
  const ValueFlowVariableRefusal* refusal = f.flow->Refusal(param);
  ASSERT_NE(refusal, nullptr);
  EXPECT_EQ(refusal->reason, ValueFlowRefusal::kPassedToCall);
  EXPECT_EQ(refusal->message,
            "`param` is not followed: passed to a function call (OpFunctionCall)");
  EXPECT_EQ(refusal->at->opcode, spv::OpFunctionCall);
  for (const Instruction* load : f.LoadsOfId(param))
    EXPECT_EQ(f.flow->Reaching(load), ValueFlow::kNoNode);
  std::vector<const Instruction*> v_loads = f.LoadsOf("v");
  ASSERT_EQ(v_loads.size(), 1u);
  EXPECT_EQ(f.Reaching(v_loads[0]), "store Load");
}

TEST(ValueFlowGlsl, Undefined_WhenNotAssignedOnEveryPath) {
  Flow f = BuildGlsl("int x;\nif (data[1] > 0) x = 1;\ndata[0] = x;\n");
  std::vector<const Instruction*> loads = f.LoadsOf("x");
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(f.Reaching(loads[0]), "phi(undefined, store 1)");
  EXPECT_EQ(f.Defs(loads[0]), "store 1, undefined");
}

TEST(ValueFlowGlsl, PartialStores_ArrayElements) {
  Flow f = BuildGlsl(
      "int a[4];\na[0] = 1;\na[1] = 2;\ndata[0] = a[0];\ndata[1] = a[1];\ndata[2] = a[2];\n"
      "int b[4] = a;\ndata[3] = b[3];\n");
  std::vector<const Instruction*> loads = f.LoadsOf("a");
  ASSERT_EQ(loads.size(), 4u);  // a[0], a[1], a[2], the whole of a
  EXPECT_EQ(f.Defs(loads[0]), "store 1") << "a[1] = 2 is to another element";
  EXPECT_EQ(f.Defs(loads[1]), "store 2");
  EXPECT_EQ(f.Defs(loads[2]), "undefined");
  EXPECT_EQ(f.Defs(loads[3]), "store 1, store 2, undefined")
      << "the whole array: both parts and the rest";
  // The version at every load is the last partial store, which updates the one before.
  const ValueFlowNode& last = f.flow->Node(f.flow->Reaching(loads[0]));
  EXPECT_EQ(last.path, std::vector<uint32_t>{1});
  EXPECT_EQ(f.Describe(last.previous), "store 1");
  std::vector<uint32_t> path;
  uint32_t variable = 0;
  ASSERT_TRUE(f.flow->LoadTarget(loads[2], &variable, &path));
  EXPECT_EQ(variable, f.IdOf("a"));
  EXPECT_EQ(path, std::vector<uint32_t>{2});
  std::vector<const Instruction*> b_loads = f.LoadsOf("b");
  ASSERT_EQ(b_loads.size(), 1u);
  EXPECT_EQ(f.Defs(b_loads[0]), "store Load") << "a whole store covers every element";
}

TEST(ValueFlowGlsl, PartialStores_VectorComponentAfterWholeStore) {
  Flow f = BuildGlsl("ivec4 v = ivec4(data[1]);\nv.y = 5;\ndata[0] = v.x + v.y + v.w;\n");
  std::vector<const Instruction*> loads = f.LoadsOf("v");
  ASSERT_EQ(loads.size(), 3u);
  EXPECT_EQ(f.Defs(loads[0]), "store CompositeConstruct");
  EXPECT_EQ(f.Defs(loads[1]), "store 5");
  EXPECT_EQ(f.Defs(loads[2]), "store CompositeConstruct");
}

TEST(ValueFlowGlsl, DynamicIndex_Refused) {
  Flow f = BuildGlsl("int a[4] = int[4](1, 2, 3, 4);\ndata[0] = a[data[1]];\n");
  const ValueFlowVariableRefusal* refusal = f.flow->Refusal(f.IdOf("a"));
  ASSERT_NE(refusal, nullptr);
  EXPECT_EQ(refusal->reason, ValueFlowRefusal::kDynamicIndex);
  EXPECT_EQ(refusal->message, "`a` is not followed: indexed by a non-constant (OpAccessChain)");
}

// --- SPIR-V assembly: initializers, each escape, unreachable code, the budget. ---

const char* kAsmHeader = R"(
OpCapability Shader
OpCapability VariablePointers
OpCapability Addresses
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %main "main"
OpName %v "v"
OpName %w "w"
OpName %u "u"
OpName %holder "holder"
OpName %i "i"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%true = OpConstantTrue %bool
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%int_7 = OpConstant %int 7
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_4 = OpConstant %uint 4
%spec = OpSpecConstant %int 1
%arr = OpTypeArray %int %uint_4
%ptr_arr = OpTypePointer Function %arr
%ptr_int = OpTypePointer Function %int
%ptr_ptr = OpTypePointer Function %ptr_arr
%fn_ptr = OpTypeFunction %void %ptr_arr
%callee = OpFunction %void None %fn_ptr
%param = OpFunctionParameter %ptr_arr
%callee_entry = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ptr_arr Function
%w = OpVariable %ptr_arr Function
%u = OpVariable %ptr_arr Function
%holder = OpVariable %ptr_ptr Function
%i = OpVariable %ptr_int Function %int_7
)";

struct EscapeCase {
  const char* name;
  const char* code;  // uses %v in the way under test
  ValueFlowRefusal reason;
  const char* opcode;
};

void PrintTo(const EscapeCase& c, std::ostream* os) { *os << c.name; }

class ValueFlowEscape : public ::testing::TestWithParam<EscapeCase> {};

TEST_P(ValueFlowEscape, RefusedWithReason) {
  const EscapeCase& c = GetParam();
  std::string text = std::string(kAsmHeader) + c.code +
                     "\n%we = OpAccessChain %ptr_int %w %int_1\nOpStore %we %int_1\n"
                     "%wl = OpLoad %int %we\nOpReturn\nOpFunctionEnd\n";
  Flow f = Build(test::Assemble(text));
  uint32_t v = f.IdOf("v");
  EXPECT_FALSE(f.flow->IsFollowed(v));
  const ValueFlowVariableRefusal* refusal = f.flow->Refusal(v);
  ASSERT_NE(refusal, nullptr);
  EXPECT_EQ(refusal->reason, c.reason);
  EXPECT_EQ(refusal->message, std::string("`v` is not followed: ") +
                                  ValueFlowRefusalName(c.reason) + " (" + c.opcode + ")");
  // A variable used only in followable ways is unaffected.
  EXPECT_TRUE(f.flow->IsFollowed(f.IdOf("w")));
  std::vector<const Instruction*> w_loads = f.LoadsOf("w");
  ASSERT_EQ(w_loads.size(), 1u);
  EXPECT_EQ(f.Defs(w_loads[0]), "store 1");
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, ValueFlowEscape,
    ::testing::Values(
        EscapeCase{"Call", "%r = OpFunctionCall %void %callee %v", ValueFlowRefusal::kPassedToCall,
                   "OpFunctionCall"},
        EscapeCase{"Stored", "OpStore %holder %v", ValueFlowRefusal::kStoredAsValue, "OpStore"},
        EscapeCase{"CopyMemoryTarget", "OpCopyMemory %v %u", ValueFlowRefusal::kCopied,
                   "OpCopyMemory"},
        EscapeCase{"CopyMemorySource", "OpCopyMemory %u %v", ValueFlowRefusal::kCopied,
                   "OpCopyMemory"},
        EscapeCase{"DynamicIndex", "%k = OpLoad %int %i\n%p = OpAccessChain %ptr_int %v %k",
                   ValueFlowRefusal::kDynamicIndex, "OpAccessChain"},
        EscapeCase{"SpecConstantIndex", "%p = OpInBoundsAccessChain %ptr_int %v %spec",
                   ValueFlowRefusal::kDynamicIndex, "OpInBoundsAccessChain"},
        EscapeCase{"Atomic",
                   "%p = OpAccessChain %ptr_int %v %int_0\n%o = OpAtomicIAdd %int %p %uint_1 "
                   "%uint_0 %int_1",
                   ValueFlowRefusal::kAtomic, "OpAtomicIAdd"},
        EscapeCase{"PtrAccessChain", "%p = OpPtrAccessChain %ptr_arr %v %int_0",
                   ValueFlowRefusal::kPtrAccessChain, "OpPtrAccessChain"},
        EscapeCase{"Select", "%p = OpSelect %ptr_arr %true %v %u", ValueFlowRefusal::kSelected,
                   "OpSelect"},
        EscapeCase{"CopyObject", "%p = OpCopyObject %ptr_arr %v", ValueFlowRefusal::kOtherUse,
                   "OpCopyObject"}),
    [](const ::testing::TestParamInfo<EscapeCase>& info) { return std::string(info.param.name); });

TEST(ValueFlowAsm, PhiOfPointers_Refused) {
  std::string text = std::string(kAsmHeader) + R"(
OpSelectionMerge %join None
OpBranchConditional %true %then %join
%then = OpLabel
OpBranch %join
%join = OpLabel
%p = OpPhi %ptr_arr %v %entry %u %then
OpReturn
OpFunctionEnd
)";
  Flow f = Build(test::Assemble(text));
  ASSERT_NE(f.flow->Refusal(f.IdOf("v")), nullptr);
  EXPECT_EQ(f.flow->Refusal(f.IdOf("v"))->reason, ValueFlowRefusal::kSelected);
  EXPECT_EQ(f.flow->Refusal(f.IdOf("u"))->reason, ValueFlowRefusal::kSelected);
}

TEST(ValueFlowAsm, Initializer_ReachesUntilStored) {
  std::string text = std::string(kAsmHeader) + R"(
%a = OpLoad %int %i
OpSelectionMerge %join None
OpBranchConditional %true %then %join
%then = OpLabel
OpStore %i %int_1
OpBranch %join
%join = OpLabel
%b = OpLoad %int %i
OpReturn
OpFunctionEnd
)";
  Flow f = Build(test::Assemble(text));
  std::vector<const Instruction*> loads = f.LoadsOf("i");
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(f.Reaching(loads[0]), "initializer 7");
  EXPECT_EQ(f.Reaching(loads[1]), "phi(initializer 7, store 1)");
}

TEST(ValueFlowAsm, UnreachableCode_NoVersions) {
  std::string text = std::string(kAsmHeader) + R"(
OpSelectionMerge %join None
OpBranchConditional %true %then %join
%then = OpLabel
OpStore %i %int_1
OpBranch %join
%dead = OpLabel
OpStore %i %int_0
%d = OpLoad %int %i
OpBranch %join
%join = OpLabel
%b = OpLoad %int %i
OpReturn
OpFunctionEnd
)";
  Flow f = Build(test::Assemble(text));
  std::vector<const Instruction*> loads = f.LoadsOf("i");
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(f.flow->Reaching(loads[0]), ValueFlow::kNoNode) << "a load in unreachable code";
  // Predecessors of %join: %entry, %then, %dead; the dead edge brings nothing.
  EXPECT_EQ(f.Reaching(loads[1]), "phi(initializer 7, store 1, none)");
  EXPECT_EQ(f.Defs(loads[1]), "initializer 7, store 1");
}

TEST(ValueFlowAsm, NonSemanticDebugUse_Ignored) {
  std::string text = R"(
OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%dbg = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %main "main"
OpName %x "x"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%int_3 = OpConstant %int 3
%ptr_int = OpTypePointer Function %int
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %ptr_int Function
%n = OpExtInst %void %dbg 26 %x %x %x
OpStore %x %int_3
%l = OpLoad %int %x
OpReturn
OpFunctionEnd
)";
  Flow f = Build(test::Assemble(text));
  EXPECT_TRUE(f.flow->IsFollowed(f.IdOf("x")));
  std::vector<const Instruction*> loads = f.LoadsOf("x");
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(f.Reaching(loads[0]), "store 3");
}

TEST(ValueFlowAsm, WorkBudget_RefusesByName) {
  std::string text = std::string(kAsmHeader) + "%a = OpLoad %int %i\nOpReturn\nOpFunctionEnd\n";
  ValueFlowOptions options;
  options.work_budget = 3;
  Flow f = Build(test::Assemble(text), options);
  EXPECT_EQ(f.flow->FunctionRefusal(),
            "value-flow work budget of 3 steps exhausted in this function");
  const ValueFlowVariableRefusal* refusal = f.flow->Refusal(f.IdOf("i"));
  ASSERT_NE(refusal, nullptr);
  EXPECT_EQ(refusal->reason, ValueFlowRefusal::kBudget);
  EXPECT_EQ(f.flow->NodeCount(), 0u);
  EXPECT_EQ(f.flow->Reaching(f.LoadsOf("i").at(0)), ValueFlow::kNoNode);
  // The same function within the default budget.
  Flow ok = Build(test::Assemble(text));
  EXPECT_EQ(ok.flow->FunctionRefusal(), "");
  EXPECT_EQ(ok.Reaching(ok.LoadsOf("i").at(0)), "initializer 7");
  EXPECT_GT(ok.flow->WorkUsed(), 3u);
}

}  // namespace
}  // namespace glint::spirv
