// Decoding an instruction's operand words into typed operands with the grammar tables:
// which words are ids, literals, strings or enumerants (with the operands those
// enumerants add). Refuses an instruction whose words do not fit its grammar.
#ifndef GLINT_SPIRV_IR_OPERANDS_H
#define GLINT_SPIRV_IR_OPERANDS_H

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

// Decodes `inst`'s operand words (after result type and result id). `literal_width` is
// the word count of a context-dependent literal (OpConstant value, OpSwitch case).
// Returns false with a message when the words do not match the grammar or the opcode
// is unknown.
bool DecodeOperands(const Instruction& inst, uint32_t literal_width, std::vector<Operand>* out,
                    std::string* error);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_OPERANDS_H
