#include "SPIRV/analysis/uniformity/barrier_phases.h"

#include <algorithm>
#include <set>

#include "SPIRV/analysis/memory/pointer_origins.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {
namespace {

constexpr uint64_t kScopeCrossDevice = 0, kScopeDevice = 1, kScopeWorkgroup = 2,
                   kScopeQueueFamily = 5;
constexpr uint64_t kSemanticsOrdering =
    0x2 | 0x4 | 0x8 | 0x10;  // Acquire ... SequentiallyConsistent
constexpr uint64_t kSemanticsWorkgroupMemory = 0x100;

bool IsAtomicWrite(spv::Op op) {
  return op != spv::OpAtomicLoad && AtomicView<const Instruction>::Accepts(op);
}

// The pointer a write writes through: a store's, a copy's target, an atomic's.
uint32_t WrittenPointer(const Instruction& inst) {
  if (auto store = ViewIf<StoreView>(inst)) return store->pointer();
  if (auto copy = ViewIf<CopyMemoryView>(inst)) return copy->target();
  return AtomicView(inst).pointer();
}

}  // namespace

BarrierPhases::BarrierPhases(const DefUse& def_use, const CallGraph& calls,
                             const std::vector<Function*>& functions,
                             const std::unordered_map<uint32_t, const Cfg*>& cfgs)
    : def_use_(def_use), calls_(calls), cfgs_(cfgs) {
  if (!functions.empty()) entry_function_ = functions.front()->id();
  for (const Function* function : functions) reached_.insert(function->id());
  for (const Function* function : functions)
    for (const CallGraph::Call* call : calls.CallsIn(function->id()))
      callers_[call->callee].push_back(call);
}

bool BarrierPhases::IsWorkgroupBarrier(const Instruction& inst) const {
  auto barrier = ViewIf<ControlBarrierView>(inst);
  uint64_t execution = 0, memory = 0, semantics = 0;
  if (!barrier || !def_use_.IntConstant(barrier->execution_scope(), &execution) ||
      !def_use_.IntConstant(barrier->memory_scope(), &memory) ||
      !def_use_.IntConstant(barrier->semantics(), &semantics))
    return false;
  bool wide_enough = memory == kScopeCrossDevice || memory == kScopeDevice ||
                     memory == kScopeWorkgroup || memory == kScopeQueueFamily;
  return execution == kScopeWorkgroup && wide_enough && (semantics & kSemanticsWorkgroupMemory) &&
         (semantics & kSemanticsOrdering);
}

// An access chain's indices, each the constant's value or nullopt when dynamic.
std::vector<std::optional<uint32_t>> BarrierPhases::ConstantIndices(
    const Instruction& chain) const {
  std::vector<std::optional<uint32_t>> indices;
  for (uint32_t index : AccessChainView(chain).indices()) {
    uint64_t value = 0;
    indices.push_back(def_use_.IntConstant(index, &value) ? std::optional<uint32_t>(uint32_t(value))
                                                          : std::nullopt);
  }
  return indices;
}

// The variable or parameter `pointer` is derived from (pointer_origins.h), with the
// constant indices of its path in `path` (untraceable through an element step).
uint32_t BarrierPhases::RootOf(uint32_t pointer, Path* path) const {
  if (!path) return PointerOrigins(def_use_).RootOf(pointer);
  std::vector<const Instruction*> chains;
  PointerOrigin origin = PointerOrigins(def_use_).Of(pointer, &chains);
  if (!origin.followed()) return 0;
  *path = std::vector<std::optional<uint32_t>>();
  for (const Instruction* chain : chains) {
    std::vector<std::optional<uint32_t>> indices = ConstantIndices(*chain);
    (*path)->insert((*path)->end(), indices.begin(), indices.end());
  }
  if (origin.through_element) path->reset();
  return origin.root_id();
}

bool BarrierPhases::LoadsWorkgroupMemory(const Function& function) const {
  for (const Function* reached : calls_.ReachableFrom(function.id()))
    for (const Block& block : reached->blocks)
      for (const Instruction& inst : block.instructions)
        if (inst.opcode == spv::OpLoad && WorkgroupRoot(LoadView(inst).pointer())) return true;
  return false;
}

