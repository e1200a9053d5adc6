// glint::Process and glint::GlslangToSpv: parse, run Glint's passes in their fixed
// order, emit. The caller's vector changes only when everything succeeded.
#include <glslang/SPIRV/GlslangToSpv.h>

#include "glint/glint.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/pipeline.h"
#include "SPIRV/validate.h"

namespace glint {

bool Report::HasErrors() const {
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::kError) return true;
  return false;
}

namespace {

bool Fail(Report* report, const std::string& origin, const std::string& message) {
  if (report) {
    Diagnostic diagnostic;
    diagnostic.severity = Severity::kError;
    diagnostic.origin = origin;
    diagnostic.message = message;
    report->diagnostics.push_back(std::move(diagnostic));
  }
  return false;
}

}  // namespace

bool Process(std::vector<uint32_t>& spirv, const Options& options, Report* report) {
  std::string error;
  std::optional<spirv::Module> module = spirv::ParseModule(spirv, &error);
  if (!module) return Fail(report, "parse", "malformed SPIR-V: " + error);
  spirv::PassContext context{options, report};
  spirv::PassResult result = spirv::RunPipeline(*module, context);
  if (result.status == spirv::PassStatus::kFailed) return Fail(report, "glint", result.message);
  if (result.status == spirv::PassStatus::kUnchanged && !options.validate) return true;
  std::vector<uint32_t> output = result.status == spirv::PassStatus::kChanged ? module->Encode() : spirv;
  if (options.validate) {
    std::string problem = spirv::Validate(output, options.target_env);
    if (!problem.empty()) return Fail(report, "spirv-val", problem);
  }
  spirv.swap(output);
  return true;
}

bool GlslangToSpv(const glslang::TIntermediate& intermediate, std::vector<uint32_t>& spirv,
                  const glslang::SpvOptions* spv_options, const Options& options, Report* report) {
  std::vector<uint32_t> words;
  glslang::SpvOptions defaults;
  glslang::GlslangToSpv(intermediate, words, spv_options ? const_cast<glslang::SpvOptions*>(spv_options) : &defaults);
  if (words.empty()) return Fail(report, "glslang", "glslang produced no SPIR-V");
  if (!Process(words, options, report)) return false;
  spirv.swap(words);
  return true;
}

std::string FormatDiagnostic(const Diagnostic& diagnostic) {
  static const char* const kLabels[] = {"", "NOTE", "WARNING", "ERROR"};
  std::string text = kLabels[static_cast<int>(diagnostic.severity)];
  text += ": ";
  if (!diagnostic.location.file.empty() || diagnostic.location.line) {
    text += diagnostic.location.file + ":" + std::to_string(diagnostic.location.line) + ": ";
  }
  text += diagnostic.message;
  for (const std::string& reason : diagnostic.reasons) text += "\n    " + reason;
  return text;
}

}  // namespace glint
