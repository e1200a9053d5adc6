// Range report: a read-only pass that records, for every index site the analysis
// context lists (analysis/access/index_sites.h) except image coordinates - every index operand
// of OpAccessChain / OpInBoundsAccessChain / OpPtrAccessChain (the Element operand and
// each index), OpVectorExtractDynamic and OpVectorInsertDynamic, struct member
// selections left out - the index's integer range (analysis/range/integer_range_analysis.h)
// or "no range" with the first reason. It changes
// nothing in the module. The default pipeline runs it only with Options::collect_ranges
// (--passes may name it alone); its records reach Report::accesses only with collect_ranges.
//
// Records (AccessRecord, pass_report.h) come in a stable order: instructions in module binary
// order, then index operands in operand order. Each record is keyed by
// (access_id, index_position): the accessing instruction's result id and the index's
// position among its indices (OpPtrAccessChain: 0 is Element, 1.. the indices).
//
// The records go into the run's access report (access_report.h), never straight into
// Report::accesses: robust access decides its verdicts by asking the range analysis
// itself, and the pass manager joins both at the end. The report writes `limit` only
// for what it can read off the type (a fixed-size array, vector or matrix step), so
// that --dump-ranges without --robust-access still shows the bound; the verdict stays
// AccessVerdict::kNone unless robust access decides one. It uses the analysis context's
// range analysis, which robust access then reuses (built once per module).
//
// Locations are the sites' (SourceLines' rule: the OpLine in effect at the accessing
// instruction, or where its block has none, its dominator's; the merge block of a
// lowered `?:` has the selection's line); a module without line information gives
// records with an empty file and line 0. A guard is located the same way. Objects are
// named by AccessedObjectNames (access_report.h).
#ifndef GLINT_SPIRV_PASSES_RANGE_REPORT_H
#define GLINT_SPIRV_PASSES_RANGE_REPORT_H

#include <vector>

#include "SPIRV/ir/def_use.h"
#include "pass.h"

namespace glint::spirv {

// One record per index site of `analyses`' module (index_sites.h) other than an image
// coordinate, in the sites' order (the report's order): readers may pair records with
// sites by that order (the audit instrumentation does). Uses Options::range_analysis,
// Options::subgroup_size and Options::max_workgroups.
std::vector<AccessRecord> CollectAccessRecords(AnalysisContext& analyses, const Options& options);
// The same on a module of its own (a fresh analysis context): appends to
// report->accesses.
void CollectAccessRecords(Module& module, const Options& options, Report* report);

// The pass: when options.collect_ranges is set and a report is given, adds the records
// to the run's access report; never changes the module.
class RangeReportPass : public Pass {
 public:
  const char* name() const override { return "range-report"; }

 protected:
  PassResult Process(Module& module, PassContext& context) override;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_RANGE_REPORT_H
