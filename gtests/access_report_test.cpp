// AccessReport (SPIRV/passes/access_report.h): range-report's index records and robust
// access's decisions join by (access_id, index_position) whichever came first; a
// decision without an index record is appended unless it is `only_if_indexed`.
#include "SPIRV/passes/access_report.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace glint::spirv {
namespace {

AccessRecord IndexRecord(uint32_t access_id, uint32_t position, const char* object) {
  AccessRecord record;
  record.access_id = access_id;
  record.index_position = position;
  record.object = object;
  record.instruction = "OpAccessChain";
  record.has_range = true;
  record.range_max = 63;
  record.limit = 63;
  return record;
}

AccessRecord Decision(uint32_t access_id, uint32_t position, AccessVerdict verdict, int64_t limit,
                      uint32_t guard_line = 0) {
  AccessRecord record = IndexRecord(access_id, position, "from the decision");
  record.has_range = false;
  record.verdict = verdict;
  record.limit = limit;
  record.guard.line = guard_line;
  return record;
}

TEST(AccessReport, DecisionAfterItsIndexRecord_TakesVerdictLimitIndexAndGuard) {
  AccessReport report;
  report.AddIndexRecords({IndexRecord(10, 1, "tile"), IndexRecord(11, 1, "data")});
  size_t handle = report.AddDecision(Decision(11, 1, AccessVerdict::kClamped, 1023, 7));
  report.SetDecisionIndex(handle, 99);
  std::vector<AccessRecord> out;
  std::move(report).AssembleInto(&out);
  ASSERT_EQ(2u, out.size());
  EXPECT_EQ(AccessVerdict::kNone, out[0].verdict);
  EXPECT_EQ("data", out[1].object);  // the index record's own fields stay
  EXPECT_TRUE(out[1].has_range);
  EXPECT_EQ(AccessVerdict::kClamped, out[1].verdict);
  EXPECT_EQ(1023, out[1].limit);
  EXPECT_EQ(99u, out[1].index_id);
  EXPECT_EQ(7u, out[1].guard.line);
}

TEST(AccessReport, DecisionBeforeItsIndexRecord_JoinsAtAssembly) {
  AccessReport report;
  size_t handle = report.AddDecision(Decision(11, 2, AccessVerdict::kProvenInBounds, 15));
  report.SetDecisionIndex(handle, 42);
  report.AddIndexRecords({IndexRecord(11, 2, "data")});
  std::vector<AccessRecord> out;
  std::move(report).AssembleInto(&out);
  ASSERT_EQ(1u, out.size());
  EXPECT_EQ("data", out[0].object);
  EXPECT_EQ(AccessVerdict::kProvenInBounds, out[0].verdict);
  EXPECT_EQ(15, out[0].limit);
  EXPECT_EQ(42u, out[0].index_id);
}

TEST(AccessReport, GuardlessDecisionKeepsTheIndexRecordsGuard) {
  AccessReport report;
  AccessRecord indexed = IndexRecord(10, 1, "tile");
  indexed.guard.line = 12;
  report.AddIndexRecords({indexed});
  report.AddDecision(Decision(10, 1, AccessVerdict::kProvenInBounds, 63));
  std::vector<AccessRecord> out;
  std::move(report).AssembleInto(&out);
  ASSERT_EQ(1u, out.size());
  EXPECT_EQ(12u, out[0].guard.line);
}

TEST(AccessReport, UnjoinedDecisions_AppendedInOrderUnlessOnlyIfIndexed) {
  AccessReport report;
  report.AddIndexRecords({IndexRecord(10, 1, "tile")});
  size_t image = report.AddDecision(Decision(20, 0, AccessVerdict::kClamped, -1));
  report.AddDecision(Decision(21, 1, AccessVerdict::kNotClamped, 3), /*only_if_indexed=*/true);
  report.AddDecision(Decision(0, 0, AccessVerdict::kUnbounded, -1));  // no access id: never joins
  report.SetDecisionIndex(image, 77);
  std::vector<AccessRecord> out;
  std::move(report).AssembleInto(&out);
  ASSERT_EQ(3u, out.size());
  EXPECT_EQ(AccessVerdict::kNone, out[0].verdict);
  EXPECT_EQ(20u, out[1].access_id);
  EXPECT_EQ(77u, out[1].index_id);
  EXPECT_EQ("from the decision", out[1].object);
  EXPECT_EQ(AccessVerdict::kUnbounded, out[2].verdict);
}

TEST(AccessReport, OneKeyTwice_TheFirstIndexRecordTakesTheLastDecision) {
  AccessReport report;
  report.AddIndexRecords({IndexRecord(10, 1, "first"), IndexRecord(10, 1, "second")});
  report.AddDecision(Decision(10, 1, AccessVerdict::kClamped, 63));
  report.AddDecision(Decision(10, 1, AccessVerdict::kProvenInBounds, 31));
  std::vector<AccessRecord> out;
  std::move(report).AssembleInto(&out);
  ASSERT_EQ(2u, out.size());
  EXPECT_EQ(AccessVerdict::kProvenInBounds, out[0].verdict);
  EXPECT_EQ(31, out[0].limit);
  EXPECT_EQ(AccessVerdict::kNone, out[1].verdict);
}

TEST(AccessReport, AppendsAfterWhatTheReportAlreadyHolds) {
  AccessReport report;
  report.AddIndexRecords({IndexRecord(10, 1, "tile")});
  report.AddDecision(Decision(10, 1, AccessVerdict::kClamped, 63));
  std::vector<AccessRecord> out = {IndexRecord(1, 0, "earlier")};
  std::move(report).AssembleInto(&out);
  ASSERT_EQ(2u, out.size());
  EXPECT_EQ(AccessVerdict::kNone, out[0].verdict);
  EXPECT_EQ(AccessVerdict::kClamped, out[1].verdict);
}

}  // namespace
}  // namespace glint::spirv
