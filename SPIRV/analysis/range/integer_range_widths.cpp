// Integers of other widths (full mode): 8- and 16-bit values, and OpUConvert /
// OpSConvert between widths.
//
// What it proves:
//   - every 8- or 16-bit integer value lies in its type's range (a u8 loaded from a
//     buffer is in [0, 255], an i16 in [-32768, 32767]); a constant is its value, a copy
//     its operand's range, and a conversion the rule below. No other narrow operation
//     is followed: its result gets the type's range, which holds whatever it computed.
//   - OpUConvert / OpSConvert (to 8, 16 or 32 bits): the operand's bits read unsigned
//     (UConvert) or signed (SConvert) at the operand's width give a value v; the result
//     is v at the result's width, zero- or sign-extended, or its low bits (truncation).
//     When v's range fits the result type's reading at the result's width, the result
//     has exactly that range (extension keeps a value; truncation keeps a value that
//     fits, in two's complement either way). Otherwise a narrow result has its type's
//     range and a 32-bit one has none.
// Assumes: the range of a 32-bit operand (the rest of the analysis).
// Refuses, naming why: 64-bit integers ("64-bit integers have no range"), a conversion
// result that may not fit ("... may not fit the result type").
// Ranges of narrow values are IntegerRange in the value's own reading; only the
// conversions and access chains read them (no 32-bit operator takes a narrow operand,
// and guards narrow 32-bit values only).
#include "SPIRV/analysis/range/integer_range_widths.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

namespace {

int64_t WidthMin(bool is_signed, uint32_t width) {
  return is_signed ? -(int64_t(1) << (width - 1)) : 0;
}
int64_t WidthMax(bool is_signed, uint32_t width) {
  return is_signed ? (int64_t(1) << (width - 1)) - 1 : (int64_t(1) << width) - 1;
}
IntegerRange WholeWidth(bool is_signed, uint32_t width) {
  return IntegerRange::Of(is_signed, WidthMin(is_signed, width), WidthMax(is_signed, width));
}
bool FitsWidth(const IntegerRange& range, bool is_signed, uint32_t width) {
  return range.valid && range.min >= WidthMin(is_signed, width) &&
         range.max <= WidthMax(is_signed, width);
}

}  // namespace

bool IntegerWidths::IntWidth(uint32_t type_id, bool* is_signed, uint32_t* width) const {
  const Instruction* type = inputs_.def_use.Definition(type_id);
  if (!type || type->opcode != spv::OpTypeInt || type->words.size() < 2) return false;
  TypeIntView int_type(*type);
  *width = int_type.width();
  *is_signed = int_type.is_signed();
  return true;
}

// The operand of a full-mode width conversion of integers; 0 for anything else.
uint32_t IntegerWidths::WidthConversionSource(const Instruction& def) const {
  if (!Full() || (def.opcode != spv::OpUConvert && def.opcode != spv::OpSConvert)) return 0;
  bool is_signed = false;
  uint32_t width = 0;
  uint32_t source = UnaryOpView(def).operand();
  const Instruction* source_def = inputs_.def_use.Definition(source);
  if (!source_def || !IntWidth(source_def->type_id, &is_signed, &width)) return 0;
  return source;
}

// A value of an 8- or 16-bit integer type (see the file comment).
IntegerRange IntegerWidths::NarrowValue(const Instruction& def, bool is_signed, uint32_t width) {
  IntegerRange whole = WholeWidth(is_signed, width);
  switch (def.opcode) {
    case spv::OpConstantNull:
      return IntegerRange::Of(is_signed, 0, 0);
    case spv::OpConstant: {
      // The literal word holds the value's low bits (sign-extended for signed types).
      int64_t bits = ConstantView(def).value32() & uint32_t(WidthMax(false, width));
      if (is_signed && bits > WidthMax(true, width)) bits -= int64_t(1) << width;
      return IntegerRange::Of(is_signed, bits, bits);
    }
    case spv::OpCopyObject: {
      IntegerRange copied = Operand(UnaryOpView(def).operand());
      return FitsWidth(copied, is_signed, width) ? copied : whole;
    }
    case spv::OpUConvert:
    case spv::OpSConvert: {
      IntegerRange converted = WidthConversion(def, is_signed, width);
      return converted.valid ? converted : whole;
    }
    default:
      return whole;  // whatever it computed, a value of the type is in its range
  }
}

// OpUConvert / OpSConvert to `width` bits (see the file comment).
IntegerRange IntegerWidths::WidthConversion(const Instruction& def, bool is_signed,
                                            uint32_t width) {
  uint32_t source = WidthConversionSource(def);
  bool source_signed = false;
  uint32_t source_width = 0;
  if (!source ||
      !IntWidth(inputs_.def_use.TypeOf(source)->result_id, &source_signed, &source_width))
    return IntegerRange::None(UnsupportedOpcode(def.opcode));
  if (source_width == 64) return IntegerRange::None("conversion of a 64-bit integer (no range)");
  bool read_signed = def.opcode == spv::OpSConvert;
  IntegerRange value = Operand(source);  // in the source type's reading
  // A range that lies in both readings is the same numbers either way; otherwise all
  // the operand's width allows in the reading the conversion uses.
  if (!FitsWidth(value, read_signed, source_width)) value = WholeWidth(read_signed, source_width);
  if (!FitsWidth(value, is_signed, width))
    return IntegerRange::None(std::string(grammar::OpcodeName(def.opcode)) +
                              " result may not fit the result type");
  return IntegerRange::Of(is_signed, value.min, value.max);
}

void IntegerWidths::Register(Table& table) { table[size_t(ValueKind::kWidthConversion)] = this; }

DependencyIds IntegerWidths::Dependencies(const Instruction& def, ValueKind) {
  if (uint32_t source = WidthConversionSource(def)) return {source};
  return {};
}

// A conversion to 32 bits (narrow results are NarrowValue's, asked by the evaluator).
IntegerRange IntegerWidths::Range(const Instruction& def, ValueKind, bool is_signed) {
  return WidthConversion(def, is_signed, 32);
}

}  // namespace glint::spirv
