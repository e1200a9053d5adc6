// Tests of SourceLines (SPIRV/ir/source_lines.h) and of what it gives the
// --dump-ranges report: every record names its source line, including accesses in the
// merge block glslang creates for `?:` (no OpLine of its own), and every proof that uses
// a guard names the guard's line, for each kind of guard, in included files too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/ir/source_lines.h"
#include "glint/report_format.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

namespace fs = std::filesystem;

// A selection whose else arm and merge block have no OpLine (as glslang leaves the
// blocks of a lowered ?:), a block that starts before its own OpLine, an OpNoLine, and
// a block dominated by one that ends under OpNoLine. Each probe is an OpName'd OpIAdd.
const char kLines[] = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%a = OpString "a.comp"
%b = OpString "b.h"
OpName %first "first"
OpName %in_then "in_then"
OpName %in_else "in_else"
OpName %in_merge "in_merge"
OpName %after_line "after_line"
OpName %after_noline "after_noline"
OpName %in_next "in_next"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
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
OpFunctionEnd
)";

std::string Where(const SourceLocation& location) {
  return location.file + ":" + std::to_string(location.line) + ":" +
         std::to_string(location.column);
}

TEST(SourceLines, BlockWithoutLineTakesItsDominatorsNotThePreviousBlocks) {
  ASSERT_EQ(test::ValidateFor(test::Assemble(kLines), TargetEnv::kUniversal), "");
  std::optional<Module> module = test::AssembleModule(kLines);
  ASSERT_TRUE(module);
  AnalysisContext analyses(*module);
  const DefUse& def_use = analyses.GetDefUse();
  SourceLines lines(def_use,
                    [&](Function& function) -> const Cfg& { return analyses.GetCfg(function); });
  std::map<std::string, std::string> where;
  for (const Instruction& name : module->debug_names)
    if (name.opcode == spv::OpName)
      where[name.StringAt(1)] = Where(lines.At(def_use.Definition(name.words.at(0))));
  EXPECT_EQ(where, (std::map<std::string, std::string>{
                       {"first", ":0:0"},           // entry, before any OpLine
                       {"in_then", "a.comp:8:4"},   // its own OpLine
                       {"in_else", "a.comp:7:2"},   // the header's, not then's (module order)
                       {"in_merge", "a.comp:7:2"},  // before its block's own OpLine
                       {"after_line", "b.h:3:1"},   // its block's OpLine, another file
                       {"after_noline", ":0:0"},    // OpNoLine ends it
                       {"in_next", ":0:0"},         // its dominator ends under OpNoLine
                   }));
  EXPECT_EQ(Where(lines.At(nullptr)), ":0:0");
}

// Locate says which locations came from a dominator (printed "near" by uniformity).
TEST(SourceLines, Locate_SaysWhetherTheLineWasInherited) {
  std::optional<Module> module = test::AssembleModule(kLines);
  ASSERT_TRUE(module);
  AnalysisContext analyses(*module);
  const DefUse& def_use = analyses.GetDefUse();
  SourceLines& lines = analyses.GetSourceLines();
  std::map<std::string, bool> inherited;
  for (const Instruction& name : module->debug_names)
    if (name.opcode == spv::OpName)
      inherited[name.StringAt(1)] = lines.Locate(def_use.Definition(name.words.at(0))).inherited;
  EXPECT_EQ(inherited, (std::map<std::string, bool>{
                           {"first", true},  // nothing to inherit: empty, still not its own
                           {"in_then", false},
                           {"in_else", true},
                           {"in_merge", true},
                           {"after_line", false},
                           {"after_noline", false},  // its block's OpNoLine is its own
                           {"in_next", true},
                       }));
}

// One function of one block of `count` OpIAdds, with an OpLine every 1,000 from the
// 500th (lines 1, 2, ...) and, when asked, an OpNoLine before the tenth from last.
std::string OneLongBlock(int count, bool no_line_near_end) {
  std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%a = OpString "long.comp"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
)";
  for (int i = 0; i < count; ++i) {
    if (i % 1000 == 500) text += "OpLine %a " + std::to_string(i / 1000 + 1) + " 1\n";
    if (no_line_near_end && i == count - 10) text += "OpNoLine\n";
    text += "%v" + std::to_string(i) + " = OpIAdd %uint %uint_1 %uint_1\n";
  }
  text += "OpReturn\nOpFunctionEnd\n";
  return text;
}

