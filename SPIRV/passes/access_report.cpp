// The access report of one pipeline run (see access_report.h).
#include "access_report.h"

#include <unordered_map>

#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

AccessedObjectNames::AccessedObjectNames(const Module& module, const DefUse& def_use)
    : def_use_(def_use) {
  for (const Instruction& inst : module.debug_names)
    if (inst.opcode == spv::OpName) names_.emplace(NameView(inst).target(), NameView(inst).name());
}

std::string AccessedObjectNames::Of(uint32_t root) const {
  auto named = names_.find(root);
  if (named != names_.end() && !named->second.empty()) return named->second;
  const Instruction* type = def_use_.TypeOf(root);
  if (type && type->opcode == spv::OpTypePointer) {
    auto pointee = names_.find(TypePointerView(*type).pointee());
    if (pointee != names_.end() && !pointee->second.empty()) return pointee->second;
  }
  return "%" + std::to_string(root);
}

AccessRecord NewAccessRecord(const IndexSite& site, const AccessedObjectNames& names) {
  AccessRecord record;
  record.location = site.location;
  record.instruction = grammar::OpcodeName(site.access->opcode);
  record.object = names.Of(site.root);
  record.index_id = site.index();
  record.access_id = site.access->result_id;
  record.index_position = site.position;
  switch (site.bound) {
    case IndexBound::kFixed:
      record.limit_kind = AccessLimit::kFixed;
      break;
    case IndexBound::kSpecLength:
      record.limit_kind = AccessLimit::kSpecializationConstant;
      break;
    case IndexBound::kRuntimeLength:
      record.limit_kind = AccessLimit::kRuntimeLength;
      break;
    case IndexBound::kImage:
      record.limit_kind = AccessLimit::kImage;
      break;
    case IndexBound::kUnbounded:
    case IndexBound::kUnfollowed:
      record.limit_kind = AccessLimit::kNone;
      break;
  }
  return record;
}

size_t AccessReport::AddDecision(AccessRecord decision, bool only_if_indexed) {
  decisions_.push_back({std::move(decision), only_if_indexed});
  return decisions_.size() - 1;
}

void AccessReport::AssembleInto(std::vector<AccessRecord>* out) const {
  const size_t first = out->size();
  out->insert(out->end(), index_records_.begin(), index_records_.end());
  auto key = [](const AccessRecord& r) { return (uint64_t(r.access_id) << 32) | r.index_position; };
  std::unordered_map<uint64_t, size_t> by_key;  // first index record of each key
  for (size_t i = first; i < out->size(); ++i) by_key.emplace(key((*out)[i]), i);
  for (const Decision& decision : decisions_) {
    const AccessRecord& record = decision.record;
    auto found = record.access_id ? by_key.find(key(record)) : by_key.end();
    if (found != by_key.end()) {
      AccessRecord& indexed = (*out)[found->second];
      indexed.verdict = record.verdict;
      indexed.limit = record.limit;
      indexed.index_id = record.index_id;
      if (record.guard.line != 0) indexed.guard = record.guard;
    } else if (!decision.only_if_indexed) {
      out->push_back(record);
    }
  }
}

}  // namespace glint::spirv
