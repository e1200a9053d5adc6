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
//               NonWritable, Workgroup, Output), atomics, results of cross-thread
//               operations that are not uniform by definition (shuffles, scans, Elect).
//   uniform     constants, uniform buffers, push constants, UniformConstant handles,
//               WorkgroupId, NumWorkgroups, SubgroupSize, DrawIndex, readonly buffers;
//               subgroup reductions, ballots, votes and BroadcastFirst are
//               subgroup-uniform (enough for derivatives, not for a workgroup barrier).
//   control     a block is as divergent as the conditions of the branches and switches
//               it is control dependent on (post-dominator based, so loops with a
//               divergent exit, code after a divergent return or OpKill /
//               OpTerminateInvocation, and callees' kills are covered), and as the call
//               sites of its function. Function-local and Private variables take the
//               level of every value stored into them and of the control flow of the
//               store (flow-insensitive). Arguments flow into parameters, return values
//               out of calls, pointer parameters alias the caller's variables.
// A uniform-control instruction is reported when its block is more divergent than its
// scope allows (quad for derivatives, the Execution scope for barriers).
//
// Decisions: OpDemoteToHelperInvocation keeps the invocation running as a helper, so
// derivatives stay defined: it does not make control flow non-uniform.
// SubgroupUniformControlFlowKHR (GLSL [[subgroup_uniform_control_flow]], which glslang 12
// turns into that execution mode plus the SPV_KHR_subgroup_uniform_control_flow
// extension) only strengthens what the driver must do; it changes no level here, and
// the analysis never edits the module, so the mode keeps its meaning.
//
// Assumes: a module that parsed (structured or not). Refuses (UniformityResult::refusal)
// when an instruction has no convergence class or the fixed point needs more rounds
// than the budget; then no findings are claimed. Known limit: a value defined in a loop
// and used after it without a phi or a variable (not produced by glslang) is not
// treated as divergent when the loop's exit is.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_H

#include <cstdint>
#include <string>
#include <vector>

#include "glint/glint.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

enum class Divergence : uint8_t { kUniform, kSubgroupUniform, kQuadUniform, kDivergent };

struct UniformityOptions {
  // Rounds over all functions of an entry point before the analysis gives up.
  uint32_t round_budget = 64;
};

struct UniformityFinding {
  const Instruction* instruction = nullptr;  // the uniform-control instruction
  std::string entry_point;
  SourceLocation location;     // from OpLine; empty file and line 0 without line info
  std::string message;
  std::vector<std::string> reasons;  // outermost first
  // Where each reason points (parallel to `reasons`; line 0 when it names none).
  std::vector<SourceLocation> reason_locations;
  // What the instruction needs: "uniformity/derivative", "uniformity/implicit-lod",
  // "uniformity/barrier" or "uniformity/uniform-control".
  std::string rule;
};

struct UniformityResult {
  std::vector<UniformityFinding> findings;
  std::string refusal;  // why the analysis gave up; empty when it finished
  uint32_t rounds = 0;  // the most rounds one entry point needed
};

// Analyses every entry point of `module` (which it does not change).
UniformityResult AnalyzeUniformity(Module& module, const UniformityOptions& options = {});

// The findings as diagnostics of origin "uniformity" with `severity`; a refusal becomes
// one note (the analysis could not answer, which is not the shader's fault).
std::vector<Diagnostic> UniformityDiagnostics(const UniformityResult& result, Severity severity);

const char* DivergenceName(Divergence level);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_H
