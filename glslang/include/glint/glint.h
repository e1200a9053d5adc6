// Glint's public C++ API.
//
// Glint is glslang's SPIR-V code generation followed by Glint's own passes (constant
// tables hoisted to Private variables, optional robust access with integer range
// analysis, uniformity warnings). An engine that today calls
//   glslang::GlslangToSpv(intermediate, spirv, &spvOptions);
// calls instead
//   glint::GlslangToSpv(intermediate, spirv, &spvOptions, glintOptions, &report);
// and SPIR-V from any other front end goes through glint::Process().
//
// Thread safety: both entry points may be called from several threads at once, each
// with its own module and report; they share no mutable state. glslang itself needs
// glslang::InitializeProcess() once per process before any TShader::parse (the
// embedder's job, as with plain glslang); after that each thread may parse, link and
// call glint::GlslangToSpv with its own TShader / TProgram. glint::GlslangToSpv may
// also run on a thread that never parsed (plain glslang 12's GlslangToSpv crashes
// there: it needs the thread's pool allocator, which Glint provides for the call).
// Tested with 8 threads compiling at once (gtests/api_test.cpp, c_api_test.cpp).
//
// Errors are values: the entry points never throw (std::bad_alloc included) and never
// abort; a false return comes with an error Diagnostic saying why. `report` may be
// null; when given, it is appended to (never cleared), and it receives access records
// and pass statistics only from a call that succeeded.
//
// C: glint/glint_c.h has the same two entry points behind opaque handles.
#ifndef GLINT_GLINT_H
#define GLINT_GLINT_H

#include <cstdint>
#include <string>
#include <vector>

#include "glint/export.h"
#include "glint/types.h"

namespace glslang {
class TIntermediate;
struct SpvOptions;
}  // namespace glslang

namespace spv {
class SpvBuildLogger;
}  // namespace spv

namespace glint {

// Reads a filter as glslangValidator's flags spell it after the '=':
// "FUNCTION", "FILE:LINE" or "FILE:FIRST-LAST", each optionally followed by
// "=JUSTIFICATION". On failure returns false and says why in *error.
GLINT_EXPORT bool ParseUniformityFilter(UniformityFilterAction action, const std::string& text,
                                        UniformityFilter* filter, std::string* error);

// glslang's SPIR-V generation for `intermediate`, then Glint's passes. On failure
// returns false, leaves `spirv` as it was, and says why in report->diagnostics.
// `spv_options` may be null (glslang's defaults). When the module carries no line
// information and there is something to report, the report still names source lines
// (a second generation with line information, used only for the report; the output
// words do not depend on whether a report was asked for).
GLINT_EXPORT bool GlslangToSpv(const glslang::TIntermediate& intermediate,
                               std::vector<uint32_t>& spirv, const glslang::SpvOptions* spv_options,
                               const Options& options, Report* report);

// glslang 12's two GlslangToSpv shapes, in namespace glint with the same parameters,
// so switching is the namespace: glslang's SPIR-V generation (and, as glslang does with
// these SpvOptions, its optimizer, debug-info stripping and disassembly to stdout),
// then Glint's passes with default Options. What `spirv` gets: the module is appended
// to it, as glslang appends its own; when Glint refuses a module (an internal error,
// never with default options otherwise), `spirv` is left as it was and the logger has
// the error. The logger receives glslang's messages exactly as glslang logs them,
// then each Glint diagnostic as glslang's logger formats a message: errors through
// error(), warnings and notes through warning(), the text "file:line: message" with
// each reason on its own indented line. options->validate validates Glint's final
// module, as glslang would its own (same environment from the intermediate, same
// layout rules, "SPIRV-Tools Validation Errors" then the validator's message).
// Never throws; may run on any thread (see above).
GLINT_EXPORT void GlslangToSpv(const glslang::TIntermediate& intermediate,
                               std::vector<unsigned int>& spirv,
                               glslang::SpvOptions* spv_options = nullptr);
GLINT_EXPORT void GlslangToSpv(const glslang::TIntermediate& intermediate,
                               std::vector<unsigned int>& spirv, spv::SpvBuildLogger* logger,
                               glslang::SpvOptions* spv_options = nullptr);

// Glint's passes on SPIR-V from any front end. On failure returns false and leaves
// `spirv` unchanged. The input is checked first: it must parse and pass spirv-val's
// core rules (universal environment of its own version), so a malformed module is an
// error, never a crash. Records name lines only where the module has OpLine.
GLINT_EXPORT bool Process(std::vector<uint32_t>& spirv, const Options& options, Report* report);

// Gives back what the library holds for the life of the process: its reference on
// glslang's process state (glslang::InitializeProcess, taken on first use and kept, so
// that an embedder's FinalizeProcess cannot free glslang's built-in tables under a
// running compile and per-compile InitializeProcess/FinalizeProcess stays cheap). After
// it, glslang's tables are freed once nobody else holds a reference. For hosts that
// check that everything is freed at exit; call it when no compile is running. Any later
// call into the library takes the reference again. C: glint_shutdown().
GLINT_EXPORT void Shutdown();

// Formats a diagnostic the way glslangValidator prints messages:
// "WARNING: file:line: message" followed by indented reason lines.
GLINT_EXPORT std::string FormatDiagnostic(const Diagnostic& diagnostic);

}  // namespace glint

#endif  // GLINT_GLINT_H
