// Range report (see range_report.h). Work in progress: the interface is final.
#include "range_report.h"

namespace glint::spirv {

void CollectAccessRecords(Module&, const Options&, Report*) {}

AccessRecord* FindAccessRecord(Report* report, uint32_t access_id, uint32_t index_position) {
  if (!report) return nullptr;
  for (AccessRecord& record : report->accesses)
    if (record.access_id == access_id && record.index_position == index_position) return &record;
  return nullptr;
}

PassResult RangeReportPass::Run(Module& module, PassContext& context) {
  if (context.options.collect_ranges && context.report)
    CollectAccessRecords(module, context.options, context.report);
  return PassResult::Unchanged();
}

}  // namespace glint::spirv
