// What the range tests read: the range analysis's own value (IntegerRange) at each index
// into one object (the tests' `Probe` buffer by default), in module order, asked of the
// analysis at its index sites as the range report asks it, but without the report. Tests
// compare values: Range(min, max), or NoRange(reason).
// One helper for every range test instead of a copy per file.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "SPIRV/analysis/range/range_types.h"
#include "SPIRV/passes/pass_options.h"
#include "SPIRV/passes/pass_report.h"

namespace glint::test {

// An index's range as the tests compare it: whether there is one, its ends (in the
// value's own reading), and else the reason. Signedness and the narrowing guard are left
// out: the tests that care ask for them apart.
struct ProbedRange {
  bool valid = false;
  int64_t min = 0;
  int64_t max = 0;
  std::string reason;
  bool operator==(const ProbedRange& other) const {
    return valid == other.valid &&
           (valid ? min == other.min && max == other.max : reason == other.reason);
  }
  bool operator!=(const ProbedRange& other) const { return !(*this == other); }
};
ProbedRange Range(int64_t min, int64_t max);
// The analysis's own value, as the tests compare it.
ProbedRange Probed(const spirv::IntegerRange& range);
ProbedRange NoRange(std::string reason);
// "[min, max]", or "no range: why" (failure messages).
std::ostream& operator<<(std::ostream& out, const ProbedRange& range);
inline void PrintTo(const ProbedRange& range, std::ostream* out) { *out << range; }

// A range report record's range in the same words (the report's own tests).
std::string DescribeRange(const spirv::AccessRecord& record);

// The ranges of the indices into `object` (every index when `object` is empty) of the
// module `words`, analysed with `options`; a module that does not parse fails the test
// that asked and gives nothing.
std::vector<ProbedRange> ObjectRanges(const std::vector<uint32_t>& words,
                                      const spirv::Options& options,
                                      const std::string& object = "Probe");
// The same for a module already parsed (and perhaps rewritten by a pass).
std::vector<ProbedRange> ObjectRanges(spirv::Module& module, const spirv::Options& options,
                                      const std::string& object = "Probe");

}  // namespace glint::test
