// Integer range analysis: a conservative, inclusive range [min, max] for scalar 32-bit
// integer values (i32 and u32) of a SPIR-V module, or "no range" with the first reason.
// It implements the rules of the reference design (Tint's integer range analysis; each
// rule with its shader pattern: docs/RANGE_ANALYSIS.md) on the SPIR-V that glslang emits.
//
// What it proves: every value an instruction can produce at run time lies in the range
// it reports. The robustness emitter (passes/robust_access) skips a clamp when an
// index's range is non-negative and at most the largest valid index.
//
// What it assumes: a valid module (spirv-val clean); specialization constants already
// replaced by the user's values (passes/specialize_constants) - an OpSpecConstant* that
// is left counts as unknown, never as its default; a subgroup size the user promises
// (Options::subgroup_size) is the real one, and so is a largest dispatch the user
// promises (Options::max_workgroups, full mode: WorkgroupId, GlobalInvocationId and
// NumWorkgroups get ranges from it).
//
// When it refuses: every value whose range it cannot prove gets "no range" and a
// specific reason (e.g. "loop bound is not a constant"); an operand without a range
// passes its own reason on, so the reason names the root cause.
//
// Mapping of the reference rules (Tint IR) to SPIR-V:
//   Tint IR                              SPIR-V (as glslang emits it)
//   integer constant                     OpConstant of a 32-bit int type (OpConstantNull
//                                        is 0); OpSpecConstant* has no range
//   built-in function parameter          OpLoad of an Input OpVariable decorated BuiltIn
//                                        (LocalInvocationIndex, SubgroupSize,
//                                        SubgroupLocalInvocationId)
//   access(lid, constant)                OpAccessChain/OpInBoundsAccessChain of the
//                                        LocalInvocationId variable with exactly one
//                                        constant index, then OpLoad (glslang's form of
//                                        gl_LocalInvocationID.x). OpCompositeExtract of a
//                                        load of the whole vector (DXC's form) is a full
//                                        mode extension: reference mode keeps to the one
//                                        shape the reference design names.
//   workgroup size is constant           LocalSize execution mode, or LocalSizeId /
//                                        the BuiltIn WorkgroupSize constant whose parts
//                                        are OpConstant (specialized). With several entry
//                                        points, the largest size of those whose
//                                        interface lists the built-in variable.
//   @subgroup_size(S)                    Options::subgroup_size (--subgroup-size S)
//   let                                  OpCopyObject
//   load of a var                        OpLoad of a Function variable that is a
//                                        supported loop control variable
//   convert i32 <-> u32                  OpBitcast between 32-bit int types
//   + - * / << >> %                      OpIAdd OpISub OpIMul OpSDiv/OpUDiv
//                                        OpShiftLeftLogical OpShiftRightLogical/
//                                        OpShiftRightArithmetic OpSMod/OpSRem/OpUMod
//   min / max                            OpExtInst GLSL.std.450 SMin UMin SMax UMax
//   for-loop (see below)                 glslang's loop shape:
//     initializer block: var, then       the loop header's only predecessor outside the
//       next_iteration                   loop ends with "OpStore %i %init; OpBranch
//                                        %header"
//     body starts: load i, compare, if   header is "OpLoopMerge %merge %continue;
//       true: exit_if, false: exit_loop  OpBranch %cond"; %cond is exactly "OpLoad %i;
//                                        compare; OpBranchConditional %cmp %body %merge"
//     continuing: load, add/sub, store,  the continue target is exactly "OpLoad %i;
//       next_iteration                   OpIAdd/OpISub with a constant; OpStore %i;
//                                        OpBranch %header"
//     only loads, one store in           every other use of %i is an OpLoad
//       continuing
//   (OpLine / OpNoLine are ignored when counting instructions.)
//   Where the loop variable's range holds: Tint gives it to every load of i in the loop
//   body and continuing block. In SPIR-V the variable is hoisted to the function's entry
//   block and the condition's own load sees the value that fails the check, so here the
//   range holds for loads in blocks dominated by the body block (the true target of the
//   condition), which includes the continue target; other loads of %i get no range.
//
// Modes (RangeAnalysisMode, range_analysis_mode.h):
//   kOff        every value has no range ("range analysis is off").
//   kReference  exactly the reference rules above, nothing more; the baseline.
//   kFull       the default: the reference rules plus Glint's documented, sound
//               extensions. Every rule is listed with the shader pattern it proves and
//               its file in docs/RANGE_ANALYSIS.md ("What full proves"); the files are
//               listed by concern in integer_range_evaluator.h, and each file's header
//               comment gives its proof. Tests: gtests/integer_range_analysis_test.cpp,
//               gtests/integer_range_rules_test.cpp (including random programs evaluated
//               exactly for every invocation) and one test file per rule.
//
// Cost: each value is evaluated once (memoized), with an explicit work stack instead
// of recursion, so a chain of 100,000 dependent instructions neither recurses deeply nor
// costs more than linear time (bench/range_analysis_bench). Loop shapes are matched once
// per variable. Dominance queries walk the dominator tree (Cfg::Dominates), so a load's
// check costs the depth of its block there.
//
// Undefined results: an operation whose result SPIR-V leaves undefined for some operand
// values (division by zero, shifts by 32 or more, INT_MIN / -1, clamp with lo > hi, a
// bitfield past bit 31) never gets a range; its users treat it as any value.
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ANALYSIS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ANALYSIS_H

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "SPIRV/analysis/range/range_types.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

