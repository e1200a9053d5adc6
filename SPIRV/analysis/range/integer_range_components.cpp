// Components of computed vectors (full mode): the range of component k of a 32-bit
// integer vector, followed through the componentwise operations that computed it.
//
// What it proves: SPIR-V's integer arithmetic, bitwise, shift, select, bitcast and
// GLSL.std.450 min / max / clamp operations on vectors act on each component alone:
// component k of `a op b` is `a[k] op b[k]`, so its range is the scalar rule's result on
// the ranges of a[k] and b[k] (Binary's rules: each is sound for every operand value in
// its operands' ranges). Leaves: a component built from a known scalar (ComponentSource:
// constructs, constants, inserts, shuffles, copies), whose own range is the analysis's;
// a component of a loaded built-in vector (BuiltinComponent); a component of a whole
// vector parameter, the union of that component of every call's argument (the
// parameter-arguments analysis says which values those are). Ranges here are
// context-free (no guard narrows a component), so they are memoized per (vector,
// component).
//
// Shuffles and constructs from smaller vectors select a component of an operand; a
// call's result component is the union of that component of every value the callee
// returns (its parameters ranged over every call), met with the same union computed
// for this call: the returned vector's operations followed again with the scalars they
// read ranged in this call (UseRanges::RangeAt given this call's parameter ranges, and
// the facts at the return), not memoized. That follows only SSA operands of the returned
// value, which all dominate the return (so the facts there hold for them); a load met
// on the way is ranged for every call. OpBitFieldUExtract's component k is the scalar
// field rule on its (scalar) offset and count: `bitfieldExtract(v, 0, int(bits))` with
// bits = 5 at this call is [0, 31] in each component.
//
// Where it is asked: a component extracted from a computed vector (`uvec2 v = a.xy * 2u;
// t[v.x]`), and a part of a vector argument computed that way (`f(coord >> 1u)` with
// `void f(uvec2 c) { t[c.y]; }`).
//
// Refuses (no range, with the reason): a component of anything else (a value read from
// memory keeps its origin's reason; a float conversion, a call result or a phi of
// vectors names its opcode), an operation the scalar rules refuse, and a chain of more
// than kMaxComponentDepth operations (a budget that names itself).
#include <spirv/unified1/GLSL.std.450.h>

#include "SPIRV/analysis/range/integer_range_components.h"
#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

