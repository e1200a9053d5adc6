// Which rules the integer range analysis (integer_range_analysis.h) applies: the public
// glint::RangeAnalysisMode (glint/types.h, defined once there).
//
// Its own header so that the passes' options (passes/pass_options.h) can name a mode
// without pulling in the analysis.
#ifndef GLINT_SPIRV_ANALYSIS_RANGE_ANALYSIS_MODE_H
#define GLINT_SPIRV_ANALYSIS_RANGE_ANALYSIS_MODE_H

#include "glint/types.h"

namespace glint::spirv {

using glint::RangeAnalysisMode;

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_RANGE_ANALYSIS_MODE_H
