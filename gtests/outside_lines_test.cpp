// Tests of lines kept outside a module (SPIRV/ir/outside_lines.h): the alignment of a
// module with the same module generated with lines, what it refuses, and SourceLines
// reading the table as if the OpLine were in the module (every instruction located as
// the module with lines locates it; instructions passes remove or insert).
#include <gtest/gtest.h>

#include <iterator>
#include <memory>
#include <regex>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/ir/outside_lines.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/pipeline.h"
#include "glslang/front_end/compile_driver.h"
#include "glslang/front_end/front_end.h"
#include "support/outside_lines_check.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// A selection whose else arm and merge block have no OpLine, an OpNoLine, two files,
// lines before the first OpLabel and after a terminator (both ignored by readers), and
// a second function.
const char kWithLines[] = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%a = OpString "a.comp"
%b = OpString "b.h"
OpSource GLSL 450 %a "void main() {}"
OpName %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%helper = OpFunction %void None %fn
OpLine %b 1 1
%helper_entry = OpLabel
OpLine %b 2 5
%h1 = OpIAdd %uint %uint_1 %uint_1
OpLine %b 3 5
OpLine %b 4 5
%h2 = OpIAdd %uint %h1 %uint_1
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%first = OpIAdd %uint %uint_1 %uint_1
OpLine %a 7 2
%cond = OpIEqual %bool %first %uint_1
OpSelectionMerge %merge None
OpBranchConditional %cond %then %else
%then = OpLabel
OpLine %a 8 4
%in_then = OpIAdd %uint %uint_1 %uint_1
%call = OpFunctionCall %void %helper
OpBranch %merge
%else = OpLabel
%in_else = OpIAdd %uint %uint_1 %uint_1
OpBranch %merge
%merge = OpLabel
%in_merge = OpIAdd %uint %uint_1 %uint_1
OpLine %b 3 1
%after_line = OpIAdd %uint %uint_1 %uint_1
OpNoLine
%after_noline = OpIAdd %uint %uint_1 %uint_1
OpBranch %next
%next = OpLabel
%in_next = OpIAdd %uint %uint_1 %uint_1
OpReturn
OpLine %a 30 1
OpFunctionEnd
)";

// kWithLines as glslang writes it without lines: no OpString, OpLine or OpNoLine, and an
// OpSource without the file and text (the assembler numbers ids anew, so they differ).
std::string WithoutLines(const std::string& text) {
  std::string plain = std::regex_replace(text, std::regex(R"((^|\n)(%\w+ = OpString|OpLine|OpNoLine)[^\n]*)"), "");
  return std::regex_replace(plain, std::regex(R"(OpSource GLSL 450 [^\n]*)"), "OpSource GLSL 450");
}

// A source handing out a table made beforehand.
class MadeLines : public OutsideLinesSource {
 public:
  explicit MadeLines(std::optional<OutsideLines> table) : table_(std::move(table)) {}
  int made = 0;

 protected:
  std::optional<OutsideLines> Make() override {
    ++made;
    return std::move(table_);
  }

 private:
  std::optional<OutsideLines> table_;
};

// The instruction of `module` whose OpName-less result id is the `n`th OpIAdd of `block_index`.
Instruction* NthInBlock(Module& module, size_t function_index, size_t block_index, size_t n) {
  Function& function = *std::next(module.functions.begin(), function_index);
  Block& block = *std::next(function.blocks.begin(), block_index);
  return &*std::next(block.instructions.begin(), n);
}

std::string Where(const SourceLocation& location) {
  return location.file + ":" + std::to_string(location.line);
}

TEST(OutsideLines, HandMadeModule_EveryInstructionLocatedAsByItsOpLines) {
  std::vector<uint32_t> located = test::Assemble(kWithLines);
  std::vector<uint32_t> plain = test::Assemble(WithoutLines(kWithLines));
  ASSERT_LT(plain.size(), located.size());
  size_t compared = 0;
  EXPECT_EQ(test::CompareOutsideLines(plain, located, &compared), "");
  EXPECT_EQ(compared, 18u);  // every instruction in a block, OpLabel excluded
}

