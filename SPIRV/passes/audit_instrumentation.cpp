#include "audit_instrumentation.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include "SPIRV/analysis/access/index_sites.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/instruction_views.h"
#include "range_report.h"

namespace glint::spirv {
namespace {

constexpr uint32_t kScopeDevice = 1;
constexpr uint32_t kScopeQueueFamily = 5;
constexpr uint32_t kSemanticsRelaxed = 0;

// A site found in the module as given, with where its atomics go.
struct PendingSite {
  Block* block;
  InstructionList::iterator access;
  uint32_t index_id;
  AuditSite site;
};

// The audit buffer's ids, made once.
struct AuditBuffer {
  uint32_t variable = 0;
  uint32_t uint_type = 0;
  uint32_t uint_pointer = 0;
  uint32_t zero = 0;
  uint32_t scope = 0;
  uint32_t semantics = 0;
};

class State {
 public:
  State(Module& module, const AuditInstrumentationOptions& options, const Options& analysis)
      : module_(module), options_(options), analysis_(analysis) {}

  bool Run(AnalysisContext& analyses, AuditInstrumentation* result, std::string* error) {
    uint32_t set = 0, binding = 0;
    if (!ChooseBinding(&set, &binding, error)) return false;
    std::vector<PendingSite> pending = CollectSites(analyses);
    AssignWordsAndHook(pending);
    // Rewrite only after every site is known: the atomics go before each access.
    AuditBuffer buffer = DeclareBuffer(set, binding);
    for (PendingSite& site : pending) InsertAtomics(site, buffer);
    result->descriptor_set = set;
    result->binding = binding;
    result->record_count = record_count_;
    result->sites.clear();
    for (PendingSite& site : pending) result->sites.push_back(site.site);
    return true;
  }

 private:
  // Every (set, binding) the module decorates, and the default pick: set 0, one past
  // the largest binding used there.
  bool ChooseBinding(uint32_t* set, uint32_t* binding, std::string* error) {
    std::map<uint32_t, uint32_t> set_of, binding_of;
    for (const Instruction& inst : module_.annotations) {
      if (inst.opcode != spv::OpDecorate || DecorateView(inst).literals().empty()) continue;
      DecorateView decorate(inst);
      if (decorate.decoration() == spv::DecorationDescriptorSet)
        set_of[decorate.target()] = decorate.literal(0);
      if (decorate.decoration() == spv::DecorationBinding)
        binding_of[decorate.target()] = decorate.literal(0);
    }
    std::set<std::pair<uint32_t, uint32_t>> used;
    int64_t largest_in_set0 = -1;
    for (const auto& [id, b] : binding_of) {
      uint32_t s = set_of.count(id) ? set_of[id] : 0;
      used.insert({s, b});
      if (s == 0) largest_in_set0 = std::max<int64_t>(largest_in_set0, b);
    }
    const bool automatic = options_.descriptor_set == AuditInstrumentationOptions::kUnusedBinding ||
                           options_.binding == AuditInstrumentationOptions::kUnusedBinding;
    *set = automatic ? 0 : options_.descriptor_set;
    *binding = automatic ? static_cast<uint32_t>(largest_in_set0 + 1) : options_.binding;
    if (used.count({*set, *binding})) {
      *error = "audit instrumentation: descriptor set " + std::to_string(*set) + " binding " +
               std::to_string(*binding) + " is already used by the module";
      return false;
    }
    return true;
  }

  // Every dynamic 32-bit integer index among the index sites (index_sites.h), with its
  // record of the range report: one record per site other than an image coordinate, in
  // the sites' order (range_report.h).
  std::vector<PendingSite> CollectSites(AnalysisContext& analyses) {
    std::vector<AccessRecord> records = CollectAccessRecords(analyses, analysis_);
    record_count_ = records.size();
    const DefUse& def_use = analyses.GetDefUse();
    std::vector<PendingSite> pending;
    size_t record = 0;
    for (const IndexSite& site : analyses.GetIndexSites().sites()) {
      if (site.bound == IndexBound::kImage) continue;
      const size_t record_index = record++;
      uint32_t index_id = site.index();
      const Instruction* definition = def_use.Definition(index_id);
      if (definition == nullptr || IsConstantInstruction(definition->opcode)) continue;
      const Instruction* type = def_use.TypeOf(index_id);
      if (type == nullptr || type->opcode != spv::OpTypeInt || TypeIntView(*type).width() != 32)
        continue;
      PendingSite found{site.block, site.at, index_id, {}};
      found.site.record = records[record_index];
      found.site.record_index = static_cast<int64_t>(record_index);
      found.site.is_signed = TypeIntView(*type).is_signed();
      pending.push_back(std::move(found));
    }
    return pending;
  }

  void AssignWordsAndHook(std::vector<PendingSite>& pending) {
    for (size_t i = 0; i < pending.size(); ++i)
      pending[i].site.first_word = static_cast<uint32_t>(2 * i);
    if (!options_.adjust_proven_ranges) return;
    std::vector<AuditSite> sites;
    for (const PendingSite& p : pending) sites.push_back(p.site);
    options_.adjust_proven_ranges(sites);
    for (size_t i = 0; i < pending.size() && i < sites.size(); ++i) {
      sites[i].first_word = pending[i].site.first_word;  // the hook changes ranges only
      pending[i].site = sites[i];
    }
  }

