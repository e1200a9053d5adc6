// Built-in variables (Input), whole or one component:
//   - LocalInvocationIndex: [0, X*Y*Z - 1] and LocalInvocationId component k:
//     [0, size_k - 1], over the largest workgroup size of the entry points whose
//     interface lists the variable (reference rules).
//   - SubgroupSize and SubgroupLocalInvocationId under --subgroup-size.
//   - Full mode: InvocationId: [0, OutputVertices - 1] in tessellation control shaders
//     and [0, Invocations - 1] in geometry shaders (Invocations defaults to 1);
//     WorkgroupId, NumWorkgroups and GlobalInvocationId components under the user's
//     promise of the largest dispatch (--max-workgroups).
// Any other built-in has no range and is named; an element selected by a non-constant
// index is refused (DynamicBuiltinElement says which way).
#include "SPIRV/analysis/range/integer_range_builtins.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/workgroup_size.h"

namespace glint::spirv {

using namespace range_detail;

void BuiltinRule::Register(Table& table) {
  table[size_t(ValueKind::kBuiltinLoad)] = this;
  table[size_t(ValueKind::kBuiltinElementLoad)] = this;
}

// Built-ins are the sources: nothing is computed before them.
DependencyIds BuiltinRule::Dependencies(const Instruction&, ValueKind) { return {}; }

IntegerRange BuiltinRule::Range(const Instruction& load, ValueKind kind, bool is_signed) {
  if (kind == ValueKind::kBuiltinLoad) return BuiltinScalar(LoadView(load).pointer(), is_signed);
  return ElementLoad(load, is_signed);
}

// A load through an access chain of a built-in variable: one constant index selects a
// component (BuiltinComponent); any other chain is refused.
IntegerRange BuiltinRule::ElementLoad(const Instruction& load, bool is_signed) {
  AccessChainView chain(*inputs_.def_use.Definition(LoadView(load).pointer()));
  const Instruction& base = *inputs_.def_use.Definition(chain.base());
  int64_t component = 0;
  if (chain.index_count() == 1 && !canonical_.ConstantValue(chain.index(0), &component))
    return DynamicBuiltinElement(base);
  if (chain.index_count() != 1)
    return IntegerRange::None("built-in component is not selected by one constant index");
  return BuiltinComponent(base.result_id, uint32_t(component), is_signed);
}

IntegerRange BuiltinRule::BuiltinScalar(uint32_t variable, bool is_signed) {
  uint32_t builtin = *inputs_.builtins.Of(variable);
  const char* name = grammar::EnumerantName(grammar::OperandKind::kBuiltIn, builtin);
  std::string builtin_name = name ? name : std::to_string(builtin);
  if (builtin == spv::BuiltInSubgroupSize || builtin == spv::BuiltInSubgroupLocalInvocationId) {
    int64_t size = options_.subgroup_size;
    if (size == 0)
      return IntegerRange::None(builtin_name + " needs a known subgroup size (--subgroup-size)");
    if (builtin == spv::BuiltInSubgroupSize) return Checked(is_signed, size, size, "subgroup size");
    return Checked(is_signed, 0, size - 1, "subgroup invocation id");
  }
  if (builtin == spv::BuiltInInvocationId && Full()) {
    int64_t count = 0;
    std::string why;
    if (!InvocationCount(variable, &count, &why)) return IntegerRange::None(why);
    return Checked(is_signed, 0, count - 1, "invocation id");
  }
  if (builtin != spv::BuiltInLocalInvocationIndex)
    return IntegerRange::None("built-in " + builtin_name + " has no range");
  int64_t size[3];
  std::string why;
  if (!WorkgroupSize(variable, size, &why)) return IntegerRange::None(why);
  int64_t count = BoundedProduct(BoundedProduct(size[0], size[1]), size[2]);
  if (count < 0) return IntegerRange::None("workgroup invocation count overflows u32");
  return Checked(is_signed, 0, count - 1, "local invocation index");
}

IntegerRange BuiltinRule::BuiltinComponent(uint32_t variable, uint32_t component, bool is_signed) {
  uint32_t builtin = *inputs_.builtins.Of(variable);
  bool dispatch = builtin == spv::BuiltInWorkgroupId || builtin == spv::BuiltInNumWorkgroups ||
                  builtin == spv::BuiltInGlobalInvocationId;
  if (dispatch && Full()) return DispatchComponent(variable, builtin, component, is_signed);
  if (builtin != spv::BuiltInLocalInvocationId) {
    const char* name = grammar::EnumerantName(grammar::OperandKind::kBuiltIn, builtin);
    return IntegerRange::None(std::string("built-in ") + (name ? name : "?") + " has no range");
  }
  if (component > 2) return IntegerRange::None("LocalInvocationId component out of range");
  int64_t size[3];
  std::string why;
  if (!WorkgroupSize(variable, size, &why)) return IntegerRange::None(why);
  return Checked(is_signed, 0, size[component] - 1, "local invocation id");
}

// Full mode: a component of WorkgroupId, NumWorkgroups or GlobalInvocationId under the
// user's promise of the largest dispatch (--max-workgroups X,Y,Z): WorkgroupId in
// [0, X - 1], NumWorkgroups in [1, X], GlobalInvocationId in [0, X * local size - 1].
// The dispatch size is the application's, so without the promise there is no range.
IntegerRange BuiltinRule::DispatchComponent(uint32_t variable, uint32_t builtin, uint32_t component,
                                            bool is_signed) {
  const char* name = grammar::EnumerantName(grammar::OperandKind::kBuiltIn, builtin);
  std::string builtin_name = std::string("built-in ") + (name ? name : "?");
  int64_t groups = component < 3 ? options_.max_workgroups[component] : 0;
  if (component > 2) return IntegerRange::None(builtin_name + " component out of range");
  if (groups == 0)
    return IntegerRange::None(builtin_name +
                              " has no range without a promised dispatch "
                              "size (--max-workgroups)");
  if (builtin == spv::BuiltInWorkgroupId) return Checked(is_signed, 0, groups - 1, "workgroup id");
  if (builtin == spv::BuiltInNumWorkgroups) return Checked(is_signed, 1, groups, "workgroup count");
  int64_t size[3];
  std::string why;
  if (!WorkgroupSize(variable, size, &why)) return IntegerRange::None(why);
  int64_t count = BoundedProduct(groups, size[component]);
  if (count < 0) return IntegerRange::None("global invocation count overflows u32");
  return Checked(is_signed, 0, count - 1, "global invocation id");
}

// Full mode: the largest invocation count (tessellation control OutputVertices, geometry
// Invocations) over the entry points whose interface lists `variable`.
bool BuiltinRule::InvocationCount(uint32_t variable, int64_t* count, std::string* why) const {
  *count = 0;
  for (const Instruction& entry : module_.entry_points) {
    EntryPointInterfaceView view(entry);
    if (!view.lists(variable)) continue;
    bool tessellation = view.model() == spv::ExecutionModelTessellationControl;
    if (!tessellation && view.model() != spv::ExecutionModelGeometry) {
      *why = "InvocationId outside tessellation control and geometry shaders";
      return false;
    }
    int64_t entry_count = tessellation ? 0 : 1;  // geometry: Invocations defaults to 1
    spv::ExecutionMode wanted =
        tessellation ? spv::ExecutionModeOutputVertices : spv::ExecutionModeInvocations;
    for (const Instruction& inst : module_.execution_modes) {
      if (inst.opcode != spv::OpExecutionMode) continue;
      ExecutionModeView mode(inst);
      if (mode.operands().size() == 1 && mode.entry_point() == view.function() &&
          mode.mode() == wanted)
        entry_count = mode.operand(0);
    }
    if (entry_count <= 0) {
      *why = "tessellation control shader without OutputVertices";
      return false;
    }
    *count = std::max(*count, entry_count);
  }
  if (*count == 0) *why = "built-in variable is not in any entry point's interface";
  return *count > 0;
}

// The component-wise largest workgroup size over the entry points whose interface
// lists `variable` (a module may have several compute entry points).
bool BuiltinRule::WorkgroupSize(uint32_t variable, int64_t size[3], std::string* why) {
  size[0] = size[1] = size[2] = 0;
  bool listed = false;
  for (const Instruction& entry : module_.entry_points) {
    EntryPointInterfaceView view(entry);
    if (!view.lists(variable)) continue;
    listed = true;
    int64_t entry_size[3];
    if (!EntryPointWorkgroupSize(module_, inputs_.def_use, inputs_.builtins, view.function(),
                                 entry_size, why))
      return false;
    for (int i = 0; i < 3; ++i) size[i] = std::max(size[i], entry_size[i]);
  }
  if (!listed) *why = "built-in variable is not in any entry point's interface";
  return listed;
}

// An element of a built-in array (or a component of a built-in vector) selected by a
// value: an Input built-in with no range for any element has none for this one either
// (gl_MeshViewIndicesNV[k] is what the application's view mask makes it). Built-ins
// with ranges (LocalInvocationId, and dispatch built-ins under --max-workgroups) keep
// the analysis's own reason: the union of their components would bound it.
IntegerRange BuiltinRule::DynamicBuiltinElement(const Instruction& variable) {
  const char kNotOneConstant[] = "built-in component is not selected by one constant index";
  uint32_t builtin = *inputs_.builtins.Of(variable.result_id);
  bool promised =
      options_.max_workgroups[0] || options_.max_workgroups[1] || options_.max_workgroups[2];
  bool dispatch = builtin == spv::BuiltInWorkgroupId || builtin == spv::BuiltInNumWorkgroups ||
                  builtin == spv::BuiltInGlobalInvocationId;
  if (!Full() || VariableView(variable).storage_class() != spv::StorageClassInput ||
      builtin == spv::BuiltInLocalInvocationId || (dispatch && promised))
    return IntegerRange::None(kNotOneConstant);
  const char* name = grammar::EnumerantName(grammar::OperandKind::kBuiltIn, builtin);
  return IntegerRange::None(std::string("built-in ") + (name ? name : std::to_string(builtin)) +
                            " has no range (an element selected by a non-constant index)");
}

}  // namespace glint::spirv
