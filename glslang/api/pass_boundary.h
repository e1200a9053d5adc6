// The boundary between the public API (glint/glint.h) and the SPIR-V layer (SPIRV/).
//
// SPIRV/ has options and report types of its own (SPIRV/passes/pass_options.h,
// pass_report.h, SPIRV/diagnostics.h, SPIRV/target_env.h) and includes nothing
// glslang-facing. Everything above it that calls the passes (glint::Process,
// glint::GlslangToSpv, glslangValidator, glint-audit, tests and benches) converts here.
// The enums convert by name, with a compile-time check per enumerator; the records are
// moved field by field (no public layout is shared with the SPIR-V layer).
#ifndef GLINT_GLSLANG_API_PASS_BOUNDARY_H
#define GLINT_GLSLANG_API_PASS_BOUNDARY_H

#include "SPIRV/passes/pass_options.h"
#include "SPIRV/passes/pass_report.h"
#include "SPIRV/target_env.h"
#include "glint/glint.h"

namespace glint {

spirv::TargetEnv ToSpirv(TargetEnv env);  // kFromInput: kUniversal
TargetEnv FromSpirv(spirv::TargetEnv env);
spirv::Severity ToSpirv(Severity severity);
Severity FromSpirv(spirv::Severity severity);
spirv::RangeAnalysisMode ToSpirv(RangeAnalysisMode mode);
AccessVerdict FromSpirv(spirv::AccessVerdict verdict);
AccessLimit FromSpirv(spirv::AccessLimit limit);

// The part of `options` the passes read.
spirv::Options ToSpirv(const Options& options);

SourceLocation FromSpirv(spirv::SourceLocation location);
spirv::SourceLocation ToSpirv(const SourceLocation& location);
Diagnostic FromSpirv(spirv::Diagnostic diagnostic);
AccessRecord FromSpirv(spirv::AccessRecord record);
TableRecord FromSpirv(spirv::TableRecord table);

// Appends everything `from` holds to `into`, in order.
void AppendFromSpirv(spirv::Report from, Report& into);

}  // namespace glint

#endif  // GLINT_GLSLANG_API_PASS_BOUNDARY_H
