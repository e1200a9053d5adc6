// Forwarded stores: the store a load through a Function pointer parameter reads when an
// earlier store in the same block wrote through the same pointer and nothing between
// may write through it ("tmp[0] = v; barrier(); return tmp[0];" after glslang passes
// `tmp` by pointer). The solver gives such a load the stored value's level rather than
// the parameter's joined memory (uniformity_memory.cpp, TransferForwardedLoad).
//
// What may write through a parameter (memory_writes.h): a store, copy or atomic through
// a parameter or an untraceable pointer (pointer_origins.h), a call, or any other
// instruction given a pointer it might write through (extended instructions' out
// parameters, cooperative matrix stores, ...). Writes to the function's own variables or
// module-scope ones cannot reach a Function pointer passed in.
//
// A part of the uniformity solver with its own state: found once per load from the
// module alone (a memo shared by every entry point's solvers).
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_FORWARDED_STORES_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_FORWARDED_STORES_H

#include <unordered_map>

#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {
namespace uniformity_detail {

class ForwardedStores {
 public:
  explicit ForwardedStores(const DefUse& def_use) : def_use_(def_use) {}

  // The store `load` (in `block`) reads, or null when it is no such load.
  const Instruction* StoreRead(const Block& block, const Instruction& load) const;
  // Whether `inst` may write the memory a Function pointer parameter points to.
  bool MayWriteThroughParameter(const Instruction& inst) const;

 private:
  const DefUse& def_use_;
  mutable std::unordered_map<const Instruction*, const Instruction*> found_;  // by load
};

}  // namespace uniformity_detail
}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_FORWARDED_STORES_H
