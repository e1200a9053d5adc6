#include "operands.h"

#include "opcode_table.h"

namespace glint::spirv {
namespace {

using grammar::Category;
using grammar::OperandKind;
using grammar::OperandSpec;
using grammar::Quantifier;

// Walks the operand specs in order; an enumerant's own operands (and each set bit's, in
// bit order) are decoded right after it, and a variadic spec repeats while words remain.
class OperandDecoder {
 public:
  OperandDecoder(const Instruction& inst, uint32_t literal_width, OperandList* out)
      : inst_(inst), literal_width_(literal_width), out_(out) {}

  bool Decode(const OperandSpec* specs, size_t count, std::string* error) {
    if (!DecodeSpecs(specs, count, error)) return false;
    if (next_ != inst_.words.size()) {
      *error = "too many operand words";
      return false;
    }
    return true;
  }

 private:
  bool DecodeSpecs(const OperandSpec* specs, size_t count, std::string* error) {
    for (size_t i = 0; i < count; ++i) {
      const OperandSpec& spec = specs[i];
      if (next_ >= inst_.words.size()) {
        if (spec.quantifier != Quantifier::kOne) continue;
        *error = std::string("missing operand ") + grammar::KindInfo(spec.kind).name;
        return false;
      }
      if (!DecodeOne(spec.kind, error)) return false;
      while (spec.quantifier == Quantifier::kVariadic && next_ < inst_.words.size())
        if (!DecodeOne(spec.kind, error)) return false;
    }
    return true;
  }

  bool Emit(OperandKind kind, bool is_id, uint32_t count, std::string* error) {
    if (next_ + count > inst_.words.size()) {
      *error =
          std::string("operand ") + grammar::KindInfo(kind).name + " runs past the instruction";
      return false;
    }
    out_->push_back({kind, is_id, next_, count});
    next_ += count;
    return true;
  }

  bool DecodeString(OperandKind kind, std::string* error) {
    for (uint32_t i = next_; i < inst_.words.size(); ++i)
      if (WordEndsString(inst_.words[i])) return Emit(kind, false, i - next_ + 1, error);
    *error = "literal string is not terminated";
    return false;
  }

  bool DecodeOne(OperandKind kind, std::string* error) {
    const auto& info = grammar::KindInfo(kind);
    switch (info.category) {
      case Category::kId:
        return Emit(kind, true, 1, error);
      case Category::kLiteral:
        if (kind == OperandKind::kLiteralString) return DecodeString(kind, error);
        if (kind == OperandKind::kLiteralContextDependentNumber)
          return Emit(kind, false, literal_width_, error);
        if (kind == OperandKind::kLiteralSpecConstantOpInteger) return DecodeSpecConstantOp(error);
        return Emit(kind, false, 1, error);
      case Category::kComposite:
        if (kind == OperandKind::kPairLiteralIntegerIdRef)
          return Emit(OperandKind::kLiteralInteger, false, literal_width_, error) &&
                 Emit(OperandKind::kIdRef, true, 1, error);
        if (kind == OperandKind::kPairIdRefLiteralInteger)
          return Emit(OperandKind::kIdRef, true, 1, error) &&
                 Emit(OperandKind::kLiteralInteger, false, 1, error);
        return Emit(OperandKind::kIdRef, true, 1, error) &&
               Emit(OperandKind::kIdRef, true, 1, error);
      case Category::kValueEnum: {
        uint32_t value = inst_.words[next_];
        if (!Emit(kind, false, 1, error)) return false;
        uint16_t count = 0;
        const OperandSpec* params = grammar::EnumerantParameters(kind, value, &count);
        return DecodeSpecs(params, count, error);
      }
      case Category::kBitEnum: {
        uint32_t mask = inst_.words[next_];
        if (!Emit(kind, false, 1, error)) return false;
        for (uint32_t bit = 0; bit < 32; ++bit) {
          if (!(mask & (1u << bit))) continue;
          uint16_t count = 0;
          const OperandSpec* params = grammar::EnumerantParameters(kind, 1u << bit, &count);
          if (!DecodeSpecs(params, count, error)) return false;
        }
        return true;
      }
    }
    return false;
  }

