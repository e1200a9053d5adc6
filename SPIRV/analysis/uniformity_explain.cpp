// Uniformity analysis, explanations: turns the cause recorded with each raised level
// into the reason chain a warning prints, outermost first ("only some invocations take
// the branch at x:3", "`i` is loaded at x:2", "built-in ... differs between
// invocations"), with the source location each line names, plus up to two independent
// chains ("also: ..."). Causes form no cycle (a fact is only raised by one that already
// had the new level), and a step limit bounds the text.
#include "SPIRV/analysis/uniformity_internal.h"

#include <algorithm>
#include <list>

namespace glint::spirv {
namespace uniformity_detail {

std::string EntryPointAnalysis::NameOf(uint32_t id) const {
  auto it = facts_.names.find(id);
  if (it != facts_.names.end() && !it->second.empty()) return "`" + it->second + "`";
  return "%" + std::to_string(id);
}

// "at file:line", or "in `function` (no line information)".
SourceLocation EntryPointAnalysis::LocationOf(const Instruction* inst) const {
  return facts_.lines.At(inst);
}

std::string EntryPointAnalysis::Where(const Instruction* inst) const {
  if (!inst) return "at an unknown place";
  SourceLines::Located located = facts_.lines.Locate(inst);
  const SourceLocation& loc = located.location;
  if (!loc.line) {
    const Function* function = facts_.def_use.FunctionOf(inst);
    return "in " + (function ? NameOf(function->id()) : std::string("a function")) +
           " (no line information)";
  }
  return (located.inherited ? "near " : "at ") + (loc.file.empty() ? "line " : loc.file + ":") +
         std::to_string(loc.line);
}

// ", where some invocations discard" when an arm of `branch` ends the invocation (or
// ", ... return" when it leaves the function): the usual reason code after it diverges.
std::string EntryPointAnalysis::ExitNote(const Block* branch) const {
  const Function* function = facts_.def_use.FunctionOf(branch->Terminator());
  if (!function) return "";
  const Cfg& cfg = *facts_.control_dependence.at(function->id())->cfg;
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
ReasonLines EntryPointAnalysis::Explain(const Fact& control) const {
  ReasonLines lines;
  std::list<Fact> memory_facts;  // joined memory facts live here while the walk refers to them
  const Cause* cause = &control.cause;
  // Causes are acyclic (see Cause); the step limit only bounds the length of the text.
  for (int step = 0; cause && cause->kind != Cause::kNone && step < 24; ++step)
    cause = ExplainControl(*cause, &lines) ? NextControlCause(*cause)
                                           : ExplainData(*cause, &lines, &memory_facts);
  return lines;
}

const Cause* EntryPointAnalysis::CauseOfValue(uint32_t id) const {
  const Fact* fact = ValueFact(id);
  return fact ? &fact->cause : nullptr;
}

const Cause* EntryPointAnalysis::CauseOfBlock(const Block* block) const {
  auto it = blocks_.find(block);
  return it == blocks_.end() ? nullptr : &it->second.cause;
}

// One line for a cause about control flow; false when `cause` is about data.
bool EntryPointAnalysis::ExplainControl(const Cause& cause, ReasonLines* lines) const {
  switch (cause.kind) {
    case Cause::kBranch:
      lines->Add("only some invocations take the branch " + Where(cause.block->Terminator()) +
                     ExitNote(cause.block) + ": its condition is " +
                     DivergenceName(Value(ConditionOf(cause.block))),
                 LocationOf(cause.block->Terminator()));
      return true;
    case Cause::kNested:
    case Cause::kNestedLocal:
      lines->Add("it is inside the branch " + Where(cause.block->Terminator()) +
                     ", which is in non-uniform control flow",
                 LocationOf(cause.block->Terminator()));
      return true;
    case Cause::kMerge:
      lines->Add("it merges the paths of the branch " + Where(cause.block->Terminator()),
                 LocationOf(cause.block->Terminator()));
      return true;
    case Cause::kCallSite:
      lines->Add("its function is called " + Where(cause.at) + " in non-uniform control flow",
                 LocationOf(cause.at));
      return true;
    case Cause::kKillAfterCall:
      lines->Add("the call of " + NameOf(cause.id) + " " + Where(cause.at) +
                     " may end only some invocations (discard)",
                 LocationOf(cause.at));
      return true;
    case Cause::kKill:
      lines->Add("the discard " + Where(cause.at) + " is in non-uniform control flow",
                 LocationOf(cause.at));
      return true;
    default:
      return false;
  }
}

// What a control cause rests on: a branch condition, or the control of another block.
const Cause* EntryPointAnalysis::NextControlCause(const Cause& cause) const {
  switch (cause.kind) {
    case Cause::kBranch:
    case Cause::kMerge:
      return CauseOfValue(ConditionOf(cause.block));
    case Cause::kKillAfterCall: {
      auto kill = kills_.find(cause.id);
      return kill == kills_.end() ? nullptr : &kill->second.cause;
    }
    case Cause::kNestedLocal: {
      auto local = local_blocks_.find(cause.block);
      return local == local_blocks_.end() ? nullptr : &local->second.cause;
    }
    default:  // kNested, kCallSite, kKill
      return CauseOfBlock(cause.block);
  }
}

// One line (or none, for plain operands) for a cause about values and memory; returns
// the cause it rests on.
const Cause* EntryPointAnalysis::ExplainData(const Cause& cause, ReasonLines* lines,
                                             std::list<Fact>* memory_facts) const {
  switch (cause.kind) {
    case Cause::kSource:
      lines->Add(cause.text, SourceLocation{});
      return nullptr;
    case Cause::kOperand:
      return CauseOfValue(cause.id);
    case Cause::kLoad:
      lines->Add(
          NameOf(cause.id) + " is loaded" + (cause.at ? " " + Where(cause.at) : std::string()),
          LocationOf(cause.at));
      memory_facts->push_back(MemoryFact(cause.id));
      return &memory_facts->back().cause;
    case Cause::kStore:
      lines->Add("it is assigned a non-uniform value " + Where(cause.at), LocationOf(cause.at));
      return CauseOfValue(cause.id);
    case Cause::kStoreControl:
      lines->Add("it is assigned " + Where(cause.at) + " in non-uniform control flow",
                 LocationOf(cause.at));
      return CauseOfBlock(cause.block);
    case Cause::kStoreControlLocal: {
      lines->Add("it is assigned " + Where(cause.at) + " in non-uniform control flow",
                 LocationOf(cause.at));
      auto local = local_blocks_.find(cause.block);
      return local == local_blocks_.end() ? nullptr : &local->second.cause;
    }
    case Cause::kLocalLoad: {
      lines->Add(NameOf(cause.id) + " is loaded " + Where(cause.at), LocationOf(cause.at));
      auto local = local_loads_.find(cause.at);
      return local == local_loads_.end() ? nullptr : &local->second.cause;
    }
    case Cause::kSharedControl:
      lines->Add("shared variable " + NameOf(cause.id) + " is loaded " + Where(cause.at) +
                     " in non-uniform control flow",
                 LocationOf(cause.at));
      return CauseOfBlock(cause.block);
    case Cause::kPhaseBarrier:
      lines->Add("shared variable " + NameOf(cause.id) + " is read after the barrier " +
                     Where(cause.at) + ", which is in non-uniform control flow",
                 LocationOf(cause.at));
      return CauseOfBlock(cause.block);
    default:
      return ExplainCall(cause, lines);
  }
}

// One line for a cause about values crossing a call: arguments, returns.
const Cause* EntryPointAnalysis::ExplainCall(const Cause& cause, ReasonLines* lines) const {
  switch (cause.kind) {
    case Cause::kParameter:
      lines->Add("a parameter receives a non-uniform argument " + Where(cause.at),
                 LocationOf(cause.at));
      return CauseOfValue(cause.id);
    case Cause::kCallResult: {
      lines->Add(NameOf(cause.id) + " returns a non-uniform value (called " + Where(cause.at) + ")",
                 LocationOf(cause.at));
      auto returned = returns_.find(cause.id);
      return returned == returns_.end() ? nullptr : &returned->second.cause;
    }
    case Cause::kReturn:
      lines->Add("it returns a non-uniform value " + Where(cause.at), LocationOf(cause.at));
      return CauseOfValue(cause.id);
    case Cause::kReturnControl:
      lines->Add("it returns " + Where(cause.at) + " in non-uniform control flow",
                 LocationOf(cause.at));
      return CauseOfBlock(cause.block);
    case Cause::kReturnControlLocal: {
      lines->Add("it returns " + Where(cause.at) + " in non-uniform control flow",
                 LocationOf(cause.at));
      auto local = local_blocks_.find(cause.block);
      return local == local_blocks_.end() ? nullptr : &local->second.cause;
    }
    default:
      return nullptr;
  }
}

// Each controlling branch too divergent for `allowed` offers two chains: its own
// condition, and the branch it is itself inside.
std::vector<Cause> EntryPointAnalysis::AlternativeCauses(const std::vector<const Block*>& branches,
                                                         Divergence allowed) const {
  std::vector<Cause> candidates;
  for (const Block* branch : branches) {
    if (Value(ConditionOf(branch)) > allowed)
      candidates.push_back(MakeCause(Cause::kBranch, 0, branch));
    auto local = local_blocks_.find(branch);
    if (local != local_blocks_.end() && local->second.level > allowed)
      candidates.push_back(MakeCause(Cause::kNestedLocal, 0, branch));
  }
  return candidates;
}

// The chain behind `control`, then up to two more independent ones: other branches
// the instruction's block depends on that are too divergent for `allowed`, each
// explained from its own condition (or its own enclosing branch), when it ends at a
// source (the last line) that no chain before it ends at.
ReasonLines EntryPointAnalysis::ExplainAlternatives(const Instruction& inst, const Fact& control,
                                                    Divergence allowed) const {
  constexpr int kMaxChains = 3;
  ReasonLines lines = Explain(control);
  const Block* block = facts_.def_use.BlockOf(&inst);
  const Function* function = facts_.def_use.FunctionOf(&inst);
  if (!block || !function) return lines;
  const ControlDependence& dependence = *facts_.control_dependence.at(function->id());
  auto controllers = dependence.controllers.find(block);
  if (controllers == dependence.controllers.end()) return lines;
  std::vector<Cause> candidates = AlternativeCauses(controllers->second, allowed);
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
