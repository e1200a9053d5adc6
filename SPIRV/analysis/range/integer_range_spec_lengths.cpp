// Indices below a specialized length (full mode): an index into an array whose length is a
// specialization constant L, proven within [0, L - 1] for every value the application may
// give L (and for L's default when it gives none). Robust access then leaves the index
// unclamped; the report keeps the limit "set by a specialization constant", so a reader
// tells these proofs from those against a fixed length. Compute kernels size their
// shared arrays and their workgroups by one constant (`layout(local_size_x_id = 0) in;
// layout(constant_id = 0) const uint BLOCK = 64; shared float tmp[BLOCK];`) and index
// them by the invocation or by a loop tested against the same constant.
//
// At most in every specialization (SpecAtMost(G, L)): G and L are one id (one value,
// whatever the application gives); or both are OpSpecConstant of a 32-bit integer type
// decorated with the same SpecId, and G's default is at most L's, both read as u32. An
// application that specializes that SpecId gives every constant decorated with it the
// same value (Vulkan's VkSpecializationMapEntry, OpenGL's glSpecializeShader: one value
// per constant ID), so then G = L; one that does not leaves both at their defaults. The
// values are read as u32 bits on both sides (the types may differ in signedness, not in
// width). glslang makes two such constants for `layout(local_size_x_id = 0) in;` beside
// `layout(constant_id = 0) const uint N`: the workgroup size's (default 1) and N.
//
// What it proves, at a use U of the index i (a scalar 32-bit integer):
//   1. By a guard: U is dominated by the edge of a test that orders G above i (guard fact
//      kNotBelow with a strict order: `i < G`, `G > i`, the false edge of `i >= G`; the
//      facts' own argument, range_guards.h, says why the order holds at U), i being the
//      test's operand or the same value at U (OrderedDifferences::SameValue: one
//      canonical value, one pure operator over such values, or two loads of one local
//      that read one version: a loop's counter tested at the top and read in the body),
//      and G at most L. In the test's u32 reading i < G <= L. In its i32 reading, i's own
//      range at U must be non-negative (and below 2^31 when i is a u32): then
//      0 <= i < G, so G is positive and its u32 reading is its i32 one.
//   2. By a remainder: i is `x % D` (OpUMod) with D at most L and D >= 1 in every
//      specialization (D is L itself, which a valid array type makes at least 1, or D's
//      default is at least 1: specialized, D = L). Then i <= D - 1 <= L - 1.
//   3. By the workgroup: i stands for (CanonicalValues) component k of LocalInvocationId,
//      read through an access chain with one constant index or by a one-index
//      OpCompositeExtract of a load of the whole vector, or a parameter that every call
//      gives such a component (parameter_arguments.h: what each call stores into it;
//      the one component of the one variable, through helpers that pass it on,
//      kMaxCallDepth deep; an invocation's id is the same in its callee), and in every
//      entry point whose interface lists that variable the workgroup's size in dimension
//      k is given by an id W (a constituent of the constant decorated BuiltIn
//      WorkgroupSize, which overrides the execution modes; else a LocalSizeId operand)
//      at most L. Component k of LocalInvocationId lies in [0, W - 1] (SPIR-V, BuiltIn
//      LocalInvocationId), so i <= W - 1 <= L - 1.
//
// Refuses (the clamp stays; the record keeps the index's own range and reason): a
// literal LocalSize or a plain constant in the size (the application may specialize L
// below it); a test against anything not at most L in every specialization, such as
// an OpSpecConstantOp other than L itself (an expression in constants is not compared);
// a signed test without i >= 0 at U; constants of another width, or without SpecId
// (never specialized: but then neither is anything compared); reference mode.
#include "SPIRV/analysis/range/integer_range_spec_lengths.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

bool SpecializedLengths::ProvenBelow(uint32_t index, const Instruction& use, uint32_t length,
                                     const Instruction** guard) {
  bool is_signed = false;
  if (!Full() || !IsScalarInt(index, &is_signed)) return false;
  return BelowByWorkgroupSize(index, length) || BelowByModulo(index, length) ||
         BelowByGuard(index, use, length, guard);
}

// Memoized: the guard rule asks it of every order fact at every spec-length site.
std::optional<SpecializedLengths::SpecConstant> SpecializedLengths::SpecConstantOf(uint32_t id) {
  auto [known, inserted] = spec_constants_.try_emplace(id);
  if (!inserted) return known->second;
  const Instruction* def = inputs_.def_use.Definition(id);
  bool is_signed = false;
  if (!def || def->opcode != spv::OpSpecConstant || def->words.size() != 1 ||
      !inputs_.def_use.IsInt32Type(def->type_id, &is_signed))
    return std::nullopt;
  if (std::optional<uint32_t> spec_id = module_.DecorationLiteral(id, spv::DecorationSpecId))
    known->second = SpecConstant{*spec_id, def->words[0]};
  return known->second;
}

bool SpecializedLengths::SpecAtMost(uint32_t at_most, uint32_t length) {
  if (at_most == length) return true;
  std::optional<SpecConstant> small = SpecConstantOf(at_most), large = SpecConstantOf(length);
  return small && large && small->spec_id == large->spec_id &&
         small->default_bits <= large->default_bits;
}

