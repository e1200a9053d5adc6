#include "support/range_probe.h"

#include <gtest/gtest.h>

#include <optional>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/access_report.h"
#include "SPIRV/passes/pass.h"

namespace glint::test {

ProbedRange Range(int64_t min, int64_t max) { return {true, min, max, ""}; }

ProbedRange NoRange(std::string reason) { return {false, 0, 0, std::move(reason)}; }

ProbedRange Probed(const spirv::IntegerRange& range) {
  return range.valid ? Range(range.min, range.max) : NoRange(range.reason);
}

std::ostream& operator<<(std::ostream& out, const ProbedRange& range) {
  if (!range.valid) return out << "no range: " << range.reason;
  return out << "[" << range.min << ", " << range.max << "]";
}

std::string DescribeRange(const spirv::AccessRecord& record) {
  if (!record.has_range) return "no range: " + record.reason;
  return "[" + std::to_string(record.range_min) + ", " + std::to_string(record.range_max) + "]";
}

std::vector<ProbedRange> ObjectRanges(spirv::Module& module, const spirv::Options& options,
                                      const std::string& object) {
  spirv::AnalysisContext analyses(module);
  spirv::IntegerRangeAnalysis& ranges = analyses.GetIntegerRanges(spirv::RangeOptionsFor(options));
  spirv::AccessedObjectNames names(module, analyses.GetDefUse());
  std::vector<ProbedRange> found;
  for (const spirv::IndexSite& site : analyses.GetIndexSites().sites()) {
    if (site.bound == spirv::IndexBound::kImage) continue;  // no range asked (robust access)
    spirv::AccessRecord record = spirv::NewAccessRecord(site, names);
    if (!object.empty() && record.object != object) continue;
    spirv::IntegerRange range = ranges.RangeAt(record.index_id, *site.access);
    found.push_back(Probed(range));
  }
  return found;
}

std::vector<ProbedRange> ObjectRanges(const std::vector<uint32_t>& words,
                                      const spirv::Options& options, const std::string& object) {
  std::string error;
  std::optional<spirv::Module> module = spirv::ParseModule(words, &error);
  EXPECT_TRUE(module) << error;
  if (!module) return {};
  return ObjectRanges(*module, options, object);
}

}  // namespace glint::test