uint32_t BarrierPhases::WorkgroupRoot(uint32_t pointer) const {
  uint32_t root = RootOf(pointer, nullptr);
  const Instruction* def = root ? def_use_.Definition(root) : nullptr;
  bool workgroup = def && def->opcode == spv::OpVariable &&
                   VariableView(*def).storage_class() == spv::StorageClassWorkgroup;
  return workgroup ? root : 0;
}

bool BarrierPhases::HoldsBarrier(uint32_t id) {
  auto known = holds_barrier_.find(id);
  if (known != holds_barrier_.end()) return known->second;
  holds_barrier_[id] = false;  // SPIR-V forbids recursion; a cycle adds nothing
  bool holds = false;
  if (const Function* function = calls_.FunctionById(id))
    for (const Block& block : function->blocks)
      for (const Instruction& inst : block.instructions)
        holds =
            holds || IsWorkgroupBarrier(inst) ||
            (inst.opcode == spv::OpFunctionCall && HoldsBarrier(FunctionCallView(inst).callee()));
  return holds_barrier_[id] = holds;
}

const Instruction* BarrierPhases::ClosingBarrier(uint32_t id) {
  auto known = closing_barriers_.find(id);
  if (known != closing_barriers_.end()) return known->second;
  const Instruction* closing = nullptr;
  const Function* function = calls_.FunctionById(id);
  auto cfg = cfgs_.find(id);
  if (function && cfg != cfgs_.end() && !function->blocks.empty()) {
    closing_barriers_[id] = nullptr;  // SPIR-V forbids recursion; a cycle closes nothing
    // Barrier points: barriers, and calls of functions that hold one (which must close).
    int points = 0;
    bool open_callee = false;
    const Block* point_block = nullptr;
    const Instruction* point_instruction = nullptr;
    for (const Block& block : function->blocks)
      for (const Instruction& inst : block.instructions) {
        const Instruction* point = nullptr;
        if (IsWorkgroupBarrier(inst)) {
          point = &inst;
        } else if (inst.opcode == spv::OpFunctionCall &&
                   HoldsBarrier(FunctionCallView(inst).callee())) {
          point = ClosingBarrier(FunctionCallView(inst).callee());
          open_callee = open_callee || !point;
        }
        if (!point) continue;
        ++points;
        closing = point;
        point_block = &block;
        point_instruction = &inst;
      }
    if (points != 1 || open_callee ||
        !cfg->second->PostDominates(point_block, &function->blocks.front()))
      closing = nullptr;
    if (closing) closing_points_[id] = point_instruction;
  }
  return closing_barriers_[id] = closing;
}

bool BarrierPhases::OpenBarrierCall(const Instruction& inst) {
  if (inst.opcode != spv::OpFunctionCall) return false;
  uint32_t callee = FunctionCallView(inst).callee();
  return reached_.count(callee) && HoldsBarrier(callee) && !ClosingBarrier(callee);
}

BarrierPhases::BarrierPoint BarrierPhases::BarrierAt(const Instruction& inst) {
  if (IsWorkgroupBarrier(inst)) return {&inst, nullptr};
  if (inst.opcode != spv::OpFunctionCall) return {};
  uint32_t callee = FunctionCallView(inst).callee();
  if (!reached_.count(callee)) return {};
  const Instruction* barrier = ClosingBarrier(callee);
  return barrier ? BarrierPoint{barrier, &inst} : BarrierPoint{};
}

