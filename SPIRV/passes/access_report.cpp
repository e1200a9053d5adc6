// The access report of one pipeline run (see access_report.h).
#include "access_report.h"

#include <iterator>
#include <unordered_map>
#include <utility>

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

void AccessReport::AddIndexRecords(std::vector<AccessRecord> records) {
  const size_t first = index_records_.size();
  if (index_records_.empty())
    index_records_ = std::move(records);
  else
    index_records_.insert(index_records_.end(), std::make_move_iterator(records.begin()),
                          std::make_move_iterator(records.end()));
  for (size_t i = first; i < index_records_.size(); ++i)
    first_index_record_.emplace(KeyOf(index_records_[i]), i);
}

size_t AccessReport::AddDecision(AccessRecord decision, bool only_if_indexed) {
  Decision added;
  added.outcome = {decision.verdict, decision.limit, decision.index_id, decision.guard};
  added.only_if_indexed = only_if_indexed;
  auto found =
      decision.access_id ? first_index_record_.find(KeyOf(decision)) : first_index_record_.end();
  if (found != first_index_record_.end())
    added.joined = found->second;
  else
    added.record = std::make_unique<AccessRecord>(std::move(decision));
  decisions_.push_back(std::move(added));
  return decisions_.size() - 1;
}

void AccessReport::Apply(const Outcome& outcome, AccessRecord* indexed) {
  indexed->verdict = outcome.verdict;
  indexed->limit = outcome.limit;
  indexed->index_id = outcome.index_id;
  if (outcome.guard.line != 0) indexed->guard = outcome.guard;
}

void AccessReport::AssembleInto(std::vector<AccessRecord>* out) && {
  const size_t first = out->size();
  out->insert(out->end(), std::make_move_iterator(index_records_.begin()),
              std::make_move_iterator(index_records_.end()));
  for (const Decision& decision : decisions_) {
    if (decision.joined != kNotJoined) {
      Apply(decision.outcome, &(*out)[first + decision.joined]);
      continue;
    }
    // Added before its index record, if it has one; copied only when appended.
    AccessRecord& record = *decision.record;
    auto found =
        record.access_id ? first_index_record_.find(KeyOf(record)) : first_index_record_.end();
    if (found != first_index_record_.end()) {
      Apply(decision.outcome, &(*out)[first + found->second]);
    } else if (!decision.only_if_indexed) {
      out->push_back(std::move(record));
      out->back().index_id = decision.outcome.index_id;
    }
  }
}

}  // namespace glint::spirv
