#include "parser.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "operands.h"
#include "outside_lines.h"

namespace glint::spirv {
namespace {

enum Section {
  kCapabilities,
  kExtensions,
  kExtInstImports,
  kMemoryModel,
  kEntryPoints,
  kExecutionModes,
  kDebugStrings,
  kDebugNames,
  kDebugProcessed,
  kAnnotations,
  kTypesValues,
  kFunctions,
};

Section SectionOf(spv::Op opcode) {
  switch (opcode) {
    case spv::OpCapability:
      return kCapabilities;
    case spv::OpExtension:
      return kExtensions;
    case spv::OpExtInstImport:
      return kExtInstImports;
    case spv::OpMemoryModel:
      return kMemoryModel;
    case spv::OpEntryPoint:
      return kEntryPoints;
    case spv::OpExecutionMode:
    case spv::OpExecutionModeId:
      return kExecutionModes;
    case spv::OpString:
    case spv::OpSource:
    case spv::OpSourceContinued:
    case spv::OpSourceExtension:
      return kDebugStrings;
    case spv::OpName:
    case spv::OpMemberName:
      return kDebugNames;
    case spv::OpModuleProcessed:
      return kDebugProcessed;
    case spv::OpDecorate:
    case spv::OpMemberDecorate:
    case spv::OpDecorationGroup:
    case spv::OpGroupDecorate:
    case spv::OpGroupMemberDecorate:
    case spv::OpDecorateId:
    case spv::OpDecorateString:
    case spv::OpMemberDecorateString:
      return kAnnotations;
    case spv::OpFunction:
      return kFunctions;
    default:
      return kTypesValues;
  }
}

const char* SectionName(Section section) {
  static const char* const kNames[] = {"capabilities",
                                       "extensions",
                                       "extended instruction imports",
                                       "memory model",
                                       "entry points",
                                       "execution modes",
                                       "debug strings",
                                       "debug names",
                                       "module-processed",
                                       "annotations",
                                       "types, constants and globals",
                                       "functions"};
  return kNames[section];
}

uint32_t ByteSwap(uint32_t w) {
  return (w >> 24) | ((w >> 8) & 0xff00) | ((w << 8) & 0xff0000) | (w << 24);
}

class Parser {
 public:
  Parser(const uint32_t* words, size_t count) : words_(words), count_(count) {}

  // The stripping parse (ParseModuleStrippingLines): `ids` renumbers, `stripped` and
  // `lines` receive the words and the table.
  void StripLines(const LineStringIds* ids, std::vector<uint32_t>* stripped,
                  OutsideLines* lines) {
    ids_ = ids;
    stripped_ = stripped;
    collector_.emplace(*lines);
  }

  std::optional<Module> Parse(std::string* error) {
    if (!ParseHeader(error) || !CheckInstructionCount(error)) return std::nullopt;
    size_t offset = 5;
    if (ids_) {
      module_.header.bound = ids_->new_bound;
      // Sized once for the module with lines, which the stripped one never outgrows, and
      // written in place (stripped_size_ words so far); cut to size at the end.
      stripped_->assign(words_, words_ + count_);
      (*stripped_)[3] = ids_->new_bound;
      stripped_size_ = 5;
    }
    while (offset < count_) {
      const uint32_t word_count = words_[offset] >> 16;
      if (ids_ && word_count != 0 && offset + word_count <= count_) {
        bool kept = true;
        if (!StripStep(offset, word_count, &kept, error)) return std::nullopt;
        if (!kept) {
          offset += word_count;
          continue;
        }
      }
      // Most instructions are read where they stay (PlainPlace): no instruction to move
      // into its list and destroy. The rest are read aside and placed by Place.
      const auto opcode = static_cast<spv::Op>(words_[offset] & 0xffff);
      InstructionList* list = PlainPlace(opcode);
      Instruction aside;
      Instruction& inst = list ? list->emplace_back() : aside;
      if (!ReadInstruction(offset, &inst, error) || !CheckIds(inst, error)) return std::nullopt;
      if (ids_) KeepStripped(inst);
      if (list) {
        if (function_) block_closed_ = IsBlockTerminator(opcode);
      } else if (!Place(inst, error)) {
        return std::nullopt;
      }
      offset += word_count;
    }
    if (ids_) {
      stripped_->resize(stripped_size_);
      for (size_t id = 0; id < ids_->kept_string.size(); ++id)
        if (ids_->kept_string[id] && !string_named_.count(static_cast<uint32_t>(id))) {
          *error = "OpString %" + std::to_string(id) + " is named by nothing";
          return std::nullopt;
        }
    }
    if (function_) {
      *error = "word " + std::to_string(count_) + ": the module ends inside function %" +
               std::to_string(function_->id()) + " (no OpFunctionEnd)";
      return std::nullopt;
    }
    if (!leading_.empty()) {
      *error = "word " + std::to_string(leading_.back().source_offset) +
               ": debug line instruction after the last function";
      return std::nullopt;
    }
    if (module_.memory_model.empty()) {
      *error = "the module has no OpMemoryModel";
      return std::nullopt;
    }
    return std::move(module_);
  }

