// What the range tests read from the range report: each index's range as text, for the
// accesses into one object (the tests' `Probe` buffer by default), in module order.
// One helper for every range test instead of a copy per file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "SPIRV/passes/pass_options.h"
#include "SPIRV/passes/pass_report.h"

namespace glint::test {

// "[min, max]", or "no range: why".
std::string DescribeRange(const spirv::AccessRecord& record);

// The ranges of the indices into `object` (every access when `object` is empty) of the
// module `words`, analysed with `options`; a module that does not parse fails the test
// that asked and gives nothing.
std::vector<std::string> ObjectRanges(const std::vector<uint32_t>& words,
                                      const spirv::Options& options,
                                      const std::string& object = "Probe");

}  // namespace glint::test
