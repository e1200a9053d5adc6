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
// What it looks at: the analysis context's index sites (analysis/access/index_sites.h), each
// decided on the unmodified module (the verdicts below), then rewritten.
// Leaves alone, reporting "unbounded": OpPtrAccessChain / OpInBoundsPtrAccessChain,
// every access through a PhysicalStorageBuffer pointer, and descriptor arrays indexed
// at run time. Struct member indices are constants and are never touched.
//
// Skips a clamp where the range analysis (Options::range_analysis), asked directly
// through the analysis context, proves the index non-negative and at most the limit,
// or (full mode) where a dominating guard proves a runtime-array index below
// OpArrayLength of the same block variable and member; other limits known only at run
// time are never proven (index 0 of an array whose length is a specialization constant
// excepted). The range analysis is the context's, so a range
// report in the same run shares it.
// Report (with Options::collect_ranges): one decision per index it looked at goes into
// the run's access report (access_report.h): verdict, limit, and the operand the output
// uses; the pass manager joins them with the range report's records at the end.
// Verdicts (AccessVerdict): kClamped, kProvenInBounds, kUnbounded (left alone),
// kNotClamped (a constant index already in bounds, or a constant 0, which is in bounds
// of every array; recorded only where the range report has a record for it).
//
// Assumes a logical-addressing Shader module. Refuses a Kernel module (GLSL.std.450,
// which the clamps use, is not available there). PassResult::rewrites counts clamps.
#ifndef GLINT_SPIRV_PASSES_ROBUST_ACCESS_H
#define GLINT_SPIRV_PASSES_ROBUST_ACCESS_H

#include "pass.h"

namespace glint::spirv {

class RobustAccessPass : public Pass {
 public:
  const char* name() const override { return "robust-access"; }

 protected:
  PassResult Process(Module& module, PassContext& context) override;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_ROBUST_ACCESS_H
