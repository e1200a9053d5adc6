// Barrier phases of workgroup (shared) memory, for one entry point: which workgroup
// barrier starts the phase a load of a Workgroup variable runs in, and whether anything
// in that phase may write the element the load reads. The uniformity analysis combines
// this with its levels (the load and the barrier in uniform control flow, the address
// uniform) to prove the standard "one invocation writes, barrier, everyone reads" value
// workgroup-uniform.
//
// Definitions:
//   workgroup barrier  OpControlBarrier whose Execution scope is the constant Workgroup,
//                      whose Memory scope is Workgroup or wider, and whose semantics are
//                      a constant with WorkgroupMemory and an ordering bit (what glslang
//                      emits for barrier() and controlBarrier(gl_ScopeWorkgroup, ...,
//                      gl_StorageSemanticsShared, gl_SemanticsAcquireRelease)).
//   a closing call     a call of a function that ends in a workgroup barrier: the callee
//                      holds exactly one barrier point (a workgroup barrier, or a closing
//                      call), in a block that post-dominates its entry, and no other call
//                      that holds a barrier, so every return follows that one barrier
//                      ("void sync() { barrier(); }", and a helper that calls sync() once
//                      on every path). Where a barrier may start a phase, a closing call
//                      starts the phase of the barrier it ends in, as reached by that
//                      call: a barrier point is the barrier and the closing call (if any)
//                      it is reached through, so a helper's one barrier called at many
//                      places starts one phase per call site.
//   the load's barriers every barrier point the load is reached from without passing
//                      another: walking back from the load over its function's blocks
//                      (loops included), and where a path reaches the function's entry
//                      with none, back from each of its call sites the same way (up to
//                      kMaxCallerDepth callers up and kCallSiteBudget call sites in all;
//                      past either, or from the entry point's entry, there are none). A
//                      load inside a helper is judged by the phases at every place it is
//                      called from. A call that holds a barrier but does not close is
//                      walked past: the phase of a barrier before it counts all its
//                      callee's writes.
//   the phase          every instruction an invocation can execute after that barrier
//                      point without passing another workgroup barrier: following
//                      branches (around loops, back to before the barrier), into a called
//                      function that holds a barrier (up to its barriers; back after the
//                      call where it returns without one), and at a return, after the
//                      calls the walk entered or the point was reached through (innermost
//                      first), then into every caller (of those the entry point reaches)
//                      after its call. Where the load's own walk back passed over a call
//                      that holds a barrier but does not close, the load may have passed
//                      that callee's barrier, so its phase does not end there: such a
//                      load's phases are walked coarsely, counting every write of a
//                      barrier-holding call and walking on past a call that does not close. Other invocations may be anywhere in the
//                      phase when this one loads, so it is not enough to look at paths
//                      from the barrier to the load.
//                      Why one phase per call site is sound: the load's barrier point is
//                      only trusted where the barrier runs in workgroup-uniform control
//                      (the analysis checks), so every invocation runs the same dynamic
//                      instance of it, entered through the same closing call; from there
//                      each invocation returns through that call, not another of the
//                      helper's call sites. Past the last closing call's function the
//                      caller is not known, and every caller counts, as before.
//   a write            OpStore, any atomic but OpAtomicLoad, OpCopyMemory[Sized] into the
//                      memory; a call whose callee (transitively) does one of these to a
//                      module-scope variable, or that is given a pointer into the memory.
//   may alias          the same variable, and no position where both access chains have
//                      different constant indices (a dynamic index aliases any); a
//                      pointer the analysis cannot trace to a variable aliases everything,
//                      and so does a pointer parameter unless its storage class (Function,
//                      Private, ...) cannot hold Workgroup memory.
// Stores before the barrier can be anything: the barrier makes them visible to all.
//
// Cost: the phase of each barrier is walked once (cached), each block start and each
// return point at most once; a load's verdict (cached) costs a backward walk over the
// blocks before it, each at most once per function it crosses, plus a scan of its
// phases' writes.
#ifndef GLINT_SPIRV_ANALYSIS_BARRIER_PHASES_H
#define GLINT_SPIRV_ANALYSIS_BARRIER_PHASES_H

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "SPIRV/ir/call_graph.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

class BarrierPhases {
 public:
  // `functions`: those the entry point reaches (the first is the entry point's own);
  // `cfgs`: the CFG of each of them, by function id.
  BarrierPhases(const DefUse& def_use, const CallGraph& calls,
                const std::vector<Function*>& functions,
                const std::unordered_map<uint32_t, const Cfg*>& cfgs);

  static constexpr int kMaxCallerDepth = 8;
  static constexpr int kCallSiteBudget = 256;

  struct Verdict {
    // The workgroup barriers that may start the load's phase (the load's barriers,
    // above); empty when some path reaches the load with none.
    std::vector<const Instruction*> barriers;
    // The first of them, or the one whose phase holds `write`; null when none.
    const Instruction* barrier = nullptr;
    const Instruction* write = nullptr;  // the first aliasing write in a phase, or null
  };
  // For an OpLoad whose pointer leads to a Workgroup variable, in block `block` of
  // `function`.
  // `through_call`, when given, is the one call the load's function is entered by (a
  // call analysed in its own context): where a path reaches that function's entry, only
  // the barriers before that call count, not those before its other call sites.
  Verdict Check(const Function& function, const Block& block, const Instruction& load,
                const Instruction* through_call = nullptr);

