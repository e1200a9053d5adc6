// Uniformity (divergence) analysis: finds uniform-control instructions (derivatives,
// implicit-LOD sampling, barriers, SPIR-V 1.0 group operations; see
// convergence_classes.h) that some invocations may reach while others of the same
// quad / subgroup / workgroup do not, and explains why as a chain of reasons.
//
// What it proves: for every entry point, a level per value, per memory object and per
// block (uniform < subgroup-uniform < quad-uniform < divergent), computed as a least
// fixed point over all functions the entry point calls:
//   sources     invocation-id built-ins, non-flat fragment inputs (flat ones, FrontFacing,
//               PrimitiveId are quad-uniform), FragCoord, HelperInvocation, loads from
//               memory other invocations may write (storage buffers and images without
//               NonWritable, Output; Workgroup memory unless a barrier phase proves the
//               load, below), atomics, results of cross-thread operations that are not
//               uniform by definition (shuffles, scans, Elect).
//   shared      a load of a Workgroup variable is workgroup-uniform when it runs in
//               uniform control flow at a uniform address, a workgroup barrier in uniform
//               control flow dominates it (or a call of a helper that ends in one; in a
//               helper with no barrier before the load, one before each call site), and
//               nothing in those barriers' phases may write the element it reads
//               (barrier_phases.h); otherwise its reason names the
//               condition that failed ("shared variable `count` may be written after the
//               barrier at x.comp:14 (by the OpStore at x.comp:16)").
//   uniform     constants, uniform buffers, push constants, UniformConstant handles,
//               WorkgroupId, NumWorkgroups, NumSubgroups, DrawIndex, readonly buffers;
//               SubgroupSize in compute (GLCompute, Kernel) only: elsewhere Vulkan lets
//               it vary between subgroups of one draw (VK_EXT_subgroup_size_control's
//               varying size, the default for SPIR-V 1.6), so it is subgroup-uniform;
//               subgroup reductions, ballots, votes and BroadcastFirst are
//               subgroup-uniform (enough for derivatives, not for a workgroup barrier).
//   one subgroup in blocks that run only when the workgroup is one subgroup (behind
//               NumSubgroups == 1, or SubgroupSize == the X size of a one-row workgroup
//               in a SPIR-V 1.6 module), a subgroup-uniform result is workgroup-uniform
//               (uniformity_one_subgroup.cpp).
//   lanes       a subgroup broadcast, in uniform control flow from a uniform lane, of a
//               value every subgroup computes alike for each lane (proven by a second
//               fixed point in which lane-equivalent invocations count as one) is
//               workgroup-uniform (uniformity_lanes.cpp).
//   control     a block is as divergent as the conditions of the branches and switches
//               it is control dependent on (post-dominator based, so loops with a
//               divergent exit, code after a divergent return or OpKill /
//               OpTerminateInvocation, and callees' kills are covered), and as the call
//               sites of its function.
//   dimensions  a component of an invocation-id built-in is workgroup-uniform in a
//               dimension the module fixes the workgroup at one invocation wide in
//               (workgroup_dimensions.h).
//   loop tests  the top test of a loop whose counter and bound add the same
//               per-invocation value (`for (t = a + tid; t < b + tid; t += s)`) is as
//               divergent as a, b and s, when the range analysis shows that no sum can
//               wrap (offset_shared_loops.h).
//   locals      a load of a Function variable the value-flow view follows
//               (value_flow.h) is as divergent as the stores that reach it, their control
//               flow, and the branches that choose between them at joins (flow-sensitive).
//               Other Function variables (passed to calls, dynamically indexed, ...) and
//               Private ones take the level of every value stored into them and of the
//               control flow of the store (flow-insensitive). A load through a Function
//               pointer parameter right after a store through it in the same block
//               (nothing between may write through it) reads the stored value.
//               Arguments flow into parameters, return values out of calls, pointer
//               parameters alias the caller's variables; parameters join all call
//               sites, but a call whose arguments or control are more uniform than the
//               join gets its result from an analysis of the callee in its own context
//               (uniformity_call_sites.cpp). So a helper that broadcasts through shared
//               memory (one invocation writes, barrier, all read, barrier) returns a
//               uniform value at every call site.
// A uniform-control instruction is reported when its block, within its own function, is
// more divergent than its scope allows (quad for derivatives, the Execution scope for
// barriers). One that is fine within its function is reported once at each call site
// whose control flow is too divergent for it ("call of `f` in non-uniform control flow,
// but it needs uniform control flow for: barrier ... at x.comp:5"), up to three listed,
// and passed on to the caller's call sites where the call itself is fine; one whose
// divergent control lies only on sides of branches that every call's constant arguments
// never take is fine (argument_decided_branches.h). A warning
// shows up to three independent reason chains: the first, then ("also: ...") other
// branches its block depends on and the branches those are inside.
//
// Decisions: OpDemoteToHelperInvocation keeps the invocation running as a helper, so
// derivatives stay defined: it does not make control flow non-uniform.
// SubgroupUniformControlFlowKHR (GLSL [[subgroup_uniform_control_flow]], which glslang 12
// turns into that execution mode plus the SPV_KHR_subgroup_uniform_control_flow
// extension) only strengthens what the driver must do; it changes no level here, and
// the analysis never edits the module, so the mode keeps its meaning.
//
// Assumes: a module that parsed (structured or not). Refuses (UniformityResult::refusal)
// when an instruction has no convergence class or lacks an operand, or the fixed point
// needs more rounds than the budget; then no findings are claimed. (A call context or
// the lane analysis that misses its budget only costs precision, see their files.)
// The parts are in uniformity_*.cpp, one purpose each (uniformity_internal.h). Known limit: a value
// defined in a loop and used after it without a phi or a variable (not produced by glslang) is not
// treated as divergent when the loop's exit is.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_H

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "SPIRV/analysis/convergence/convergence_classes.h"
#include "SPIRV/analysis/facts/loop_shapes.h"
#include "SPIRV/analysis/memory/value_flow.h"
#include "glint/types.h"
#include "SPIRV/ir/builtin_index.h"
#include "SPIRV/ir/call_graph.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/module.h"
#include "SPIRV/ir/source_lines.h"