TEST(OutsideLines, HandMadeModule_TableHoldsOnlyLinesInsideBlocks) {
  std::string why;
  std::optional<OutsideLines> table = AlignOutsideLines(test::Assemble(WithoutLines(kWithLines)),
                                                        test::Assemble(kWithLines), &why);
  ASSERT_TRUE(table) << why;
  // 2 + 2 in the helper's block, 1 + 1 in main's entry and then-block, 2 in the merge
  // block; the OpLine before the helper's OpLabel and the one after main's last
  // terminator are not read by SourceLines, so not kept.
  EXPECT_EQ(table->size(), 7u);
}

TEST(OutsideLines, RefusesModulesThatAreNotTheSame) {
  std::string plain_text = WithoutLines(kWithLines);
  std::string why;
  // An instruction the module with lines does not have.
  std::string extra = std::regex_replace(plain_text, std::regex("%in_next = "),
                                         "%extra = OpIAdd %uint %uint_1 %uint_1\n%in_next = ");
  EXPECT_FALSE(AlignOutsideLines(test::Assemble(extra), test::Assemble(kWithLines), &why));
  EXPECT_NE(why.find("differ at word"), std::string::npos) << why;
  // One it has that the plain module lacks.
  std::string fewer = std::regex_replace(plain_text, std::regex("%in_next = [^\n]*\n"), "");
  why.clear();
  EXPECT_FALSE(AlignOutsideLines(test::Assemble(fewer), test::Assemble(kWithLines), &why));
  EXPECT_FALSE(why.empty());
  // An OpLine that names no OpString.
  std::string bad_file = std::regex_replace(kWithLines, std::regex("OpLine %a 8 4"),
                                            "OpLine %uint_1 8 4");
  why.clear();
  EXPECT_FALSE(AlignOutsideLines(test::Assemble(plain_text), test::Assemble(bad_file), &why));
  EXPECT_NE(why.find("no OpString"), std::string::npos) << why;
  // A word count that runs past the end.
  std::vector<uint32_t> truncated = test::Assemble(kWithLines);
  truncated.back() = (100u << 16) | spv::OpNop;
  why.clear();
  EXPECT_FALSE(AlignOutsideLines(test::Assemble(plain_text), truncated, &why));
  EXPECT_NE(why.find("malformed word count"), std::string::npos) << why;
}

// A plain module with its table, and its SourceLines, as a pass would see them.
struct PlainWithTable {
  explicit PlainWithTable(const std::string& with_lines) {
    std::vector<uint32_t> plain = test::Assemble(WithoutLines(with_lines));
    std::string why;
    auto table = AlignOutsideLines(plain, test::Assemble(with_lines), &why);
    EXPECT_TRUE(table) << why;
    std::string error;
    module = ParseModule(plain, &error);
    EXPECT_TRUE(module) << error;
    source = std::make_shared<MadeLines>(std::move(table));
    module->outside_lines = source;
  }
  std::optional<Module> module;
  std::shared_ptr<MadeLines> source;
};

TEST(OutsideLines, TableIsMadeOnlyWhenALineIsAsked) {
  PlainWithTable plain(kWithLines);
  AnalysisContext analyses(*plain.module);
  SourceLines& lines = analyses.GetSourceLines();
  EXPECT_EQ(plain.source->made, 0);
  EXPECT_EQ(Where(lines.At(NthInBlock(*plain.module, 1, 0, 1))), "a.comp:7");
  EXPECT_EQ(Where(lines.At(NthInBlock(*plain.module, 0, 0, 1))), "b.h:4");
  EXPECT_EQ(plain.source->made, 1);
}

TEST(OutsideLines, RemovedInstructionLeavesItsLineToTheNextOne) {
  PlainWithTable plain(kWithLines);
  // main's entry block: %first, %cond (after OpLine a 7), merge, branch. Removing %cond
  // (as a pass may) leaves line 7 to the OpSelectionMerge after it, as the OpLine would.
  Block& entry = *std::next(plain.module->functions.begin(), 1)->blocks.begin();
  auto cond = std::next(entry.instructions.begin(), 1);
  ASSERT_EQ(cond->opcode, spv::OpIEqual);
  entry.instructions.erase(cond);
  AnalysisContext analyses(*plain.module);
  SourceLines& lines = analyses.GetSourceLines();
  const Instruction& merge = *std::next(entry.instructions.begin(), 1);
  ASSERT_EQ(merge.opcode, spv::OpSelectionMerge);
  EXPECT_EQ(Where(lines.At(&merge)), "a.comp:7");
  EXPECT_FALSE(lines.Locate(&merge).inherited);
  EXPECT_EQ(Where(lines.At(&*entry.instructions.begin())), ":0");
}

