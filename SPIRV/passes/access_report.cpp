// The access report of one pipeline run (see access_report.h).
#include "access_report.h"

#include <unordered_map>

namespace glint::spirv {

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
