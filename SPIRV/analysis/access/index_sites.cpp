// Index sites (see index_sites.h).
#include "SPIRV/analysis/access/index_sites.h"

#include "SPIRV/analysis/memory/pointer_origins.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

namespace {

using ChainView = AccessChainView<const Instruction>;

// OpAccessChain or OpInBoundsAccessChain (no Element operand).
bool IsAccessChain(spv::Op opcode) {
  return ChainView::Accepts(opcode) && !ChainView::HasElement(opcode);
}

bool IsDescriptorStorage(spv::StorageClass storage) {
  return storage == spv::StorageClassUniformConstant || storage == spv::StorageClassUniform ||
         storage == spv::StorageClassStorageBuffer;
}

bool IsArray(const Instruction* type) {
  return type && (type->opcode == spv::OpTypeArray || type->opcode == spv::OpTypeRuntimeArray);
}

}  // namespace

bool IsImageTexelAccess(spv::Op opcode) {
  return opcode == spv::OpImageFetch || opcode == spv::OpImageRead || opcode == spv::OpImageWrite ||
         opcode == spv::OpImageSparseFetch || opcode == spv::OpImageSparseRead;
}

uint32_t& IndexSite::index() const {
  if (bound == IndexBound::kImage) return ImageAccessView(*access).coordinate();
  return IndexedAccessView(*access).index(position);
}

IndexSites::IndexSites(Module& module, const DefUse& def_use, SourceLines& lines)
    : def_use_(def_use), lines_(lines) {
  for (Function& function : module.functions) {
    for (Block& block : function.blocks) {
      for (auto at = block.instructions.begin(); at != block.instructions.end(); ++at) {
        spv::Op opcode = at->opcode;
        if (ChainView::Accepts(opcode))
          CollectChain(block, at);
        else if (opcode == spv::OpVectorExtractDynamic || opcode == spv::OpVectorInsertDynamic)
          CollectVector(block, at);
        else if (IsImageTexelAccess(opcode))
          CollectImage(block, at);
      }
    }
  }
  sites_.shrink_to_fit();  // held through every pass that reads it
}

IndexSite IndexSites::NewSite(Block& block, InstructionList::iterator at, uint32_t position,
                              uint32_t object) {
  IndexSite site;
  site.access = &*at;
  site.block = &block;
  site.at = at;
  site.position = position;
  site.object = object;
  site.root = RootOf(object);
  site.location = lines_.At(site.access);
  return site;
}

// Walks the chain's types from its base pointer's pointee: one site per index that is
// not a struct member selection.
void IndexSites::CollectChain(Block& block, InstructionList::iterator at) {
  AccessChainView chain(*at);
  IndexedAccessView indexed(*at);  // positions: a PtrAccessChain's Element is 0
  const Instruction* pointer = PointerTypeOf(chain.base());
  const Instruction* type =
      pointer ? def_use_.Definition(TypePointerView(*pointer).pointee()) : nullptr;
  spv::StorageClass storage =
      pointer ? TypePointerView(*pointer).storage_class() : spv::StorageClassMax;
  const char* unbounded = nullptr;  // every index of the chain is left alone
  if (chain.has_element())
    unbounded = "OpPtrAccessChain is not bounded by Glint";
  else if (storage == spv::StorageClassPhysicalStorageBuffer)
    unbounded = "physical storage buffer pointers are not bounded by Glint";
  const Instruction* base = def_use_.Definition(chain.base());
  bool descriptor_array = !unbounded && base && base->opcode == spv::OpVariable &&
                          IsDescriptorStorage(storage) && IsArray(type);
  std::optional<BlockPath> last_struct = BlockOfChainBase(chain.base());
  bool lost = false;  // a step the walk could not follow came before
  for (uint32_t position = 0; position < indexed.index_count(); ++position) {
    if (chain.has_element() && position == 0) {  // Element: steps over the base pointer
      IndexSite site = NewSite(block, at, position, chain.base());
      site.bound = IndexBound::kUnbounded;
      site.unbounded_reason = unbounded;
      sites_.push_back(site);
      continue;
    }
    if (type && type->opcode == spv::OpTypeStruct) {
      uint64_t member = 0;
      bool known = def_use_.IntConstant(indexed.index(position), &member) &&
                   member < TypeStructView(*type).member_count();
      if (known)
        last_struct = BlockPath{
            chain.base(), &*at, position, type->result_id, static_cast<uint32_t>(member), storage};
      type = known ? def_use_.Definition(IndexedTypeOf(*type, member)) : nullptr;
      lost |= !known;
      continue;
    }
    IndexSite site = NewSite(block, at, position, chain.base());
    bool followed = StepInto(&site, type, &last_struct);
    if (unbounded) {
      site.bound = IndexBound::kUnbounded;
      site.unbounded_reason = unbounded;
    } else if (descriptor_array && position == 0) {
      site.bound = IndexBound::kUnbounded;
      site.unbounded_reason = "descriptor array indexed at run time";
    } else if (lost) {
      site.bound = IndexBound::kUnfollowed;
    } else {
      lost = !followed;
    }
    if (site.bound != IndexBound::kFixed) site.last = 0;  // only a fixed bound has one
    sites_.push_back(site);
    type = type ? def_use_.Definition(IndexedTypeOf(*type)) : nullptr;
  }
}