 private:
  bool Fail(size_t offset, const std::string& message, std::string* error) {
    *error = "word " + std::to_string(offset) + ": " + message;
    return false;
  }

  bool ParseHeader(std::string* error) {
    if (count_ < 5) return Fail(0, "truncated header: a SPIR-V module has at least 5 words", error);
    if (words_[0] == ByteSwap(spv::MagicNumber)) {
      swapped_.assign(words_, words_ + count_);
      for (uint32_t& w : swapped_) w = ByteSwap(w);
      words_ = swapped_.data();
    }
    if (words_[0] != spv::MagicNumber) {
      char hex[16];
      snprintf(hex, sizeof hex, "0x%08x", words_[0]);
      return Fail(0, std::string("bad magic number ") + hex + " (not SPIR-V)", error);
    }
    module_.header = {words_[0], words_[1], words_[2], words_[3], words_[4]};
    if (module_.header.bound == 0) return Fail(3, "id bound is 0", error);
    // Tables by id (def-use, block positions) are sized by the ids a module uses, so an
    // id near 2^32 would cost gigabytes; SPIR-V's universal limit keeps them near 32 MB.
    if (module_.header.bound > kMaxIdBound)
      return Fail(3,
                  "id bound " + std::to_string(module_.header.bound) + " is over " +
                      std::to_string(kMaxIdBound) +
                      ", SPIR-V's maximum id bound (Glint's input limit kMaxIdBound)",
                  error);
    return true;
  }

  // Hops over the word counts only, so that a module of too many instructions is
  // refused before any is built. A zero or overlong word count stops the scan: the
  // parse reports it where it is.
  bool CheckInstructionCount(std::string* error) {
    size_t instructions = 0;
    for (size_t offset = 5; offset < count_; ++instructions) {
      if (instructions == kMaxInstructions)
        return Fail(offset,
                    "more than " + std::to_string(kMaxInstructions) +
                        " instructions (Glint's input limit kMaxInstructions)",
                    error);
      uint32_t word_count = words_[offset] >> 16;
      if (word_count == 0) break;
      offset += word_count;
    }
    return true;
  }

  // Reads the instruction at `offset` into `inst` (renumbered by the stripping parse).
  // Every check is a compare here; the message of one that fails is built apart
  // (ReadRefusal), so that the path every instruction takes saves no registers for it.
  bool ReadInstruction(size_t offset, Instruction* inst, std::string* error) {
    const uint32_t first = words_[offset];
    const uint32_t word_count = first >> 16;
    const auto opcode = static_cast<spv::Op>(first & 0xffff);
    const grammar::OpcodeInfo* info =
        word_count != 0 && offset + word_count <= count_ ? grammar::FindOpcode(opcode) : nullptr;
    if (!info) return ReadRefusal(offset, error);
    size_t next = offset + 1;
    size_t end = offset + word_count;
    inst->opcode = opcode;
    inst->source_offset = static_cast<uint32_t>(offset);
    if (info->has_type) {
      if (next >= end || words_[next] == 0) return ReadRefusal(offset, error);
      inst->type_id = words_[next++];
    }
    if (info->has_result) {
      if (next >= end || words_[next] == 0) return ReadRefusal(offset, error);
      inst->result_id = words_[next++];
    }
    // glslang's OpSource without lines has its Language and Version only: the stripping
    // parse reads no further (the source text after them is most of a small module's
    // words).
    if (ids_ && opcode == spv::OpSource) end = std::min(end, next + 2);
    inst->words.assign(words_ + next, words_ + end);
    if (ids_) {
      inst->source_offset = static_cast<uint32_t>(stripped_size_);
      if ((inst->type_id && !Renumber(inst->type_id, true, offset, error)) ||
          (inst->result_id && !Renumber(inst->result_id, false, offset, error)))
        return false;
      // OpSwitch's selector gives its literals' width: renumbered before they are decoded.
      if (opcode == spv::OpSwitch && !inst->words.empty() &&
          !Renumber(inst->words[0], true, offset, error))
        return false;
    }
    return true;
  }

