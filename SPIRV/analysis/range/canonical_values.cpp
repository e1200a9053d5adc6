// Canonical values: which earlier value a value stands for, with no range in sight.
//
// The range analysis (integer_range_evaluator.h) and its guard facts (range_guards.h)
// key facts by canonical value, so that a guard on one load of `i` narrows another
// load of `i`. Everything here follows the module's structure only: copies and
// bitcasts, components a vector was built from, parameters, the local versions of
// value flow, stores that dominate their loads, immutable Input and PushConstant
// parts, earlier loads of Function memory nothing wrote since, and value numbering of
// pure arithmetic. None of it asks for a range, so the
// evaluator can ask it anything while a range is being computed, and it never calls
// back. It owns its caches (value numbers, immutable loads, single stores, join
// versions) and is built from the analysis context's facts (RangeInputs).
//
// Value numbering (EarlierEqualValue):
//
//   Value numbers for pure integer arithmetic (full mode): a guard on `tid + n` narrows
//   another `tid + n` computed later from new loads of the same locals.
//
//   What it gives: for U = `a OP b` (OP in kNumberedOps, a scalar 32-bit result), an
//   earlier instruction R = `a' OP b'` of the same opcode and result type whose operands
//   have the same canonical values (Canonical: copies, bitcasts, loads that read one known
//   store or version) in the same order (either order for commutative OP), where R comes
//   before U in U's block or lies in a block that dominates U's. Canonical(U) is then R's.
//
//   Why U equals R's latest value wherever U runs: OP is a pure function of its operand
//   bits, and R dominates U. Each canonical operand value C has a definition (an SSA
//   instruction, a store, or the join that made a local's version) that dominates R's
//   operand, which dominates R. For values v dominating w dominating U, every path to U
//   runs w after the last run of v before U (otherwise a path from the entry to v that
//   avoids w, joined to the rest, would reach U without w). So R's latest run, and its
//   operand's latest run before it, come after C's latest definition: R read C's current
//   bits, the same ones U's operand reads (same canonical value: same bits), and
//   computed the same result. A guard that tested R therefore holds for U (the guard
//   facts' own argument, range_guards.h, covers why a fact about R holds where U runs).
//
//   Refuses (U stays its own value): other opcodes, operands of another type, no such
//   R within kMaxNumberingScan instructions of the dominator chain (a budget; without a
//   match nothing is lost but the narrowing), reference mode.
//
//   Loads of memory the invocation cannot see change (ImmutableLoad): Input and
//   PushConstant variables are read-only to the shader, and nothing else writes them
//   while the invocation runs, so every load of one of them at the same constant indices
//   reads the same bits (`if (gl_LocalInvocationIndex < 22u) a[gl_LocalInvocationIndex]`,
//   where glslang loads the built-in again for each use; `if (pc.n < 8) t[pc.n]`). Such a
//   load's canonical value is the first load of that part in the module (by result id),
//   whether or not it dominates: the value is one per invocation. Left out: a variable
//   decorated Volatile (a built-in that changes, such as a warp id), a Volatile load, an
//   index that is not a constant.
//
//   Memo: Canonical keeps each id's answer. An answer can depend on the query around it
//   in three ways, and one that did is not kept (`unsettled_` counts them): the element
//   depth budget refused a load (kMaxElementDepth), a value number being computed further
//   out was reached again (it finds none), or a block's numbering was read while a query
//   further out was still computing the key of an earlier position in it. A kept answer
//   also records how much element depth its computation used below the depth it started
//   at; it is reused only where that much depth is left, so a reuse gives what computing
//   it again would.
//
//   Cost: each block keeps a hash table from (opcode, type, canonical operands) to the
//   positions of its numbered instructions, filled once from the block's start as far as
//   a query needs; a query walks the dominator chain only while the budget lasts and does
//   one table lookup per block, instead of recomputing every candidate's canonical
//   operands (which made nested-guard modules 1.4-1.8x slower per instruction).
#include "SPIRV/analysis/range/canonical_values.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "SPIRV/analysis/memory/memory_writes.h"
#include "SPIRV/analysis/memory/pointer_origins.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

