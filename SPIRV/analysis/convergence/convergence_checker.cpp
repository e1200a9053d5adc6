#include "SPIRV/analysis/convergence/convergence_checker.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "SPIRV/analysis/facts/control_dependence.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {
namespace {

// The arm of `branch`'s terminator that the edge to `target` belongs to.
// Case literals are read as one word each, as glslang's 32-bit selectors have them.
std::string ArmLabel(const Instruction& terminator, uint32_t target) {
  if (terminator.opcode == spv::OpBranchConditional) {
    BranchConditionalView branch(terminator);
    return "%" + std::to_string(branch.condition()) + " -> " +
           (branch.true_label() == target ? "true" : "false");
  }
  SwitchView selection(terminator);
  std::string arms;
  if (selection.default_label() == target) arms = "default";
  for (size_t k = 0; k < selection.case_count(); ++k)
    if (selection.case_label(k) == target)
      arms += (arms.empty() ? "case " : ",case ") + std::to_string(selection.case_literal(k));
  return "%" + std::to_string(selection.selector()) + " -> " + arms;
}

using GuardMap = std::unordered_map<const Block*, std::set<std::string>>;

// Direct guards per block (control_dependence.h: the arm of each branch a block depends
// on), and the blocks whose guards each block inherits.
void DirectGuards(const Cfg& cfg, GuardMap* guards,
                  std::unordered_map<const Block*, std::set<const Block*>>* parents) {
  for (const Block* branch : cfg.ReversePostOrder()) {
    const Block* labelled = nullptr;  // the successor `arm` names: one label per arm
    std::string arm;
    ForEachControlDependent(cfg, branch, [&](const Block* successor, const Block* dependent) {
      if (successor != labelled) {
        labelled = successor;
        arm = ArmLabel(*branch->Terminator(), successor->id());
      }
      (*guards)[dependent].insert(arm);
      (*parents)[dependent].insert(branch);
    });
  }
}

// Guards of every block: its own and, transitively, those of the branches it depends on.
GuardMap AllGuards(Function& function) {
  Cfg cfg(function);
  GuardMap direct;
  std::unordered_map<const Block*, std::set<const Block*>> parents;
  DirectGuards(cfg, &direct, &parents);
  GuardMap all;
  for (const Block* block : cfg.ReversePostOrder()) {
    std::set<std::string>& mine = all[block];
    std::vector<const Block*> work = {block};
    std::set<const Block*> seen = {block};
    while (!work.empty()) {
      const Block* next = work.back();
      work.pop_back();
      mine.insert(direct[next].begin(), direct[next].end());
      for (const Block* parent : parents[next])
        if (seen.insert(parent).second) work.push_back(parent);
    }
  }
  return all;
}

std::string KeyOf(const Instruction& inst, uint32_t function,
                  std::map<std::string, int>* occurrences) {
  if (inst.result_id) return "%" + std::to_string(inst.result_id);
  std::string key = "fn%" + std::to_string(function) + " " + grammar::OpcodeName(inst.opcode);
  for (uint32_t word : inst.words) key += " " + std::to_string(word);
  return key + " #" + std::to_string((*occurrences)[key]++);
}

std::string Describe(const std::string& key, const ConvergenceRecord& record) {
  return std::string(grammar::OpcodeName(record.opcode)) + " " + key + " (" +
         ConvergenceFlagsText(record.flags) + ")";
}

// Why `after` breaks the promise of `before` for one instruction; "" when it does not.
std::string Violation(const std::string& key, const ConvergenceRecord& before,
                      const ConvergenceRecord& after) {
  for (const std::string& guard : after.guards)
    if (!before.guards.count(guard))
      return Describe(key, before) + " gained control dependence on " + guard;
  if (!(before.flags & kCrossThread)) return "";
  if (after.function != before.function)
    return Describe(key, before) + " moved to another function";
  for (const std::string& guard : before.guards)
    if (!after.guards.count(guard))
      return Describe(key, before) + " lost its guard " + guard + " (its execution mask changes)";
  return "";
}

}  // namespace

ConvergenceSnapshot TakeConvergenceSnapshot(Module& module) {
  ConvergenceSnapshot snapshot;
  ConvergenceClasses classes(module);
  if (!classes.ok()) {
    snapshot.error = classes.error();
    return snapshot;
  }
  std::map<std::string, int> occurrences;
  for (Function& function : module.functions) {
    GuardMap guards = AllGuards(function);
    for (Block& block : function.blocks)
      for (Instruction& inst : block.instructions) {
        ConvergenceFlags flags = classes.Of(inst);
        if (!(flags & (kConvergent | kCrossThread))) continue;
        ConvergenceRecord& record = snapshot.records[KeyOf(inst, function.id(), &occurrences)];
        record.opcode = inst.opcode;
        record.flags = flags;
        record.function = function.id();
        record.guards = guards[&block];
      }
  }
  return snapshot;
}

std::string CompareConvergenceSnapshots(const ConvergenceSnapshot& before,
                                        const ConvergenceSnapshot& after) {
  if (!before.error.empty()) return "before the pass: " + before.error;
  if (!after.error.empty()) return "after the pass: " + after.error;
  std::string problems;
  std::vector<std::pair<std::string, const ConvergenceRecord*>> removed;
  for (const auto& [key, record] : before.records)
    if (!after.records.count(key)) removed.push_back({key, &record});
  for (const auto& entry : after.records) {
    // Named references rather than a structured binding: the lambda below captures
    // them, which C++17 (and Clang 15, the sanitizer build's compiler) does not allow
    // for structured bindings.
    const auto& key = entry.first;
    const auto& record = entry.second;
    auto old = before.records.find(key);
    std::string problem;
    if (old != before.records.end()) {
      problem = Violation(key, old->second, record);
    } else {
      // A new instruction: it must stand in for a removed one of the same kind.
      auto stand_in = std::find_if(removed.begin(), removed.end(), [&](const auto& candidate) {
        return candidate.second->opcode == record.opcode &&
               candidate.second->function == record.function &&
               Violation(key, *candidate.second, record).empty();
      });
      if (stand_in == removed.end())
        problem = Describe(key, record) +
                  " is new and replaces no removed instruction under the same guards";
      else
        removed.erase(stand_in);
    }
    if (!problem.empty()) problems += (problems.empty() ? "" : "\n") + problem;
  }
  return problems;
}

}  // namespace glint::spirv