// One long block with an OpLine every 1,000 instructions and an OpNoLine at the end:
// every instruction gets the line in effect before it, the ones before the block's first
// OpLine inherit the dominator's (here none: the entry block), after OpNoLine none.
TEST(SourceLines, LongBlock_EveryInstructionGetsTheLineBeforeIt) {
  const int kInstructions = 20000;
  std::string text = OneLongBlock(kInstructions, /*no_line_near_end=*/true);
  std::optional<Module> module = test::AssembleModule(text);
  ASSERT_TRUE(module);
  AnalysisContext analyses(*module);
  SourceLines& lines = analyses.GetSourceLines();
  int i = 0;
  size_t wrong = 0;
  for (const Instruction& inst : module->functions.front().blocks.front().instructions) {
    if (inst.opcode != spv::OpIAdd) continue;
    uint32_t expected = i < 500 || i >= kInstructions - 10 ? 0 : uint32_t((i - 500) / 1000 + 1);
    SourceLines::Located located = lines.Locate(&inst);
    wrong += located.location.line != expected || located.inherited != (i < 500);
    ++i;
  }
  EXPECT_EQ(i, kInstructions);
  EXPECT_EQ(wrong, 0u);
}

// Instructions a pass made (source offset 0) and instructions a pass moved (the block's
// offsets no longer rise) get the line in effect where they now stand, like the parsed
// ones around them.
TEST(SourceLines, MadeAndMovedInstructionsGetTheLineWhereTheyStand) {
  const int kInstructions = 3000;
  std::string text = OneLongBlock(kInstructions, /*no_line_near_end=*/false);
  // The line expected at each OpIAdd, by its position among the OpIAdds of the block
  // as it stands: 0 before the first OpLine at 500, then one more every 1,000.
  auto line_at = [](const Block& block) {
    std::map<const Instruction*, uint32_t> expected;
    uint32_t line = 0;
    for (const Instruction& inst : block.instructions) {
      if (inst.opcode == spv::OpLine) line = LineView(inst).line();
      if (inst.opcode == spv::OpIAdd) expected[&inst] = line;
    }
    return expected;
  };
  for (bool move : {false, true}) {
    SCOPED_TRACE(move ? "moved" : "made");
    std::optional<Module> module = test::AssembleModule(text);
    ASSERT_TRUE(module);
    Block& block = module->functions.front().blocks.front();
    InstructionList& code = block.instructions;
    uint32_t next_id = module->header.bound;
    const Instruction& model = code.front();
    // Made: a new instruction before every 250th, offset 0.
    int position = 0;
    for (auto it = code.begin(); it != code.end(); ++it, ++position)
      if (position % 250 == 0 && it->opcode == spv::OpIAdd) {
        Instruction made(spv::OpIAdd, model.type_id, next_id++, model.words);
        code.insert(it, made);
      }
    if (move) {  // the first 100 instructions, moved after the last OpLine
      auto last_line = std::find_if(code.rbegin(), code.rend(), [](const Instruction& inst) {
                         return inst.opcode == spv::OpLine;
                       }).base();
      code.splice(last_line, code, code.begin(), std::next(code.begin(), 100));
    }
    module->header.bound = next_id;
    std::map<const Instruction*, uint32_t> expected = line_at(block);
    AnalysisContext analyses(*module);
    SourceLines& lines = analyses.GetSourceLines();
    size_t wrong = 0, made = 0;
    for (const auto& [inst, line] : expected) {
      wrong += lines.At(inst).line != line;
      made += inst->source_offset == 0;
    }
    EXPECT_EQ(expected.size(), size_t(kInstructions) + made);
    EXPECT_GT(made, 10u);
    EXPECT_EQ(wrong, 0u);
  }
}

