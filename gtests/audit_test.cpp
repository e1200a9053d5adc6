// Tests of the range audit: the lattice of sampled workgroups (corners, spacing,
// budgets), the audit instrumentation pass (CHECK patterns, validation in every
// environment the audit supports, refusals), end-to-end audits on lavapipe (ok,
// not reached, an injected wrong range caught as ESCAPE with a non-zero exit, budget
// refusals), and generated shaders through --dump-ranges and glint-audit with zero
// escapes.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <regex>
#include <set>

#include "Audit/lattice.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/audit_instrumentation.h"
#include "support/spec_sized_kernel.h"
#include "support/test_support.h"
#ifdef GLINT_HAVE_AUDIT
#include "Audit/audit.h"
#endif

namespace glint {
namespace {

using audit::ChooseLattice;
using audit::EvenlySpaced;
using audit::Groups;
using audit::Lattice;

// ---------------------------------------------------------------------------------
// Lattice selection.

Lattice MustChoose(const Groups& grid, uint64_t budget) {
  Lattice lattice;
  std::string error;
  EXPECT_TRUE(ChooseLattice(grid, budget, &lattice, &error)) << error;
  return lattice;
}

TEST(AuditLattice, EvenlySpaced_IncludesBothEnds) {
  EXPECT_EQ(EvenlySpaced(10, 4), (std::vector<uint32_t>{0, 3, 6, 9}));
  EXPECT_EQ(EvenlySpaced(100, 3), (std::vector<uint32_t>{0, 50, 99}));
  EXPECT_EQ(EvenlySpaced(2, 2), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(EvenlySpaced(7, 7), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(EvenlySpaced(1, 1), (std::vector<uint32_t>{0}));
}

TEST(AuditLattice, WholeGridWhenItFits_OneBox) {
  Lattice lattice = MustChoose({4, 3, 2}, 256);
  EXPECT_TRUE(lattice.IsWholeGrid());
  EXPECT_EQ(lattice.GroupCount(), 24u);
  std::vector<audit::GroupBox> boxes = lattice.Boxes();
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_EQ(boxes[0].base, (Groups{0, 0, 0}));
  EXPECT_EQ(boxes[0].count, (Groups{4, 3, 2}));
}

TEST(AuditLattice, BudgetOfCorners_IsExactlyTheCorners) {
  Lattice lattice = MustChoose({100, 50, 7}, 8);
  EXPECT_EQ(lattice.positions[0], (std::vector<uint32_t>{0, 99}));
  EXPECT_EQ(lattice.positions[1], (std::vector<uint32_t>{0, 49}));
  EXPECT_EQ(lattice.positions[2], (std::vector<uint32_t>{0, 6}));
  EXPECT_EQ(lattice.Boxes().size(), 8u);
}

TEST(AuditLattice, BudgetBelowCorners_IsRefusedNamingTheBudget) {
  Lattice lattice;
  std::string error;
  EXPECT_FALSE(ChooseLattice({10, 10, 10}, 7, &lattice, &error));
  EXPECT_NE(error.find("group budget 7"), std::string::npos) << error;
  EXPECT_NE(error.find("8 corner groups"), std::string::npos) << error;
  EXPECT_NE(error.find("0 groups ran"), std::string::npos) << error;
  // A flat grid has 4 corners, so the same budget fits them and one more column.
  EXPECT_TRUE(ChooseLattice({10, 10, 1}, 7, &lattice, &error)) << error;
  EXPECT_EQ(lattice.GroupCount(), 6u);
  EXPECT_EQ(lattice.positions[0], (std::vector<uint32_t>{0, 5, 9}));
  EXPECT_EQ(lattice.positions[1], (std::vector<uint32_t>{0, 9}));
}

TEST(AuditLattice, ZeroDimension_IsRefused) {
  Lattice lattice;
  std::string error;
  EXPECT_FALSE(ChooseLattice({4, 0, 1}, 256, &lattice, &error));
  EXPECT_NE(error.find("no groups"), std::string::npos) << error;
}

TEST(AuditLattice, LargeGrid_FillsTheBudgetWithEveryCombination) {
  Lattice lattice = MustChoose({1000, 1000, 1000}, 256);
  EXPECT_LE(lattice.GroupCount(), 256u);
  EXPECT_GE(lattice.GroupCount(), 200u);  // 6x6x6 is 216; it may grow one axis further
  for (int d = 0; d < 3; ++d) {
    const std::vector<uint32_t>& p = lattice.positions[d];
    EXPECT_EQ(p.front(), 0u);
    EXPECT_EQ(p.back(), 999u);
    EXPECT_TRUE(std::is_sorted(p.begin(), p.end()));
    EXPECT_EQ(std::set<uint32_t>(p.begin(), p.end()).size(), p.size());
  }
  // Every combination, each once, all corners among them.
  std::set<std::array<uint32_t, 3>> groups;
  for (const audit::GroupBox& box : lattice.Boxes())
    for (uint32_t z = 0; z < box.count[2]; ++z)
      for (uint32_t y = 0; y < box.count[1]; ++y)
        for (uint32_t x = 0; x < box.count[0]; ++x)
          groups.insert({box.base[0] + x, box.base[1] + y, box.base[2] + z});
  EXPECT_EQ(groups.size(), lattice.GroupCount());
  for (uint32_t x : {0u, 999u})
    for (uint32_t y : {0u, 999u})
      for (uint32_t z : {0u, 999u}) EXPECT_TRUE(groups.count({x, y, z})) << x << y << z;
}

TEST(AuditLattice, OneLongAxis_UsesTheWholeBudgetAndBatchesRuns) {
  Lattice lattice = MustChoose({1000, 1, 1}, 256);
  EXPECT_EQ(lattice.GroupCount(), 256u);
  EXPECT_EQ(lattice.positions[0].back(), 999u);
  Lattice dense = MustChoose({300, 1, 1}, 256);
  // Spacing 299/255 < 2: many neighbours are adjacent and share a dispatch.
  EXPECT_LT(dense.Boxes().size(), 256u);
  uint64_t covered = 0;
  for (const audit::GroupBox& box : dense.Boxes()) covered += box.GroupCount();
  EXPECT_EQ(covered, 256u);
}

// ---------------------------------------------------------------------------------
// The instrumentation pass.

// #version 440
// layout(local_size_x = 64) in;
// layout(std430, binding = 0) buffer Data { uint values[]; };
// layout(std430, binding = 3) buffer Table { int table[16]; };
// void main() {
//   uint sum = 0u;
//   for (int i = 0; i < 10; ++i) sum += uint(table[i]);
//   values[gl_LocalInvocationIndex] = sum + uint(table[values[0] % 16u]);
// }
const char* kLoopShader = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
layout(std430, binding = 3) buffer Table { int table[16]; };
void main() {
  uint sum = 0u;
  for (int i = 0; i < 10; ++i) sum += uint(table[i]);
  values[gl_LocalInvocationIndex] = sum + uint(table[values[0] % 16u]);
}
)";

struct Instrumented {
  std::vector<uint32_t> words;
  spirv::AuditInstrumentation result;
};

Instrumented Instrument(const std::string& source, const std::string& env,
                        const spirv::AuditInstrumentationOptions& options = {}) {
  std::vector<uint32_t> words = test::CompileGlsl(source, "comp", env);
  std::string error;
  std::optional<spirv::Module> module = spirv::ParseModule(words, &error);
  EXPECT_TRUE(module) << error;
  Instrumented out;
  if (!module) return out;
  EXPECT_TRUE(spirv::InstrumentForAudit(*module, options, &out.result, &error)) << error;
  out.words = module->Encode();
  return out;
}

TEST(AuditInstrumentation, SpirV10_UniformBufferBlockAndAtomicsBeforeEachAccess) {
  Instrumented out = Instrument(kLoopShader, "vulkan1.0");
  // Three dynamic indices: table[i], values[gl_LocalInvocationIndex], table[values[0] % 16].
  ASSERT_EQ(out.result.sites.size(), 3u);
  EXPECT_EQ(out.result.descriptor_set, 0u);
  EXPECT_EQ(out.result.binding, 4u);  // one past the largest binding of set 0
  std::string text = test::Disassemble(out.words);
  EXPECT_TRUE(test::FileCheck(text, R"(
CHECK: OpName %glint_audit "glint_audit"
CHECK: ArrayStride 4
CHECK: OpMemberDecorate %GlintAudit 0 Offset 0
CHECK: OpDecorate %GlintAudit BufferBlock
CHECK: OpDecorate %glint_audit DescriptorSet 0
CHECK: OpDecorate %glint_audit Binding 4
CHECK: %glint_audit = OpVariable %_ptr_Uniform_GlintAudit Uniform
CHECK: OpLoopMerge
CHECK: OpBranchConditional
CHECK: %[[I:[0-9]+]] = OpLoad %int %i
CHECK-NEXT: %[[BITS:[0-9]+]] = OpBitcast %uint %[[I]]
CHECK-NEXT: %[[MIN0:[0-9]+]] = OpAccessChain %_ptr_Uniform_uint %glint_audit %uint_0 %uint_0
CHECK-NEXT: OpAtomicSMin %uint %[[MIN0]] %{{[A-Za-z0-9_]+}} %{{[A-Za-z0-9_]+}} %[[BITS]]{{$}}
CHECK-NEXT: %[[MAX0:[0-9]+]] = OpAccessChain %_ptr_Uniform_uint %glint_audit %uint_0 %uint_1
CHECK-NEXT: OpAtomicSMax %uint %[[MAX0]] %{{[A-Za-z0-9_]+}} %{{[A-Za-z0-9_]+}} %[[BITS]]{{$}}
CHECK-NEXT: OpAccessChain %_ptr_Uniform_int %_ %int_0 %[[I]]{{$}}
CHECK: %[[KEY:[0-9]+]] = OpUMod %uint
CHECK-NEXT: %[[MIN1:[0-9]+]] = OpAccessChain %_ptr_Uniform_uint %glint_audit %uint_0 %uint_2
CHECK-NEXT: OpAtomicUMin %uint %[[MIN1]] %{{[A-Za-z0-9_]+}} %{{[A-Za-z0-9_]+}} %[[KEY]]{{$}}
CHECK-NEXT: %[[MAX1:[0-9]+]] = OpAccessChain %_ptr_Uniform_uint %glint_audit %uint_0 %uint_3
CHECK-NEXT: OpAtomicUMax %uint %[[MAX1]] %{{[A-Za-z0-9_]+}} %{{[A-Za-z0-9_]+}} %[[KEY]]{{$}}
CHECK-NEXT: OpAccessChain %_ptr_Uniform_int %_ %int_0 %[[KEY]]{{$}}
CHECK: %[[MIN2:[0-9]+]] = OpAccessChain %_ptr_Uniform_uint %glint_audit %uint_0 %uint_4
CHECK-NEXT: OpAtomicUMin %uint %[[MIN2]] %{{[A-Za-z0-9_]+}} %{{[A-Za-z0-9_]+}} %[[LID:[0-9]+]]{{$}}
CHECK-NEXT: %[[MAX2:[0-9]+]] = OpAccessChain %_ptr_Uniform_uint %glint_audit %uint_0 %uint_5
CHECK-NEXT: OpAtomicUMax %uint %[[MAX2]] %{{[A-Za-z0-9_]+}} %{{[A-Za-z0-9_]+}} %[[LID]]{{$}}
CHECK-NEXT: OpAccessChain %_ptr_Uniform_uint %__0 %int_0 %[[LID]]{{$}}
)")) << text;
  EXPECT_EQ(test::ValidateFor(out.words, TargetEnv::kVulkan10), "");
  EXPECT_EQ(test::ValidateFor(out.words, TargetEnv::kVulkan11), "");
  EXPECT_EQ(test::ValidateFor(out.words, TargetEnv::kOpenGL45), "");
}

TEST(AuditInstrumentation, SpirV13AndLater_StorageBufferBlockAndInterface) {
  for (const char* env : {"vulkan1.1", "vulkan1.2", "vulkan1.3", "spirv1.4"}) {
    SCOPED_TRACE(env);
    Instrumented out = Instrument(kLoopShader, env);
    ASSERT_EQ(out.result.sites.size(), 3u);
    std::string text = test::Disassemble(out.words);
    EXPECT_TRUE(test::FileCheck(text, R"(
CHECK: OpDecorate %GlintAudit Block
CHECK: %glint_audit = OpVariable %_ptr_StorageBuffer_GlintAudit StorageBuffer
CHECK: OpAtomicSMin %uint
)")) << text;
    // From SPIR-V 1.4 the interface lists every global the entry point uses.
    std::string version(env);
    bool lists_all = version == "vulkan1.2" || version == "vulkan1.3" || version == "spirv1.4";
    size_t entry = text.find("OpEntryPoint GLCompute %main");
    ASSERT_NE(entry, std::string::npos);
    std::string entry_line = text.substr(entry, text.find('\n', entry) - entry);
    EXPECT_EQ(entry_line.find("%glint_audit") != std::string::npos, lists_all) << entry_line;
  }
  EXPECT_EQ(test::ValidateFor(Instrument(kLoopShader, "vulkan1.1").words, TargetEnv::kVulkan11),
            "");
  EXPECT_EQ(test::ValidateFor(Instrument(kLoopShader, "vulkan1.2").words, TargetEnv::kVulkan12),
            "");
  EXPECT_EQ(test::ValidateFor(Instrument(kLoopShader, "vulkan1.3").words, TargetEnv::kVulkan13),
            "");
}

TEST(AuditInstrumentation, SitesCarryTheProvenRanges) {
  Instrumented out = Instrument(kLoopShader, "vulkan1.0");
  ASSERT_EQ(out.result.sites.size(), 3u);
  const spirv::AccessRecord& loop = out.result.sites[0].record;  // table[i]
  EXPECT_TRUE(out.result.sites[0].is_signed);
  ASSERT_TRUE(loop.has_range) << loop.reason;
  EXPECT_EQ(loop.range_min, 0);
  EXPECT_EQ(loop.range_max, 9);
  EXPECT_EQ(loop.limit, 15);
  // Sites come in binary order: the modulo's access is emitted before the store's.
  const spirv::AccessRecord& invocation =
      out.result.sites[2].record;  // values[gl_LocalInvocationIndex]
  EXPECT_FALSE(out.result.sites[2].is_signed);
  ASSERT_TRUE(invocation.has_range) << invocation.reason;
  EXPECT_EQ(invocation.range_min, 0);
  EXPECT_EQ(invocation.range_max, 63);
  const spirv::AccessRecord& modulo = out.result.sites[1].record;  // table[values[0] % 16u]
  ASSERT_TRUE(modulo.has_range) << modulo.reason;
  EXPECT_EQ(modulo.range_max, 15);
  EXPECT_EQ(out.result.sites[2].first_word, 4u);
}

TEST(AuditInstrumentation, ExplicitBindingInUse_IsRefused) {
  std::vector<uint32_t> words = test::CompileGlsl(kLoopShader, "comp");
  std::string error;
  std::optional<spirv::Module> module = spirv::ParseModule(words, &error);
  ASSERT_TRUE(module) << error;
  spirv::AuditInstrumentationOptions options;
  options.descriptor_set = 0;
  options.binding = 3;
  spirv::AuditInstrumentation result;
  EXPECT_FALSE(spirv::InstrumentForAudit(*module, options, &result, &error));
  EXPECT_NE(error.find("descriptor set 0 binding 3 is already used"), std::string::npos) << error;
  EXPECT_EQ(module->Encode(), words);  // untouched
  options.descriptor_set = 2;
  options.binding = 0;
  EXPECT_TRUE(spirv::InstrumentForAudit(*module, options, &result, &error)) << error;
  EXPECT_EQ(result.descriptor_set, 2u);
  EXPECT_EQ(test::ValidateFor(module->Encode(), TargetEnv::kVulkan10), "");
}

// #version 440
// layout(local_size_x = 1) in;
// layout(std430, binding = 0) buffer Data { uint values[4]; };
// void main() { values[1] = values[2] + 7u; }
TEST(AuditInstrumentation, ConstantIndicesOnly_NoSitesStillValid) {
  Instrumented out = Instrument(R"(#version 440
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data { uint values[4]; };
void main() { values[1] = values[2] + 7u; }
)",
                                "vulkan1.0");
  EXPECT_TRUE(out.result.sites.empty());
  EXPECT_TRUE(out.result.InitialWords().empty());
  EXPECT_TRUE(test::FileCheck(test::Disassemble(out.words), "CHECK-NOT: OpAtomic"));
  EXPECT_EQ(test::ValidateFor(out.words, TargetEnv::kVulkan10), "");
}

TEST(AuditInstrumentation, InitialWordsAndReadBack) {
  spirv::AuditSite unsigned_site, signed_site;
  unsigned_site.first_word = 0;
  signed_site.first_word = 2;
  signed_site.is_signed = true;
  spirv::AuditInstrumentation result;
  result.sites = {unsigned_site, signed_site};
  std::vector<uint32_t> words = result.InitialWords();
  EXPECT_EQ(words, (std::vector<uint32_t>{0xffffffffu, 0u, 0x7fffffffu, 0x80000000u}));
  EXPECT_FALSE(spirv::ReadObservedRange(unsigned_site, words).reached);
  EXPECT_FALSE(spirv::ReadObservedRange(signed_site, words).reached);
  words = {3u, 0xffffffffu, 0xfffffffbu, 7u};  // u32 [3, 4294967295], i32 [-5, 7]
  spirv::ObservedRange u = spirv::ReadObservedRange(unsigned_site, words);
  spirv::ObservedRange s = spirv::ReadObservedRange(signed_site, words);
  EXPECT_TRUE(u.reached);
  EXPECT_EQ(u.min, 3);
  EXPECT_EQ(u.max, 4294967295ll);
  EXPECT_TRUE(s.reached);
  EXPECT_EQ(s.min, -5);
  EXPECT_EQ(s.max, 7);
}

TEST(AuditInstrumentation, HookChangesRangesNotWords) {
  spirv::AuditInstrumentationOptions options;
  options.adjust_proven_ranges = [](std::vector<spirv::AuditSite>& sites) {
    for (spirv::AuditSite& site : sites) {
      site.first_word = 1000;  // ignored: the hook may change ranges only
      site.record.has_range = true;
      site.record.range_min = site.record.range_max = 42;
    }
  };
  Instrumented out = Instrument(kLoopShader, "vulkan1.0", options);
  ASSERT_EQ(out.result.sites.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(out.result.sites[i].first_word, 2 * i);
    EXPECT_EQ(out.result.sites[i].record.range_max, 42);
  }
}

#ifdef GLINT_HAVE_AUDIT
// ---------------------------------------------------------------------------------
// End-to-end audits on lavapipe.

vk::Context& SharedContext() {
  static std::unique_ptr<vk::Context> context = [] {
    std::string error;
    std::unique_ptr<vk::Context> created = vk::Context::Create({}, &error);
    if (!created) ADD_FAILURE() << "no Vulkan device: " << error;
    return created;
  }();
  if (!context) std::abort();  // a missing device is a failure, never a skip
  return *context;
}

audit::AuditResult MustAudit(const std::string& source, audit::AuditOptions options,
                             const std::string& env = "vulkan1.0") {
  audit::AuditResult result;
  std::string error;
  EXPECT_TRUE(audit::RunAudit(SharedContext(), test::CompileGlsl(source, "comp", env), options,
                              &result, &error))
      << error;
  return result;
}

TEST(AuditRun, LoopAndInvocationIndex_ObservedExactly) {
  audit::AuditOptions options;
  options.groups = {3, 1, 1};
  audit::AuditResult result = MustAudit(kLoopShader, options);
  ASSERT_EQ(result.sites.size(), 3u);
  EXPECT_EQ(result.sites[0].verdict, "ok");
  EXPECT_EQ(result.sites[0].observed.min, 0);
  EXPECT_EQ(result.sites[0].observed.max, 9);
  EXPECT_EQ(result.sites[2].verdict, "ok");
  EXPECT_EQ(result.sites[2].observed.min, 0);
  EXPECT_EQ(result.sites[2].observed.max, 63);
  EXPECT_EQ(result.groups_ran, 3u);
  EXPECT_EQ(result.dispatches, 1u);  // the whole grid fits: one ordinary dispatch
  EXPECT_FALSE(result.HasEscape());
  std::string report = audit::FormatAuditReport(result, "loop.comp");
  EXPECT_NE(report.find("proven [0, 9], observed [0, 9], limit 15: ok"), std::string::npos)
      << report;
  EXPECT_NE(report.find("3 ok, 0 ESCAPE, 0 not reached, 0 no range; 0 out of bounds (0 clamped); "
                        "3 of 3 groups ran"),
            std::string::npos)
      << report;
}

// An index that really leaves its array at run time is reported out of bounds (its raw
// value, before the clamp) and clamped; one that stays inside is not; the run-time
// array's limit is the last element of the buffer the audit bound (--runtime-array-bytes).
// The reads past `values` and `tail` stay inside their bindings, so even the unclamped run
// (robust access off) touches only its own buffers.
const char kOutOfBoundsShader[] = R"(#version 440
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Data { uint values[10]; uint after[8]; };
layout(std430, binding = 1) buffer Tail { uint tail[]; };
void main() {
  uint i = gl_LocalInvocationIndex;
  uint a = values[i + 5u];
  uint b = values[i + 2u];
  uint c = tail[i + 60u];
  after[0] = a + b + c;
}
)";

TEST(AuditRun, OutOfBoundsIndex_ObservedRawAndClamped) {
  audit::AuditOptions options;
  options.runtime_array_bytes = 64 * 4;  // tail[64]: i + 60 reaches 67
  audit::AuditResult result = MustAudit(kOutOfBoundsShader, options);
  ASSERT_EQ(result.sites.size(), 3u);
  EXPECT_EQ(result.sites[0].observed.max, 12);
  EXPECT_EQ(result.sites[0].limit, 9);
  EXPECT_TRUE(result.sites[0].OutOfBounds());
  EXPECT_TRUE(result.sites[0].Contained());
  EXPECT_FALSE(result.sites[1].OutOfBounds());  // [2, 9] fits, and is proven
  EXPECT_FALSE(result.sites[1].clamped);
  EXPECT_EQ(result.sites[2].limit, 63);
  EXPECT_EQ(result.sites[2].observed.max, 67);
  EXPECT_TRUE(result.sites[2].Contained());
  EXPECT_EQ(result.CountOutOfBounds(), 2u);
  EXPECT_EQ(result.CountContained(), 2u);
  std::string report = audit::FormatAuditReport(result, "oob.comp");
  EXPECT_NE(report.find("observed [5, 12], limit 9, out of bounds, clamped: ok"), std::string::npos)
      << report;
  EXPECT_NE(report.find("; 2 out of bounds (2 clamped); "), std::string::npos) << report;
  options.robust_access = false;  // the same indices, nothing clamped: not contained
  audit::AuditResult unclamped = MustAudit(kOutOfBoundsShader, options);
  EXPECT_EQ(unclamped.CountOutOfBounds(), 2u);
  EXPECT_EQ(unclamped.CountContained(), 0u);
}

// #version 440
// layout(local_size_x = 4) in;
// layout(std430, binding = 0) buffer Data { uint values[64]; };
// void main() {
//   if (values[0] == 123456789u) values[gl_LocalInvocationID.x] = 1u;  // never with zeros
//   values[gl_WorkGroupID.x % 64u] = 2u;
// }
const char* kGuardedShader = R"(#version 440
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer Data { uint values[64]; };
void main() {
  if (values[0] == 123456789u) values[gl_LocalInvocationID.x] = 1u;
  values[gl_WorkGroupID.x % 64u] = 2u;
}
)";

TEST(AuditRun, UnreachedAccess_IsNotReachedNeverOk) {
  audit::AuditOptions options;
  options.fill = audit::Fill::kZeros;
  options.groups = {40, 1, 1};
  options.group_budget = 5;
  audit::AuditResult result = MustAudit(kGuardedShader, options);
  ASSERT_EQ(result.sites.size(), 2u);
  EXPECT_EQ(result.sites[0].verdict, "not reached");
  EXPECT_EQ(result.sites[1].verdict, "ok");
  // The lattice: 5 of 40 groups, first and last included.
  EXPECT_EQ(result.groups_ran, 5u);
  EXPECT_EQ(result.sites[1].observed.min, 0);
  EXPECT_EQ(result.sites[1].observed.max, 39);
  EXPECT_EQ(result.dispatches, 5u);
}

TEST(AuditRun, InjectedWrongRange_IsAnEscape) {
  audit::AuditOptions options;
  options.groups = {2, 1, 1};
  options.adjust_proven_ranges = [](std::vector<spirv::AuditSite>& sites) {
    sites[0].record.has_range = true;  // table[i]: claim [0, 8] where i reaches 9
    sites[0].record.range_min = 0;
    sites[0].record.range_max = 8;
  };
  audit::AuditResult result = MustAudit(kLoopShader, options);
  ASSERT_EQ(result.sites.size(), 3u);
  EXPECT_EQ(result.sites[0].verdict, "ESCAPE");
  EXPECT_TRUE(result.HasEscape());
  EXPECT_NE(audit::FormatAuditReport(result, "x")
                .find("proven [0, 8], observed [0, 9], limit 15: ESCAPE"),
            std::string::npos);
}

// Arrays whose length is a specialization constant (integer_range_spec_lengths.cpp): the
// workgroup and the arrays sized by constant 0, which the run specializes and the
// analysis does not. Each index proven below the length for every value is checked
// against the length this run gave, at two values; the `<=` loop's index really reaches
// the length and is clamped (out of bounds, contained).

TEST(AuditRun, SpecializedLength_ProofsCheckedAtTheRunsValue) {
  for (uint32_t block : {8u, 16u}) {
    SCOPED_TRACE("BLOCK " + std::to_string(block));
    audit::AuditOptions options;
    options.groups = {2, 1, 1};
    options.run_spec_constants = {{0, block}};
    audit::AuditResult result = MustAudit(test::SpecSizedKernel("i < BLOCK"), options);
    ASSERT_EQ(result.sites.size(), 3u);
    for (const audit::SiteResult& site : result.sites) {
      EXPECT_TRUE(site.proven_for_every_specialization);
      EXPECT_EQ(site.verdict, "ok");
      EXPECT_EQ(site.limit, int64_t(block) - 1);
      EXPECT_EQ(site.observed.min, 0);
      EXPECT_EQ(site.observed.max, int64_t(block) - 1);
      EXPECT_FALSE(site.clamped);
    }
    EXPECT_NE(
        audit::FormatAuditReport(result, "s.comp")
            .find("proven below the specialized length, observed [0, " + std::to_string(block - 1) +
                  "], limit " + std::to_string(block - 1) + ": ok"),
        std::string::npos);
  }
}

TEST(AuditRun, SpecializedLength_NearMissOutOfBoundsAndContained) {
  audit::AuditOptions options;
  options.groups = {2, 1, 1};
  options.run_spec_constants = {{0, 8}};
  audit::AuditResult result = MustAudit(test::SpecSizedKernel("i <= BLOCK"), options);
  ASSERT_EQ(result.sites.size(), 3u);
  const audit::SiteResult& values = result.sites[2];
  EXPECT_FALSE(values.proven_for_every_specialization);
  EXPECT_EQ(values.verdict, "no range");
  EXPECT_EQ(values.limit, 7);
  EXPECT_EQ(values.observed.max, 8);
  EXPECT_TRUE(values.Contained());
  EXPECT_EQ(result.CountContained(), 1u);
  EXPECT_FALSE(result.HasEscape());
}

// The tree of halving steps and the count parameter (test::SpecSizedReduction,
// test::SpecSizedRows), at two values: every index proven below the length is checked
// against the length the run gave, those with a range of their own too (the range may
// be wider than any length: then the length decides); the halving steps' near-miss
// really reaches the length and is contained.
TEST(AuditRun, SpecializedLength_HalvedStepsAndCountsCheckedAtTheRunsValue) {
  for (uint32_t block : {8u, 16u}) {
    SCOPED_TRACE("BLOCK " + std::to_string(block));
    audit::AuditOptions options;
    options.groups = {1, 1, 1};
    options.run_spec_constants = {{0, block}};
    for (const std::string& glsl :
         {test::SpecSizedReduction("<"), test::SpecSizedRows("first + BLOCK <= stride")}) {
      audit::AuditResult result = MustAudit(glsl, options);
      size_t proven = 0;
      for (const audit::SiteResult& site : result.sites) {
        if (site.site.record.object != "Data") continue;
        EXPECT_TRUE(site.proven_for_every_specialization) << site.site.record.index_id;
        EXPECT_NE(site.verdict, "ESCAPE");
        EXPECT_EQ(site.limit, int64_t(block) - 1);
        EXPECT_FALSE(site.clamped);
        proven += site.proven_for_every_specialization;
      }
      EXPECT_GE(proven, 1u);
      EXPECT_FALSE(result.HasEscape()) << audit::FormatAuditReport(result, "s.comp");
    }
    // The rows' near-miss needs chosen buffer words (the execution test gives them);
    // the halving steps' reaches the length whatever the buffer holds.
    audit::AuditResult result = MustAudit(test::SpecSizedReduction("<="), options);
    EXPECT_GE(result.CountContained(), 1u) << audit::FormatAuditReport(result, "s.comp");
    EXPECT_FALSE(result.HasEscape());
  }
}

// A proof for every specialization that stands beside a range of its own: the range
// alone would pass an index past the length, the length decides.
TEST(AuditRun, SpecializedLength_WideRangeStillCheckedAgainstTheLength) {
  audit::AuditOptions options;
  options.groups = {2, 1, 1};
  options.run_spec_constants = {{0, 8}};
  options.adjust_proven_ranges = [](std::vector<spirv::AuditSite>& sites) {
    for (spirv::AuditSite& site : sites) {
      site.record.has_range = true;  // wider than any length
      site.record.range_min = 0;
      site.record.range_max = 0xffffffffLL;
    }
  };
  audit::AuditResult result = MustAudit(test::SpecSizedKernel("i < BLOCK"), options);
  ASSERT_EQ(result.sites.size(), 3u);
  for (const audit::SiteResult& site : result.sites) {
    EXPECT_TRUE(site.proven_for_every_specialization);
    EXPECT_EQ(site.verdict, "ok");
  }
  EXPECT_NE(audit::FormatAuditReport(result, "s.comp")
                .find("proven [0, 4294967295] and below the specialized length, observed [0, 7], "
                      "limit 7: ok"),
            std::string::npos);
}

// The comparison itself: a proven index observed at the length is an ESCAPE.
TEST(AuditRun, SpecializedLengthVerdict_LengthItselfEscapes) {
  EXPECT_EQ(audit::SpecializedLengthVerdict({true, 0, 7}, 7), "ok");
  EXPECT_EQ(audit::SpecializedLengthVerdict({true, 0, 8}, 7), "ESCAPE");
  EXPECT_EQ(audit::SpecializedLengthVerdict({true, -1, 3}, 7), "ESCAPE");
  EXPECT_EQ(audit::SpecializedLengthVerdict({false, 0, 0}, 7), "not reached");
  EXPECT_EQ(audit::SpecializedLengthVerdict({true, 0, 3}, -1), "no range");
}

TEST(AuditRun, ShaderWithAnImage_IsRefused) {
  audit::AuditResult result;
  std::string error;
  std::vector<uint32_t> words = test::CompileGlsl(R"(#version 440
layout(local_size_x = 1) in;
layout(binding = 0, rgba8) uniform image2D image;
void main() { imageStore(image, ivec2(0), vec4(1)); }
)",
                                                  "comp");
  audit::AuditOptions options;
  EXPECT_FALSE(audit::RunAudit(SharedContext(), words, options, &result, &error));
  EXPECT_NE(error.find("the audit runs shaders that need only buffers"), std::string::npos)
      << error;
}

// #version 440
// layout(local_size_x = 64) in;
// layout(std430, binding = 0) buffer Data { uint values[]; };
// void main() {  // 2^26 data-dependent steps per invocation: far over any small budget
//   uint x = values[gl_LocalInvocationIndex];
//   for (uint i = 0u; i < 67108864u; ++i) x = x * 1664525u + values[x & 7u];
//   values[gl_LocalInvocationIndex] = x;
// }
const char* kSlowShader = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
void main() {
  uint x = values[gl_LocalInvocationIndex];
  for (uint i = 0u; i < 67108864u; ++i) x = x * 1664525u + values[x & 7u];
  values[gl_LocalInvocationIndex] = x;
}
)";

