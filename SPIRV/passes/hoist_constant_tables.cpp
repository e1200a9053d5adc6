#include "hoist_constant_tables.h"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {
namespace {

// Not in the installed SPIR-V headers; the parser refuses the opcode for now, but the
// pass accepts it so that it is ready when the grammar knows it.
constexpr uint32_t kOpConstantCompositeReplicateEXT = 4461;

// Constants a Private variable may take as Initializer.
bool IsHoistableConstantOpcode(spv::Op opcode) {
  return opcode == spv::OpConstantComposite || opcode == spv::OpConstantNull ||
         static_cast<uint32_t>(opcode) == kOpConstantCompositeReplicateEXT;
}

bool IsCompositeTypeOpcode(spv::Op opcode) {
  return opcode == spv::OpTypeArray || opcode == spv::OpTypeStruct || opcode == spv::OpTypeVector ||
         opcode == spv::OpTypeMatrix;
}

bool IsAccessChain(spv::Op opcode) {
  return opcode == spv::OpAccessChain || opcode == spv::OpInBoundsAccessChain;
}

// A Function variable whose content may be a constant composite.
struct Candidate {
  Instruction* variable = nullptr;  // erased when hoisted
  uint32_t variable_id = 0;
  Function* function = nullptr;
  uint32_t constant = 0;
  std::vector<Instruction*> stores;  // every OpStore whose pointer is the variable itself
  bool indexed_at_run_time = false;  // an access chain rooted here has a non-constant index
  // Filled while checking: what the rewrite touches.
  std::vector<Use> direct_reads;     // OpLoad / access chains of the variable itself
  std::vector<Instruction*> chains;  // every access chain rooted at the variable
  std::vector<Instruction*> names_and_decorations;
  uint32_t hoisted_to = 0;
  std::string refusal;
};

// One Private variable and the Function variables it replaces.
struct Table {
  uint32_t constant = 0;
  uint32_t variable = 0;
  std::vector<Candidate*> replaced;
};

class State {
 public:
  explicit State(AnalysisContext& analyses) : module_(analyses.module()), analyses_(analyses) {}
  PassResult Run(std::vector<ConstantTableDecision>* decisions);

 private:
  void IndexConstants();
  void FindCandidates();
  // A Function variable of an entry block while candidates are found.
  struct VariableSeen {
    Instruction* variable = nullptr;
    Function* function = nullptr;
    uint32_t constant = 0;
    bool indexed_at_run_time = false;
  };
  void NoteStoreOrChain(Instruction& inst, std::vector<VariableSeen>& variables,
                        std::vector<std::pair<uint32_t, Instruction*>>& stores);
  std::string Check(Candidate& candidate);
  std::string CheckContent(const Candidate& candidate) const;
  std::string CheckUses(Candidate& candidate);
  std::string CheckUseOfVariable(Candidate& candidate, const Use& use);
  std::string CheckUseOfChain(const Use& use, uint32_t chain, std::vector<uint32_t>& worklist,
                              Candidate& candidate);
  bool HoldsConstantAt(const Candidate& candidate, const Instruction& use);
  bool StoreDominates(const Instruction& store, const Instruction& use);
  void Rewrite(std::vector<Table>& tables);
  uint32_t PrivatePointerTo(uint32_t pointee);
  uint32_t PointeeOf(uint32_t pointer_type) const;
  bool IsFunctionPointer(uint32_t type_id) const;
  void EraseReplaced(const std::vector<Table>& tables);
  void AddToInterfaces(const std::vector<Table>& tables);

  // A table by id, flat (ids are below the module's bound, and every module-scope
  // instruction is indexed: a node per entry cost more than the rest of the pass on
  // modules without a table); null / 0 for an id it does not hold.
  template <typename T>
  class ById {
   public:
    void Reserve(size_t ids) { entries_.reserve(ids); }
    void Set(uint32_t id, T value) {
      if (id >= entries_.size()) entries_.resize(size_t(id) + 1, T{});
      entries_[id] = value;
    }
    T Get(uint32_t id) const { return id < entries_.size() ? entries_[id] : T{}; }

   private:
    std::vector<T> entries_;
  };