// A chain of 20,000 blocks without lines below one OpLine: walked without recursion,
// and every block gets the line.
TEST(SourceLines, DeepDominatorChain_AllBlocksGetTheLine) {
  std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%a = OpString "deep.comp"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpLine %a 5 1
OpBranch %b0
)";
  const int kBlocks = 20000;
  for (int i = 0; i < kBlocks; ++i)
    text += "%b" + std::to_string(i) + " = OpLabel\n" +
            (i + 1 < kBlocks ? "OpBranch %b" + std::to_string(i + 1) + "\n" : "OpReturn\n");
  text += "OpFunctionEnd\n";
  std::optional<Module> module = test::AssembleModule(text);
  ASSERT_TRUE(module);
  AnalysisContext analyses(*module);
  SourceLines lines(analyses.GetDefUse(),
                    [&](Function& function) -> const Cfg& { return analyses.GetCfg(function); });
  Function& main = module->functions.front();
  // Deepest first: the first query walks the whole chain.
  EXPECT_EQ(Where(lines.AtStart(&main.blocks.back(), main)), "deep.comp:5:1");
  size_t located = 0;
  for (const Block& block : main.blocks) located += lines.AtStart(&block, main).line == 5;
  EXPECT_EQ(located, main.blocks.size() - 1);  // all but the entry, which has no dominator
}

// --- The report, through glslangValidator (-V --robust-access --dump-ranges) ---

class DumpRanges : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/glint-source-lines-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  void Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ + "/" + name) << text;
  }
  // Runs the built glslangValidator in the scratch directory; its stdout.
  std::string Run(const std::string& args) {
    std::string command = "cd '" + dir_ + "' && '" + test::BinaryDir() +
                          "/StandAlone/glslangValidator' " + args + " > '" + dir_ +
                          "/stdout.txt' 2>&1";
    int status = std::system(command.c_str());
    EXPECT_EQ(status, 0) << command << "\n" << test::ReadFile(dir_ + "/stdout.txt");
    return test::ReadFile(dir_ + "/stdout.txt");
  }
  std::string dir_;
};

// Records without a location would print no "file:line: " prefix.
void ExpectEveryRecordLocated(const std::string& out) {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    EXPECT_NE(line.rfind("Op", 0), 0u) << "a record without a source line: " << line;
}

// Each kind of guard the analysis uses, and accesses in the merge blocks of ?:, && and ||.
const char kGuards[] = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
layout(std430, binding = 1) buffer C { uint n; uint m; };
shared uint s[16];
void main() {
  uint i = data[gl_GlobalInvocationID.x];
  uint r = 0u;
  if (i < 16u)
    r += s[i];
  if (i >= 16u) { r += 1u; } else { r += s[i]; }
  if (i < 16u && n > 2u)
    r += s[i];
  if (i >= 16u || n > 2u) {} else
    r += s[i];
  if (n > 2u && i < 16u)
    r += s[i];
  if (n > 2u || i >= 16u) {} else
    r += s[i];
  if (!(i >= 16u))
    r += s[i];
  r += i < 16u ? s[i] : 0u;
  if ((n > 1u ? i : 99u) < 16u)
    r += s[n > 1u ? i : 0u];
  uint w = m;
  while (w < 16u) {
    r += s[w];
    w = w + n;
  }
  while (n > 2u && w < 16u) {
    r += s[w];
    w += n;
  }
  if (i < data.length())
    r += data[i];
  if (i != 16u && i < 17u)
    r += s[i];
  if (i > 15u)
    return;
  data[0] = r + s[i] + (n > 3u ? s[n & 15u] : 1u);
}
)";

