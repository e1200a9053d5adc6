// Uniformity analysis, entry: builds the module facts and runs one EntryPointAnalysis per
// entry point (uniformity.h says what is proven); a refusal of any entry point drops all
// findings, and so does an instruction that lacks an operand. Also the findings as
// diagnostics.
#include "SPIRV/analysis/uniformity_internal.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "SPIRV/analysis/analysis_context.h"

namespace glint::spirv {

using uniformity_detail::CollectModuleFacts;
using uniformity_detail::EntryPointAnalysis;
using uniformity_detail::ModuleFacts;

namespace {

// One entry point: the lane analysis first where it may help (uniformity_lanes.cpp; one
// that misses its budget is left out, which only loses precision), then the analysis
// whose findings count. Returns the refusal or "".
std::string AnalyzeEntryPoint(ModuleFacts& facts, const Instruction& entry_point,
                              const UniformityOptions& options, UniformityResult* result,
                              std::unordered_set<const Instruction*>* reported) {
  EntryPointAnalysis analysis(facts, entry_point, options);
  std::unique_ptr<EntryPointAnalysis> lanes;
  if (analysis.WantsLanes()) {
    lanes = std::make_unique<EntryPointAnalysis>(facts, entry_point, options,
                                                 EntryPointAnalysis::Partition::kLanes);
    if (lanes->Run(&result->rounds).empty()) analysis.UseLanes(lanes.get());
    result->rounds = std::max(result->rounds, lanes->MostContextRounds());
  }
  std::string refusal = analysis.Run(&result->rounds);
  result->rounds = std::max(result->rounds, analysis.MostContextRounds());
  if (refusal.empty()) analysis.CollectFindings(&result->findings, reported);
  return refusal;
}

UniformityResult AnalyzeModule(Module& module, const UniformityInputs& inputs,
                               const UniformityOptions& options) {
  UniformityResult result;
  std::unique_ptr<ModuleFacts> facts = CollectModuleFacts(module, inputs);
  if (!facts->classes.ok()) {
    result.refusal = "uniformity analysis refused: " + facts->classes.error();
    return result;
  }
  std::unordered_set<const Instruction*> reported;
  for (const Instruction& entry_point : module.entry_points) {
    std::string refusal = AnalyzeEntryPoint(*facts, entry_point, options, &result, &reported);
    if (!refusal.empty()) {
      result.findings.clear();
      result.refusal = refusal;
      return result;
    }
  }
  return result;
}

}  // namespace

UniformityResult AnalyzeUniformity(Module& module, const UniformityOptions& options) {
  AnalysisContext analyses(module);
  return analyses.GetUniformity(options);
}

UniformityResult AnalyzeUniformity(Module& module, const UniformityInputs& inputs,
                                   const UniformityOptions& options) {
  try {
    return AnalyzeModule(module, inputs, options);
  } catch (const std::out_of_range& missing) {
    // The typed operand views throw where an instruction lacks an operand the grammar
    // requires (the parser checks word counts, not operand lists).
    UniformityResult refused;
    refused.refusal =
        std::string("uniformity analysis refused: an instruction lacks an operand (") +
        missing.what() + ")";
    return refused;
  }
}

std::vector<Diagnostic> UniformityDiagnostics(const UniformityResult& result, Severity severity) {
  std::vector<Diagnostic> diagnostics;
  if (!result.refusal.empty()) {
    Diagnostic note;
    note.severity = Severity::kNote;
    note.origin = "uniformity";
    note.message = result.refusal;
    note.rule = "uniformity/refused";
    diagnostics.push_back(std::move(note));
    return diagnostics;
  }
  for (const UniformityFinding& finding : result.findings)
    diagnostics.push_back(UniformityFindingDiagnostic(finding, severity));
  return diagnostics;
}

Diagnostic UniformityFindingDiagnostic(const UniformityFinding& finding, Severity severity) {
  Diagnostic diagnostic;
  diagnostic.severity = severity;
  diagnostic.origin = "uniformity";
  diagnostic.location = finding.location;
  diagnostic.message = finding.message;
  diagnostic.reasons = finding.reasons;
  diagnostic.reason_locations = finding.reason_locations;
  diagnostic.rule = finding.rule;
  return diagnostic;
}
}  // namespace glint::spirv
