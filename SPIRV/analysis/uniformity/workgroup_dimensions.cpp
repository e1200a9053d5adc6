// Workgroup dimensions (workgroup_dimensions.h): built-ins shared by a workgroup because
// it is one invocation wide in their dimension.
//
// The rule. Let the entry point's workgroup size be (X, Y, Z), where the module fixes a
// dimension's size (FixedWorkgroupDimensions: a literal LocalSize; a LocalSizeId operand
// or WorkgroupSize constituent that is a plain constant). Then, within one workgroup:
// - LocalInvocationId's component k lies in [0, size_k - 1] (SPIR-V, BuiltIn
//   LocalInvocationId): with size_k == 1 it is 0 in every invocation.
// - GlobalInvocationId is WorkgroupId * WorkgroupSize + LocalInvocationId, component by
//   component (SPIR-V, BuiltIn GlobalInvocationId; an OpenCL kernel adds the global
//   offset, the same for the whole dispatch): with size_k == 1 its component k equals
//   WorkgroupId's component k, which every invocation of the workgroup shares.
// So each such value is uniform at the uniformity analysis's scope (a workgroup) and in
// its lane partition, where WorkgroupId is uniform too (uniformity_sources.cpp).
//
// A workgroup of 1 x 1 x 1 is not taken as one: it is what glslang gives a compute
// shader that declares no size, and engines that compile such shaders set the real size
// afterwards by rewriting the LocalSize execution mode of the SPIR-V (ncnn's
// inject_local_size_xyz). A dimension of size 1 counts only beside a larger or
// specialization-sized one: a shape the shader declares.
//
// What it does not claim. A size given by a specialization constant proves nothing: the
// application may give it any value at pipeline creation (Glint's --spec-constant fixes
// it first, and then the size is plain). Only what reads the built-in variable directly
// is covered: a load through an access chain with one plain constant index, a
// component extract of a whole-vector load, and a component of a local vector that a
// whole-vector load was stored into (`uvec3 id = gl_GlobalInvocationID; ... id.z`: the
// followed local's store is that load, and the component read is the shared one). A
// copy passed on further (to another local, a parameter) is one value, as divergent as
// its most divergent component. LocalInvocationIndex and whole vectors would be shared
// only by a workgroup of one invocation, which is not taken as one (above).
#include "SPIRV/analysis/uniformity/workgroup_dimensions.h"

#include <utility>

#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/workgroup_size.h"

namespace glint::spirv {

WorkgroupDimensions::WorkgroupDimensions(const Module& module, const BuiltInIndex& builtins,
                                         spv::ExecutionModel model, uint32_t entry_function,
                                         DefinitionLookup definition)
    : builtins_(builtins), definition_(std::move(definition)) {
  if (!HasWorkgroups(model)) return;
  int64_t size[3] = {0, 0, 0};
  const uint32_t fixed =
      FixedWorkgroupDimensions(module, builtins, entry_function, definition_, size);
  for (int i = 0; i < 3; ++i) {
    one_wide_[i] = (fixed & (1u << i)) && size[i] == 1;
    any_ = any_ || one_wide_[i];
  }
  if (one_wide_[0] && one_wide_[1] && one_wide_[2]) {  // no declared shape (above)
    one_wide_[0] = one_wide_[1] = one_wide_[2] = false;
    any_ = false;
  }
}

bool WorkgroupDimensions::Shared(uint32_t variable, int64_t component) const {
  std::optional<uint32_t> builtin = builtins_.Of(variable);
  if (!builtin) return false;
  switch (*builtin) {
    case spv::BuiltInLocalInvocationId:
    case spv::BuiltInGlobalInvocationId:
      return component >= 0 && component < 3 && one_wide_[component];
    default:
      return false;
  }
}

bool WorkgroupDimensions::ComponentLoaded(const Instruction& load, uint32_t* base,
                                          int64_t* component) const {
  if (!any_ || load.opcode != spv::OpLoad) return false;
  const Instruction* address = definition_(LoadView(load).pointer());
  if (!address || (address->opcode != spv::OpAccessChain &&
                   address->opcode != spv::OpInBoundsAccessChain))
    return false;
  AccessChainView chain(*address);
  *base = chain.base();
  return chain.index_count() == 1 && PlainInt32Constant(definition_, chain.index(0), component) &&
         *component >= 0;
}

bool WorkgroupDimensions::LoadsShared(const Instruction& load) const {
  uint32_t base = 0;
  int64_t component = 0;
  return ComponentLoaded(load, &base, &component) && Shared(base, component);
}

bool WorkgroupDimensions::LoadsSharedComponentOf(const Instruction& load, uint32_t stored) const {
  uint32_t local = 0;
  int64_t component = 0;
  if (!ComponentLoaded(load, &local, &component)) return false;
  const Instruction* value = definition_(stored);
  if (!value || value->opcode != spv::OpLoad) return false;
  const uint32_t pointer = LoadView(*value).pointer();
  const Instruction* variable = definition_(pointer);
  return variable && variable->opcode == spv::OpVariable && Shared(pointer, component);
}

bool WorkgroupDimensions::ExtractsShared(const Instruction& extract) const {
  if (!any_ || extract.opcode != spv::OpCompositeExtract) return false;
  CompositeExtractView view(extract);
  if (view.indices().size() != 1) return false;
  const Instruction* composite = definition_(view.composite());
  if (!composite || composite->opcode != spv::OpLoad) return false;
  const uint32_t pointer = LoadView(*composite).pointer();
  const Instruction* variable = definition_(pointer);
  return variable && variable->opcode == spv::OpVariable && Shared(pointer, view.index(0));
}

}  // namespace glint::spirv