  Module& module_;
  // Composite-typed constants (and OpConstantNull) by id; spec-tainted ones separately.
  ById<const Instruction*> composite_constants_;
  size_t composite_constant_count_ = 0;
  ById<uint8_t> spec_tainted_;
  ById<const Instruction*> types_;      // pointer and composite types
  ById<const Instruction*> constants_;  // every constant instruction
  std::vector<Candidate> candidates_;
  AnalysisContext& analyses_;
  const DefUse* def_use_ = nullptr;  // the context's, asked for only when a table exists
  std::unordered_map<uint32_t, uint32_t> private_pointers_;  // pointee -> pointer type
  // Entry-block Function variables and the access chains rooted at them, by id: the
  // variable's place (FindCandidates) + 1, 0 for anything else.
  ById<uint32_t> variable_places_;
  ById<uint32_t> chain_roots_;
};

// Records types, constants, and which composite constants hold a spec constant. Walks
// in module order, so constituents are seen before the composites that use them.
void State::IndexConstants() {
  const size_t ids = module_.header.bound;
  types_.Reserve(ids);
  constants_.Reserve(ids);
  spec_tainted_.Reserve(ids);
  composite_constants_.Reserve(ids);
  for (const Instruction& inst : module_.types_values) {
    if (inst.opcode == spv::OpTypePointer || IsCompositeTypeOpcode(inst.opcode))
      types_.Set(inst.result_id, &inst);
    if (!IsConstantInstruction(inst.opcode)) continue;
    constants_.Set(inst.result_id, &inst);
    bool tainted = IsSpecConstantInstruction(inst.opcode);
    if (inst.opcode == spv::OpConstantComposite)
      for (uint32_t part : ConstantCompositeView(inst).constituents())
        tainted |= spec_tainted_.Get(part) != 0;
    else if (static_cast<uint32_t>(inst.opcode) == kOpConstantCompositeReplicateEXT)
      tainted |= spec_tainted_.Get(ConstantCompositeReplicateView(inst).value()) != 0;
    if (tainted) spec_tainted_.Set(inst.result_id, 1);
    const Instruction* type = types_.Get(inst.type_id);
    bool composite = type && IsCompositeTypeOpcode(type->opcode);
    bool may_be_content = IsHoistableConstantOpcode(inst.opcode) || tainted;
    if (inst.opcode == spv::OpConstantNull || (composite && may_be_content)) {
      if (!composite_constants_.Get(inst.result_id)) ++composite_constant_count_;
      composite_constants_.Set(inst.result_id, &inst);
    }
  }
}

// Candidates: Function variables of an entry block whose Initializer, or some OpStore to
// the variable itself, is a composite constant. Only opcodes and ids are compared here,
// so a module without a candidate costs a walk and is never touched; every variable is
// first a small record, and only candidates become Candidates.
void State::FindCandidates() {
  variable_places_.Reserve(module_.header.bound);
  chain_roots_.Reserve(module_.header.bound);
  std::vector<VariableSeen> variables;
  for (Function& function : module_.functions) {
    if (function.blocks.empty()) continue;
    for (Instruction& inst : function.blocks.front().instructions) {
      if (inst.opcode != spv::OpVariable ||
          VariableView(inst).storage_class() != spv::StorageClassFunction)
        continue;
      VariableSeen seen;
      seen.variable = &inst;
      seen.function = &function;
      VariableView variable(inst);
      if (variable.has_initializer() && composite_constants_.Get(variable.initializer()))
        seen.constant = variable.initializer();
      variables.push_back(seen);
      variable_places_.Set(inst.result_id, static_cast<uint32_t>(variables.size()));
    }
  }
  if (variables.empty()) return;
  std::vector<std::pair<uint32_t, Instruction*>> stores;  // (variable's place, OpStore)
  for (Function& function : module_.functions)
    for (Block& block : function.blocks)
      for (Instruction& inst : block.instructions) NoteStoreOrChain(inst, variables, stores);
  std::vector<uint32_t> candidate_of(variables.size(), 0);  // place + 1 in candidates_
  for (size_t place = 0; place < variables.size(); ++place) {
    const VariableSeen& seen = variables[place];
    if (!seen.constant) continue;
    Candidate candidate;
    candidate.variable = seen.variable;
    candidate.variable_id = seen.variable->result_id;
    candidate.function = seen.function;
    candidate.constant = seen.constant;
    candidate.indexed_at_run_time = seen.indexed_at_run_time;
    candidates_.push_back(std::move(candidate));
    candidate_of[place] = static_cast<uint32_t>(candidates_.size());
  }
  for (const auto& [place, store] : stores)  // in module order, as they were seen
    if (uint32_t candidate = candidate_of[place])
      candidates_[candidate - 1].stores.push_back(store);
}

// Records stores to entry-block variables and whether an access chain rooted at one (seen
// in module order) has a run-time index; a variable without one is no table, and a
// module without any such variable needs no def-use index.
void State::NoteStoreOrChain(Instruction& inst, std::vector<VariableSeen>& variables,
                             std::vector<std::pair<uint32_t, Instruction*>>& stores) {
  if (inst.opcode == spv::OpStore) {
    StoreView store(inst);
    uint32_t place = variable_places_.Get(store.pointer());
    if (!place) return;
    VariableSeen& seen = variables[place - 1];
    stores.emplace_back(place - 1, &inst);
    if (!seen.constant && composite_constants_.Get(store.object())) seen.constant = store.object();
    return;
  }
  if (!IsAccessChain(inst.opcode)) return;
  AccessChainView chain(inst);
  uint32_t root = variable_places_.Get(chain.base());
  if (!root) root = chain_roots_.Get(chain.base());
  if (!root) return;
  chain_roots_.Set(inst.result_id, root);
  for (uint32_t index : chain.indices()) {
    const Instruction* constant = constants_.Get(index);
    if (!constant || constant->opcode != spv::OpConstant)
      variables[root - 1].indexed_at_run_time = true;
  }
}

std::string IdText(uint32_t id) { return "%" + std::to_string(id); }

// The variable holds exactly the constant, put there once.
std::string State::CheckContent(const Candidate& candidate) const {
  const Instruction& variable = *candidate.variable;
  if (spec_tainted_.Get(candidate.constant))
    return "its content " + IdText(candidate.constant) +
           " is or holds a specialization constant, fixed only at pipeline creation";
  const Instruction* pointer = types_.Get(variable.type_id);
  if (!pointer || pointer->opcode != spv::OpTypePointer ||
      TypePointerView(*pointer).pointee() != composite_constants_.Get(candidate.constant)->type_id)
    return "its pointee type is not the type of " + IdText(candidate.constant);
  for (const Instruction* store : candidate.stores) {
    StoreView view(*store);
    if (view.object() != candidate.constant)
      return "it is also written with " + IdText(view.object()) + ", not only with " +
             IdText(candidate.constant);
    if (view.has_memory_access()) return "an OpStore of its content has memory operands";
  }
  VariableView view(variable);
  if (view.has_initializer() && view.initializer() != candidate.constant)
    return "its Initializer is not " + IdText(candidate.constant);
  return "";
}

const char kNotATable[] = "no access chain indexes it at run time (not a lookup table)";

std::string State::Check(Candidate& candidate) {
  if (!candidate.indexed_at_run_time) return kNotATable;
  std::string refusal = CheckContent(candidate);
  if (refusal.empty()) refusal = CheckUses(candidate);
  return refusal;
}

// Walks the uses of the variable and of every access chain derived from it.
std::string State::CheckUses(Candidate& candidate) {
  for (const Use& use : def_use_->Uses(candidate.variable->result_id)) {
    std::string refusal = CheckUseOfVariable(candidate, use);
    if (!refusal.empty()) return refusal;
  }
  std::vector<uint32_t> worklist;
  for (Instruction* chain : candidate.chains) worklist.push_back(chain->result_id);
  while (!worklist.empty()) {  // bounded: each access chain is pushed once, by its def
    uint32_t pointer = worklist.back();
    worklist.pop_back();
    for (const Use& use : def_use_->Uses(pointer)) {
      std::string refusal = CheckUseOfChain(use, pointer, worklist, candidate);
      if (!refusal.empty()) return refusal;
    }
  }
  return "";
}

std::string UsedBy(const Instruction& user) {
  return std::string("it is used by ") + grammar::OpcodeName(user.opcode);
}

// True when `user` reads memory through `pointer`: an OpLoad of it, or an access chain
// with it as base.
bool ReadsThrough(const Instruction& user, uint32_t pointer) {
  if (auto load = ViewIf<LoadView>(user)) return load->pointer() == pointer;
  return IsAccessChain(user.opcode) && AccessChainView(user).base() == pointer;
}

std::string State::CheckUseOfVariable(Candidate& candidate, const Use& use) {
  const Instruction& user = *use.user;
  switch (user.opcode) {
    case spv::OpName:
      candidate.names_and_decorations.push_back(use.user);
      return "";
    case spv::OpDecorate: {
      spv::Decoration decoration = DecorateView(user).decoration();
      if (decoration != spv::DecorationNonWritable &&
          decoration != spv::DecorationRelaxedPrecision) {
        const char* name = grammar::EnumerantName(grammar::OperandKind::kDecoration, decoration);
        return "it is decorated " + (name ? std::string(name) : std::to_string(decoration));
      }
      candidate.names_and_decorations.push_back(use.user);
      return "";
    }
    case spv::OpStore:
      if (StoreView(user).object() == candidate.variable_id)
        return "its pointer is stored (OpStore)";
      return "";  // CheckContent allowed only stores of the constant itself
    default:
      break;
  }
  if (!ReadsThrough(user, candidate.variable_id)) return UsedBy(user);
  if (def_use_->FunctionOf(&user) != candidate.function) return "it is used in another function";
  if (!HoldsConstantAt(candidate, user))
    return "no OpStore of its content dominates a read (" +
           std::string(grammar::OpcodeName(user.opcode)) + ")";
  if (IsAccessChain(user.opcode) && !IsFunctionPointer(user.type_id))
    return "an access chain of it has no Function pointer type";
  candidate.direct_reads.push_back(use);
  if (IsAccessChain(user.opcode)) candidate.chains.push_back(use.user);
  return "";
}

std::string State::CheckUseOfChain(const Use& use, uint32_t chain, std::vector<uint32_t>& worklist,
                                   Candidate& candidate) {
  const Instruction& user = *use.user;
  if (user.opcode == spv::OpName || user.opcode == spv::OpDecorate) return "";  // they stay
  if (user.opcode == spv::OpLoad && ReadsThrough(user, chain)) return "";
  if (IsAccessChain(user.opcode) && ReadsThrough(user, chain)) {
    if (!IsFunctionPointer(user.type_id))
      return "an access chain of it has no Function pointer type";
    candidate.chains.push_back(use.user);
    worklist.push_back(user.result_id);
    return "";
  }
  if (user.opcode == spv::OpStore)
    return StoreView(user).pointer() == chain
               ? "it is written through an access chain (partial OpStore)"
               : "a pointer into it is stored (OpStore)";
  return UsedBy(user) + " through an access chain";
}

// True when the variable holds its constant whenever `use` runs: it has the constant as
// Initializer, or one of its stores (all of the constant) runs before `use` on every path.
bool State::HoldsConstantAt(const Candidate& candidate, const Instruction& use) {
  if (VariableView(*candidate.variable).has_initializer()) return true;
  return std::any_of(candidate.stores.begin(), candidate.stores.end(),
                     [&](const Instruction* store) { return StoreDominates(*store, use); });
}

// True when `store` runs before `use` on every path to `use`.
bool State::StoreDominates(const Instruction& store, const Instruction& use) {
  Block* store_block = def_use_->BlockOf(&store);
  Block* use_block = def_use_->BlockOf(&use);
  if (!store_block || !use_block) return false;
  if (store_block == use_block) {
    for (const Instruction& inst : store_block->instructions) {
      if (&inst == &store) return true;
      if (&inst == &use) return false;
    }
    return false;
  }
  const Function* function = def_use_->FunctionOf(&store);
  return analyses_.GetCfg(*const_cast<Function*>(function)).Dominates(store_block, use_block);
}

bool State::IsFunctionPointer(uint32_t type_id) const {
  const Instruction* type = types_.Get(type_id);
  return type && type->opcode == spv::OpTypePointer &&
         TypePointerView(*type).storage_class() == spv::StorageClassFunction;
}

uint32_t State::PointeeOf(uint32_t pointer_type) const {
  const Instruction* type = types_.Get(pointer_type);
  if (!type || type->opcode != spv::OpTypePointer) return 0;
  return TypePointerView(*type).pointee();
}

// The id an OpName or OpDecorate of a candidate names.
uint32_t TargetOf(const Instruction& name_or_decoration) {
  if (name_or_decoration.opcode == spv::OpName) return NameView(name_or_decoration).target();
  return DecorateView(name_or_decoration).target();
}

// Points a direct read of a candidate (an OpLoad's pointer or an access chain's base,
// the only reads CheckUseOfVariable admits) at `variable`.
void RetargetRead(Instruction& read, uint32_t variable) {
  if (auto load = ViewIf<LoadView>(read))
    load->pointer() = variable;
  else
    AccessChainView(read).base() = variable;
}

uint32_t State::PrivatePointerTo(uint32_t pointee) {
  uint32_t& pointer = private_pointers_[pointee];
  if (!pointer) pointer = module_.FindOrAddPointerType(spv::StorageClassPrivate, pointee);
  return pointer;
}

// Retargets reads to the Private variables, retypes access chains, creates the
// variables at the end of the types/values section, and keeps the first name.
void State::Rewrite(std::vector<Table>& tables) {
  std::vector<Instruction> variables;
  for (Table& table : tables) {
    uint32_t pointer = PrivatePointerTo(composite_constants_.Get(table.constant)->type_id);
    table.variable = module_.TakeNextId();
    variables.emplace_back(
        spv::OpVariable, pointer, table.variable,
        std::vector<uint32_t>{static_cast<uint32_t>(spv::StorageClassPrivate), table.constant});
    bool named = false;
    for (Candidate* candidate : table.replaced) {
      candidate->hoisted_to = table.variable;
      for (const Use& read : candidate->direct_reads) RetargetRead(*read.user, table.variable);
      for (Instruction* chain : candidate->chains)
        chain->type_id = PrivatePointerTo(PointeeOf(chain->type_id));
      for (Instruction* inst : candidate->names_and_decorations)
        if (inst->opcode == spv::OpName && !named) {
          NameView(*inst).target() = table.variable;  // no longer erased below
          named = true;
        }
    }
  }
  EraseReplaced(tables);
  for (Instruction& variable : variables) module_.types_values.push_back(std::move(variable));
}

void State::EraseReplaced(const std::vector<Table>& tables) {
  std::unordered_set<const Instruction*> doomed;
  std::unordered_set<Function*> functions;
  for (const Table& table : tables)
    for (const Candidate* candidate : table.replaced) {
      doomed.insert(candidate->variable);
      doomed.insert(candidate->stores.begin(), candidate->stores.end());
      for (const Instruction* inst : candidate->names_and_decorations)
        if (TargetOf(*inst) != table.variable) doomed.insert(inst);
      functions.insert(candidate->function);
    }
  auto is_doomed = [&](const Instruction& inst) { return doomed.count(&inst) != 0; };
  module_.debug_names.remove_if(is_doomed);
  module_.annotations.remove_if(is_doomed);
  for (Function* function : functions)
    for (Block& block : function->blocks) block.instructions.remove_if(is_doomed);
}

// SPIR-V 1.4+: each entry point lists the Private variables its static call tree uses.
void State::AddToInterfaces(const std::vector<Table>& tables) {
  std::unordered_map<uint32_t, std::vector<uint32_t>> callees;
  for (const Function& function : module_.functions)
    for (const Block& block : function.blocks)
      for (const Instruction& inst : block.instructions)
        if (inst.opcode == spv::OpFunctionCall)
          callees[function.id()].push_back(FunctionCallView(inst).callee());
  for (Instruction& entry_point : module_.entry_points) {
    EntryPointInterfaceView view(entry_point);
    std::unordered_set<uint32_t> reached = {view.function()};
    std::vector<uint32_t> stack = {view.function()};
    while (!stack.empty()) {  // bounded: each function is pushed at most once
      uint32_t function = stack.back();
      stack.pop_back();
      for (uint32_t callee : callees[function])
        if (reached.insert(callee).second) stack.push_back(callee);
    }
    for (const Table& table : tables) {
      bool used = std::any_of(table.replaced.begin(), table.replaced.end(),
                              [&](const Candidate* c) { return reached.count(c->function->id()); });
      if (used && !view.lists(table.variable)) view.AddToInterface(table.variable);
    }
  }
}

PassResult State::Run(std::vector<ConstantTableDecision>* decisions) {
  IndexConstants();
  if (composite_constant_count_ == 0) return PassResult::Unchanged();
  FindCandidates();
  if (candidates_.empty()) return PassResult::Unchanged();
  bool any_table = std::any_of(candidates_.begin(), candidates_.end(),
                               [](const Candidate& c) { return c.indexed_at_run_time; });
  if (any_table) def_use_ = &analyses_.GetDefUse();

  // Decide for every candidate, grouping the hoisted ones by constant.
  std::vector<Table> tables;
  std::unordered_map<uint32_t, size_t> table_of_constant;
  for (Candidate& candidate : candidates_) {
    candidate.refusal = Check(candidate);
    if (!candidate.refusal.empty()) continue;
    auto [it, added] = table_of_constant.emplace(candidate.constant, tables.size());
    if (added) tables.push_back(Table{candidate.constant, 0, {}});
    tables[it->second].replaced.push_back(&candidate);
  }

  if (!tables.empty()) {
    Rewrite(tables);
    if (module_.VersionAtLeast(1, 4)) AddToInterfaces(tables);
  }
  if (decisions)
    for (const Candidate& candidate : candidates_)
      decisions->push_back(
          {candidate.variable_id, candidate.constant, candidate.hoisted_to, candidate.refusal});
  if (tables.empty()) return PassResult::Unchanged();
  return PassResult::Changed(static_cast<uint32_t>(tables.size()));
}

}  // namespace