  AuditBuffer DeclareBuffer(uint32_t set, uint32_t binding) {
    const bool storage_buffer_class = module_.VersionAtLeast(1, 3);
    const spv::StorageClass storage =
        storage_buffer_class ? spv::StorageClassStorageBuffer : spv::StorageClassUniform;
    AuditBuffer ids;
    ids.uint_type = module_.FindOrAddIntType(32, false);
    ids.uint_pointer = module_.FindOrAddPointerType(storage, ids.uint_type);
    ids.zero = module_.FindOrAddConstant(ids.uint_type, 0);
    ids.scope = module_.FindOrAddConstant(
        ids.uint_type, UsesVulkanMemoryModel() ? kScopeQueueFamily : kScopeDevice);
    ids.semantics = module_.FindOrAddConstant(ids.uint_type, kSemanticsRelaxed);
    // Aggregates may repeat, so the buffer gets a run-time array and block of its own.
    uint32_t array = module_.TakeNextId();
    module_.types_values.emplace_back(spv::OpTypeRuntimeArray, 0, array,
                                      std::vector<uint32_t>{ids.uint_type});
    uint32_t block = module_.TakeNextId();
    module_.types_values.emplace_back(spv::OpTypeStruct, 0, block, std::vector<uint32_t>{array});
    uint32_t block_pointer = module_.FindOrAddPointerType(storage, block);
    ids.variable = module_.TakeNextId();
    module_.types_values.emplace_back(spv::OpVariable, block_pointer, ids.variable,
                                      std::vector<uint32_t>{static_cast<uint32_t>(storage)});
    module_.AddName(block, "GlintAudit");
    module_.AddName(ids.variable, "glint_audit");
    module_.AddDecoration(array, spv::DecorationArrayStride, {4});
    module_.annotations.emplace_back(
        spv::OpMemberDecorate, 0, 0,
        std::vector<uint32_t>{block, 0, static_cast<uint32_t>(spv::DecorationOffset), 0});
    module_.AddDecoration(block,
                          storage_buffer_class ? spv::DecorationBlock : spv::DecorationBufferBlock);
    module_.AddDecoration(ids.variable, spv::DecorationDescriptorSet, {set});
    module_.AddDecoration(ids.variable, spv::DecorationBinding, {binding});
    if (module_.VersionAtLeast(1, 4))  // from 1.4 every global used is in the interface
      for (Instruction& entry_point : module_.entry_points)
        EntryPointInterfaceView(entry_point).AddToInterface(ids.variable);
    return ids;
  }

  bool UsesVulkanMemoryModel() const {
    return !module_.memory_model.empty() &&
           MemoryModelView(module_.memory_model.front()).memory_model() == spv::MemoryModelVulkan;
  }

  void InsertAtomics(const PendingSite& pending, const AuditBuffer& ids) {
    InstructionList& code = pending.block->instructions;
    uint32_t value = pending.index_id;
    if (pending.site.is_signed) {
      value = module_.TakeNextId();
      code.insert(pending.access,
                  Instruction(spv::OpBitcast, ids.uint_type, value, {pending.index_id}));
    }
    const bool is_signed = pending.site.is_signed;
    InsertAtomic(code, pending.access, ids, pending.site.first_word,
                 is_signed ? spv::OpAtomicSMin : spv::OpAtomicUMin, value);
    InsertAtomic(code, pending.access, ids, pending.site.first_word + 1,
                 is_signed ? spv::OpAtomicSMax : spv::OpAtomicUMax, value);
  }

  void InsertAtomic(InstructionList& code, InstructionList::iterator before, const AuditBuffer& ids,
                    uint32_t word, spv::Op opcode, uint32_t value) {
    uint32_t word_index = module_.FindOrAddConstant(ids.uint_type, word);
    uint32_t pointer = module_.TakeNextId();
    code.insert(before, Instruction(spv::OpAccessChain, ids.uint_pointer, pointer,
                                    {ids.variable, ids.zero, word_index}));
    code.insert(before, Instruction(opcode, ids.uint_type, module_.TakeNextId(),
                                    {pointer, ids.scope, ids.semantics, value}));
  }

  Module& module_;
  const AuditInstrumentationOptions& options_;
  const Options& analysis_;
  size_t record_count_ = 0;
};

}  // namespace

std::vector<uint32_t> AuditInstrumentation::InitialWords() const {
  std::vector<uint32_t> buffer(2 * sites.size());
  for (const AuditSite& site : sites) {
    buffer[site.first_word] = site.is_signed ? 0x7fffffffu : 0xffffffffu;
    buffer[site.first_word + 1] = site.is_signed ? 0x80000000u : 0u;
  }
  return buffer;
}

PassResult AuditInstrumentationPass::Process(Module& module, PassContext& context) {
  State state(module, options_, context.options);
  std::string error;
  result_ = AuditInstrumentation();
  if (!state.Run(*context.analyses, &result_, &error)) return PassResult::Failed(error);
  return result_.sites.empty() ? PassResult::Unchanged()
                               : PassResult::Changed(uint32_t(result_.sites.size()));
}

bool InstrumentForAudit(Module& module, const AuditInstrumentationOptions& options,
                        AuditInstrumentation* result, std::string* error) {
  AuditInstrumentationPass pass(options);
  PassContext context{options.analysis, nullptr};
  PassResult outcome = pass.Run(module, context);
  if (outcome.status == PassStatus::kFailed) {
    *error = outcome.message;
    return false;
  }
  *result = pass.result();
  return true;
}

ObservedRange ReadObservedRange(const AuditSite& site, const std::vector<uint32_t>& buffer) {
  ObservedRange observed;
  if (site.first_word + 1 >= buffer.size()) return observed;
  uint32_t min_word = buffer[site.first_word], max_word = buffer[site.first_word + 1];
  if (site.is_signed) {
    observed.min = static_cast<int32_t>(min_word);
    observed.max = static_cast<int32_t>(max_word);
  } else {
    observed.min = min_word;
    observed.max = max_word;
  }
  observed.reached = observed.min <= observed.max;
  return observed;
}

}  // namespace glint::spirv
