// What analyses and passes say to the user: a diagnostic with a severity, the source
// location it names, and the chain of reasons behind it.
//
// Data only; words are chosen by the formatters above the SPIR-V layer. These types
// mirror the public glint::Diagnostic so that SPIRV/ needs no glslang-facing header;
// the public API converts them (glslang/api/pass_boundary.h).
#ifndef GLINT_SPIRV_DIAGNOSTICS_H
#define GLINT_SPIRV_DIAGNOSTICS_H

#include <cstdint>
#include <string>
#include <vector>

namespace glint::spirv {

enum class Severity { kOff, kNote, kWarning, kError };

struct SourceLocation {
  std::string file;  // empty when the module carries no line information
  uint32_t line = 0;
  uint32_t column = 0;
};

struct Diagnostic {
  Severity severity = Severity::kError;
  std::string origin;  // the pass or analysis that speaks, e.g. "uniformity"
  SourceLocation location;
  std::string message;
  // The chain of reasons behind the message, outermost first.
  std::vector<std::string> reasons;
  // Where each reason points (same length as `reasons` when filled; line 0 where a
  // reason names no line). Empty when the analysis gives no locations.
  std::vector<SourceLocation> reason_locations;
  // A stable identifier of what kind of finding this is, e.g. "uniformity/barrier".
  std::string rule;
};

// A diagnostic the user silenced (a uniformity filter): kept so that reports can show it.
struct SuppressedDiagnostic {
  Diagnostic diagnostic;      // as it would have been reported
  std::string filter;         // the filter that silenced it, as a command line spells it
  std::string justification;  // the filter's justification
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_DIAGNOSTICS_H
