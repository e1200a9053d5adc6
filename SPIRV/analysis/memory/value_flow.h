// Value flow of Function variables: an SSA view of one function's locals, without
// rewriting anything. glslang keeps every GLSL local in a Function variable (loops, `?:`,
// `&&`, out-parameters all go through memory); this analysis says, for each load of such
// a variable, which stores (or the initializer, or nothing) may have put the value there.
//
// What it gives: a small graph of versions of each followed variable.
//   Store        an OpStore to the variable. A store through a constant-index access
//                chain writes one sub-element: it is a new version that updates the
//                version before it (`previous`), so the rest of the variable still comes
//                from there.
//   Initializer  the OpVariable's initializer, the version at function entry.
//   Undefined    no initializer: the variable holds no defined value at entry.
//   Phi          a join or loop header where versions meet: one incoming version per
//                CFG predecessor, in Cfg::Predecessors order.
// Reaching(load) is the version current at the load. Definitions(load) expands it into
// the Store / Initializer / Undefined nodes that may supply the bits the load reads:
// phis are looked through, a partial store to a disjoint element is skipped, a store
// that covers the loaded element ends the walk, and a store inside a larger loaded
// aggregate counts and the walk goes on to what it updated.
//
// What it follows: a Function variable whose pointer (and every access chain derived
// from it) is used only as the pointer of OpLoad / OpStore and as the base of
// OpAccessChain / OpInBoundsAccessChain whose indices are all integer OpConstants.
// Uses by OpExtInst of a NonSemantic.* set (debug info) are ignored: they read nothing.
//
// What it refuses, per variable, naming the first reason (Refusal()): the pointer is
// passed to a function call (out / inout parameters), stored as a value, copied with
// OpCopyMemory[Sized], indexed by a non-constant (or a spec constant), used by an
// atomic, by OpPtrAccessChain, by OpSelect / OpPhi, or by anything else (OpCopyObject,
// OpBitcast, ...). A refused variable has no nodes and its loads have none.
//
// Method: phis are placed at the iterated dominance frontiers of the blocks that store
// to each variable (the dominance frontiers are computed once per function from the
// dominator tree of Cfg), where the variable is live on entry (pruned SSA: some block
// reachable from there without a whole store of it reads it first), then one walk of
// the dominator tree gives every load its version and every phi its incoming versions,
// for all variables at once. A phi where the variable is dead is reached from no load
// (were it current at a read, or at the end of a predecessor of a live phi's join, the
// read would be reached from its join without a whole store), so pruning changes no
// load's version or definitions: it leaves out phis nothing reads (most of those of
// glslang's temporaries in large functions). ValueFlowOptions::keep_dead_phis places
// them all, for tests that check this.
//
// Cost: O(instructions + blocks + dominance-frontier entries + live-in blocks +
// phis x predecessors);
// each step counts against ValueFlowOptions::work_budget. Hitting the budget refuses
// every variable of the function with a message that names the budget (the frontiers
// can grow quadratically on contrived graphs; they stay near linear on real shaders,
// bench/value_flow_bench).
//
// Unreachable code: loads in blocks unreachable from the entry have no version
// (Reaching() is kNoNode), stores there create none, and a phi's incoming from an
// unreachable predecessor is kNoNode (no value flows along an edge that never runs).
//
// Assumes: a function of a module that parsed, with `cfg` built from that function and
// still current. Never changes the module; rebuild after a pass edits the function.
#ifndef GLINT_SPIRV_ANALYSIS_VALUE_FLOW_H
#define GLINT_SPIRV_ANALYSIS_VALUE_FLOW_H

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

// What a view reads of the module outside its function (its integer constants, the
// non-semantic instruction sets): the same for every function, so a caller that builds
// the views of many functions indexes it once (ValueFlowOptions::module_index).
struct ValueFlowModuleIndex {
  explicit ValueFlowModuleIndex(const Module& module);
  std::unordered_map<uint32_t, uint32_t> int_constants;  // id -> value, usable as an index
  std::unordered_set<uint32_t> non_semantic_sets;
};

struct ValueFlowOptions {
  // Steps (frontier entries, live-in blocks, phi placements, instructions and phi
  // operands renamed) before the analysis gives up on the whole function.
  uint64_t work_budget = 50'000'000;
  // By id: the only Function variables to follow (an analysis that reads a few of
  // them, the uniformity findings); null: every one. The others are not variables of
  // this view at all: no versions, no refusal.
  const std::vector<uint8_t>* only_variables = nullptr;
  // The module's index, built by the caller for all its views; null: built for this one.
  // Read only while the view is built.
  const ValueFlowModuleIndex* module_index = nullptr;
  // Place phis where the variable is dead too (minimal, unpruned SSA): the same versions
  // at every load, more nodes. For tests that compare the two.
  bool keep_dead_phis = false;
};