TEST(AuditRun, DispatchOverTimeBudget_RefusesNamingItAndGroupsRan) {
  std::string error;
  std::unique_ptr<vk::Context> context = vk::Context::Create({}, &error);  // may be lost
  ASSERT_TRUE(context) << error;
  std::vector<uint32_t> words = test::CompileGlsl(kSlowShader, "comp");
  audit::AuditOptions options;
  options.groups = {2, 1, 1};
  options.dispatch_time_budget_ms = 50;
  audit::AuditResult result;
  EXPECT_FALSE(audit::RunAudit(*context, words, options, &result, &error));
  EXPECT_NE(error.find("0 of 2 sampled groups ran"), std::string::npos) << error;
  EXPECT_NE(error.find("time budget per dispatch 50"), std::string::npos) << error;
}

// ---------------------------------------------------------------------------------
// The command line and generated shaders.

struct CommandOutput {
  int status = -1;
  std::string text;
};

CommandOutput RunCommand(const std::string& command) {
  CommandOutput out;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return out;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.text.append(buffer, n);
  int status = pclose(pipe);
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::string AuditCommand() { return test::BinaryDir() + "/Audit/glint-audit"; }
std::string ValidatorCommand() { return test::BinaryDir() + "/StandAlone/glslangValidator"; }

// This run's own directory (mkdtemp), removed when the test program ends: runs of this
// suite at the same time (several checkouts on one machine) never share files.
class RunDirectory {
 public:
  RunDirectory() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "glint_audit_test.XXXXXX").string();
    if (mkdtemp(pattern.data())) path_ = pattern;
  }
  ~RunDirectory() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::filesystem::path RunDir() {
  static RunDirectory directory;
  EXPECT_FALSE(directory.path().empty()) << "mkdtemp failed";
  return directory.path();
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  std::filesystem::path dir = RunDir();
  std::string path = (dir / name).string();
  FILE* file = std::fopen(path.c_str(), "w");
  std::fputs(text.c_str(), file);
  std::fclose(file);
  return path;
}

