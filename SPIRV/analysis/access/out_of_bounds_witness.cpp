// Out-of-bounds witnesses (see out_of_bounds_witness.h).
#include "SPIRV/analysis/access/out_of_bounds_witness.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <climits>

#include "SPIRV/analysis/memory/pointer_origins.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/integer_folding.h"
#include "SPIRV/ir/workgroup_size.h"

namespace glint::spirv {

// A 32-bit integer or boolean scalar or vector, lane by lane (booleans as 0 / 1).
struct OutOfBoundsWitnesses::Value {
  std::array<uint32_t, 4> lanes{};
  uint32_t count = 0;
  bool is_bool = false;
};

struct OutOfBoundsWitnesses::Invocation {
  std::array<uint32_t, 3> id{};  // LocalInvocationId
  uint32_t index = 0;            // LocalInvocationIndex
};

namespace {

// The shape of values of `type`: lane count and whether they are booleans; false for
// anything but 32-bit integers, booleans and vectors of them.
bool LanesOf(const DefUse& def_use, uint32_t type_id, uint32_t* count, bool* is_bool) {
  const Instruction* type = def_use.Definition(type_id);
  *count = 1;
  if (type && type->opcode == spv::OpTypeVector) {
    *count = TypeVectorView(*type).component_count();
    type = def_use.Definition(TypeVectorView(*type).component_type());
  }
  if (!type || *count < 1 || *count > 4) return false;
  *is_bool = type->opcode == spv::OpTypeBool;
  return *is_bool || (type->opcode == spv::OpTypeInt && TypeIntView(*type).width() == 32);
}

int32_t Signed(uint32_t lane) { return static_cast<int32_t>(lane); }

// One lane of a two-operand operator (SPIRV/ir/integer_folding.h); false where SPIR-V
// leaves the result undefined or GLSL leaves it to the driver (see the header), and for
// an operator whose result is not of the kind asked for.
bool Lane(spv::Op opcode, uint32_t a, uint32_t b, bool is_bool, uint32_t* out) {
  if (FoldsToBoolean(opcode) != is_bool) return false;
  const uint64_t operands[2] = {a, b};
  std::optional<uint64_t> folded =
      FoldIntegerOp(opcode, operands, 2, {32, SignedRemainders::kNonNegativeOnly});
  if (!folded) return false;
  *out = uint32_t(*folded);
  return true;
}

// Whether every use of the pointer `chain` is a load through it.
bool OnlyLoadedThrough(const DefUse& def_use, const Instruction& chain) {
  for (const Use& use : def_use.Uses(chain.result_id))
    if (use.user->opcode != spv::OpLoad || LoadView(*use.user).pointer() != chain.result_id)
      return false;
  return true;
}

}  // namespace

OutOfBoundsWitnesses::OutOfBoundsWitnesses(const Module& module, const DefUse& def_use,
                                           const BuiltInIndex& builtins, CfgLookup cfgs)
    : module_(module), def_use_(def_use), builtins_(builtins), cfgs_(std::move(cfgs)) {}

std::optional<OutOfBoundsWitness> OutOfBoundsWitnesses::Find(const IndexSite& site) const {
  if (site.bound != IndexBound::kFixed || !site.block) return std::nullopt;
  Function* function = def_use_.FunctionOfBlock(site.block);
  int64_t size[3] = {0, 0, 0};
  if (!function || !WorkgroupOf(*function, size) || !ExecutedByEveryInvocation(site, *function))
    return std::nullopt;
  bool is_signed = false;
  const uint32_t index_id = site.index();
  const Instruction* index_def = def_use_.Definition(index_id);
  if (!index_def || !def_use_.IsInt32Type(index_def->type_id, &is_signed)) return std::nullopt;
  uint32_t tried = 0;
  for (int64_t z = 0; z < size[2]; ++z) {
    for (int64_t y = 0; y < size[1]; ++y) {
      for (int64_t x = 0; x < size[0]; ++x) {
        if (tried == kMaxWitnessInvocations) return std::nullopt;
        Invocation invocation;
        invocation.id = {uint32_t(x), uint32_t(y), uint32_t(z)};
        invocation.index = tried++;
        std::optional<Value> value = Evaluate(index_id, invocation, 0);
        // An index this walk cannot evaluate for one invocation is, in practice, one it
        // cannot evaluate for any: stop rather than try the rest.
        if (!value || value->count != 1 || value->is_bool) return std::nullopt;
        uint32_t lane = value->lanes[0];
        if (uint64_t(lane) > site.last) {
          OutOfBoundsWitness witness;
          witness.invocation = invocation.id;
          witness.value = is_signed ? int64_t(Signed(lane)) : int64_t(lane);
          return witness;
        }
      }
    }
  }
  return std::nullopt;
}

// The size of the workgroups of an entry point whose function is `function` and whose
// every workgroup launches all its invocations; false when there is none or the module
// does not fix the size. Invocations are numbered x fastest, as LocalInvocationIndex is.
bool OutOfBoundsWitnesses::WorkgroupOf(const Function& function, int64_t size[3]) const {
  for (const Instruction& entry : module_.entry_points) {
    auto view = ViewIf<EntryPointInterfaceView>(entry);
    if (!view || view->function() != function.id() || !HasWorkgroups(view->model())) continue;
    std::string why;
    if (EntryPointWorkgroupSize(module_, def_use_, builtins_, function.id(), size, &why))
      return true;
  }
  return false;
}

bool OutOfBoundsWitnesses::ExecutedByEveryInvocation(const IndexSite& site,
                                                     Function& function) const {
  // The entry block runs in every invocation; another block when every path from the
  // entry to an exit passes it (the CFG's exits: every terminator without a successor).
  const Cfg& cfg = cfgs_(function);
  return cfg.IsReachable(site.block) && cfg.PostDominates(site.block, cfg.Entry());
}

std::optional<OutOfBoundsWitnesses::Value> OutOfBoundsWitnesses::Evaluate(
    uint32_t id, const Invocation& invocation, uint32_t depth) const {
  const Instruction* def = def_use_.Definition(id);
  if (!def || depth >= kMaxWitnessDepth) return std::nullopt;
  switch (def->opcode) {
    case spv::OpConstant:
    case spv::OpConstantTrue:
    case spv::OpConstantFalse:
    case spv::OpConstantNull:
    case spv::OpConstantComposite:
      return Constant(*def);
    case spv::OpLoad:
      return EvaluateLoad(*def, invocation, depth);
    case spv::OpExtInst:
      return EvaluateGlsl(*def, invocation, depth);
    default:
      return EvaluateOperator(*def, invocation, depth);
  }
}

std::optional<OutOfBoundsWitnesses::Value> OutOfBoundsWitnesses::Constant(
    const Instruction& def) const {
  Value value;
  if (!LanesOf(def_use_, def.type_id, &value.count, &value.is_bool)) return std::nullopt;
  switch (def.opcode) {
    case spv::OpConstantNull:
      return value;
    case spv::OpConstantTrue:
    case spv::OpConstantFalse:
      value.lanes[0] = def.opcode == spv::OpConstantTrue;
      return value;
    case spv::OpConstant: {
      uint64_t bits = 0;
      if (!def_use_.IntConstant(def.result_id, &bits)) return std::nullopt;
      value.lanes[0] = uint32_t(bits);
      return value;
    }
    case spv::OpConstantComposite: {
      auto constituents = ConstantCompositeView(def).constituents();
      if (constituents.size() != value.count) return std::nullopt;
      for (uint32_t i = 0; i < value.count; ++i) {
        const Instruction* part = def_use_.Definition(constituents[i]);
        std::optional<Value> lane = part ? Constant(*part) : std::nullopt;
        if (!lane || lane->count != 1) return std::nullopt;
        value.lanes[i] = lane->lanes[0];
      }
      return value;
    }
    default:
      return std::nullopt;
  }
}

// Whether every use of `pointer` in code is a load through it or an access chain whose
// uses are the same (debug information aside).
bool OutOfBoundsWitnesses::OnlyRead(uint32_t pointer, int depth) const {
  for (const Use& use : def_use_.Uses(pointer)) {
    const Instruction& user = *use.user;
    if (!def_use_.BlockOf(&user)) continue;  // names, decorations, interfaces
    if (user.opcode == spv::OpLoad && use.word == 0) continue;
    if ((user.opcode == spv::OpAccessChain || user.opcode == spv::OpInBoundsAccessChain) &&
        use.word == 0 && depth < 8 && OnlyRead(user.result_id, depth + 1))
      continue;
    if (user.opcode == spv::OpExtInst && ExtInstView(user).set() != module_.GlslStd450Import()) {
      const Instruction* set = def_use_.Definition(ExtInstView(user).set());
      if (set && set->StringAt(0).rfind("NonSemantic.", 0) == 0) continue;
    }
    return false;
  }
  return true;
}

// A load from a constant table at indices evaluated for the invocation; nullopt when the
// load is not from one, an index is not evaluated or leaves its array.
std::optional<OutOfBoundsWitnesses::Value> OutOfBoundsWitnesses::EvaluateTableLoad(
    const Instruction& load, const Invocation& invocation, uint32_t depth) const {
  std::vector<uint32_t> index_ids;
  PointerOrigin origin;
  if (!PointerOrigins(def_use_).PathOf(LoadView(load).pointer(), &origin, &index_ids) ||
      !origin.variable_id() || !VariableView(*origin.root).has_initializer())
    return std::nullopt;
  const Instruction* root = origin.root;
  spv::StorageClass storage = VariableView(*root).storage_class();
  if ((storage != spv::StorageClassPrivate && storage != spv::StorageClassFunction) ||
      !OnlyRead(root->result_id, 0))
    return std::nullopt;
  const Instruction* part = def_use_.Definition(VariableView(*root).initializer());
  for (uint32_t index : index_ids) {
    std::optional<Value> selected = Evaluate(index, invocation, depth + 1);
    if (!part || !selected || selected->count != 1 || selected->is_bool) return std::nullopt;
    if (part->opcode == spv::OpConstantNull) continue;  // every part of it is null
    if (part->opcode != spv::OpConstantComposite) return std::nullopt;
    auto constituents = ConstantCompositeView(*part).constituents();
    if (selected->lanes[0] >= constituents.size()) return std::nullopt;
    part = def_use_.Definition(constituents[selected->lanes[0]]);
  }
  if (!part) return std::nullopt;
  if (part->opcode == spv::OpConstantNull) {
    Value null;
    if (!LanesOf(def_use_, load.type_id, &null.count, &null.is_bool)) return std::nullopt;
    return null;
  }
  return Constant(*part);
}

std::optional<OutOfBoundsWitnesses::Value> OutOfBoundsWitnesses::EvaluateLoad(
    const Instruction& load, const Invocation& invocation, uint32_t depth) const {
  if (std::optional<Value> table = EvaluateTableLoad(load, invocation, depth)) return table;
  Value value;
  if (!LanesOf(def_use_, load.type_id, &value.count, &value.is_bool) || value.is_bool)
    return std::nullopt;
  const Instruction* pointer = def_use_.Definition(LoadView(load).pointer());
  if (!pointer) return std::nullopt;
  int component = -1;  // a component of LocalInvocationId, through an access chain
  if (pointer->opcode == spv::OpAccessChain || pointer->opcode == spv::OpInBoundsAccessChain) {
    AccessChainView chain(*pointer);
    uint64_t selected = 0;
    if (chain.index_count() != 1 || !def_use_.IntConstant(chain.index(0), &selected) ||
        selected > 2)
      return std::nullopt;
    component = int(selected);
    pointer = def_use_.Definition(chain.base());
  }
  if (!pointer || pointer->opcode != spv::OpVariable) return std::nullopt;
  spv::StorageClass storage = VariableView(*pointer).storage_class();
  if (storage == spv::StorageClassFunction) {
    const Instruction* store = OnlyStoreDominating(*pointer, load);
    std::optional<Value> stored =
        store ? Evaluate(StoreView(*store).object(), invocation, depth + 1) : std::nullopt;
    if (!stored || component < 0) return stored;
    if (uint32_t(component) >= stored->count || stored->is_bool) return std::nullopt;
    value.lanes[0] = stored->lanes[size_t(component)];
    return value.count == 1 ? std::optional<Value>(value) : std::nullopt;
  }
  if (storage != spv::StorageClassInput) return std::nullopt;
  std::optional<uint32_t> builtin = builtins_.Of(pointer->result_id);
  if (builtin == uint32_t(spv::BuiltInLocalInvocationIndex) && component < 0 && value.count == 1) {
    value.lanes[0] = invocation.index;
    return value;
  }
  if (builtin != uint32_t(spv::BuiltInLocalInvocationId)) return std::nullopt;
  if (component >= 0 && value.count == 1) {
    value.lanes[0] = invocation.id[size_t(component)];
    return value;
  }
  if (component >= 0 || value.count != 3) return std::nullopt;
  for (size_t i = 0; i < 3; ++i) value.lanes[i] = invocation.id[i];
  return value;
}

// The one OpStore to `variable` (a Function variable), when it dominates `load` and the
// variable's other uses are loads (also through access chains only loaded) and debug
// information; null otherwise.
const Instruction* OutOfBoundsWitnesses::OnlyStoreDominating(const Instruction& variable,
                                                             const Instruction& load) const {
  const Instruction* store = nullptr;
  for (const Use& use : def_use_.Uses(variable.result_id)) {
    const Instruction& user = *use.user;
    if (user.opcode == spv::OpLoad && LoadView(user).pointer() == variable.result_id) continue;
    if (user.opcode == spv::OpName || user.opcode == spv::OpDecorate) continue;
    if ((user.opcode == spv::OpAccessChain || user.opcode == spv::OpInBoundsAccessChain) &&
        AccessChainView(user).base() == variable.result_id && OnlyLoadedThrough(def_use_, user))
      continue;
    if (user.opcode == spv::OpExtInst && ExtInstView(user).set() != module_.GlslStd450Import()) {
      // NonSemantic debug information (DebugDeclare) names the variable; it writes nothing.
      const Instruction* set = def_use_.Definition(ExtInstView(user).set());
      if (set && set->StringAt(0).rfind("NonSemantic.", 0) == 0) continue;
      return nullptr;
    }
    if (user.opcode != spv::OpStore || StoreView(user).pointer() != variable.result_id ||
        StoreView(user).object() == variable.result_id || store)
      return nullptr;
    store = &user;
  }
  if (!store) return nullptr;
  Block* store_block = def_use_.BlockOf(store);
  Block* load_block = def_use_.BlockOf(&load);
  Function* function = def_use_.FunctionOf(&load);
  if (!store_block || !load_block || !function || def_use_.FunctionOf(store) != function)
    return nullptr;
  if (store_block != load_block)
    return cfgs_(*function).Dominates(store_block, load_block) ? store : nullptr;
  for (const Instruction& inst : load_block->instructions) {
    if (&inst == store) return store;
    if (&inst == &load) return nullptr;
  }
  return nullptr;
}

std::optional<OutOfBoundsWitnesses::Value> OutOfBoundsWitnesses::EvaluateOperator(
    const Instruction& def, const Invocation& invocation, uint32_t depth) const {
  Value result;
  if (!LanesOf(def_use_, def.type_id, &result.count, &result.is_bool)) return std::nullopt;
  auto operand = [&](uint32_t id) { return Evaluate(id, invocation, depth + 1); };
  switch (def.opcode) {
    case spv::OpCopyObject:
    case spv::OpBitcast: {
      std::optional<Value> x = operand(UnaryOpView(def).operand());
      if (!x || x->count != result.count || x->is_bool != result.is_bool) return std::nullopt;
      return x;
    }
    case spv::OpSNegate:
    case spv::OpNot:
    case spv::OpLogicalNot: {
      std::optional<Value> x = operand(UnaryOpView(def).operand());
      if (!x || x->count != result.count) return std::nullopt;
      for (uint32_t i = 0; i < result.count; ++i) {
        const uint64_t lane = x->lanes[i];
        result.lanes[i] = uint32_t(*FoldIntegerOp(def.opcode, &lane, 1));
      }
      return result;
    }
    case spv::OpSelect: {
      SelectView select(def);
      std::optional<Value> condition = operand(select.condition());
      std::optional<Value> yes = operand(select.true_value());
      std::optional<Value> no = operand(select.false_value());
      if (!condition || !yes || !no || !condition->is_bool || yes->count != result.count ||
          no->count != result.count || (condition->count != 1 && condition->count != result.count))
        return std::nullopt;
      for (uint32_t i = 0; i < result.count; ++i)
        result.lanes[i] =
            condition->lanes[condition->count == 1 ? 0 : i] ? yes->lanes[i] : no->lanes[i];
      return result;
    }
    case spv::OpCompositeExtract:
    case spv::OpCompositeConstruct:
    case spv::OpVectorShuffle:
      return EvaluateComposite(def, result, invocation, depth);
    default:
      break;
  }
  if (!BinaryOpView<const Instruction>::Accepts(def.opcode) || def.words.size() != 2)
    return std::nullopt;
  std::optional<Value> a = operand(BinaryOpView(def).left());
  std::optional<Value> b = operand(BinaryOpView(def).right());
  if (!a || !b || a->count != result.count || b->count != result.count) return std::nullopt;
  if (!result.is_bool && (a->is_bool || b->is_bool)) return std::nullopt;
  for (uint32_t i = 0; i < result.count; ++i)
    if (!Lane(def.opcode, a->lanes[i], b->lanes[i], result.is_bool, &result.lanes[i]))
      return std::nullopt;
  return result;
}

// OpCompositeExtract, OpCompositeConstruct and OpVectorShuffle of vectors, lane by lane;
// `result` has the result's shape.
std::optional<OutOfBoundsWitnesses::Value> OutOfBoundsWitnesses::EvaluateComposite(
    const Instruction& def, Value result, const Invocation& invocation, uint32_t depth) const {
  auto operand = [&](uint32_t id) { return Evaluate(id, invocation, depth + 1); };
  switch (def.opcode) {
    case spv::OpCompositeExtract: {
      CompositeExtractView extract(def);
      std::optional<Value> x = operand(extract.composite());
      if (!x || extract.indices().size() != 1 || extract.index(0) >= x->count || result.count != 1)
        return std::nullopt;
      result.lanes[0] = x->lanes[extract.index(0)];
      return result;
    }
    case spv::OpCompositeConstruct: {
      uint32_t filled = 0;
      for (uint32_t constituent : CompositeConstructView(def).constituents()) {
        std::optional<Value> part = operand(constituent);
        if (!part || filled + part->count > result.count) return std::nullopt;
        for (uint32_t i = 0; i < part->count; ++i) result.lanes[filled++] = part->lanes[i];
      }
      return filled == result.count ? std::optional<Value>(result) : std::nullopt;
    }
    case spv::OpVectorShuffle: {
      VectorShuffleView shuffle(def);
      std::optional<Value> first = operand(shuffle.vector1());
      std::optional<Value> second = operand(shuffle.vector2());
      if (!first || !second || shuffle.components().size() != result.count) return std::nullopt;
      for (uint32_t i = 0; i < result.count; ++i) {
        uint32_t pick = shuffle.component(i);
        if (pick >= first->count + second->count) return std::nullopt;  // undefined lane
        result.lanes[i] =
            pick < first->count ? first->lanes[pick] : second->lanes[pick - first->count];
      }
      return result;
    }
    default:
      return std::nullopt;
  }
}

std::optional<OutOfBoundsWitnesses::Value> OutOfBoundsWitnesses::EvaluateGlsl(
    const Instruction& def, const Invocation& invocation, uint32_t depth) const {
  ExtInstView ext(def);
  Value result;
  if (ext.set() != module_.GlslStd450Import() ||
      !LanesOf(def_use_, def.type_id, &result.count, &result.is_bool) || result.is_bool)
    return std::nullopt;
  std::vector<Value> args;
  for (uint32_t id : ext.operands()) {
    std::optional<Value> arg = Evaluate(id, invocation, depth + 1);
    if (!arg || arg->count != result.count || arg->is_bool) return std::nullopt;
    args.push_back(*arg);
  }
  const uint32_t instruction = ext.instruction_number();
  const size_t wanted = instruction == GLSLstd450SAbs                                        ? 1
                        : instruction == GLSLstd450UClamp || instruction == GLSLstd450SClamp ? 3
                                                                                             : 2;
  if (args.size() != wanted) return std::nullopt;
  for (uint32_t i = 0; i < result.count; ++i) {
    uint32_t a = args[0].lanes[i];
    uint32_t b = wanted > 1 ? args[1].lanes[i] : 0;
    uint32_t c = wanted > 2 ? args[2].lanes[i] : 0;
    switch (instruction) {
      case GLSLstd450SAbs:
        if (Signed(a) == INT32_MIN) return std::nullopt;
        result.lanes[i] = Signed(a) < 0 ? 0u - a : a;
        break;
      case GLSLstd450UMin:
        result.lanes[i] = std::min(a, b);
        break;
      case GLSLstd450UMax:
        result.lanes[i] = std::max(a, b);
        break;
      case GLSLstd450SMin:
        result.lanes[i] = uint32_t(std::min(Signed(a), Signed(b)));
        break;
      case GLSLstd450SMax:
        result.lanes[i] = uint32_t(std::max(Signed(a), Signed(b)));
        break;
      case GLSLstd450UClamp:
        if (b > c) return std::nullopt;  // undefined
        result.lanes[i] = std::min(std::max(a, b), c);
        break;
      case GLSLstd450SClamp:
        if (Signed(b) > Signed(c)) return std::nullopt;
        result.lanes[i] = uint32_t(std::min(std::max(Signed(a), Signed(b)), Signed(c)));
        break;
      default:
        return std::nullopt;
    }
  }
  return result;
}

}  // namespace glint::spirv
