// CompareRelevantFindings (uniformity_relevance_check.h).
#include "support/uniformity_relevance_check.h"

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/uniformity/uniformity.h"

namespace glint::test {
namespace {

std::string Located(const SourceLocation& location) {
  return location.file + ":" + std::to_string(location.line);
}

// The first field in which `relevant` and `every` differ, or "".
std::string FindingDifference(const spirv::UniformityFinding& relevant,
                              const spirv::UniformityFinding& every) {
  if (relevant.instruction != every.instruction) return "instruction";
  if (relevant.entry_point != every.entry_point) return "entry point";
  if (Located(relevant.location) != Located(every.location)) return "location";
  if (relevant.message != every.message)
    return "message: \"" + relevant.message + "\" against \"" + every.message + "\"";
  if (relevant.rule != every.rule) return "rule";
  if (relevant.reasons != every.reasons) {
    for (size_t i = 0; i < relevant.reasons.size() && i < every.reasons.size(); ++i)
      if (relevant.reasons[i] != every.reasons[i])
        return "reason " + std::to_string(i) + ": \"" + relevant.reasons[i] + "\" against \"" +
               every.reasons[i] + "\"";
    return "reason count " + std::to_string(relevant.reasons.size()) + " against " +
           std::to_string(every.reasons.size());
  }
  if (relevant.reason_locations.size() != every.reason_locations.size())
    return "reason locations";
  for (size_t i = 0; i < relevant.reason_locations.size(); ++i)
    if (Located(relevant.reason_locations[i]) != Located(every.reason_locations[i]))
      return "reason location " + std::to_string(i);
  if (relevant.triggers != every.triggers) return "triggers";
  return "";
}

}  // namespace

std::string CompareRelevantFindings(spirv::Module& module, size_t* findings) {
  spirv::UniformityOptions every_fact;
  every_fact.every_fact = true;
  spirv::UniformityResult relevant = spirv::AnalyzeUniformity(module);
  spirv::UniformityResult every = spirv::AnalyzeUniformity(module, every_fact);
  if (findings) *findings = every.findings.size();
  if (relevant.refusal != every.refusal)
    return "refusal \"" + relevant.refusal + "\" against \"" + every.refusal + "\"";
  if (relevant.findings.size() != every.findings.size())
    return std::to_string(relevant.findings.size()) + " findings against " +
           std::to_string(every.findings.size());
  for (size_t i = 0; i < every.findings.size(); ++i) {
    std::string difference = FindingDifference(relevant.findings[i], every.findings[i]);
    if (!difference.empty())
      return "finding " + std::to_string(i) + " (" + every.findings[i].message + "): " + difference;
  }
  return "";
}

}  // namespace glint::test
