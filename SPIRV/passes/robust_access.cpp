#include "robust_access.h"

#include <map>
#include <optional>
#include <tuple>

#include "SPIRV/analysis/integer_range_analysis.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/source_lines.h"
#include "access_report.h"
#include "range_report.h"
#include "robust_access_emit.h"
#include "robust_access_images.h"

namespace glint::spirv {

namespace {

// What bounds an index.
enum class LimitKind {
  kConstant,      // a fixed-size array, matrix or vector: `limit` is the last index
  kSpecConstant,  // an array whose length is the specialization constant `length_id`
  kRuntimeArray,  // the last member of a block: the length comes from OpArrayLength
};

// Where OpArrayLength finds the block holding a runtime array: the pointer `base`
// followed by the first `path_length` indices of the access chain `path_owner`.
struct BlockPath {
  uint32_t base = 0;
  const Instruction* path_owner = nullptr;
  size_t path_length = 0;
  uint32_t block_type = 0;
  uint32_t member = 0;
  spv::StorageClass storage = spv::StorageClassStorageBuffer;
};

// One index operand that needs a clamp.
struct IndexClamp {
  IndexClamp(const InsertionPoint& where, Instruction* accessing, uint32_t index_position)
      : at(where), access(accessing), position(index_position) {}
  // The index operand, read and rewritten in place.
  uint32_t& index() const { return IndexedAccessView(*access).index(position); }
  InsertionPoint at;
  Instruction* access;
  uint32_t position;              // of the index in IndexedAccessView(*access)
  size_t decision = kNoDecision;  // its record in the access report
  static constexpr size_t kNoDecision = ~size_t(0);
  LimitKind kind = LimitKind::kConstant;
  uint64_t limit = 0;
  uint32_t length_id = 0;
  BlockPath block;
};

const char* OpcodeText(spv::Op opcode) { return grammar::OpcodeName(opcode); }

bool IsAccessChain(spv::Op opcode) {
  return opcode == spv::OpAccessChain || opcode == spv::OpInBoundsAccessChain;
}

bool IsPtrAccessChain(spv::Op opcode) {
  return opcode == spv::OpPtrAccessChain || opcode == spv::OpInBoundsPtrAccessChain;
}

bool IsDescriptorStorage(uint32_t storage) {
  return storage == spv::StorageClassUniformConstant || storage == spv::StorageClassUniform ||
         storage == spv::StorageClassStorageBuffer;
}

class State {
 public:
  State(Module& module, PassContext& context)
      : module_(module),
        context_(context),
        def_use_(context.analyses->GetDefUse()),
        emitter_(module, def_use_),
        lines_(context.analyses->GetSourceLines()) {}

  PassResult Process();

 private:
  void CollectBlock(Block& block);
  void CollectAccessChain(const InsertionPoint& at, Instruction& access);
  bool CollectChainStep(const InsertionPoint& at, Instruction& access, uint32_t position,
                        uint32_t* type_id, std::optional<BlockPath>* last_struct);
  void CollectVectorDynamic(const InsertionPoint& at, Instruction& access);
  void CollectImage(const InsertionPoint& at, Instruction& access);
  void LeaveAllUnbounded(const Instruction& access, const std::string& reason);
  const Instruction* PointerTypeOf(uint32_t value) const;
  std::optional<BlockPath> BlockOfChainBase(uint32_t base);
  uint32_t WalkType(uint32_t type_id, const Instruction& chain, size_t count) const;

  void Decide(IndexClamp clamp);
  // The context's range analysis for Options::range_analysis (shared with range-report).
  IntegerRangeAnalysis& Ranges() {
    return context_.analyses->GetIntegerRanges(RangeOptionsFor(context_.options));
  }
  bool ProvenInBounds(const IndexClamp& clamp, uint32_t index, AccessRecord* record);
  bool BelowLength(const IndexClamp& clamp, uint32_t index, const Instruction** guard);
  void LeaveUnbounded(const Instruction& access, uint32_t position, const std::string& reason);
  AccessRecord NewRecord(const Instruction& access, uint32_t position);
  AccessRecord NewRecord(const Instruction& access, uint32_t object, uint32_t index_id,
                         uint32_t position);
  size_t AddRecord(AccessRecord record, bool only_if_indexed = false);

