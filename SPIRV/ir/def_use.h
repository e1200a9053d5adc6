// Def-use index over a Module: for every id its defining instruction (and the block and
// function it sits in), and every use as (instruction, operand word). Built in one walk;
// it does not follow edits: it goes stale when a pass changes the module. Passes get it
// from the analysis context (analysis/analysis_context.h), which the pass manager
// invalidates after a pass that did not preserve it.
//
// Memory: definitions are a table indexed by id and uses one array sorted by id (each
// id's uses contiguous, in module order), so the index costs a few bytes per id and 12
// per use (the user and the word, in two arrays) instead of a hash-map node per id and a
// vector per used id. The block of an instruction without a result id is found in a
// sorted vector; the function comes from the block.
//
// It also keeps, for every instruction inside a block, its id operands in order (the
// result type left out): the walk decodes each instruction once, and analyses that read
// operands per instruction (the uniformity analysis) read them here instead of decoding
// the module again.
#ifndef GLINT_SPIRV_IR_DEF_USE_H
#define GLINT_SPIRV_IR_DEF_USE_H

#include <cstddef>
#include <iterator>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "module.h"

namespace glint::spirv {

struct Use {
  Instruction* user;
  uint32_t word;  // index into user->words; kTypeWord when the use is the result type
  static constexpr uint32_t kTypeWord = 0xffffffffu;
};

class DefUse {
 public:
  explicit DefUse(Module& module);

  // The uses of one id: a view into the index, valid while the index lives. Each use
  // is read as a Use value (the index keeps users and words in two arrays).
  class UseRange {
   public:
    class Iterator {
     public:
      using iterator_category = std::forward_iterator_tag;
      using value_type = Use;
      using difference_type = std::ptrdiff_t;
      using pointer = const Use*;
      using reference = Use;
      Iterator(Instruction* const* user, const uint32_t* word) : user_(user), word_(word) {}
      Use operator*() const { return Use{*user_, *word_}; }
      Iterator& operator++() {
        ++user_;
        ++word_;
        return *this;
      }
      bool operator==(const Iterator& other) const { return user_ == other.user_; }
      bool operator!=(const Iterator& other) const { return user_ != other.user_; }

     private:
      Instruction* const* user_;
      const uint32_t* word_;
    };
    UseRange(Instruction* const* users, const uint32_t* words, size_t size)
        : users_(users), words_(words), size_(size) {}
    Iterator begin() const { return Iterator(users_, words_); }
    Iterator end() const { return Iterator(users_ + size_, words_ + size_); }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Use operator[](size_t i) const { return Use{users_[i], words_[i]}; }

   private:
    Instruction* const* users_;
    const uint32_t* words_;
    size_t size_;
  };

  // Inline: the analyses ask these of nearly every value they visit.
  Instruction* Definition(uint32_t id) const {
    return id < definitions_.size() ? definitions_[id] : nullptr;
  }
  UseRange Uses(uint32_t id) const;
  // Block and function containing `inst` (null for module-scope instructions).
  Block* BlockOf(const Instruction* inst) const {
    const uint32_t id = inst ? inst->result_id : 0;
    if (id && id < definitions_.size() && definitions_[id] == inst) return blocks_by_id_[id];
    return BlockOfWithoutResult(inst);
  }
  Function* FunctionOf(const Instruction* inst) const;
  // The function holding `block` (null for a block the index has not seen).
  Function* FunctionOfBlock(const Block* block) const;
  // The id operands of an instruction inside a block, in order, its result type left
  // out. Empty for one whose words do not fit the grammar. HasOperandIds is false, and the range
  // empty, for an instruction outside every block (module-scope, OpFunction, parameters) or one the
  // index has not seen.
  struct IdRange {
    const uint32_t* first;
    const uint32_t* last;
    const uint32_t* begin() const { return first; }
    const uint32_t* end() const { return last; }
    size_t size() const { return size_t(last - first); }
  };
  IdRange OperandIds(const Instruction& inst) const;
  bool HasOperandIds(const Instruction& inst) const { return OperandStart(inst) != kNoOperands; }
  // The first instruction inside a block whose words do not fit the grammar (an operand
  // missing), with the decoder's reason; null when every one fits. Analyses that read
  // operands through the typed views refuse such a module up front, by name.
  const Instruction* FirstMalformed(std::string* why = nullptr) const {
    if (why) *why = first_malformed_why_;
    return first_malformed_;
  }

  // The type instruction of a value id (null when unknown or untyped).
  Instruction* TypeOf(uint32_t id) const;
  // Whether `type_id` is a 32-bit OpTypeInt, and then whether it is signed.
  bool IsInt32Type(uint32_t type_id, bool* is_signed) const;
  // For an OpConstant of integer type (up to 64 bits): its value, signedness and width;
  // false otherwise.
  bool IntConstant(uint32_t id, uint64_t* value, bool* is_signed = nullptr,
                   uint32_t* width = nullptr) const;

  Module& module() const { return module_; }

 private:
  struct PendingUse {  // 16 bytes: the user first
    Instruction* user;
    uint32_t id;
    uint32_t word;
  };
  // An instruction inside a block without a result id (or an earlier definition of a
  // result id defined twice): its block and where its operand ids start.
  struct InBlock {
    const Instruction* inst;
    Block* block;
    uint32_t operand_start;
  };
  static constexpr uint32_t kNoOperands = 0xffffffffu;

  void Index(Instruction& inst, Block* block, Function* function,
             std::vector<PendingUse>* pending);
  void SortUses(const std::vector<PendingUse>& pending);
  const InBlock* FindInBlock(const Instruction* inst) const;
  // BlockOf for an instruction that is not its result id's definition (no result id,
  // or a copy): found among the block entries.
  Block* BlockOfWithoutResult(const Instruction* inst) const;
  uint32_t OperandStart(const Instruction& inst) const;

  Module& module_;
  std::vector<Instruction*> definitions_;  // by id; null where none
  // By id: its uses are use_users_ and use_words_ at [use_starts_[id], use_starts_[id + 1]).
  std::vector<uint32_t> use_starts_;
  std::vector<Instruction*> use_users_;
  std::vector<uint32_t> use_words_;
  // The block of each instruction inside one: by result id where it has one (most do),
  // else in a vector sorted by instruction (16 bytes an entry; a hash-map node and its
  // bucket took 40).
  std::vector<Block*> blocks_by_id_;
  std::vector<InBlock> blocks_;
  // blocks_ is in the order of the instructions' word offsets (a parsed module, unchanged)
  // rather than sorted by address.
  bool blocks_by_offset_ = false;
  // Operand ids of the instructions inside blocks: at a start, the count, then the ids.
  // The start is by result id where the instruction has one, else in its InBlock.
  std::vector<uint32_t> operand_ids_;
  std::vector<uint32_t> operand_starts_by_id_;
  // Each block's function, by the block's label id (a vector: asked for nearly every
  // instruction an analysis looks at); a block whose label id an earlier block already
  // has (an invalid module) is in the map instead.
  struct LabeledBlock {
    const Block* block = nullptr;
    Function* function = nullptr;
  };
  std::vector<LabeledBlock> functions_by_label_;
  std::unordered_map<const Block*, Function*> block_functions_;
  // OpFunction, parameters, OpFunctionEnd: in a function, outside its blocks.
  std::unordered_map<const Instruction*, Function*> outside_blocks_;
  const Instruction* first_malformed_ = nullptr;
  std::string first_malformed_why_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_DEF_USE_H
