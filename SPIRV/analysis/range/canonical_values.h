// Canonical values (canonical_values.cpp): which earlier value a value stands for,
// found from the module's structure alone (copies, components, parameters, local
// versions, dominating stores, immutable inputs, value numbers), never from ranges.
// The range evaluator keys its guard facts by these values and asks while it computes
// ranges; nothing here asks it anything back.
#ifndef GLINT_SPIRV_ANALYSIS_CANONICAL_VALUES_H
#define GLINT_SPIRV_ANALYSIS_CANONICAL_VALUES_H

#include <cstdint>
#include <list>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "SPIRV/analysis/range/range_types.h"
#include "SPIRV/analysis/memory/value_flow.h"
#include "SPIRV/ir/block_positions.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

// OpAccessChain or OpInBoundsAccessChain (what constant tables and canonical values walk).
inline bool IsChain(const Instruction& inst) {
  return inst.opcode == spv::OpAccessChain || inst.opcode == spv::OpInBoundsAccessChain;
}

// The pure integer operators value numbering follows (canonical_values.cpp); the
// range evaluator's differences under an order match operands through them too.
inline bool NumberedOp(spv::Op opcode, bool* commutes) {
  switch (opcode) {
    case spv::OpIAdd:
    case spv::OpIMul:
    case spv::OpBitwiseAnd:
    case spv::OpBitwiseOr:
    case spv::OpBitwiseXor:
      *commutes = true;
      return true;
    case spv::OpISub:
    case spv::OpUDiv:
    case spv::OpSDiv:
    case spv::OpUMod:
    case spv::OpShiftLeftLogical:
    case spv::OpShiftRightLogical:
    case spv::OpShiftRightArithmetic:
      *commutes = false;
      return true;
    default:
      return false;
  }
}

class CanonicalValues {
 public:
  // `inputs` outlive this; `full` is the range analysis's full mode (reference mode
  // follows only copies, bitcasts and parameters).
  CanonicalValues(Module& module, const RangeInputs& inputs, bool full)
      : module_(module), inputs_(inputs), full_(full) {}
  CanonicalValues(const CanonicalValues&) = delete;
  CanonicalValues& operator=(const CanonicalValues&) = delete;

  // The value `id` stands for (itself when nothing earlier is known to hold its bits).
  // Memoized per id where the answer cannot depend on what is being computed around
  // it (see the file comment of canonical_values.cpp).
  uint32_t Canonical(uint32_t id);
  // For a load of one element of a local, or a one-index OpCompositeExtract: the
  // canonical vector (or join version) it reads a component of, and that component.
  bool ComponentKey(const Instruction& def, uint32_t* vector, uint32_t* index);
  // The phi block of a join version's id (ids past the module's bound); else null.
  const Block* VersionBlock(uint32_t id) const;

  // Structural helpers the range evaluator shares.
  bool IsScalarInt(uint32_t id, bool* is_signed) const;
  bool ConstantValue(uint32_t id, int64_t* value) const;
  const Cfg& CfgOf(Function& function) const;
  const ValueFlow* FlowOf(const Instruction& load) const;
  uint32_t ComponentSource(uint32_t id, uint32_t index) const;
  uint32_t ExtractSource(const Instruction& def) const;
  const Instruction* PathFromVariable(uint32_t pointer, std::vector<uint32_t>* indices) const;
  const Instruction* LoadedParameter(const Instruction& load) const;
  const Instruction* ParameterOfLoad(const Instruction& load) const;
  const Instruction* LoopVariableLoadTarget(const Instruction& load) const;
  const Instruction* DominatingSingleStore(const Instruction& load);
  // For a whole load of Function memory no local version follows (a parameter pointer
  // the callee also writes, a local passed to a call): the nearest earlier whole load
  // of the same pointer that dominates it with nothing on the way that may write that
  // memory; 0 when there is none (see canonical_values.cpp).
  uint32_t EarlierLoadOfSameMemory(const Instruction& load);
  // The first load (by id) of the same immutable Input / PushConstant part as `load`,
  // which every such load stands for; 0 when `load` is not one.
  uint32_t ImmutableLoad(const Instruction& load);

