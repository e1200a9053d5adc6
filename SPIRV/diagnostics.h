// What analyses and passes say to the user: a diagnostic with a severity, the source
// location it names, and the chain of reasons behind it.
//
// Data only; words are chosen by the formatters above the SPIR-V layer. The types are
// the public ones (glint/types.h, defined once there), named here for the SPIR-V layer.
#ifndef GLINT_SPIRV_DIAGNOSTICS_H
#define GLINT_SPIRV_DIAGNOSTICS_H

#include "glint/types.h"

namespace glint::spirv {

using glint::Severity;
using glint::SourceLocation;
using glint::Diagnostic;
using glint::SuppressedDiagnostic;

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_DIAGNOSTICS_H
