// Glint's SPIR-V IR: a module in its logical layout sections, functions made of
// blocks, and instructions that keep their exact words, so that parsing and emitting
// an untouched module gives back the same words.
//
// Instruction sequences are std::list so that pointers to instructions, blocks and
// functions stay valid while passes insert and erase around them; the def-use index
// (def_use.h) holds such pointers.
#ifndef GLINT_SPIRV_IR_MODULE_H
#define GLINT_SPIRV_IR_MODULE_H

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <spirv/unified1/spirv.hpp>

#include "grammar.h"
#include "node_pool.h"
#include "operand_words.h"

namespace glint::spirv {

class OutsideLinesSource;  // outside_lines.h

// One instruction. `words` are the operands after the result type and result id, exactly
// as they appear in the binary (literal strings packed, 64-bit literals as two words).
struct Instruction {
  spv::Op opcode = spv::OpNop;
  uint32_t type_id = 0;    // 0 when the opcode has no result type
  uint32_t result_id = 0;  // 0 when the opcode has no result
  // Where the instruction started in the parsed binary (words); 0 for new ones. Declared
  // before `words` so the four fit in 16 bytes (a module holds one per instruction).
  uint32_t source_offset = 0;
  OperandWords words;  // up to four held in place (operand_words.h)

  Instruction() = default;
  Instruction(spv::Op op, uint32_t type, uint32_t result, OperandWords operand_words)
      : opcode(op), type_id(type), result_id(result), words(std::move(operand_words)) {}

  uint32_t WordCount() const;
  // Appends this instruction's binary encoding.
  void Encode(std::vector<uint32_t>& out) const;

  // Calls `visit` for each id operand word (not the result id), including the result
  // type. The callback may rewrite the id. Uses the grammar; `literal_width` tells how
  // many words a context-dependent literal (OpConstant's value, OpSwitch's cases) takes.
  void ForEachIdOperand(const std::function<void(uint32_t& id)>& visit, uint32_t literal_width = 1);
  void ForEachIdOperand(const std::function<void(uint32_t id)>& visit,
                        uint32_t literal_width = 1) const;

  // A literal string starting at words[first]; *next_word gets the word after it.
  std::string StringAt(size_t first, size_t* next_word = nullptr) const;
};

// A sequence of instructions. Its nodes come from a pool (node_pool.h): a module is
// built and freed node by node in every compile.
using InstructionList = std::list<Instruction, NodePoolAllocator<Instruction>>;

// The literal string starting at words[first], read up to its nul or `end`; *next_word
// (optional) gets the word after it. Instruction::StringAt reads an instruction's words.
std::string LiteralString(const uint32_t* words, size_t first, size_t end,
                          size_t* next_word = nullptr);

// Whether a literal string's word holds a nul byte: the first such word ends the string.
inline bool WordEndsString(uint32_t word) {
  return (word & 0xffu) == 0 || (word & 0xff00u) == 0 || (word & 0xff0000u) == 0 ||
         (word & 0xff000000u) == 0;
}

// Packs `text` as a SPIR-V literal string (nul-terminated, zero padded).
std::vector<uint32_t> EncodeString(const std::string& text);

struct Block {
  Instruction label;
  InstructionList instructions;  // OpPhi, OpLine, body, merge, terminator
  // Line information after the terminator, kept only so the module round-trips:
  // OpLine / OpNoLine (glslang -g emits them before OpFunctionEnd for unreachable
  // source lines) and NonSemantic.* OpExtInst (glslang -gV's DebugLine / DebugScope for
  // lines met after the last function).
  InstructionList trailing_lines;

  uint32_t id() const { return label.result_id; }
  Instruction* Terminator();
  const Instruction* Terminator() const;
  // OpLoopMerge or OpSelectionMerge, null otherwise.
  Instruction* MergeInstruction();
  const Instruction* MergeInstruction() const;
  // The first position where a non-OpPhi, non-OpVariable instruction may be inserted.
  InstructionList::iterator FirstInsertionPoint();
};

// A function's blocks, from the same pool as instructions: a parse made one heap node
// per block (a tenth of its allocations on a large kernel).
using BlockList = std::list<Block, NodePoolAllocator<Block>>;

struct Function {
  Instruction definition;  // OpFunction
  InstructionList parameters;  // and line information before the first OpLabel
  BlockList blocks;
  Instruction end;  // OpFunctionEnd
  // OpLine/OpNoLine (or other debug instructions) before OpFunction, kept in place.
  InstructionList leading;