// The value `id` stands for, memoized (see the file comment: "Memo").
uint32_t CanonicalValues::Canonical(uint32_t id) {
  if (memo_.empty()) memo_.resize(module_.header.bound);
  if (id < memo_.size() && memo_[id].value &&
      element_depth_ + memo_[id].depth_used <= kMaxElementDepth) {
    deepest_ = std::max(deepest_, element_depth_ + memo_[id].depth_used);
    return memo_[id].value;
  }
  const uint64_t unsettled = unsettled_;
  const int outer_deepest = deepest_;
  deepest_ = element_depth_;
  uint32_t result = Follow(id);
  if (unsettled == unsettled_ && id < memo_.size())
    memo_[id] = Memo{result, deepest_ - element_depth_};
  deepest_ = std::max(outer_deepest, deepest_);
  return result;
}

// The value `id` stands for: followed through copies, bitcasts between 32-bit integers,
// the component a vector was built from, loads of an only-loaded parameter, of an
// immutable Input / PushConstant part, of a local with one dominating store or one
// known version, of Function memory nothing wrote since an earlier load read it
// (EarlierLoadOfSameMemory), and arithmetic computed before (value numbering), 64 hops
// at most.
uint32_t CanonicalValues::Follow(uint32_t id) {
  for (int hops = 0; hops < 64; ++hops) {  // budget: copy/bitcast/load chains are short
    const Instruction* def = inputs_.def_use.Definition(id);
    if (!def) break;
    bool is_signed = false;
    if (def->opcode == spv::OpCopyObject) {
      id = UnaryOpView(*def).operand();
    } else if (def->opcode == spv::OpBitcast &&
               inputs_.def_use.IsInt32Type(def->type_id, &is_signed) &&
               IsScalarInt(UnaryOpView(*def).operand(), &is_signed)) {
      id = UnaryOpView(*def).operand();  // the same 32 bits, read the other way
    } else if (uint32_t source = ExtractSource(*def)) {
      id = source;  // the component a vector was built from
    } else if (const Instruction* parameter = LoadedParameter(*def)) {
      id = parameter->result_id;  // every load of an only-loaded parameter reads one value
    } else if (uint32_t first = ImmutableLoad(*def)) {
      if (first == id) break;
      id = first;  // every load of an Input / PushConstant part reads one value
    } else if (def->opcode == spv::OpLoad && !LoopVariableLoadTarget(*def)) {
      const Instruction* store = DominatingSingleStore(*def);
      if (store) {
        id = StoreView(*store).object();
      } else if (LocalVersion(*def, &id)) {
        // the version's value (or its join's id)
      } else if (uint32_t scalar = StoredScalar(*def)) {
        id = scalar;
      } else if (uint32_t earlier = EarlierLoadOfSameMemory(*def)) {
        id = earlier;  // nothing wrote that memory since the earlier load read it
      } else {
        break;
      }
    } else if (uint32_t earlier = EarlierEqualValue(*def)) {
      id = earlier;  // the same arithmetic over the same values, computed before
    } else {
      break;
    }
  }
  return id;
}

// For a load of one element of a local whose reaching store wrote a vector built from
// scalars (`ivec2 p = ivec2(a, b); p.x`): the scalar it reads (a), as LocalVersion's
// whole store is that store's value; 0 otherwise. Nested element loads are followed
// kMaxElementDepth deep.
uint32_t CanonicalValues::StoredScalar(const Instruction& load) {
  uint32_t vector = 0, index = 0;
  if (element_depth_ >= kMaxElementDepth) {
    ++unsettled_;  // with more depth left the answer could differ
    return 0;
  }
  ++element_depth_;
  deepest_ = std::max(deepest_, element_depth_);
  bool keyed = ComponentKey(load, &vector, &index);
  --element_depth_;
  return keyed && load.opcode == spv::OpLoad ? ComponentSource(vector, index) : 0;
}

