// Range report (see range_report.h).
#include "range_report.h"

#include "SPIRV/analysis/range/integer_range_analysis.h"
#include "SPIRV/analysis/access/out_of_bounds_witness.h"
#include "SPIRV/analysis/access/runtime_length_reads.h"
#include "SPIRV/ir/source_lines.h"
#include "access_report.h"

namespace glint::spirv {

std::vector<AccessRecord> CollectAccessRecords(AnalysisContext& analyses, const Options& options) {
  IntegerRangeAnalysis& ranges = analyses.GetIntegerRanges(RangeOptionsFor(options));
  SourceLines& lines = analyses.GetSourceLines();
  AccessedObjectNames names(analyses.module(), analyses.GetDefUse());
  OutOfBoundsWitnesses witnesses(
      analyses.module(), analyses.GetDefUse(), analyses.GetBuiltIns(),
      [&analyses](Function& function) -> const Cfg& { return analyses.GetCfg(function); });
  RuntimeLengthReads length_reads(analyses.module(), analyses.GetDefUse());
  std::vector<AccessRecord> records;
  records.reserve(analyses.GetIndexSites().sites().size());
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
    // Only an index whose range leaves the object can be out of bounds.
    bool may_leave = !range.valid || range.min < 0 || uint64_t(range.max) > site.last;
    if (site.bound == IndexBound::kFixed && may_leave) {
      if (std::optional<OutOfBoundsWitness> witness = witnesses.Find(site)) {
        record.out_of_bounds = true;
        record.witness_invocation = witness->invocation;
        record.witness_value = witness->value;
      }
    }
    if (site.bound == IndexBound::kRuntimeLength)
      record.length_never_read = !length_reads.MayBeRead(site.object);
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
    context.accesses->AddIndexRecords(CollectAccessRecords(*context.analyses, context.options));
  return PassResult::Unchanged();
}

}  // namespace glint::spirv
