// Which rules the integer range analysis (integer_range_analysis.h) applies.
//
// Its own header so that the passes' options (passes/pass_options.h) can name a mode
// without pulling in the analysis.
#ifndef GLINT_SPIRV_ANALYSIS_RANGE_ANALYSIS_MODE_H
#define GLINT_SPIRV_ANALYSIS_RANGE_ANALYSIS_MODE_H

namespace glint::spirv {

enum class RangeAnalysisMode {
  kOff,        // no analysis: every value is "no range"
  kReference,  // exactly the rules of the reference design (Tint's), nothing more
  kFull,       // Glint's analysis
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_RANGE_ANALYSIS_MODE_H