TEST(AuditCommand, InjectedWrongRange_ExitsNonZero) {
  std::string path = WriteTemp("loop.comp", kLoopShader);
  CommandOutput clean = RunCommand(AuditCommand() + " --groups=2,1,1 " + path);
  EXPECT_EQ(clean.status, 0) << clean.text;
  EXPECT_NE(clean.text.find(" 0 ESCAPE"), std::string::npos) << clean.text;
  CommandOutput wrong =
      RunCommand(AuditCommand() + " --groups=2,1,1 --test-inject-wrong-range=0 " + path);
  EXPECT_EQ(wrong.status, 1) << wrong.text;
  EXPECT_NE(wrong.text.find(": ESCAPE"), std::string::npos) << wrong.text;
}

TEST(AuditCommand, RunSpecConstant_SpecializesTheRunOnly) {
  std::string path = WriteTemp("spec.comp", test::SpecSizedKernel("i < BLOCK"));
  CommandOutput out =
      RunCommand(AuditCommand() + " --groups=2,1,1 --run-spec-constant=0=16 " + path);
  EXPECT_EQ(out.status, 0) << out.text;
  EXPECT_NE(out.text.find("observed [0, 15], limit 15: ok"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("audit: 3 sites: 3 ok, 0 ESCAPE"), std::string::npos) << out.text;
  // Given to the analysis instead, the length is fixed: ranges, no proof for every value.
  CommandOutput fixed = RunCommand(AuditCommand() + " --groups=2,1,1 --spec-constant=0=16 " + path);
  EXPECT_EQ(fixed.status, 0) << fixed.text;
  EXPECT_EQ(fixed.text.find("specialized length"), std::string::npos) << fixed.text;
}

TEST(AuditCommand, BudgetBelowCorners_ExitsTwoNamingIt) {
  std::string path = WriteTemp("loop2.comp", kLoopShader);
  CommandOutput out = RunCommand(AuditCommand() + " --groups=4,4,1 --group-budget=3 " + path);
  EXPECT_EQ(out.status, 2) << out.text;
  EXPECT_NE(out.text.find("group budget 3 is smaller than the 4 corner groups"), std::string::npos)
      << out.text;
}

TEST(AuditCommand, DispatchOverTimeBudget_ExitsTwoNamingIt) {
  std::string path = WriteTemp("slow.comp", kSlowShader);
  CommandOutput out =
      RunCommand(AuditCommand() + " --groups=3,1,1 --dispatch-time-budget-ms=50 " + path);
  EXPECT_EQ(out.status, 2) << out.text;  // a refusal, not a crash
  EXPECT_NE(out.text.find("refused after 0 of 3 sampled groups ran"), std::string::npos)
      << out.text;
  EXPECT_NE(out.text.find("time budget per dispatch 50 ms"), std::string::npos) << out.text;
}

// --max-workgroups is checked by running at that size: the grid is the promise (6
// groups of 8: the global id reaches 47 and the workgroup id 5, both proven exactly),
// a smaller --groups is allowed, a larger one is refused naming the promise.
const char kDispatchShader[] = R"(#version 440
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Data { uint tile[6]; uint wide[48]; };
void main() {
  tile[gl_WorkGroupID.x] = 1u;
  wide[gl_GlobalInvocationID.x] = 2u;
}
)";

