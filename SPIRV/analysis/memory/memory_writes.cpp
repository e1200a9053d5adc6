// Memory writes (see memory_writes.h).
#include "SPIRV/analysis/memory/memory_writes.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

MemoryWrite WriteOf(const DefUse& def_use, const Instruction& inst) {
  MemoryWrite write;
  if (auto store = ViewIf<StoreView>(inst)) {
    write.kind = MemoryWrite::Kind::kThrough;
    write.pointer = store->pointer();
    return write;
  }
  if (auto copy = ViewIf<CopyMemoryView>(inst)) {
    write.kind = MemoryWrite::Kind::kThrough;
    write.pointer = copy->target();
    return write;
  }
  if (AtomicView<const Instruction>::Accepts(inst.opcode)) {
    write.kind = MemoryWrite::Kind::kThrough;
    write.pointer = AtomicView(inst).pointer();
    return write;
  }
  switch (inst.opcode) {
    case spv::OpLoad:
    case spv::OpAccessChain:
    case spv::OpInBoundsAccessChain:
    case spv::OpPtrAccessChain:
    case spv::OpInBoundsPtrAccessChain:
    case spv::OpCopyObject:
      return write;
    case spv::OpFunctionCall:
      write.kind = MemoryWrite::Kind::kAnything;
      return write;
    default:
      break;
  }
  if (!def_use.HasOperandIds(inst)) {
    write.kind = MemoryWrite::Kind::kAnything;
    return write;
  }
  for (uint32_t id : def_use.OperandIds(inst)) {
    const Instruction* def = def_use.Definition(id);
    const Instruction* type = def ? def_use.Definition(def->type_id) : nullptr;
    if (type && type->opcode == spv::OpTypePointer) {
      write.kind = MemoryWrite::Kind::kAnything;
      return write;
    }
  }
  return write;
}

}  // namespace glint::spirv