  // Why ReadInstruction refused the instruction at `offset`: its checks in order, each
  // with its message. Always false.
  [[gnu::noinline, gnu::cold]] bool ReadRefusal(size_t offset, std::string* error) {
    const uint32_t word_count = words_[offset] >> 16;
    const auto opcode = static_cast<spv::Op>(words_[offset] & 0xffff);
    if (word_count == 0) return Fail(offset, "instruction with word count 0", error);
    if (offset + word_count > count_)
      return Fail(offset,
                  std::string(grammar::OpcodeName(opcode)) + " with word count " +
                      std::to_string(word_count) + " runs past the end of the module (" +
                      std::to_string(count_) + " words): truncated stream",
                  error);
    const grammar::OpcodeInfo* info = grammar::FindOpcode(opcode);
    if (!info) return Fail(offset, "unknown opcode " + std::to_string(opcode), error);
    size_t next = offset + 1;
    const size_t end = offset + word_count;
    if (info->has_type) {
      if (next >= end)
        return Fail(offset, std::string(info->name) + " lacks its result type", error);
      if (words_[next++] == 0)
        return Fail(offset, std::string(info->name) + " has result type id 0", error);
    }
    if (next >= end) return Fail(offset, std::string(info->name) + " lacks its result id", error);
    return Fail(offset, std::string(info->name) + " has result id 0", error);
  }

  // A stripped id: the new one, or a refusal for an id only lines may name. Called for
  // every id of the module, so the common case (an id that is no OpString) is inline
  // and the rest out of line.
  bool Renumber(uint32_t& id, bool uses, size_t offset, std::string* error) {
    if (id == 0 || id >= ids_->new_ids.size()) return true;  // CheckIds says why
    const uint32_t renumbered = ids_->new_ids[id];
    if (renumbered == 0 || (uses && ids_->kept_string[id]))
      return RenumberString(id, uses, offset, error);
    id = renumbered;
    return true;
  }

  [[gnu::noinline]] bool RenumberString(uint32_t& id, bool uses, size_t offset,
                                        std::string* error) {
    if (ids_->new_ids[id] == 0)
      return Fail(offset, "id " + std::to_string(id) + " names a line's file and is used elsewhere",
                  error);
    if (uses && ids_->kept_string[id]) string_named_.insert(id);
    id = ids_->new_ids[id];
    return true;
  }

  // The stripping parse's first look at an instruction: line information is collected
  // and left out (*kept false), the rest goes on to be read.
  bool StripStep(size_t offset, uint32_t word_count, bool* kept, std::string* error) {
    const auto opcode = static_cast<spv::Op>(words_[offset] & 0xffff);
    switch (opcode) {
      case spv::OpLine:
      case spv::OpNoLine: {
        *kept = false;
        std::string why;
        if (!collector_->Line(words_, offset, opcode, word_count, &why))
          return Fail(offset, why, error);
        return true;
      }
      case spv::OpString: {
        std::string text = LiteralString(words_, offset + 2, offset + word_count);
        collector_->String(words_[offset + 1], text);
        *kept = words_[offset + 1] < ids_->new_ids.size() && ids_->new_ids[words_[offset + 1]] != 0;
        return true;
      }
      case spv::OpSource:
        *kept = !source_kept_;
        source_kept_ = true;
        return true;
      case spv::OpSourceContinued:
      case spv::OpModuleProcessed:
        *kept = false;
        return true;
      default:
        return true;
    }
  }

