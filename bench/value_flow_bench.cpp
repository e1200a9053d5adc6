// Value flow of Function variables (SPIRV/analysis/memory/value_flow.h) on generated modules of
// about 1k, 10k and 100k instructions: shows that building the SSA view is near linear.
//
// The generated compute shader has one function with 64 int locals and a sequence of
// segments, each an if/else diamond that stores different locals on each side and loads
// them at the merge, and every fourth segment a loop that counts one local up; so there
// are phis at every merge and loop header, and loads reaching across all of them. For
// each size it assembles, parses, then times (a) the CFG with dominators and (b) the
// value flow, and (c) Definitions() of every followed load; processor time per
// instruction, and its ratio to the smallest size (flat means linear). Each time is the
// fastest of 5 runs (the machine is shared).
//
// Run: ninja -C <build> value_flow_bench && <build>/bench/value_flow_bench [runs [sizes...]]
// (e.g. `value_flow_bench 1 100000` under valgrind --tool=callgrind to count instructions).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <vector>

#include "SPIRV/analysis/memory/value_flow.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/parser.h"

namespace {

using glint::spirv::Cfg;
using glint::spirv::Module;
using glint::spirv::ValueFlow;

constexpr int kLocals = 64;

std::string Local(int n) { return "%x" + std::to_string(n % kLocals); }

// An if/else on a loaded local: each side stores another local, the merge loads both.
std::string Diamond(int k) {
  std::string s = std::to_string(k);
  std::string a = Local(3 * k), b = Local(3 * k + 1), c = Local(3 * k + 2);
  return "%a" + s + " = OpLoad %int " + a + "\n%c" + s + " = OpSLessThan %bool %a" + s +
         " %int_7\nOpSelectionMerge %m" + s + " None\nOpBranchConditional %c" + s + " %t" + s +
         " %e" + s + "\n%t" + s + " = OpLabel\n%s" + s + " = OpIAdd %int %a" + s +
         " %int_1\nOpStore " + a + " %s" + s + "\nOpBranch %m" + s + "\n%e" + s +
         " = OpLabel\nOpStore " + b + " %a" + s + "\nOpBranch %m" + s + "\n%m" + s +
         " = OpLabel\n%l" + s + " = OpLoad %int " + b + "\n%r" + s + " = OpLoad %int " + a +
         "\n%q" + s + " = OpIAdd %int %l" + s + " %r" + s + "\nOpStore " + c + " %q" + s + "\n";
}

// A loop that counts local `a` up to 100.
std::string Loop(int k) {
  std::string s = std::to_string(k), a = Local(5 * k);
  return "OpBranch %h" + s + "\n%h" + s + " = OpLabel\nOpLoopMerge %lm" + s + " %lc" + s +
         " None\nOpBranch %lb" + s + "\n%lb" + s + " = OpLabel\n%i" + s + " = OpLoad %int " + a +
         "\n%ci" + s + " = OpSLessThan %bool %i" + s + " %int_100\nOpBranchConditional %ci" + s +
         " %lc" + s + " %lm" + s + "\n%lc" + s + " = OpLabel\n%n" + s + " = OpIAdd %int %i" + s +
         " %int_1\nOpStore " + a + " %n" + s + "\nOpBranch %h" + s + "\n%lm" + s + " = OpLabel\n";
}

std::string Shader(int segments) {
  std::string text = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%bool = OpTypeBool
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%int_7 = OpConstant %int 7
%int_100 = OpConstant %int 100
%ptr = OpTypePointer Function %int
%main = OpFunction %void None %fn
%entry = OpLabel
)";
  for (int i = 0; i < kLocals; ++i) text += Local(i) + " = OpVariable %ptr Function %int_0\n";
  for (int k = 0; k < segments; ++k) text += (k % 4 == 3 ? Loop(k) : "") + Diamond(k);
  return text + "OpReturn\nOpFunctionEnd\n";
}

double Seconds(std::clock_t since) { return double(std::clock() - since) / CLOCKS_PER_SEC; }

int runs = 5;

// Fastest of `runs` runs of `work`, in seconds of processor time.
double Fastest(const std::function<void()>& work) {
  double best = 1e30;
  for (int run = 0; run < runs; ++run) {
    std::clock_t start = std::clock();
    work();
    best = std::min(best, Seconds(start));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes = {1000, 10000, 100000};
  if (argc > 1) runs = std::max(1, std::atoi(argv[1]));
  if (argc > 2) sizes.assign({});
  for (int i = 2; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_0);
  std::printf("%8s %8s %8s %10s %10s %10s %12s %7s  %s\n", "instrs", "blocks", "nodes", "cfg ms",
              "flow ms", "defs ms", "flow ns/inst", "ratio", "loads / phis");
  double base = 0;
  for (int target : sizes) {
    std::vector<uint32_t> words;
    // About 16 instructions per segment (a loop adds 10 every fourth segment).
    if (!tools.Assemble(Shader(target / 16), &words)) {
      std::fprintf(stderr, "assembly failed for %d\n", target);
      return 1;
    }
    std::string error;
    std::optional<Module> module = glint::spirv::ParseModule(words, &error);
    if (!module) {
      std::fprintf(stderr, "parse failed: %s\n", error.c_str());
      return 1;
    }
    size_t instructions = 0;
    module->ForEachInstruction([&](const glint::spirv::Instruction&) { ++instructions; });
    glint::spirv::Function& function = module->functions.front();
    double cfg_s = Fastest([&] { Cfg cfg(function); });
    Cfg cfg(function);
    double flow_s = Fastest([&] { ValueFlow flow(*module, function, cfg); });
    ValueFlow flow(*module, function, cfg);
    if (!flow.FunctionRefusal().empty()) {
      std::fprintf(stderr, "refused: %s\n", flow.FunctionRefusal().c_str());
      return 1;
    }
    size_t loads = 0, phis = 0, definitions = 0;
    for (size_t node = 0; node < flow.NodeCount(); ++node)
      phis += flow.Node(uint32_t(node)).kind == glint::spirv::ValueFlowNode::Kind::kPhi;
    double defs_s = Fastest([&] {
      loads = definitions = 0;
      for (const glint::spirv::Block& block : function.blocks)
        for (const glint::spirv::Instruction& inst : block.instructions)
          if (inst.opcode == spv::OpLoad && flow.Reaching(&inst) != ValueFlow::kNoNode) {
            ++loads;
            definitions += flow.Definitions(&inst).size();
          }
    });
    double per_instruction = flow_s * 1e9 / double(instructions);
    if (base == 0) base = per_instruction;
    std::printf("%8zu %8zu %8zu %10.2f %10.2f %10.2f %12.1f %7.2f  %zu / %zu (%zu definitions)\n",
                instructions, function.blocks.size(), flow.NodeCount(), cfg_s * 1e3, flow_s * 1e3,
                defs_s * 1e3, per_instruction, per_instruction / base, loads, phis, definitions);
  }
  return 0;
}
