// Range report (see range_report.h).
#include "range_report.h"

#include "SPIRV/analysis/integer_range_analysis.h"
#include "SPIRV/ir/source_lines.h"
#include "access_report.h"

namespace glint::spirv {

std::vector<AccessRecord> CollectAccessRecords(AnalysisContext& analyses, const Options& options) {
  IntegerRangeAnalysis& ranges = analyses.GetIntegerRanges(RangeOptionsFor(options));
  SourceLines& lines = analyses.GetSourceLines();
  AccessedObjectNames names(analyses.module(), analyses.GetDefUse());
  std::vector<AccessRecord> records;
  for (const IndexSite& site : analyses.GetIndexSites().sites()) {
    if (site.bound == IndexBound::kImage) continue;  // robust access decides those alone
    AccessRecord record = NewAccessRecord(site, names);
    IntegerRange range = ranges.RangeAt(record.index_id, *site.access);
    record.has_range = range.valid;
    record.is_signed = range.is_signed;
    record.range_min = range.min;
    record.range_max = range.max;
    record.reason = range.reason;
    record.limit = site.type_last;
    if (range.guard) record.guard = lines.At(range.guard);
    records.push_back(std::move(record));
  }
  return records;
}

void CollectAccessRecords(Module& module, const Options& options, Report* report) {
  if (!report) return;
  AnalysisContext analyses(module);
  for (AccessRecord& record : CollectAccessRecords(analyses, options))
    report->accesses.push_back(std::move(record));
}

PassResult RangeReportPass::Process(Module&, PassContext& context) {
  if (context.options.collect_ranges && context.report)
    for (AccessRecord& record : CollectAccessRecords(*context.analyses, context.options))
      context.accesses->AddIndexRecord(std::move(record));
  return PassResult::Unchanged();
}

}  // namespace glint::spirv