TEST(AuditCommand, MaxWorkgroups_DispatchesThePromiseAndRefusesMore) {
  std::string path = WriteTemp("dispatch.comp", kDispatchShader);
  CommandOutput promised = RunCommand(AuditCommand() + " --max-workgroups=6,1,1 " + path);
  EXPECT_EQ(promised.status, 0) << promised.text;
  EXPECT_NE(promised.text.find("proven [0, 5], observed [0, 5], limit 5: ok"), std::string::npos)
      << promised.text;
  EXPECT_NE(promised.text.find("proven [0, 47], observed [0, 47], limit 47: ok"), std::string::npos)
      << promised.text;
  EXPECT_NE(promised.text.find("of grid 6x1x1"), std::string::npos) << promised.text;
  CommandOutput smaller =
      RunCommand(AuditCommand() + " --groups=2,1,1 --max-workgroups=6,1,1 " + path);
  EXPECT_EQ(smaller.status, 0) << smaller.text;
  EXPECT_NE(smaller.text.find("proven [0, 5], observed [0, 1], limit 5: ok"), std::string::npos)
      << smaller.text;
  CommandOutput larger =
      RunCommand(AuditCommand() + " --groups=7,1,1 --max-workgroups=6,1,1 " + path);
  EXPECT_EQ(larger.status, 2) << larger.text;
  EXPECT_NE(larger.text.find("--groups exceeds --max-workgroups in dimension 0 (7 > 6)"),
            std::string::npos)
      << larger.text;
  CommandOutput none = RunCommand(AuditCommand() + " --groups=6,1,1 " + path);
  EXPECT_EQ(none.status, 0) << none.text;
  EXPECT_NE(none.text.find("--max-workgroups"), std::string::npos) << "the reason names the flag";
}