  uint32_t id() const { return definition.result_id; }
  Block* FindBlock(uint32_t label_id);
};

// SPIR-V's universal limit on a module's id bound (the spec's "Result <id> bound"
// limit, spirv-val's default --max-id-bound): every id is below the bound, so the
// largest usable id is kMaxIdBound - 1.
inline constexpr uint32_t kMaxIdBound = 0x3FFFFF;

// Thrown by Module::TakeNextId when a new id would raise the bound past kMaxIdBound.
// The pass manager (RunPassGuarded) turns it into the running pass's failure, so no
// pass emits a module with an invalid bound. The message names the limit.
class IdBoundExhausted : public std::runtime_error {
 public:
  explicit IdBoundExhausted(uint32_t bound);
};

struct ModuleHeader {
  uint32_t magic = spv::MagicNumber;
  uint32_t version = 0x00010000;
  uint32_t generator = 0;
  uint32_t bound = 1;
  uint32_t schema = 0;
};

class Module {
 public:
  ModuleHeader header;
  InstructionList capabilities;
  InstructionList extensions;
  InstructionList ext_inst_imports;
  InstructionList memory_model;
  InstructionList entry_points;
  InstructionList execution_modes;
  InstructionList debug_strings;    // OpString, OpSource*, OpSourceExtension
  InstructionList debug_names;      // OpName, OpMemberName
  InstructionList debug_processed;  // OpModuleProcessed
  InstructionList annotations;      // decorations
  InstructionList types_values;     // types, constants, globals, OpUndef, OpLine...
  std::list<Function> functions;
  // Source lines kept outside the module (outside_lines.h), read by SourceLines in place
  // of OpLine; null when the module's own OpLine (or none) are its lines. Not encoded.
  std::shared_ptr<OutsideLinesSource> outside_lines;

  // Binary; a parsed and unmodified module gives back its input words.
  std::vector<uint32_t> Encode() const;

  // Whether the module's SPIR-V version is at least major.minor.
  bool VersionAtLeast(uint32_t major, uint32_t minor) const {
    return header.version >= ((major << 16) | (minor << 8));
  }

  // A fresh id; throws IdBoundExhausted when the bound is already kMaxIdBound.
  uint32_t TakeNextId() {
    if (header.bound >= kMaxIdBound) throw IdBoundExhausted(header.bound);
    return header.bound++;
  }

  // Every instruction of the module in binary order (const and mutable).
  void ForEachInstruction(const std::function<void(Instruction&)>& visit);
  void ForEachInstruction(const std::function<void(const Instruction&)>& visit) const;

  // --- Lookups that walk the module (use DefUse for repeated queries). ---
  Instruction* FindDefinition(uint32_t id);
  Function* FindFunction(uint32_t id);
  std::string NameOf(uint32_t id) const;  // OpName, or "" if none
  std::vector<const Instruction*> DecorationsOf(uint32_t id) const;
  bool HasDecoration(uint32_t id, spv::Decoration decoration) const;
  // The first literal of `id`'s OpDecorate `decoration` (a SpecId, a Binding, ...);
  // nullopt when it has none.
  std::optional<uint32_t> DecorationLiteral(uint32_t id, spv::Decoration decoration) const;
  bool HasCapability(spv::Capability capability) const;
  uint32_t GlslStd450Import() const;  // 0 when not imported

  // --- Creating types and constants without duplicates. ---
  // Finds a non-aggregate type (void, bool, int, float, vector, matrix, pointer,
  // function) with exactly these operand words, or appends one.
  uint32_t FindOrAddType(spv::Op opcode, const std::vector<uint32_t>& words);
  uint32_t FindOrAddIntType(uint32_t width, bool is_signed);
  uint32_t FindOrAddPointerType(spv::StorageClass storage, uint32_t pointee);
  // Finds or appends OpConstant of a 32-bit scalar type.
  uint32_t FindOrAddConstant(uint32_t type_id, uint32_t value);
  uint32_t FindOrAddConstantComposite(uint32_t type_id, const std::vector<uint32_t>& parts);
  void AddCapability(spv::Capability capability);  // no-op when present
  void AddName(uint32_t id, const std::string& name);
  void AddDecoration(uint32_t id, spv::Decoration decoration,
                     const std::vector<uint32_t>& literals = {});
  uint32_t FindOrAddGlslStd450Import();

  // Width of the context-dependent literal of an instruction of type `type_id`
  // (64-bit types take two words).
  uint32_t LiteralWidthOfType(uint32_t type_id) const;
};

bool IsConstantInstruction(spv::Op opcode);      // OpConstant*, OpSpecConstant*
bool IsSpecConstantInstruction(spv::Op opcode);  // OpSpecConstant*
// Inline: the parser asks it of every instruction in a function, passes of many.
inline bool IsBlockTerminator(spv::Op opcode) {
  switch (opcode) {
    case spv::OpBranch:
    case spv::OpBranchConditional:
    case spv::OpSwitch:
    case spv::OpReturn:
    case spv::OpReturnValue:
    case spv::OpKill:
    case spv::OpUnreachable:
    case spv::OpTerminateInvocation:
    case spv::OpIgnoreIntersectionKHR:
    case spv::OpTerminateRayKHR:
    case spv::OpEmitMeshTasksEXT:
      return true;
    default:
      return false;
  }
}

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_MODULE_H