// The last record (data[0], in the ?:'s merge block) has no OpLine of its own.
const char kGuardChecks[] = R"(
CHECK: guards.comp:10: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at guards.comp:9)
CHECK-NEXT: guards.comp:11: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at guards.comp:11)
CHECK-NEXT: guards.comp:13: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at guards.comp:12)
CHECK-NEXT: guards.comp:15: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at guards.comp:14)
CHECK-NEXT: guards.comp:17: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at guards.comp:16)
CHECK-NEXT: guards.comp:19: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at guards.comp:18)
CHECK-NEXT: guards.comp:21: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at guards.comp:20)
CHECK-NEXT: guards.comp:22: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at guards.comp:22)
CHECK-NEXT: guards.comp:24: OpAccessChain s[{{.*}}
CHECK-NEXT: guards.comp:27: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at guards.comp:26)
CHECK-NEXT: guards.comp:31: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at guards.comp:30)
CHECK-NEXT: guards.comp:35: OpAccessChain B[{{.*}} proven in bounds (proven by the condition at guards.comp:34)
CHECK-NEXT: guards.comp:37: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at guards.comp:36)
CHECK-NEXT: guards.comp:40: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at guards.comp:38)
CHECK-NEXT: guards.comp:40: OpAccessChain s[{{.*}} proven in bounds{{$}}
CHECK-NEXT: guards.comp:40: OpAccessChain B[{{.*}} not clamped{{$}}
)";

TEST_F(DumpRanges, EveryGuardKindNamesItsLine) {
  Write("guards.comp", kGuards);
  for (const char* debug : {"", "-g "}) {  // located by lines kept outside, and by -g itself
    SCOPED_TRACE(debug);
    std::string out =
        Run(std::string("-V ") + debug + "--robust-access --dump-ranges -o out.spv guards.comp");
    EXPECT_TRUE(test::FileCheck(out, kGuardChecks));
    ExpectEveryRecordLocated(out);
  }
}

// break, continue, <=, ==, signed && and || (an early return), and discard.
const char kMoreGuards[] = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
layout(std430, binding = 1) buffer C { uint n; };
shared uint s[16];
void main() {
  uint i = data[gl_GlobalInvocationID.x];
  int j = int(data[1]);
  uint r = 0u;
  for (uint k = 0u; k < n; ++k) {
    uint q = data[k];
    if (q >= 16u)
      break;
    r += s[q];
    if (q > 7u)
      continue;
    r += s[q + 8u];
  }
  if (i <= 15u)
    r += s[i];
  if (i == 3u)
    r += s[i];
  if (j >= 0 && j < 16)
    r += s[j];
  if (j < 0 || j > 15) return;
  r += s[j];
  data[0] = r;
}
)";

const char kMoreGuardChecks[] = R"(
CHECK: more.comp:14: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at more.comp:12)
CHECK-NEXT: more.comp:17: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at more.comp:15)
CHECK-NEXT: more.comp:20: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at more.comp:19)
CHECK-NEXT: more.comp:22: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at more.comp:21)
CHECK-NEXT: more.comp:24: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at more.comp:23)
CHECK-NEXT: more.comp:26: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at more.comp:25)
)";

const char kDiscard[] = R"(#version 440
layout(location = 0) flat in uint v;
layout(location = 0) out vec4 color;
layout(std430, binding = 0) buffer B { vec4 lut[16]; };
void main() {
  uint w = v;
  if (w > 15u)
    discard;
  color = lut[w];
}
)";

TEST_F(DumpRanges, MoreGuardKindsNameTheirLines) {
  Write("more.comp", kMoreGuards);
  Write("discard.frag", kDiscard);
  std::string more = Run("-V --robust-access --dump-ranges -o more.spv more.comp");
  EXPECT_TRUE(test::FileCheck(more, kMoreGuardChecks));
  ExpectEveryRecordLocated(more);
  std::string discard = Run("-V --robust-access --dump-ranges -o discard.spv discard.frag");
  EXPECT_TRUE(test::FileCheck(discard,
                              "CHECK: discard.frag:9: OpAccessChain B[{{.*}} proven in bounds "
                              "(proven by the condition at discard.frag:7)"));
  ExpectEveryRecordLocated(discard);
}

// A ?: and a guard inside an included file: records and guards name that file.
const char kIncluding[] = R"(#version 440
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
layout(std430, binding = 1) buffer C { uint n; };
shared uint s[16];
#include "helpers.h"
void main() {
  uint i = data[gl_GlobalInvocationID.x];
  data[0] = pick(i) + (n > 3u ? s[n & 15u] : 1u);
}
)";