// Counts from one glint-audit summary line.
struct AuditCounts {
  uint64_t sites = 0, ok = 0, escapes = 0, not_reached = 0, no_range = 0;
};

bool ParseSummary(const std::string& text, AuditCounts* counts) {
  std::smatch m;
  static const std::regex summary(
      R"(audit: (\d+) sites: (\d+) ok, (\d+) ESCAPE, (\d+) not reached, (\d+) no range)");
  if (!std::regex_search(text, m, summary)) return false;
  *counts = {std::stoull(m[1]), std::stoull(m[2]), std::stoull(m[3]), std::stoull(m[4]),
             std::stoull(m[5])};
  return true;
}

// The dispatch size the generator chose ("// audit-args: --groups=X,Y,Z").
std::string AuditArgs(const std::string& path) {
  std::string first = test::ReadFile(path).substr(0, 200);
  std::smatch m;
  static const std::regex args(R"(// audit-args: ([^\n]*))");
  return std::regex_search(first, m, args) ? m[1].str() : "";
}

struct ShaderOutcome {
  std::string path;
  std::string failure;  // empty when it passed
  AuditCounts counts;
};

// The audit checks exactly what --dump-ranges reports: every site it audits is a line
// of the dump (same index id) with the same range.
std::string MismatchWithDumpRanges(const std::string& audit, const std::string& dump) {
  static const std::regex site(R"(\(%(\d+), [iu]32\): proven (\[-?\d+, -?\d+\]|no range))");
  for (std::sregex_iterator it(audit.begin(), audit.end(), site), end; it != end; ++it) {
    std::string id = (*it)[1], proven = (*it)[2];
    std::string expected =
        "[index %" + id + "]: " + (proven == "no range" ? proven : "range " + proven);
    if (dump.find(expected) == std::string::npos)
      return "--dump-ranges lacks '" + expected + "' that the audit used:\n" + dump;
  }
  return "";
}

