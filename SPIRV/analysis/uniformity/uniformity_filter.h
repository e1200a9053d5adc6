// What a user filter on uniformity findings says: the public glint::UniformityFilter
// (glint/types.h, defined once there). Data only; what the filters do is in
// uniformity_filters.h.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_FILTER_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_FILTER_H

#include "glint/types.h"

namespace glint::spirv {

using glint::UniformityFilterAction;
using glint::UniformityFilter;

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_FILTER_H