const char kHelpers[] = R"(// A helper of main.comp: a guard and a ?: in an included file.
uint pick(uint k) {
  uint v = k > 7u ? s[k & 7u] : s[(k + 1u) & 15u];
  if (v < 16u)
    v = s[v];
  return s[(k > 3u ? k : 0u) & 15u];
}
)";

const char kIncludeChecks[] = R"(
CHECK: main.comp:10: OpAccessChain s[{{.*}} proven in bounds{{$}}
CHECK-NEXT: main.comp:10: OpAccessChain B[{{.*}} not clamped{{$}}
CHECK-NEXT: ./helpers.h:3: OpAccessChain s[{{.*}} proven in bounds{{$}}
CHECK-NEXT: ./helpers.h:3: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at ./helpers.h:3)
CHECK-NEXT: ./helpers.h:5: OpAccessChain s[{{.*}} proven in bounds (proven by the condition at ./helpers.h:4)
CHECK-NEXT: ./helpers.h:6: OpAccessChain s[{{.*}} proven in bounds{{$}}
)";

const char kIncludeJsonChecks[] = R"(
CHECK: {"file": "main.comp", "line": 10, "instruction": "OpAccessChain", "object": "B",
CHECK: {"file": "./helpers.h", "line": 5, {{.*}} "guard": {"file": "./helpers.h", "line": 4}}
CHECK-NEXT: {"file": "./helpers.h", "line": 6, "instruction": "OpAccessChain", "object": "s",
)";

TEST_F(DumpRanges, IncludedFile_TernaryAndGuardNameTheIncludedFile) {
  Write("main.comp", kIncluding);
  Write("helpers.h", kHelpers);
  for (const char* debug : {"", "-g "}) {
    SCOPED_TRACE(debug);
    std::string out =
        Run(std::string("-V ") + debug + "--robust-access --dump-ranges -o out.spv main.comp");
    EXPECT_TRUE(test::FileCheck(out, kIncludeChecks));
    ExpectEveryRecordLocated(out);
  }
  std::string json = Run("-V --robust-access --dump-ranges=json -o out.spv main.comp");
  EXPECT_TRUE(test::FileCheck(json, kIncludeJsonChecks));
  EXPECT_EQ(json.find("\"line\": 0"), std::string::npos) << json;
}

// Robust access's own records (image coordinates, which the range report does not
// record) are located the same way: the imageStore in the ?:'s merge block has line 9,
// the line of the selection that dominates it, not line 10 of the else arm before it.
TEST_F(DumpRanges, RobustAccessRecords_ImageInMergeBlockHasTheLine) {
  Write("store.comp", R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
layout(std430, binding = 1) buffer C { uint n; };
layout(rgba32f, binding = 2) uniform image2D img;
shared uint s[16];
void main() {
  uint i = data[gl_GlobalInvocationID.x];
  imageStore(img, ivec2(i, 0), vec4(n > 3u ? s[n & 15u]
                                            : s[2]));
}
)");
  Run("-V -g --no-glint -o store.spv store.comp");
  std::string bytes = test::ReadFile(dir_ + "/store.spv");
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  glint::Options options;
  options.robust_access = options.collect_ranges = true;
  glint::Report report;
  ASSERT_TRUE(glint::Process(words, options, &report));
  std::vector<std::string> located;
  for (const glint::AccessRecord& record : report.accesses)
    located.push_back(record.location.file + ":" + std::to_string(record.location.line) + " " +
                      record.instruction + " " + AccessVerdictText(record.verdict));
  EXPECT_EQ(located,
            (std::vector<std::string>{
                "store.comp:8 OpAccessChain not clamped", "store.comp:8 OpAccessChain clamped",
                "store.comp:9 OpAccessChain proven in bounds",
                "store.comp:10 OpAccessChain not clamped", "store.comp:9 OpImageWrite clamped"}));
}

}  // namespace
}  // namespace glint::spirv
