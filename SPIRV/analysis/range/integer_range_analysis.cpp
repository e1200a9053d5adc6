// Integer range analysis (see integer_range_analysis.h for the rules and their SPIR-V
// mapping).
//
// Evaluation: RangeOf() walks an explicit stack. A value is first "expanded" (its
// operands that need ranges are pushed), and computed once all of them are memoized;
// an operand still being expanded means a cyclic definition (invalid SPIR-V), which
// gets no range instead of a hang.
//
// Full mode (RangeAnalysisMode::kFull) adds, on top of the reference rules:
//   - OpCompositeExtract with one index of an OpLoad of the whole LocalInvocationId
//     vector (what DXC and optimizers emit for lid.x): the component's range.
//   - OpBitwiseAnd with a constant mask m >= 0 on either side: [0, m], narrowed to
//     [0, min(m, x.max)] when the other operand has a non-negative range.
//   - OpBitFieldUExtract (GLSL bitfieldExtract on uint) when offset + count is at most 32
//     for every operand value: [0, 2^count.max - 1] (the field is zero-extended).
//   - OpBitFieldInsert with constant offset and count into a non-negative base:
//     [0, base.max + field.max] (see BitFieldInsert).
//   - InvocationId: [0, OutputVertices - 1] in tessellation control shaders and
//     [0, Invocations - 1] in geometry shaders (Invocations defaults to 1).
//   - WorkgroupId, NumWorkgroups and GlobalInvocationId components under the user's
//     promise of the largest dispatch (Options::max_workgroups, --max-workgroups).
//   - OpPhi: the union of the incoming values' ranges when all have one (a phi that
//     depends on itself, as a loop-carried one does, has none).
//   - OpSelect: the union of both operands' ranges when both have one.
//   - GLSL.std.450 SClamp / UClamp: min(max(x, lo), hi) when lo's range lies wholly
//     below hi's (the result is undefined when lo > hi, so nothing is proven then).
//   - Locals through value flow, loop-carried locals widened, parameters across calls
//     (integer_range_locals.cpp, integer_range_loop_locals.cpp, integer_range_calls.cpp).
//   - Call results: the union of the callee's returned ranges
//     (integer_range_call_results.cpp).
//   - 8- and 16-bit integers have their type's range; OpUConvert / OpSConvert carry
//     ranges across widths (integer_range_widths.cpp).
//   - bitCount, findLSB, findMSB and subgroupBallotBitCount: bounded by the operand's
//     width and range, and a ballot's size (integer_range_bit_counts.cpp).
//   - A Function variable without initializer whose only uses are one OpStore and
//     loads (a GLSL local assigned once, glslang's form of `let`): a load dominated by
//     the store has the stored value's range.
// Each is sound for every value of its operands; reference mode names the rule it
// lacks ("bitwise AND is not supported in reference mode").
#include "SPIRV/analysis/range/integer_range_analysis.h"
#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string_view>
#include <unordered_set>

#include <spirv/unified1/GLSL.std.450.h>

#include "SPIRV/analysis/range/range_reason_text.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/workgroup_size.h"

