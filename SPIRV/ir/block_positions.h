// The index of an instruction in its block, for "does A come before B" within a block.
// Each block is numbered once, on its first query, so many queries in one long block
// stay linear. A memo over def-use: valid while the blocks it numbered are unchanged.
//
// Memory: an instruction with a result id (most are) keeps its index in a table by id,
// four bytes each; only those without one (stores, branches, merges) take a hash-map
// node.
#ifndef GLINT_SPIRV_IR_BLOCK_POSITIONS_H
#define GLINT_SPIRV_IR_BLOCK_POSITIONS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "SPIRV/ir/def_use.h"

namespace glint::spirv {

class BlockPositions {
 public:
  explicit BlockPositions(const DefUse& def_use) : def_use_(def_use) {}

  // `inst` must be in a block (DefUse::BlockOf is not null).
  size_t Of(const Instruction* inst) {
    size_t index = 0;
    if (Known(inst, &index)) return index;
    for (const Instruction& each : def_use_.BlockOf(inst)->instructions) Remember(&each, index++);
    Known(inst, &index);
    return index;
  }

 private:
  // Result ids name their instruction only where def-use says so (an id defined twice
  // in an invalid module names its last definition).
  bool ById(const Instruction* inst) const {
    return inst->result_id && def_use_.Definition(inst->result_id) == inst;
  }
  bool Known(const Instruction* inst, size_t* index) const {
    if (ById(inst)) {
      if (inst->result_id >= by_id_.size() || !by_id_[inst->result_id]) return false;
      *index = by_id_[inst->result_id] - 1;
      return true;
    }
    auto found = without_id_.find(inst);
    if (found == without_id_.end()) return false;
    *index = found->second;
    return true;
  }
  void Remember(const Instruction* inst, size_t index) {
    if (!ById(inst)) {
      without_id_[inst] = uint32_t(index);
      return;
    }
    if (inst->result_id >= by_id_.size())
      by_id_.resize(std::max<size_t>(def_use_.module().header.bound, inst->result_id + 1));
    by_id_[inst->result_id] = uint32_t(index + 1);
  }

  const DefUse& def_use_;
  std::vector<uint32_t> by_id_;  // result id -> index + 1 (0: not numbered yet)
  std::unordered_map<const Instruction*, uint32_t> without_id_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_BLOCK_POSITIONS_H
