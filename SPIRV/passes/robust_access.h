// robust-access: clamps every dynamic index so that no access leaves its object,
// except where the integer range analysis proves the index already in bounds.
//
// Rewrites (all arithmetic, inserted just before the access; never a branch or block):
//  - OpAccessChain / OpInBoundsAccessChain steps into a fixed-size array, matrix column
//    or vector element: index -> UMin(uint(index), count - 1). A signed index is bitcast
//    to unsigned first, so a negative index clamps to the last element. A constant
//    in-bounds index stays; a constant out-of-bounds index becomes the constant
//    count - 1. An index into an object of one element becomes the constant 0.
//  - Arrays whose length is a specialization constant: the limit is an
//    OpSpecConstantOp ISub(length, 1), so it follows the value given at pipeline
//    creation at no run-time cost; the clamp itself is a run-time UMin.
//  - Runtime-sized arrays (last member of a storage-buffer block): index ->
//    UMin(uint(index), max(OpArrayLength, 1) - 1). An empty binding (length 0) gives
//    index 0, never 0xFFFFFFFF. Element 0 of an empty array is still past the end of
//    the binding: no branch-free clamp can make that access safe, so Glint assumes
//    (as WebGPU's minBindingSize does) that a binding holds at least one element;
//    drivers with robustBufferAccess make the remaining case defined.
//  - OpVectorExtractDynamic / OpVectorInsertDynamic: index -> UMin(uint(index), width-1).
//  - Images (robust_access_images.cpp): OpImageFetch, OpImageRead, OpImageWrite,
//    OpImageSparseFetch, OpImageSparseRead: the level (Lod) is clamped to
//    OpImageQueryLevels - 1, then coordinates (array layer included) to
//    OpImageQuerySize[Lod] - 1, the sample index to OpImageQuerySamples - 1; the
//    ImageQuery capability is added. A constant or dynamic texel offset is folded into
//    the coordinate first so that coordinate + offset is what gets clamped.
// Leaves alone, reporting "unbounded": OpPtrAccessChain / OpInBoundsPtrAccessChain,
// every access through a PhysicalStorageBuffer pointer, and descriptor arrays indexed
// at run time. Struct member indices are constants and are never touched.
//
// Skips a clamp where the range analysis (Options::range_analysis) proves the index
// non-negative and at most the limit, or (full mode) where a dominating guard proves a
// runtime-array index below OpArrayLength of the same block variable and member; other
// limits known only at run time are never proven.
// Report (with Options::collect_ranges): fills `verdict` and `limit` of the records the
// range report (range_report.h) made for each index, and sets `index_id` to the new
// operand where it replaced one; image accesses, which the range report does not
// cover, get records of their own (appended). Verdicts: "clamped", "proven in bounds",
// "unbounded" (left alone), "not clamped" (a constant index already in bounds, or a
// constant 0, which is in bounds of every array).
//
// Assumes a logical-addressing Shader module. Refuses a Kernel module (GLSL.std.450,
// which the clamps use, is not available there). PassResult::rewrites counts clamps.
#ifndef GLINT_SPIRV_PASSES_ROBUST_ACCESS_H
#define GLINT_SPIRV_PASSES_ROBUST_ACCESS_H

#include <cstdint>
#include <memory>
#include <string>

#include "SPIRV/ir/def_use.h"
#include "pass.h"

namespace glint::spirv {

// What the pass asks of a range analysis about one integer value.
struct IndexRange {
  bool known = false;
  int64_t min = 0;  // inclusive bounds, in the value's own signedness
  int64_t max = 0;
  std::string reason;  // why there is no range, when !known
  const Instruction* guard = nullptr;  // the branch whose condition narrowed it, if any
};

class IndexRangeOracle {
 public:
  virtual ~IndexRangeOracle() = default;
  // The range of `value_id` where `use` reads it (dominating guards included).
  virtual IndexRange RangeAt(uint32_t value_id, const Instruction& use) = 0;
  // True when a dominating guard proves `index` (at `use`) below
  // OpArrayLength(block_pointer, member); `guard` gets the proving branch.
  virtual bool ProvenBelowArrayLength(uint32_t index, const Instruction& use,
                                      uint32_t block_pointer, uint32_t member,
                                      const Instruction** guard) = 0;
};

// The oracle for Options::range_analysis on `module` as `def_use` describes it (built
// before any rewrite). kOff answers "no range" for everything. Defined in
// robust_access_ranges.cpp, the only file that knows the range analysis.
std::unique_ptr<IndexRangeOracle> MakeIndexRangeOracle(Module& module, const DefUse& def_use,
                                                        const Options& options);

class RobustAccessPass : public Pass {
 public:
  const char* name() const override { return "robust-access"; }
  PassResult Run(Module& module, PassContext& context) override;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_ROBUST_ACCESS_H
