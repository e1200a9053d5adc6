// Workgroup dimensions: the built-in inputs, or components of them, that every invocation
// of a workgroup shares because the entry point's workgroup is one invocation wide in
// their dimension (`layout(local_size_x = 8, local_size_y = 8) in;` leaves z at 1, so
// gl_GlobalInvocationID.z is gl_WorkGroupID.z and gl_LocalInvocationID.z is 0). A part of
// the uniformity solver and of its coarse proof: one rule for both. The rule and its
// proof: workgroup_dimensions.cpp.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_WORKGROUP_DIMENSIONS_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_WORKGROUP_DIMENSIONS_H

#include <cstdint>
#include <functional>

#include "SPIRV/ir/builtin_index.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

class WorkgroupDimensions {
 public:
  using DefinitionLookup = std::function<const Instruction*(uint32_t)>;

  // For an entry point of `model` whose function is `entry_function`. Nothing is shared
  // outside stages with workgroups, or where the module does not fix a dimension's size
  // (a specialization constant may be given any value). `definition` must outlive this.
  WorkgroupDimensions(const Module& module, const BuiltInIndex& builtins, spv::ExecutionModel model,
                      uint32_t entry_function, DefinitionLookup definition);

  // True when `load` reads a built-in component every invocation of a workgroup shares:
  // through an access chain into the built-in with one plain constant index.
  bool LoadsShared(const Instruction& load) const;
  // True when `extract` (an OpCompositeExtract) takes a shared component of a load of a
  // whole built-in vector (`gl_GlobalInvocationID.xy` is loaded whole, then split).
  bool ExtractsShared(const Instruction& extract) const;

  // True when `load` reads component k of a local vector through an access chain with
  // one plain constant index, and `stored` (a value stored to that vector) is a load of
  // a whole built-in vector whose component k is shared: `uvec3 id =
  // gl_GlobalInvocationID; ... id.z`. The solver's followed locals ask it per store.
  bool LoadsSharedComponentOf(const Instruction& load, uint32_t stored) const;

 private:
  // Whether component `component` of the built-in input `variable` is the same in every
  // invocation of a workgroup.
  bool Shared(uint32_t variable, int64_t component) const;
  // A load through an access chain with one plain, non-negative constant index: the
  // chain's base and the index.
  bool ComponentLoaded(const Instruction& load, uint32_t* base, int64_t* component) const;

  const BuiltInIndex& builtins_;
  DefinitionLookup definition_;
  bool one_wide_[3] = {false, false, false};
  bool any_ = false;  // some dimension is one wide: else no query need look further
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_WORKGROUP_DIMENSIONS_H
