#include "operands.h"

#include <deque>

namespace glint::spirv {
namespace {

using grammar::Category;
using grammar::OperandKind;
using grammar::OperandSpec;
using grammar::Quantifier;

class OperandDecoder {
 public:
  OperandDecoder(const Instruction& inst, uint32_t literal_width, std::vector<Operand>* out)
      : inst_(inst), literal_width_(literal_width), out_(out) {}

  bool Decode(const OperandSpec* specs, size_t count, std::string* error) {
    std::deque<OperandSpec> pending(specs, specs + count);
    while (!pending.empty()) {
      OperandSpec spec = pending.front();
      pending.pop_front();
      if (next_ >= inst_.words.size()) {
        if (spec.quantifier != Quantifier::kOne) continue;
        *error = std::string("missing operand ") + grammar::KindInfo(spec.kind).name;
        return false;
      }
      if (spec.quantifier == Quantifier::kVariadic) pending.push_front(spec);
      std::vector<OperandSpec> added;
      if (!DecodeOne(spec.kind, &added, error)) return false;
      pending.insert(pending.begin(), added.begin(), added.end());
    }
    if (next_ != inst_.words.size()) {
      *error = "too many operand words";
      return false;
    }
    return true;
  }

 private:
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
    for (uint32_t i = next_; i < inst_.words.size(); ++i) {
      uint32_t w = inst_.words[i];
      if ((w & 0xff) == 0 || (w & 0xff00) == 0 || (w & 0xff0000) == 0 || (w & 0xff000000) == 0)
        return Emit(kind, false, i - next_ + 1, error);
    }
    *error = "literal string is not terminated";
    return false;
  }

  bool DecodeOne(OperandKind kind, std::vector<OperandSpec>* added, std::string* error) {
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
        added->insert(added->end(), params, params + count);
        return true;
      }
      case Category::kBitEnum: {
        uint32_t mask = inst_.words[next_];
        if (!Emit(kind, false, 1, error)) return false;
        for (uint32_t bit = 0; bit < 32; ++bit) {
          if (!(mask & (1u << bit))) continue;
          uint16_t count = 0;
          const OperandSpec* params = grammar::EnumerantParameters(kind, 1u << bit, &count);
          added->insert(added->end(), params, params + count);
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
    return Decode(grammar::OperandSpecs(*info), info->operand_count, error);
  }

  const Instruction& inst_;
  uint32_t literal_width_;
  std::vector<Operand>* out_;
  uint32_t next_ = 0;
};

}  // namespace

bool DecodeOperands(const Instruction& inst, uint32_t literal_width, std::vector<Operand>* out,
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

}  // namespace glint::spirv