  uint32_t EmitClamp(const IndexClamp& clamp);
  uint32_t LimitOf(const IndexClamp& clamp, uint32_t width);
  uint32_t SpecConstantLastIndex(uint32_t length_id);
  uint32_t RuntimeArrayLastIndex(const IndexClamp& clamp);

  Module& module_;
  PassContext& context_;
  const DefUse& def_use_;
  ClampEmitter emitter_;
  SourceLines& lines_;  // locates guards (decisions are made before anything changes)
  std::vector<IndexClamp> clamps_;
  std::vector<InsertionPoint> image_accesses_;
  std::vector<std::pair<Instruction*, uint32_t>> folds_;  // (access, position) -> constant
  std::vector<uint32_t> fold_values_;
  std::unordered_map<uint32_t, uint32_t> spec_last_index_;
  // (function, block variable, member) -> last valid index, computed in the entry block.
  std::map<std::tuple<Function*, uint32_t, uint32_t>, uint32_t> hoisted_last_index_;
  SourceLocation location_;  // from the last OpLine seen
};

PassResult State::Process() {
  if (module_.HasCapability(spv::CapabilityKernel))
    return PassResult::Failed("Kernel modules are not supported (the clamps use GLSL.std.450)");
  // Collect every access and decide its verdict on the unmodified module.
  for (Function& function : module_.functions) {
    for (Block& block : function.blocks) {
      location_ = lines_.AtStart(&block, function);  // without OpLine: its dominator's line
      CollectBlock(block);
    }
  }
  uint32_t rewrites = 0;
  // Fold constant out-of-bounds indices.
  for (size_t i = 0; i < folds_.size(); ++i) {
    IndexedAccessView(*folds_[i].first).index(folds_[i].second) = fold_values_[i];
    ++rewrites;
  }
  // Clamp dynamic indices, in module order (a chain's base is rewritten before its uses).
  for (const IndexClamp& clamp : clamps_) {
    rewrites += EmitClamp(clamp);
    if (clamp.decision != IndexClamp::kNoDecision)
      context_.accesses->SetDecisionIndex(clamp.decision, clamp.index());
  }
  // Clamp image coordinates, levels and samples.
  for (const InsertionPoint& at : image_accesses_)
    rewrites += ClampImageAccess(at, module_, emitter_);
  if (!rewrites) return PassResult::Unchanged();
  // Clamps are straight-line code in the access's block: no block or branch changes.
  return PassResult::Changed(rewrites).Preserving(Analysis::kCfg);
}

void State::CollectBlock(Block& block) {
  for (auto it = block.instructions.begin(); it != block.instructions.end(); ++it) {
    Instruction& inst = *it;
    InsertionPoint at{&block, it};
    if (lines_.Apply(inst, &location_)) continue;
    if (IsAccessChain(inst.opcode)) {
      CollectAccessChain(at, inst);
    } else if (IsPtrAccessChain(inst.opcode)) {
      LeaveAllUnbounded(inst, "OpPtrAccessChain is not bounded by Glint");
    } else if (inst.opcode == spv::OpVectorExtractDynamic ||
               inst.opcode == spv::OpVectorInsertDynamic) {
      CollectVectorDynamic(at, inst);
    } else if (IsImageTexelAccess(inst.opcode)) {
      CollectImage(at, inst);
    }
  }
}

// The OpTypePointer of a pointer value, null when its type is unknown or no pointer.
const Instruction* State::PointerTypeOf(uint32_t value) const {
  const Instruction* type = emitter_.TypeDefinition(emitter_.TypeOfValue(value));
  return type && type->opcode == spv::OpTypePointer ? type : nullptr;
}

void State::CollectAccessChain(const InsertionPoint& at, Instruction& access) {
  AccessChainView chain(access);
  const Instruction* pointer = PointerTypeOf(chain.base());
  if (!pointer) return;
  spv::StorageClass storage = TypePointerView(*pointer).storage_class();
  uint32_t type_id = TypePointerView(*pointer).pointee();
  uint32_t first = 0;
  if (storage == spv::StorageClassPhysicalStorageBuffer) {
    LeaveAllUnbounded(access, "physical storage buffer pointers are not bounded by Glint");
    return;
  }
  const Instruction* base = def_use_.Definition(chain.base());
  const Instruction* type = emitter_.TypeDefinition(type_id);
  if (base && base->opcode == spv::OpVariable && IsDescriptorStorage(storage) && type &&
      (type->opcode == spv::OpTypeArray || type->opcode == spv::OpTypeRuntimeArray) &&
      chain.index_count() > 0) {
    LeaveUnbounded(access, 0, "descriptor array indexed at run time");
    type_id = IndexedTypeOf(*type);
    first = 1;
  }
  std::optional<BlockPath> last_struct = BlockOfChainBase(chain.base());
  for (uint32_t k = first; k < chain.index_count(); ++k)
    if (!CollectChainStep(at, access, k, &type_id, &last_struct)) return;
}

// One step of an access chain: decides the clamp of index `position` and moves
// `type_id` to the element type. False when the type cannot be followed.
bool State::CollectChainStep(const InsertionPoint& at, Instruction& access, uint32_t position,
                             uint32_t* type_id, std::optional<BlockPath>* last_struct) {
  const Instruction* type = emitter_.TypeDefinition(*type_id);
  if (!type) return false;
  AccessChainView chain(access);
  IndexClamp clamp(at, &access, position);
  switch (type->opcode) {
    case spv::OpTypeStruct: {
      uint64_t member = 0;
      if (!def_use_.IntConstant(chain.index(position), &member) ||
          member >= TypeStructView(*type).member_count())
        return false;
      BlockPath path{chain.base(), &access, position, *type_id, static_cast<uint32_t>(member)};
      path.storage = TypePointerView(*PointerTypeOf(chain.base())).storage_class();
      *type_id = IndexedTypeOf(*type, member);
      *last_struct = path;
      return true;
    }
    case spv::OpTypeArray: {
      uint64_t length = 0;
      uint32_t length_id = TypeArrayView(*type).length_id();
      if (def_use_.IntConstant(length_id, &length) && length > 0) {
        clamp.limit = length - 1;
      } else {
        clamp.kind = LimitKind::kSpecConstant;
        clamp.length_id = length_id;
      }
      break;
    }
    case spv::OpTypeRuntimeArray:
      if (!*last_struct) {
        LeaveUnbounded(access, position, "runtime array not reached through its block");
        return false;
      }
      clamp.kind = LimitKind::kRuntimeArray;
      clamp.block = **last_struct;
      break;
    case spv::OpTypeMatrix:
      clamp.limit = TypeMatrixView(*type).column_count() - 1;
      break;
    case spv::OpTypeVector:
      clamp.limit = TypeVectorView(*type).component_count() - 1;
      break;
    default:
      return false;
  }
  *type_id = IndexedTypeOf(*type);
  *last_struct = std::nullopt;
  Decide(clamp);
  return true;
}

// For a chain whose base already points into a runtime array (a chain of chains), the
// block that holds the array, found through the base chain's own indices.
std::optional<BlockPath> State::BlockOfChainBase(uint32_t base) {
  const Instruction* definition = def_use_.Definition(base);
  if (!definition || !IsAccessChain(definition->opcode)) return std::nullopt;
  AccessChainView chain(*definition);
  if (chain.index_count() == 0) return std::nullopt;
  const Instruction* pointer = PointerTypeOf(chain.base());
  if (!pointer) return std::nullopt;
  size_t last = chain.index_count() - 1;
  uint32_t block_type = WalkType(TypePointerView(*pointer).pointee(), *definition, last);
  const Instruction* block = emitter_.TypeDefinition(block_type);
  uint64_t member = 0;
  if (!block || block->opcode != spv::OpTypeStruct ||
      !def_use_.IntConstant(chain.index(last), &member) ||
      member >= TypeStructView(*block).member_count())
    return std::nullopt;
  BlockPath path{chain.base(), definition, last, block_type, static_cast<uint32_t>(member)};
  path.storage = TypePointerView(*pointer).storage_class();
  return path;
}

// The type reached from `type_id` through the first `count` indices of `chain`.
uint32_t State::WalkType(uint32_t type_id, const Instruction& chain, size_t count) const {
  AccessChainView view(chain);
  for (size_t k = 0; k < count && type_id; ++k) {
    const Instruction* type = emitter_.TypeDefinition(type_id);
    if (!type) return 0;
    uint64_t member = 0;
    if (type->opcode == spv::OpTypeStruct && !def_use_.IntConstant(view.index(k), &member))
      return 0;
    type_id = IndexedTypeOf(*type, member);  // 0 for a non-composite or a missing member
  }
  return type_id;
}

void State::CollectVectorDynamic(const InsertionPoint& at, Instruction& access) {
  const Instruction* vector =
      emitter_.TypeDefinition(emitter_.TypeOfValue(IndexedAccessView(access).object()));
  if (!vector || vector->opcode != spv::OpTypeVector) return;
  IndexClamp clamp(at, &access, 0);
  clamp.limit = TypeVectorView(*vector).component_count() - 1;
  Decide(clamp);
}

void State::CollectImage(const InsertionPoint& at, Instruction& access) {
  ImageAccessView image(access);
  AccessRecord record = NewRecord(access, image.image(), image.coordinate(), 0);
  std::string refusal = ImageAccessRefusal(access, emitter_);
  if (!refusal.empty()) {
    record.verdict = AccessVerdict::kUnbounded;
    record.reason = refusal;
  } else {
    record.verdict = AccessVerdict::kClamped;
    record.reason = "image limits are only known at run time";
    image_accesses_.push_back(at);
  }
  AddRecord(std::move(record));
}

// Chooses between keeping, folding, proving and clamping one index, and records it.
void State::Decide(IndexClamp clamp) {
  uint32_t index = clamp.index();
  AccessRecord record = NewRecord(*clamp.access, clamp.position);
  record.limit = clamp.kind == LimitKind::kConstant ? static_cast<int64_t>(clamp.limit) : -1;
  uint64_t value = 0;
  uint32_t width = 32;
  bool is_signed = false;
  if (def_use_.IntConstant(index, &value, &is_signed, &width)) {
    if (width < 64) value &= (uint64_t(1) << width) - 1;  // negative: a huge unsigned value
    // Index 0 is in bounds of every array (lengths are at least 1; an empty runtime
    // array clamps to 0 too), as is any constant up to a constant limit.
    if (value == 0 || (clamp.kind == LimitKind::kConstant && value <= clamp.limit)) {
      record.has_range = true;
      record.range_min = record.range_max = static_cast<int64_t>(value);
      record.verdict = AccessVerdict::kNotClamped;  // a constant needs no proof
      AddRecord(std::move(record), /*only_if_indexed=*/true);
      return;
    }
    if (clamp.kind == LimitKind::kConstant) {
      folds_.push_back({clamp.access, clamp.position});
      fold_values_.push_back(emitter_.IntConstant(emitter_.TypeOfValue(index), clamp.limit));
      record.index_id = fold_values_.back();
      record.has_range = true;
      record.range_min = record.range_max = static_cast<int64_t>(value);
      record.verdict = AccessVerdict::kClamped;
      AddRecord(std::move(record));
      return;
    }
  }
  if (ProvenInBounds(clamp, index, &record)) {
    record.verdict = AccessVerdict::kProvenInBounds;
    AddRecord(std::move(record));
    return;
  }
  record.verdict = AccessVerdict::kClamped;
  clamp.decision = AddRecord(std::move(record));
  clamps_.push_back(clamp);
}

// Asks the range analysis whether `index` stays within the clamp's limit, and notes the
// range it answered in `record`. Limits known only at run time are never proven, except
// that index 0 is in bounds of every array whose length is a specialization constant.
bool State::ProvenInBounds(const IndexClamp& clamp, uint32_t index, AccessRecord* record) {
  IntegerRange range = Ranges().RangeAt(index, *clamp.access);
  record->has_range = range.valid;
  record->range_min = range.min;
  record->range_max = range.max;
  record->reason = range.reason;
  const Instruction* guard = range.guard;
  bool proven = false;
  switch (clamp.kind) {
    case LimitKind::kConstant:
      proven = range.ProvesWithin(static_cast<int64_t>(clamp.limit));
      break;
    case LimitKind::kSpecConstant:
      proven = range.ProvesWithin(0);
      break;
    case LimitKind::kRuntimeArray:
      proven = BelowLength(clamp, index, &guard);
      break;
  }
  if (guard) record->guard = lines_.At(guard);
  return proven;
}

// A runtime-array index that a guard proves below OpArrayLength of the block the chain
// reaches directly (a block variable, or a pointer with no indices between it and the
// member; a path through a descriptor array is not matched).
bool State::BelowLength(const IndexClamp& clamp, uint32_t index, const Instruction** guard) {
  if (clamp.block.path_length != 0) return false;
  return Ranges().ProvenBelowArrayLength(index, *clamp.access, clamp.block.base, clamp.block.member,
                                         guard);
}

void State::LeaveUnbounded(const Instruction& access, uint32_t position,
                           const std::string& reason) {
  uint64_t value = 0;
  if (def_use_.IntConstant(IndexedAccessView(access).index(position), &value))
    return;  // constants are not accesses
  AccessRecord record = NewRecord(access, position);
  record.verdict = AccessVerdict::kUnbounded;
  record.reason = reason;
  AddRecord(std::move(record));
}

// Every index of `access` (an OpPtrAccessChain's Element too) is left as it is.
void State::LeaveAllUnbounded(const Instruction& access, const std::string& reason) {
  for (uint32_t position = 0; position < IndexedAccessView(access).index_count(); ++position)
    LeaveUnbounded(access, position, reason);
}

// A record for the index at `position` of the indexed access `access`.
AccessRecord State::NewRecord(const Instruction& access, uint32_t position) {
  IndexedAccessView indexed(access);
  return NewRecord(access, indexed.object(), indexed.index(position), position);
}

// A record for `index_id` of `access` into `object`, keyed as the range report keys it.
AccessRecord State::NewRecord(const Instruction& access, uint32_t object, uint32_t index_id,
                              uint32_t position) {
  AccessRecord record;
  record.location = location_;
  record.instruction = OpcodeText(access.opcode);
  uint32_t root = object;
  while (const Instruction* def = def_use_.Definition(root)) {
    if (!IsAccessChain(def->opcode) && !IsPtrAccessChain(def->opcode)) break;
    root = AccessChainView(*def).base();
  }
  // A block instance is often unnamed (glslang names it ""): use its block's name.
  std::string name = module_.NameOf(root);
  const Instruction* pointer = PointerTypeOf(root);
  if (name.empty() && pointer) name = module_.NameOf(TypePointerView(*pointer).pointee());
  record.object = name.empty() ? "%" + std::to_string(root) : name;
  record.index_id = index_id;
  record.access_id = access.result_id;
  record.index_position = position;
  return record;
}

// Adds the decision to the run's access report (when collecting); returns its handle.
size_t State::AddRecord(AccessRecord record, bool only_if_indexed) {
  if (!context_.report || !context_.options.collect_ranges) return IndexClamp::kNoDecision;
  return context_.accesses->AddDecision(std::move(record), only_if_indexed);
}

// Emits the clamp of one index; returns 1 (one clamp).
uint32_t State::EmitClamp(const IndexClamp& clamp) {
  uint32_t index = clamp.index();
  uint32_t width = 32;
  bool is_signed = false;
  emitter_.IntTypeInfo(emitter_.TypeOfValue(index), &width, &is_signed);
  if (clamp.kind == LimitKind::kConstant && clamp.limit == 0) {
    // One element: every clamped index is 0.
    clamp.index() = emitter_.IntConstant(emitter_.TypeOfValue(index), 0);
    return 1;
  }
  uint32_t unsigned_index = emitter_.AsUnsigned(clamp.at, index);
  uint32_t limit = LimitOf(clamp, width);
  clamp.index() = emitter_.UMin(clamp.at, emitter_.UintType(width), unsigned_index, limit);
  return 1;
}

// The largest valid index, as an unsigned value of `width` bits.
uint32_t State::LimitOf(const IndexClamp& clamp, uint32_t width) {
  switch (clamp.kind) {
    case LimitKind::kConstant:
      return emitter_.IntConstant(emitter_.UintType(width), clamp.limit);
    case LimitKind::kSpecConstant:
      return emitter_.ToWidth(clamp.at, SpecConstantLastIndex(clamp.length_id), width);
    case LimitKind::kRuntimeArray:
      return emitter_.ToWidth(clamp.at, RuntimeArrayLastIndex(clamp), width);
  }
  return 0;
}

// length - 1 as an OpSpecConstantOp, so that it follows the specialized length.
uint32_t State::SpecConstantLastIndex(uint32_t length_id) {
  auto found = spec_last_index_.find(length_id);
  if (found != spec_last_index_.end()) return found->second;
  uint32_t width = 32;
  bool is_signed = false;
  emitter_.IntTypeInfo(emitter_.TypeOfValue(length_id), &width, &is_signed);
  uint32_t type = emitter_.UintType(width);
  uint32_t one = emitter_.IntConstant(type, 1);
  uint32_t id = module_.TakeNextId();
  module_.types_values.emplace_back(spv::OpSpecConstantOp, type, id,
                                    std::vector<uint32_t>{spv::OpISub, length_id, one});
  spec_last_index_[length_id] = id;
  return id;
}

// max(OpArrayLength, 1) - 1 for the block the clamp's runtime array lives in. When the
// block is a module-scope variable itself, its length cannot change while the shader
// runs, so it is computed once per function, at the top of the entry block, and shared
// by every clamp of that function (a loop then pays one UMin per access, not four
// instructions). OpArrayLength is not convergent: moving it adds no control dependence.
uint32_t State::RuntimeArrayLastIndex(const IndexClamp& clamp) {
  const BlockPath& path = clamp.block;
  const Instruction* base = def_use_.Definition(path.base);
  Function* function = def_use_.FunctionOf(&clamp.at.block->label);
  if (path.path_length == 0 && base && !def_use_.FunctionOf(base) && function) {
    auto key = std::make_tuple(function, path.base, path.member);
    auto found = hoisted_last_index_.find(key);
    if (found != hoisted_last_index_.end()) return found->second;
    Block& entry = function->blocks.front();
    InsertionPoint top{&entry, entry.FirstInsertionPoint()};
    uint32_t uint_type = emitter_.UintType(32);
    uint32_t length = emitter_.Emit(top, spv::OpArrayLength, uint_type, {path.base, path.member});
    return hoisted_last_index_[key] = emitter_.LastIndexOf(top, uint_type, length);
  }
  uint32_t block_pointer = path.base;
  if (path.path_length > 0) {
    std::vector<uint32_t> operands = {path.base};
    AccessChainView owner(*path.path_owner);
    for (size_t k = 0; k < path.path_length; ++k) operands.push_back(owner.index(k));
    uint32_t pointer_type = module_.FindOrAddPointerType(path.storage, path.block_type);
    block_pointer = emitter_.Emit(clamp.at, spv::OpAccessChain, pointer_type, operands);
  }
  uint32_t uint_type = emitter_.UintType(32);
  uint32_t length =
      emitter_.Emit(clamp.at, spv::OpArrayLength, uint_type, {block_pointer, path.member});
  return emitter_.LastIndexOf(clamp.at, uint_type, length);
}

}  // namespace

PassResult RobustAccessPass::Process(Module& module, PassContext& context) {
  State state(module, context);
  return state.Process();
}

}  // namespace glint::spirv