class RangeEvaluator;  // integer_range_evaluator.h

class IntegerRangeAnalysis {
 public:
  // `inputs` must describe `module` as it is; the analysis reads both and changes
  // neither. Build a fresh analysis after the module changes. The inputs are the
  // analysis context's (AnalysisContext::GetIntegerRanges builds it), which owns every
  // such fact once.
  IntegerRangeAnalysis(Module& module, const RangeInputs& inputs,
                       const IntegerRangeOptions& options);
  ~IntegerRangeAnalysis();
  IntegerRangeAnalysis(const IntegerRangeAnalysis&) = delete;
  IntegerRangeAnalysis& operator=(const IntegerRangeAnalysis&) = delete;

  // The range of the value `value_id` (memoized). Values that are not scalar 32-bit
  // integers have no range ("not a scalar 32-bit integer").
  IntegerRange RangeOf(uint32_t value_id);

  // The range of `value_id` where `use` reads it: RangeOf narrowed (full mode) by the
  // conditions of the branches that dominate `use` (range_guards.h), and by those
  // around every call of its function about built-ins and push constants
  // (integer_range_caller_facts.cpp). Memoized by (value, use): the range report and
  // robust access ask for the same index sites, one after the other.
  IntegerRange RangeAt(uint32_t value_id, const Instruction& use);

  // Full mode: true when a dominating guard proves `index`, read at `use`, below
  // OpArrayLength(block_pointer, member) as an unsigned value (a signed guard counts
  // only where the index is also proven non-negative). `guard` gets the branch.
  bool ProvenBelowArrayLength(uint32_t index, const Instruction& use, uint32_t block_pointer,
                              uint32_t member, const Instruction** guard);
  // Full mode: true when `index`, read at `use`, lies in [0, L - 1] for every value the
  // application may give the array length L (`length`, a specialization constant): a
  // guard against L (or a constant at most L in every specialization), or a
  // LocalInvocationId component of a workgroup sized so (integer_range_spec_lengths.cpp).
  // `guard` gets the branch when a guard proved it.
  bool ProvenBelowSpecializedLength(uint32_t index, const Instruction& use, uint32_t length,
                                    const Instruction** guard);

  RangeAnalysisMode mode() const { return options_.mode; }

 private:
  struct UseKeyHash {
    size_t operator()(const std::pair<uint32_t, const Instruction*>& key) const {
      return std::hash<const void*>()(key.second) * 31 + key.first;
    }
  };
  IntegerRange ComputeRangeAt(uint32_t value_id, const Instruction& use);

  IntegerRangeOptions options_;
  std::unique_ptr<RangeEvaluator> evaluator_;
  std::unordered_map<std::pair<uint32_t, const Instruction*>, IntegerRange, UseKeyHash> at_use_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ANALYSIS_H