namespace glint::spirv {

enum class Divergence : uint8_t { kUniform, kSubgroupUniform, kQuadUniform, kDivergent };

struct UniformityOptions {
  // Rounds over all functions of an entry point before the analysis gives up.
  uint32_t round_budget = 64;
  // Functions (source names, see FunctionNameMatches in uniformity_filters.h) whose call
  // results the user promises are workgroup-uniform: taken as uniform, not analysed.
  std::vector<std::string> assume_uniform;
  // Compute every value's, block's and memory object's fact, not only those the
  // findings can depend on (uniformity_relevance.cpp). The findings are the same either
  // way (the corpus suite checks it on every shader); only the cost differs.
  bool every_fact = false;
  // Run every block in every round of the fixed point, instead of passing over a block
  // when nothing its previous pass read has risen since. The facts, their causes and
  // the rounds are the same either way (tests and the corpus suite compare; fact_reads.h
  // names the one corner past the call-context budget); only the cost differs.
  bool rerun_every_block = false;
};

struct UniformityFinding {
  const Instruction* instruction = nullptr;  // the uniform-control instruction
  std::string entry_point;
  SourceLocation location;  // from OpLine; empty file and line 0 without line info
  std::string message;
  std::vector<std::string> reasons;  // outermost first
  // Where each reason points (parallel to `reasons`; line 0 when it names none).
  std::vector<SourceLocation> reason_locations;
  // What the instruction needs: "uniformity/derivative", "uniformity/implicit-lod",
  // "uniformity/barrier" or "uniformity/uniform-control".
  std::string rule;
  // The uniform-control instructions behind the finding: `instruction` itself, or for a
  // call-site finding each need of the callee that the call violates.
  std::vector<const Instruction*> triggers;
  std::vector<SourceLocation> trigger_locations;  // parallel to `triggers`
};

struct UniformityResult {
  std::vector<UniformityFinding> findings;
  std::string refusal;  // why the analysis gave up; empty when it finished
  uint32_t rounds =
      0;  // the most rounds one fixed point needed (entry point, lanes or call context)
  // Call contexts run (uniformity_call_sites.cpp), all entry points together; a context
  // whose result was cached for equal inputs is not run again.
  uint32_t context_runs = 0;
};

// Bounds of a 32-bit integer value, in the value's own signedness (as the range
// analysis gives them).
struct ValueBounds {
  int64_t min = 0;
  int64_t max = 0;
};
// The bounds of `value` where `reader` reads it, or nullopt when nothing bounds it.
using ValueBoundsQuery =
    std::function<std::optional<ValueBounds>(uint32_t value, const Instruction& reader)>;

// What the analysis builds on; the analysis context lends its own (shared with other
// analyses), the plain overload builds them for one run.
struct UniformityInputs {
  const DefUse& def_use;
  const BuiltInIndex& builtins;
  const CallGraph& calls;
  const ConvergenceClasses& classes;
  SourceLines& lines;  // locations of findings and reasons
  CfgLookup cfgs;
  std::function<const ValueFlow&(Function&)> value_flows;  // built on `cfgs`
  // The full view of a function if one is built already (the analysis context's), else
  // null: the findings then build a view of the few variables they read.
  std::function<const ValueFlow*(Function&)> built_value_flow;
  // The loops of the module's functions (built when first asked), and bounds of integer
  // values from the range analysis, which this analysis may not include: the analysis
  // context lends both. Either empty: the rule that needs it (offset_shared_loops.h)
  // refuses.
  std::function<LoopShapes&()> loop_shapes;
  ValueBoundsQuery value_bounds;
};

// Analyses every entry point of `module` (which it does not change), reading `inputs`.
// On a module alone: analysis_context.h (the context builds the inputs).
UniformityResult AnalyzeUniformity(Module& module, const UniformityInputs& inputs,
                                   const UniformityOptions& options = {});

// What the analysis proved for one entry point as levels, not findings: for tools and
// tests that ask about one value, block or variable. The maps hold the result ids,
// parameters, block labels and variables of the functions the entry point reaches, and
// the module's constants and global variables; a query for anything else is nullopt.
struct UniformityLevels {
  std::string refusal;  // as UniformityResult::refusal; then nothing is claimed (maps empty)
  uint32_t rounds = 0;
  uint32_t context_runs = 0;  // as UniformityResult::context_runs
  std::unordered_map<uint32_t, Divergence> values;
  // Control of each block: with its function's call sites (`blocks`), or within its
  // function alone (`blocks_in_function`, what a finding inside the function is judged by).
  std::unordered_map<uint32_t, Divergence> blocks;
  std::unordered_map<uint32_t, Divergence> blocks_in_function;
  std::unordered_map<uint32_t, Divergence> memory;  // per variable, joined over its aliases
  std::optional<Divergence> Value(uint32_t id) const { return Find(values, id); }
  std::optional<Divergence> Block(uint32_t label) const { return Find(blocks, label); }
  std::optional<Divergence> BlockInFunction(uint32_t label) const {
    return Find(blocks_in_function, label);
  }
  std::optional<Divergence> Memory(uint32_t variable) const { return Find(memory, variable); }

