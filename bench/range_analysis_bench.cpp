// Integer range analysis on long modules: shows that the analysis is near-linear in
// module size and does not recurse on the depth of a chain or of the dominator tree.
//
// Three shapes, each at about 1k, 10k, 100k and 400k instructions in the function:
//   chain   the index into a 64-element array is the end of a chain of dependent
//           instructions (+3, *2, /2, -3, repeated, starting from LocalInvocationIndex
//           in [0, 63], so every link has a range);
//   locals  the same chain with every link stored to and loaded from its own Function
//           variable (4 instructions per link), as glslang emits `uint x = ...;`;
//   guards  deeply nested guards (full mode): `if (v < 64u) { t[v] = 2u; v = v + 1u;
//           if (v < 64u) { ... } }` nested to the end of the function (about 100k
//           instructions is ~9,000 nested ifs), v starting from a buffer load (no
//           range), so every access is proven by its own guard only, at the bottom of
//           a dominator tree as deep as the nesting.
// For each it writes the module as a .spv file in a private temporary directory, reads
// it back, parses it, and times (a) building the def-use index, (b) the analysis alone
// (chain: the range of the last value; guards: the range at every access, as robust
// access asks), (c) the range report (its own def-use index and CFGs, every index's
// range at its use, full mode). It prints time per instruction and its ratio to the
// smallest size: a flat ratio means linear time. Building the def-use index (hash maps
// over every id) is the yardstick: its time per instruction grows with size too, from
// caches, not from the algorithm. Processor time of this process, the smallest of a
// few runs for sizes up to 100k.
//
// Run: ninja -C <build> range_analysis_bench && nice <build>/bench/range_analysis_bench
// Options (for profiling one case, e.g. under callgrind): --only chain|locals|guards,
// --max-size N (skip sizes above N instructions).
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <vector>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/range/integer_range_analysis.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/range_report.h"

namespace {

using glint::spirv::Module;

enum class Shape { kChain, kLocals, kGuards };

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

// `levels` nested ifs, each guarding an access with the value it tests (see the file
// comment). 11 instructions per level, counting labels.
std::string NestedGuardsShader(int levels) {
  std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %block Block
OpMemberDecorate %block 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_64 = OpConstant %uint 64
%block = OpTypeStruct %uint
%ptr_sb_block = OpTypePointer StorageBuffer %block
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%buf = OpVariable %ptr_sb_block StorageBuffer
%arr = OpTypeArray %uint %uint_64
%ptr_fn_arr = OpTypePointer Function %arr
%ptr_fn = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%table = OpVariable %ptr_fn_arr Function
%src = OpAccessChain %ptr_sb_uint %buf %uint_0
%v0 = OpLoad %uint %src
OpBranch %h1
)";
  for (int i = 1; i <= levels; ++i) {
    std::string n = std::to_string(i), prev = std::to_string(i - 1);
    text += "%h" + n + " = OpLabel\n%c" + n + " = OpULessThan %bool %v" + prev + " %uint_64\n" +
            "OpSelectionMerge %m" + n + " None\nOpBranchConditional %c" + n + " %t" + n + " %m" +
            n + "\n%t" + n + " = OpLabel\n%p" + n + " = OpAccessChain %ptr_fn %table %v" + prev +
            "\nOpStore %p" + n + " %uint_2\n%v" + n + " = OpIAdd %uint %v" + prev + " %uint_1\n";
    text += i < levels ? "OpBranch %h" + std::to_string(i + 1) + "\n" : "OpBranch %m" + n + "\n";
  }
  for (int i = levels; i >= 1; --i)
    text += "%m" + std::to_string(i) + " = OpLabel\n" +
            (i > 1 ? "OpBranch %m" + std::to_string(i - 1) + "\n" : "OpReturn\n");
  return text + "OpFunctionEnd\n";
}

