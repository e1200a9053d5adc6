// Forwarded stores (see forwarded_stores.h).
#include "SPIRV/analysis/uniformity/forwarded_stores.h"

#include <algorithm>

#include "SPIRV/analysis/memory/memory_writes.h"
#include "SPIRV/analysis/memory/pointer_origins.h"
#include "SPIRV/analysis/uniformity/uniformity_internal.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {
namespace uniformity_detail {

bool ForwardedStores::MayWriteThroughParameter(const Instruction& inst) const {
  MemoryWrite write = WriteOf(def_use_, inst);
  if (write.kind != MemoryWrite::Kind::kThrough) return write.kind == MemoryWrite::Kind::kAnything;
  const Instruction* root = def_use_.Definition(PointerOrigins(def_use_).RootOf(write.pointer));
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