  // A kept instruction, renumbered: its words are the stripped module's, and the lines
  // before it are keyed to it.
  void KeepStripped(const Instruction& inst) {
    collector_->Kept(inst.opcode, stripped_size_);
    const size_t at = stripped_size_;
    const size_t operands = inst.words.size();
    const uint32_t count = 1 + (inst.type_id != 0) + (inst.result_id != 0) + uint32_t(operands);
    stripped_size_ = at + count;
    uint32_t* out = stripped_->data() + at;
    *out++ = (count << 16) | static_cast<uint32_t>(inst.opcode);
    if (inst.type_id) *out++ = inst.type_id;
    if (inst.result_id) *out++ = inst.result_id;
    if (operands) std::copy(inst.words.begin(), inst.words.end(), out);
  }

  uint32_t LiteralWidth(const Instruction& inst) const {
    uint32_t type = 0;
    if (inst.opcode == spv::OpConstant || inst.opcode == spv::OpSpecConstant) type = inst.type_id;
    if (inst.opcode == spv::OpSwitch && !inst.words.empty()) {
      if (inst.words[0] < value_types_.size()) type = value_types_[inst.words[0]];
    }
    auto it = type_widths_.find(type);
    return (it != type_widths_.end() && it->second > 32) ? 2 : 1;
  }

  // Checks every id operand against the bound; the stripping parse renumbers them first.
  bool CheckIds(Instruction& inst, std::string* error) {
    // Most instructions' words are all ids (arithmetic, access chains, calls, ...): those
    // are renumbered and checked as they are, without decoding the operands.
    if (HasOnlyIdOperandWords(inst)) {
      if (ids_)
        for (uint32_t& id : inst.words)
          if (!Renumber(id, true, inst.source_offset, error)) return false;
      return CheckOnlyIds(inst, error);
    }
    return CheckOtherIds(inst, error);
  }

  // CheckIds for an instruction whose words are not all ids. Out of line: the common
  // all-id path then saves no registers for the decoding path's needs.
  [[gnu::noinline]] bool CheckOtherIds(Instruction& inst, std::string* error) {
    // The common shapes whose words say where the ids are: checked without decoding.
    if (ids_) {
      bool renumbered = true;
      if (VisitFixedIdWords(inst,
                            [&](uint32_t word) {
                              renumbered = renumbered && Renumber(inst.words[word], true,
                                                                  inst.source_offset, error);
                            }) &&
          !renumbered)
        return false;
    }
    if (std::optional<bool> checked = CheckFixedIds(inst, error)) return *checked;
    size_t offset = inst.source_offset;
    OperandList operands;
    std::string message;
    if (!DecodeOperands(inst, LiteralWidth(inst), &operands, &message))
      return Fail(offset, std::string(grammar::OpcodeName(inst.opcode)) + ": " + message, error);
    if (ids_) {
      for (const Operand& operand : operands) {
        if (!operand.is_id) continue;
        if (inst.opcode == spv::OpSwitch && operand.first_word == 0) continue;  // done
        if (!Renumber(inst.words[operand.first_word], true, offset, error)) return false;
      }
    }
    // Every id is checked: in range is the common case, the message is built apart.
    const uint32_t bound = module_.header.bound;
    auto check = [&](uint32_t id, const char* what) {
      return (id != 0 && id < bound) || FailId(inst, id, what, error);
    };
    if (inst.type_id && !check(inst.type_id, "result type")) return false;
    if (inst.result_id && !check(inst.result_id, "result")) return false;
    // glslang 12's -gV writes `DebugScope 0` where it read its empty stack of debug
    // scopes (after a function's scope; glslang/front_end/debug_scope_guard.h): a non-semantic
    // instruction's operand 0 means nothing and is kept so the module round-trips.
    const bool non_semantic = IsNonSemantic(inst);
    for (const Operand& operand : operands) {
      if (!operand.is_id) continue;
      uint32_t id = inst.words[operand.first_word];
      if (non_semantic && id == 0 && operand.first_word >= 2) continue;
      if (!check(id, "operand")) return false;
    }
    RecordResult(inst);
    return true;
  }

