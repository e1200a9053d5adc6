// Value numbers for pure integer arithmetic (full mode): a guard on `tid + n` narrows
// another `tid + n` computed later from new loads of the same locals.
//
// What it gives: for U = `a OP b` (OP in kNumberedOps, a scalar 32-bit result), an
// earlier instruction R = `a' OP b'` of the same opcode and result type whose operands
// have the same canonical values (Canonical: copies, bitcasts, loads that read one known
// store or version) in the same order (either order for commutative OP), where R comes
// before U in U's block or lies in a block that dominates U's. Canonical(U) is then R's.
//
// Why U equals R's latest value wherever U runs: OP is a pure function of its operand
// bits, and R dominates U. Each canonical operand value C has a definition (an SSA
// instruction, a store, or the join that made a local's version) that dominates R's
// operand, which dominates R. For values v dominating w dominating U, every path to U
// runs w after the last run of v before U (otherwise a path from the entry to v that
// avoids w, joined to the rest, would reach U without w). So R's latest run, and its
// operand's latest run before it, come after C's latest definition: R read C's current
// bits, the same ones U's operand reads (same canonical value: same bits), and
// computed the same result. A guard that tested R therefore holds for U (the guard
// facts' own argument, range_guards.h, covers why a fact about R holds where U runs).
//
// Refuses (U stays its own value): other opcodes, operands of another type, no such
// R within kMaxNumberingScan instructions of the dominator chain (a budget; without a
// match nothing is lost but the narrowing), reference mode.
//
// Loads of memory the invocation cannot see change (ImmutableLoad): Input and
// PushConstant variables are read-only to the shader, and nothing else writes them
// while the invocation runs, so every load of one of them at the same constant indices
// reads the same bits (`if (gl_LocalInvocationIndex < 22u) a[gl_LocalInvocationIndex]`,
// where glslang loads the built-in again for each use; `if (pc.n < 8) t[pc.n]`). Such a
// load's canonical value is the first load of that part in the module (by result id),
// whether or not it dominates: the value is one per invocation. Left out: a variable
// decorated Volatile (a built-in that changes, such as a warp id), a Volatile load, an
// index that is not a constant.
//
// Cost: each block keeps a hash table from (opcode, type, canonical operands) to the
// positions of its numbered instructions, filled once from the block's start as far as
// a query needs; a query walks the dominator chain only while the budget lasts and does
// one table lookup per block, instead of recomputing every candidate's canonical
// operands (which made nested-guard modules 1.4-1.8x slower per instruction).
#include "integer_range_evaluator.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

// The key under which `inst` is numbered: its opcode, type and canonical operands (in
// sorted order when OP commutes, so `a + b` and `b + a` share one); false for what is
// not numbered (see the file comment).
bool IntegerRangeAnalysis::Evaluator::NumberingKey(const Instruction& inst, NumberKey* key) {
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
uint32_t IntegerRangeAnalysis::Evaluator::NumberedBefore(const Block& block, const NumberKey& key,
                                                         size_t limit) {
  auto [it, inserted] = block_numberings_.try_emplace(&block);
  BlockNumbering& table = it->second;  // stable: unordered_map nodes do not move
  if (inserted) table.next = block.instructions.begin();
  while (table.built < limit && table.next != block.instructions.end()) {
    const Instruction& inst = *table.next;
    size_t position = table.built;
    ++table.next, ++table.built;  // claimed first: Canonical may index this block again
    NumberKey inst_key;
    if (!NumberingKey(inst, &inst_key)) continue;
    auto& list = table.entries[inst_key];
    std::pair<size_t, uint32_t> entry{position, inst.result_id};
    list.insert(std::upper_bound(list.begin(), list.end(), entry), entry);
  }
  auto found = table.entries.find(key);
  if (found == table.entries.end()) return 0;
  const auto& list = found->second;
  auto after = std::lower_bound(list.begin(), list.end(), std::pair<size_t, uint32_t>{limit, 0});
  return after == list.begin() ? 0 : std::prev(after)->second;
}

// The nearest earlier instruction that computes `def`'s value (see the file comment),
// or 0. Walks `def`'s block (before it) and then its dominators, nearest first, over at
// most kMaxNumberingScan instructions counted from each block's start; each block is a
// table lookup. Memoized per instruction.
// The representative load of an immutable Input / PushConstant part (see the file
// comment), or 0 when `load` is not a load of one.
uint32_t IntegerRangeAnalysis::Evaluator::ImmutableLoad(const Instruction& load) {
  if (!Full() || load.opcode != spv::OpLoad) return 0;
  if (load.words.size() > 1 && (load.words[1] & spv::MemoryAccessVolatileMask)) return 0;
  std::vector<uint32_t> index_ids;
  const Instruction* root = ChainRoot(LoadView(load).pointer(), &index_ids);
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
          !(user.words.size() > 1 && (user.words[1] & spv::MemoryAccessVolatileMask)))
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

uint32_t IntegerRangeAnalysis::Evaluator::EarlierEqualValue(const Instruction& def) {
  bool commutes = false, is_signed = false;
  if (!Full() || !NumberedOp(def.opcode, &commutes) ||
      !inputs_.def_use.IsInt32Type(def.type_id, &is_signed) || def.words.size() != 2)
    return 0;
  auto found = numbered_.find(def.result_id);
  if (found != numbered_.end()) return found->second;
  numbered_[def.result_id] = 0;  // a query reached again on the way finds none
  const Block* block = inputs_.def_use.BlockOf(&def);
  Function* function = inputs_.def_use.FunctionOf(&def);
  const Cfg* cfg = function ? &CfgOf(*function) : nullptr;
  NumberKey key;
  NumberingKey(def, &key);
  uint32_t result = 0;
  size_t scanned = 0;
  for (const Block* b = block; cfg && b && !result && scanned < kMaxNumberingScan;
       b = cfg->ImmediateDominator(b)) {
    size_t end = b == block ? positions_.Of(&def) : b->instructions.size();
    result = NumberedBefore(*b, key, std::min(end, kMaxNumberingScan - scanned));
    scanned += end;
  }
  numbered_[def.result_id] = result;
  return result;
}

}  // namespace glint::spirv