  bool IsWorkgroupBarrier(const Instruction& inst) const;
  // The Workgroup variable a pointer leads to (through access chains and copies); 0 when
  // it leads elsewhere or cannot be traced.
  uint32_t WorkgroupRoot(uint32_t pointer) const;
  // Whether `function` or a function it calls loads Workgroup memory (no memo: the
  // module-level one is ModuleFacts::LoadsWorkgroupMemory).
  bool LoadsWorkgroupMemory(const Function& function) const;

 private:
  // Indices from the variable; nullopt entries are dynamic; nullopt path: untraceable.
  using Path = std::optional<std::vector<std::optional<uint32_t>>>;
  // A write's path, shared: a call's writes are its callee's, copied into every phase
  // and caller that holds the call (a copy of each path was most of this analysis's
  // allocations). Null: untraceable.
  using SharedPath = std::shared_ptr<const std::vector<std::optional<uint32_t>>>;
  struct Write {
    const Instruction* at;
    uint32_t root;  // the variable or parameter written; 0 for an untraceable pointer
    SharedPath path;
  };
  // A barrier point (above): the barrier, and the closing call of the function where
  // the walk found it that leads to it (null when the barrier itself was found).
  struct BarrierPoint {
    const Instruction* barrier = nullptr;
    const Instruction* call = nullptr;
    // Its phase is walked coarsely (above): the load's walk back passed over a call that
    // holds a barrier but does not close.
    bool coarse = false;
    bool operator==(const BarrierPoint& other) const {
      return barrier == other.barrier && call == other.call && coarse == other.coarse;
    }
    bool operator<(const BarrierPoint& other) const {
      return std::tie(barrier, call, coarse) < std::tie(other.barrier, other.call, other.coarse);
    }
  };
  struct Resume {
    const Function* function;
    const Block* block;
    InstructionList::const_iterator from;
    // Closing calls to return through before returning into every caller, the next
    // one last (a phase that starts inside nested closing calls).
    std::vector<const Instruction*> returns;
  };

  uint32_t RootOf(uint32_t pointer, Path* path) const;
  std::vector<std::optional<uint32_t>> ConstantIndices(const Instruction& chain) const;
  // *passed_open_call is set when the walk back passes over a call that holds a barrier
  // but does not close (OpenBarrierCall).
  void BarriersReaching(const Function& function, const Block& block, const Instruction& at,
                        std::vector<BarrierPoint>* points, bool* entry_reached,
                        bool* passed_open_call);
  bool BarriersBefore(const Function& function, const Block& block, const Instruction& at,
                      const Instruction* through_call, int depth, int* call_sites,
                      std::vector<BarrierPoint>* points, bool* passed_open_call);
  // A call of a function the entry point reaches that holds a barrier but does not close.
  bool OpenBarrierCall(const Instruction& inst);
  // The barrier a call of `function` ends in (a closing call, above), or null.
  const Instruction* ClosingBarrier(uint32_t function);
  // The barrier point `inst` is: a barrier, or a closing call with the barrier it ends
  // in; a null barrier for other instructions.
  BarrierPoint BarrierAt(const Instruction& inst);
  // Whether `function` or a function it calls holds a workgroup barrier.
  bool HoldsBarrier(uint32_t function);
  const std::vector<Write>& PhaseWrites(const BarrierPoint& point);
  void ScanFrom(const Resume& start, bool coarse, std::vector<Resume>* work,
                std::vector<Write>* writes);
  void WritesOf(const Instruction& inst, std::vector<Write>* writes);
  const std::vector<Write>& FunctionWrites(uint32_t function);
  static bool MayAlias(const SharedPath& a, const Path& b);
  bool MayPointAnywhere(uint32_t root) const;

  const DefUse& def_use_;
  const CallGraph& calls_;
  const std::unordered_map<uint32_t, const Cfg*>& cfgs_;
  uint32_t entry_function_ = 0;
  std::unordered_set<uint32_t> reached_;
  // callee -> its calls in the functions the entry point reaches, in their order
  std::unordered_map<uint32_t, std::vector<const CallGraph::Call*>> callers_;
  std::map<BarrierPoint, std::vector<Write>> phases_;
  std::unordered_map<uint32_t, std::vector<Write>> function_writes_;
  std::unordered_map<uint32_t, const Instruction*> closing_barriers_;
  // A closing function's one barrier point: its barrier, or the closing call it holds.
  std::unordered_map<uint32_t, const Instruction*> closing_points_;
  std::unordered_map<uint32_t, bool> holds_barrier_;
  // per load and the call it is entered through (null: every call)
  std::map<std::pair<const Instruction*, const Instruction*>, Verdict> verdicts_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_BARRIER_PHASES_H