  // CheckIds for an instruction whose id words its shape fixes (VisitFixedIdWords), as
  // the decoding path checks them: result type, result, then each id word. Nullopt
  // when its shape does not fix them (then nothing is checked: the caller decodes).
  std::optional<bool> CheckFixedIds(Instruction& inst, std::string* error) {
    const uint32_t bound = module_.header.bound;
    const bool non_semantic = IsNonSemantic(inst);
    constexpr uint32_t kNone = UINT32_MAX;
    uint32_t first_bad = kNone;  // the first id word out of range
    const bool fixed = VisitFixedIdWords(inst, [&](uint32_t word) {
      const uint32_t id = inst.words[word];
      if (first_bad != kNone || (non_semantic && id == 0 && word >= 2)) return;
      if (id == 0 || id >= bound) first_bad = word;
    });
    if (!fixed) return std::nullopt;
    if (inst.type_id && inst.type_id >= bound)
      return FailId(inst, inst.type_id, "result type", error);
    if (inst.result_id && inst.result_id >= bound)
      return FailId(inst, inst.result_id, "result", error);
    if (first_bad != kNone) return FailId(inst, inst.words[first_bad], "operand", error);
    RecordResult(inst);
    return true;
  }

  // CheckIds for an instruction whose every word is an id (HasOnlyIdOperandWords).
  bool CheckOnlyIds(Instruction& inst, std::string* error) {
    const uint32_t bound = module_.header.bound;
    if (inst.type_id >= bound) return FailId(inst, inst.type_id, "result type", error);
    if (inst.result_id >= bound) return FailId(inst, inst.result_id, "result", error);
    for (uint32_t id : inst.words)
      if (id == 0 || id >= bound) return FailId(inst, id, "operand", error);
    if (inst.result_id && inst.type_id) RecordValueType(inst);
    return true;
  }

  // Keeps what later literals' widths are read from (LiteralWidth): each value's type
  // and each scalar type's width.
  void RecordResult(const Instruction& inst) {
    if (!inst.result_id) return;
    if (inst.type_id) RecordValueType(inst);
    if ((inst.opcode == spv::OpTypeInt || inst.opcode == spv::OpTypeFloat) && !inst.words.empty())
      type_widths_[inst.result_id] = inst.words[0];
  }

  void RecordValueType(const Instruction& inst) {
    if (inst.result_id >= value_types_.size())
      value_types_.resize(std::max<size_t>(inst.result_id + 1, value_types_.size() * 2));
    value_types_[inst.result_id] = inst.type_id;
  }

  // Says which id is out of range; always false.
  [[gnu::noinline]] bool FailId(const Instruction& inst, uint32_t id, const char* what,
                                std::string* error) {
    const uint32_t bound = module_.header.bound;
    return Fail(inst.source_offset,
                std::string(grammar::OpcodeName(inst.opcode)) + " " + what + " id " +
                    std::to_string(id) +
                    (id == 0 ? " is 0" : " is at or above the bound " + std::to_string(bound)),
                error);
  }

  // OpExtInst of a NonSemantic.* set: debug information that changes no semantics.
  bool IsNonSemantic(const Instruction& inst) const {
    return inst.opcode == spv::OpExtInst && !inst.words.empty() &&
           non_semantic_sets_.count(inst.words[0]) != 0;
  }

  // Where an instruction of `opcode` goes when its place is the end of a list and
  // placing it changes nothing else but whether the open block ends (Place's common
  // cases: the body of an open block, and the module sections before the functions in
  // order, but for the memory model and extended instruction imports); null for the
  // rest, which Place handles (and refuses where they are out of place). The section
  // is entered here, as Place would enter it.
  InstructionList* PlainPlace(spv::Op opcode) {
    if (function_) {
      if (!block_ || block_closed_ || opcode == spv::OpFunction || opcode == spv::OpFunctionEnd ||
          opcode == spv::OpLabel || opcode == spv::OpFunctionParameter)
        return nullptr;
      return &block_->instructions;
    }
    const Section section = SectionAt(opcode);
    if (section < section_) return nullptr;
    if (section == kMemoryModel || section == kExtInstImports || section == kFunctions)
      return nullptr;
    section_ = section;
    return SectionList(section);
  }

