// Convergence classes of SPIR-V instructions (docs/CONVERGENCE.md explains them and the
// decisions below):
//
//   convergent       the result depends on other invocations, but enabling more
//                    invocations does not change it: a pass may not add control
//                    dependence to it (e.g. move it under a branch).
//   cross-thread     the result depends on the set of active invocations: a pass may not
//                    change the execution mask it runs under (move it across any branch,
//                    in either direction). Every cross-thread instruction is convergent.
//   uniform-control  must be executed in uniform control flow (at some scope: a quad for
//                    derivatives, the Execution scope operand for barriers and SPIR-V 1.0
//                    group operations). Every uniform-control instruction is convergent.
//
// What this proves: the classification is a table with one row per opcode value of the
// SPIR-V grammar Glint is built with; an opcode without a row is reported (ok() false,
// error() names it), never silently treated as ordinary. OpFunctionCall takes the union
// of the classes of everything its callee contains (transitively), so a call of a
// function that holds a barrier is uniform-control itself.
//
// Decisions (not spelled out by the definitions):
// - OpGroupNonUniformInverseBallot / BallotBitExtract / BallotBitCount / BallotFindLSB /
//   BallotFindMSB read only their ballot operand and the invocation's own subgroup id:
//   not convergent (their operand must be uniform; that is a property of the value).
// - OpKill, OpTerminateInvocation, OpDemoteToHelperInvocation, OpReturn are control
//   flow: they change which invocations reach later code, which the uniformity analysis
//   and the checker see through the CFG; they are not classified themselves.
// - Atomics are not convergent (their result is per invocation; they are sources of
//   non-uniform values for the uniformity analysis).
// - Cooperative matrix load/store/mul-add (NV), subgroup block reads/writes (INTEL),
//   invocation interlock, OpSetMeshOutputsEXT / OpEmitMeshTasksEXT must be executed by
//   the whole scope together: uniform-control (and cross-thread where data moves between
//   invocations).
// - OpImageSampleFootprintNV is uniform-control unless it carries a Lod or Grad operand.
// - Extended instructions: GLSL.std.450 and NonSemantic.* sets are never convergent;
//   SwizzleInvocationsAMD / SwizzleInvocationsMaskedAMD / WriteInvocationAMD of
//   SPV_AMD_shader_ballot are cross-thread; an unknown set is unclassified (an error).
#ifndef GLINT_SPIRV_ANALYSIS_CONVERGENCE_CLASSES_H
#define GLINT_SPIRV_ANALYSIS_CONVERGENCE_CLASSES_H

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "SPIRV/ir/module.h"

namespace glint::spirv {

// Bit set of convergence classes.
using ConvergenceFlags = uint8_t;
constexpr ConvergenceFlags kNotConvergent = 0;
constexpr ConvergenceFlags kConvergent = 1;
constexpr ConvergenceFlags kCrossThread = 2;
constexpr ConvergenceFlags kUniformControl = 4;

// Over which invocations a uniform-control instruction needs uniform control flow.
enum class UniformScope : uint8_t {
  kNone,              // not uniform-control
  kQuad,              // derivatives and implicit-LOD sampling
  kSubgroup,          // whole-subgroup operations without a scope operand
  kInvocationGroup,   // the whole workgroup / draw (mesh outputs, interlock)
  kExecutionOperand,  // the Execution scope <id> in operand word 0
  kCallee,            // OpFunctionCall: the callee decides
};

struct OpcodeConvergence {
  ConvergenceFlags flags;
  UniformScope scope;
};

// The table row of `opcode`; nullopt when the table has none (tests require every
// opcode of the grammar to have one).
std::optional<OpcodeConvergence> ClassifyOpcode(uint32_t opcode);

// Every row's opcode, in table order, duplicates included (for the completeness test).
std::vector<uint32_t> ConvergenceTableOpcodes();

// "convergent cross-thread uniform-control" style text for messages ("none" for 0).
std::string ConvergenceFlagsText(ConvergenceFlags flags);

// Classification of the instructions of one module, with function summaries.
class ConvergenceClasses {
 public:
  explicit ConvergenceClasses(const Module& module);

  // False when some instruction of the module is unclassified; error() names the first.
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  // Classes of one instruction of the module (OpFunctionCall: of its callee's body).
  ConvergenceFlags Of(const Instruction& inst) const;
  // Union of the classes of everything a function contains, callees included.
  ConvergenceFlags OfFunction(uint32_t function_id) const;
  // For a uniform-control instruction: the scope it needs, with kExecutionOperand
  // resolved to kSubgroup or kInvocationGroup (Workgroup, Device, ... scopes). kNone
  // for anything else, and for calls (their callee's instructions are checked).
  UniformScope RequiredScope(const Instruction& inst) const;
  // Whether `import` is an OpExtInstImport of SPV_AMD_shader_ballot (its sets' kinds are
  // decided once, from their names).
  bool IsAmdBallotSet(uint32_t import) const;

 private:
  // Classes of a non-call instruction; sets *error when it has none.
  ConvergenceFlags ClassifyLocally(const Instruction& inst, std::string* error) const;
  ConvergenceFlags ClassifyExtInst(const Instruction& inst, std::string* error) const;
  void SummarizeFunctions();

  const Module& module_;
  std::string error_;
  // What an imported set's instructions are, decided once by its name.
  enum class ExtInstSet : uint8_t { kNotConvergent, kAmdBallot, kUnclassified };
  struct ImportedSet {
    std::string name;
    ExtInstSet kind;
  };
  std::unordered_map<uint32_t, ImportedSet> ext_inst_sets_;  // import id ->
  // 32-bit OpConstant values as (id, value), sorted by id: looked up only for the scopes
  // of uniform-control instructions, so a flat table rather than a node per constant.
  std::vector<std::pair<uint32_t, uint32_t>> constants_;
  std::unordered_map<uint32_t, ConvergenceFlags> function_flags_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_CONVERGENCE_CLASSES_H