// For a load of one element of a local vector (path prefix + [i]) whose reaching
// version is a whole store of the vector at `prefix` (or a join version of the whole
// local): that stored vector's canonical value (or the join's id) and i, the key of
// the component facts of range_guard_vectors.cpp. An OpCompositeExtract with one
// index is keyed by its vector's canonical value.
bool CanonicalValues::ComponentKey(const Instruction& def, uint32_t* vector, uint32_t* index) {
  if (def.opcode == spv::OpCompositeExtract && CompositeExtractView(def).indices().size() == 1) {
    *vector = Canonical(CompositeExtractView(def).composite());
    *index = CompositeExtractView(def).index(0);
    return true;
  }
  const ValueFlow* flow = def.opcode == spv::OpLoad ? FlowOf(def) : nullptr;
  uint32_t variable = 0;
  std::vector<uint32_t> path;
  if (!flow || !flow->LoadTarget(&def, &variable, &path) || path.empty()) return false;
  uint32_t version = flow->Reaching(&def);
  if (version == ValueFlow::kNoNode) return false;
  const ValueFlowNode& node = flow->Node(version);
  *index = path.back();
  path.pop_back();
  if (node.kind == ValueFlowNode::Kind::kStore && node.path == path) {
    *vector = Canonical(node.value);
    return true;
  }
  if (node.kind != ValueFlowNode::Kind::kPhi || !path.empty()) return false;
  *vector = JoinVersionId(def, version, node);
  return true;
}

// The id that stands for what `load` reads: the value of the one whole store that
// reaches it, or a key of its own for a version made at a join (past the module's id
// bound, so it names no instruction). False when the load has no such version.
bool CanonicalValues::LocalVersion(const Instruction& load, uint32_t* id) {
  if (!Full()) return false;
  const ValueFlow* flow = FlowOf(load);
  uint32_t variable = 0;
  std::vector<uint32_t> path;
  if (!flow || !flow->LoadTarget(&load, &variable, &path)) return false;
  uint32_t version = flow->Reaching(&load);
  if (version == ValueFlow::kNoNode) return false;
  const ValueFlowNode& node = flow->Node(version);
  if (node.kind == ValueFlowNode::Kind::kStore && node.path == path) {
    *id = node.value;
    return true;
  }
  if (node.kind != ValueFlowNode::Kind::kPhi || !path.empty()) return false;
  *id = JoinVersionId(load, version, node);
  return true;
}

// The id that names the join version `version` (a phi node) of the local `load` reads.
uint32_t CanonicalValues::JoinVersionId(const Instruction& load, uint32_t version,
                                        const ValueFlowNode& node) {
  uint64_t key = (uint64_t(inputs_.def_use.FunctionOf(&load)->id()) << 32) | version;
  auto found = version_keys_.find(key);
  if (found == version_keys_.end())
    found = version_keys_.emplace(key, module_.header.bound + uint32_t(version_keys_.size())).first;
  version_blocks_[found->second] = node.block;
  return found->second;
}

// The block of the phi whose version JoinVersionId named `id`; null for other ids.
const Block* CanonicalValues::VersionBlock(uint32_t id) const {
  auto found = version_blocks_.find(id);
  return found == version_blocks_.end() ? nullptr : found->second;
}

// The nearest earlier instruction that computes `def`'s value (see the file comment),
// or 0. Walks `def`'s block (before it) and then its dominators, nearest first, over at
// most kMaxNumberingScan instructions counted from each block's start; each block is a
// table lookup. Memoized per instruction.
uint32_t CanonicalValues::EarlierEqualValue(const Instruction& def) {
  bool commutes = false, is_signed = false;
  if (!Full() || !NumberedOp(def.opcode, &commutes) ||
      !inputs_.def_use.IsInt32Type(def.type_id, &is_signed) || def.words.size() != 2)
    return 0;
  auto found = numbered_.find(def.result_id);
  if (found != numbered_.end() && found->second == kNumbering) {
    ++unsettled_;  // a query reached again on the way finds none
    return 0;
  }
  if (found != numbered_.end()) return found->second;
  numbered_[def.result_id] = kNumbering;
  const Block* block = inputs_.def_use.BlockOf(&def);
  Function* function = inputs_.def_use.FunctionOf(&def);
  const Cfg* cfg = function ? &CfgOf(*function) : nullptr;
  NumberKey key;
  NumberingKey(def, &key);
  uint32_t result = 0;
  size_t scanned = 0;
  for (const Block* b = block; cfg && b && !result && scanned < kMaxNumberingScan;
       b = cfg->ImmediateDominator(b)) {
    size_t end = b == block ? inputs_.positions.Of(&def) : b->instructions.size();
    result = NumberedBefore(*b, key, std::min(end, kMaxNumberingScan - scanned));
    scanned += end;
  }
  numbered_[def.result_id] = result;
  return result;
}

