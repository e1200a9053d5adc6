// Uniformity analysis, entry: builds the module facts, runs one UniformitySolver per
// entry point (uniformity.h says what is proven) and hands each to a UniformityReporter;
// a refusal of any entry point drops all findings, and so does an instruction that lacks
// an operand. Also the findings as diagnostics, and the levels of one entry point.
#include "SPIRV/analysis/uniformity/uniformity_reporter.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "SPIRV/ir/grammar.h"

namespace glint::spirv {

using uniformity_detail::CollectModuleFacts;
using uniformity_detail::Fact;
using uniformity_detail::ModuleFacts;
using uniformity_detail::UniformityReporter;
using uniformity_detail::UniformitySolver;

namespace {

// The solver reads operands through the typed views, by position: a module with an
// instruction that lacks an operand the grammar requires (the parser checks word counts,
// not operand lists; def-use decodes every instruction) is refused before anything is
// solved, naming the first such instruction.
std::string MalformedRefusal(const DefUse& def_use) {
  std::string why;
  const Instruction* malformed = def_use.FirstMalformed(&why);
  if (!malformed) return "";
  std::string where = grammar::OpcodeName(malformed->opcode);
  if (malformed->result_id) where += " %" + std::to_string(malformed->result_id);
  return "uniformity analysis refused: an instruction lacks an operand (" + where + ": " + why +
         ")";
}

// One entry point solved: the lane analysis first where it may help
// (uniformity_lanes.cpp; one that misses its budget is left out, which only loses
// precision), then the solver whose levels count.
struct SolvedEntryPoint {
  std::unique_ptr<UniformitySolver> lanes;  // declared first: `solver` reads it
  std::unique_ptr<UniformitySolver> solver;
  std::string refusal;
};

SolvedEntryPoint Solve(ModuleFacts& facts, const Instruction& entry_point,
                       const UniformityOptions& options, uint32_t* rounds, uint32_t* context_runs) {
  SolvedEntryPoint solved;
  solved.solver = std::make_unique<UniformitySolver>(facts, entry_point, options);
  if (uniformity_detail::WantsLaneAnalysis(solved.solver->model(), solved.solver->functions())) {
    solved.lanes = std::make_unique<UniformitySolver>(facts, entry_point, options,
                                                      UniformitySolver::Partition::kLanes);
    if (solved.lanes->Run(rounds).empty()) solved.solver->UseLanes(solved.lanes.get());
    *rounds = std::max(*rounds, solved.lanes->contexts().most_rounds());
    *context_runs += solved.lanes->contexts().runs();
  }
  solved.refusal = solved.solver->Run(rounds);
  *rounds = std::max(*rounds, solved.solver->contexts().most_rounds());
  *context_runs += solved.solver->contexts().runs();
  return solved;
}

// One entry point's findings, appended to `result`. Returns the refusal or "".
std::string AnalyzeEntryPoint(ModuleFacts& facts, const Instruction& entry_point,
                              const UniformityOptions& options, UniformityResult* result,
                              std::unordered_set<const Instruction*>* reported) {
  SolvedEntryPoint solved =
      Solve(facts, entry_point, options, &result->rounds, &result->context_runs);
  if (solved.refusal.empty())
    UniformityReporter(*solved.solver).CollectFindings(&result->findings, reported);
  return solved.refusal;
}

// The levels a solved entry point proved, read through the solver's queries.
void CopyLevels(const UniformitySolver& solver, const Module& module, UniformityLevels* levels) {
  for (const Instruction& inst : module.types_values) {
    if (!inst.result_id) continue;
    if (inst.opcode == spv::OpVariable)
      levels->memory[inst.result_id] = solver.MemoryFact(inst.result_id).level;
    levels->values[inst.result_id] = solver.proven().Value(inst.result_id);
  }
  for (const Function* function : solver.functions()) {
    for (const Instruction& parameter : function->parameters)
      levels->values[parameter.result_id] = solver.proven().Value(parameter.result_id);
    for (const Block& block : function->blocks) {
      const Fact* control = solver.proven().BlockFact(&block);
      const Fact* local = solver.proven().LocalBlockFact(&block);
      levels->blocks[block.id()] = control ? control->level : Divergence::kUniform;
      levels->blocks_in_function[block.id()] = local ? local->level : Divergence::kUniform;
      for (const Instruction& inst : block.instructions) {
        if (!inst.result_id) continue;
        if (inst.opcode == spv::OpVariable)
          levels->memory[inst.result_id] = solver.MemoryFact(inst.result_id).level;
        levels->values[inst.result_id] = solver.proven().Value(inst.result_id);
      }
    }
  }
}

UniformityLevels LevelsOf(Module& module, const UniformityInputs& inputs,
                          const std::string& entry_point, const UniformityOptions& options) {
  UniformityLevels levels;
  std::unique_ptr<ModuleFacts> facts = CollectModuleFacts(module, inputs, /*findings_only=*/false);
  if (!facts->classes.ok()) {
    levels.refusal = "uniformity analysis refused: " + facts->classes.error();
    return levels;
  }
  for (const Instruction& candidate : module.entry_points) {
    if (EntryPointInterfaceView(candidate).name() != entry_point) continue;
    SolvedEntryPoint solved =
        Solve(*facts, candidate, options, &levels.rounds, &levels.context_runs);
    levels.refusal = solved.refusal;
    if (solved.refusal.empty()) CopyLevels(*solved.solver, module, &levels);
    return levels;
  }
  levels.refusal =
      "uniformity analysis refused: the module has no entry point named `" + entry_point + "`";
  return levels;
}

UniformityResult AnalyzeModule(Module& module, const UniformityInputs& inputs,
                               const UniformityOptions& options) {
  UniformityResult result;
  // Findings read only some facts: the fixed point computes those.
  std::unique_ptr<ModuleFacts> facts =
      CollectModuleFacts(module, inputs, /*findings_only=*/!options.every_fact);
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

UniformityResult AnalyzeUniformity(Module& module, const UniformityInputs& inputs,
                                   const UniformityOptions& options) {
  UniformityResult refused;
  refused.refusal = MalformedRefusal(inputs.def_use);
  if (!refused.refusal.empty()) return refused;
  return AnalyzeModule(module, inputs, options);
}

UniformityLevels AnalyzeUniformityLevels(Module& module, const UniformityInputs& inputs,
                                         const std::string& entry_point,
                                         const UniformityOptions& options) {
  UniformityLevels refused;
  refused.refusal = MalformedRefusal(inputs.def_use);
  if (!refused.refusal.empty()) return refused;
  return LevelsOf(module, inputs, entry_point, options);
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
  diagnostics.reserve(result.findings.size());
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