// `keep_log`: the audit's full report goes to path + ".log" (only for shaders the test
// generated in its own directory), for Test/audit/trap_report.py.
ShaderOutcome AuditOneShader(const std::string& path, bool keep_log) {
  ShaderOutcome outcome{path, "", {}};
  // The module goes to a file of the test's own (never the machine's /dev/null: a
  // writer that replaced its target would replace the device for the whole machine).
  std::filesystem::path outputs = RunDir() / "outputs";
  std::filesystem::create_directories(outputs);
  std::string output =
      (outputs / (std::filesystem::path(path).filename().string() + ".spv")).string();
  // The promised dispatch is the analysis's, so the dump must be given it too.
  std::smatch promise;
  std::string args = AuditArgs(path);
  static const std::regex promise_flag(R"(--max-workgroups=[0-9,]+)");
  std::string analysis_flags =
      std::regex_search(args, promise, promise_flag) ? " " + promise[0].str() : "";
  CommandOutput ranges = RunCommand(ValidatorCommand() + " -V --dump-ranges" + analysis_flags +
                                    " -o " + output + " " + path);
  std::filesystem::remove(output);
  if (ranges.status != 0 || ranges.text.find("range") == std::string::npos) {
    outcome.failure = "--dump-ranges failed:\n" + ranges.text;
    return outcome;
  }
  CommandOutput audit = RunCommand(
      AuditCommand() + " --fill=bytes --dispatch-time-budget-ms=60000 " + args + " " + path);
  if (keep_log) {
    std::ofstream log(path + ".log");
    log << audit.text;
  }
  if (audit.status != 0 || !ParseSummary(audit.text, &outcome.counts)) {
    outcome.failure = "glint-audit exited " + std::to_string(audit.status) + ":\n" + audit.text;
    return outcome;
  }
  outcome.failure = MismatchWithDumpRanges(audit.text, ranges.text);
  return outcome;
}