// The key under which `inst` is numbered: its opcode, type and canonical operands (in
// sorted order when OP commutes, so `a + b` and `b + a` share one); false for what is
// not numbered (see the file comment).
bool CanonicalValues::NumberingKey(const Instruction& inst, NumberKey* key) {
  bool commutes = false, is_signed = false;
  if (!NumberedOp(inst.opcode, &commutes) || inst.words.size() != 2 ||
      !inputs_.def_use.IsInt32Type(inst.type_id, &is_signed))
    return false;
  BinaryOpView operands(inst);
  uint32_t left = Canonical(operands.left()), right = Canonical(operands.right());
  if (commutes && right < left) std::swap(left, right);
  *key = NumberKey{uint32_t(inst.opcode), inst.type_id, left, right};
  return true;
}

// The result id of the last instruction numbered `key` among the first `limit` of
// `block`, or 0. Each block is indexed once, from its start and only as far as a query
// asks (so an instruction's canonical operands are computed once, not once per later
// query, and never for one after the value being looked up in its own block).
uint32_t CanonicalValues::NumberedBefore(const Block& block, const NumberKey& key, size_t limit) {
  auto [it, inserted] = block_numberings_.try_emplace(&block);
  BlockNumbering& table = it->second;  // stable: unordered_map nodes do not move
  if (inserted) table.next = block.instructions.begin();
  while (table.built < limit && table.next != block.instructions.end()) {
    const Instruction& inst = *table.next;
    size_t position = table.built;
    ++table.next, ++table.built;  // claimed first: Canonical may index this block again
    bool outermost = table.first_pending == SIZE_MAX;
    if (outermost) table.first_pending = position;
    NumberKey inst_key;
    bool numbered = NumberingKey(inst, &inst_key);
    if (outermost) table.first_pending = SIZE_MAX;
    if (!numbered) continue;
    uint32_t& newest = table.newest[inst_key];
    table.entries.push_back({uint32_t(position), inst.result_id, newest});
    newest = uint32_t(table.entries.size());
  }
  if (table.first_pending < limit) ++unsettled_;  // misses the entry being computed
  auto found = table.newest.find(key);
  if (found == table.newest.end()) return 0;
  // The entry with the largest position before `limit` (a nested query may have
  // numbered later positions first, so the chain is not in position order).
  const BlockNumbering::Entry* best = nullptr;
  for (uint32_t at = found->second; at; at = table.entries[at - 1].previous) {
    const BlockNumbering::Entry& entry = table.entries[at - 1];
    if (entry.position < limit && (!best || entry.position > best->position)) best = &entry;
  }
  return best ? best->id : 0;
}

