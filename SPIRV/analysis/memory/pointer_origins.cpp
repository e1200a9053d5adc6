// Pointer origins with their paths (see pointer_origins.h for the rule).
#include "SPIRV/analysis/memory/pointer_origins.h"

#include <algorithm>

namespace glint::spirv {

PointerOrigin PointerOrigins::Of(uint32_t pointer, std::vector<const Instruction*>* chains) const {
  size_t first = chains->size();
  PointerOrigin origin = TracePointer(
      pointer, [this](uint32_t id) { return def_use_.Definition(id); },
      [chains](const Instruction& chain) { chains->push_back(&chain); });
  std::reverse(chains->begin() + first, chains->end());  // from the root outwards
  return origin;
}

bool PointerOrigins::PathOf(uint32_t pointer, PointerOrigin* origin,
                            std::vector<uint32_t>* index_ids) const {
  std::vector<const Instruction*> chains;
  *origin = Of(pointer, &chains);
  if (!origin->followed() || origin->through_element) return false;
  for (const Instruction* chain : chains)
    for (uint32_t index : AccessChainView(*chain).indices()) index_ids->push_back(index);
  return true;
}

}  // namespace glint::spirv
