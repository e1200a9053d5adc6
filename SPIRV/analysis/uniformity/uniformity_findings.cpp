// Uniformity analysis, findings (the reporter, uniformity_reporter.h): which uniform-control
// instructions to report and where. An instruction whose own function's control is too divergent
// for its scope is reported there; one that is fine within its function becomes a need of the
// function, reported once at each call site too divergent for it ("call of `f` in non-uniform
// control flow, but it needs ..."), and passed on to the caller's call sites otherwise.
// Also the message text and the warning class of a message (corpus counts, reports).
#include "SPIRV/analysis/uniformity/uniformity_reporter.h"

#include <algorithm>

#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {
namespace uniformity_detail {

bool UniformityReporter::DerivativesApply() const {
  if (solver_.model() == spv::ExecutionModelFragment) return true;
  // Compute-like stages have derivatives only with a derivative group execution mode.
  for (const Instruction& inst : facts_.module.execution_modes) {
    auto mode = ViewIf<ExecutionModeView>(inst);
    if (mode && mode->entry_point() == solver_.entry_function() &&
        (mode->mode() == spv::ExecutionModeDerivativeGroupQuadsNV ||
         mode->mode() == spv::ExecutionModeDerivativeGroupLinearNV))
      return true;
  }
  return false;
}

UniformityFinding UniformityReporter::MakeFinding(const Instruction& inst, const Fact& control,
                                                  UniformScope scope) const {
  UniformityFinding finding;
  finding.instruction = &inst;
  finding.entry_point = solver_.entry_name();
  finding.location = facts_.LocationOf(&inst);
  finding.message = UniformityMessage(inst, scope);
  finding.rule = UniformityRuleOf(inst, scope);
  finding.triggers = {&inst};
  finding.trigger_locations = {finding.location};
  std::optional<Divergence> allowed = Allowed(inst, &scope);
  ReasonLines reasons =
      ExplainAlternatives(inst, control, allowed ? *allowed : Divergence::kUniform);
  finding.reasons = std::move(reasons.text);
  finding.reason_locations = std::move(reasons.where);
  return finding;
}

// The level a uniform-control instruction tolerates; nullopt for other instructions
// (and for derivatives where the stage has none).
std::optional<Divergence> UniformityReporter::Allowed(const Instruction& inst,
                                                      UniformScope* scope) const {
  *scope = facts_.classes.RequiredScope(inst);
  if (*scope == UniformScope::kNone || (*scope == UniformScope::kQuad && !DerivativesApply()))
    return std::nullopt;
  return *scope == UniformScope::kQuad       ? Divergence::kQuadUniform
         : *scope == UniformScope::kSubgroup ? Divergence::kSubgroupUniform
                                             : Divergence::kUniform;
}

// Reports the uniform-control instructions of `function` whose own control flow is too
// divergent (call sites left out); the others become needs of the function, checked at
// its call sites.
void UniformityReporter::CollectInFunction(const Function& function,
                                           std::vector<UniformityFinding>* findings,
                                           std::unordered_set<const Instruction*>* reported) {
  const ControlDependence& dependence = *facts_.control_dependence.at(function.id());
  for (const Block* block : dependence.cfg().ReversePostOrder()) {
    const Fact* local = solver_.proven().LocalBlockFact(block);
    Fact control = local ? *local : Fact{};
    for (const Instruction& inst : block->instructions) {
      if (inst.opcode == spv::OpFunctionCall) {
        CheckCall(function, inst, control, findings, reported);
        uint32_t callee = FunctionCallView(inst).callee();
        if (const Fact* kill = solver_.proven().KillFact(callee))
          RaiseLocal(control, kill->level, MakeCause(Cause::kKillAfterCall, callee, block, &inst));
        continue;
      }
      UniformScope scope;
      std::optional<Divergence> allowed = Allowed(inst, &scope);
      if (!allowed) continue;
      // Too divergent by the joined fixed point, but maybe fine at every call once the
      // branches its constant arguments decide are taken as decided
      // (argument_decided_branches.h): then a need like any other.
      if (control.level <= *allowed || decided_.FineAtEveryCall(function, *block, *allowed)) {
        needs_[function.id()].push_back({&inst, *allowed, scope, UniformityRuleOf(inst, scope)});
        continue;
      }
      if (reported->insert(&inst).second) findings->push_back(MakeFinding(inst, control, scope));
    }
  }
}

// A call whose callee needs more uniformity than the call site has is reported once,
// here, listing what the callee needs; what the call site satisfies is passed on to the
// caller's own call sites.
void UniformityReporter::CheckCall(const Function& caller, const Instruction& call,
                                   const Fact& control, std::vector<UniformityFinding>* findings,
                                   std::unordered_set<const Instruction*>* reported) {
  uint32_t callee = FunctionCallView(call).callee();
  auto needs = needs_.find(callee);
  if (needs == needs_.end()) return;
  std::vector<Need> violated, satisfied;
  for (const Need& need : needs->second)
    (control.level > need.allowed ? violated : satisfied).push_back(need);
  std::vector<Need>& mine = needs_[caller.id()];
  mine.insert(mine.end(), satisfied.begin(), satisfied.end());
  if (violated.empty() || !reported->insert(&call).second) return;
  UniformityFinding finding;
  finding.instruction = &call;
  finding.entry_point = solver_.entry_name();
  finding.location = facts_.LocationOf(&call);
  finding.message =
      "call of " + facts_.NameOf(callee) + " in non-uniform control flow, but it " + kCalleeNeeds;
  Divergence strictest = Divergence::kDivergent;
  for (size_t i = 0; i < violated.size(); ++i) {
    strictest = std::min(strictest, violated[i].allowed);
    finding.triggers.push_back(violated[i].inst);
    finding.trigger_locations.push_back(facts_.LocationOf(violated[i].inst));
    // "barrier (OpControlBarrier, workgroup scope) at x.comp:5": located only here, as a
    // location may cost a second code generation (SPIRV/ir/outside_lines.h).
    if (i < 3)
      finding.message += (i ? "; " : "") + UniformityHead(*violated[i].inst, violated[i].scope) +
                         " " + facts_.Where(violated[i].inst);
  }
  if (violated.size() > 3)
    finding.message += "; and " + std::to_string(violated.size() - 3) + " more";
  finding.rule = violated.front().rule;
  ReasonLines reasons = ExplainAlternatives(call, control, strictest);
  finding.reasons = std::move(reasons.text);
  finding.reason_locations = std::move(reasons.where);
  findings->push_back(std::move(finding));
}

void UniformityReporter::CollectFindings(std::vector<UniformityFinding>* findings,
                                         std::unordered_set<const Instruction*>* reported) {
  // Callees first, so that each function's needs are known before its call sites.
  if (solver_.functions().empty()) return;
  for (Function* function : facts_.calls.CalleesFirst(solver_.functions().front()->id()))
    CollectInFunction(*function, findings, reported);
}

}  // namespace uniformity_detail