// The representative load of an immutable Input / PushConstant part (see the file
// comment), or 0 when `load` is not a load of one.
uint32_t CanonicalValues::ImmutableLoad(const Instruction& load) {
  if (!Full() || load.opcode != spv::OpLoad) return 0;
  if (LoadView(load).is_volatile()) return 0;
  std::vector<uint32_t> index_ids;
  const Instruction* root = PathFromVariable(LoadView(load).pointer(), &index_ids);
  if (!root || root->opcode != spv::OpVariable) return 0;
  spv::StorageClass storage = VariableView(*root).storage_class();
  if ((storage != spv::StorageClassInput && storage != spv::StorageClassPushConstant) ||
      module_.HasDecoration(root->result_id, spv::DecorationVolatile))
    return 0;
  std::vector<uint32_t> key{root->result_id};
  for (uint32_t index : index_ids) {
    int64_t value = 0;
    if (!ConstantValue(index, &value) || value < 0) return 0;
    key.push_back(uint32_t(value));
  }
  auto found = immutable_loads_.find(key);
  if (found != immutable_loads_.end()) return found->second;
  // Every load of the same part: through the variable or chains of constant indices.
  uint32_t first = load.result_id;
  std::vector<std::pair<uint32_t, size_t>> work{{root->result_id, 1}};
  while (!work.empty()) {
    auto [pointer, matched] = work.back();
    work.pop_back();
    for (const Use& use : inputs_.def_use.Uses(pointer)) {
      const Instruction& user = *use.user;
      if (!inputs_.def_use.BlockOf(&user) || use.word != 0) continue;
      if (user.opcode == spv::OpLoad && matched == key.size() && user.type_id == load.type_id &&
          !LoadView(user).is_volatile())
        first = std::min(first, user.result_id);
      if (user.opcode != spv::OpAccessChain && user.opcode != spv::OpInBoundsAccessChain) continue;
      size_t next = matched;
      for (uint32_t index : AccessChainView(user).indices()) {
        int64_t value = 0;
        if (next >= key.size() || !ConstantValue(index, &value) || uint32_t(value) != key[next]) {
          next = 0;
          break;
        }
        ++next;
      }
      if (next) work.push_back({user.result_id, next});
    }
  }
  immutable_loads_.emplace(key, first);
  return first;
}

// Full mode: a Function variable without initializer whose only uses are one OpStore
// and loads acts like a `let` where the store dominates the load: every such load
// reads the value stored by the latest execution of that one store.
const Instruction* CanonicalValues::DominatingSingleStore(const Instruction& load) {
  const Instruction* pointer = inputs_.def_use.Definition(LoadView(load).pointer());
  if (!Full() || !pointer || pointer->opcode != spv::OpVariable ||
      VariableView(*pointer).storage_class() != spv::StorageClassFunction ||
      VariableView(*pointer).has_initializer())
    return nullptr;
  if (dominating_stores_.empty()) dominating_stores_.assign(module_.header.bound, NotAsked());
  const Instruction** answer =
      load.result_id < dominating_stores_.size() ? &dominating_stores_[load.result_id] : nullptr;
  if (answer && *answer != NotAsked()) return *answer;
  const Instruction* store = SingleStoreDominating(load, *pointer);
  if (answer) *answer = store;
  return store;
}

const Instruction* CanonicalValues::SingleStoreDominating(const Instruction& load,
                                                          const Instruction& pointer) {
  auto cached = single_stores_.find(pointer.result_id);
  if (cached == single_stores_.end()) {
    const Instruction* store = nullptr;
    for (const Use& use : inputs_.def_use.Uses(pointer.result_id)) {
      if (!inputs_.def_use.BlockOf(use.user) || use.user->opcode == spv::OpLoad) continue;
      bool first_store = use.user->opcode == spv::OpStore && use.word == 0 && !store;
      store = first_store ? use.user : nullptr;
      if (!first_store) break;
    }
    cached = single_stores_.emplace(pointer.result_id, store).first;
  }
  const Instruction* store = cached->second;
  const Block* store_block = store ? inputs_.def_use.BlockOf(store) : nullptr;
  const Block* load_block = inputs_.def_use.BlockOf(&load);
  Function* function = inputs_.def_use.FunctionOf(&load);
  if (!store_block || !load_block || !function || function != inputs_.def_use.FunctionOf(store))
    return nullptr;
  if (store_block != load_block)
    return CfgOf(*function).Dominates(store_block, load_block) ? store : nullptr;
  return inputs_.positions.Of(store) < inputs_.positions.Of(&load) ? store : nullptr;
}

