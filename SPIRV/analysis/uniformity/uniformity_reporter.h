// Uniformity analysis, the reporter (internal, not part of the API): reads what one
// entry point's solver proved (uniformity_internal.h) and never raises a level. It
// decides which uniform-control instructions to report and where
// (uniformity_findings.cpp) and explains each as a chain of reasons with the places they
// name (uniformity_explain.cpp). Keeping it apart from the solver means the fixed point
// holds no reporting state, and the levels can be asked for without any text.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_REPORTER_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_REPORTER_H

#include <list>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "SPIRV/analysis/uniformity/argument_decided_branches.h"
#include "SPIRV/analysis/uniformity/uniformity_internal.h"

namespace glint::spirv::uniformity_detail {

class UniformityReporter {
 public:
  explicit UniformityReporter(const UniformitySolver& solver)
      : solver_(solver), facts_(solver.facts()), decided_(solver) {}
  // Appends the findings of the solver's entry point; `reported` holds the instructions
  // already reported (by this or an earlier entry point), each reported once.
  void CollectFindings(std::vector<UniformityFinding>* findings,
                       std::unordered_set<const Instruction*>* reported);

 private:
  // --- explanations (uniformity_explain.cpp) ---
  std::string ExitNote(const Block* branch) const;
  ReasonLines Explain(const Fact& control) const;
  bool ExplainControl(const Cause& cause, ReasonLines* lines) const;
  void ExplainSharedOffset(const Block& branch, ReasonLines* lines) const;
  const Cause* NextControlCause(const Cause& cause) const;
  const Cause* ExplainData(const Cause& cause, ReasonLines* lines,
                           std::list<Fact>* memory_facts) const;
  const Cause* ExplainCall(const Cause& cause, ReasonLines* lines) const;
  const Cause* CauseOfValue(uint32_t id) const;
  const Cause* CauseOfBlock(const Block* block) const;
  const Cause* CauseOfLocalBlock(const Block* block) const;
  std::vector<Cause> AlternativeCauses(ControlDependence::Branches branches,
                                       Divergence allowed) const;
  ReasonLines ExplainAlternatives(const Instruction& inst, const Fact& control,
                                  Divergence allowed) const;

  // --- findings (uniformity_findings.cpp) ---
  // A uniform-control instruction that is fine within its function, so its function's
  // call sites must be uniform enough: reported once at the call site that is not.
  struct Need {
    const Instruction* inst;
    Divergence allowed;
    UniformScope scope;  // the message names it only when a call violates the need
    const char* rule;  // the rule of a finding about the instruction itself
  };
  bool DerivativesApply() const;
  std::optional<Divergence> Allowed(const Instruction& inst, UniformScope* scope) const;
  UniformityFinding MakeFinding(const Instruction& inst, const Fact& control,
                                UniformScope scope) const;
  void CollectInFunction(const Function& function, std::vector<UniformityFinding>* findings,
                         std::unordered_set<const Instruction*>* reported);
  void CheckCall(const Function& caller, const Instruction& call, const Fact& control,
                 std::vector<UniformityFinding>* findings,
                 std::unordered_set<const Instruction*>* reported);

  const UniformitySolver& solver_;
  const ModuleFacts& facts_;
  std::unordered_map<uint32_t, std::vector<Need>> needs_;  // per function
  ArgumentDecidedBranches decided_;  // per call, the branches constant arguments decide
};

}  // namespace glint::spirv::uniformity_detail

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_REPORTER_H
