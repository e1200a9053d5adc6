#include "support/range_probe.h"

#include <gtest/gtest.h>

#include <optional>

#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/range_report.h"

namespace glint::test {

std::string DescribeRange(const spirv::AccessRecord& record) {
  if (!record.has_range) return "no range: " + record.reason;
  return "[" + std::to_string(record.range_min) + ", " + std::to_string(record.range_max) + "]";
}

std::vector<std::string> ObjectRanges(const std::vector<uint32_t>& words,
                                      const spirv::Options& options, const std::string& object) {
  std::string error;
  std::optional<spirv::Module> module = spirv::ParseModule(words, &error);
  EXPECT_TRUE(module) << error;
  if (!module) return {};
  spirv::Report report;
  spirv::CollectAccessRecords(*module, options, &report);
  std::vector<std::string> ranges;
  for (const spirv::AccessRecord& record : report.accesses)
    if (object.empty() || record.object == object) ranges.push_back(DescribeRange(record));
  return ranges;
}

}  // namespace glint::test
