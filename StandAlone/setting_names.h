// The names the command lines give Glint's settings, one table for every tool:
// glslangValidator's --range-analysis= and --uniformity=, glslc's -frange-analysis= and
// -funiformity=. Each tool words its own refusal of a name it does not know.
#ifndef GLINT_STANDALONE_SETTING_NAMES_H
#define GLINT_STANDALONE_SETTING_NAMES_H

#include <optional>
#include <string_view>

#include "glint/types.h"

namespace glint::standalone {

// off, reference, full.
inline std::optional<RangeAnalysisMode> RangeAnalysisModeNamed(std::string_view name) {
  if (name == "off") return RangeAnalysisMode::kOff;
  if (name == "reference") return RangeAnalysisMode::kReference;
  if (name == "full") return RangeAnalysisMode::kFull;
  return std::nullopt;
}

// warn, error, off.
inline std::optional<Severity> UniformitySeverityNamed(std::string_view name) {
  if (name == "warn") return Severity::kWarning;
  if (name == "error") return Severity::kError;
  if (name == "off") return Severity::kOff;
  return std::nullopt;
}

}  // namespace glint::standalone

#endif  // GLINT_STANDALONE_SETTING_NAMES_H