// Full mode: whole loads of Function memory that no local version follows: a parameter
// pointer the callee also writes (`inout uint count`, loaded at a test and again at each
// use), or a local the value flow refuses (passed to a call). Two such loads L1 and L2 of
// one pointer read the same bits when L1 dominates L2 and no instruction on any path
// from L1 to L2 may write that memory: L2 then reads what L1's latest execution read,
// which is what makes L1's value L2's canonical one (a test on L1 narrows L2).
//
// L1 is the nearest whole load of the pointer up L2's dominator chain (its own block
// before it, then kMaxEarlierLoadDominators dominators). The paths from L1 to L2 that do
// not pass L1 again are searched backwards from L2: its block before it, then every
// block that reaches it without passing L1's block (searched whole), and L1's block
// after L1; kMaxEarlierLoadBlocks blocks at most, and a block with no predecessors on
// the way (only unreachable code has one besides the entry, which L1's block dominates)
// ends the search with no answer. What may write the memory (memory_writes.h): a store,
// copy or atomic through a Function pointer whose origin is not another OpVariable (the
// same variable, a parameter that may point where this one does, a pointer of unknown
// origin), any OpFunctionCall, and any other instruction given a pointer (modf's and
// frexp's results, cooperative matrix stores). Writes through pointers of other storage
// classes cannot reach Function memory, and a local of the function is not what a
// parameter points to. Memoized per load; a load of another kind gives 0.
uint32_t CanonicalValues::EarlierLoadOfSameMemory(const Instruction& load) {
  if (!Full() || load.opcode != spv::OpLoad || LoadView(load).is_volatile() ||
      !UnfollowedMemory(load))
    return 0;
  auto cached = earlier_loads_.find(load.result_id);
  if (cached != earlier_loads_.end()) return cached->second;
  uint32_t& answer = earlier_loads_[load.result_id];
  const uint32_t memory = LoadView(load).pointer();
  Block* block = inputs_.def_use.BlockOf(&load);
  Function* function = inputs_.def_use.FunctionOf(&load);
  if (!block || !function) return answer = 0;
  const Cfg& cfg = CfgOf(*function);
  auto is_whole_load = [memory](const Instruction& inst) {
    return inst.opcode == spv::OpLoad && LoadView(inst).pointer() == memory &&
           !LoadView(inst).is_volatile();
  };
  // In L2's block: the last whole load before it, and whether a write follows that.
  const Instruction* earlier = nullptr;
  bool written = false;
  for (const Instruction& inst : block->instructions) {
    if (&inst == &load) break;
    if (is_whole_load(inst)) {
      earlier = &inst;
      written = false;
    } else if (MayWriteMemory(inst, memory)) {
      written = true;
    }
  }
  if (written) return answer = 0;
  if (earlier) return answer = earlier->result_id;
  // Up the dominator chain: the nearest dominator holding a whole load, its last one.
  const Block* earlier_block = nullptr;
  const Block* dominator = cfg.ImmediateDominator(block);
  for (int climbed = 0; dominator && climbed < kMaxEarlierLoadDominators && !earlier;
       ++climbed, dominator = cfg.ImmediateDominator(dominator)) {
    for (const Instruction& inst : dominator->instructions)
      if (is_whole_load(inst)) earlier = &inst;
    earlier_block = dominator;
  }
  if (!earlier) return answer = 0;
  // Every block between, searched backwards from L2's block.
  std::vector<const Block*> work, seen;
  for (const Block* predecessor : cfg.Predecessors(block)) work.push_back(predecessor);
  if (work.empty()) return answer = 0;
  while (!work.empty()) {
    const Block* at = work.back();
    work.pop_back();
    if (std::find(seen.begin(), seen.end(), at) != seen.end()) continue;
    if (seen.size() == kMaxEarlierLoadBlocks) return answer = 0;
    seen.push_back(at);
    bool after = at != earlier_block;  // in L1's block only what follows L1 is on the way
    for (const Instruction& inst : at->instructions) {
      if (&inst == earlier)
        after = true;
      else if (after && MayWriteMemory(inst, memory))
        return answer = 0;
    }
    if (at == earlier_block) continue;
    auto predecessors = cfg.Predecessors(at);
    if (predecessors.begin() == predecessors.end()) return answer = 0;
    for (const Block* predecessor : predecessors) work.push_back(predecessor);
  }
  return answer = earlier->result_id;
}