using uniformity_detail::IsDerivative;
using uniformity_detail::kCalleeNeeds;

const char* UniformityRuleOf(const Instruction& inst, UniformScope scope) {
  if (IsDerivative(inst.opcode)) return "uniformity/derivative";
  if (scope == UniformScope::kQuad) return "uniformity/implicit-lod";
  if (inst.opcode == spv::OpControlBarrier) return "uniformity/barrier";
  return "uniformity/uniform-control";
}

const char* DivergenceName(Divergence level) {
  switch (level) {
    case Divergence::kUniform:
      return "uniform";
    case Divergence::kSubgroupUniform:
      return "uniform only within a subgroup";
    case Divergence::kQuadUniform:
      return "uniform only within a quad";
    case Divergence::kDivergent:
      return "non-uniform";
  }
  return "?";
}

std::string UniformityHead(const Instruction& inst, UniformScope scope) {
  std::string op = grammar::OpcodeName(inst.opcode);
  if (IsDerivative(inst.opcode)) return "derivative (" + op + ")";
  if (scope == UniformScope::kQuad) return "implicit-LOD texture sample (" + op + ")";
  if (inst.opcode == spv::OpControlBarrier)
    return "barrier (" + op + ", " + (scope == UniformScope::kSubgroup ? "subgroup" : "workgroup") +
           " scope)";
  if (inst.opcode == spv::OpEmitMeshTasksEXT || inst.opcode == spv::OpSetMeshOutputsEXT)
    return "mesh/task output (" + op + ")";
  if (op.rfind("OpGroup", 0) == 0) return "group operation (" + op + ")";
  return "whole-scope operation (" + op + ")";
}

std::string UniformityMessage(const Instruction& inst, UniformScope scope) {
  std::string head = UniformityHead(inst, scope);
  if (IsDerivative(inst.opcode))
    return head + " in non-uniform control flow: its value is undefined";
  if (scope == UniformScope::kQuad)
    return head + " in non-uniform control flow: its level of detail is undefined";
  if (inst.opcode == spv::OpControlBarrier)
    return head + " in non-uniform control flow: invocations that skip it leave it undefined";
  return head + " must be executed in uniform control flow but is not";
}

}  // namespace glint::spirv