  // OpSpecConstantOp's operands follow the grammar of the opcode it names.
  bool DecodeSpecConstantOp(std::string* error) {
    uint32_t nested = inst_.words[next_];
    if (!Emit(OperandKind::kLiteralSpecConstantOpInteger, false, 1, error)) return false;
    const grammar::OpcodeInfo* info = grammar::FindOpcode(nested);
    if (!info) {
      *error = "OpSpecConstantOp names unknown opcode " + std::to_string(nested);
      return false;
    }
    return DecodeSpecs(grammar::OperandSpecs(*info), info->operand_count, error);
  }

  const Instruction& inst_;
  uint32_t literal_width_;
  OperandList* out_;
  uint32_t next_ = 0;
};

// Opcodes whose operands are all ids, one word each (arithmetic, access chains, calls,
// composites, ...: most instructions of a shader): some required, then at most an
// optional one or a variadic tail. Decoding them is a loop over the words; anything else
// (enumerants, literals, strings, or words that do not fit, which the decoder refuses)
// takes the decoder.
//
// Opcodes that start with required ids and end in optional operands of other kinds
// (OpLoad and OpStore without memory operands, OpBranchConditional without weights)
// take the same loop when an instruction has exactly its required ids: its
// `leading_ids`.
struct IdOnlyShape {
  bool id_only = false;
  uint8_t required = 0;
  Quantifier tail = Quantifier::kOne;  // kOne: no tail
  uint8_t leading_ids = 0;             // required ids before optional operands only; 0: none such
};

// The required ids an opcode starts with, when every operand after them is optional.
uint8_t LeadingIdsBeforeOptionals(const grammar::OpcodeInfo& info) {
  const OperandSpec* specs = grammar::OperandSpecs(info);
  size_t leading = 0;
  while (leading < info.operand_count && leading < UINT8_MAX &&
         specs[leading].quantifier == Quantifier::kOne &&
         grammar::KindInfo(specs[leading].kind).category == Category::kId)
    ++leading;
  for (size_t i = leading; i < info.operand_count; ++i)
    if (specs[i].quantifier == Quantifier::kOne) return 0;
  return leading < info.operand_count ? static_cast<uint8_t>(leading) : 0;
}

IdOnlyShape ShapeOf(const grammar::OpcodeInfo& info) {
  IdOnlyShape shape;
  const OperandSpec* specs = grammar::OperandSpecs(info);
  for (size_t i = 0; i < info.operand_count; ++i) {
    if (grammar::KindInfo(specs[i].kind).category != Category::kId) {
      IdOnlyShape leading;
      leading.leading_ids = LeadingIdsBeforeOptionals(info);
      return leading;
    }
    if (specs[i].quantifier == Quantifier::kOne) {
      if (shape.tail != Quantifier::kOne || shape.required == UINT8_MAX) return {};
      ++shape.required;
    } else {
      if (shape.tail != Quantifier::kOne || i + 1 != info.operand_count) return {};
      shape.tail = specs[i].quantifier;
    }
  }
  shape.id_only = true;
  return shape;
}

// `shape_of` of every opcode of the grammar, by opcode (made once per table).
template <typename Shape>
std::vector<Shape> TableByOpcode(Shape (*shape_of)(const grammar::OpcodeInfo&)) {
  std::vector<Shape> table;
  grammar::ForEachOpcode([&](const grammar::OpcodeInfo& info) {
    if (table.size() <= info.opcode) table.resize(info.opcode + 1);
    table[info.opcode] = shape_of(info);
  });
  return table;
}

const std::vector<IdOnlyShape>& IdOnlyShapes() {
  static const std::vector<IdOnlyShape> kShapes = TableByOpcode(&ShapeOf);
  return kShapes;
}

// Whether `words` operand words fit `shape` as ids only: every word then is one.
bool FitsIdOnly(const IdOnlyShape& shape, size_t words) {
  if (!shape.id_only) return shape.leading_ids != 0 && words == shape.leading_ids;
  if (words < shape.required) return false;
  if (shape.tail == Quantifier::kOne) return words == shape.required;
  if (shape.tail == Quantifier::kOptional) return words <= size_t(shape.required) + 1;
  return true;
}

// The decoder's answer for an id-only opcode whose word count fits its shape; false
// (nothing decoded) when the words do not fit, for the decoder to refuse.
bool DecodeIdOnly(const Instruction& inst, const grammar::OpcodeInfo& info,
                  const IdOnlyShape& shape, OperandList* out) {
  const size_t words = inst.words.size();
  if (!FitsIdOnly(shape, words)) return false;
  const OperandSpec* specs = grammar::OperandSpecs(info);
  // Past the required ids (or the leading ones), the tail operand's kind repeats.
  const size_t last_spec = shape.id_only ? shape.required : words;
  for (uint32_t i = 0; i < words; ++i) {
    OperandKind kind = specs[i < last_spec ? i : last_spec].kind;
    out->push_back({kind, true, i, 1});
  }
  return true;
}

// Opcodes whose operands are single words of fixed kinds (ids, one-word literals,
// enumerants of a kind none of whose enumerants takes operands), then at most one tail:
// an optional id, variadic ids, or a literal string (OpVariable, OpName,
// OpSelectionMerge, OpExtInst, ...: a quarter of a shader's instructions). An
// instruction whose words fit is decoded by position, exactly as the decoder would;
// anything else (a string that ends early, words missing or left over) takes the
// decoder, which says what is wrong.
struct FixedShape {
  static constexpr size_t kMaxFixed = 6;
  enum class Tail : uint8_t { kNone, kOptionalId, kVariadicIds, kString };
  bool usable = false;
  uint8_t fixed = 0;
  std::array<OperandKind, kMaxFixed> kinds{};
  std::array<bool, kMaxFixed> ids{};
  Tail tail = Tail::kNone;
  OperandKind tail_kind{};
};

// One word, as DecodeOne decodes it: an id, a literal other than a string, a
// context-dependent number or OpSpecConstantOp's opcode, or an enumerant that can take
// no operands.
bool SingleWord(OperandKind kind, bool* is_id) {
  switch (grammar::KindInfo(kind).category) {
    case Category::kId:
      *is_id = true;
      return true;
    case Category::kLiteral:
      *is_id = false;
      return kind != OperandKind::kLiteralString &&
             kind != OperandKind::kLiteralContextDependentNumber &&
             kind != OperandKind::kLiteralSpecConstantOpInteger;
    case Category::kValueEnum:
    case Category::kBitEnum:
      *is_id = false;
      return !grammar::AnyEnumerantHasParameters(kind);
    case Category::kComposite:
      return false;
  }
  return false;
}

FixedShape FixedShapeOf(const grammar::OpcodeInfo& info) {
  FixedShape shape;
  const OperandSpec* specs = grammar::OperandSpecs(info);
  size_t i = 0;
  for (; i < info.operand_count && specs[i].quantifier == Quantifier::kOne; ++i) {
    bool is_id = false;
    if (!SingleWord(specs[i].kind, &is_id)) break;
    if (shape.fixed == FixedShape::kMaxFixed) return {};
    shape.kinds[shape.fixed] = specs[i].kind;
    shape.ids[shape.fixed] = is_id;
    ++shape.fixed;
  }
  if (i + 1 < info.operand_count) return {};  // more than one operand past the fixed ones
  if (i + 1 == info.operand_count) {
    const OperandSpec& last = specs[i];
    bool is_id = grammar::KindInfo(last.kind).category == Category::kId;
    if (last.quantifier == Quantifier::kOptional && is_id) {
      shape.tail = FixedShape::Tail::kOptionalId;
    } else if (last.quantifier == Quantifier::kVariadic && is_id) {
      shape.tail = FixedShape::Tail::kVariadicIds;
    } else if (last.quantifier == Quantifier::kOne && last.kind == OperandKind::kLiteralString) {
      shape.tail = FixedShape::Tail::kString;
    } else {
      return {};
    }
    shape.tail_kind = last.kind;
  }
  shape.usable = true;
  return shape;
}

const std::vector<FixedShape>& FixedShapes() {
  static const std::vector<FixedShape> kShapes = TableByOpcode(&FixedShapeOf);
  return kShapes;
}

// The decoder's answer for an instruction whose words fit its opcode's fixed shape;
// false (nothing decoded) otherwise.
bool DecodeFixed(const Instruction& inst, const FixedShape& shape, OperandList* out) {
  const size_t words = inst.words.size();
  if (!shape.usable || words < shape.fixed) return false;
  const size_t rest = words - shape.fixed;
  switch (shape.tail) {
    case FixedShape::Tail::kNone:
      if (rest != 0) return false;
      break;
    case FixedShape::Tail::kOptionalId:
      if (rest > 1) return false;
      break;
    case FixedShape::Tail::kVariadicIds:
      break;
    case FixedShape::Tail::kString:  // its first word with a nul byte must be the last word
      if (rest == 0) return false;
      for (size_t i = shape.fixed; i + 1 < words; ++i)
        if (WordEndsString(inst.words[i])) return false;
      if (!WordEndsString(inst.words[words - 1])) return false;
      break;
  }
  for (uint32_t i = 0; i < shape.fixed; ++i) out->push_back({shape.kinds[i], shape.ids[i], i, 1});
  if (shape.tail == FixedShape::Tail::kString) {
    out->push_back({shape.tail_kind, false, shape.fixed, uint32_t(rest)});
  } else {
    for (uint32_t i = shape.fixed; i < words; ++i) out->push_back({shape.tail_kind, true, i, 1});
  }
  return true;
}

// OpSpecConstantOp over an opcode whose operands are all ids (IAdd, IMul, UDiv, ...: the
// usual ones): the opcode word, then the ids as the decoder reads them.
bool DecodeSpecConstantOpOfIds(const Instruction& inst, const std::vector<IdOnlyShape>& shapes,
                               OperandList* out) {
  if (inst.words.empty()) return false;
  const uint32_t nested = inst.words[0];
  const grammar::OpcodeInfo* info = grammar::FindOpcode(nested);
  if (!info || nested >= shapes.size()) return false;
  const IdOnlyShape& shape = shapes[nested];
  const size_t words = inst.words.size() - 1;
  if (!shape.id_only || !FitsIdOnly(shape, words)) return false;
  const OperandSpec* specs = grammar::OperandSpecs(*info);
  out->push_back({OperandKind::kLiteralSpecConstantOpInteger, false, 0, 1});
  for (uint32_t i = 0; i < words; ++i) {
    OperandKind kind = specs[i < shape.required ? i : shape.required].kind;
    out->push_back({kind, true, i + 1, 1});
  }
  return true;
}

uint8_t RequiredOperandCount(const grammar::OpcodeInfo& info) {
  const OperandSpec* specs = grammar::OperandSpecs(info);
  uint8_t count = 0;
  for (size_t i = 0; i < info.operand_count; ++i)
    if (specs[i].quantifier == Quantifier::kOne && count < UINT8_MAX) ++count;
  return count;
}

// FitsIdOnly of each opcode's shape as one range of word counts, [fewest, most]
// (IdOnlyWordCounts, operands.h). Every analysis asks HasOnlyIdOperandWords of every
// instruction, so the answer is one compare pair.
IdOnlyWordCounts WordCountsOf(const IdOnlyShape& shape) {
  if (!shape.id_only) {
    if (shape.leading_ids == 0) return {};
    return {shape.leading_ids, shape.leading_ids};
  }
  if (shape.tail == Quantifier::kOne) return {shape.required, shape.required};
  if (shape.tail == Quantifier::kOptional) return {shape.required, shape.required + 1u};
  return {shape.required, UINT32_MAX};
}

// WordCountsOf each opcode's shape; with `whole_shape_only`, an empty range where only
// leading ids are.
std::vector<IdOnlyWordCounts> WordCountsByOpcode(bool whole_shape_only) {
  std::vector<IdOnlyWordCounts> by_opcode;
  for (const IdOnlyShape& shape : IdOnlyShapes())
    by_opcode.push_back(whole_shape_only && !shape.id_only ? IdOnlyWordCounts{}
                                                           : WordCountsOf(shape));
  return by_opcode;
}

// FitsIdOnlyShape's table: the word counts of opcodes whose own shape is all ids (not
// just leading ids); an empty range for the rest and for opcodes outside the grammar.
std::vector<IdOnlyWordCounts> MakeAllIdWordCounts() { return WordCountsByOpcode(true); }

}  // namespace

// IdWordShapeOf's table, from the fixed shapes DecodeFixed reads (in the order
// DecodeOperands tries them: a usable fixed shape first, then OpSpecConstantOp of ids).
std::vector<IdWordShape> MakeIdWordShapes() {
  const std::vector<FixedShape>& fixed_shapes = FixedShapes();
  std::vector<IdWordShape> table(std::max<size_t>(fixed_shapes.size(), spv::OpSpecConstantOp + 1));
  for (size_t opcode = 0; opcode < fixed_shapes.size(); ++opcode) {
    const FixedShape& fixed = fixed_shapes[opcode];
    if (!fixed.usable || !grammar::FindOpcode(uint32_t(opcode))) continue;
    IdWordShape& shape = table[opcode];
    shape.kind = IdWordShape::kFixed;
    shape.fixed = fixed.fixed;
    for (size_t i = 0; i < fixed.fixed; ++i)
      if (fixed.ids[i]) shape.id_mask |= uint8_t(1u << i);
    switch (fixed.tail) {
      case FixedShape::Tail::kNone:
        shape.tail = IdWordShape::kNoTail;
        break;
      case FixedShape::Tail::kOptionalId:
        shape.tail = IdWordShape::kOptionalId;
        break;
      case FixedShape::Tail::kVariadicIds:
        shape.tail = IdWordShape::kVariadicIds;
        break;
      case FixedShape::Tail::kString:
        shape.tail = IdWordShape::kString;
        break;
    }
  }
  if (table[spv::OpSpecConstantOp].kind == IdWordShape::kDecode &&
      grammar::FindOpcode(spv::OpSpecConstantOp))
    table[spv::OpSpecConstantOp].kind = IdWordShape::kSpecConstantOpOfIds;
  return table;
}

const std::vector<uint8_t>& RequiredOperandCounts() {
  static const std::vector<uint8_t> kRequired = TableByOpcode(&RequiredOperandCount);
  return kRequired;
}

bool HasRequiredOperandWords(const Instruction& inst) {
  return HasRequiredOperandWords(inst, RequiredOperandCounts());
}

bool FitsIdOnlyShape(uint32_t opcode, size_t words) {
  const IdOnlyWordCounts counts =
      LazyOpcodeTable<IdOnlyWordCounts, &MakeAllIdWordCounts>::At(opcode);
  return words >= counts.fewest && words <= counts.most;
}

// HasOnlyIdOperandWords' table.
std::vector<IdOnlyWordCounts> MakeIdOnlyWordCounts() { return WordCountsByOpcode(false); }

bool DecodeOperands(const Instruction& inst, uint32_t literal_width, OperandList* out,
                    std::string* error) {
  // The shortcuts, for a known opcode; the walk says why an unknown one is refused.
  if (const grammar::OpcodeInfo* info = grammar::FindOpcode(inst.opcode)) {
    out->clear();
    const std::vector<IdOnlyShape>& shapes = IdOnlyShapes();
    if (inst.opcode < shapes.size() && DecodeIdOnly(inst, *info, shapes[inst.opcode], out))
      return true;
    const std::vector<FixedShape>& fixed = FixedShapes();
    if (inst.opcode < fixed.size() && DecodeFixed(inst, fixed[inst.opcode], out)) return true;
    out->clear();
    if (inst.opcode == spv::OpSpecConstantOp && DecodeSpecConstantOpOfIds(inst, shapes, out))
      return true;
  }
  return DecodeOperandsByGrammar(inst, literal_width, out, error);
}

bool DecodeOperandsByGrammar(const Instruction& inst, uint32_t literal_width, OperandList* out,
                             std::string* error) {
  const grammar::OpcodeInfo* info = grammar::FindOpcode(inst.opcode);
  if (!info) {
    *error = "unknown opcode " + std::to_string(inst.opcode);
    return false;
  }
  out->clear();
  OperandDecoder decoder(inst, literal_width, out);
  return decoder.Decode(grammar::OperandSpecs(*info), info->operand_count, error);
}

bool DecodeOperands(const Instruction& inst, uint32_t literal_width, std::vector<Operand>* out,
                    std::string* error) {
  OperandList list;
  bool decoded = DecodeOperands(inst, literal_width, &list, error);
  out->assign(list.begin(), list.end());
  return decoded;
}

}  // namespace glint::spirv