TEST(OutsideLines, InsertedInstructionTakesTheLineBeforeItsSuccessor) {
  PlainWithTable plain(kWithLines);
  Block& entry = *std::next(plain.module->functions.begin(), 1)->blocks.begin();
  // Inserted (no source offset) before %cond, whose OpLine stood before it: an
  // instruction inserted after that OpLine would be on line 7.
  auto cond = std::next(entry.instructions.begin(), 1);
  Instruction inserted = *entry.instructions.begin();
  inserted.source_offset = 0;
  inserted.result_id = plain.module->header.bound++;
  auto at = entry.instructions.insert(cond, inserted);
  // And one at the end of the merge block's lines, after the OpNoLine's instruction.
  AnalysisContext analyses(*plain.module);
  SourceLines& lines = analyses.GetSourceLines();
  EXPECT_EQ(Where(lines.At(&*at)), "a.comp:7");
  EXPECT_EQ(Where(lines.At(&*entry.instructions.begin())), ":0");
  EXPECT_EQ(Where(lines.At(&*std::next(at))), "a.comp:7");
}

TEST(OutsideLines, BlockEndsFeedTheDominatedBlocks) {
  PlainWithTable plain(kWithLines);
  AnalysisContext analyses(*plain.module);
  SourceLines& lines = analyses.GetSourceLines();
  // main: the else-block has no line of its own and inherits the entry block's end.
  const Instruction* in_else = NthInBlock(*plain.module, 1, 2, 0);
  EXPECT_EQ(Where(lines.At(in_else)), "a.comp:7");
  EXPECT_TRUE(lines.Locate(in_else).inherited);
  // The block after the merge inherits the merge block's end: OpNoLine.
  EXPECT_EQ(Where(lines.At(NthInBlock(*plain.module, 1, 4, 0))), ":0");
}

// GLSL that glslang writes with OpLine in many shapes: ?:, && and || (blocks without
// OpLine of their own), loops, switch, calls, #line with and without a file name.
const char* const kShaders[] = {
    R"(#version 450
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer B { uint v[]; } b;
shared uint s[8];
uint helper(uint x) {
  uint r = x > 3u ? x - 3u : x + 1u;
  return r;
}
void main() {
  uint i = gl_LocalInvocationID.x;
  s[i] = i;
  barrier();
  if (i < 4u && s[i] > 1u || i == 7u) {
    b.v[i] = helper(s[i]);
  }
  for (uint k = 0u; k < 8u; ++k) {
    switch (k) {
      case 1u: b.v[k] += 1u; break;
      default: b.v[k] ^= i;
    }
  }
#line 100
  b.v[0] = i < 2u ? s[i] : s[7u - i];
}
)",
    R"(#version 450
#extension GL_EXT_debug_printf : require
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uint v[]; } b;
void main() {
  uint i = gl_LocalInvocationID.x;
  if (b.v[i] > 3u)
    debugPrintfEXT("big %u at %u", b.v[i], i);
  b.v[i] = i;
}
)",
    R"(#version 450
#extension GL_GOOGLE_cpp_style_line_directive : require
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(binding = 1) uniform sampler2D tex;
const float weights[5] = float[](0.1, 0.2, 0.4, 0.2, 0.1);
float pick(int j) { return weights[j]; }
void main() {
  vec4 sum = vec4(0.0);
  for (int j = 0; j < 5; ++j)
    sum += texture(tex, uv + float(j)) * pick(j);
#line 20 "other.glsl"
  color = sum.x > 0.5 ? sum : vec4(weights[int(uv.x) & 3]);
}
)",
};