 private:
  static std::optional<Divergence> Find(const std::unordered_map<uint32_t, Divergence>& levels,
                                        uint32_t id) {
    auto it = levels.find(id);
    if (it == levels.end()) return std::nullopt;
    return it->second;
  }
};

// The levels of the entry point named `entry_point` (its OpEntryPoint name; the first of
// that name), run exactly as AnalyzeUniformity runs it. Refuses an unknown name. On a
// module alone: analysis_context.h.
UniformityLevels AnalyzeUniformityLevels(Module& module, const UniformityInputs& inputs,
                                         const std::string& entry_point,
                                         const UniformityOptions& options = {});

// The findings as diagnostics of origin "uniformity" with `severity`; a refusal becomes
// one note (the analysis could not answer, which is not the shader's fault).
std::vector<Diagnostic> UniformityDiagnostics(const UniformityResult& result, Severity severity);
// One finding as a diagnostic of origin "uniformity".
Diagnostic UniformityFindingDiagnostic(const UniformityFinding& finding, Severity severity);

const char* DivergenceName(Divergence level);

// What a warning about `inst` opens with: its class and opcode, e.g. "barrier
// (OpControlBarrier, workgroup scope)"; and the whole message.
std::string UniformityHead(const Instruction& inst, UniformScope scope);
std::string UniformityMessage(const Instruction& inst, UniformScope scope);
// The rule id of a finding at `inst` (UniformityFinding::rule): "uniformity/derivative",
// "uniformity/implicit-lod", "uniformity/barrier" or "uniformity/uniform-control" (group
// operations, mesh/task output and other whole-scope operations). A call-site finding
// carries the rule of the first need of the callee it violates.
const char* UniformityRuleOf(const Instruction& inst, UniformScope scope);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_H