PassResult HoistConstantTables(AnalysisContext& analyses,
                               std::vector<ConstantTableDecision>* decisions) {
  State state(analyses);
  PassResult result = state.Run(decisions);
  // Variables and stores move or go; blocks and branches stay.
  if (result.status == PassStatus::kChanged) result.Preserving(Analysis::kCfg);
  return result;
}

PassResult HoistConstantTables(Module& module, std::vector<ConstantTableDecision>* decisions) {
  AnalysisContext analyses(module);
  return HoistConstantTables(analyses, decisions);
}

namespace {

// The line in effect at the first access chain based on `variable`, in module order.
SourceLocation FirstAccessLocation(AnalysisContext& analyses, uint32_t variable) {
  for (const Function& function : analyses.module().functions)
    for (const Block& block : function.blocks)
      for (const Instruction& inst : block.instructions)
        if (IsAccessChain(inst.opcode) && AccessChainView(inst).base() == variable)
          return analyses.GetSourceLines().At(&inst);
  return {};
}

}  // namespace

std::vector<TableRecord> DescribeTables(AnalysisContext& analyses,
                                        const std::vector<ConstantTableDecision>& decisions) {
  const Module& module = analyses.module();
  std::vector<TableRecord> tables;
  std::unordered_map<uint32_t, size_t> record_of_variable;
  for (const ConstantTableDecision& decision : decisions) {
    if (decision.hoisted_to == 0) continue;
    auto [it, added] = record_of_variable.emplace(decision.hoisted_to, tables.size());
    if (added) {
      std::string name = module.NameOf(decision.hoisted_to);
      tables.push_back({FirstAccessLocation(analyses, decision.hoisted_to),
                        name.empty() ? "%" + std::to_string(decision.hoisted_to) : name, 0});
    }
    ++tables[it->second].copies_removed;
  }
  return tables;
}

PassResult HoistConstantTablesPass::Process(Module&, PassContext& context) {
  if (!context.report || !context.options.collect_ranges)
    return HoistConstantTables(*context.analyses, nullptr);
  std::vector<ConstantTableDecision> decisions;
  PassResult result = HoistConstantTables(*context.analyses, &decisions);
  // The tables are described on the module as rewritten (the access chains now read
  // the Private variables), with analyses that describe it; what the context holds after
  // that describes the module as this pass leaves it, so the next pass keeps it.
  context.analyses->Invalidate(result.preserved);
  std::vector<TableRecord> tables = DescribeTables(*context.analyses, decisions);
  context.report->tables.insert(context.report->tables.end(), tables.begin(), tables.end());
  result.preserved = PreservedAnalyses::All();
  return result;
}

}  // namespace glint::spirv