// Calls check(plain, located) with glslang's module of each of kShaders without and
// with -g (the file named shader.<stage>), in vulkan1.0, opengl and vulkan1.3.
template <class Check>
void ForEachShaderPair(const Check& check) {
  frontend::ScopedGlslangProcess process;
  const char* const stages[] = {"comp", "comp", "frag"};
  for (size_t s = 0; s < std::size(kShaders); ++s) {
    for (const char* env : {"vulkan1.0", "opengl", "vulkan1.3"}) {
      SCOPED_TRACE(std::string(stages[s]) + " " + env);
      std::string error;
      frontend::SourceCompile request(kShaders[s], stages[s], env);
      request.name = std::string("shader.") + stages[s];
      std::vector<uint32_t> plain, located;
      ASSERT_TRUE(frontend::CompileSourceToSpirv(request, &plain, &error)) << error;
      request.debug_info = true;
      ASSERT_TRUE(frontend::CompileSourceToSpirv(request, &located, &error)) << error;
      check(plain, located);
    }
  }
}

TEST(OutsideLines, GlslangModules_EveryInstructionLocatedAsWithDebugInfo) {
  ForEachShaderPair([](const std::vector<uint32_t>& plain, const std::vector<uint32_t>& located) {
    size_t compared = 0;
    EXPECT_EQ(test::CompareOutsideLines(plain, located, &compared), "");
    EXPECT_GT(compared, 20u);
  });
}

// Every location an event sets, in order, for comparing two tables.
std::vector<std::string> EventsOf(const OutsideLines& table) {
  std::vector<std::string> events;
  for (const OutsideLines::Event& event : table.events())
    events.push_back(std::to_string(event.label_offset) + "/" +
                     std::to_string(event.before_offset) + " " +
                     Where(table.LocationOf(event)) + ":" + std::to_string(event.column));
  return events;
}

TEST(OutsideLines, StrippingParse_GivesGlslangsOwnModuleWithoutLines) {
  ForEachShaderPair([](const std::vector<uint32_t>& plain, const std::vector<uint32_t>& located) {
    std::string error;
    std::optional<StrippedParse> parsed = ParseModuleStrippingLines(located, &error);
    ASSERT_TRUE(parsed) << error;
    EXPECT_EQ(parsed->words, plain);
    std::optional<OutsideLines> aligned = AlignOutsideLines(plain, located, &error);
    ASSERT_TRUE(aligned) << error;
    EXPECT_EQ(EventsOf(parsed->lines), EventsOf(*aligned));
    EXPECT_GE(parsed->lines.size(), 4u);
    // The stripping parse's module is the module without lines, parsed.
    EXPECT_EQ(parsed->module.Encode(), plain);
    std::optional<Module> reference = ParseModule(plain, &error);
    ASSERT_TRUE(reference) << error;
    std::vector<uint32_t> offsets, reference_offsets;
    for (const Function& function : parsed->module.functions)
      for (const Block& block : function.blocks)
        for (const Instruction& inst : block.instructions) offsets.push_back(inst.source_offset);
    for (const Function& function : reference->functions)
      for (const Block& block : function.blocks)
        for (const Instruction& inst : block.instructions)
          reference_offsets.push_back(inst.source_offset);
    EXPECT_EQ(offsets, reference_offsets);
  });
}