namespace glint::spirv {

namespace {

// A reason wraps the reason of what the value came from, one hop per local, parameter or
// return ("a value stored to the local has no range: an argument passed to the parameter
// has no range: ... <root cause>"). Along a chain of calls each value's text grows by a
// hop, and each value keeps its own: memory and time quadratic in the chain's length
// (a compute shader of 500 chained helpers held 1.5 KB of reasons per input word). Past
// kMaxReasonHops the middle is elided: the first three hops stay, then "[N more steps] "
// before the last hop, and the root cause.
constexpr size_t kMaxReasonHops = 6;
using range_reason_text::kHop;
using range_reason_text::kMoreClose;
using range_reason_text::kMoreOpen;

// The hops `part` stands for: 1, or N + 1 when it starts with "[N more steps] " (then
// `rest` is what follows the marker).
size_t HopsIn(std::string_view part, std::string_view* rest) {
  *rest = part;
  size_t close = part.find(kMoreClose);
  if (part.substr(0, 1) != kMoreOpen || close == std::string_view::npos) return 1;
  size_t steps = 0;
  auto [end, error] = std::from_chars(part.data() + 1, part.data() + close, steps);
  if (error != std::errc() || end != part.data() + close) return 1;
  *rest = part.substr(close + kMoreClose.size());
  return steps + 1;
}

std::string BoundedReason(std::string reason) {
  std::vector<std::string_view> parts;
  std::string_view text(reason);
  for (size_t at = 0;;) {
    size_t hop = text.find(kHop, at);
    if (hop == std::string_view::npos) {
      parts.push_back(text.substr(at));
      break;
    }
    parts.push_back(text.substr(at, hop - at));
    at = hop + kHop.size();
  }
  size_t hops = parts.size() - 1;
  if (hops <= kMaxReasonHops) return reason;
  size_t elided = 0;
  std::string_view ignored, last;
  for (size_t i = 3; i + 1 < hops; ++i) elided += HopsIn(parts[i], &ignored);
  elided += HopsIn(parts[hops - 1], &last) - 1;
  std::string out;
  for (size_t i = 0; i < 3; ++i) out.append(parts[i]).append(kHop);
  out.append(kMoreOpen).append(std::to_string(elided)).append(kMoreClose);
  out.append(last).append(kHop).append(parts[hops]);
  return out;
}

}  // namespace

IntegerRange IntegerRange::None(std::string why) {
  IntegerRange range;
  range.reason = BoundedReason(std::move(why));
  return range;
}

IntegerRange IntegerRange::Of(bool is_signed, int64_t min, int64_t max) {
  IntegerRange range;
  range.valid = true;
  range.is_signed = is_signed;
  range.min = min;
  range.max = max;
  return range;
}

using namespace range_detail;

// ---------------------------------------------------------------------------
// Evaluation driver

IntegerRange IntegerRangeAnalysis::Evaluator::RangeOf(uint32_t id) {
  if (options_.mode == RangeAnalysisMode::kOff) return IntegerRange::None("range analysis is off");
  std::vector<uint32_t> stack{id};
  while (!stack.empty()) {
    uint32_t top = stack.back();
    if (memo_.Has(top)) {
      stack.pop_back();
      continue;
    }
    if (!expanded_.insert(top).second) {  // second visit: every operand is done
      stack.pop_back();
      IntegerRange computed;
      {
        NestedEvaluations::Scope computing = in_progress_.Value(top);
        if (!computing.entered()) continue;  // asked again from inside its own Compute
        computed = Compute(top);
      }
      memo_.Put(top, computed);
      expanded_.erase(top);  // the memo answers for it from now on
      continue;
    }
    const Instruction* def = inputs_.def_use.Definition(top);
    if (!def) continue;
    for (uint32_t dependency : Dependencies(*def))
      if (!memo_.Has(dependency) && !expanded_.count(dependency)) stack.push_back(dependency);
  }
  std::optional<IntegerRange> found = memo_.Find(id);
  if (!found)  // a guard read while widening asked for a value in progress
    return IntegerRange::None("cyclic definition of %" + std::to_string(id));
  return std::move(*found);
}

IntegerRange IntegerRangeAnalysis::Evaluator::Operand(uint32_t id) const {
  if (const IntegerRange* substituted = substituted_.Find(id)) return *substituted;
  std::optional<IntegerRange> found = memo_.Find(id);
  if (!found) return IntegerRange::None("cyclic definition of %" + std::to_string(id));
  return std::move(*found);
}

// The operands whose ranges Compute() reads for `def`.
std::vector<uint32_t> IntegerRangeAnalysis::Evaluator::Dependencies(const Instruction& def) {
  if (BinaryRuleOf(def.opcode) != BinaryRule::kNone)
    return {BinaryOpView(def).left(), BinaryOpView(def).right()};
  if (uint32_t source = WidthConversionSource(def)) return {source};
  if (Full() && def.opcode == spv::OpFunctionCall) return ReturnedValues(def);
  switch (def.opcode) {
    case spv::OpCopyObject:
    case spv::OpBitcast:
      return {UnaryOpView(def).operand()};
    case spv::OpBitCount:
      if (Full()) return {UnaryOpView(def).operand()};
      return {};
    case spv::OpCompositeExtract:
      if (uint32_t source = canonical_.ExtractSource(def)) return {source};
      return {};
    case spv::OpSelect:
      return {SelectView(def).true_value(), SelectView(def).false_value()};
    case spv::OpBitFieldUExtract:
      return {BitFieldExtractView(def).offset(), BitFieldExtractView(def).count()};
    case spv::OpBitFieldInsert:  // reference mode: unsupported, as it always was
      if (!Full()) return {};
      return {BitFieldInsertView(def).base(), BitFieldInsertView(def).insert(),
              BitFieldInsertView(def).offset(), BitFieldInsertView(def).count()};
    case spv::OpPhi: {
      PhiView phi(def);
      std::vector<uint32_t> incoming;
      for (size_t i = 0; i < phi.pair_count(); ++i) incoming.push_back(phi.value(i));
      return incoming;
    }
    case spv::OpExtInst: {
      auto operands = ExtInstView(def).operands();
      return std::vector<uint32_t>(operands.begin(), operands.end());
    }
    case spv::OpLoad:
      if (const Instruction* target = canonical_.LoopVariableLoadTarget(def))
        return {target->result_id};
      if (const Instruction* store = canonical_.DominatingSingleStore(def))
        return {StoreView(*store).object()};
      if (const LocalDefinitions* local = local_definitions_.Of(def)) {
        if (CycleDependent(def)) return {};  // its own fixed point evaluates the cycle
        return local->dependencies.ToVector();
      }
      if (const Instruction* parameter = inputs_.def_use.Definition(LoadView(def).pointer());
          Full() && parameter && parameter->opcode == spv::OpFunctionParameter)
        return inputs_.arguments.Of(*parameter).values;
      if (const Instruction* chain = inputs_.def_use.Definition(LoadView(def).pointer());
          Full() && chain &&
          (chain->opcode == spv::OpAccessChain || chain->opcode == spv::OpInBoundsAccessChain)) {
        const Instruction* base = inputs_.def_use.Definition(AccessChainView(*chain).base());
        if (base && base->opcode == spv::OpFunctionParameter) {
          return ArgumentParts(*chain, inputs_.arguments.Of(*base)).parts;
        }
      }
      return {};
    default:
      return {};
  }
}

IntegerRange IntegerRangeAnalysis::Evaluator::Compute(uint32_t id) {
  const Instruction* def = inputs_.def_use.Definition(id);
  if (!def) return IntegerRange::None("%" + std::to_string(id) + " has no definition");
  bool is_signed = false;
  uint32_t width = 0;
  if (Full() && IntWidth(def->type_id, &is_signed, &width) && (width == 8 || width == 16))
    return NarrowValue(*def, is_signed, width);  // integer_range_widths.cpp
  if (Full() && width == 64) return IntegerRange::None("64-bit integers have no range");
  if (!inputs_.def_use.IsInt32Type(def->type_id, &is_signed))
    return IntegerRange::None("not a scalar 32-bit integer");
  return ComputeScalar(*def, is_signed);
}

IntegerRange IntegerRangeAnalysis::Evaluator::ComputeScalar(const Instruction& def,
                                                            bool is_signed) {
  switch (BinaryRuleOf(def.opcode)) {
    case BinaryRule::kArithmetic:
      return Binary(def, is_signed);
    case BinaryRule::kAnd:
      return Full() ? BitwiseAnd(def, is_signed) : IntegerRange::None(NotInReference(def.opcode));
    case BinaryRule::kOrXor:
      return Full() ? BitwiseOrXor(def, is_signed)
                    : IntegerRange::None(UnsupportedOpcode(def.opcode));
    case BinaryRule::kNone:
      break;
  }
  switch (def.opcode) {
    case spv::OpConstant:
    case spv::OpConstantNull:
      return ConstantRange(def, is_signed);
    case spv::OpSpecConstant:
    case spv::OpSpecConstantOp:
      return IntegerRange::None("specialization constant without a value (use --spec-constant)");
    case spv::OpCopyObject:
      return Operand(UnaryOpView(def).operand());
    case spv::OpLoad:
      return LoadRange(def, is_signed);
    case spv::OpBitcast:
      return Bitcast(def, is_signed);
    case spv::OpExtInst:
      return ExtInst(def, is_signed);
    case spv::OpSelect:
      return Full() ? Select(def, is_signed) : IntegerRange::None(NotInReference(def.opcode));
    case spv::OpBitFieldUExtract:
      return Full() ? UnsignedBitField(def, is_signed)
                    : IntegerRange::None(NotInReference(def.opcode));
    case spv::OpBitFieldInsert:
      return Full() ? BitFieldInsert(def, is_signed)
                    : IntegerRange::None(UnsupportedOpcode(def.opcode));
    case spv::OpPhi:
      return Full() ? Phi(def, is_signed) : IntegerRange::None(NotInReference(def.opcode));
    case spv::OpCompositeExtract:
      if (uint32_t source = canonical_.ExtractSource(def))
        return Convert(Operand(source), is_signed);
      return ExtractBuiltinComponent(def, is_signed);
    case spv::OpUConvert:
    case spv::OpSConvert:
      if (!Full()) break;
      return WidthConversion(def, is_signed, 32);  // integer_range_widths.cpp
    case spv::OpFunctionCall:
      if (!Full()) break;
      return CallResult(def, is_signed);  // integer_range_call_results.cpp
    case spv::OpBitCount:
      if (!Full()) break;
      return BitCount(def, is_signed);  // integer_range_bit_counts.cpp
    case spv::OpGroupNonUniformBallotBitCount:
      if (!Full()) break;
      return BallotBitCount(def, is_signed);
    default:
      break;
  }
  return IntegerRange::None(UnsupportedOpcode(def.opcode));
}

// ---------------------------------------------------------------------------
// Sources: constants and built-ins

IntegerRange IntegerRangeAnalysis::Evaluator::ConstantRange(const Instruction& def,
                                                            bool is_signed) const {
  if (def.opcode == spv::OpConstantNull) return IntegerRange::Of(is_signed, 0, 0);
  uint32_t bits = ConstantView(def).value32();
  int64_t value = is_signed ? int64_t(int32_t(bits)) : int64_t(bits);
  return IntegerRange::Of(is_signed, value, value);
}

IntegerRange IntegerRangeAnalysis::Evaluator::LoadRange(const Instruction& load, bool is_signed) {
  const Instruction* pointer = inputs_.def_use.Definition(LoadView(load).pointer());
  if (!pointer) return IntegerRange::None("load through an unknown pointer");
  if (Full()) {  // integer_range_constant_tables.cpp
    std::vector<uint32_t> indices;
    if (const Instruction* table = ConstantTableOf(pointer->result_id, &indices))
      return TableLoad(*table, indices, is_signed);
  }
  if (pointer->opcode == spv::OpVariable) {
    spv::StorageClass storage = VariableView(*pointer).storage_class();
    if (storage == spv::StorageClassInput && inputs_.builtins.Has(pointer->result_id))
      return BuiltinScalar(pointer->result_id, is_signed);
    if (storage == spv::StorageClassFunction && !inputs_.loops.ForLoopOf(pointer->result_id).ok)
      if (const Instruction* store = canonical_.DominatingSingleStore(load))
        return Convert(Operand(StoreView(*store).object()), is_signed);
    if (storage == spv::StorageClassFunction && Full() &&
        !inputs_.loops.ForLoopOf(pointer->result_id).ok)
      return LocalUnion(load, is_signed);
    if (storage == spv::StorageClassFunction) return LoopVariableLoad(load, pointer->result_id);
    return IntegerRange::None(ValueOrigins::StorageOrigin(storage));
  }
  bool is_chain =
      pointer->opcode == spv::OpAccessChain || pointer->opcode == spv::OpInBoundsAccessChain;
  if (Full() && pointer->opcode == spv::OpFunctionParameter)
    return ParameterLoad(*pointer, is_signed);
  if (!is_chain) return IntegerRange::None("load through a pointer that is not a variable");
  AccessChainView chain(*pointer);
  const Instruction* base = inputs_.def_use.Definition(chain.base());
  if (Full() && base && base->opcode == spv::OpVariable &&
      VariableView(*base).storage_class() == spv::StorageClassFunction)
    return LocalUnion(load, is_signed);
  bool builtin = base && base->opcode == spv::OpVariable && inputs_.builtins.Has(base->result_id);
  std::string origin = builtin ? std::string() : origins_.PointerOrigin(chain.result_id());
  if (!origin.empty()) return IntegerRange::None(origin);
  if (Full() && base && base->opcode == spv::OpFunctionParameter)
    return ParameterPartLoad(*pointer, *base, is_signed);  // integer_range_calls.cpp
  if (!builtin)
    return IntegerRange::None(
        "load from memory through an access chain (only built-in "
        "components have ranges)");
  int64_t component = 0;
  if (chain.index_count() == 1 && !canonical_.ConstantValue(chain.index(0), &component))
    return DynamicBuiltinElement(*base);
  if (chain.index_count() != 1)
    return IntegerRange::None("built-in component is not selected by one constant index");
  return BuiltinComponent(base->result_id, uint32_t(component), is_signed);
}

IntegerRange IntegerRangeAnalysis::Evaluator::BuiltinScalar(uint32_t variable, bool is_signed) {
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

IntegerRange IntegerRangeAnalysis::Evaluator::BuiltinComponent(uint32_t variable,
                                                               uint32_t component, bool is_signed) {
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
IntegerRange IntegerRangeAnalysis::Evaluator::DispatchComponent(uint32_t variable, uint32_t builtin,
                                                                uint32_t component,
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
bool IntegerRangeAnalysis::Evaluator::InvocationCount(uint32_t variable, int64_t* count,
                                                      std::string* why) const {
  *count = 0;
  for (const Instruction& entry : module_.entry_points) {
    EntryPointInterfaceView view(entry);
    auto interface = view.interface();
    if (std::find(interface.begin(), interface.end(), variable) == interface.end()) continue;
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
bool IntegerRangeAnalysis::Evaluator::WorkgroupSize(uint32_t variable, int64_t size[3],
                                                    std::string* why) {
  size[0] = size[1] = size[2] = 0;
  bool listed = false;
  for (const Instruction& entry : module_.entry_points) {
    EntryPointInterfaceView view(entry);
    auto interface = view.interface();
    if (std::find(interface.begin(), interface.end(), variable) == interface.end()) continue;
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

// ---------------------------------------------------------------------------
// Loop control variables

IntegerRange IntegerRangeAnalysis::Evaluator::LoopVariableLoad(const Instruction& load,
                                                               uint32_t variable) {
  const LoopShape& shape = inputs_.loops.ForLoopOf(variable);
  if (!shape.ok) return IntegerRange::None(shape.reason);
  if (!canonical_.LoopVariableLoadTarget(load))
    return IntegerRange::None("load of the loop variable outside the loop body");
  IntegerRange init = Operand(shape.init_value);
  if (!init.valid) return IntegerRange::None("loop initializer has no range: " + init.reason);
  init = Convert(init, shape.is_signed);
  if (!init.valid) return IntegerRange::None("loop initializer has no range: " + init.reason);
  return LoopRange(shape, init);
}

IntegerRange IntegerRangeAnalysis::Evaluator::LoopRange(const LoopShape& shape,
                                                        const IntegerRange& init) const {
  if (shape.increasing) {
    if (init.min > shape.bound) return IntegerRange::None("loop body never runs");
    int64_t hi = std::min(init.max, shape.bound);
    int64_t last = LastIncreasingValue(init.min, hi, shape.bound, shape.step);
    if (last + shape.step > TypeMax(shape.is_signed))
      return IntegerRange::None("loop variable may overflow past its last value");
    return IntegerRange::Of(shape.is_signed, init.min, last);
  }
  if (init.max < shape.bound) return IntegerRange::None("loop body never runs");
  int64_t lo = std::max(init.min, shape.bound);
  // Mirror the decreasing loop onto an increasing one: x -> -x.
  int64_t last = -LastIncreasingValue(-init.max, -lo, -shape.bound, shape.step);
  if (last - shape.step < TypeMin(shape.is_signed))
    return IntegerRange::None("loop variable may overflow past its last value");
  return IntegerRange::Of(shape.is_signed, last, init.max);
}

// ---------------------------------------------------------------------------
// Derived ranges

IntegerRange IntegerRangeAnalysis::Evaluator::Bitcast(const Instruction& def,
                                                      bool is_signed) const {
  bool source_signed = false;
  uint32_t source_id = UnaryOpView(def).operand();
  const Instruction* source = inputs_.def_use.Definition(source_id);
  if (!source || !inputs_.def_use.IsInt32Type(source->type_id, &source_signed))
    return IntegerRange::None("bitcast from a type other than a 32-bit integer");
  return Convert(Operand(source_id), is_signed);
}

IntegerRange IntegerRangeAnalysis::Evaluator::Binary(const Instruction& def, bool is_signed) const {
  return BinaryOfRanges(def.opcode, Operand(BinaryOpView(def).left()),
                        Operand(BinaryOpView(def).right()), is_signed);
}

// A kArithmetic operator's result range from its operands' (each in its own signedness).
IntegerRange IntegerRangeAnalysis::Evaluator::BinaryOfRanges(spv::Op opcode, const IntegerRange& a,
                                                             const IntegerRange& b,
                                                             bool is_signed) const {
  switch (opcode) {
    case spv::OpSMod:
    case spv::OpSRem:
    case spv::OpUMod: {
      IntegerRange result = Modulo(a, b, opcode != spv::OpUMod);
      if (!result.valid && Full()) result = WideModulo(opcode, a, b);
      return Convert(result, is_signed);
    }
    default:
      break;
  }
  if (!a.valid) return a;
  if (!b.valid) return b;
  switch (opcode) {
    case spv::OpSDiv:
    case spv::OpUDiv: {
      bool domain = opcode == spv::OpSDiv;
      IntegerRange ca = Convert(a, domain), cb = Convert(b, domain);
      if (!ca.valid) return ca;
      if (!cb.valid) return cb;
      return Convert(Divide(ca, cb, domain), is_signed);
    }
    case spv::OpShiftLeftLogical:
    case spv::OpShiftRightLogical:
    case spv::OpShiftRightArithmetic: {
      bool domain =
          opcode == spv::OpShiftLeftLogical ? is_signed : opcode == spv::OpShiftRightArithmetic;
      IntegerRange ca = Convert(a, domain);
      if (!ca.valid) return ca;
      return Convert(Shift(opcode, ca, b, domain), is_signed);
    }
    default: {
      IntegerRange ca = Convert(a, is_signed), cb = Convert(b, is_signed);
      if (!ca.valid) return ca;
      if (!cb.valid) return cb;
      return Arithmetic(opcode, ca, cb, is_signed);
    }
  }
}

IntegerRange IntegerRangeAnalysis::Evaluator::Arithmetic(spv::Op opcode, const IntegerRange& a,
                                                         const IntegerRange& b,
                                                         bool is_signed) const {
  if (opcode == spv::OpIAdd) return Checked(is_signed, a.min + b.min, a.max + b.max, "addition");
  if (opcode == spv::OpISub) {
    if (!is_signed && a.min < b.max) return IntegerRange::None("u32 subtraction may underflow");
    return Checked(is_signed, a.min - b.max, a.max - b.min, "subtraction");
  }
  if (is_signed && (a.min < 0 || b.min < 0))
    return IntegerRange::None("i32 multiplication with a possibly negative operand");
  int64_t high = BoundedProduct(a.max, b.max);
  if (high < 0)
    return IntegerRange::None(std::string(TypeName(is_signed)) + " multiplication may overflow");
  return Checked(is_signed, a.min * b.min, high, "multiplication");
}

IntegerRange IntegerRangeAnalysis::Evaluator::Divide(const IntegerRange& a, const IntegerRange& b,
                                                     bool is_signed) const {
  if (b.min <= 0) return IntegerRange::None("division by a possibly non-positive divisor");
  if (is_signed && a.min < 0)
    return IntegerRange::None("i32 division of a possibly negative dividend");
  return IntegerRange::Of(is_signed, a.min / b.max, a.max / b.min);
}

IntegerRange IntegerRangeAnalysis::Evaluator::Shift(spv::Op opcode, const IntegerRange& a,
                                                    const IntegerRange& b, bool is_signed) const {
  if (b.max >= 32) return IntegerRange::None("shift amount may be 32 or more");
  if (b.min < 0) return IntegerRange::None("shift amount may be negative");
  if (is_signed && a.min < 0) return IntegerRange::None("i32 shift of a possibly negative value");
  if (opcode == spv::OpShiftLeftLogical && a.max > (TypeMax(is_signed) >> b.max))
    return IntegerRange::None(std::string(TypeName(is_signed)) + " left shift may overflow");
  if (opcode == spv::OpShiftLeftLogical)
    return Checked(is_signed, a.min << b.min, a.max << b.max, "left shift");
  return IntegerRange::Of(is_signed, a.min >> b.max, a.max >> b.min);
}

IntegerRange IntegerRangeAnalysis::Evaluator::Modulo(const IntegerRange& a, const IntegerRange& b,
                                                     bool is_signed) const {
  IntegerRange divisor = Convert(b, is_signed);
  if (!divisor.IsSingleValue() || divisor.min <= 0)
    return IntegerRange::None("modulo divisor is not a single positive value");
  int64_t c = divisor.min;
  IntegerRange dividend = a.valid ? Convert(a, is_signed) : FullDomain(is_signed);
  if (!a.valid && is_signed)
    return IntegerRange::None("i32 modulo of a value with no range: " + a.reason);
  if (!dividend.valid) return dividend;
  if (is_signed && dividend.min < 0)
    return IntegerRange::None("i32 modulo of a possibly negative value");
  if (dividend.min / c == dividend.max / c)
    return IntegerRange::Of(is_signed, dividend.min % c, dividend.max % c);
  return IntegerRange::Of(is_signed, 0, c - 1);
}

IntegerRange IntegerRangeAnalysis::Evaluator::ExtInst(const Instruction& def,
                                                      bool is_signed) const {
  ExtInstView ext(def);
  if (ext.set() != module_.GlslStd450Import())
    return IntegerRange::None("extended instruction outside GLSL.std.450");
  uint32_t instruction = ext.instruction_number();
  if (instruction == GLSLstd450SAbs && ext.operand_count() == 1 && Full())
    return AbsoluteValue(ext.operand(0), is_signed);
  bool is_bit_position = instruction == GLSLstd450FindILsb || instruction == GLSLstd450FindUMsb ||
                         instruction == GLSLstd450FindSMsb;
  if (is_bit_position && ext.operand_count() == 1 && Full())
    return BitPosition(instruction, ext.operand(0), is_signed);  // integer_range_bit_counts.cpp
  bool is_clamp = instruction == GLSLstd450SClamp || instruction == GLSLstd450UClamp;
  bool is_min_max = instruction == GLSLstd450SMin || instruction == GLSLstd450UMin ||
                    instruction == GLSLstd450SMax || instruction == GLSLstd450UMax;
  if ((is_clamp && ext.operand_count() != 3) || (is_min_max && ext.operand_count() != 2))
    return IntegerRange::None("GLSL.std.450 instruction with a wrong operand count");
  IntegerRange result;
  switch (instruction) {
    case GLSLstd450SMin:
    case GLSLstd450UMin:
    case GLSLstd450SMax:
    case GLSLstd450UMax:
      result = MinMax(instruction, ext.operand(0), ext.operand(1));
      break;
    case GLSLstd450SClamp:
    case GLSLstd450UClamp:
      if (!Full()) return IntegerRange::None("clamp is not supported in reference mode");
      result = Clamp(instruction, def);
      break;
    default: {
      const grammar::ExtInstInfo* info = grammar::FindGlslStd450(instruction);
      return IntegerRange::None(std::string(info ? info->name : "GLSL.std.450 instruction") +
                                " is not supported");
    }
  }
  return Convert(result, is_signed);
}

// min / max in the instruction's own signedness; an operand without a range (or one
// that does not convert) counts as the whole domain, but one must have a range.
IntegerRange IntegerRangeAnalysis::Evaluator::MinMax(uint32_t instruction, uint32_t a_id,
                                                     uint32_t b_id) const {
  bool domain = instruction == GLSLstd450SMin || instruction == GLSLstd450SMax;
  IntegerRange a = Operand(a_id), b = Operand(b_id);
  if (!a.valid && !b.valid) return a;
  IntegerRange ca = Convert(a, domain), cb = Convert(b, domain);
  if (!ca.valid) ca = FullDomain(domain);
  if (!cb.valid) cb = FullDomain(domain);
  bool is_min = instruction == GLSLstd450SMin || instruction == GLSLstd450UMin;
  IntegerRange result =
      is_min ? IntegerRange::Of(domain, std::min(ca.min, cb.min), std::min(ca.max, cb.max))
             : IntegerRange::Of(domain, std::max(ca.min, cb.min), std::max(ca.max, cb.max));
  if (result.min == TypeMin(domain) && result.max == TypeMax(domain))
    return IntegerRange::None(std::string(is_min ? "min" : "max") + " result covers the whole " +
                              TypeName(domain) + " range");
  return result;
}

// Full mode: clamp(x, lo, hi) = min(max(x, lo), hi), proven only when lo <= hi always.
IntegerRange IntegerRangeAnalysis::Evaluator::Clamp(uint32_t instruction,
                                                    const Instruction& def) const {
  bool domain = instruction == GLSLstd450SClamp;
  ExtInstView clamp(def);  // x, lo, hi
  IntegerRange lo = Convert(Operand(clamp.operand(1)), domain);
  IntegerRange hi = Convert(Operand(clamp.operand(2)), domain);
  if (!lo.valid || !hi.valid) return ClampBoundsWithoutRange(lo, hi);
  if (lo.max > hi.min) return IntegerRange::None("clamp bounds may cross (lo > hi)");
  IntegerRange x = Convert(Operand(clamp.operand(0)), domain);
  if (!x.valid) x = FullDomain(domain);
  return IntegerRange::Of(domain, std::min(std::max(x.min, lo.min), hi.min),
                          std::min(std::max(x.max, lo.max), hi.max));
}

// Full mode: x & m with a constant m >= 0 lies in [0, m] whatever x is.
IntegerRange IntegerRangeAnalysis::Evaluator::BitwiseAnd(const Instruction& def,
                                                         bool is_signed) const {
  int64_t mask = 0;
  BinaryOpView operands(def);
  uint32_t other = operands.left();
  if (canonical_.ConstantValue(operands.right(), &mask)) {
  } else if (canonical_.ConstantValue(operands.left(), &mask)) {
    other = operands.right();
  } else {
    return IntegerRange::None("bitwise AND without a constant mask");
  }
  if (mask < 0) return IntegerRange::None("bitwise AND with a negative mask");
  IntegerRange x = Operand(other);
  int64_t high = mask;
  if (x.valid && x.min >= 0) high = std::min(high, x.max);
  return Checked(is_signed, 0, high, "bitwise AND");
}

// Full mode: select(c, a, b) lies in the union of a's and b's ranges.
IntegerRange IntegerRangeAnalysis::Evaluator::Select(const Instruction& def, bool is_signed) const {
  IntegerRange a = Convert(Operand(SelectView(def).true_value()), is_signed);
  IntegerRange b = Convert(Operand(SelectView(def).false_value()), is_signed);
  if (!a.valid) return a;
  if (!b.valid) return b;
  return IntegerRange::Of(is_signed, std::min(a.min, b.min), std::max(a.max, b.max));
}

// Full mode: a phi is one of its incoming values.
IntegerRange IntegerRangeAnalysis::Evaluator::Phi(const Instruction& def, bool is_signed) const {
  IntegerRange result = IntegerRange::None("OpPhi without incoming values");
  PhiView phi(def);
  for (size_t i = 0; i < phi.pair_count(); ++i) {
    IntegerRange incoming = Convert(Operand(phi.value(i)), is_signed);
    if (!incoming.valid) return incoming;
    result = Hull(result, incoming, is_signed);
  }
  return result;
}

// Full mode: a zero-extended field of at most count.max bits.
IntegerRange IntegerRangeAnalysis::Evaluator::UnsignedBitField(const Instruction& def,
                                                               bool is_signed) const {
  IntegerRange offset = Operand(BitFieldExtractView(def).offset());
  IntegerRange count = Operand(BitFieldExtractView(def).count());
  if (!count.valid) return IntegerRange::None("bitfield count has no range: " + count.reason);
  // The result is undefined (any value) when offset + count exceeds 32.
  if (!offset.valid || offset.min < 0 || count.min < 0 || offset.max + count.max > 32)
    return IntegerRange::None("bitfield offset + count may exceed 32");
  return Checked(is_signed, 0, (int64_t(1) << count.max) - 1, "bitfield extract");
}

// Full mode: bitfieldInsert(base, insert, offset, count) with constant offset and count
// (offset + count > 32 is undefined): base with bits [offset, offset + count) replaced
// by insert's low bits. For base >= 0, base & ~mask <= base.max; the field is at most
// the mask, and at most insert.max << offset when insert >= 0; and a | b <= a + b for
// non-negative a, b, so the result is in [0, base.max + field.max], also below the
// smallest all-ones value at least max(base.max, field.max). In the i32 reading the
// sign bit is base's (0) when offset + count <= 31.
IntegerRange IntegerRangeAnalysis::Evaluator::BitFieldInsert(const Instruction& def,
                                                             bool is_signed) const {
  BitFieldInsertView view(def);
  int64_t offset = 0, count = 0;
  if (!canonical_.ConstantValue(view.offset(), &offset) ||
      !canonical_.ConstantValue(view.count(), &count) || offset < 0 || count < 0 ||
      offset + count > (is_signed ? 31 : 32))
    return IntegerRange::None(
        "bitfield insert: offset and count are not constants within the value's bits");
  IntegerRange base = Operand(view.base());
  if (!base.valid) return base;
  if (base.min < 0) return IntegerRange::None("bitfield insert into a value that may be negative");
  int64_t mask = ((int64_t(1) << count) - 1) << offset;
  int64_t field = mask;
  IntegerRange insert = Operand(view.insert());
  if (count > 0 && insert.valid && insert.min >= 0 && insert.max <= kU32Max)
    field = std::min(mask, insert.max << offset);
  int64_t widest = std::max(base.max, field);
  int64_t all_ones = 1;
  while (all_ones < widest) all_ones = all_ones * 2 + 1;
  return Checked(is_signed, 0, std::min(base.max + field, all_ones), "bitfield insert");
}

// Full mode: OpCompositeExtract %v <i> where %v = OpLoad of the LocalInvocationId
// variable (possibly through OpCopyObject).
// OpBitcast from a vector of 32-bit integers to another of the same length.
bool IntegerRangeAnalysis::Evaluator::ComponentwiseBitcast(const Instruction& def) const {
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

IntegerRange IntegerRangeAnalysis::Evaluator::ExtractBuiltinComponent(const Instruction& def,
                                                                      bool is_signed) {
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
  if (!origin.empty()) return IntegerRange::None(origin);  // integer_range_origins.cpp
  if (Full() && !builtin && extract.indices().size() == 1)  // integer_range_components.cpp
    return Convert(ComponentRange(extract.composite(), extract.index(0)), is_signed);
  if (!builtin || extract.indices().size() != 1)
    return IntegerRange::None(UnsupportedOpcode(def.opcode));
  if (!Full())
    return IntegerRange::None(
        "component of a loaded built-in vector is not supported in "
        "reference mode");
  return BuiltinComponent(variable->result_id, extract.index(0), is_signed);
}

// ---------------------------------------------------------------------------

IntegerRangeAnalysis::IntegerRangeAnalysis(Module& module, const RangeInputs& inputs,
                                           const IntegerRangeOptions& options)
    : options_(options), evaluator_(std::make_unique<Evaluator>(module, inputs, options)) {}

IntegerRangeAnalysis::~IntegerRangeAnalysis() = default;

IntegerRange IntegerRangeAnalysis::RangeOf(uint32_t value_id) {
  return evaluator_->RangeOf(value_id);
}

IntegerRange IntegerRangeAnalysis::RangeAt(uint32_t value_id, const Instruction& use) {
  const auto key = std::make_pair(value_id, &use);
  auto found = at_use_.find(key);
  if (found != at_use_.end()) return found->second;
  IntegerRange range = ComputeRangeAt(value_id, use);
  at_use_.emplace(key, range);
  return range;
}

IntegerRange IntegerRangeAnalysis::ComputeRangeAt(uint32_t value_id, const Instruction& use) {
  IntegerRange range = evaluator_->RangeAt(value_id, use);
  // In the counted loop of a local solved one iteration at a time, each iteration's
  // value (integer_range_counted_iterations.cpp); both hold, so their meet does.
  IntegerRange counted = evaluator_->CountedAtUse(value_id, use);
  if (!counted.valid) return range;
  counted = range_detail::Convert(counted, range.valid ? range.is_signed : counted.is_signed);
  if (!counted.valid || (range.valid && (counted.min > range.max || counted.max < range.min)))
    return range;
  if (range.valid && counted.min <= range.min && counted.max >= range.max) return range;
  IntegerRange met = counted;
  if (range.valid) {
    met.min = std::max(range.min, counted.min);
    met.max = std::min(range.max, counted.max);
    met.guard = range.guard;
  }
  return met;
}

bool IntegerRangeAnalysis::ProvenBelowArrayLength(uint32_t index, const Instruction& use,
                                                  uint32_t block_pointer, uint32_t member,
                                                  const Instruction** guard) {
  return evaluator_->ProvenBelowArrayLength(index, use, block_pointer, member, guard);
}

// An element of a built-in array (or a component of a built-in vector) selected by a
// value: an Input built-in with no range for any element has none for this one either
// (gl_MeshViewIndicesNV[k] is what the application's view mask makes it). Built-ins
// with ranges (LocalInvocationId, and dispatch built-ins under --max-workgroups) keep
// the analysis's own reason: the union of their components would bound it.
IntegerRange IntegerRangeAnalysis::Evaluator::DynamicBuiltinElement(const Instruction& variable) {
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
