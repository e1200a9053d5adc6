// glslc's resource limits: shaderc 2023.2's default table (it differs from glslang's in 17
// limits, e.g. MaxLights 8, not 32), the 83 names -flimit= and -flimit-file take and
// --show-limits prints, in glslc's order, and the parser of a limits text
// ("MaxLights 8 MaxDrawBuffers 4 ...").
#ifndef GLINT_GLSLC_RESOURCE_LIMITS_H
#define GLINT_GLSLC_RESOURCE_LIMITS_H

#include <string>

#include <glslang/Include/ResourceLimits.h>

namespace glint::glslc {

// shaderc's defaults.
TBuiltInResource ShadercDefaultLimits();

// "Name value\n" for each named limit of `limits`, in glslc's order (--show-limits).
std::string LimitsText(const TBuiltInResource& limits);

// Applies `text` (whitespace-separated names and decimal integers; the nine
// `limits.*` flags' names are accepted and ignored) to `limits`. On an error nothing is
// applied and `error` gets glslc's detail ("invalid resource limit: X", "missing value
// after limit: X", "invalid integer: T").
bool ParseLimits(const std::string& text, TBuiltInResource* limits, std::string* error);

// Sets the `index`-th named limit (glslc's order, which is libshaderc's shaderc_limit);
// false for an index past the last.
bool SetLimit(size_t index, int value, TBuiltInResource* limits);

}  // namespace glint::glslc

#endif  // GLINT_GLSLC_RESOURCE_LIMITS_H
