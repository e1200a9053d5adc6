// Out-of-bounds witnesses: an index that really leaves its object, shown by an
// invocation that every workgroup runs.
//
// What it proves, for an index site bounded by a fixed size (IndexBound::kFixed): there
// is a local invocation id such that, in every workgroup of every dispatch, the
// invocation with that id computes an index outside [0, last] at the access, and executes
// the access whenever it finishes. Then no analysis can prove the site in bounds: its
// clamp is the shader's own out-of-bounds access, not a weakness of the range analysis.
//
// When it claims one (each condition is needed; anything else gives no witness):
//  - The access is in the function of an entry point whose every workgroup launches all
//    its invocations (GLCompute, TaskNV/EXT, MeshNV/EXT) and whose workgroup size the
//    module fixes (workgroup_size.h: not a specialization constant); at most
//    kMaxWitnessInvocations invocations per workgroup are tried, in local-index order.
//  - The access's block post-dominates the function's entry: every path from the entry
//    to an exit (a return, or any terminator that ends the invocation) passes it. An
//    invocation that loops forever never finishes, so it is not claimed to run it.
//  - The index is a pure function of the invocation, evaluated exactly with SPIR-V's
//    32-bit semantics: integer and boolean constants (not specialization constants: the
//    application may change them); loads of LocalInvocationId (whole or one component)
//    and LocalInvocationIndex, the ids every workgroup has (WorkgroupId and
//    GlobalInvocationId are not: a dispatch may start at any base workgroup); loads of a
//    Function variable, whole or one component, with exactly one store, which dominates
//    the load (its other uses only loads, direct or through access chains, and debug
//    information); loads from a constant table: a Private or Function variable whose
//    initializer is a constant (not a specialization constant) and whose every use is a
//    load or an access chain only read the same way, at evaluated indices inside its
//    arrays (Glint's constant-table pass makes one of every `const` array read at a
//    run-time index); and the operators below on 32-bit integer scalars and
//    vectors and booleans. Anything undefined or left to the driver gives no witness: a
//    division by 0, INT_MIN / -1, a shift by 32 or more, a signed remainder or modulo of
//    a negative operand (GLSL leaves its sign open, and drivers differ).
//    Operators: IAdd ISub IMul UDiv SDiv UMod SRem SMod SNegate Not, the shifts, the
//    bitwise operators, Bitcast between 32-bit integer types, CopyObject, Select, the
//    integer comparisons, the logical operators, CompositeConstruct / Extract /
//    VectorShuffle of vectors, GLSL.std.450 SAbs UMin UMax SMin SMax UClamp SClamp.
//
// An index is out of bounds when its 32-bit value, read as unsigned, is above `last`
// (access-chain indices are signed: a negative one is out of bounds as well).
//
// Cost: per site, at most kMaxWitnessInvocations evaluations of its expression, each at
// most kMaxWitnessDepth definitions deep. Read-only; valid while the module is unchanged.
#ifndef GLINT_SPIRV_ANALYSIS_OUT_OF_BOUNDS_WITNESS_H
#define GLINT_SPIRV_ANALYSIS_OUT_OF_BOUNDS_WITNESS_H

#include <array>
#include <cstdint>
#include <optional>

#include "SPIRV/analysis/access/index_sites.h"
#include "SPIRV/ir/builtin_index.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

constexpr uint32_t kMaxWitnessInvocations = 1024;
constexpr uint32_t kMaxWitnessDepth = 64;

struct OutOfBoundsWitness {
  std::array<uint32_t, 3> invocation{};  // the LocalInvocationId that goes out of bounds
  int64_t value = 0;                     // its index there (signed when the index type is)
};

class OutOfBoundsWitnesses {
 public:
  OutOfBoundsWitnesses(const Module& module, const DefUse& def_use, const BuiltInIndex& builtins,
                       CfgLookup cfgs);

  // The first invocation (in local-index order) that goes out of bounds at `site`, as
  // the file comment says; nullopt when none is proven.
  std::optional<OutOfBoundsWitness> Find(const IndexSite& site) const;

 private:
  struct Value;
  struct Invocation;
  bool ExecutedByEveryInvocation(const IndexSite& site, Function& function) const;
  bool WorkgroupOf(const Function& function, int64_t size[3]) const;
  std::optional<Value> Evaluate(uint32_t id, const Invocation& invocation, uint32_t depth) const;
  std::optional<Value> EvaluateLoad(const Instruction& load, const Invocation& invocation,
                                    uint32_t depth) const;
  std::optional<Value> EvaluateOperator(const Instruction& def, const Invocation& invocation,
                                        uint32_t depth) const;
  std::optional<Value> EvaluateComposite(const Instruction& def, Value result,
                                         const Invocation& invocation, uint32_t depth) const;
  std::optional<Value> EvaluateGlsl(const Instruction& def, const Invocation& invocation,
                                    uint32_t depth) const;
  std::optional<Value> Constant(const Instruction& def) const;
  std::optional<Value> EvaluateTableLoad(const Instruction& load, const Invocation& invocation,
                                         uint32_t depth) const;
  bool OnlyRead(uint32_t pointer, int depth) const;
  const Instruction* OnlyStoreDominating(const Instruction& variable,
                                         const Instruction& load) const;

  const Module& module_;
  const DefUse& def_use_;
  const BuiltInIndex& builtins_;
  CfgLookup cfgs_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_OUT_OF_BOUNDS_WITNESS_H
