// The index of an instruction in its block, for "does A come before B" within a block.
// Each block is numbered once, on its first query, so many queries in one long block
// stay linear. A memo over def-use: valid while the blocks it numbered are unchanged.
#ifndef GLINT_SPIRV_IR_BLOCK_POSITIONS_H
#define GLINT_SPIRV_IR_BLOCK_POSITIONS_H

#include <cstddef>
#include <unordered_map>

#include "SPIRV/ir/def_use.h"

namespace glint::spirv {

class BlockPositions {
 public:
  explicit BlockPositions(const DefUse& def_use) : def_use_(def_use) {}

  // `inst` must be in a block (DefUse::BlockOf is not null).
  size_t Of(const Instruction* inst) {
    auto found = positions_.find(inst);
    if (found != positions_.end()) return found->second;
    size_t index = 0;
    for (const Instruction& each : def_use_.BlockOf(inst)->instructions)
      positions_[&each] = index++;
    return positions_.at(inst);
  }

 private:
  const DefUse& def_use_;
  std::unordered_map<const Instruction*, size_t> positions_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_BLOCK_POSITIONS_H
