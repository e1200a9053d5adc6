// Decoding an instruction's operand words into typed operands with the grammar tables:
// which words are ids, literals, strings or enumerants (with the operands those
// enumerants add). Refuses an instruction whose words do not fit its grammar.
//
// Cost: every analysis that walks ids decodes every instruction (the parser's id check,
// def-use, value flow, uniformity), so decoding allocates nothing for an instruction of
// up to OperandList::kInline operands and looks its opcode up in a direct table.
#ifndef GLINT_SPIRV_IR_OPERANDS_H
#define GLINT_SPIRV_IR_OPERANDS_H

#include <array>
#include <string>
#include <vector>

#include "grammar.h"
#include "module.h"

namespace glint::spirv {

struct Operand {
  grammar::OperandKind kind;
  bool is_id;           // the word at `first_word` is an id
  uint32_t first_word;  // index into Instruction::words
  uint32_t word_count;
};

// The operands of one instruction: up to kInline in place, more on the heap.
class OperandList {
 public:
  static constexpr size_t kInline = 16;

  void clear() {
    size_ = 0;
    more_.clear();
  }
  void push_back(const Operand& operand) {
    if (size_ < kInline) {
      in_place_[size_++] = operand;
      return;
    }
    if (more_.empty()) more_.assign(in_place_.begin(), in_place_.end());
    more_.push_back(operand);
    ++size_;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Operand* begin() const { return more_.empty() ? in_place_.data() : more_.data(); }
  const Operand* end() const { return begin() + size_; }
  const Operand& operator[](size_t i) const { return begin()[i]; }

 private:
  std::array<Operand, kInline> in_place_;
  size_t size_ = 0;
  std::vector<Operand> more_;
};

// Decodes `inst`'s operand words (after result type and result id). `literal_width` is
// the word count of a context-dependent literal (OpConstant value, OpSwitch case).
// Returns false with a message when the words do not match the grammar or the opcode
// is unknown; `out` then holds what was decoded before the mismatch.
bool DecodeOperands(const Instruction& inst, uint32_t literal_width, OperandList* out,
                    std::string* error);
bool DecodeOperands(const Instruction& inst, uint32_t literal_width, std::vector<Operand>* out,
                    std::string* error);
// The same decode by walking the grammar alone, without the shortcuts DecodeOperands
// takes for the common shapes (all ids, fixed single words, OpSpecConstantOp of ids):
// for tests that check the shortcuts give exactly its answer.
bool DecodeOperandsByGrammar(const Instruction& inst, uint32_t literal_width, OperandList* out,
                             std::string* error);
// Whether every word of `inst` (after its result type and id) is an id operand, as
// DecodeOperands would decode it: an opcode whose operands are all single-word ids, with a
// word count that fits them (or only the required ids of one that ends in optional
// operands). Callers that only want the ids read the words directly then.
// Inline: every analysis asks it of every instruction (a table look-up and a compare).
struct IdOnlyWordCounts {  // an empty range (fewest > most) where no count fits
  uint32_t fewest = 1, most = 0;
};
std::vector<IdOnlyWordCounts> MakeIdOnlyWordCounts();  // its table, by opcode
inline bool HasOnlyIdOperandWords(const Instruction& inst) {
  const IdOnlyWordCounts counts =
      LazyOpcodeTable<IdOnlyWordCounts, &MakeIdOnlyWordCounts>::At(inst.opcode);
  const size_t words = inst.words.size();
  return words >= counts.fewest && words <= counts.most;
}
// Which operand words are ids, for the common instructions whose operands are not all
// ids but whose opcode fixes where the ids are: the fixed single words and one tail
// (OpVariable, OpName, OpDecorate without parameters, merges, OpExtInst, ...) and
// OpSpecConstantOp of an opcode whose operands are all ids. The parser and DefUse ask it
// of every such instruction, and it decodes nothing (a decode built an operand list:
// four times the cost).
struct IdWordShape {
  enum Kind : uint8_t { kDecode, kFixed, kSpecConstantOpOfIds };
  enum Tail : uint8_t { kNoTail, kOptionalId, kVariadicIds, kString };
  Kind kind = kDecode;
  uint8_t fixed = 0;    // the fixed single words
  uint8_t id_mask = 0;  // bit i: fixed word i is an id
  Tail tail = kNoTail;
};
std::vector<IdWordShape> MakeIdWordShapes();  // IdWordShapeOf's table, by opcode
// Inline: the parser and DefUse ask it of every instruction whose words are not all ids.
inline IdWordShape IdWordShapeOf(uint32_t opcode) {
  return LazyOpcodeTable<IdWordShape, &MakeIdWordShapes>::At(opcode);
}
// Whether `words` operand words of `opcode` are all ids by the opcode's own shape (not
// just its leading ids): what OpSpecConstantOp's operation needs to take the shortcut.
bool FitsIdOnlyShape(uint32_t opcode, size_t words);

// Calls visit(word index) for each id word of `inst`, in order, and returns true, when
// its shape fixes them (IdWordShape) and its words fit that shape; else returns false
// having visited nothing: the caller decodes it (DecodeOperands). The words visited are
// exactly those DecodeOperands marks as ids (operands_test checks).
template <class Visit>
bool VisitFixedIdWords(const Instruction& inst, Visit&& visit) {
  const IdWordShape shape = IdWordShapeOf(inst.opcode);
  const size_t words = inst.words.size();
  if (shape.kind == IdWordShape::kSpecConstantOpOfIds) {
    if (words == 0 || !FitsIdOnlyShape(inst.words[0], words - 1)) return false;
    for (uint32_t word = 1; word < words; ++word) visit(word);
    return true;
  }
  if (shape.kind != IdWordShape::kFixed || words < shape.fixed) return false;
  const size_t rest = words - shape.fixed;
  switch (shape.tail) {
    case IdWordShape::kNoTail:
      if (rest != 0) return false;
      break;
    case IdWordShape::kOptionalId:
      if (rest > 1) return false;
      break;
    case IdWordShape::kVariadicIds:
      break;
    case IdWordShape::kString: {  // its first word with a nul byte must be the last word
      if (rest == 0 || !WordEndsString(inst.words[words - 1])) return false;
      for (size_t i = shape.fixed; i + 1 < words; ++i)
        if (WordEndsString(inst.words[i])) return false;
      break;
    }
  }
  for (uint32_t word = 0; word < shape.fixed; ++word)
    if (shape.id_mask & (1u << word)) visit(word);
  if (shape.tail != IdWordShape::kString)
    for (uint32_t word = shape.fixed; word < words; ++word) visit(word);
  return true;
}

// Whether `inst` has at least one operand word (after its result type and id) for each
// operand its opcode requires; true for an unknown opcode (nothing to check). The typed
// views (instruction_views.h) read required operands by position and throw
// std::out_of_range for a missing one: a reader that checks this first never meets the
// throw. A table lookup, cheaper than decoding (which also checks kinds and literals).
bool HasRequiredOperandWords(const Instruction& inst);
// The table HasRequiredOperandWords reads: the required operand count by opcode, for a
// caller that checks every instruction of a module (it reads the table once).
const std::vector<uint8_t>& RequiredOperandCounts();
inline bool HasRequiredOperandWords(const Instruction& inst, const std::vector<uint8_t>& counts) {
  return inst.opcode >= counts.size() || inst.words.size() >= counts[inst.opcode];
}

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_OPERANDS_H
