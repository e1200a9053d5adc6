#include "worker_protocol.h"

#include "wire_format.h"

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
  for (bool rule : {l.relaxed_block_layout, l.uniform_buffer_standard_layout,
                    l.scalar_block_layout, l.workgroup_scalar_block_layout, l.skip_block_layout})
    out.U8(rule);
  out.U32(static_cast<uint32_t>(o.passes.size()));
  for (const std::string& pass : o.passes) out.String(pass);
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
  return true;
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
}

bool ReadDiagnostic(wire::Reader& in, Diagnostic* d) {
  uint32_t reasons = 0;
  if (!ReadEnum(in, Severity::kError, &d->severity) || !in.String(&d->origin) ||
      !ReadLocation(in, &d->location) || !in.String(&d->message) || !in.U32(&reasons))
    return false;
  for (uint32_t i = 0; i < reasons && in.ok(); ++i) in.String(&d->reasons.emplace_back());
  return in.ok();
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
  WriteEnum(out, a.verdict);
}

bool ReadAccess(wire::Reader& in, AccessRecord* a) {
  return ReadLocation(in, &a->location) && in.String(&a->instruction) && in.String(&a->object) &&
         in.U32(&a->index_id) && in.U32(&a->access_id) && in.U32(&a->index_position) &&
         in.Bool(&a->has_range) && in.I64(&a->range_min) && in.I64(&a->range_max) &&
         in.Bool(&a->is_signed) && in.String(&a->reason) && in.I64(&a->limit) &&
         ReadEnum(in, AccessVerdict::kNotClamped, &a->verdict);
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

}  // namespace

std::string EncodeRequest(const Request& request) {
  wire::Writer out;
  const GlslInput& input = request.input;
  out.String(input.source);
  WriteEnum(out, input.stage);
  out.String(input.entry_point);
  out.String(input.file_name);
  out.U8(input.generate_debug_info);
  WriteOptions(out, request.options);
  out.U64(request.memory_limit_bytes);
  out.U32(request.cpu_limit_seconds);
  return out.bytes();
}

bool DecodeRequest(const std::string& bytes, Request* request) {
  wire::Reader in(bytes);
  GlslInput& input = request->input;
  return in.String(&input.source) && ReadEnum(in, GlslStage::kCompute, &input.stage) &&
         in.String(&input.entry_point) && in.String(&input.file_name) &&
         in.Bool(&input.generate_debug_info) && ReadOptions(in, &request->options) &&
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
  return out.bytes();
}

bool DecodeResponse(const std::string& bytes, Response* response) {
  wire::Reader in(bytes);
  Report& report = response->report;
  auto read_pass = [](wire::Reader& r, PassStatistic* p) {
    return r.String(&p->pass) && r.Bool(&p->changed) && r.U32(&p->rewrites);
  };
  return in.Bool(&response->succeeded) && in.Words(&response->words) &&
         ReadList(in, &report.diagnostics, ReadDiagnostic) &&
         ReadList(in, &report.accesses, ReadAccess) && ReadList(in, &report.passes, read_pass) &&
         in.Done();
}

}  // namespace glint::worker
