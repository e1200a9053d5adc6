// Uniformity analysis, explanations (the reporter, uniformity_reporter.h): turns the cause recorded
// with each raised level into the reason chain a warning prints, outermost first ("only some
// invocations take the branch at x:3", "`i` is loaded at x:2", "built-in ... differs between
// invocations"), with the source location each line names, plus up to two independent
// chains ("also: ..."). Causes form no cycle (a fact is only raised by one that already
// had the new level), and a step limit bounds the text.
#include "SPIRV/analysis/uniformity/uniformity_reporter.h"

#include <algorithm>
#include <list>

namespace glint::spirv {
namespace uniformity_detail {

// ", where some invocations discard" when an arm of `branch` ends the invocation (or
// ", ... return" when it leaves the function): the usual reason code after it diverges.
std::string UniformityReporter::ExitNote(const Block* branch) const {
  const Function* function = facts_.def_use.FunctionOf(branch->Terminator());
  if (!function) return "";
  const Cfg& cfg = facts_.control_dependence.at(function->id())->cfg();
  std::string note;
  for (const Block* successor : cfg.Successors(branch)) {
    const Instruction* end = successor->Terminator();
    // Only an arm of its own: not the merge block that ends the whole function.
    if (!end || successor->id() == cfg.MergeTarget(branch) ||
        cfg.Predecessors(successor).size() != 1)
      continue;
    if (end->opcode == spv::OpKill || end->opcode == spv::OpTerminateInvocation)
      note = ", where some invocations discard";
    if (note.empty() && (end->opcode == spv::OpReturn || end->opcode == spv::OpReturnValue))
      note = ", where some invocations return";
  }
  return note;
}

// Renders the chain of causes behind a control level, outermost first: why the block
// is non-uniform, which value that depends on, where the value came from.
ReasonLines UniformityReporter::Explain(const Fact& control) const {
  ReasonLines lines;
  std::list<Fact> memory_facts;  // joined memory facts live here while the walk refers to them
  const Cause* cause = &control.cause;
  // Causes are acyclic (see Cause); the step limit only bounds the length of the text.
  for (int step = 0; cause && cause->kind != Cause::kNone && step < 24; ++step)
    cause = ExplainControl(*cause, &lines) ? NextControlCause(*cause)
                                           : ExplainData(*cause, &lines, &memory_facts);
  return lines;
}

const Cause* UniformityReporter::CauseOfValue(uint32_t id) const {
  const Fact* fact = solver_.proven().ValueFact(id);
  return fact ? &fact->cause : nullptr;
}

const Cause* UniformityReporter::CauseOfBlock(const Block* block) const {
  const Fact* fact = solver_.proven().BlockFact(block);
  return fact ? &fact->cause : nullptr;
}

const Cause* UniformityReporter::CauseOfLocalBlock(const Block* block) const {
  const Fact* fact = solver_.proven().LocalBlockFact(block);
  return fact ? &fact->cause : nullptr;
}

// One line for a cause about control flow; false when `cause` is about data.
bool UniformityReporter::ExplainControl(const Cause& cause, ReasonLines* lines) const {
  switch (cause.kind) {
    case Cause::kBranch:
      lines->Add("only some invocations take the branch " +
                     facts_.Where(cause.block->Terminator()) + ExitNote(cause.block) +
                     ": its condition is " +
                     DivergenceName(solver_.proven().Value(ConditionOf(*cause.block))),
                 facts_.LocationOf(cause.block->Terminator()));
      ExplainSharedOffset(*cause.block, lines);
      return true;
    case Cause::kNested:
    case Cause::kNestedLocal:
      lines->Add("it is inside the branch " + facts_.Where(cause.block->Terminator()) +
                     ", which is in non-uniform control flow",
                 facts_.LocationOf(cause.block->Terminator()));
      return true;
    case Cause::kMerge:
      lines->Add("it merges the paths of the branch " + facts_.Where(cause.block->Terminator()),
                 facts_.LocationOf(cause.block->Terminator()));
      return true;
    case Cause::kCallSite:
      lines->Add(
          "its function is called " + facts_.Where(cause.at) + " in non-uniform control flow",
          facts_.LocationOf(cause.at));
      return true;
    case Cause::kKillAfterCall:
      lines->Add("the call of " + facts_.NameOf(cause.id) + " " + facts_.Where(cause.at) +
                     " may end only some invocations (discard)",
                 facts_.LocationOf(cause.at));
      return true;
    case Cause::kKill:
      lines->Add("the discard " + facts_.Where(cause.at) + " is in non-uniform control flow",
                 facts_.LocationOf(cause.at));
      return true;
    default:
      return false;
  }
}

// A loop's top test whose counter and bound add the same per-invocation value, where
// the rule for shared offsets refused (offset_shared_loops.h): why, so the user sees
// what to bound (a wrap the range analysis cannot rule out, mostly).
void UniformityReporter::ExplainSharedOffset(const Block& branch, ReasonLines* lines) const {
  const Instruction* condition = facts_.def_use.Definition(ConditionOf(branch));
  if (!condition || !OffsetSharedLoops::MayApply(condition->opcode)) return;
  const OffsetSharedLoops::Test& test = facts_.offset_shared_loops->Of(*condition);
  if (test.holds || !test.offset_name) return;
  lines->Add("the loop's counter and its bound both add " + facts_.NameOf(test.offset_name) +
                 ", but that does not decide the test alike in every invocation: " + test.reason,
             SourceLocation{});
}

// What a control cause rests on: a branch condition, or the control of another block.
const Cause* UniformityReporter::NextControlCause(const Cause& cause) const {
  switch (cause.kind) {
    case Cause::kBranch:
    case Cause::kMerge:
      return CauseOfValue(ConditionOf(*cause.block));
    case Cause::kKillAfterCall: {
      const Fact* kill = solver_.proven().KillFact(cause.id);
      return kill ? &kill->cause : nullptr;
    }
    case Cause::kNestedLocal:
      return CauseOfLocalBlock(cause.block);
    default:  // kNested, kCallSite, kKill
      return CauseOfBlock(cause.block);
  }
}

// One line (or none, for plain operands) for a cause about values and memory; returns
// the cause it rests on.
const Cause* UniformityReporter::ExplainData(const Cause& cause, ReasonLines* lines,
                                             std::list<Fact>* memory_facts) const {
  switch (cause.kind) {
    case Cause::kSource:
      lines->Add(facts_.SourceText(cause.id), SourceLocation{});
      return nullptr;
    case Cause::kOperand:
      return CauseOfValue(cause.id);
    case Cause::kLoad:
      lines->Add(facts_.NameOf(cause.id) + " is loaded" +
                     (cause.at ? " " + facts_.Where(cause.at) : std::string()),
                 facts_.LocationOf(cause.at));
      memory_facts->push_back(solver_.MemoryFact(cause.id));
      return &memory_facts->back().cause;
    case Cause::kStore:
      lines->Add("it is assigned a non-uniform value " + facts_.Where(cause.at),
                 facts_.LocationOf(cause.at));
      return CauseOfValue(cause.id);
    case Cause::kStoreControl:
      lines->Add("it is assigned " + facts_.Where(cause.at) + " in non-uniform control flow",
                 facts_.LocationOf(cause.at));
      return CauseOfBlock(cause.block);
    case Cause::kStoreControlLocal: {
      lines->Add("it is assigned " + facts_.Where(cause.at) + " in non-uniform control flow",
                 facts_.LocationOf(cause.at));
      return CauseOfLocalBlock(cause.block);
    }
    case Cause::kStoreUnderBranch:
      lines->Add("it is assigned " + facts_.Where(cause.at) + " only on one side of the branch " +
                     facts_.Where(cause.block->Terminator()) + ExitNote(cause.block) +
                     ": its condition is " +
                     DivergenceName(solver_.proven().Value(ConditionOf(*cause.block))),
                 facts_.LocationOf(cause.at));
      return CauseOfValue(ConditionOf(*cause.block));
    case Cause::kLocalLoad: {
      lines->Add(facts_.NameOf(cause.id) + " is loaded " + facts_.Where(cause.at),
                 facts_.LocationOf(cause.at));
      const Fact* local = solver_.proven().LocalLoadFact(cause.at);
      return local ? &local->cause : nullptr;
    }
    case Cause::kSharedControl:
      lines->Add("shared variable " + facts_.NameOf(cause.id) + " is loaded " +
                     facts_.Where(cause.at) + " in non-uniform control flow",
                 facts_.LocationOf(cause.at));
      return CauseOfBlock(cause.block);
    // Texts as source causes (no location of their own): where the load and the
    // writes are is part of the text.
    case Cause::kSharedUnguarded:
      lines->Add("shared variable " + facts_.NameOf(cause.id) +
                     " is written by other invocations and no workgroup barrier comes before "
                     "its load " +
                     facts_.Where(cause.at),
                 SourceLocation{});
      return nullptr;
    case Cause::kSharedPhaseWrite: {
      const ModuleFacts::PhaseWrite& write = facts_.phase_writes[cause.id];
      lines->Add("shared variable " + facts_.NameOf(write.root) +
                     " may be written after the barrier " + facts_.Where(write.barrier) +
                     " (by the " + grammar::OpcodeName(write.write->opcode) + " " +
                     facts_.Where(write.write) + ")",
                 SourceLocation{});
      return nullptr;
    }
    case Cause::kPhaseBarrier:
      lines->Add("shared variable " + facts_.NameOf(cause.id) + " is read after the barrier " +
                     facts_.Where(cause.at) + ", which is in non-uniform control flow",
                 facts_.LocationOf(cause.at));
      return CauseOfBlock(cause.block);
    default:
      return ExplainCall(cause, lines);
  }
}

// One line for a cause about values crossing a call: arguments, returns.
const Cause* UniformityReporter::ExplainCall(const Cause& cause, ReasonLines* lines) const {
  switch (cause.kind) {
    case Cause::kParameter:
      lines->Add("a parameter receives a non-uniform argument " + facts_.Where(cause.at),
                 facts_.LocationOf(cause.at));
      return CauseOfValue(cause.id);
    case Cause::kCallResult: {
      lines->Add(facts_.NameOf(cause.id) + " returns a non-uniform value (called " +
                     facts_.Where(cause.at) + ")",
                 facts_.LocationOf(cause.at));
      const Fact* returned = solver_.proven().ReturnFact(cause.id);
      return returned ? &returned->cause : nullptr;
    }
    case Cause::kReturn:
      lines->Add("it returns a non-uniform value " + facts_.Where(cause.at),
                 facts_.LocationOf(cause.at));
      return CauseOfValue(cause.id);
    case Cause::kReturnControl:
      lines->Add("it returns " + facts_.Where(cause.at) + " in non-uniform control flow",
                 facts_.LocationOf(cause.at));
      return CauseOfBlock(cause.block);
    case Cause::kReturnControlLocal: {
      lines->Add("it returns " + facts_.Where(cause.at) + " in non-uniform control flow",
                 facts_.LocationOf(cause.at));
      return CauseOfLocalBlock(cause.block);
    }
    default:
      return nullptr;
  }
}

// Each controlling branch too divergent for `allowed` offers two chains: its own
// condition, and the branch it is itself inside.
std::vector<Cause> UniformityReporter::AlternativeCauses(ControlDependence::Branches branches,
                                                         Divergence allowed) const {
  std::vector<Cause> candidates;
  for (const Block* branch : branches) {
    if (solver_.proven().Value(ConditionOf(*branch)) > allowed)
      candidates.push_back(MakeCause(Cause::kBranch, 0, branch));
    const Fact* local = solver_.proven().LocalBlockFact(branch);
    if (local && local->level > allowed)
      candidates.push_back(MakeCause(Cause::kNestedLocal, 0, branch));
  }
  return candidates;
}

// The chain behind `control`, then up to two more independent ones: other branches
// the instruction's block depends on that are too divergent for `allowed`, each
// explained from its own condition (or its own enclosing branch), when it ends at a
// source (the last line) that no chain before it ends at.
ReasonLines UniformityReporter::ExplainAlternatives(const Instruction& inst, const Fact& control,
                                                    Divergence allowed) const {
  constexpr int kMaxChains = 3;
  ReasonLines lines = Explain(control);
  const Block* block = facts_.def_use.BlockOf(&inst);
  const Function* function = facts_.def_use.FunctionOf(&inst);
  if (!block || !function) return lines;
  const ControlDependence& dependence = *facts_.control_dependence.at(function->id());
  const ControlDependence::Branches controllers = dependence.ControllersOf(block);
  if (controllers.empty()) return lines;
  std::vector<Cause> candidates = AlternativeCauses(controllers, allowed);
  int chains = 1;
  std::vector<std::string> roots;
  if (!lines.text.empty()) roots.push_back(lines.text.back());
  for (const Cause& cause : candidates) {
    if (chains == kMaxChains) break;
    bool same_as_first =
        (cause.kind == control.cause.kind ||
         (cause.kind == Cause::kNestedLocal && control.cause.kind == Cause::kNested)) &&
        cause.block == control.cause.block;
    if (same_as_first) continue;
    Fact alternative;
    alternative.level = Divergence::kDivergent;
    alternative.cause = cause;
    ReasonLines more = Explain(alternative);
    // Independent: it ends at a source no chain shown so far ends at.
    if (more.text.empty() || std::count(roots.begin(), roots.end(), more.text.back())) continue;
    roots.push_back(more.text.back());
    more.text.front() = "also: " + more.text.front();
    lines.text.insert(lines.text.end(), more.text.begin(), more.text.end());
    lines.where.insert(lines.where.end(), more.where.begin(), more.where.end());
    ++chains;
  }
  return lines;
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