// The barrier points `at` is reached from in its function without passing another
// (walking back over blocks); *entry_reached when a path from the function's entry
// reaches `at` with none. A call that holds a barrier but does not close is passed over:
// the phase of a barrier before it counts every write of the callee.
void BarrierPhases::BarriersReaching(const Function& function, const Block& block,
                                     const Instruction& at, std::vector<BarrierPoint>* points,
                                     bool* entry_reached, bool* passed_open_call) {
  auto add = [&](const BarrierPoint& point) {
    if (std::find(points->begin(), points->end(), point) == points->end())
      points->push_back(point);
  };
  BarrierPoint last;
  bool open_since_last = false;
  for (const Instruction& inst : block.instructions) {
    if (&inst == &at) break;
    if (BarrierPoint point = BarrierAt(inst); point.barrier) {
      last = point;
      open_since_last = false;
    } else if (OpenBarrierCall(inst)) {
      open_since_last = true;
    }
  }
  if (open_since_last) *passed_open_call = true;
  if (last.barrier) return add(last);
  auto cfg = cfgs_.find(function.id());
  if (cfg == cfgs_.end() || function.blocks.empty()) {
    *entry_reached = true;
    return;
  }
  const Block* entry = &function.blocks.front();
  if (&block == entry) *entry_reached = true;
  std::vector<const Block*> work(cfg->second->Predecessors(&block).begin(),
                                 cfg->second->Predecessors(&block).end());
  std::unordered_set<const Block*> seen;
  while (!work.empty()) {
    const Block* up = work.back();
    work.pop_back();
    if (!seen.insert(up).second) continue;
    BarrierPoint found;
    for (auto inst = up->instructions.rbegin(); inst != up->instructions.rend() && !found.barrier;
         ++inst) {
      found = BarrierAt(*inst);
      if (!found.barrier && OpenBarrierCall(*inst)) *passed_open_call = true;
    }
    if (found.barrier) {
      add(found);
      continue;
    }
    if (up == entry) *entry_reached = true;
    for (const Block* pred : cfg->second->Predecessors(up)) work.push_back(pred);
  }
}

// The barriers that start the phase `at` runs in (the load's barriers, in the header);
// false when some path reaches `at` with none, or a bound is hit.
bool BarrierPhases::BarriersBefore(const Function& function, const Block& block,
                                   const Instruction& at, const Instruction* through_call,
                                   int depth, int* call_sites,
                                   std::vector<BarrierPoint>* points, bool* passed_open_call) {
  bool entry_reached = false;
  BarriersReaching(function, block, at, points, &entry_reached, passed_open_call);
  if (!entry_reached) return true;
  if (function.id() == entry_function_ || depth >= kMaxCallerDepth) return false;
  if (through_call && FunctionCallView(*through_call).callee() == function.id()) {
    const Block* call_block = def_use_.BlockOf(through_call);
    const Function* caller = def_use_.FunctionOf(through_call);
    return call_block && caller && ++*call_sites <= kCallSiteBudget &&
           BarriersBefore(*caller, *call_block, *through_call, nullptr, depth + 1, call_sites,
                          points, passed_open_call);
  }
  auto callers = callers_.find(function.id());
  if (callers == callers_.end() || callers->second.empty()) return false;
  for (const CallGraph::Call* call : callers->second) {
    if (++*call_sites > kCallSiteBudget ||
        !BarriersBefore(*call->caller, *call->block, *call->call, through_call, depth + 1,
                        call_sites, points, passed_open_call))
      return false;
  }
  return true;
}

// What `inst` may write: its own store or atomic, or what a callee writes (through a
// pointer parameter: wherever the argument points, at an unknown element).
void BarrierPhases::WritesOf(const Instruction& inst, std::vector<Write>* writes) {
  if (inst.opcode == spv::OpStore || inst.opcode == spv::OpCopyMemory ||
      inst.opcode == spv::OpCopyMemorySized || IsAtomicWrite(inst.opcode)) {
    Path path;
    uint32_t root = RootOf(WrittenPointer(inst), &path);
    writes->push_back(
        {&inst, root,
         path ? std::make_shared<const std::vector<std::optional<uint32_t>>>(std::move(*path))
              : nullptr});
    return;
  }
  if (inst.opcode != spv::OpFunctionCall) return;
  uint32_t callee = FunctionCallView(inst).callee();
  if (!calls_.FunctionById(callee)) return;
  for (const Write& write : FunctionWrites(callee)) {
    const Instruction* root = write.root ? def_use_.Definition(write.root) : nullptr;
    if (!root || root->opcode != spv::OpFunctionParameter) {
      writes->push_back({&inst, write.root, write.path});
      continue;
    }
    // Callees' writes through their own parameters are already in terms of this
    // callee's arguments, so the parameter is one of `function`'s.
    auto arguments = FunctionCallView(inst).arguments();
    size_t position = 0;
    uint32_t argument_root = 0;  // 0 (anything) unless the parameter is found
    const Function* owner = calls_.ParameterOwner(*root, &position);
    if (owner && owner->id() == callee && position < arguments.size())
      argument_root = RootOf(arguments[position], nullptr);
    writes->push_back({&inst, argument_root, nullptr});
  }
}