// Fills `site`'s bound (and type_last) from the type it indexes; false when the walk
// cannot follow it: no type, a non-composite, or a runtime array outside its block.
bool IndexSites::StepInto(IndexSite* site, const Instruction* type,
                          std::optional<BlockPath>* last_struct) {
  std::optional<BlockPath> block = *last_struct;
  *last_struct = std::nullopt;
  site->bound = IndexBound::kUnfollowed;
  if (!type) return false;
  uint64_t length = 0;
  switch (type->opcode) {
    case spv::OpTypeArray:
      if (def_use_.IntConstant(TypeArrayView(*type).length_id(), &length) && length > 0) {
        site->bound = IndexBound::kFixed;
        site->last = length - 1;
        site->type_last = static_cast<int64_t>(site->last);
      } else {
        site->bound = IndexBound::kSpecLength;
        site->length_id = TypeArrayView(*type).length_id();
      }
      return true;
    case spv::OpTypeRuntimeArray:
      if (!block) {
        site->bound = IndexBound::kUnbounded;
        site->unbounded_reason = "runtime array not reached through its block";
        return false;
      }
      site->bound = IndexBound::kRuntimeLength;
      site->block_path = *block;
      return true;
    case spv::OpTypeMatrix:
      site->bound = IndexBound::kFixed;
      site->last = TypeMatrixView(*type).column_count() - 1;
      site->type_last = static_cast<int64_t>(site->last);
      return true;
    case spv::OpTypeVector:
      site->bound = IndexBound::kFixed;
      site->last = TypeVectorView(*type).component_count() - 1;
      site->type_last = static_cast<int64_t>(site->last);
      return true;
    default:
      return false;
  }
}

void IndexSites::CollectVector(Block& block, InstructionList::iterator at) {
  IndexedAccessView access(*at);
  IndexSite site = NewSite(block, at, 0, access.object());
  const Instruction* vector = def_use_.TypeOf(access.object());
  if (vector && vector->opcode == spv::OpTypeVector) {
    site.bound = IndexBound::kFixed;
    site.last = TypeVectorView(*vector).component_count() - 1;
    site.type_last = static_cast<int64_t>(site.last);
  }
  sites_.push_back(site);
}

void IndexSites::CollectImage(Block& block, InstructionList::iterator at) {
  IndexSite site = NewSite(block, at, 0, ImageAccessView(*at).image());
  site.bound = IndexBound::kImage;
  sites_.push_back(site);
}

// The OpTypePointer of a pointer value, null when its type is unknown or no pointer.
const Instruction* IndexSites::PointerTypeOf(uint32_t value) const {
  const Instruction* type = def_use_.TypeOf(value);
  return type && type->opcode == spv::OpTypePointer ? type : nullptr;
}

// The last id `object` is followed back to (pointer_origins.h): its variable or
// parameter, or where the walk stopped.
uint32_t IndexSites::RootOf(uint32_t object) const {
  return PointerOrigins(def_use_).Of(object).last_id;
}

// For a chain whose base already points into a runtime array (a chain of chains), the
// block that holds the array, found through the base chain's own indices.
std::optional<BlockPath> IndexSites::BlockOfChainBase(uint32_t base) const {
  const Instruction* definition = def_use_.Definition(base);
  if (!definition || !IsAccessChain(definition->opcode)) return std::nullopt;
  AccessChainView chain(*definition);
  if (chain.index_count() == 0) return std::nullopt;
  const Instruction* pointer = PointerTypeOf(chain.base());
  if (!pointer) return std::nullopt;
  size_t last = chain.index_count() - 1;
  uint32_t block_type = WalkType(TypePointerView(*pointer).pointee(), *definition, last);
  const Instruction* block = def_use_.Definition(block_type);
  uint64_t member = 0;
  if (!block || block->opcode != spv::OpTypeStruct ||
      !def_use_.IntConstant(chain.index(last), &member) ||
      member >= TypeStructView(*block).member_count())
    return std::nullopt;
  return BlockPath{chain.base(),
                   definition,
                   last,
                   block_type,
                   static_cast<uint32_t>(member),
                   TypePointerView(*pointer).storage_class()};
}

// The type reached from `type_id` through the first `count` indices of `chain`.
uint32_t IndexSites::WalkType(uint32_t type_id, const Instruction& chain, size_t count) const {
  AccessChainView view(chain);
  for (size_t k = 0; k < count && type_id; ++k) {
    const Instruction* type = def_use_.Definition(type_id);
    if (!type) return 0;
    uint64_t member = 0;
    if (type->opcode == spv::OpTypeStruct && !def_use_.IntConstant(view.index(k), &member))
      return 0;
    type_id = IndexedTypeOf(*type, member);  // 0 for a non-composite or a missing member
  }
  return type_id;
}

}  // namespace glint::spirv
