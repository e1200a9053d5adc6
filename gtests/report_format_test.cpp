// Tests of FormatRangeReport: the text line and the JSON object of each record kind
// (range, no range, limit, verdict, no location, characters JSON must escape).
#include <gtest/gtest.h>

#include "glint/report_format.h"

namespace glint {
namespace {

Report SampleReport() {
  Report report;
  AccessRecord ranged;
  ranged.location = {"a.comp", 6, 3};
  ranged.instruction = "OpAccessChain";
  ranged.object = "table";
  ranged.index_id = 27;
  ranged.access_id = 29;
  ranged.index_position = 1;
  ranged.has_range = true;
  ranged.is_signed = true;
  ranged.range_min = 0;
  ranged.range_max = 9;
  ranged.limit = 15;
  ranged.verdict = AccessVerdict::kProvenInBounds;
  AccessRecord unranged;
  unranged.instruction = "OpVectorExtractDynamic";
  unranged.object = "v\"1";
  unranged.index_id = 40;
  unranged.reason = "loop bound is not a constant";
  unranged.limit_kind = AccessLimit::kRuntimeLength;
  report.accesses = {ranged, unranged};
  return report;
}

TEST(ReportFormat, Text_OneLinePerAccess) {
  EXPECT_EQ(FormatRangeReport(SampleReport(), false),
            "a.comp:6: OpAccessChain table[index %27]: range [0, 9], limit 15: proven in "
            "bounds\n"
            "OpVectorExtractDynamic v\"1[index %40]: no range: loop bound is not a constant\n");
}

TEST(ReportFormat, Json_SameContent) {
  EXPECT_EQ(FormatRangeReport(SampleReport(), true),
            "{\"accesses\": [\n"
            "  {\"file\": \"a.comp\", \"line\": 6, \"instruction\": \"OpAccessChain\", "
            "\"object\": \"table\", \"index\": 27, \"position\": 1, \"range\": [0, 9], "
            "\"signed\": true, \"limit\": 15, \"verdict\": \"proven in bounds\"},\n"
            "  {\"file\": \"\", \"line\": 0, \"instruction\": \"OpVectorExtractDynamic\", "
            "\"object\": \"v\\\"1\", \"index\": 40, \"position\": 0, \"range\": null, "
            "\"signed\": false, \"reason\": \"loop bound is not a constant\", \"limit\": null, "
            "\"limit_source\": \"runtime array length\", "
            "\"verdict\": null}\n"
            "]}\n");
}

// An index proven out of bounds: the invocation and the index it computes, after the
// verdict in text, as an object in JSON.
TEST(ReportFormat, OutOfBounds_NamesTheInvocation) {
  Report report;
  AccessRecord record;
  record.location = {"m.mesh", 46, 0};
  record.instruction = "OpAccessChain";
  record.object = "prims";
  record.index_id = 149;
  record.has_range = true;
  record.range_min = 1;
  record.range_max = 32;
  record.limit = 31;
  record.verdict = AccessVerdict::kClamped;
  record.out_of_bounds = true;
  record.witness_invocation = {31, 0, 2};
  record.witness_value = 32;
  report.accesses = {record};
  EXPECT_EQ(FormatRangeReport(report, false),
            "m.mesh:46: OpAccessChain prims[index %149]: range [1, 32], limit 31: clamped; out "
            "of bounds: index 32 at local invocation (31, 0, 2) of every workgroup\n");
  EXPECT_EQ(FormatRangeReport(report, true),
            "{\"accesses\": [\n"
            "  {\"file\": \"m.mesh\", \"line\": 46, \"instruction\": \"OpAccessChain\", "
            "\"object\": \"prims\", \"index\": 149, \"position\": 0, \"range\": [1, 32], "
            "\"signed\": false, \"limit\": 31, \"verdict\": \"clamped\", \"out_of_bounds\": "
            "{\"value\": 32, \"local_invocation\": [31, 0, 2]}}\n"
            "]}\n");
}

// A runtime array whose length the shader never reads: said after the range in text, a
// field in JSON; a runtime array without it says neither (SampleReport's second record).
TEST(ReportFormat, LengthNeverRead_IsSaid) {
  Report report;
  AccessRecord record;
  record.instruction = "OpAccessChain";
  record.object = "counts";
  record.index_id = 47;
  record.has_range = true;
  record.range_max = 63;
  record.limit_kind = AccessLimit::kRuntimeLength;
  record.length_never_read = true;
  record.verdict = AccessVerdict::kClamped;
  report.accesses = {record};
  EXPECT_EQ(FormatRangeReport(report, false),
            "OpAccessChain counts[index %47]: range [0, 63], runtime array length never read by "
            "the shader: clamped\n");
  EXPECT_NE(FormatRangeReport(report, true)
                .find("\"limit\": null, \"limit_source\": \"runtime array length\", "
                      "\"length_never_read\": true, \"verdict\": \"clamped\"}"),
            std::string::npos)
      << FormatRangeReport(report, true);
  EXPECT_EQ(FormatRangeReport(SampleReport(), true).find("length_never_read"), std::string::npos);
}

// An array whose length is a specialization constant: said in text, named in JSON.
TEST(ReportFormat, SpecializationConstantLimit_IsNamed) {
  Report report;
  AccessRecord record;
  record.instruction = "OpAccessChain";
  record.object = "tile";
  record.index_id = 42;
  record.has_range = true;
  record.range_max = 7;
  record.limit_kind = AccessLimit::kSpecializationConstant;
  record.verdict = AccessVerdict::kClamped;
  report.accesses = {record};
  EXPECT_EQ(FormatRangeReport(report, false),
            "OpAccessChain tile[index %42]: range [0, 7], limit set by a specialization "
            "constant: clamped\n");
  EXPECT_NE(FormatRangeReport(report, true)
                .find("\"limit\": null, \"limit_source\": \"specialization constant\", "
                      "\"verdict\": \"clamped\"}"),
            std::string::npos)
      << FormatRangeReport(report, true);
  EXPECT_STREQ(AccessLimitText(AccessLimit::kFixed), "fixed");
  EXPECT_STREQ(AccessLimitText(AccessLimit::kImage), "image size");
  EXPECT_STREQ(AccessLimitText(AccessLimit::kNone), "none");
}

// Proven against a length the application sets: in bounds for every value it may give.
TEST(ReportFormat, ProvenForEverySpecialization_IsSaid) {
  Report report;
  AccessRecord record;
  record.instruction = "OpAccessChain";
  record.object = "tmp";
  record.index_id = 20;
  record.reason = "workgroup size is a specialization constant without a value";
  record.limit_kind = AccessLimit::kSpecializationConstant;
  record.verdict = AccessVerdict::kProvenInBounds;
  record.guard = {"k.comp", 17, 0};
  report.accesses = {record};
  EXPECT_EQ(FormatRangeReport(report, false),
            "OpAccessChain tmp[index %20]: no range: workgroup size is a specialization "
            "constant without a value, limit set by a specialization constant: proven in "
            "bounds for every specialization (proven by the condition at k.comp:17)\n");
  EXPECT_NE(FormatRangeReport(report, true)
                .find("\"limit_source\": \"specialization constant\", \"verdict\": \"proven in "
                      "bounds\""),
            std::string::npos)
      << FormatRangeReport(report, true);
}

TEST(ReportFormat, Empty_IsEmptyTextAndEmptyJsonList) {
  EXPECT_EQ(FormatRangeReport(Report{}, false), "");
  EXPECT_EQ(FormatRangeReport(Report{}, true), "{\"accesses\": []}\n");
}

}  // namespace
}  // namespace glint
