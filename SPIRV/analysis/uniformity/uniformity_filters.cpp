// Uniformity filters (see uniformity_filters.h).
#include "SPIRV/analysis/uniformity/uniformity_filters.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {
namespace {

// The OpName of the function that holds each instruction findings point at.
class FunctionNames {
 public:
  FunctionNames(const Module& module, const std::vector<const UniformityFinding*>& findings) {
    std::unordered_set<const Instruction*> wanted;
    for (const UniformityFinding* finding : findings) {
      wanted.insert(finding->instruction);
      wanted.insert(finding->triggers.begin(), finding->triggers.end());
    }
    std::unordered_map<uint32_t, std::string> names;
    for (const Instruction& inst : module.debug_names)
      if (inst.opcode == spv::OpName) names[NameView(inst).target()] = NameView(inst).name();
    for (const Function& function : module.functions) {
      auto name = names.find(function.id());
      if (name == names.end()) continue;
      for (const Block& block : function.blocks)
        for (const Instruction& inst : block.instructions)
          if (wanted.count(&inst)) function_of_[&inst] = name->second;
    }
  }

  const std::string* Of(const Instruction* inst) const {
    auto found = function_of_.find(inst);
    return found == function_of_.end() ? nullptr : &found->second;
  }

 private:
  std::unordered_map<const Instruction*, std::string> function_of_;
};

bool AtPlace(const UniformityFilter& filter, const Instruction* inst,
             const SourceLocation& location, const FunctionNames& functions) {
  if (!filter.function.empty()) {
    const std::string* name = functions.Of(inst);
    return name && FunctionNameMatches(*name, filter.function);
  }
  return location.line >= filter.first_line && location.line <= filter.last_line &&
         SourceFileMatches(location.file, filter.file);
}

// At the place: reported there, or every uniform-control instruction behind it is there.
bool FindingMatches(const UniformityFilter& filter, const UniformityFinding& finding,
                    const FunctionNames& functions) {
  if (AtPlace(filter, finding.instruction, finding.location, functions)) return true;
  if (finding.triggers.empty()) return false;
  for (size_t i = 0; i < finding.triggers.size(); ++i) {
    SourceLocation location =
        i < finding.trigger_locations.size() ? finding.trigger_locations[i] : SourceLocation{};
    if (!AtPlace(filter, finding.triggers[i], location, functions)) return false;
  }
  return true;
}

const UniformityFilter* FirstMatching(const std::vector<UniformityFilter>& filters,
                                      UniformityFilterAction action,
                                      const UniformityFinding& finding,
                                      const FunctionNames& functions) {
  for (const UniformityFilter& filter : filters)
    if (filter.action == action && FindingMatches(filter, finding, functions)) return &filter;
  return nullptr;
}

bool Reports(const UniformityResult& result, const Instruction* inst) {
  return std::any_of(result.findings.begin(), result.findings.end(),
                     [inst](const UniformityFinding& f) { return f.instruction == inst; });
}

std::string Justified(const std::string& text, const std::string& justification) {
  return justification.empty() ? text : text + ": " + justification;
}

}  // namespace

std::string UniformityFilterText(const UniformityFilter& filter) {
  std::string text = filter.action == UniformityFilterAction::kOff    ? "--uniformity-off="
                     : filter.action == UniformityFilterAction::kNote ? "--uniformity-note="
                                                                      : "--uniformity-assume-uniform=";
  if (!filter.function.empty()) return text + filter.function;
  text += filter.file + ":" + std::to_string(filter.first_line);
  if (filter.last_line != filter.first_line) text += "-" + std::to_string(filter.last_line);
  return text;
}

bool FunctionNameMatches(const std::string& op_name, const std::string& wanted) {
  if (wanted.empty()) return false;
  if (op_name == wanted) return true;
  return op_name.size() > wanted.size() && op_name.compare(0, wanted.size(), wanted) == 0 &&
         op_name[wanted.size()] == '(';
}

bool SourceFileMatches(const std::string& location_file, const std::string& wanted) {
  if (location_file.empty() || wanted.empty()) return false;
  auto ends_with_components = [](const std::string& longer, const std::string& shorter) {
    size_t cut = longer.size() - shorter.size();
    return longer.size() > shorter.size() && longer.compare(cut, shorter.size(), shorter) == 0 &&
           longer[cut - 1] == '/';
  };
  return location_file == wanted || ends_with_components(location_file, wanted) ||
         ends_with_components(wanted, location_file);
}

FilteredUniformity ApplyUniformityFilters(const Module& module, const UniformityResult& baseline,
                                          const std::vector<const UniformityResult*>& assumed,
                                          const UniformityResult* assumed_all,
                                          const std::vector<UniformityFilter>& filters,
                                          Severity severity) {
  FilteredUniformity out;
  const UniformityResult& reported = assumed_all ? *assumed_all : baseline;
  if (!reported.refusal.empty() || filters.empty()) {
    out.diagnostics = UniformityDiagnostics(reported, severity);
    out.failing = reported.refusal.empty() ? reported.findings.size() : 0;
    return out;
  }
  std::vector<const UniformityFinding*> all;
  for (const UniformityFinding& finding : reported.findings) all.push_back(&finding);
  // What the promises removed: only known when the analysis without them answered.
  std::vector<const UniformityFinding*> promised_away;
  if (assumed_all && baseline.refusal.empty())
    for (const UniformityFinding& finding : baseline.findings)
      if (!Reports(*assumed_all, finding.instruction)) {
        promised_away.push_back(&finding);
        all.push_back(&finding);
      }
  FunctionNames functions(module, all);

  for (const UniformityFinding* finding : promised_away) {
    Diagnostic diagnostic = UniformityFindingDiagnostic(*finding, severity);
    // The promise that removes it alone, or all of them together.
    std::string filter_text, justification;
    for (size_t i = 0, promise = 0; i < filters.size(); ++i) {
      if (filters[i].action != UniformityFilterAction::kAssumeUniform) continue;
      const UniformityResult* alone = promise < assumed.size() ? assumed[promise] : nullptr;
      ++promise;
      if (alone && alone->refusal.empty() && !Reports(*alone, finding->instruction)) {
        filter_text = UniformityFilterText(filters[i]);
        justification = filters[i].justification;
        break;
      }
      filter_text += (filter_text.empty() ? "" : " ") + UniformityFilterText(filters[i]);
      if (!filters[i].justification.empty())
        justification += (justification.empty() ? "" : "; ") + filters[i].justification;
    }
    out.suppressed.push_back({std::move(diagnostic), filter_text, justification});
  }

  for (const UniformityFinding& finding : reported.findings) {
    Diagnostic diagnostic = UniformityFindingDiagnostic(finding, severity);
    if (const UniformityFilter* off =
            FirstMatching(filters, UniformityFilterAction::kOff, finding, functions)) {
      out.suppressed.push_back(
          {std::move(diagnostic), UniformityFilterText(*off), off->justification});
      continue;
    }
    if (const UniformityFilter* note =
            FirstMatching(filters, UniformityFilterAction::kNote, finding, functions)) {
      diagnostic.severity = Severity::kNote;
      diagnostic.reasons.push_back(
          Justified("reported as a note by " + UniformityFilterText(*note), note->justification));
      if (!diagnostic.reason_locations.empty()) diagnostic.reason_locations.emplace_back();
    } else {
      ++out.failing;
    }
    out.diagnostics.push_back(std::move(diagnostic));
  }
  return out;
}

}  // namespace glint::spirv
