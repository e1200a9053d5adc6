#include "module.h"

#include <algorithm>

#include "instruction_views.h"
#include "operands.h"

namespace glint::spirv {

IdBoundExhausted::IdBoundExhausted(uint32_t bound)
    : std::runtime_error("cannot allocate a new id: the module's id bound is already " +
                         std::to_string(bound) + ", SPIR-V's maximum id bound (" +
                         std::to_string(kMaxIdBound) + ", 0x3FFFFF)") {}

uint32_t Instruction::WordCount() const {
  return 1 + (type_id ? 1 : 0) + (result_id ? 1 : 0) + static_cast<uint32_t>(words.size());
}

void Instruction::Encode(std::vector<uint32_t>& out) const {
  out.push_back((WordCount() << 16) | static_cast<uint32_t>(opcode));
  if (type_id) out.push_back(type_id);
  if (result_id) out.push_back(result_id);
  out.insert(out.end(), words.begin(), words.end());
}

namespace {

// Both ForEachIdOperand overloads: `Self` is Instruction (ids may be rewritten) or
// const Instruction.
template <class Self, class Visit>
void VisitIdOperands(Self& inst, const Visit& visit, uint32_t literal_width) {
  if (inst.type_id) visit(inst.type_id);
  OperandList operands;
  std::string error;
  if (!DecodeOperands(inst, literal_width, &operands, &error)) return;
  for (const Operand& operand : operands)
    if (operand.is_id) visit(inst.words[operand.first_word]);
}

}  // namespace

void Instruction::ForEachIdOperand(const std::function<void(uint32_t& id)>& visit,
                                   uint32_t literal_width) {
  VisitIdOperands(*this, visit, literal_width);
}

void Instruction::ForEachIdOperand(const std::function<void(uint32_t id)>& visit,
                                   uint32_t literal_width) const {
  VisitIdOperands(*this, visit, literal_width);
}

std::string LiteralString(const uint32_t* words, size_t first, size_t end, size_t* next_word) {
  std::string text;
  size_t i = first;
  for (; i < end; ++i) {
    bool done = false;
    for (int byte = 0; byte < 4; ++byte) {
      char c = static_cast<char>((words[i] >> (8 * byte)) & 0xff);
      if (c == 0) {
        done = true;
        break;
      }
      text.push_back(c);
    }
    if (done) {
      ++i;
      break;
    }
  }
  if (next_word) *next_word = i;
  return text;
}

std::string Instruction::StringAt(size_t first, size_t* next_word) const {
  return LiteralString(words.data(), first, words.size(), next_word);
}

std::vector<uint32_t> EncodeString(const std::string& text) {
  std::vector<uint32_t> out(text.size() / 4 + 1, 0);
  for (size_t i = 0; i < text.size(); ++i)
    out[i / 4] |= static_cast<uint32_t>(static_cast<unsigned char>(text[i])) << (8 * (i % 4));
  return out;
}

Instruction* Block::Terminator() {
  return instructions.empty() || !IsBlockTerminator(instructions.back().opcode)
             ? nullptr
             : &instructions.back();
}

const Instruction* Block::Terminator() const { return const_cast<Block*>(this)->Terminator(); }

Instruction* Block::MergeInstruction() {
  if (instructions.size() < 2) return nullptr;
  auto it = std::prev(instructions.end(), 2);
  return (it->opcode == spv::OpLoopMerge || it->opcode == spv::OpSelectionMerge) ? &*it : nullptr;
}

const Instruction* Block::MergeInstruction() const {
  return const_cast<Block*>(this)->MergeInstruction();
}

InstructionList::iterator Block::FirstInsertionPoint() {
  auto it = instructions.begin();
  while (it != instructions.end() && (it->opcode == spv::OpPhi || it->opcode == spv::OpVariable ||
                                      it->opcode == spv::OpLine || it->opcode == spv::OpNoLine))
    ++it;
  return it;
}

Block* Function::FindBlock(uint32_t label_id) {
  for (Block& block : blocks)
    if (block.id() == label_id) return &block;
  return nullptr;
}

std::vector<uint32_t> Module::Encode() const {
  std::vector<uint32_t> out = {header.magic, header.version, header.generator, header.bound,
                               header.schema};
  ForEachInstruction([&](const Instruction& inst) { inst.Encode(out); });
  return out;
}

void Module::ForEachInstruction(const std::function<void(Instruction&)>& visit) {
  for (auto* section : {&capabilities, &extensions, &ext_inst_imports, &memory_model, &entry_points,
                        &execution_modes, &debug_strings, &debug_names, &debug_processed,
                        &annotations, &types_values})
    for (Instruction& inst : *section) visit(inst);
  for (Function& function : functions) {
    for (Instruction& inst : function.leading) visit(inst);
    visit(function.definition);
    for (Instruction& inst : function.parameters) visit(inst);
    for (Block& block : function.blocks) {
      visit(block.label);
      for (Instruction& inst : block.instructions) visit(inst);
      for (Instruction& inst : block.trailing_lines) visit(inst);
    }
    visit(function.end);
  }
}

void Module::ForEachInstruction(const std::function<void(const Instruction&)>& visit) const {
  const_cast<Module*>(this)->ForEachInstruction([&](Instruction& inst) { visit(inst); });
}

Instruction* Module::FindDefinition(uint32_t id) {
  Instruction* found = nullptr;
  ForEachInstruction([&](Instruction& inst) {
    if (!found && inst.result_id == id) found = &inst;
  });
  return found;
}

Function* Module::FindFunction(uint32_t id) {
  for (Function& function : functions)
    if (function.id() == id) return &function;
  return nullptr;
}

std::string Module::NameOf(uint32_t id) const {
  for (const Instruction& inst : debug_names)
    if (inst.opcode == spv::OpName && !inst.words.empty() && NameView(inst).target() == id)
      return NameView(inst).name();
  return "";
}

std::vector<const Instruction*> Module::DecorationsOf(uint32_t id) const {
  std::vector<const Instruction*> out;
  for (const Instruction& inst : annotations) {
    if (inst.words.empty()) continue;
    if (auto decorate = ViewIf<DecorateView>(inst); decorate && decorate->target() == id)
      out.push_back(&inst);
    else if (auto member = ViewIf<MemberDecorateView>(inst); member && member->structure() == id)
      out.push_back(&inst);
  }
  return out;
}

bool Module::HasDecoration(uint32_t id, spv::Decoration decoration) const {
  for (const Instruction* inst : DecorationsOf(id))
    if (inst->opcode != spv::OpMemberDecorate && inst->words.size() > 1 &&
        DecorateView(*inst).decoration() == decoration)
      return true;
  return false;
}

std::optional<uint32_t> Module::DecorationLiteral(uint32_t id, spv::Decoration decoration) const {
  for (const Instruction* inst : DecorationsOf(id))
    if (inst->opcode == spv::OpDecorate && inst->words.size() > 2 &&
        DecorateView(*inst).decoration() == decoration)
      return DecorateView(*inst).literal(0);
  return std::nullopt;
}

bool Module::HasCapability(spv::Capability capability) const {
  for (const Instruction& inst : capabilities)
    if (CapabilityView(inst).capability() == capability) return true;
  return false;
}

uint32_t Module::GlslStd450Import() const {
  for (const Instruction& inst : ext_inst_imports)
    if (inst.StringAt(0) == "GLSL.std.450") return inst.result_id;
  return 0;
}

uint32_t Module::FindOrAddType(spv::Op opcode, const std::vector<uint32_t>& words) {
  for (const Instruction& inst : types_values)
    if (inst.opcode == opcode && inst.words == words) return inst.result_id;
  uint32_t id = TakeNextId();
  types_values.emplace_back(opcode, 0, id, words);
  return id;
}

uint32_t Module::FindOrAddIntType(uint32_t width, bool is_signed) {
  return FindOrAddType(spv::OpTypeInt, {width, is_signed ? 1u : 0u});
}

uint32_t Module::FindOrAddPointerType(spv::StorageClass storage, uint32_t pointee) {
  // A pointer type must follow its pointee; FindOrAddType appends at the end, which
  // is after every existing type.
  return FindOrAddType(spv::OpTypePointer, {static_cast<uint32_t>(storage), pointee});
}

uint32_t Module::FindOrAddConstant(uint32_t type_id, uint32_t value) {
  for (const Instruction& inst : types_values)
    if (inst.opcode == spv::OpConstant && inst.type_id == type_id && inst.words.size() == 1 &&
        ConstantView(inst).value32() == value)
      return inst.result_id;
  uint32_t id = TakeNextId();
  types_values.emplace_back(spv::OpConstant, type_id, id, std::vector<uint32_t>{value});
  return id;
}

uint32_t Module::FindOrAddConstantComposite(uint32_t type_id, const std::vector<uint32_t>& parts) {
  for (const Instruction& inst : types_values)
    if (inst.opcode == spv::OpConstantComposite && inst.type_id == type_id && inst.words == parts)
      return inst.result_id;
  uint32_t id = TakeNextId();
  types_values.emplace_back(spv::OpConstantComposite, type_id, id, parts);
  return id;
}

void Module::AddCapability(spv::Capability capability) {
  if (HasCapability(capability)) return;
  capabilities.emplace_back(spv::OpCapability, 0, 0,
                            std::vector<uint32_t>{static_cast<uint32_t>(capability)});
}

void Module::AddName(uint32_t id, const std::string& name) {
  std::vector<uint32_t> words = {id};
  std::vector<uint32_t> text = EncodeString(name);
  words.insert(words.end(), text.begin(), text.end());
  debug_names.emplace_back(spv::OpName, 0, 0, words);
}

void Module::AddDecoration(uint32_t id, spv::Decoration decoration,
                           const std::vector<uint32_t>& literals) {
  std::vector<uint32_t> words = {id, static_cast<uint32_t>(decoration)};
  words.insert(words.end(), literals.begin(), literals.end());
  annotations.emplace_back(spv::OpDecorate, 0, 0, words);
}

uint32_t Module::FindOrAddGlslStd450Import() {
  if (uint32_t id = GlslStd450Import()) return id;
  uint32_t id = TakeNextId();
  ext_inst_imports.emplace_back(spv::OpExtInstImport, 0, id, EncodeString("GLSL.std.450"));
  return id;
}

uint32_t Module::LiteralWidthOfType(uint32_t type_id) const {
  for (const Instruction& inst : types_values)
    if (inst.result_id == type_id) {
      if (inst.words.empty()) return 1;
      if (inst.opcode == spv::OpTypeInt) return TypeIntView(inst).width() > 32 ? 2 : 1;
      if (inst.opcode == spv::OpTypeFloat) return TypeFloatView(inst).width() > 32 ? 2 : 1;
      return 1;
    }
  return 1;
}

bool IsConstantInstruction(spv::Op opcode) {
  switch (opcode) {
    case spv::OpConstantTrue:
    case spv::OpConstantFalse:
    case spv::OpConstant:
    case spv::OpConstantComposite:
    case spv::OpConstantSampler:
    case spv::OpConstantNull:
      return true;
    default:
      return IsSpecConstantInstruction(opcode) ||
             static_cast<uint32_t>(opcode) == 4461;  // OpConstantCompositeReplicateEXT
  }
}

bool IsSpecConstantInstruction(spv::Op opcode) {
  switch (opcode) {
    case spv::OpSpecConstantTrue:
    case spv::OpSpecConstantFalse:
    case spv::OpSpecConstant:
    case spv::OpSpecConstantComposite:
    case spv::OpSpecConstantOp:
      return true;
    default:
      return static_cast<uint32_t>(opcode) == 4462;  // OpSpecConstantCompositeReplicateEXT
  }
}

}  // namespace glint::spirv