// Why a Function variable is not followed.
enum class ValueFlowRefusal : uint8_t {
  kNone,
  kPassedToCall,    // an argument of OpFunctionCall (out / inout parameter)
  kStoredAsValue,   // the pointer itself is the object of an OpStore
  kCopied,          // OpCopyMemory / OpCopyMemorySized
  kDynamicIndex,    // an access chain index that is not an integer OpConstant
  kAtomic,          // an atomic instruction's pointer
  kPtrAccessChain,  // OpPtrAccessChain / OpInBoundsPtrAccessChain
  kSelected,        // OpSelect / OpPhi of pointers
  kOtherUse,        // any other instruction (OpCopyObject, OpBitcast, ...)
  kBudget,          // the function's work budget ran out
};
// "passed to a function call", "stored as a value", ...
const char* ValueFlowRefusalName(ValueFlowRefusal reason);

struct ValueFlowNode {
  enum class Kind : uint8_t { kStore, kInitializer, kUndefined, kPhi };
  explicit ValueFlowNode(Kind node_kind) : kind(node_kind) {}
  Kind kind;
  uint32_t variable = 0;               // the OpVariable's result id
  const Instruction* store = nullptr;  // kStore: the OpStore
  uint32_t value = 0;                  // kStore: the object stored; kInitializer: its id
  std::vector<uint32_t> path;          // kStore: constant indices (empty: whole variable)
  uint32_t previous = ~0u;             // kStore with a path: the version it updates
  const Block* block = nullptr;        // kStore: its block; kPhi: the join
  std::vector<uint32_t> incoming;      // kPhi: one version per predecessor
};

struct ValueFlowVariableRefusal {
  ValueFlowRefusal reason = ValueFlowRefusal::kNone;
  const Instruction* at = nullptr;  // the first instruction that made it escape
  // e.g. "`t` is not followed: passed to a function call (OpFunctionCall)"; written when
  // Refusal() is first asked (most refusals are never read, and a name is a search).
  std::string message;
};

class ValueFlow {
 public:
  static constexpr uint32_t kNoNode = ~0u;

  ValueFlow(const Module& module, const Function& function, const Cfg& cfg,
            const ValueFlowOptions& options = {});

  // Every Function variable of the function (of ValueFlowOptions::only_variables), in
  // declaration order.
  const std::vector<uint32_t>& Variables() const { return variables_; }
  bool IsFollowed(uint32_t variable) const;
  // Why `variable` is not followed; null when it is (or is not a variable here).
  const ValueFlowVariableRefusal* Refusal(uint32_t variable) const;

  // For an OpLoad from a followed variable (directly or through constant access
  // chains) in a reachable block: the version at the load; kNoNode otherwise.
  uint32_t Reaching(const Instruction* load) const;
  // The variable and constant path a followed load reads (path empty: whole variable);
  // false when `load` is not such a load.
  bool LoadTarget(const Instruction* load, uint32_t* variable, std::vector<uint32_t>* path) const;
  // The Store / Initializer / Undefined nodes that may supply the load's bits, in the
  // order found; empty when Reaching() is kNoNode. `phis`, when given, receives the
  // phis the walk went through (where the choice between definitions was made).
  // The one store or initializer that reaches `load` and covers everything it reads
  // (Definitions would give it alone, with no phis), or kNoNode when there is not one.
  uint32_t CoveringDefinition(const Instruction* load) const;
  std::vector<uint32_t> Definitions(const Instruction* load,
                                    std::vector<uint32_t>* phis = nullptr) const;

  const ValueFlowNode& Node(uint32_t id) const { return nodes_.at(id); }
  size_t NodeCount() const { return nodes_.size(); }
  // The budget refusal for the whole function; empty when it finished.
  const std::string& FunctionRefusal() const { return function_refusal_; }
  uint64_t WorkUsed() const { return work_; }

 private:
  friend struct ValueFlowBuilder;
  struct LoadRecord {
    uint32_t variable;
    std::vector<uint32_t> path;
    uint32_t version;
  };

  std::vector<uint32_t> variables_;
  std::unordered_set<uint32_t> followed_;
  mutable std::unordered_map<uint32_t, ValueFlowVariableRefusal> refusals_;
  const Module* module_ = nullptr;  // names the variables in refusal messages
  std::unordered_map<const Instruction*, LoadRecord> loads_;
  std::vector<ValueFlowNode> nodes_;
  std::string function_refusal_;
  uint64_t work_ = 0;
  // Definitions' walk, kept between calls so that a walk allocates nothing once they
  // have grown: the number of the walk that last saw each node, and the work list (a
  // value flow is read by one thread at a time, as its analysis context is).
  mutable std::vector<uint32_t> seen_in_walk_;
  mutable uint32_t walk_ = 0;
  mutable std::vector<uint32_t> walk_work_;
};

// How analyses get the value-flow view of a function from whoever owns it (the
// analysis context, built with default options on its CFG).
using ValueFlowLookup = std::function<const ValueFlow&(Function&)>;

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_VALUE_FLOW_H
