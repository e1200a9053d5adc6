// The convergence checker: holds a pass to the convergence classes
// (convergence_classes.h). Before and after the pass it records, for every convergent
// or cross-thread instruction (calls of functions that contain one included), the
// conditions that guard it: each branch or switch its block is control dependent on,
// transitively, as "condition id -> arm taken" within its function.
//
// What it proves, per instruction present before and after (matched by result id, or
// for instructions without one by function, opcode, operands and occurrence):
//   convergent    the guards after are a subset of the guards before (no control
//                 dependence added);
//   cross-thread  the guards after equal the guards before, in the same function (the
//                 set of invocations that executes it is unchanged).
// An instruction the pass removed is fine. One the pass created must pair with a
// removed one of the same opcode in the same function under the same rule (a rewrite
// that rebuilds an instruction), else it is reported.
//
// Assumes passes keep the result ids of the instructions and conditions they do not
// rewrite (Glint's passes do). It is strict where that does not hold: a pass that
// recomputes a branch condition under a new id fails a cross-thread guard comparison.
// Refuses (an error string) a module with an unclassified instruction.
#ifndef GLINT_SPIRV_ANALYSIS_CONVERGENCE_CHECKER_H
#define GLINT_SPIRV_ANALYSIS_CONVERGENCE_CHECKER_H

#include <map>
#include <set>
#include <string>

#include "SPIRV/analysis/convergence/convergence_classes.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

struct ConvergenceRecord {
  uint32_t opcode = 0;
  ConvergenceFlags flags = kNotConvergent;
  uint32_t function = 0;
  std::set<std::string> guards;  // "%12 -> true", "%30 -> case 2", "%30 -> default"
};

struct ConvergenceSnapshot {
  std::string error;  // non-empty when the module could not be classified
  std::map<std::string, ConvergenceRecord> records;  // by instruction key
};

// Records every convergent / cross-thread instruction of `module` with its guards.
ConvergenceSnapshot TakeConvergenceSnapshot(Module& module);

// "" when `after` keeps every promise of `before`; else a description of each broken
// one (one per line).
std::string CompareConvergenceSnapshots(const ConvergenceSnapshot& before,
                                        const ConvergenceSnapshot& after);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_CONVERGENCE_CHECKER_H