namespace glint::spirv {

using namespace range_detail;

namespace {

IntegerRange Union(const IntegerRange& a, const IntegerRange& b, bool is_signed) {
  IntegerRange ca = Convert(a, is_signed), cb = Convert(b, is_signed);
  if (!ca.valid) return ca;
  if (!cb.valid) return cb;
  return IntegerRange::Of(is_signed, std::min(ca.min, cb.min), std::max(ca.max, cb.max));
}

// min / max of two values in `is_signed`'s order: monotone in both operands. The min of
// an operand without a range is still at most the other's maximum.
IntegerRange MinOrMax(bool max, const IntegerRange& a, const IntegerRange& b, bool is_signed) {
  IntegerRange ca = Convert(a, is_signed), cb = Convert(b, is_signed);
  if (!max && ca.valid != cb.valid) (ca.valid ? cb : ca) = FullDomain(is_signed);
  if (!ca.valid) return ca;
  if (!cb.valid) return cb;
  return max ? IntegerRange::Of(is_signed, std::max(ca.min, cb.min), std::max(ca.max, cb.max))
             : IntegerRange::Of(is_signed, std::min(ca.min, cb.min), std::min(ca.max, cb.max));
}

}  // namespace

IntegerRange VectorComponents::ComponentRange(uint32_t vector, uint32_t component, int depth) {
  if (uint32_t scalar = canonical_.ComponentSource(vector, component)) return ScalarRange(scalar);
  if (depth >= kMaxComponentDepth)
    return IntegerRange::None(
        "a component followed through more than 16 vector operations (budget "
        "kMaxComponentDepth)");
  if (context_) return ComputeComponent(vector, component, depth);  // this call's: not kept
  const uint64_t key = (uint64_t(vector) << 5) | (component & 31u);
  auto found = component_ranges_.find(key);
  if (found != component_ranges_.end()) return found->second;
  // Asked again while it is computed (a vector updated from itself in a loop): no range.
  component_ranges_.emplace(
      key, IntegerRange::None("a component of a vector computed from itself (a loop-carried "
                              "vector is not followed)"));
  IntegerRange computed = ComputeComponent(vector, component, depth);
  component_ranges_[key] = computed;
  return computed;
}

IntegerRange VectorComponents::ComputeComponent(uint32_t vector, uint32_t component, int depth) {
  const Instruction* def = inputs_.def_use.Definition(vector);
  const Instruction* type = def ? inputs_.def_use.Definition(def->type_id) : nullptr;
  bool is_signed = false;
  if (!type || type->opcode != spv::OpTypeVector ||
      !inputs_.def_use.IsInt32Type(TypeVectorView(*type).component_type(), &is_signed) ||
      component >= TypeVectorView(*type).component_count())
    return IntegerRange::None("a component of a value that is not a 32-bit integer vector");
  auto part = [&](uint32_t id) { return ComponentRange(id, component, depth + 1); };
  switch (BinaryRuleOf(def->opcode)) {
    case BinaryRule::kArithmetic:
      return rules_.arithmetic.BinaryOfRanges(def->opcode, part(BinaryOpView(*def).left()),
                                              part(BinaryOpView(*def).right()), is_signed);
    case BinaryRule::kAnd: {
      IntegerRange a = part(BinaryOpView(*def).left()), b = part(BinaryOpView(*def).right());
      // Of two non-negative values, AND is at most the smaller; one non-negative
      // operand bounds it alone (a mask), whatever the other is.
      bool a_mask = a.valid && a.min >= 0, b_mask = b.valid && b.min >= 0;
      if (!a_mask && !b_mask)
        return !a.valid   ? a
               : !b.valid ? b
                          : IntegerRange::None("bitwise AND of possibly negative components");
      int64_t high = a_mask && b_mask ? std::min(a.max, b.max) : a_mask ? a.max : b.max;
      return Checked(is_signed, 0, high, "bitwise AND");
    }
    default:
      break;
  }
  switch (def->opcode) {
    case spv::OpCopyObject:
      return part(UnaryOpView(*def).operand());
    case spv::OpBitcast:
      if (!ComponentwiseBitcast(*def)) break;
      return Convert(part(UnaryOpView(*def).operand()), is_signed);
    case spv::OpSelect:
      return Union(part(SelectView(*def).true_value()), part(SelectView(*def).false_value()),
                   is_signed);
    case spv::OpExtInst:
      return ComponentOfGlsl(*def, component, depth, is_signed);
    case spv::OpVectorShuffle:
    case spv::OpCompositeConstruct:
      if (std::optional<IntegerRange> selected =
              ComponentOfSelection(*def, component, depth, is_signed))
        return *selected;
      break;
    case spv::OpLoad: {
      // Memory is ranged for every call: a stored value need not dominate the return
      // whose facts a call's context reads, nor be its latest value there.
      const CallContext* outer = context_;
      context_ = nullptr;
      IntegerRange loaded = ComponentOfLoad(*def, component, depth, is_signed);
      context_ = outer;
      return loaded;
    }
    case spv::OpSpecConstantComposite:
    case spv::OpSpecConstantOp:
      return IntegerRange::None("specialization constant without a value (use --spec-constant)");
    case spv::OpFunctionCall:
      return ComponentOfCall(*def, component, depth, is_signed);
    case spv::OpBitFieldUExtract:  // offset and count are scalars: the same for each component
      return BitwiseRule::UnsignedField(ScalarRange(BitFieldExtractView(*def).offset()),
                                        ScalarRange(BitFieldExtractView(*def).count()), is_signed);
    default:
      break;
  }
  std::string origin = origins_.MemoryOrigin(vector);  // integer_range_origins.cpp
  if (!origin.empty()) return IntegerRange::None(origin);
  return IntegerRange::None(std::string("a component of a vector computed by ") +
                            grammar::OpcodeName(def->opcode) +
                            ", whose components are not followed");
}

// A shuffle's or a construct's component is a component (or the scalar) of one operand;
// nullopt when the instruction does not say which (an undefined shuffle component).
std::optional<IntegerRange> VectorComponents::ComponentOfSelection(const Instruction& def,
                                                                   uint32_t component, int depth,
                                                                   bool is_signed) {
  auto part_at = [&](uint32_t id, uint32_t index) {
    return Convert(ComponentRange(id, index, depth + 1), is_signed);
  };
  if (def.opcode == spv::OpVectorShuffle) {
    VectorShuffleView shuffle(def);
    const Instruction* first = inputs_.def_use.TypeOf(shuffle.vector1());
    uint32_t pick = shuffle.component(component);
    if (!first || first->opcode != spv::OpTypeVector || pick == 0xFFFFFFFFu) return std::nullopt;
    uint32_t width = TypeVectorView(*first).component_count();
    return pick < width ? part_at(shuffle.vector1(), pick)
                        : part_at(shuffle.vector2(), pick - width);
  }
  uint32_t start = 0;  // a construct of scalars and smaller vectors, in order
  for (uint32_t constituent : CompositeConstructView(def).constituents()) {
    const Instruction* constituent_type = inputs_.def_use.TypeOf(constituent);
    uint32_t width = constituent_type && constituent_type->opcode == spv::OpTypeVector
                         ? TypeVectorView(*constituent_type).component_count()
                         : 1;
    if (component < start + width)
      return width == 1 ? Convert(ScalarRange(constituent), is_signed)
                        : part_at(constituent, component - start);
    start += width;
  }
  return std::nullopt;
}

// A call's component: the union of that component of every value the callee returns,
// met with the same union in this call (its own arguments, integer_range_call_results.cpp).
IntegerRange VectorComponents::ComponentOfCall(const Instruction& call, uint32_t component,
                                               int depth, bool is_signed) {
  const Function* callee = inputs_.calls.FunctionById(FunctionCallView(call).callee());
  std::vector<const Instruction*> returns =
      callee ? rules_.call_results.ReturnsOf(*callee) : std::vector<const Instruction*>{};
  if (returns.empty())
    return IntegerRange::None("function has no return value or more than 64 (budget kMaxReturns)");
  // A call inside a call being followed is another function's: ranged for every call.
  const CallContext* outer = context_;
  context_ = nullptr;
  IntegerRange result;
  for (const Instruction* ret : returns) {
    IntegerRange returned =
        Convert(ComponentRange(ReturnValueView(*ret).value(), component, depth + 1), is_signed);
    if (!returned.valid) {
      result = IntegerRange::None("a value the function returns has no range: " + returned.reason);
      break;
    }
    result = Hull(result, returned, is_signed);
  }
  std::vector<UseRanges::GivenParameter> given;
  if (!outer && !in_progress_.Following(callee))
    given =
        rules_.call_results.ChangedInThisCall(rules_.call_results.GivenParameters(call, *callee));
  IntegerRange in_this_call;
  for (const Instruction* ret : given.empty() ? std::vector<const Instruction*>{} : returns) {
    CallContext context{&given, ret};
    context_ = &context;
    IntegerRange returned =
        Convert(ComponentRange(ReturnValueView(*ret).value(), component, depth + 1), is_signed);
    context_ = nullptr;
    if (!returned.valid) {
      in_this_call = returned;
      break;
    }
    in_this_call = Hull(in_this_call, returned, is_signed);
  }
  context_ = outer;
  return Meet(result, in_this_call, is_signed);
}

// A scalar's range: in the call being followed (CallContext), else its own.
IntegerRange VectorComponents::ScalarRange(uint32_t id) {
  if (!context_) return RangeOf(id);
  return rules_.at_uses.RangeAt(id, *context_->at, context_->given);
}

IntegerRange VectorComponents::ComponentOfGlsl(const Instruction& def, uint32_t component,
                                               int depth, bool is_signed) {
  ExtInstView ext(def);
  if (ext.set() != module_.GlslStd450Import())
    return IntegerRange::None("extended instruction outside GLSL.std.450");
  auto part = [&](size_t i) { return ComponentRange(ext.operand(i), component, depth + 1); };
  const uint32_t instruction = ext.instruction_number();
  const bool is_clamp = instruction == GLSLstd450UClamp || instruction == GLSLstd450SClamp;
  const size_t wanted = is_clamp ? 3 : 2;
  const bool in_signed = instruction == GLSLstd450SMin || instruction == GLSLstd450SMax ||
                         instruction == GLSLstd450SClamp;
  switch (instruction) {
    case GLSLstd450UMin:
    case GLSLstd450SMin:
    case GLSLstd450UMax:
    case GLSLstd450SMax:
    case GLSLstd450UClamp:
    case GLSLstd450SClamp:
      break;
    default:
      return IntegerRange::None(std::string("a component of GLSL.std.450 instruction ") +
                                std::to_string(instruction) +
                                ", whose components are not followed");
  }
  if (ext.operand_count() != wanted)
    return IntegerRange::None("GLSL.std.450 instruction with a wrong operand count");
  IntegerRange result;
  if (is_clamp) {  // clamp(x, lo, hi) = min(max(x, lo), hi); undefined when lo > hi
    IntegerRange low = Convert(part(1), in_signed), high = Convert(part(2), in_signed);
    IntegerRange x = Convert(part(0), in_signed);
    if (!low.valid || !high.valid) return ClampBoundsWithoutRange(low, high);
    if (low.max > high.min) return IntegerRange::None("clamp bounds may cross (lo > hi)");
    if (!x.valid) x = FullDomain(in_signed);
    result = MinOrMax(false, MinOrMax(true, x, low, in_signed), high, in_signed);
  } else {
    result = MinOrMax(instruction == GLSLstd450UMax || instruction == GLSLstd450SMax, part(0),
                      part(1), in_signed);
  }
  return Convert(result, is_signed);
}

IntegerRange VectorComponents::ComponentOfLoad(const Instruction& load, uint32_t component,
                                               int depth, bool is_signed) {
  const Instruction* pointer = inputs_.def_use.Definition(LoadView(load).pointer());
  if (pointer && pointer->opcode == spv::OpVariable && inputs_.builtins.Has(pointer->result_id) &&
      VariableView(*pointer).storage_class() == spv::StorageClassInput)
    return rules_.builtins.BuiltinComponent(pointer->result_id, component, is_signed);
  if (pointer && pointer->opcode == spv::OpFunctionParameter) {
    const CallArguments& arguments = inputs_.arguments.Of(*pointer);
    if (!arguments.reason.empty())
      return IntegerRange::None("function parameter has no range: " + arguments.reason);
    IntegerRange result;
    for (uint32_t value : arguments.values) {
      IntegerRange argument = Convert(ComponentRange(value, component, depth + 1), is_signed);
      if (!argument.valid)
        return IntegerRange::None("an argument passed to the parameter has no range: " +
                                  argument.reason);
      result = Hull(result, argument, is_signed);
    }
    if (!result.valid) return IntegerRange::None("function parameter has no range: no call");
    return result;
  }
  std::vector<uint32_t> indices;  // a vector read from a constant table
  if (const Instruction* table = rules_.tables.ConstantTableOf(LoadView(load).pointer(), &indices))
    return rules_.tables.TableLoad(*table, indices, is_signed,
                                   component);                 // integer_range_constant_tables.cpp
  std::string origin = origins_.MemoryOrigin(load.result_id);  // integer_range_origins.cpp
  if (!origin.empty()) return IntegerRange::None(origin);
  return ComponentOfLocal(load, component, depth, is_signed);
}

// Component k of a local vector loaded whole: the union over the definitions that may
// supply it (value flow) of what each stored there.
IntegerRange VectorComponents::ComponentOfLocal(const Instruction& load, uint32_t component,
                                                int depth, bool is_signed) {
  const ValueFlow* flow = canonical_.FlowOf(load);
  uint32_t variable = 0;
  std::vector<uint32_t> path;
  if (!flow || !flow->LoadTarget(&load, &variable, &path))
    return IntegerRange::None("a component of a vector loaded from a local that is not followed");
  path.push_back(component);
  std::vector<uint32_t> definitions = flow->Definitions(&load);
  if (definitions.size() > LocalDefinitionsAnalysis::kMaxLocalDefinitions)
    return IntegerRange::None(
        "local has more than 64 reaching stores (budget kMaxLocalDefinitions)");
  IntegerRange result = IntegerRange::None("load of a local in unreachable code");
  for (uint32_t id : definitions) {
    const ValueFlowNode& node = flow->Node(id);
    if (node.kind == ValueFlowNode::Kind::kUndefined)
      return IntegerRange::None("local may be read before it is assigned");
    std::vector<uint32_t> written =
        node.kind == ValueFlowNode::Kind::kStore ? node.path : std::vector<uint32_t>{};
    // A store to another component (the walk went past it) supplies nothing here.
    if (written.size() > path.size() || !std::equal(written.begin(), written.end(), path.begin()))
      continue;
    IntegerRange stored;
    std::pair<uint32_t, uint32_t> part;
    if (uint32_t scalar = local_definitions_.StoredPart(node, path)) {
      stored = RangeOf(scalar);
    } else if (local_definitions_.StoredComponent(node, path, &part)) {
      stored = ComponentRange(part.first, part.second, depth + 1);
    } else {
      return IntegerRange::None(
          "local is assigned through a different element path than it is read");
    }
    stored = Convert(stored, is_signed);
    if (!stored.valid)
      return IntegerRange::None("a value stored to the local has no range: " + stored.reason);
    result = Hull(result, stored, is_signed);
  }
  return result;
}

void VectorComponents::Register(Table& table) { table[size_t(ValueKind::kComponent)] = this; }

// A component built from a known scalar (ComponentSource) reads that scalar.
DependencyIds VectorComponents::Dependencies(const Instruction& def, ValueKind) {
  if (uint32_t source = canonical_.ExtractSource(def)) return {source};
  return {};
}

IntegerRange VectorComponents::Range(const Instruction& def, ValueKind, bool is_signed) {
  if (uint32_t source = canonical_.ExtractSource(def)) return Convert(Operand(source), is_signed);
  return ExtractBuiltinComponent(def, is_signed);
}

// OpCompositeExtract with one index of a vector: a component of a loaded built-in
// vector (possibly through copies and componentwise bitcasts), else of a computed one.
IntegerRange VectorComponents::ExtractBuiltinComponent(const Instruction& def, bool is_signed) {
  CompositeExtractView extract(def);
  const Instruction* vector = inputs_.def_use.Definition(extract.composite());
  // A copy, or a bitcast between 32-bit integer vectors of one length (`int(gid)` of a
  // uvec3), has the same bits in each component: component k is component k of its
  // operand, reinterpreted in the extract's own signedness by the rule's range.
  while (Full() && vector && (vector->opcode == spv::OpCopyObject || ComponentwiseBitcast(*vector)))
    vector = inputs_.def_use.Definition(UnaryOpView(*vector).operand());
  const Instruction* variable = vector && vector->opcode == spv::OpLoad
                                    ? inputs_.def_use.Definition(LoadView(*vector).pointer())
                                    : nullptr;
  bool builtin =
      variable && variable->opcode == spv::OpVariable && inputs_.builtins.Has(variable->result_id);
  std::string origin = Full() && !builtin ? origins_.MemoryOrigin(def.result_id) : std::string();
  if (!origin.empty()) return IntegerRange::None(origin);   // integer_range_origins.cpp
  if (Full() && !builtin && extract.indices().size() == 1)  // integer_range_components.cpp
    return Convert(ComponentRange(extract.composite(), extract.index(0)), is_signed);
  if (!builtin || extract.indices().size() != 1)
    return IntegerRange::None(UnsupportedOpcode(def.opcode));
  if (!Full())
    return IntegerRange::None(
        "component of a loaded built-in vector is not supported in "
        "reference mode");
  return rules_.builtins.BuiltinComponent(variable->result_id, extract.index(0), is_signed);
}

// OpBitcast from a vector of 32-bit integers to another of the same length.
bool VectorComponents::ComponentwiseBitcast(const Instruction& def) const {
  if (def.opcode != spv::OpBitcast) return false;
  const Instruction* to = inputs_.def_use.Definition(def.type_id);
  const Instruction* from = inputs_.def_use.TypeOf(UnaryOpView(def).operand());
  if (!to || !from || to->opcode != spv::OpTypeVector || from->opcode != spv::OpTypeVector ||
      TypeVectorView(*to).component_count() != TypeVectorView(*from).component_count())
    return false;
  bool is_signed = false;
  return inputs_.def_use.IsInt32Type(TypeVectorView(*to).component_type(), &is_signed) &&
         inputs_.def_use.IsInt32Type(TypeVectorView(*from).component_type(), &is_signed);
}

}  // namespace glint::spirv