// A whole load of a Function-storage parameter pointer that the parameter-arguments
// analysis refuses (one it accepts is LoadedParameter's), or of a Function variable
// the value flow does not follow.
bool CanonicalValues::UnfollowedMemory(const Instruction& load) const {
  const Instruction* pointer = inputs_.def_use.Definition(LoadView(load).pointer());
  if (!pointer) return false;
  if (pointer->opcode == spv::OpFunctionParameter) {
    const Instruction* type = inputs_.def_use.Definition(pointer->type_id);
    return type && type->opcode == spv::OpTypePointer &&
           TypePointerView(*type).storage_class() == spv::StorageClassFunction &&
           !inputs_.arguments.Of(*pointer).reason.empty();
  }
  if (pointer->opcode != spv::OpVariable ||
      VariableView(*pointer).storage_class() != spv::StorageClassFunction)
    return false;
  const ValueFlow* flow = FlowOf(load);
  return flow && !flow->IsFollowed(pointer->result_id);
}

// Whether `inst` may write the Function memory that the pointer `memory` (a parameter or
// a Function variable) points to (see EarlierLoadOfSameMemory): what it writes by
// memory_writes.h's rule, through a Function pointer whose origin is not another
// variable.
bool CanonicalValues::MayWriteMemory(const Instruction& inst, uint32_t memory) const {
  MemoryWrite write = WriteOf(inputs_.def_use, inst);
  if (write.kind != MemoryWrite::Kind::kThrough) return write.kind == MemoryWrite::Kind::kAnything;
  const Instruction* type = inputs_.def_use.TypeOf(write.pointer);
  if (!type || type->opcode != spv::OpTypePointer) return true;
  if (TypePointerView(*type).storage_class() != spv::StorageClassFunction) return false;
  uint32_t variable = PointerOrigins(inputs_.def_use).Of(write.pointer).variable_id();
  return !variable || variable == memory;
}

// The initializer's definition when `load` reads a loop variable inside its checked
// body (so its range depends on the initializer's), else null.
const Instruction* CanonicalValues::LoopVariableLoadTarget(const Instruction& load) const {
  const Instruction* pointer = inputs_.def_use.Definition(LoadView(load).pointer());
  if (!pointer || pointer->opcode != spv::OpVariable ||
      VariableView(*pointer).storage_class() != spv::StorageClassFunction)
    return nullptr;
  const LoopShape& shape = inputs_.loops.ForLoopOf(pointer->result_id);
  const Block* block = inputs_.def_use.BlockOf(&load);
  if (!shape.ok || !block || inputs_.def_use.FunctionOf(&load) != shape.function) return nullptr;
  if (!CfgOf(*shape.function).Dominates(shape.body, block)) return nullptr;
  return inputs_.def_use.Definition(shape.init_value);
}

// The parameter `load` reads when it is followed here (its arguments are known): then no
// instruction writes what it points to while the function runs, so every load of it
// reads one value (Canonical, for guards); null otherwise.
const Instruction* CanonicalValues::LoadedParameter(const Instruction& load) const {
  const Instruction* parameter = ParameterOfLoad(load);
  return parameter && inputs_.arguments.Of(*parameter).reason.empty() ? parameter : nullptr;
}

// The parameter `load` reads whole, followed or not; null for any other instruction.
const Instruction* CanonicalValues::ParameterOfLoad(const Instruction& load) const {
  if (!Full() || load.opcode != spv::OpLoad) return nullptr;
  const Instruction* pointer = inputs_.def_use.Definition(LoadView(load).pointer());
  return pointer && pointer->opcode == spv::OpFunctionParameter ? pointer : nullptr;
}

// OpCompositeExtract %v <i> of a vector whose component i is a known scalar.
uint32_t CanonicalValues::ExtractSource(const Instruction& def) const {
  if (!Full() || def.opcode != spv::OpCompositeExtract) return 0;
  CompositeExtractView extract(def);
  if (extract.indices().size() != 1) return 0;
  return ComponentSource(extract.composite(), extract.index(0));
}