 private:
  bool Full() const { return full_; }
  uint32_t Follow(uint32_t id);  // Canonical without its memo
  const Instruction* SingleStoreDominating(const Instruction& load, const Instruction& pointer);
  // A marker for "not asked yet" in dominating_stores_ (never an instruction's address).
  static const Instruction* NotAsked() {
    static const Instruction marker{};
    return &marker;
  }
  bool LocalVersion(const Instruction& load, uint32_t* id);
  uint32_t JoinVersionId(const Instruction& load, uint32_t version, const ValueFlowNode& node);
  // Element loads followed inside element loads (Canonical -> StoredScalar ->
  // ComponentKey -> Canonical), at most this deep.
  static constexpr int kMaxElementDepth = 4;
  uint32_t StoredScalar(const Instruction& load);

  // Value numbers for pure integer arithmetic (see canonical_values.cpp).
  static constexpr size_t kMaxNumberingScan = 512;
  struct NumberKey {  // opcode, result type, canonical operands (sorted if OP commutes)
    uint32_t opcode = 0, type = 0, left = 0, right = 0;
    bool operator==(const NumberKey& o) const {
      return opcode == o.opcode && type == o.type && left == o.left && right == o.right;
    }
  };
  struct NumberKeyHash {
    size_t operator()(const NumberKey& k) const {
      uint64_t h = (uint64_t(k.opcode) << 32 | k.type) * 0x9E3779B97F4A7C15ull;
      return size_t(h ^ ((uint64_t(k.left) << 32 | k.right) * 0xC2B2AE3D27D4EB4Full));
    }
  };
  // One block's numbered instructions by key, indexed from its start up to `built`:
  // entries in the order they were numbered, each linked to the previous one with its
  // key (a vector and one hash node per key, not a vector per key).
  struct BlockNumbering {
    struct Entry {
      uint32_t position;  // in the block
      uint32_t id;        // result id
      uint32_t previous;  // index + 1 of the previous entry with the same key; 0: none
    };
    size_t built = 0;
    // The first position claimed but not yet entered (an outer query is computing its
    // key); a lookup past it misses that entry. SIZE_MAX: none.
    size_t first_pending = SIZE_MAX;
    InstructionList::const_iterator next;
    std::vector<Entry> entries;
    std::unordered_map<NumberKey, uint32_t, NumberKeyHash> newest;  // key -> index + 1
  };
  bool NumberingKey(const Instruction& inst, NumberKey* key);
  uint32_t NumberedBefore(const Block& block, const NumberKey& key, size_t limit);
  uint32_t EarlierEqualValue(const Instruction& def);

  Module& module_;
  const RangeInputs& inputs_;
  const bool full_;
  int element_depth_ = 0;  // StoredScalar inside Canonical inside StoredScalar
  // Canonical's memo: an answer and the element depth its computation went below the
  // depth it started at (it holds where that much depth is left). `value` 0: none.
  struct Memo {
    uint32_t value = 0;
    int depth_used = 0;
  };
  std::vector<Memo> memo_;  // by id below the module's bound when first asked
  int deepest_ = 0;         // the deepest element depth the current query reached
  // Counts answers that depended on a query in progress around them (an element depth
  // budget hit, a value number being computed, a block's numbering being filled): an
  // answer computed while this moved is not memoized.
  uint64_t unsettled_ = 0;
  static constexpr uint32_t kNumbering = UINT32_MAX;  // numbered_: being computed
  std::unordered_map<uint32_t, uint32_t> numbered_;  // id -> earlier equal value (0: none)
  std::unordered_map<const Block*, BlockNumbering> block_numberings_;
  std::map<std::vector<uint32_t>, uint32_t> immutable_loads_;       // {variable, path...} -> load
  std::unordered_map<uint32_t, const Instruction*> single_stores_;  // variable -> store
  // DominatingSingleStore's answer by load id (NotAsked() until asked): asked again for
  // every re-evaluation that meets the load, and each answer looks up two blocks.
  std::vector<const Instruction*> dominating_stores_;
  std::unordered_map<uint32_t, uint32_t> earlier_loads_;            // load -> earlier load (or 0)
  // EarlierLoadOfSameMemory's budgets: dominators climbed, blocks searched backwards.
  static constexpr int kMaxEarlierLoadDominators = 32;
  static constexpr size_t kMaxEarlierLoadBlocks = 64;
  bool UnfollowedMemory(const Instruction& load) const;
  bool MayWriteMemory(const Instruction& inst, uint32_t memory) const;
  std::unordered_map<uint64_t, uint32_t> version_keys_;        // phi version -> id past the bound
  std::unordered_map<uint32_t, const Block*> version_blocks_;  // that id -> the phi's block
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_CANONICAL_VALUES_H
