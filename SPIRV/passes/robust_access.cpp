#include "robust_access.h"

#include <map>
#include <tuple>
#include <unordered_map>

#include "SPIRV/analysis/access/index_sites.h"
#include "SPIRV/analysis/range/integer_range_analysis.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/source_lines.h"
#include "access_report.h"
#include "pipeline.h"
#include "range_report.h"
#include "robust_access_emit.h"
#include "robust_access_images.h"
#include "uniformity_check.h"

namespace glint::spirv {

namespace {

// One index operand that needs a clamp: its site and its record in the access report.
struct IndexClamp {
  const IndexSite* site;
  size_t decision;  // AccessReport handle, kNoDecision when not collecting
  static constexpr size_t kNoDecision = ~size_t(0);
  InsertionPoint At() const { return {site->block, site->at}; }
};

// A constant index past a fixed limit, replaced by the last valid index.
struct IndexFold {
  const IndexSite* site;
  uint32_t last_index;  // the constant that replaces it
};

class State {
 public:
  State(Module& module, PassContext& context)
      : module_(module),
        context_(context),
        def_use_(context.analyses->GetDefUse()),
        emitter_(module, def_use_),
        lines_(context.analyses->GetSourceLines()),
        names_(module, def_use_) {}

  PassResult Process();

 private:
  void UniformityBeforeChanges();
  void DecideImage(const IndexSite& site);
  void Decide(const IndexSite& site);
  void LeaveUnbounded(const IndexSite& site);
  // The context's range analysis for Options::range_analysis (shared with range-report).
  IntegerRangeAnalysis& Ranges() {
    return context_.analyses->GetIntegerRanges(RangeOptionsFor(context_.options));
  }
  bool ProvenInBounds(const IndexSite& site, AccessRecord* record);
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
  AccessedObjectNames names_;
  std::vector<IndexClamp> clamps_;
  std::vector<IndexFold> folds_;
  std::vector<InsertionPoint> image_accesses_;
  std::unordered_map<uint32_t, uint32_t> spec_last_index_;
  // (function, block variable, member) -> last valid index, computed in the entry block.
  std::map<std::tuple<Function*, uint32_t, uint32_t>, uint32_t> hoisted_last_index_;
};

PassResult State::Process() {
  if (module_.HasCapability(spv::CapabilityKernel))
    return PassResult::Failed("Kernel modules are not supported (the clamps use GLSL.std.450)");
  // Decide every site's verdict on the unmodified module.
  const std::vector<IndexSite>& sites = context_.analyses->GetIndexSites().sites();
  if (context_.report && context_.options.collect_ranges)
    context_.accesses->ReserveDecisions(sites.size());
  for (const IndexSite& site : sites) {
    switch (site.bound) {
      case IndexBound::kImage:
        DecideImage(site);
        break;
      case IndexBound::kUnbounded:
        LeaveUnbounded(site);
        break;
      case IndexBound::kUnfollowed:
        break;
      default:
        Decide(site);
    }
  }
  uint32_t rewrites = 0;
  if (!folds_.empty() || !clamps_.empty() || !image_accesses_.empty()) UniformityBeforeChanges();
  // Fold constant out-of-bounds indices.
  for (const IndexFold& fold : folds_) {
    fold.site->index() = fold.last_index;
    ++rewrites;
  }
  // Clamp dynamic indices, in module order (a chain's base is rewritten before its uses).
  for (const IndexClamp& clamp : clamps_) {
    rewrites += EmitClamp(clamp);
    if (clamp.decision != IndexClamp::kNoDecision)
      context_.accesses->SetDecisionIndex(clamp.decision, clamp.site->index());
  }
  // Clamp image coordinates, levels and samples.
  for (const InsertionPoint& at : image_accesses_)
    rewrites += ClampImageAccess(at, module_, emitter_);
  if (!rewrites) return PassResult::Unchanged();
  // Clamps are straight-line code in the access's block: no block or branch changes.
  // Nor do they change a uniformity finding (UniformityBeforeChanges).
  return PassResult::Changed(rewrites).Preserving(Analysis::kCfg).Preserving(Analysis::kUniformity);
}

// The uniformity pass, when it runs later, reads results computed here, on the module
// before its clamps: the analysis then shares the def-use, value flow and ranges built
// for the decisions instead of rebuilding them on the changed module. The results are
// those of the changed module. Every instruction added reads an index, a coordinate, a
// level or a sample and an image or buffer, and only the access it was made for reads
// it: each new value's level is at most the join of the access's own operands' levels,
// which the access's result already has. Folds swap one constant for another. No block,
// branch or uniform-control instruction is added or moved, so no finding, level or
// reason changes; the findings' instructions are still in the module.
void State::UniformityBeforeChanges() {
  if (PipelineRunsAfter(context_.options, "uniformity", "robust-access"))
    ComputeUniformityAhead(context_);
}

// An image access: clamped unless its operands are not understood.
void State::DecideImage(const IndexSite& site) {
  AccessRecord record = NewAccessRecord(site, names_);
  std::string refusal = ImageAccessRefusal(*site.access, emitter_);
  if (!refusal.empty()) {
    record.verdict = AccessVerdict::kUnbounded;
    record.reason = refusal;
  } else {
    record.verdict = AccessVerdict::kClamped;
    record.reason = "image limits are only known at run time";
    image_accesses_.push_back({site.block, site.at});
  }
  AddRecord(std::move(record));
}

// Chooses between keeping, folding, proving and clamping one index, and records it.
void State::Decide(const IndexSite& site) {
  uint32_t index = site.index();
  AccessRecord record = NewAccessRecord(site, names_);
  record.limit = site.bound == IndexBound::kFixed ? static_cast<int64_t>(site.last) : -1;
  uint64_t value = 0;
  uint32_t width = 32;
  bool is_signed = false;
  if (def_use_.IntConstant(index, &value, &is_signed, &width)) {
    if (width < 64) value &= (uint64_t(1) << width) - 1;  // negative: a huge unsigned value
    // Index 0 is in bounds of every array (lengths are at least 1; an empty runtime
    // array clamps to 0 too), as is any constant up to a constant limit.
    if (value == 0 || (site.bound == IndexBound::kFixed && value <= site.last)) {
      record.has_range = true;
      record.range_min = record.range_max = static_cast<int64_t>(value);
      record.verdict = AccessVerdict::kNotClamped;  // a constant needs no proof
      AddRecord(std::move(record), /*only_if_indexed=*/true);
      return;
    }
    if (site.bound == IndexBound::kFixed) {
      folds_.push_back({&site, emitter_.IntConstant(emitter_.TypeOfValue(index), site.last)});
      record.index_id = folds_.back().last_index;
      record.has_range = true;
      record.range_min = record.range_max = static_cast<int64_t>(value);
      record.verdict = AccessVerdict::kClamped;
      AddRecord(std::move(record));
      return;
    }
  }
  if (ProvenInBounds(site, &record)) {
    record.verdict = AccessVerdict::kProvenInBounds;
    AddRecord(std::move(record));
    return;
  }
  record.verdict = AccessVerdict::kClamped;
  clamps_.push_back({&site, AddRecord(std::move(record))});
}

// Asks the range analysis whether the index stays within the site's limit, and notes
// the range it answered in `record`. Limits known only at run time are never proven,
// except that index 0 is in bounds of every array whose length is a specialization
// constant, and (full mode) a runtime-array index a guard proves below OpArrayLength of
// the block the chain reaches directly (a block variable, or a pointer with no indices
// between it and the member; a path through a descriptor array is not matched).
bool State::ProvenInBounds(const IndexSite& site, AccessRecord* record) {
  uint32_t index = site.index();
  IntegerRange range = Ranges().RangeAt(index, *site.access);
  record->has_range = range.valid;
  record->range_min = range.min;
  record->range_max = range.max;
  record->reason = range.reason;
  const Instruction* guard = range.guard;
  bool proven = false;
  switch (site.bound) {
    case IndexBound::kFixed:
      proven = range.ProvesWithin(static_cast<int64_t>(site.last));
      break;
    case IndexBound::kSpecLength:
      proven = range.ProvesWithin(0) ||
               Ranges().ProvenBelowSpecializedLength(index, *site.access, site.length_id, &guard);
      break;
    case IndexBound::kRuntimeLength:
      proven = site.block_path.path_length == 0 &&
               Ranges().ProvenBelowArrayLength(index, *site.access, site.block_path.base,
                                               site.block_path.member, &guard);
      break;
    default:
      break;
  }
  if (guard) record->guard = lines_.At(guard);
  return proven;
}

// Left as it is (constants are not accesses).
void State::LeaveUnbounded(const IndexSite& site) {
  uint64_t value = 0;
  if (def_use_.IntConstant(site.index(), &value)) return;
  AccessRecord record = NewAccessRecord(site, names_);
  record.verdict = AccessVerdict::kUnbounded;
  record.reason = site.unbounded_reason;
  AddRecord(std::move(record));
}

// Adds the decision to the run's access report (when collecting); returns its handle.
size_t State::AddRecord(AccessRecord record, bool only_if_indexed) {
  if (!context_.report || !context_.options.collect_ranges) return IndexClamp::kNoDecision;
  return context_.accesses->AddDecision(std::move(record), only_if_indexed);
}

// Emits the clamp of one index; returns 1 (one clamp).
uint32_t State::EmitClamp(const IndexClamp& clamp) {
  uint32_t index = clamp.site->index();
  uint32_t width = 32;
  bool is_signed = false;
  emitter_.IntTypeInfo(emitter_.TypeOfValue(index), &width, &is_signed);
  if (clamp.site->bound == IndexBound::kFixed && clamp.site->last == 0) {
    // One element: every clamped index is 0.
    clamp.site->index() = emitter_.IntConstant(emitter_.TypeOfValue(index), 0);
    return 1;
  }
  uint32_t unsigned_index = emitter_.AsUnsigned(clamp.At(), index);
  uint32_t limit = LimitOf(clamp, width);
  clamp.site->index() = emitter_.UMin(clamp.At(), emitter_.UintType(width), unsigned_index, limit);
  return 1;
}

// The largest valid index, as an unsigned value of `width` bits.
uint32_t State::LimitOf(const IndexClamp& clamp, uint32_t width) {
  switch (clamp.site->bound) {
    case IndexBound::kFixed:
      return emitter_.IntConstant(emitter_.UintType(width), clamp.site->last);
    case IndexBound::kSpecLength:
      return emitter_.ToWidth(clamp.At(), SpecConstantLastIndex(clamp.site->length_id), width);
    case IndexBound::kRuntimeLength:
      return emitter_.ToWidth(clamp.At(), RuntimeArrayLastIndex(clamp), width);
    default:
      break;
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
  const BlockPath& path = clamp.site->block_path;
  const Instruction* base = def_use_.Definition(path.base);
  Function* function = def_use_.FunctionOf(&clamp.site->block->label);
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
    block_pointer = emitter_.Emit(clamp.At(), spv::OpAccessChain, pointer_type, operands);
  }
  uint32_t uint_type = emitter_.UintType(32);
  uint32_t length =
      emitter_.Emit(clamp.At(), spv::OpArrayLength, uint_type, {block_pointer, path.member});
  return emitter_.LastIndexOf(clamp.At(), uint_type, length);
}

}  // namespace

PassResult RobustAccessPass::Process(Module& module, PassContext& context) {
  State state(module, context);
  return state.Process();
}

}  // namespace glint::spirv
