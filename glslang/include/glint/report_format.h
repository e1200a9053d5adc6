// Text and JSON renderings of the range report (Report::accesses), as
// `glslangValidator --dump-ranges` and `--dump-ranges=json` print them.
//
// Text: one line per access, in the report's order:
//   file:line: OpAccessChain data[index %27]: range [0, 9], limit 15: proven in bounds
//   file:line: OpAccessChain data[index %33]: no range: loop bound is not a constant
// The location prefix is left out when the module had no line information; ", limit N"
// appears when the limit is known and ": verdict" when a pass gave one.
// JSON: {"accesses": [{"file":..., "line":..., "instruction":..., "object":...,
//   "index": id, "position": n, "range": [min, max] | null, "signed": bool,
//   "reason": "..." (only without a range), "limit": n | null, "verdict": "..." | null}]}
#ifndef GLINT_REPORT_FORMAT_H
#define GLINT_REPORT_FORMAT_H

#include <string>

#include "glint/glint.h"

namespace glint {

GLINT_EXPORT std::string FormatRangeReport(const Report& report, bool json);

}  // namespace glint

#endif  // GLINT_REPORT_FORMAT_H
