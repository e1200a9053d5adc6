// Forwarded stores (see forwarded_stores.h).
#include "SPIRV/analysis/uniformity/forwarded_stores.h"

#include <algorithm>

#include "SPIRV/analysis/memory/pointer_origins.h"
#include "SPIRV/analysis/uniformity/uniformity_internal.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {
namespace uniformity_detail {

bool ForwardedStores::MayWriteThroughParameter(const Instruction& inst) const {
  uint32_t written = 0;
  if (auto store = ViewIf<StoreView>(inst)) {
    written = store->pointer();
  } else if (auto copy = ViewIf<CopyMemoryView>(inst)) {
    written = copy->target();
  } else if (IsAtomic(inst.opcode)) {
    written = AtomicView(inst).pointer();
  } else {
    switch (inst.opcode) {
      case spv::OpLoad:
      case spv::OpAccessChain:
      case spv::OpInBoundsAccessChain:
      case spv::OpPtrAccessChain:
      case spv::OpInBoundsPtrAccessChain:
      case spv::OpCopyObject:
        return false;
      case spv::OpFunctionCall:
        return true;
      default:
        break;
    }
    if (!def_use_.HasOperandIds(inst)) return true;
    for (uint32_t id : def_use_.OperandIds(inst)) {
      const Instruction* def = def_use_.Definition(id);
      const Instruction* type = def ? def_use_.Definition(def->type_id) : nullptr;
      if (type && type->opcode == spv::OpTypePointer) return true;
    }
    return false;
  }
  const Instruction* root = def_use_.Definition(PointerOrigins(def_use_).RootOf(written));
  return !root || root->opcode != spv::OpVariable;
}

const Instruction* ForwardedStores::StoreRead(const Block& block, const Instruction& load) const {
  auto known = found_.find(&load);
  if (known != found_.end()) return known->second;
  const Instruction*& found = found_[&load];
  uint32_t pointer = LoadView(load).pointer();
  const Instruction* parameter = def_use_.Definition(pointer);
  if (!parameter || parameter->opcode != spv::OpFunctionParameter) return found = nullptr;
  const Instruction* type = def_use_.Definition(parameter->type_id);
  auto pointer_type = type ? ViewIf<TypePointerView>(*type) : std::nullopt;
  if (!pointer_type || pointer_type->storage_class() != spv::StorageClassFunction)
    return found = nullptr;
  auto at = std::find_if(block.instructions.rbegin(), block.instructions.rend(),
                         [&](const Instruction& candidate) { return &candidate == &load; });
  for (++at; at != block.instructions.rend(); ++at) {
    auto store = ViewIf<StoreView>(*at);
    if (store && store->pointer() == pointer) return found = &*at;
    if (MayWriteThroughParameter(*at)) break;
  }
  return found = nullptr;
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
