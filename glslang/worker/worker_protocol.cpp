#include "glslang/worker/worker_protocol.h"

#include <cstring>

#include "glslang/worker/wire_format.h"

namespace glint::worker {
namespace {

// An enum read as an integer and accepted only when at most `last`.
template <typename Enum>
bool ReadEnum(wire::Reader& in, Enum last, Enum* value) {
  uint32_t raw = 0;
  if (!in.U32(&raw) || raw > static_cast<uint32_t>(last)) return false;
  *value = static_cast<Enum>(raw);
  return true;
}

template <typename Enum>
void WriteEnum(wire::Writer& out, Enum value) {
  out.U32(static_cast<uint32_t>(value));
}

// A count followed by that many records; the count is checked against what is left
// implicitly (each record read fails at the end of the buffer).
template <typename Record, typename ReadOne>
bool ReadList(wire::Reader& in, std::vector<Record>* records, ReadOne read_one) {
  uint32_t count = 0;
  if (!in.U32(&count)) return false;
  for (uint32_t i = 0; i < count; ++i)
    if (!read_one(in, &records->emplace_back())) return false;
  return true;
}

void WriteOptions(wire::Writer& out, const Options& o) {
  out.U8(o.hoist_constant_tables);
  out.U8(o.robust_access);
  WriteEnum(out, o.range_analysis);
  WriteEnum(out, o.uniformity);
  out.U32(o.subgroup_size);
  for (uint32_t groups : o.max_workgroups) out.U32(groups);
  out.U32(static_cast<uint32_t>(o.spec_constants.size()));
  for (const auto& [id, value] : o.spec_constants) {
    out.U32(id);
    out.U64(value);
  }
  out.U8(o.collect_ranges);
  WriteEnum(out, o.target_env);
  out.U8(o.validate);
  const ValidatorLayouts& l = o.validator_layouts;
  for (bool rule : {l.relaxed_block_layout, l.uniform_buffer_standard_layout, l.scalar_block_layout,
                    l.workgroup_scalar_block_layout, l.skip_block_layout})
    out.U8(rule);
  out.U32(static_cast<uint32_t>(o.passes.size()));
  for (const std::string& pass : o.passes) out.String(pass);
  out.U32(static_cast<uint32_t>(o.uniformity_filters.size()));
  for (const UniformityFilter& f : o.uniformity_filters) {
    WriteEnum(out, f.action);
    out.String(f.function);
    out.String(f.file);
    out.U32(f.first_line);
    out.U32(f.last_line);
    out.String(f.justification);
  }
}

bool ReadUniformityFilter(wire::Reader& in, UniformityFilter* f) {
  return ReadEnum(in, UniformityFilterAction::kAssumeUniform, &f->action) &&
         in.String(&f->function) && in.String(&f->file) && in.U32(&f->first_line) &&
         in.U32(&f->last_line) && in.String(&f->justification);
}

bool ReadOptions(wire::Reader& in, Options* o) {
  uint32_t spec_count = 0;
  if (!in.Bool(&o->hoist_constant_tables) || !in.Bool(&o->robust_access) ||
      !ReadEnum(in, RangeAnalysisMode::kFull, &o->range_analysis) ||
      !ReadEnum(in, Severity::kError, &o->uniformity) || !in.U32(&o->subgroup_size) ||
      !in.U32(&o->max_workgroups[0]) || !in.U32(&o->max_workgroups[1]) ||
      !in.U32(&o->max_workgroups[2]) || !in.U32(&spec_count))
    return false;
  for (uint32_t i = 0; i < spec_count; ++i) {
    uint32_t id = 0;
    uint64_t value = 0;
    if (!in.U32(&id) || !in.U64(&value)) return false;
    o->spec_constants[id] = value;
  }
  uint32_t pass_count = 0;
  ValidatorLayouts& l = o->validator_layouts;
  if (!in.Bool(&o->collect_ranges) || !ReadEnum(in, TargetEnv::kFromInput, &o->target_env) ||
      !in.Bool(&o->validate) || !in.Bool(&l.relaxed_block_layout) ||
      !in.Bool(&l.uniform_buffer_standard_layout) || !in.Bool(&l.scalar_block_layout) ||
      !in.Bool(&l.workgroup_scalar_block_layout) || !in.Bool(&l.skip_block_layout) ||
      !in.U32(&pass_count))
    return false;
  for (uint32_t i = 0; i < pass_count; ++i) {
    std::string pass;
    if (!in.String(&pass)) return false;
    o->passes.push_back(std::move(pass));
  }
  return ReadList(in, &o->uniformity_filters, ReadUniformityFilter);
}

void WriteLocation(wire::Writer& out, const SourceLocation& l) {
  out.String(l.file);
  out.U32(l.line);
  out.U32(l.column);
}

bool ReadLocation(wire::Reader& in, SourceLocation* l) {
  return in.String(&l->file) && in.U32(&l->line) && in.U32(&l->column);
}

void WriteDiagnostic(wire::Writer& out, const Diagnostic& d) {
  WriteEnum(out, d.severity);
  out.String(d.origin);
  WriteLocation(out, d.location);
  out.String(d.message);
  out.U32(static_cast<uint32_t>(d.reasons.size()));
  for (const std::string& reason : d.reasons) out.String(reason);
  out.U32(static_cast<uint32_t>(d.reason_locations.size()));
  for (const SourceLocation& l : d.reason_locations) WriteLocation(out, l);
  out.String(d.rule);
}

bool ReadDiagnostic(wire::Reader& in, Diagnostic* d) {
  auto read_reason = [](wire::Reader& r, std::string* reason) { return r.String(reason); };
  return ReadEnum(in, Severity::kError, &d->severity) && in.String(&d->origin) &&
         ReadLocation(in, &d->location) && in.String(&d->message) &&
         ReadList(in, &d->reasons, read_reason) &&
         ReadList(in, &d->reason_locations, ReadLocation) && in.String(&d->rule);
}

void WriteAccess(wire::Writer& out, const AccessRecord& a) {
  WriteLocation(out, a.location);
  out.String(a.instruction);
  out.String(a.object);
  out.U32(a.index_id);
  out.U32(a.access_id);
  out.U32(a.index_position);
  out.U8(a.has_range);
  out.I64(a.range_min);
  out.I64(a.range_max);
  out.U8(a.is_signed);
  out.String(a.reason);
  out.I64(a.limit);
  WriteEnum(out, a.limit_kind);
  WriteEnum(out, a.verdict);
  WriteLocation(out, a.guard);
  out.U8(a.out_of_bounds);
  for (uint32_t component : a.witness_invocation) out.U32(component);
  out.I64(a.witness_value);
  out.U8(a.length_never_read);
}

bool ReadAccess(wire::Reader& in, AccessRecord* a) {
  return ReadLocation(in, &a->location) && in.String(&a->instruction) && in.String(&a->object) &&
         in.U32(&a->index_id) && in.U32(&a->access_id) && in.U32(&a->index_position) &&
         in.Bool(&a->has_range) && in.I64(&a->range_min) && in.I64(&a->range_max) &&
         in.Bool(&a->is_signed) && in.String(&a->reason) && in.I64(&a->limit) &&
         ReadEnum(in, AccessLimit::kNone, &a->limit_kind) &&
         ReadEnum(in, AccessVerdict::kNotClamped, &a->verdict) && ReadLocation(in, &a->guard) &&
         in.Bool(&a->out_of_bounds) && in.U32(&a->witness_invocation[0]) &&
         in.U32(&a->witness_invocation[1]) && in.U32(&a->witness_invocation[2]) &&
         in.I64(&a->witness_value) && in.Bool(&a->length_never_read);
}

void WriteStrings(wire::Writer& out, const std::vector<std::string>& strings) {
  out.U32(static_cast<uint32_t>(strings.size()));
  for (const std::string& text : strings) out.String(text);
}

bool ReadString(wire::Reader& in, std::string* text) { return in.String(text); }

// The input, as its setters left it; the include callback stays in the host.
void WriteInput(wire::Writer& out, const glint_input_s& input) {
  out.U8(input.has_source);
  out.String(input.source);
  out.String(input.file_name);
  out.U8(input.hlsl);
  out.U8(input.has_stage);
  WriteEnum(out, input.stage);
  out.String(input.entry_point);
  out.String(input.source_entry_point);
  out.String(input.preamble);
  WriteStrings(out, input.processes);
  WriteStrings(out, input.include_directories);
  out.U32(static_cast<uint32_t>(input.debug));
  out.U32(static_cast<uint32_t>(input.spirv_version));
  out.U8(input.callback != nullptr);
  out.U8(input.disable_optimizer);
  out.U8(input.has_resource_limits);
  out.String(std::string(reinterpret_cast<const char*>(&input.resources), sizeof input.resources));
  for (unsigned base : input.binding_shift) out.U32(base);
  for (const auto& per_set : input.binding_shift_for_set) {
    out.U32(static_cast<uint32_t>(per_set.size()));
    for (const auto& [set, base] : per_set) {
      out.U32(set);
      out.U32(base);
    }
  }
  out.U8(input.auto_map_bindings);
  out.U8(input.auto_map_locations);
  out.U64(input.limits.per_source);
  out.U64(input.limits.total);
}

bool ReadBindingShifts(wire::Reader& in, glint_input_s* input) {
  for (unsigned& base : input->binding_shift)
    if (!in.U32(&base)) return false;
  for (auto& per_set : input->binding_shift_for_set) {
    auto read_pair = [](wire::Reader& r, std::pair<uint32_t, uint32_t>* p) {
      return r.U32(&p->first) && r.U32(&p->second);
    };
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    if (!ReadList(in, &pairs, read_pair)) return false;
    per_set.insert(pairs.begin(), pairs.end());
  }
  return true;
}

// The worker answers include queries for an input whose callback said so; it never
// calls a function pointer from the wire.
bool ReadInput(wire::Reader& in, glint_input_s* input) {
  uint32_t debug = 0, spirv = 0;
  bool has_callback = false;
  std::string resources;
  bool ok = in.Bool(&input->has_source) && in.String(&input->source) &&
            in.String(&input->file_name) && in.Bool(&input->hlsl) && in.Bool(&input->has_stage) &&
            ReadEnum(in, EShLangCount, &input->stage) && in.String(&input->entry_point) &&
            in.String(&input->source_entry_point) && in.String(&input->preamble) &&
            ReadList(in, &input->processes, ReadString) &&
            ReadList(in, &input->include_directories, ReadString) && in.U32(&debug) &&
            debug <= GLINT_DEBUG_INFO_NON_SEMANTIC_SOURCE && in.U32(&spirv) &&
            in.Bool(&has_callback) && in.Bool(&input->disable_optimizer) &&
            in.Bool(&input->has_resource_limits) && in.String(&resources) &&
            resources.size() == sizeof input->resources && ReadBindingShifts(in, input) &&
            in.Bool(&input->auto_map_bindings) && in.Bool(&input->auto_map_locations) &&
            in.U64(&input->limits.per_source) && in.U64(&input->limits.total) &&
            input->limits.per_source != 0 && input->limits.total != 0;
  if (!ok || input->stage == EShLangCount) return false;
  input->debug = static_cast<int>(debug);
  input->spirv_version = static_cast<glslang::EShTargetLanguageVersion>(spirv);
  std::memcpy(&input->resources, resources.data(), sizeof input->resources);
  input->callback = nullptr;
  input->user_data = nullptr;
  return true;
}

}  // namespace

std::string EncodeRequest(const Request& request) {
  wire::Writer out;
  WriteInput(out, request.input);
  WriteOptions(out, request.options);
  out.U64(request.memory_limit_bytes);
  out.U32(request.cpu_limit_seconds);
  return out.bytes();
}

bool DecodeRequest(const std::string& bytes, Request* request) {
  wire::Reader in(bytes);
  return ReadInput(in, &request->input) && ReadOptions(in, &request->options) &&
         in.U64(&request->memory_limit_bytes) && in.U32(&request->cpu_limit_seconds) && in.Done();
}

std::string EncodeResponse(const Response& response) {
  wire::Writer out;
  out.U8(response.succeeded);
  out.Words(response.words);
  const Report& report = response.report;
  out.U32(static_cast<uint32_t>(report.diagnostics.size()));
  for (const Diagnostic& d : report.diagnostics) WriteDiagnostic(out, d);
  out.U32(static_cast<uint32_t>(report.accesses.size()));
  for (const AccessRecord& a : report.accesses) WriteAccess(out, a);
  out.U32(static_cast<uint32_t>(report.passes.size()));
  for (const PassStatistic& p : report.passes) {
    out.String(p.pass);
    out.U8(p.changed);
    out.U32(p.rewrites);
  }
  out.U32(static_cast<uint32_t>(report.tables.size()));
  for (const TableRecord& t : report.tables) {
    WriteLocation(out, t.location);
    out.String(t.name);
    out.U32(t.copies_removed);
  }
  out.U32(static_cast<uint32_t>(report.suppressed.size()));
  for (const SuppressedDiagnostic& s : report.suppressed) {
    WriteDiagnostic(out, s.diagnostic);
    out.String(s.filter);
    out.String(s.justification);
  }
  return out.bytes();
}

bool DecodeResponse(const std::string& bytes, Response* response) {
  wire::Reader in(bytes);
  Report& report = response->report;
  auto read_pass = [](wire::Reader& r, PassStatistic* p) {
    return r.String(&p->pass) && r.Bool(&p->changed) && r.U32(&p->rewrites);
  };
  auto read_table = [](wire::Reader& r, TableRecord* t) {
    return ReadLocation(r, &t->location) && r.String(&t->name) && r.U32(&t->copies_removed);
  };
  auto read_suppressed = [](wire::Reader& r, SuppressedDiagnostic* s) {
    return ReadDiagnostic(r, &s->diagnostic) && r.String(&s->filter) && r.String(&s->justification);
  };
  return in.Bool(&response->succeeded) && in.Words(&response->words) &&
         ReadList(in, &report.diagnostics, ReadDiagnostic) &&
         ReadList(in, &report.accesses, ReadAccess) && ReadList(in, &report.passes, read_pass) &&
         ReadList(in, &report.tables, read_table) &&
         ReadList(in, &report.suppressed, read_suppressed) && in.Done();
}

std::string EncodeIncludeQuery(const IncludeQuery& query) {
  wire::Writer out;
  out.U8(query.system);
  out.String(query.header);
  out.String(query.includer);
  out.U64(query.depth);
  return out.bytes();
}

bool DecodeIncludeQuery(const std::string& bytes, IncludeQuery* query) {
  wire::Reader in(bytes);
  return in.Bool(&query->system) && in.String(&query->header) && in.String(&query->includer) &&
         in.U64(&query->depth) && in.Done();
}

std::string EncodeIncludeAnswer(const IncludeAnswer& answer) {
  wire::Writer out;
  WriteEnum(out, answer.kind);
  out.String(answer.name);
  out.String(answer.content);
  return out.bytes();
}

bool DecodeIncludeAnswer(const std::string& bytes, IncludeAnswer* answer) {
  wire::Reader in(bytes);
  return ReadEnum(in, IncludeAnswer::Kind::kRefused, &answer->kind) && in.String(&answer->name) &&
         in.String(&answer->content) && in.Done();
}

}  // namespace glint::worker
