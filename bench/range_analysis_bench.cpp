// Integer range analysis on long arithmetic chains: shows that the analysis is linear
// in module size and does not recurse on the chain's depth.
//
// For each size N it builds a compute shader whose index into a 64-element array is the
// end of a chain of N dependent instructions (+3, *2, /2, -3, repeated, starting from
// LocalInvocationIndex in [0, 63], so every link has a range), writes it as a .spv file,
// reads that file back, parses it, and times (a) building the def-use index and (b) the
// range report (its own def-use index plus every index's range, which evaluates the
// whole chain). It prints time
// per instruction and its ratio to the smallest size: a flat ratio means linear time.
//
// Run: ninja -C <build> range_analysis_bench && <build>/bench/range_analysis_bench
#include <cstdio>
#include <ctime>
#include <fstream>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <vector>

#include "SPIRV/analysis/integer_range_analysis.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/range_report.h"

namespace {

using glint::spirv::Module;

// `through_locals`: every link also goes through its own Function variable (store, then
// load), as glslang emits `uint x = ...;` - full mode's single-store rule then carries
// the range, which exercises the dominance and in-block order checks.
std::string ChainShader(int length, bool through_locals) {
  std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %idx
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %idx BuiltIn LocalInvocationIndex
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_64 = OpConstant %uint 64
%ptr_in = OpTypePointer Input %uint
%idx = OpVariable %ptr_in Input
%arr = OpTypeArray %uint %uint_64
%ptr_fn_arr = OpTypePointer Function %arr
%ptr_fn = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%table = OpVariable %ptr_fn_arr Function
%v0 = OpLoad %uint %idx
)";
  if (through_locals) {
    std::string variables;
    for (int i = 1; i <= length; ++i)
      variables += "%x" + std::to_string(i) + " = OpVariable %ptr_fn Function\n";
    text.insert(text.find("%v0 = OpLoad"), variables);
  }
  static const char* kSteps[] = {"OpIAdd %uint %v{} %uint_3", "OpIMul %uint %v{} %uint_2",
                                 "OpUDiv %uint %v{} %uint_2", "OpISub %uint %v{} %uint_3"};
  for (int i = 1; i <= length; ++i) {
    std::string step = kSteps[(i - 1) % 4];
    step.replace(step.find("{}"), 2, std::to_string(i - 1));
    std::string n = std::to_string(i);
    if (!through_locals) {
      text += "%v" + n + " = " + step + "\n";
      continue;
    }
    text += "%s" + n + " = " + step + "\nOpStore %x" + n + " %s" + n + "\n%v" + n +
            " = OpLoad %uint %x" + n + "\n";
  }
  text += "%p = OpAccessChain %ptr_fn %table %v" + std::to_string(length) + "\n";
  text += "OpStore %p %uint_2\nOpReturn\nOpFunctionEnd\n";
  return text;
}

// Processor time of this process: the machine is shared, so wall time would also
// count other people's work.
double Seconds(std::clock_t since) { return double(std::clock() - since) / CLOCKS_PER_SEC; }

std::vector<uint32_t> WriteAndReadBack(const std::vector<uint32_t>& words,
                                       const std::string& path) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(words.data()), std::streamsize(words.size() * 4));
  std::ifstream in(path, std::ios::binary);
  std::vector<uint32_t> read(words.size());
  in.read(reinterpret_cast<char*>(read.data()), std::streamsize(read.size() * 4));
  return read;
}

}  // namespace

int main() {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_0);
  const int kSizes[] = {1000, 10000, 100000, 400000};
  double base_per_instruction = 0;
  for (bool locals : {false, true}) {
    std::printf("%s\n%8s %11s %11s %11s %16s %7s  %s\n",
                locals ? "chain through single-store locals (3 instructions per link)"
                       : "chain of arithmetic (1 instruction per link)",
                "links", "def-use ms", "ranges ms", "report ms", "ranges ns/link", "ratio",
                "index range");
    base_per_instruction = 0;
    for (int size : kSizes) {
      std::vector<uint32_t> assembled;
      if (!tools.Assemble(ChainShader(size, locals), &assembled)) {
        std::fprintf(stderr, "assembly failed for size %d\n", size);
        return 1;
      }
      std::string path = "/tmp/glint_range_chain_" + std::to_string(size) + ".spv";
      std::vector<uint32_t> words = WriteAndReadBack(assembled, path);
      std::string error;
      std::optional<Module> module = glint::spirv::ParseModule(words, &error);
      if (!module) {
        std::fprintf(stderr, "parse failed: %s\n", error.c_str());
        return 1;
      }
      std::clock_t start = std::clock();
      glint::spirv::DefUse def_use(*module);
      double def_use_s = Seconds(start);
      // The analysis alone on the prebuilt index: the range of the chain's last value.
      start = std::clock();
      glint::spirv::IntegerRangeAnalysis analysis(*module, def_use, {});
      uint32_t chain_end = 0;
      for (const glint::spirv::Instruction& inst :
           module->functions.front().blocks.front().instructions)
        if (inst.opcode == spv::OpAccessChain) chain_end = inst.words.at(1);
      glint::spirv::IntegerRange last = analysis.RangeOf(chain_end);
      double analysis_s = Seconds(start);
      glint::spirv::Options options;
      glint::spirv::Report report;
      start = std::clock();
      glint::spirv::CollectAccessRecords(*module, options, &report);
      double ranges_s = Seconds(start);
      double per_instruction = analysis_s * 1e9 / size;
      if (base_per_instruction == 0) base_per_instruction = per_instruction;
      const glint::spirv::AccessRecord& record = report.accesses.back();
      std::string range = record.has_range ? "[" + std::to_string(record.range_min) + ", " +
                                                 std::to_string(record.range_max) + "]"
                                           : "no range: " + record.reason;
      if (!last.valid || last.min != record.range_min || last.max != record.range_max)
        range += " (!)";
      std::printf("%8d %11.2f %11.2f %11.2f %16.1f %7.2f  %s\n", size, def_use_s * 1e3,
                  analysis_s * 1e3, ranges_s * 1e3, per_instruction,
                  per_instruction / base_per_instruction, range.c_str());
      std::remove(path.c_str());
    }
  }
  return 0;
}
