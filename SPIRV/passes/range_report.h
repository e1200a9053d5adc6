// Range report: a read-only pass that records, for every index operand of every
// OpAccessChain / OpInBoundsAccessChain / OpPtrAccessChain (the Element operand and each
// index), OpVectorExtractDynamic and OpVectorInsertDynamic, the index's integer range
// (analysis/integer_range_analysis.h) or "no range" with the first reason. It changes
// nothing in the module; it runs only when Options::collect_ranges is set.
//
// Records (glint::AccessRecord) come in a stable order: instructions in module binary
// order, then index operands in operand order. Each record is keyed by
// (access_id, index_position): the accessing instruction's result id and the index's
// position among its indices (OpPtrAccessChain: 0 is Element, 1.. the indices).
//
// Contract with the robustness emitter (passes/robust_access): the report runs before
// it, on the module it is about to rewrite. The emitter finds a record with
// FindAccessRecord() and fills `limit` (the largest valid index, -1 when only known at
// run time) and `verdict` ("clamped", "proven in bounds", "unbounded", "not clamped");
// when it replaces an index it sets `index_id` to the new operand. The report never
// writes `limit` or `verdict` itself, except `limit` for what it can read off the
// type (a fixed-size array, vector or matrix step), so that --dump-ranges without
// --robust-access still shows the bound.
//
// Locations come from the OpLine in effect at the accessing instruction; a module
// without line information gives records with an empty file and line 0.
#ifndef GLINT_SPIRV_PASSES_RANGE_REPORT_H
#define GLINT_SPIRV_PASSES_RANGE_REPORT_H

#include "SPIRV/ir/def_use.h"
#include "pass.h"

namespace glint::spirv {

// Appends one record per dynamic-or-constant index operand to report->accesses.
// Uses Options::range_analysis and Options::subgroup_size.
void CollectAccessRecords(Module& module, const Options& options, Report* report);

// The record of (access_id, index_position), or null.
AccessRecord* FindAccessRecord(Report* report, uint32_t access_id, uint32_t index_position);

// The OpLine in effect at `inst` within its block (empty without line information).
SourceLocation LineOf(const DefUse& def_use, const Instruction* inst);

// The pass wrapper: runs CollectAccessRecords when options.collect_ranges is set and a
// report is given; never changes the module.
class RangeReportPass : public Pass {
 public:
  const char* name() const override { return "range-report"; }
  PassResult Run(Module& module, PassContext& context) override;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_RANGE_REPORT_H