std::string ShaderOf(Shape shape, int instructions) {
  switch (shape) {
    case Shape::kChain:
      return ChainShader(instructions, false);
    case Shape::kLocals:
      return ChainShader(instructions / 4, true);
    case Shape::kGuards:
      return NestedGuardsShader(instructions / 11);
  }
  return "";
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

size_t CountInstructions(const glint::spirv::Function& function) {
  size_t count = 0;
  for (const glint::spirv::Block& block : function.blocks) count += 1 + block.instructions.size();
  return count;
}

struct Measured {
  size_t instructions = 0;
  double def_use_ms = 0, analysis_ms = 0, report_ms = 0;
  std::string outcome;  // the last index's range, or how many accesses were proven
};

// The analysis alone on a prebuilt index (the context's def-use, built before). Chains:
// the range of the last value. Nested guards: the range at each access (robust access's
// question), all must be in [0, 63].
std::string TimeAnalysis(Shape shape, glint::spirv::AnalysisContext& analyses, Module& module,
                         double* ms) {
  std::clock_t start = std::clock();
  glint::spirv::IntegerRangeAnalysis& analysis = analyses.GetIntegerRanges({});
  size_t accesses = 0, proven = 0;
  glint::spirv::IntegerRange last;
  for (glint::spirv::Block& block : module.functions.front().blocks)
    for (const glint::spirv::Instruction& inst : block.instructions) {
      if (inst.opcode != spv::OpAccessChain || inst.words.size() != 2) continue;  // base, index
      last = shape == Shape::kGuards ? analysis.RangeAt(inst.words[1], inst)
                                     : analysis.RangeOf(inst.words[1]);
      ++accesses;
      proven += last.ProvesWithin(63);
    }
  *ms = Seconds(start) * 1e3;
  if (shape == Shape::kGuards)
    return std::to_string(proven) + " of " + std::to_string(accesses) + " accesses proven";
  return last.valid ? "[" + std::to_string(last.min) + ", " + std::to_string(last.max) + "]"
                    : "no range: " + last.reason;
}

bool Measure(spvtools::SpirvTools& tools, Shape shape, int size, const std::string& dir,
             Measured* measured) {
  std::vector<uint32_t> assembled;
  if (!tools.Assemble(ShaderOf(shape, size), &assembled) ||
      (size <= 1000 && !tools.Validate(assembled))) {
    std::fprintf(stderr, "assembly or validation failed for size %d\n", size);
    return false;
  }
  std::string path = dir + "/module_" + std::to_string(size) + ".spv";
  std::vector<uint32_t> words = WriteAndReadBack(assembled, path);
  std::filesystem::remove(path);
  std::string error;
  std::optional<Module> module = glint::spirv::ParseModule(words, &error);
  if (!module) {
    std::fprintf(stderr, "parse failed: %s\n", error.c_str());
    return false;
  }
  measured->instructions = CountInstructions(module->functions.front());
  std::clock_t start = std::clock();
  glint::spirv::AnalysisContext analyses(*module);
  analyses.GetDefUse();
  measured->def_use_ms = Seconds(start) * 1e3;
  measured->outcome = TimeAnalysis(shape, analyses, *module, &measured->analysis_ms);
  glint::spirv::Options options;  // full mode, the default
  glint::spirv::Report report;
  start = std::clock();
  glint::spirv::CollectAccessRecords(*module, options, &report);
  measured->report_ms = Seconds(start) * 1e3;
  size_t proven = 0;
  for (const glint::spirv::AccessRecord& record : report.accesses)
    proven += record.has_range && record.range_min >= 0 && record.range_max <= 63;
  if (shape == Shape::kGuards && proven != report.accesses.size())
    measured->outcome += " (report disagrees!)";
  return true;
}

const char* Title(Shape shape) {
  switch (shape) {
    case Shape::kChain:
      return "chain of arithmetic (1 instruction per link)";
    case Shape::kLocals:
      return "chain through single-store locals (4 instructions per link, with its variable)";
    case Shape::kGuards:
      return "deeply nested guards, full mode (11 instructions per nested if)";
  }
  return "";
}

// Reads --only and --max-size; false (with a message) on anything else.
bool ParseOptions(int argc, char** argv, std::vector<Shape>* shapes, int* max_size) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc || (arg != "--only" && arg != "--max-size")) {
      std::fprintf(stderr,
                   "usage: range_analysis_bench [--only chain|locals|guards] [--max-size N]\n");
      return false;
    }
    std::string value = argv[++i];
    if (arg == "--max-size") {
      *max_size = std::atoi(value.c_str());
    } else if (value == "chain" || value == "locals" || value == "guards") {
      *shapes = {value == "chain"    ? Shape::kChain
                 : value == "locals" ? Shape::kLocals
                                     : Shape::kGuards};
    } else {
      std::fprintf(stderr, "range_analysis_bench: unknown shape '%s'\n", value.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Shape> shapes = {Shape::kChain, Shape::kLocals, Shape::kGuards};
  int max_size = 400000;
  if (!ParseOptions(argc, argv, &shapes, &max_size)) return 2;
  char pattern[] = "/tmp/glint-range-bench-XXXXXX";  // private: never a fixed path
  if (!mkdtemp(pattern)) {
    std::perror("range_analysis_bench: mkdtemp");
    return 1;
  }
  const std::string dir = pattern;
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_3);
  const int kSizes[] = {1000, 10000, 100000, 400000};
  int status = 0;
  for (Shape shape : shapes) {
    std::printf("%s\n%8s %11s %11s %11s %13s %6s %13s %6s %13s %6s  %s\n", Title(shape), "instrs",
                "def-use ms", "analysis ms", "report ms", "def-use ns/in", "ratio",
                "analysis ns/in", "ratio", "report ns/in", "ratio", "outcome");
    double base_def_use = 0, base_analysis = 0, base_report = 0;
    for (int size : kSizes) {
      if (size > max_size) break;
      // The smallest of a few runs (fewer for big sizes): small sizes take a millisecond,
      // where one preemption on a shared machine would decide the ratio.
      const int runs = size <= 10000 ? 9 : size <= 100000 ? 3 : 1;
      Measured m;
      for (int run = 0; run < runs && status == 0; ++run) {
        Measured once;
        if (!Measure(tools, shape, size, dir, &once)) status = 1;
        if (run == 0) m = once;
        m.def_use_ms = std::min(m.def_use_ms, once.def_use_ms);
        m.analysis_ms = std::min(m.analysis_ms, once.analysis_ms);
        m.report_ms = std::min(m.report_ms, once.report_ms);
      }
      if (status) break;
      double def_use = m.def_use_ms * 1e6 / m.instructions;
      double analysis = m.analysis_ms * 1e6 / m.instructions,
             report = m.report_ms * 1e6 / m.instructions;
      if (base_analysis == 0)
        base_def_use = def_use, base_analysis = analysis, base_report = report;
      std::printf("%8zu %11.2f %11.2f %11.2f %13.1f %6.2f %13.1f %6.2f %13.1f %6.2f  %s\n",
                  m.instructions, m.def_use_ms, m.analysis_ms, m.report_ms, def_use,
                  def_use / base_def_use, analysis, analysis / base_analysis, report,
                  report / base_report, m.outcome.c_str());
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return status;
}
