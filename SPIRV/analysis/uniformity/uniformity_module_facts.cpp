// Uniformity analysis, module facts: what every entry point's analysis reads about the
// module and never changes - decorations (BuiltIn, Flat, NonWritable, BufferBlock),
// names, the id operands of every instruction, and each function's control dependence (which
// multi-way branches each block depends on, from post-dominators). Built once per module. Also how
// causes and reasons name values and places (NameOf, Where), which solver and reporter share,
// and the module-level questions the solver asks of instructions (FollowsFromOperands,
// AssumedUniform).
#include "SPIRV/analysis/uniformity/uniformity_internal.h"

#include <algorithm>
#include <optional>

#include "SPIRV/analysis/uniformity/uniformity_filters.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/operands.h"

namespace glint::spirv {
namespace uniformity_detail {

ControlDependence::ControlDependence(const Cfg& cfg) : cfg_(&cfg) {
  // (dependent's number, branch) in the order the walks meet them: branches in reverse
  // post-order, so a stable sort by dependent keeps each list in that order, and the
  // walks from one branch's successors meet a dependent consecutively.
  std::vector<std::pair<uint32_t, const Block*>> pairs;
  for (const Block* branch : cfg.ReversePostOrder())
    ForEachControlDependent(cfg, branch, [&](const Block*, const Block* dependent) {
      pairs.emplace_back(static_cast<uint32_t>(cfg.NumberOf(dependent)), branch);
    });
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  first_.assign(cfg.BlockCount() + 1, 0);
  branches_.reserve(pairs.size());
  for (const auto& [dependent, branch] : pairs) {
    ++first_[size_t(dependent) + 1];
    branches_.push_back(branch);
  }
  for (size_t b = 0; b < cfg.BlockCount(); ++b) first_[b + 1] += first_[b];
}

std::unique_ptr<ControlDependence> ControlDependenceOf(const Cfg& cfg) {
  return std::make_unique<ControlDependence>(cfg);
}

// Each named id's OpName (the last one where there are several).
void IndexNames(ModuleFacts& facts) {
  facts.names.reserve(facts.module.debug_names.size());
  for (const Instruction& inst : facts.module.debug_names)
    if (inst.opcode == spv::OpName) facts.names[NameView(inst).target()] = &inst;
}

std::unique_ptr<ModuleFacts> CollectModuleFacts(Module& module, const UniformityInputs& inputs,
                                                bool findings_only) {
  auto facts = std::make_unique<ModuleFacts>(module, inputs);
  facts->decorations = StorageDecorations::Of(module);
  IndexNames(*facts);
  facts->glsl_std450_import = module.GlslStd450Import();
  for (Function& function : module.functions) {
    const Cfg& cfg = inputs.cfgs(function);
    facts->control_dependence[function.id()] = ControlDependenceOf(cfg);
    facts->cfgs[function.id()] = &cfg;
  }
  facts->offset_shared_loops = std::make_unique<OffsetSharedLoops>(
      facts->def_use,
      [cfgs = &facts->cfgs](uint32_t function) -> const Cfg* {
        auto found = cfgs->find(function);
        return found == cfgs->end() ? nullptr : found->second;
      },
      inputs.loop_shapes, inputs.value_bounds);
  if (findings_only && facts->classes.ok()) facts->relevance = FindRelevance(*facts);
  std::optional<ValueFlowModuleIndex> module_index;  // for the views built here, once
  for (Function& function : module.functions) {
    const ValueFlow* flow = nullptr;
    if (facts->relevance) {
      if (inputs.built_value_flow) flow = inputs.built_value_flow(function);
      if (!flow) {
        ValueFlowOptions only_read;
        only_read.only_variables = &facts->relevance->read_roots;
        if (!module_index) module_index.emplace(module);
        only_read.module_index = &*module_index;
        facts->own_flows.push_back(std::make_unique<ValueFlow>(
            module, function, *facts->cfgs.at(function.id()), only_read));
        flow = facts->own_flows.back().get();
      }
    } else {
      flow = &inputs.value_flows(function);
    }
    facts->flows[function.id()] = flow;
  }
  return facts;
}

const std::vector<uint32_t>& ModuleFacts::ModuleVariablesReached(uint32_t function) {
  auto known = module_variables_reached.find(function);
  if (known != module_variables_reached.end()) return known->second;
  // A function's set: its own names joined with its callees' sets known so far.
  auto find_set = [&](const Function& reached) {
    std::vector<uint32_t> variables;
    for (const Block& block : reached.blocks)
      for (const Instruction& inst : block.instructions)
        for (uint32_t id : OperandsOf(inst)) {
          const Instruction* def = def_use.Definition(id);
          if (def && def->opcode == spv::OpVariable && !def_use.FunctionOf(def))
            variables.push_back(id);
        }
    for (const CallGraph::Call* call : calls.CallsIn(reached.id())) {
      auto callee = module_variables_reached.find(call->callee);
      if (callee != module_variables_reached.end())
        variables.insert(variables.end(), callee->second.begin(), callee->second.end());
    }
    std::sort(variables.begin(), variables.end());
    variables.erase(std::unique(variables.begin(), variables.end()), variables.end());
    module_variables_reached[reached.id()] = std::move(variables);
  };
  // Asked callees first (relevance asks in id order, and helpers are mostly defined
  // before their callers), every callee's set is known already: no walk of the subtree.
  const Function* asked = calls.FunctionById(function);
  const std::vector<const CallGraph::Call*>& direct = calls.CallsIn(function);
  if (asked && std::all_of(direct.begin(), direct.end(), [&](const CallGraph::Call* call) {
        return module_variables_reached.count(call->callee) != 0;
      })) {
    find_set(*asked);
    return module_variables_reached[function];
  }
  // Callees first, so each function's set is its own names joined with its callees'
  // sets, already known: every function's instructions are read once, however many
  // callers reach it (SPIR-V has no recursion).
  for (const Function* reached : calls.CalleesFirst(function))
    if (!module_variables_reached.count(reached->id())) find_set(*reached);
  return module_variables_reached[function];
}

int ModuleFacts::CallHeight(uint32_t function) {
  auto known = call_heights.find(function);
  if (known != call_heights.end()) return known->second;
  int height = 0;
  // Callees first, so each height below is known when its caller's is computed (SPIR-V
  // has no recursion; the walk visits each function once).
  for (const Function* reached : calls.CalleesFirst(function)) {
    int own = 0;
    for (const CallGraph::Call* call : calls.CallsIn(reached->id())) {
      auto callee = call_heights.find(call->callee);
      if (callee != call_heights.end()) own = std::max(own, callee->second + 1);
    }
    call_heights[reached->id()] = own;
    if (reached->id() == function) height = own;
  }
  return call_heights[function] = height;
}

std::string ModuleFacts::SourceName(uint32_t id) const {
  auto it = names.find(id);
  return it == names.end() ? std::string() : NameView(*it->second).name();
}

std::string ModuleFacts::NameOf(uint32_t id) const {
  std::string name = SourceName(id);
  if (!name.empty()) return "`" + name + "`";
  return "%" + std::to_string(id);
}

ModuleFacts::Place& ModuleFacts::PlaceOf(const Instruction* inst) const {
  auto [found, added] = places.try_emplace(inst);
  if (added) found->second.located = lines.Locate(inst);
  return found->second;
}

SourceLocation ModuleFacts::LocationOf(const Instruction* inst) const {
  return inst ? PlaceOf(inst).located.location : lines.At(inst);
}

// "at file:line" ("at 0:line" for an unnamed source), or "in `function` (no line
// information)".
const std::string& ModuleFacts::Where(const Instruction* inst) const {
  static const std::string kUnknown = "at an unknown place";
  if (!inst) return kUnknown;
  Place& place = PlaceOf(inst);
  if (!place.where.empty()) return place.where;
  const SourceLocation& loc = place.located.location;
  if (!loc.line) {
    const Function* function = def_use.FunctionOf(inst);
    place.where = "in " + (function ? NameOf(function->id()) : std::string("a function")) +
                  " (no line information)";
  } else {
    // An unnamed source is string 0, as glslang names it in its own messages ("0:12").
    place.where = (place.located.inherited ? "near " : "at ") +
                  (loc.file.empty() ? "0:" : loc.file + ":") + std::to_string(loc.line);
  }
  return place.where;
}

// An instruction of a one-block helper whose level is the join of its operands' (or, for
// a load, of what it reads): a result, no source, no variable, call or phi.
bool ModuleFacts::FollowsFromOperands(const Instruction& inst) const {
  bool foreign_ext =
      inst.opcode == spv::OpExtInst && ExtInstView(inst).set() != glsl_std450_import;
  bool source = FixedResultLevel(inst.opcode) || IsAtomic(inst.opcode) ||
                inst.opcode == spv::OpImageRead || inst.opcode == spv::OpImageSparseRead ||
                foreign_ext;
  std::optional<OpcodeConvergence> row = ClassifyOpcode(inst.opcode);
  return inst.result_id && !source && row && row->flags == kNotConvergent &&
         inst.opcode != spv::OpVariable && inst.opcode != spv::OpFunctionCall &&
         inst.opcode != spv::OpPhi;
}

bool ModuleFacts::AssumedUniform(uint32_t callee, const UniformityOptions& options) const {
  if (options.assume_uniform.empty()) return false;
  if (!names.count(callee)) return false;
  const std::string name = SourceName(callee);
  for (const std::string& wanted : options.assume_uniform)
    if (FunctionNameMatches(name, wanted)) return true;
  return false;
}

}  // namespace uniformity_detail
}  // namespace glint::spirv
