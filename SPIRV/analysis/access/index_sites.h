// Index sites: every index operand of the module's indexed accesses, found once per
// module, with the object it indexes, what bounds it and where it is.
//
// What it lists, in module order (functions, blocks, instructions; then operands in
// order):
//  - each index of OpAccessChain / OpInBoundsAccessChain / OpPtrAccessChain /
//    OpInBoundsPtrAccessChain (a PtrAccessChain's Element is position 0), except the
//    member selections of struct steps (always constant and in bounds);
//  - the index of OpVectorExtractDynamic / OpVectorInsertDynamic;
//  - the coordinate of each image texel access (OpImageFetch, OpImageRead,
//    OpImageWrite, OpImageSparseFetch, OpImageSparseRead), as position 0.
// Constant indices are listed too: whether a constant needs anything is the reader's
// decision (robust access folds an out-of-bounds one; the range report records them).
//
// What bounds a site (IndexBound), from the indexed type as a walk of the chain finds
// it: a fixed-size array, matrix or vector (its last index); an array whose length is a
// specialization constant; a runtime array reached through its block (the block path
// OpArrayLength needs, also through a chain of chains); nothing Glint bounds, with the
// reason (OpPtrAccessChain, a PhysicalStorageBuffer pointer, a descriptor array indexed
// at run time, a runtime array not reached through its block); or a type the walk lost
// (a struct step with no constant member, a non-composite, a pointer of unknown type),
// after which every later index of the chain is kUnfollowed too. `type_last` is what
// the indexed type alone says, for reports: the last index of a fixed-size array,
// vector or matrix, -1 otherwise (also for a descriptor array: it is the type's, not a
// bound Glint enforces).
//
// Where: the location in effect at the access (SourceLines' rule), and the root the
// access starts from (the base through access chains and OpCopyObject, at most 64 hops)
// for naming; names themselves are the report's business.
//
// Assumes the module as the def-use index describes it; sites hold iterators into
// blocks, so the list is valid until the module changes (the analysis context drops it
// with def-use). Cost: one pass over the module, one walk per chain.
#ifndef GLINT_SPIRV_ANALYSIS_INDEX_SITES_H
#define GLINT_SPIRV_ANALYSIS_INDEX_SITES_H

#include <cstdint>
#include <list>
#include <optional>
#include <vector>

#include "glint/types.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/module.h"
#include "SPIRV/ir/source_lines.h"

namespace glint::spirv {

enum class IndexBound : uint8_t {
  kFixed,          // a fixed-size array, matrix or vector: `last` is the last index
  kSpecLength,     // an array whose length is the specialization constant `length_id`
  kRuntimeLength,  // the last member of a block: its length comes from OpArrayLength
  kUnbounded,      // Glint bounds nothing here: `unbounded_reason` says why
  kUnfollowed,     // the chain's type was lost before this index
  kImage,          // an image texel access's coordinate
};

// Where OpArrayLength finds the block holding a runtime array: the pointer `base`
// followed by the first `path_length` indices of the access chain `path_owner`.
struct BlockPath {
  uint32_t base = 0;
  const Instruction* path_owner = nullptr;
  size_t path_length = 0;
  uint32_t block_type = 0;
  uint32_t member = 0;
  spv::StorageClass storage = spv::StorageClassStorageBuffer;
};

struct IndexSite {
  Instruction* access = nullptr;
  Block* block = nullptr;
  InstructionList::iterator at;         // the access, for inserting before it
  uint32_t position = 0;                // among the access's indices (IndexedAccessView)
  uint32_t object = 0;                  // the indexed object operand (image: the image)
  uint32_t root = 0;                    // `object` through access chains and copies
  IndexBound bound = IndexBound::kUnfollowed;
  uint64_t last = 0;                  // kFixed
  int64_t type_last = -1;             // the indexed type's last index when it is fixed, else -1
  uint32_t length_id = 0;             // kSpecLength
  BlockPath block_path;               // kRuntimeLength
  const char* unbounded_reason = "";  // kUnbounded
  SourceLocation location;

  // The index operand as the module has it now (image: the coordinate).
  uint32_t& index() const;
};

class IndexSites {
 public:
  IndexSites(Module& module, const DefUse& def_use, SourceLines& lines);

  const std::vector<IndexSite>& sites() const { return sites_; }

 private:
  void CollectChain(Block& block, InstructionList::iterator at);
  void CollectVector(Block& block, InstructionList::iterator at);
  void CollectImage(Block& block, InstructionList::iterator at);
  IndexSite NewSite(Block& block, InstructionList::iterator at, uint32_t position, uint32_t object);
  bool StepInto(IndexSite* site, const Instruction* type, std::optional<BlockPath>* last_struct);
  std::optional<BlockPath> BlockOfChainBase(uint32_t base) const;
  uint32_t WalkType(uint32_t type_id, const Instruction& chain, size_t count) const;
  const Instruction* PointerTypeOf(uint32_t value) const;
  uint32_t RootOf(uint32_t object) const;

  const DefUse& def_use_;
  SourceLines& lines_;
  std::vector<IndexSite> sites_;
};

// The image texel accesses whose coordinates robust access clamps.
bool IsImageTexelAccess(spv::Op opcode);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INDEX_SITES_H