TEST(OutsideLines, StrippingParse_RefusesWhatItCannotStripExactly) {
  std::string why;
  // A format string that is also the file's name: glslang numbers it differently
  // without lines, so the strip cannot give glslang's module.
  std::string shared = std::regex_replace(
      kWithLines, std::regex("OpName %main \"main\""),
      "OpName %main \"main\"\n");
  shared = std::regex_replace(shared, std::regex("OpExtension|OpMemoryModel"),
                              "OpExtension \"SPV_KHR_non_semantic_info\"\n%printf = OpExtInstImport "
                              "\"NonSemantic.DebugPrintf\"\nOpMemoryModel");
  shared = std::regex_replace(shared, std::regex("%in_next = OpIAdd %uint %uint_1 %uint_1"),
                              "%in_next = OpExtInst %void %printf 1 %a");
  EXPECT_FALSE(ParseModuleStrippingLines(test::Assemble(shared), &why));
  EXPECT_NE(why.find("names a line's file and is used elsewhere"), std::string::npos) << why;
  // An OpString that nothing names.
  std::string unnamed =
      std::regex_replace(kWithLines, std::regex("%b = OpString \"b.h\""),
                         "%b = OpString \"b.h\"\n%lonely = OpString \"lonely\"");
  why.clear();
  EXPECT_FALSE(ParseModuleStrippingLines(test::Assemble(unnamed), &why));
  EXPECT_NE(why.find("named by nothing"), std::string::npos) << why;
  // Non-semantic debug information (glslang -gV).
  std::string debug_info = std::regex_replace(
      kWithLines, std::regex("OpMemoryModel"),
      "OpExtension \"SPV_KHR_non_semantic_info\"\n%dbg = OpExtInstImport "
      "\"NonSemantic.Shader.DebugInfo.100\"\nOpMemoryModel");
  why.clear();
  EXPECT_FALSE(ParseModuleStrippingLines(test::Assemble(debug_info), &why));
  EXPECT_NE(why.find("non-semantic debug information"), std::string::npos) << why;
  // The hand-made module itself strips to its assembly without lines.
  std::optional<StrippedParse> stripped =
      ParseModuleStrippingLines(test::Assemble(kWithLines), &why);
  ASSERT_TRUE(stripped) << why;
  EXPECT_EQ(stripped->words, test::Assemble(WithoutLines(kWithLines)));
}

// A helper holding a barrier, called in uniform control (its need is met, nothing is
// reported) and a constant table indexed at run time (hoisted): the default pipeline
// changes the module and reports nothing, so it must never ask for a line, which for a
// compile would cost a second code generation.
const char kQuiet[] = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float v[]; } b;
shared float s[64];
const float weights[4] = float[](0.1, 0.2, 0.3, 0.4);
void sync() { barrier(); }
void main() {
  uint i = gl_LocalInvocationID.x;
  s[i] = b.v[i] * weights[i & 3u];
  sync();
  b.v[i] = s[63u - i];
}
)";

// The same with a barrier in divergent control: the warning names a line.
const char kWarned[] = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float v[]; } b;
void sync() { barrier(); }
void main() {
  if (b.v[gl_LocalInvocationID.x] > 0.0)
    sync();
}
)";

TEST(OutsideLines, DefaultPipeline_AsksForLinesOnlyWhenItReports) {
  frontend::ScopedGlslangProcess process;
  for (const char* source : {kQuiet, kWarned}) {
    const bool warned = source == kWarned;
    SCOPED_TRACE(warned ? "warned" : "quiet");
    frontend::SourceCompile request(source, "comp");
    request.name = "quiet.comp";
    std::vector<uint32_t> plain, located;
    std::string error;
    ASSERT_TRUE(frontend::CompileSourceToSpirv(request, &plain, &error)) << error;
    request.debug_info = true;
    ASSERT_TRUE(frontend::CompileSourceToSpirv(request, &located, &error)) << error;
    std::optional<Module> module = ParseModule(plain, &error);
    ASSERT_TRUE(module) << error;
    auto source_of_lines = std::make_shared<MadeLines>(AlignOutsideLines(plain, located, &error));
    module->outside_lines = source_of_lines;
    Options options;
    Report report;
    PassContext context{options, &report};
    PassResult result = RunPipeline(*module, context);
    ASSERT_NE(result.status, PassStatus::kFailed) << result.message;
    if (!warned) {
      EXPECT_EQ(result.status, PassStatus::kChanged);  // the table was hoisted
      EXPECT_TRUE(report.diagnostics.empty());
      EXPECT_EQ(source_of_lines->made, 0);
    } else {
      ASSERT_EQ(report.diagnostics.size(), 1u);
      EXPECT_NE(report.diagnostics[0].message.find("quiet.comp:4"), std::string::npos)
          << report.diagnostics[0].message;
      EXPECT_EQ(report.diagnostics[0].location.line, 7u);
      EXPECT_EQ(source_of_lines->made, 1);
    }
  }
}

}  // namespace
}  // namespace glint::spirv
