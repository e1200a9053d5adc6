// What a pipeline run reports: diagnostics, one record per dynamic index (range and
// robust access's verdict), one per hoisted constant table, and per-pass statistics.
//
// Data only: verdicts are enums, words come from the formatters above the SPIR-V
// layer. The types are the public ones (glint/types.h, defined once there): what the
// passes report is what the API returns, with nothing to convert.
#ifndef GLINT_SPIRV_PASSES_PASS_REPORT_H
#define GLINT_SPIRV_PASSES_PASS_REPORT_H

#include "glint/types.h"

namespace glint::spirv {

using glint::AccessVerdict;
using glint::AccessLimit;
using glint::AccessRecord;
using glint::TableRecord;
using glint::PassStatistic;
using glint::Report;

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_PASS_REPORT_H
