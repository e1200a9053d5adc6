#include "audit.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "Execution/shader_interface.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/integer_folding.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/robust_access.h"
#include "SPIRV/validate.h"

namespace glint::audit {
namespace {

// The value of a 32-bit integer constant, specialization constant or binary
// OpSpecConstantOp of those (folded as the SPIR-V folder folds it: integer_folding.h) at
// the run's specialization (`run`: by SpecId; a constant left out keeps its default);
// false for anything else, an undefined result or a deeper expression.
bool SpecializedValue(const spirv::Module& module, const spirv::DefUse& def_use, uint32_t id,
                      const std::map<uint32_t, uint64_t>& run, int depth, uint32_t* value) {
  const spirv::Instruction* def = def_use.Definition(id);
  bool is_signed = false;
  if (!def || depth > 16 || !def_use.IsInt32Type(def->type_id, &is_signed)) return false;
  if ((def->opcode == spv::OpConstant || def->opcode == spv::OpSpecConstant) &&
      def->words.size() == 1) {
    *value = def->words[0];
    std::optional<uint32_t> spec_id = def->opcode == spv::OpSpecConstant
                                          ? module.DecorationLiteral(id, spv::DecorationSpecId)
                                          : std::nullopt;
    auto given = spec_id ? run.find(*spec_id) : run.end();
    if (given != run.end()) *value = static_cast<uint32_t>(given->second);
    return true;
  }
  if (def->opcode != spv::OpSpecConstantOp || def->words.size() != 3) return false;
  uint32_t a = 0, b = 0;
  if (!SpecializedValue(module, def_use, def->words[1], run, depth + 1, &a) ||
      !SpecializedValue(module, def_use, def->words[2], run, depth + 1, &b))
    return false;
  const uint64_t operands[2] = {a, b};
  std::optional<uint64_t> folded = spirv::FoldIntegerOp(spv::Op(def->words[0]), operands, 2);
  if (!folded || spirv::FoldsToBoolean(spv::Op(def->words[0]))) return false;
  *value = static_cast<uint32_t>(*folded);
  return true;
}

// For a decision about an index into an array whose length is set by a specialization
// constant: the array's last index at the run's specialization, read off the module (the
// array type the access chain's index steps into, its length evaluated); -1 for any
// other decision or a length not evaluated.
int64_t SpecializedLastIndex(const spirv::Module& module, const spirv::DefUse& def_use,
                             const spirv::AccessRecord& decision,
                             const std::map<uint32_t, uint64_t>& run) {
  if (decision.limit_kind != spirv::AccessLimit::kSpecializationConstant) return -1;
  const spirv::Instruction* access = def_use.Definition(decision.access_id);
  if (!access ||
      (access->opcode != spv::OpAccessChain && access->opcode != spv::OpInBoundsAccessChain))
    return -1;
  spirv::AccessChainView chain(*access);
  const spirv::Instruction* base = def_use.Definition(chain.base());
  const spirv::Instruction* pointer = base ? def_use.Definition(base->type_id) : nullptr;
  if (!pointer || pointer->opcode != spv::OpTypePointer) return -1;
  const spirv::Instruction* type = def_use.Definition(spirv::TypePointerView(*pointer).pointee());
  for (size_t i = 0; type && i < decision.index_position && i < chain.index_count(); ++i) {
    uint64_t member = 0;
    def_use.IntConstant(chain.index(i), &member);
    type = def_use.Definition(spirv::IndexedTypeOf(*type, member));
  }
  uint32_t length = 0;
  if (!type || type->opcode != spv::OpTypeArray ||
      !SpecializedValue(module, def_use, spirv::TypeArrayView(*type).length_id(), run, 0,
                        &length) ||
      length == 0)
    return -1;
  return static_cast<int64_t>(length) - 1;
}

// Instruments (and, when asked, clamps) the module; the words that run.
// `clamps` receives robust access's decisions (one record per index it looked at).
// `spec_limits[i]` is clamps[i]'s SpecializedLastIndex.
bool PrepareModule(const std::vector<uint32_t>& spirv, const AuditOptions& options,
                   spirv::AuditInstrumentation* instrumentation, std::vector<uint32_t>* words,
                   std::vector<spirv::AccessRecord>* clamps, std::vector<int64_t>* spec_limits,
                   std::string* error) {
  std::optional<spirv::Module> module = spirv::ParseModule(spirv, error);
  if (!module) return false;
  spirv::AuditInstrumentationOptions instrument;
  instrument.analysis = options.analysis;
  instrument.adjust_proven_ranges = options.adjust_proven_ranges;
  try {
    if (!spirv::InstrumentForAudit(*module, instrument, instrumentation, error)) return false;
  } catch (const spirv::IdBoundExhausted& exhausted) {
    *error = std::string("instrumentation failed: ") + exhausted.what();
    return false;
  }
  if (options.robust_access) {
    spirv::Options clamp = options.analysis;
    clamp.robust_access = true;
    // Collected only for its decisions: which sites the module that runs clamps.
    clamp.collect_ranges = true;
    spirv::Report report;
    spirv::PassContext context{clamp, &report};
    spirv::RobustAccessPass pass;
    spirv::PassResult result = spirv::RunPassGuarded(pass, *module, context);
    if (result.status == spirv::PassStatus::kFailed) {
      *error = "robust access after instrumentation failed: " + result.message;
      return false;
    }
    *clamps = std::move(report.accesses);
    spirv::DefUse def_use(*module);
    for (const spirv::AccessRecord& decision : *clamps)
      spec_limits->push_back(
          SpecializedLastIndex(*module, def_use, decision, options.run_spec_constants));
  }
  *words = module->Encode();
  std::string problem = spirv::Validate(*words, options.target_env);
  if (!problem.empty()) {
    *error = "the instrumented module does not validate: " + problem;
    return false;
  }
  return true;
}

vk::BufferContents DefaultContents(const AuditOptions& options, uint32_t set, uint32_t binding) {
  const uint64_t seed = options.seed * 1000003u + set * 64u + binding;
  switch (options.fill) {
    case Fill::kSeededBytes:
      return vk::BufferContents::Seeded(seed, vk::BufferContents::Pattern::kBytes);
    case Fill::kSeededSmallUints:
      return vk::BufferContents::Seeded(seed, vk::BufferContents::Pattern::kSmallUints);
    case Fill::kZeros:
      break;
  }
  return vk::BufferContents::Zeros();
}

std::vector<uint8_t> ToBytes(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> bytes(words.size() * 4);
  if (!words.empty()) std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

// One binding per declared resource: the audit buffer, the caller's, or a default.
bool DescribeBuffers(const vk::ShaderInterface& interface, const AuditOptions& options,
                     const spirv::AuditInstrumentation& instrumentation,
                     std::vector<vk::BufferBinding>* buffers, std::string* error) {
  for (const vk::BindingInfo& info : interface.bindings) {
    vk::BufferBinding binding;
    binding.set = info.set;
    binding.binding = info.binding;
    if (info.set == instrumentation.descriptor_set && info.binding == instrumentation.binding) {
      std::vector<uint32_t> initial = instrumentation.InitialWords();
      if (initial.empty()) initial.push_back(0);  // a binding holds at least one element
      binding.contents = vk::BufferContents::Bytes(ToBytes(initial));
    } else if (info.kind == vk::BindingKind::kUnsupported) {
      *error = "set " + std::to_string(info.set) + " binding " + std::to_string(info.binding) +
               " (" + info.name + ") is " + info.description +
               "; the audit runs shaders that need only buffers";
      return false;
    } else {
      auto given = std::find_if(options.buffers.begin(), options.buffers.end(), [&](auto& b) {
        return b.set == info.set && b.binding == info.binding;
      });
      if (given != options.buffers.end()) {
        binding = *given;
      } else {
        uint64_t stride = info.runtime_array_stride;
        uint64_t tail = stride ? (options.runtime_array_bytes + stride - 1) / stride * stride : 0;
        binding.size = std::max<uint64_t>(info.static_size + tail, 16);
        binding.contents = DefaultContents(options, info.set, info.binding);
      }
    }
    buffers->push_back(std::move(binding));
  }
  return true;
}

std::vector<uint32_t> ToWords(const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  if (!words.empty()) std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// Folds the audit buffer of one run into the per-site observations.
void MergeRun(const vk::ComputeResult& run, const spirv::AuditInstrumentation& instrumentation,
              std::vector<spirv::ObservedRange>* observed) {
  for (const vk::BufferData& data : run.buffers) {
    if (data.set != instrumentation.descriptor_set || data.binding != instrumentation.binding)
      continue;
    std::vector<uint32_t> words = ToWords(data.bytes);
    for (size_t i = 0; i < instrumentation.sites.size(); ++i)
      (*observed)[i] =
          Merge((*observed)[i], spirv::ReadObservedRange(instrumentation.sites[i], words));
  }
}

// Robust access's decision about the index of `site` (the one with the same key), as a
// position in `clamps`; -1 when there is none.
int64_t DecisionOf(const spirv::AuditSite& site, const std::vector<spirv::AccessRecord>& clamps) {
  for (size_t i = 0; i < clamps.size(); ++i)
    if (clamps[i].access_id == site.record.access_id &&
        clamps[i].index_position == site.record.index_position)
      return static_cast<int64_t>(i);
  return -1;
}

// The last element of the run-time array of the binding named `object` as the audit
// bound it (its size minus the block's fixed part), or -1: a run-time array's limit is
// only known at run time, and the audit chose the size. Assumes a record with limit -1
// in such a block indexes its run-time array (the generator's and usual shaders' case;
// a spec-constant-sized array in the same block would be misread).
int64_t RuntimeArrayLimit(const std::string& object, const vk::ShaderInterface& interface,
                          const std::vector<vk::BufferBinding>& buffers) {
  for (size_t i = 0; i < interface.bindings.size() && i < buffers.size(); ++i) {
    const vk::BindingInfo& info = interface.bindings[i];
    if (info.name != object || info.runtime_array_stride == 0 || buffers[i].size == 0) continue;
    if (buffers[i].size <= info.static_size) return -1;
    return static_cast<int64_t>((buffers[i].size - info.static_size) / info.runtime_array_stride) -
           1;
  }
  return -1;
}

std::string GroupsText(const Groups& groups) {
  return std::to_string(groups[0]) + "x" + std::to_string(groups[1]) + "x" +
         std::to_string(groups[2]);
}

}  // namespace

spirv::ObservedRange Merge(const spirv::ObservedRange& a, const spirv::ObservedRange& b) {
  if (!a.reached) return b;
  if (!b.reached) return a;
  return {true, std::min(a.min, b.min), std::max(a.max, b.max)};
}

std::string SpecializedLengthVerdict(const spirv::ObservedRange& observed, int64_t limit) {
  if (limit < 0) return "no range";
  if (!observed.reached) return "not reached";
  if (observed.min < 0 || observed.max > limit) return "ESCAPE";
  return "ok";
}

std::string Verdict(const spirv::AuditSite& site, const spirv::ObservedRange& observed) {
  const spirv::AccessRecord& record = site.record;
  if (!record.has_range) return "no range";
  if (!observed.reached) return "not reached";
  if (observed.min < record.range_min || observed.max > record.range_max) return "ESCAPE";
  return "ok";
}

uint32_t AuditResult::CountVerdict(const std::string& verdict) const {
  return static_cast<uint32_t>(std::count_if(
      sites.begin(), sites.end(), [&](const SiteResult& s) { return s.verdict == verdict; }));
}

uint32_t AuditResult::CountOutOfBounds() const {
  return static_cast<uint32_t>(std::count_if(sites.begin(), sites.end(),
                                             [](const SiteResult& s) { return s.OutOfBounds(); }));
}

uint32_t AuditResult::CountContained() const {
  return static_cast<uint32_t>(
      std::count_if(sites.begin(), sites.end(), [](const SiteResult& s) { return s.Contained(); }));
}

bool RunAudit(vk::Context& context, const std::vector<uint32_t>& spirv, const AuditOptions& options,
              AuditResult* result, std::string* error) {
  *result = AuditResult();
  spirv::AuditInstrumentation instrumentation;
  std::vector<uint32_t> words;
  std::vector<spirv::AccessRecord> clamps;
  std::vector<int64_t> spec_limits;
  if (!PrepareModule(spirv, options, &instrumentation, &words, &clamps, &spec_limits, error))
    return false;
  std::optional<vk::ShaderInterface> interface =
      vk::ReadShaderInterface(words, options.entry_point, error);
  if (!interface) return false;
  if (interface->stage != vk::ShaderStage::kCompute) {
    *error = "the audit runs compute shaders; entry point '" + options.entry_point + "' is not one";
    return false;
  }
  vk::ComputeRun run;
  if (!DescribeBuffers(*interface, options, instrumentation, &run.buffers, error)) return false;
  if (interface->push_constant_size &&
      !vk::FillContents(DefaultContents(options, 0xffff, 0), interface->push_constant_size,
                        &run.push_constants, error))
    return false;
  if (!ChooseLattice(options.groups, options.group_budget, &result->lattice, error)) return false;
  // The analysis's values where the module still declares the constant (Glint's passes
  // specialize a GLSL input before the audit sees it), then the run's own.
  std::map<uint32_t, uint64_t> specialization;
  for (const auto& [id, value] : options.analysis.spec_constants)
    if (interface->spec_constant_sizes.count(id)) specialization[id] = value;
  for (const auto& [id, value] : options.run_spec_constants) specialization[id] = value;
  run.shader = {words, options.entry_point, specialization};
  run.time_budget_ms = options.dispatch_time_budget_ms;
  std::unique_ptr<vk::ComputePipeline> pipeline = context.CreateComputePipeline(run.shader, error);
  if (!pipeline) return false;

  std::vector<spirv::ObservedRange> observed(instrumentation.sites.size());
  for (const GroupBox& box : result->lattice.Boxes()) {
    run.base_group = box.base;
    run.group_count = box.count;
    vk::ComputeResult ran;
    std::string run_error;
    if (!context.RunCompute(*pipeline, run, &ran, &run_error)) {
      std::ostringstream message;
      message << "refused after " << result->groups_ran << " of " << result->lattice.GroupCount()
              << " sampled groups ran (" << result->dispatches
              << " dispatches; time budget per dispatch " << options.dispatch_time_budget_ms
              << " ms): " << run_error;
      *error = message.str();
      return false;
    }
    result->groups_ran += box.GroupCount();
    ++result->dispatches;
    MergeRun(ran, instrumentation, &observed);
  }
  if (options.located_records.size() == instrumentation.record_count)
    for (spirv::AuditSite& site : instrumentation.sites)
      if (site.record_index >= 0)
        site.record.location = options.located_records[site.record_index].location;
  for (size_t i = 0; i < instrumentation.sites.size(); ++i) {
    const spirv::AuditSite& site = instrumentation.sites[i];
    SiteResult s{site, observed[i], Verdict(site, observed[i])};
    s.limit = site.record.limit >= 0
                  ? site.record.limit
                  : RuntimeArrayLimit(site.record.object, *interface, run.buffers);
    const int64_t decision = DecisionOf(site, clamps);
    if (decision >= 0) {
      const spirv::AccessRecord& decided = clamps[size_t(decision)];
      s.clamped = decided.verdict == spirv::AccessVerdict::kClamped;
      // A proof for every specialization is audited against the length this run
      // specialized; a range of its own as any other range too (the proof may stand on
      // a range wider than the length, or on none).
      s.proven_for_every_specialization =
          decided.verdict == spirv::AccessVerdict::kProvenInBounds &&
          decided.limit_kind == spirv::AccessLimit::kSpecializationConstant;
      // The length at this run: what an index into the array is out of bounds of.
      if (decided.limit_kind == spirv::AccessLimit::kSpecializationConstant)
        s.limit = spec_limits[size_t(decision)];
      if (s.proven_for_every_specialization) {
        const std::string against_length = SpecializedLengthVerdict(observed[i], s.limit);
        if (!site.record.has_range || against_length == "ESCAPE") s.verdict = against_length;
      }
    }
    result->sites.push_back(std::move(s));
  }
  return true;
}

std::string FormatAuditReport(const AuditResult& result, const std::string& source_name) {
  std::ostringstream out;
  for (const SiteResult& s : result.sites) {
    const spirv::AccessRecord& r = s.site.record;
    out << (r.location.file.empty() ? source_name : r.location.file);
    if (r.location.line) out << ":" << r.location.line;
    out << ": " << r.instruction << " " << (r.object.empty() ? "?" : r.object) << " index "
        << r.index_position << " (%" << r.index_id << ", " << (s.site.is_signed ? "i32" : "u32")
        << "): proven ";
    if (r.has_range) {
      out << "[" << r.range_min << ", " << r.range_max << "]";
      if (s.proven_for_every_specialization) out << " and below the specialized length";
    } else if (s.proven_for_every_specialization) {
      out << "below the specialized length";
    } else {
      out << "no range (" << r.reason << ")";
    }
    out << ", observed ";
    if (s.observed.reached) {
      out << "[" << s.observed.min << ", " << s.observed.max << "]";
    } else {
      out << "nothing";
    }
    if (s.limit >= 0) out << ", limit " << s.limit;
    if (s.OutOfBounds()) out << ", out of bounds";
    if (s.clamped) out << ", clamped";
    out << ": " << s.verdict << "\n";
  }
  out << "audit: " << result.sites.size() << " sites: " << result.CountVerdict("ok") << " ok, "
      << result.CountVerdict("ESCAPE") << " ESCAPE, " << result.CountVerdict("not reached")
      << " not reached, " << result.CountVerdict("no range") << " no range; "
      << result.CountOutOfBounds() << " out of bounds (" << result.CountContained() << " clamped); "
      << result.groups_ran << " of " << result.lattice.GridGroupCount() << " groups ran in "
      << result.dispatches << " dispatches (lattice "
      << GroupsText({static_cast<uint32_t>(result.lattice.positions[0].size()),
                     static_cast<uint32_t>(result.lattice.positions[1].size()),
                     static_cast<uint32_t>(result.lattice.positions[2].size())})
      << " of grid " << GroupsText(result.lattice.grid) << ")\n";
  return out.str();
}

}  // namespace glint::audit
