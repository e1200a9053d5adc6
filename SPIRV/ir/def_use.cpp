#include "def_use.h"

#include <algorithm>

#include "instruction_views.h"
#include "operands.h"

namespace glint::spirv {

DefUse::DefUse(Module& module) : module_(module) {
  size_t without_result = 0, block_words = 0;
  for (const Function& function : module.functions)
    for (const Block& block : function.blocks) {
      block_words += 2;  // the label's operand count and its type word (none)
      for (const Instruction& inst : block.instructions) {
        without_result += inst.result_id == 0;
        block_words += 2 + inst.words.size();  // count, type, every word an id at most
      }
      for (const Instruction& inst : block.trailing_lines) block_words += 2 + inst.words.size();
      without_result += block.trailing_lines.size();
    }
  // Sized once, from the words (at most one use per word and one per result type): grown
  // use by use, the vectors were copied as they doubled (1% of a large kernel's compile).
  uint32_t largest_id = 0;
  size_t words = 0;
  module.ForEachInstruction([&largest_id, &words](const Instruction& inst) {
    largest_id = std::max(largest_id, inst.result_id);
    words += 1 + inst.words.size();
  });
  definitions_.assign(size_t(largest_id) + 1, nullptr);
  blocks_by_id_.assign(size_t(largest_id) + 1, nullptr);
  operand_starts_by_id_.assign(size_t(largest_id) + 1, kNoOperands);
  functions_by_label_.assign(size_t(largest_id) + 1, LabeledBlock{});
  blocks_.reserve(without_result);
  operand_ids_.reserve(block_words);
  std::vector<PendingUse> pending;
  pending.reserve(words);
  for (auto* section :
       {&module.capabilities, &module.extensions, &module.ext_inst_imports, &module.memory_model,
        &module.entry_points, &module.execution_modes, &module.debug_strings, &module.debug_names,
        &module.debug_processed, &module.annotations, &module.types_values})
    for (Instruction& inst : *section) Index(inst, nullptr, nullptr, &pending);
  for (Function& function : module.functions) {
    for (Instruction& inst : function.leading) Index(inst, nullptr, nullptr, &pending);
    Index(function.definition, nullptr, &function, &pending);
    for (Instruction& inst : function.parameters) Index(inst, nullptr, &function, &pending);
    for (Block& block : function.blocks) {
      const uint32_t label = block.label.result_id;
      if (label < functions_by_label_.size() && !functions_by_label_[label].block)
        functions_by_label_[label] = {&block, &function};
      else
        block_functions_[&block] = &function;
      Index(block.label, &block, &function, &pending);
      for (Instruction& inst : block.instructions) Index(inst, &block, &function, &pending);
      for (Instruction& inst : block.trailing_lines) Index(inst, &block, &function, &pending);
    }
    Index(function.end, nullptr, &function, &pending);
  }
  // A parsed module's instructions carry their word offsets, which rise in module order:
  // then the entries are sorted by offset as they were made. A module a pass changed
  // (new instructions have offset 0, moved ones break the order) is sorted by address.
  // The sort by address was two thirds of the index's cost on a large kernel.
  blocks_by_offset_ =
      (blocks_.empty() || blocks_.front().inst->source_offset != 0) &&
      std::adjacent_find(blocks_.begin(), blocks_.end(), [](const InBlock& a, const InBlock& b) {
        return a.inst->source_offset >= b.inst->source_offset;  // not strictly rising
      }) == blocks_.end();
  if (!blocks_by_offset_)
    std::sort(blocks_.begin(), blocks_.end(),
              [](const InBlock& a, const InBlock& b) { return a.inst < b.inst; });
  SortUses(pending);
}

void DefUse::Index(Instruction& inst, Block* block, Function* function,
                   std::vector<PendingUse>* pending) {
  const uint32_t id = inst.result_id;
  if (id) {  // below the tables' size: the constructor sized them to the largest id
    // An id defined twice (an invalid module): the earlier definition keeps its block
    // and operands in the sorted vector.
    if (definitions_[id] && blocks_by_id_[id])
      blocks_.push_back({definitions_[id], blocks_by_id_[id], operand_starts_by_id_[id]});
    blocks_by_id_[id] = nullptr;
    operand_starts_by_id_[id] = kNoOperands;
    definitions_[id] = &inst;
  }
  // Inside a block, the operand ids are kept (a count now, the ids as they are decoded).
  const uint32_t operand_start = block ? uint32_t(operand_ids_.size()) : kNoOperands;
  if (block) operand_ids_.push_back(0);
  if (block && id) {
    blocks_by_id_[id] = block;
    operand_starts_by_id_[id] = operand_start;
  } else if (block) {
    blocks_.push_back({&inst, block, operand_start});
  } else if (function) {
    outside_blocks_[&inst] = function;
  }
  if (inst.type_id) pending->push_back({&inst, inst.type_id, Use::kTypeWord});
  uint32_t width = 1;
  if (inst.opcode == spv::OpConstant || inst.opcode == spv::OpSpecConstant) {
    width = module_.LiteralWidthOfType(inst.type_id);
  } else if (inst.opcode == spv::OpSwitch && !inst.words.empty()) {
    if (Instruction* selector = Definition(SwitchView(inst).selector()))
      width = module_.LiteralWidthOfType(selector->type_id);
  }
  // Most instructions' words are all ids (arithmetic, access chains, calls, ...): read
  // them as they are, as the parser checked them, without decoding the operands.
  if (HasOnlyIdOperandWords(inst)) {
    for (size_t word = 0; word < inst.words.size(); ++word) {
      const uint32_t used = inst.words[word];
      pending->push_back({&inst, used, static_cast<uint32_t>(word)});
      if (block) operand_ids_.push_back(used);
    }
    if (block) operand_ids_[operand_start] = uint32_t(operand_ids_.size() - operand_start - 1);
    return;
  }
  // The common shapes whose words say where the ids are (OpVariable, OpName, merges,
  // OpExtInst, ...): read without decoding.
  if (VisitFixedIdWords(inst, [&](uint32_t word) {
        const uint32_t used = inst.words[word];
        pending->push_back({&inst, used, word});
        if (block) operand_ids_.push_back(used);
      })) {
    if (block) operand_ids_[operand_start] = uint32_t(operand_ids_.size() - operand_start - 1);
    return;
  }
  OperandList operands;
  std::string error;
  if (!DecodeOperands(inst, width, &operands, &error)) {
    if (block && !first_malformed_) {
      first_malformed_ = &inst;
      first_malformed_why_ = error;
    }
    return;
  }
  for (const Operand& operand : operands)
    if (operand.is_id) {
      const uint32_t used = inst.words[operand.first_word];
      pending->push_back({&inst, used, operand.first_word});
      if (block) operand_ids_.push_back(used);
    }
  if (block) operand_ids_[operand_start] = uint32_t(operand_ids_.size() - operand_start - 1);
}

// A counting sort by id, stable, so each id's uses stay in module order.
void DefUse::SortUses(const std::vector<PendingUse>& pending) {
  uint32_t ids = uint32_t(definitions_.size());
  for (const PendingUse& p : pending) ids = std::max(ids, p.id + 1);
  use_starts_.assign(size_t(ids) + 1, 0);
  for (const PendingUse& p : pending) ++use_starts_[p.id + 1];
  for (size_t id = 1; id < use_starts_.size(); ++id) use_starts_[id] += use_starts_[id - 1];
  use_users_.resize(pending.size());
  use_words_.resize(pending.size());
  std::vector<uint32_t> next(use_starts_.begin(), use_starts_.end() - 1);
  for (const PendingUse& p : pending) {
    uint32_t at = next[p.id]++;
    use_users_[at] = p.user;
    use_words_[at] = p.word;
  }
}

DefUse::UseRange DefUse::Uses(uint32_t id) const {
  if (size_t(id) + 1 >= use_starts_.size()) return UseRange(nullptr, nullptr, 0);
  uint32_t first = use_starts_[id];
  return UseRange(use_users_.data() + first, use_words_.data() + first,
                  use_starts_[id + 1] - first);
}

const DefUse::InBlock* DefUse::FindInBlock(const Instruction* inst) const {
  if (!inst) return nullptr;
  if (blocks_by_offset_) {
    // Offsets are unique among parsed instructions; one made later has 0, found nowhere.
    auto it = std::lower_bound(blocks_.begin(), blocks_.end(), inst->source_offset,
                               [](const InBlock& entry, uint32_t key) {
                                 return entry.inst->source_offset < key;
                               });
    return it != blocks_.end() && it->inst == inst ? &*it : nullptr;
  }
  auto it = std::lower_bound(
      blocks_.begin(), blocks_.end(), inst,
      [](const InBlock& entry, const Instruction* key) { return entry.inst < key; });
  return it != blocks_.end() && it->inst == inst ? &*it : nullptr;
}

Block* DefUse::BlockOfWithoutResult(const Instruction* inst) const {
  const InBlock* entry = FindInBlock(inst);
  return entry ? entry->block : nullptr;
}

uint32_t DefUse::OperandStart(const Instruction& inst) const {
  const uint32_t id = inst.result_id;
  if (id && id < definitions_.size() && definitions_[id] == &inst) return operand_starts_by_id_[id];
  const InBlock* entry = FindInBlock(&inst);
  return entry ? entry->operand_start : kNoOperands;
}

DefUse::IdRange DefUse::OperandIds(const Instruction& inst) const {
  const uint32_t start = OperandStart(inst);
  if (start == kNoOperands) return IdRange{nullptr, nullptr};
  const uint32_t* count = operand_ids_.data() + start;
  return IdRange{count + 1, count + 1 + *count};
}

Function* DefUse::FunctionOfBlock(const Block* block) const {
  if (!block) return nullptr;
  const uint32_t label = block->label.result_id;
  if (label < functions_by_label_.size() && functions_by_label_[label].block == block)
    return functions_by_label_[label].function;
  auto it = block_functions_.find(block);
  return it == block_functions_.end() ? nullptr : it->second;
}

Function* DefUse::FunctionOf(const Instruction* inst) const {
  if (Block* block = BlockOf(inst)) return FunctionOfBlock(block);
  auto it = outside_blocks_.find(inst);
  return it == outside_blocks_.end() ? nullptr : it->second;
}

Instruction* DefUse::TypeOf(uint32_t id) const {
  Instruction* def = Definition(id);
  return def && def->type_id ? Definition(def->type_id) : nullptr;
}

bool DefUse::IsInt32Type(uint32_t type_id, bool* is_signed) const {
  const Instruction* type = Definition(type_id);
  if (!type || type->opcode != spv::OpTypeInt || type->words.size() < 2) return false;
  TypeIntView int_type(*type);
  if (int_type.width() != 32) return false;
  *is_signed = int_type.is_signed();
  return true;
}

bool DefUse::IntConstant(uint32_t id, uint64_t* value, bool* is_signed, uint32_t* width) const {
  Instruction* def = Definition(id);
  if (!def || def->opcode != spv::OpConstant) return false;
  Instruction* type = Definition(def->type_id);
  if (!type || type->opcode != spv::OpTypeInt) return false;
  TypeIntView int_type(*type);
  ConstantView constant(*def);
  uint32_t bits = int_type.width();
  if (bits > 64 || constant.value_words().empty()) return false;
  uint64_t v = bits == 64 ? constant.value64() : constant.value32();
  *value = v;
  if (is_signed) *is_signed = int_type.is_signed();
  if (width) *width = bits;
  return true;
}

}  // namespace glint::spirv