// Runs the shaders two at a time; fails the test for each failure.
AuditCounts AuditShaders(const std::vector<std::string>& paths, bool keep_logs = false) {
  AuditCounts total;
  for (size_t i = 0; i < paths.size(); i += 2) {
    std::vector<std::future<ShaderOutcome>> running;
    for (size_t j = i; j < std::min(paths.size(), i + 2); ++j)
      running.push_back(std::async(std::launch::async, AuditOneShader, paths[j], keep_logs));
    for (auto& f : running) {
      ShaderOutcome o = f.get();
      EXPECT_EQ(o.failure, "") << o.path;
      total.sites += o.counts.sites;
      total.ok += o.counts.ok;
      total.escapes += o.counts.escapes;
      total.not_reached += o.counts.not_reached;
      total.no_range += o.counts.no_range;
    }
  }
  return total;
}

std::vector<std::string> ShadersIn(const std::string& dir) {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".comp") paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

// Every kind of `// trap: NAME` the generator writes (trap_report.py's --kinds).
const char kTrapKinds[] =
    "wrong-bound,abs-int-min,length-le,loop-exit-value,offset-wrap,offset-restored,"
    "counter-overrun,reload,signed,overwrite,call-wrong-bound,narrow-truncation,"
    "switch-fallthrough,switch-default,vector-all-false,vector-overwrite,bit-count,"
    "bit-position,many-calls,parameter-part,vector-component,exit-counter,"
    "constant-table,indexed-local,caller-guard,quotient-guard,bool-local,counted-sum,"
    "bitfield-insert,reinterpreted-exit-counter,tested-after-update,ordered-difference,"
    "relayed-part,spec-halved-le,spec-rows-run,remainder-next,remainder-multiplier,"
    "bound-tested-le,call-result-wide,call-field-wide,counter-written,argument-field-wide,"
    "exit-difference-break";

TEST(AuditGenerated, TwoHundredShaders_ZeroEscapes) {
  std::filesystem::path dir = RunDir() / "generated";
  std::filesystem::remove_all(dir);
  CommandOutput generated =
      RunCommand("python3 " + test::SourceRoot() +
                 "/Test/audit/generate_shaders.py --seed ci --count 200 --out " + dir.string());
  ASSERT_EQ(generated.status, 0) << generated.text;
  std::vector<std::string> paths = ShadersIn(dir.string());
  ASSERT_EQ(paths.size(), 200u);
  AuditCounts total = AuditShaders(paths, /*keep_logs=*/true);
  EXPECT_EQ(total.escapes, 0u);
  EXPECT_GT(total.ok, 400u);  // the generator's loops and built-ins are mostly ranged
  // The traps are real: every kind has sites whose raw index was observed out of bounds
  // and that robust access clamped, and no trap site went out of bounds unclamped (nor
  // lacks a site in the report). Checked on the audit's own reports, not on the text.
  CommandOutput traps = RunCommand("python3 " + test::SourceRoot() +
                                   "/Test/audit/trap_report.py --min-contained 3 --kinds " +
                                   kTrapKinds + " " + dir.string());
  EXPECT_EQ(traps.status, 0) << traps.text;
  std::printf("%s", traps.text.c_str());
  std::printf(
      "generated: %zu shaders, %llu sites: %llu ok, %llu ESCAPE, %llu not reached, "
      "%llu no range\n",
      paths.size(), (unsigned long long)total.sites, (unsigned long long)total.ok,
      (unsigned long long)total.escapes, (unsigned long long)total.not_reached,
      (unsigned long long)total.no_range);
}