// Every write a function makes, its callees' included (SPIR-V forbids recursion; a
// cycle would only see the writes found so far).
const std::vector<BarrierPhases::Write>& BarrierPhases::FunctionWrites(uint32_t id) {
  auto found = function_writes_.find(id);
  if (found != function_writes_.end()) return found->second;
  function_writes_[id];  // marks it in progress
  std::vector<Write> writes;
  if (const Function* function = calls_.FunctionById(id))
    for (const Block& block : function->blocks)
      for (const Instruction& inst : block.instructions) WritesOf(inst, &writes);
  std::vector<Write>& stored = function_writes_[id];
  stored = std::move(writes);
  return stored;
}

void BarrierPhases::ScanFrom(const Resume& start, bool coarse, std::vector<Resume>* work,
                             std::vector<Write>* writes) {
  for (auto it = start.from; it != start.block->instructions.end(); ++it) {
    if (IsWorkgroupBarrier(*it)) return;  // the next phase starts here
    if (!coarse && it->opcode == spv::OpFunctionCall) {
      // Into a callee that holds a barrier, up to its barriers; back here where it
      // returns without one.
      uint32_t callee = FunctionCallView(*it).callee();
      const Function* function = calls_.FunctionById(callee);
      if (function && reached_.count(callee) && HoldsBarrier(callee) &&
          !function->blocks.empty()) {
        Resume enter{function, &function->blocks.front(),
                     function->blocks.front().instructions.begin(), start.returns};
        enter.returns.push_back(&*it);
        work->push_back(std::move(enter));
        return;
      }
    }
    WritesOf(*it, writes);
    // A closing call's writes may come before its barrier (all are counted); the next
    // phase starts inside it.
    if (it->opcode == spv::OpFunctionCall && BarrierAt(*it).barrier) return;
  }
  const Instruction* end = start.block->Terminator();
  if (!end) return;
  if (end->opcode == spv::OpReturn || end->opcode == spv::OpReturnValue) {
    if (!start.returns.empty()) {  // back through the closing call the phase began in
      const Instruction* call = start.returns.back();
      const Block* block = def_use_.BlockOf(call);
      const Function* caller = def_use_.FunctionOf(call);
      if (!block || !caller) return;
      auto after = std::find_if(block->instructions.begin(), block->instructions.end(),
                                [&](const Instruction& inst) { return &inst == call; });
      if (after == block->instructions.end()) return;
      Resume resume{caller, block, std::next(after), start.returns};
      resume.returns.pop_back();
      work->push_back(std::move(resume));
      return;
    }
    if (start.function->id() == entry_function_) return;
    for (const CallGraph::Call* caller : callers_[start.function->id()]) {
      const Block* block = caller->block;
      auto after = std::find_if(block->instructions.begin(), block->instructions.end(),
                                [&](const Instruction& inst) { return &inst == caller->call; });
      if (after != block->instructions.end())
        work->push_back({caller->caller, block, std::next(after), {}});
    }
    return;
  }
  auto cfg = cfgs_.find(start.function->id());
  if (cfg == cfgs_.end()) return;
  for (const Block* succ : cfg->second->Successors(start.block))
    work->push_back({start.function, succ, succ->instructions.begin(), start.returns});
}