bool SpecializedLengths::BelowByGuard(uint32_t index, const Instruction& use, uint32_t length,
                                      const Instruction** guard) {
  const std::vector<GuardFact>* facts = rules_.facts.FactsAt(use);
  if (!facts) return false;
  const uint32_t value = Canonical(index);
  for (const GuardFact& fact : *facts) {
    if (fact.kind != GuardFact::Kind::kNotBelow || fact.component != GuardFact::kWhole ||
        fact.interval.min < 1 || !SpecAtMost(fact.value, length) ||
        !rules_.ordered_differences.SameValue(fact.other, value, 0))
      continue;
    if (fact.interval.is_signed) {
      bool index_signed = false;
      IsScalarInt(index, &index_signed);
      IntegerRange range = rules_.at_uses.RangeAt(index, use);
      if (!range.valid || range.min < 0 || (!index_signed && range.max > kI32Max)) continue;
    }
    if (guard) *guard = fact.branch;
    return true;
  }
  return false;
}

bool SpecializedLengths::BelowByModulo(uint32_t index, uint32_t length) {
  const Instruction* def = inputs_.def_use.Definition(Canonical(index));
  if (!def || def->opcode != spv::OpUMod || def->words.size() != 2) return false;
  const uint32_t divisor = BinaryOpView(*def).right();
  if (!SpecAtMost(divisor, length)) return false;
  if (divisor == length) return true;  // a valid array is at least one element long
  std::optional<SpecConstant> constant = SpecConstantOf(divisor);
  return constant && constant->default_bits >= 1;
}

bool SpecializedLengths::BelowByWorkgroupSize(uint32_t index, uint32_t length) {
  uint32_t variable = 0;
  const int component = LocalInvocationIdComponent(Canonical(index), &variable, 0);
  if (component < 0) return false;
  bool listed = false;
  for (const Instruction& entry : module_.entry_points) {
    EntryPointInterfaceView view(entry);
    if (!view.lists(variable)) continue;
    listed = true;
    const uint32_t size = WorkgroupSizeIdOf(view.function(), component);
    if (!size || !SpecAtMost(size, length)) return false;
  }
  return listed;
}

int SpecializedLengths::LocalInvocationIdComponent(uint32_t id, uint32_t* variable, int depth) {
  const Instruction* def = inputs_.def_use.Definition(id);
  if (!def) return -1;
  if (def->opcode == spv::OpFunctionParameter) {
    // The same component of the same variable at every call (through helpers that pass
    // it on, kMaxCallDepth deep): an invocation constant, so the callee reads it too.
    std::vector<uint32_t> values;
    if (depth >= kMaxCallDepth || !ArgumentsOf(*def, &values) || values.empty()) return -1;
    int found = -1;
    for (uint32_t value : values) {
      uint32_t at_call = 0;
      int component = LocalInvocationIdComponent(Canonical(value), &at_call, depth + 1);
      if (component < 0 || (found >= 0 && (component != found || at_call != *variable))) return -1;
      found = component;
      *variable = at_call;
    }
    return found;
  }
  uint32_t pointer = 0;
  int64_t component = -1;
  if (def->opcode == spv::OpLoad) {
    const Instruction* chain = inputs_.def_use.Definition(LoadView(*def).pointer());
    if (!chain || !IsChain(*chain) || AccessChainView(*chain).index_count() != 1 ||
        !canonical_.ConstantValue(AccessChainView(*chain).index(0), &component))
      return -1;
    pointer = AccessChainView(*chain).base();
  } else if (def->opcode == spv::OpCompositeExtract) {
    CompositeExtractView extract(*def);
    const Instruction* load = inputs_.def_use.Definition(extract.composite());
    if (extract.indices().size() != 1 || !load || load->opcode != spv::OpLoad) return -1;
    component = extract.index(0);
    pointer = LoadView(*load).pointer();
  } else {
    return -1;
  }
  std::optional<uint32_t> builtin = inputs_.builtins.Of(pointer);
  const Instruction* base = inputs_.def_use.Definition(pointer);
  if (!builtin || *builtin != spv::BuiltInLocalInvocationId || !base ||
      base->opcode != spv::OpVariable || component < 0 || component > 2)
    return -1;
  *variable = pointer;
  return static_cast<int>(component);
}

// What every call gives `parameter`: the operand itself for a value parameter, the value
// stored into the argument variable for a pointer one that its function only loads
// (parameter_arguments.h, which Canonical follows such loads through).
bool SpecializedLengths::ArgumentsOf(const Instruction& parameter, std::vector<uint32_t>* values) {
  const Instruction* type = inputs_.def_use.Definition(parameter.type_id);
  if (type && type->opcode == spv::OpTypePointer) {
    const CallArguments& arguments = inputs_.arguments.Of(parameter);
    *values = arguments.values;
    return arguments.reason.empty();
  }
  size_t position = 0;
  Function* owner = inputs_.calls.ParameterOwner(parameter, &position);
  if (!owner) return false;
  for (const CallGraph::Call* call : inputs_.calls.CallsOf(owner->id())) {
    auto arguments = FunctionCallView(*call->call).arguments();
    if (position >= arguments.size()) return false;
    values->push_back(arguments[position]);
  }
  return true;
}

uint32_t SpecializedLengths::WorkgroupSizeIdOf(uint32_t entry_function, int dimension) {
  if (uint32_t workgroup_size = inputs_.builtins.WorkgroupSizeId()) {  // overrides the modes
    const Instruction* def = inputs_.def_use.Definition(workgroup_size);
    if (!def ||
        (def->opcode != spv::OpSpecConstantComposite && def->opcode != spv::OpConstantComposite) ||
        def->words.size() != 3)
      return 0;
    return def->words[size_t(dimension)];
  }
  for (const Instruction& inst : module_.execution_modes) {
    auto mode = ViewIf<ExecutionModeView>(inst);
    if (!mode || inst.opcode != spv::OpExecutionModeId || mode->entry_point() != entry_function ||
        mode->mode() != spv::ExecutionModeLocalSizeId || mode->operands().size() != 3)
      continue;
    return mode->operand(size_t(dimension));
  }
  return 0;
}

}  // namespace glint::spirv