  // The section an instruction of `opcode` belongs in here: line information stays in
  // the section it appears in from the types on.
  Section SectionAt(spv::Op opcode) const {
    if ((opcode == spv::OpLine || opcode == spv::OpNoLine) && section_ >= kTypesValues)
      return section_;
    return SectionOf(opcode);
  }

  // The module's list of a section before the functions; null for kFunctions.
  InstructionList* SectionList(Section section) {
    switch (section) {
      case kCapabilities:
        return &module_.capabilities;
      case kExtensions:
        return &module_.extensions;
      case kExtInstImports:
        return &module_.ext_inst_imports;
      case kMemoryModel:
        return &module_.memory_model;
      case kEntryPoints:
        return &module_.entry_points;
      case kExecutionModes:
        return &module_.execution_modes;
      case kDebugStrings:
        return &module_.debug_strings;
      case kDebugNames:
        return &module_.debug_names;
      case kDebugProcessed:
        return &module_.debug_processed;
      case kAnnotations:
        return &module_.annotations;
      case kTypesValues:
        return &module_.types_values;
      case kFunctions:
        return nullptr;
    }
    return nullptr;
  }

  bool Place(Instruction& inst, std::string* error) {
    if (function_) return PlaceInFunction(inst, error);
    const Section section = SectionAt(inst.opcode);
    if (section < section_)
      return Fail(inst.source_offset,
                  std::string(grammar::OpcodeName(inst.opcode)) + " belongs in the " +
                      SectionName(section) + " section but appears after the " +
                      SectionName(section_) + " section",
                  error);
    if (section == kMemoryModel && !module_.memory_model.empty())
      return Fail(inst.source_offset, "second OpMemoryModel", error);
    section_ = section;
    if (section == kFunctions) return PlaceBetweenFunctions(inst, error);
    if (section == kExtInstImports && inst.StringAt(0).rfind("NonSemantic.", 0) == 0)
      non_semantic_sets_.insert(inst.result_id);
    SectionList(section)->push_back(std::move(inst));
    return true;
  }

  bool PlaceBetweenFunctions(Instruction& inst, std::string* error) {
    if (inst.opcode == spv::OpLine || inst.opcode == spv::OpNoLine) {
      leading_.push_back(std::move(inst));
      return true;
    }
    if (inst.opcode != spv::OpFunction)
      return Fail(inst.source_offset,
                  std::string(grammar::OpcodeName(inst.opcode)) +
                      " appears between functions (after the first OpFunction)",
                  error);
    module_.functions.emplace_back();
    function_ = &module_.functions.back();
    function_->leading = std::move(leading_);
    leading_.clear();
    function_->definition = std::move(inst);
    block_ = nullptr;
    block_closed_ = false;
    return true;
  }

  bool PlaceInFunction(Instruction& inst, std::string* error) {
    // Most instructions go at the end of an open block; the rest (and every refusal)
    // take the out-of-line path.
    if (block_ && !block_closed_ && inst.opcode != spv::OpFunction &&
        inst.opcode != spv::OpFunctionEnd && inst.opcode != spv::OpLabel &&
        inst.opcode != spv::OpFunctionParameter) {
      block_closed_ = IsBlockTerminator(inst.opcode);
      block_->instructions.push_back(std::move(inst));
      return true;
    }
    return PlaceInFunctionRarely(inst, error);
  }