// The CI set holds every trap of the generator (each indexes out of bounds on purpose,
// so that a proof that drops its clamp is an ESCAPE; TwoHundredShaders_ZeroEscapes checks
// on the audit's reports that they really do), the sound forms beside them, and shaders
// that promise their dispatch. Counted on the generated text, so the test fails if a
// change to the generator stops writing one of them.
TEST(AuditGenerated, CiSetHoldsEveryTrap) {
  std::filesystem::path dir = RunDir() / "traps";
  std::filesystem::remove_all(dir);
  CommandOutput generated =
      RunCommand("python3 " + test::SourceRoot() +
                 "/Test/audit/generate_shaders.py --seed ci --count 200 --out " + dir.string());
  ASSERT_EQ(generated.status, 0) << generated.text;
  std::string all;
  for (const std::string& path : ShadersIn(dir.string())) all += test::ReadFile(path);
  auto count = [&](const std::string& needle) {
    size_t n = 0;
    for (size_t at = all.find(needle); at != std::string::npos; at = all.find(needle, at + 1)) ++n;
    return n;
  };
  for (const char* trap : {"// trap: wrong-bound", "// trap: abs-int-min", "// trap: length-le",
                           "// trap: reload", "// trap: signed", "// trap: overwrite"})
    EXPECT_GE(count(trap), 10u) << trap;
  // The narrowness traps of guards (indices stay in bounds; a proof narrower than the
  // truth is an ESCAPE), apart from the out-of-bounds `// trap:` forms of the same shapes.
  for (const char* trap :
       {"// guard-trap: reload", "// guard-trap: signed", "// guard-trap: overwrite"})
    EXPECT_GE(count(trap), 10u) << trap;
  EXPECT_GE(count("// trap access"), 200u) << "out-of-bounds accesses marked for trap_report";
  EXPECT_GE(count("< uint(result.length())) acc += result[") +
                count(">= uint(result.length())) return;") +
                count("< result.length()) acc += result[int("),
            3u)
      << "the sound length guard (then, exit and signed styles)";
  EXPECT_GE(count("h_split("), 3u) << "out parameters";
  EXPECT_GE(count("h_mod(") + count("h_min(") + count("h_below(") + count("h_abs_low("), 20u)
      << "helper calls";
  EXPECT_GE(count("abs("), 20u);
  // Call results, narrow integers, switch and vector guards: sound forms and traps.
  for (const char* trap : {"// trap: call-wrong-bound", "// trap: narrow-truncation",
                           "// trap: switch-", "// trap: vector-"})
    EXPECT_GE(count(trap), 3u) << trap;
  EXPECT_GE(count("h_pick("), 5u) << "call results";
  EXPECT_GE(count("uint(uint8_t("), 5u) << "narrow integers";
  EXPECT_GE(count("switch ("), 5u) << "switch guards";
  EXPECT_GE(count("any(greaterThanEqual(") + count("all(lessThan("), 5u) << "vector guards";
  // General loop updates, ranged offsets and counted loops: sound forms and traps.
  for (const char* trap : {"// trap: loop-exit-value", "// trap: offset-wrap",
                           "// trap: offset-restored", "// trap: counter-overrun"})
    EXPECT_GE(count(trap), 3u) << trap;
  EXPECT_GE(count(" + 1u) / 2u;"), 3u) << "halving loops (fixed point)";
  EXPECT_GE(count("acc += data_u[a"), 3u) << "guards through a ranged offset";
  // Bit counts and positions: sound forms in expressions, and their traps.
  for (const char* op : {"bitCount(", "findLSB(", "findMSB("}) EXPECT_GE(count(op), 20u) << op;
  for (const char* trap : {"// trap: bit-count", "// trap: bit-position", "// trap: many-calls",
                           "// trap: parameter-part", "// trap: vector-component"})
    EXPECT_GE(count(trap), 3u) << trap;
  EXPECT_GE(count("uint h_at(uint k)"), 3u) << "helpers called from more than 64 places";
  EXPECT_GE(count("uint h_part(uvec2 v)"), 3u) << "helpers indexed by a part of a parameter";
  EXPECT_GE(count(") % uvec2(") + count(" = min(uvec2("), 5u) << "components of computed vectors";
  EXPECT_GE(count("uint(ivec3(gl_LocalInvocationID)."), 10u) << "components of a bitcast vector";
  EXPECT_GE(count("++; acc += data_u[n"), 5u) << "counters in counted loops";
  EXPECT_GE(count("// trap: exit-counter"), 3u);
  EXPECT_GE(count("// trap: constant-table"), 3u);
  EXPECT_GE(count("// trap: indexed-local"), 3u);
  EXPECT_GE(count("acc += data_u[kt"), 5u) << "values read from constant tables";
  for (const char* trap :
       {"// trap: caller-guard", "// trap: quotient-guard", "// trap: bool-local",
        "// trap: counted-sum", "// trap: bitfield-insert"})
    EXPECT_GE(count(trap), 3u) << trap;
  EXPECT_GE(count("u >> i"), 20u) << "locals stepped by a counted loop's counter-dependent step";
  EXPECT_GE(count("acc += data_u[bitfieldInsert("), 10u) << "bitfield inserts";
  EXPECT_GE(count("() { return data_u[gl_LocalInvocation"), 10u) << "helpers called under tests";
  EXPECT_GE(count(" / 2u) < ") + count(" / 3u) < ") + count(" >> 1u) < "), 5u) << "quotient tests";
  EXPECT_GE(count("if (ok"), 10u) << "tests kept in bool locals";
  EXPECT_GE(count(" += 1u; }") + count(" += 2u; }") + count(" += 3u; }"), 5u)
      << "counters beside a loop's tested counter";
  EXPECT_GE(count("// trap: reinterpreted-exit-counter"), 3u);
  EXPECT_GE(count("// trap: tested-after-update"), 3u);
  EXPECT_GE(count("// trap: ordered-difference"), 3u);
  EXPECT_GE(count("// trap: relayed-part"), 3u);
  EXPECT_GE(count("acc += h_relay("), 10u) << "parts passed down a chain of helpers";
  EXPECT_GE(count(") { if (x") + count(") acc += data_u[x") + count("} else { acc += data_u[x"),
            20u)
      << "differences under an order";
  EXPECT_GE(count("// trap: remainder-next"), 3u);
  EXPECT_GE(count("// trap: remainder-multiplier"), 3u);
  EXPECT_GE(count("// remainder by hand"), 100u) << "remainders written out by hand";
  EXPECT_GE(count("// trap: bound-tested-le"), 3u);
  EXPECT_GE(count("// bound tested above"), 100u) << "bounds tested above their own test";
  EXPECT_GE(count("// trap: call-result-wide"), 3u);
  EXPECT_GE(count("// call result of this call's argument"), 100u)
      << "call results of one call's own argument";
  EXPECT_GE(count("// trap: call-field-wide"), 3u);
  EXPECT_GE(count("// fields of this call's count"), 100u) << "vector bit fields of one call";
  EXPECT_GE(count("// trap: counter-written"), 3u);
  EXPECT_GE(count("// counter tested before its uses"), 100u) << "counters a helper writes";
  EXPECT_GE(count("// trap: argument-field-wide"), 3u);
  EXPECT_GE(count("// field over cases of this call's arguments"), 100u)
      << "bit fields over cases of one call's arguments";
  EXPECT_GE(count("// trap: exit-difference-break"), 3u);
  EXPECT_GE(count("// remainder after a stepped loop"), 100u)
      << "what a stepped loop leaves for its remainder";
  EXPECT_GE(count(") break; }"), 10u) << "locals tested right after their update";
  EXPECT_GE(count("while (uint(j"), 5u) << "exit counters tested as the other signedness";
  EXPECT_GE(count("while (int(j"), 5u) << "exit counters tested as the other signedness";
  EXPECT_GE(count("--max-workgroups="), 30u) << "shaders that promise their dispatch";
  EXPECT_GE(count("gl_NumWorkGroups."), 10u);
  EXPECT_GE(count("gl_LocalInvocationIndex & 1u)); "), 10u)
      << "loops to a bound that is not a constant";
  std::filesystem::remove_all(dir);
}

TEST(AuditGenerated, Regressions_ZeroEscapes) {
  std::vector<std::string> paths = ShadersIn(test::SourceRoot() + "/Test/audit/regressions");
  ASSERT_FALSE(paths.empty());
  AuditCounts total = AuditShaders(paths);
  EXPECT_EQ(total.escapes, 0u);
}
#endif  // GLINT_HAVE_AUDIT

}  // namespace
}  // namespace glint
