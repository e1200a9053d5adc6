// The access report of one pipeline run, kept as data until the run ends.
//
// Two passes contribute without reading each other's output:
//   range-report   one record per index operand, with its range from the range
//                  analysis and the limit its type gives (AddIndexRecord);
//   robust-access  one decision per index it looked at: verdict, limit, and the
//                  operand the output module uses (AddDecision).
// AssembleInto() joins them once, at the end (the pass manager calls it when
// Options::collect_ranges is set): each index record takes the verdict, limit and index
// operand (and the guard, when the decision has one) of the decision with its key
// (access_id, index_position); a decision without
// an index record (images, which the range report does not cover, or a run without the
// range report) is appended after them, in decision order, unless it was added as
// `only_if_indexed`. Linear in the number of records.
//
// A decision whose index record is already here (the pipeline runs range-report
// first) keeps only what the join takes from it, so a large module's report is held
// once, not twice.
#ifndef GLINT_SPIRV_PASSES_ACCESS_REPORT_H
#define GLINT_SPIRV_PASSES_ACCESS_REPORT_H

#include <cstddef>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "SPIRV/analysis/access/index_sites.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/passes/pass_report.h"

namespace glint::spirv {

// Names the objects of access records: the site's root by its OpName, else by the
// OpName of the type it points to (glslang leaves buffer block instances unnamed), else
// "%id". Built once per pass from the module's names.
class AccessedObjectNames {
 public:
  AccessedObjectNames(const Module& module, const DefUse& def_use);
  std::string Of(uint32_t root) const;

 private:
  const DefUse& def_use_;
  std::unordered_map<uint32_t, std::string> names_;  // the first OpName of each id
};

// A record of `site`: its location, instruction, named object, index operand and key.
AccessRecord NewAccessRecord(const IndexSite& site, const AccessedObjectNames& names);

class AccessReport {
 public:
  void AddIndexRecords(std::vector<AccessRecord> records);
  // Room for `count` decisions (one per index site), so a large report is not copied
  // as it grows.
  void ReserveDecisions(size_t count) { decisions_.reserve(decisions_.size() + count); }
  // Returns the decision's handle, for setting its index operand after the rewrite.
  size_t AddDecision(AccessRecord decision, bool only_if_indexed = false);
  void SetDecisionIndex(size_t handle, uint32_t index_id) {
    decisions_[handle].outcome.index_id = index_id;
  }

  // Appends the joined records to `out`, moving them out of this report (which is
  // spent: the pass manager assembles a run's report once, at its end).
  void AssembleInto(std::vector<AccessRecord>* out) &&;

 private:
  // What the join takes from a decision.
  struct Outcome {
    AccessVerdict verdict = AccessVerdict::kNone;
    int64_t limit = -1;
    uint32_t index_id = 0;
    SourceLocation guard;
  };
  struct Decision {
    Outcome outcome;
    // The index record it joins (its position in index_records_), when that was here
    // first; else the whole decision, appended or joined at AssembleInto.
    size_t joined = kNotJoined;
    std::unique_ptr<AccessRecord> record;
    bool only_if_indexed = false;
  };
  static constexpr size_t kNotJoined = ~size_t{0};
  static uint64_t KeyOf(const AccessRecord& record) {
    return (uint64_t(record.access_id) << 32) | record.index_position;
  }
  static void Apply(const Outcome& outcome, AccessRecord* indexed);

  std::vector<AccessRecord> index_records_;
  std::unordered_map<uint64_t, size_t> first_index_record_;  // key -> position
  std::vector<Decision> decisions_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_ACCESS_REPORT_H