// The scalar that component `index` of the vector `id` was built from; 0 when unknown.
uint32_t CanonicalValues::ComponentSource(uint32_t id, uint32_t index) const {
  for (int hops = 0; hops < 16; ++hops) {  // budget: shuffles of shuffles are short
    const Instruction* def = inputs_.def_use.Definition(id);
    if (!def) return 0;
    switch (def->opcode) {
      case spv::OpCopyObject:
        id = UnaryOpView(*def).operand();
        break;
      case spv::OpCompositeConstruct:
      case spv::OpConstantComposite: {
        // A vector may be built from smaller vectors: then a constituent is not one
        // component, so every constituent of a vector must be a scalar. A struct's,
        // array's or matrix's constituents are its members, one each.
        const Instruction* composite = inputs_.def_use.TypeOf(id);
        if (!composite) return 0;
        auto constituents = def->opcode == spv::OpCompositeConstruct
                                ? CompositeConstructView(*def).constituents()
                                : ConstantCompositeView(*def).constituents();
        for (uint32_t constituent : constituents) {
          const Instruction* type = inputs_.def_use.TypeOf(constituent);
          if (!type ||
              (composite->opcode == spv::OpTypeVector && type->opcode == spv::OpTypeVector))
            return 0;
        }
        return index < constituents.size() ? constituents[index] : 0;
      }
      case spv::OpCompositeInsert: {
        CompositeInsertView insert(*def);
        if (insert.indices().size() != 1) return 0;
        if (insert.index(0) == index) return insert.object();
        id = insert.composite();
        break;
      }
      case spv::OpVectorShuffle: {
        VectorShuffleView shuffle(*def);
        const Instruction* first = inputs_.def_use.TypeOf(shuffle.vector1());
        if (!first || first->opcode != spv::OpTypeVector || index >= shuffle.components().size())
          return 0;
        uint32_t pick = shuffle.component(index);
        uint32_t width = TypeVectorView(*first).component_count();
        if (pick == 0xFFFFFFFFu) return 0;  // an undefined component
        id = pick < width ? shuffle.vector1() : shuffle.vector2();
        index = pick < width ? pick : pick - width;
        break;
      }
      default:
        return 0;
    }
  }
  return 0;
}

// The variable `pointer` is derived from (pointer_origins.h), with its path's index ids
// from the variable outwards in `indices`; null when the pointer's origin is not a
// variable or has no path (an element step on the way).
const Instruction* CanonicalValues::PathFromVariable(uint32_t pointer,
                                                     std::vector<uint32_t>* indices) const {
  PointerOrigin origin;
  std::vector<uint32_t> path;
  if (!PointerOrigins(inputs_.def_use).PathOf(pointer, &origin, &path) || !origin.variable_id())
    return nullptr;
  indices->insert(indices->end(), path.begin(), path.end());
  return origin.root;
}

// The value of an integer constant of at most 32 bits (sign-extended when signed).
bool CanonicalValues::ConstantValue(uint32_t id, int64_t* value) const {
  const Instruction* def = inputs_.def_use.Definition(id);
  bool is_signed = false;
  if (!def || def->opcode != spv::OpConstant ||
      !inputs_.def_use.IsInt32Type(def->type_id, &is_signed))
    return false;
  uint32_t bits = ConstantView(*def).value32();
  *value = is_signed ? int64_t(int32_t(bits)) : int64_t(bits);
  return true;
}

// True for a value of a 32-bit integer type (`is_signed` says which).
bool CanonicalValues::IsScalarInt(uint32_t id, bool* is_signed) const {
  const Instruction* def = inputs_.def_use.Definition(id);
  return def && inputs_.def_use.IsInt32Type(def->type_id, is_signed);
}

// The context's CFG of `function`.
const Cfg& CanonicalValues::CfgOf(Function& function) const { return inputs_.cfgs(function); }

// The value flow of the function holding `load`; null outside a function.
const ValueFlow* CanonicalValues::FlowOf(const Instruction& load) const {
  Function* function = inputs_.def_use.FunctionOf(&load);
  return function ? &inputs_.value_flows(*function) : nullptr;
}

}  // namespace glint::spirv