const std::vector<BarrierPhases::Write>& BarrierPhases::PhaseWrites(const BarrierPoint& point) {
  auto cached = phases_.find(point);
  if (cached != phases_.end()) return cached->second;
  std::vector<Write> writes;
  // The closing calls from the point's call down to the function holding the barrier.
  std::vector<const Instruction*> returns;
  for (const Instruction* call = point.call; call && call != point.barrier;) {
    returns.push_back(call);
    auto inner = closing_points_.find(FunctionCallView(*call).callee());
    call = inner != closing_points_.end() ? inner->second : nullptr;
  }
  std::reverse(returns.begin(), returns.end());  // the innermost is returned through first
  const Block* block = def_use_.BlockOf(point.barrier);
  const Function* function = def_use_.FunctionOf(point.barrier);
  auto after = block ? std::find_if(block->instructions.begin(), block->instructions.end(),
                                    [&](const Instruction& inst) { return &inst == point.barrier; })
                     : InstructionList::const_iterator();
  std::vector<Resume> work;
  if (block && function && after != block->instructions.end())
    work.push_back({function, block, std::next(after), std::move(returns)});
  // Each scan start once per stack of closing calls still to return through.
  std::set<std::pair<const Instruction*, std::vector<const Instruction*>>> started;
  while (!work.empty()) {
    Resume next = std::move(work.back());
    work.pop_back();
    if (next.from == next.block->instructions.end() ||
        !started.insert({&*next.from, next.returns}).second)
      continue;
    ScanFrom(next, point.coarse, &work, &writes);
  }
  return phases_[point] = std::move(writes);
}

// Whether a write through `root` may reach any Workgroup variable: an untraceable
// pointer, or a parameter that may point to Workgroup memory (a Function or Private
// pointer, glslang's way of passing GLSL parameters, cannot).
bool BarrierPhases::MayPointAnywhere(uint32_t root) const {
  const Instruction* written = root ? def_use_.Definition(root) : nullptr;
  if (!written) return true;
  if (written->opcode != spv::OpFunctionParameter) return false;
  const Instruction* type = def_use_.Definition(written->type_id);
  auto pointer = type ? ViewIf<TypePointerView>(*type) : std::nullopt;
  return !pointer || pointer->storage_class() == spv::StorageClassWorkgroup ||
         pointer->storage_class() == spv::StorageClassGeneric;
}

bool BarrierPhases::MayAlias(const SharedPath& a, const Path& b) {
  if (!a || !b) return true;
  for (size_t i = 0; i < std::min(a->size(), b->size()); ++i)
    if ((*a)[i] && (*b)[i] && *(*a)[i] != *(*b)[i]) return false;
  return true;
}

BarrierPhases::Verdict BarrierPhases::Check(const Function& function, const Block& block,
                                            const Instruction& load,
                                            const Instruction* through_call) {
  auto cached = verdicts_.find({&load, through_call});
  if (cached != verdicts_.end()) return cached->second;
  Verdict& verdict = verdicts_[{&load, through_call}];
  int call_sites = 0;
  std::vector<BarrierPoint> points;
  bool passed_open_call = false;
  if (!BarriersBefore(function, block, load, through_call, 0, &call_sites, &points,
                      &passed_open_call))
    return verdict;
  if (passed_open_call)
    for (BarrierPoint& point : points) point.coarse = true;
  for (const BarrierPoint& point : points)
    if (std::find(verdict.barriers.begin(), verdict.barriers.end(), point.barrier) ==
        verdict.barriers.end())
      verdict.barriers.push_back(point.barrier);
  verdict.barrier = verdict.barriers.front();
  Path path;
  uint32_t root = RootOf(LoadView(load).pointer(), &path);
  for (const BarrierPoint& point : points) {
    if (!def_use_.BlockOf(point.barrier) || !def_use_.FunctionOf(point.barrier))
      return verdict = Verdict();  // cannot check it
    for (const Write& write : PhaseWrites(point)) {
      if ((write.root == root || MayPointAnywhere(write.root)) && MayAlias(write.path, path)) {
        verdict.barrier = point.barrier;
        verdict.write = write.at;
        return verdict;
      }
    }
  }
  return verdict;
}

}  // namespace glint::spirv