  [[gnu::noinline]] bool PlaceInFunctionRarely(Instruction& inst, std::string* error) {
    const size_t offset = inst.source_offset;
    switch (inst.opcode) {
      case spv::OpFunction:
        return Fail(offset, "OpFunction inside function %" + std::to_string(function_->id()),
                    error);
      case spv::OpFunctionEnd:
        if (block_ && !block_closed_)
          return Fail(offset,
                      "OpFunctionEnd ends block %" + std::to_string(block_->id()) +
                          " that has no terminator",
                      error);
        function_->end = std::move(inst);
        function_ = nullptr;
        section_ = kFunctions;
        return true;
      case spv::OpLabel:
        if (block_ && !block_closed_)
          return Fail(
              offset,
              "OpLabel inside block %" + std::to_string(block_->id()) + " that has no terminator",
              error);
        function_->blocks.emplace_back();
        block_ = &function_->blocks.back();
        block_->label = std::move(inst);
        block_closed_ = false;
        return true;
      default:
        break;
    }
    // Line information may sit where no instruction may: glslang 12 puts OpLine and its
    // -gV DebugNoLine before the first OpLabel, and OpLine and -gV's DebugLine and
    // DebugScope after a terminator (lines met after the last function).
    const bool line_info =
        inst.opcode == spv::OpLine || inst.opcode == spv::OpNoLine || IsNonSemantic(inst);
    if (!block_) {
      if (inst.opcode == spv::OpFunctionParameter || line_info) {
        function_->parameters.push_back(std::move(inst));
        return true;
      }
      return Fail(offset,
                  std::string(grammar::OpcodeName(inst.opcode)) +
                      " appears in a function before its first OpLabel",
                  error);
    }
    if (block_closed_ && line_info) {
      block_->trailing_lines.push_back(std::move(inst));
      return true;
    }
    if (block_closed_)
      return Fail(offset,
                  std::string(grammar::OpcodeName(inst.opcode)) +
                      " appears after the terminator of block %" + std::to_string(block_->id()),
                  error);
    if (inst.opcode == spv::OpFunctionParameter)
      return Fail(offset, "OpFunctionParameter inside block %" + std::to_string(block_->id()),
                  error);
    block_closed_ = IsBlockTerminator(inst.opcode);
    block_->instructions.push_back(std::move(inst));
    return true;
  }

  const uint32_t* words_;
  size_t count_;
  // The stripping parse: the id plan, the stripped words, the line collector, whether
  // the first OpSource was kept, the kept OpStrings some instruction names.
  const LineStringIds* ids_ = nullptr;
  std::vector<uint32_t>* stripped_ = nullptr;
  size_t stripped_size_ = 0;
  std::optional<OutsideLinesCollector> collector_;
  bool source_kept_ = false;
  std::unordered_set<uint32_t> string_named_;
  std::vector<uint32_t> swapped_;
  Module module_;
  Section section_ = kCapabilities;
  Function* function_ = nullptr;
  Block* block_ = nullptr;
  bool block_closed_ = false;
  InstructionList leading_;
  std::unordered_set<uint32_t> non_semantic_sets_;  // OpExtInstImport "NonSemantic.*"
  // Each value's type by result id (0: none yet); ids are below the header's bound.
  std::vector<uint32_t> value_types_;
  std::unordered_map<uint32_t, uint32_t> type_widths_;
};

}  // namespace

std::optional<StrippedParse> ParseModuleStrippingLines(const std::vector<uint32_t>& located,
                                                       std::string* error) {
  std::string too_big = CheckModuleSize(located.size());
  if (!too_big.empty()) {
    *error = too_big;
    return std::nullopt;
  }
  if (located.size() >= 1 && located[0] != spv::MagicNumber) {
    *error = "the module with lines is not in this machine's byte order";
    return std::nullopt;
  }
  std::optional<LineStringIds> ids = FindLineStringIds(located.data(), located.size(), error);
  if (!ids) return std::nullopt;
  StrippedParse result;
  Parser parser(located.data(), located.size());
  parser.StripLines(&*ids, &result.words, &result.lines);
  std::optional<Module> module = parser.Parse(error);
  if (!module) return std::nullopt;
  result.module = std::move(*module);
  return result;
}

std::string CheckModuleSize(size_t word_count) {
  if (word_count <= kMaxModuleWords) return "";
  return "the module has " + std::to_string(word_count) + " words, more than " +
         std::to_string(kMaxModuleWords) + " (32 MiB, Glint's input limit kMaxModuleWords)";
}

std::optional<Module> ParseModule(const uint32_t* words, size_t word_count, std::string* error) {
  std::string too_big = CheckModuleSize(word_count);
  if (!too_big.empty()) {
    *error = too_big;
    return std::nullopt;
  }
  Parser parser(words, word_count);
  return parser.Parse(error);
}

}  // namespace glint::spirv
