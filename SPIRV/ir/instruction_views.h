// Typed operand views: small views over one Instruction that name its operands, so
// that passes and analyses say `LoadView(inst).pointer()` instead of `inst.words.at(0)`.
// The aim is that they are the only place in SPIRV/passes and SPIRV/analysis
// that knows at which word an operand sits; the grammar-driven decoders (operands.cpp,
// parser.cpp) stay generic.
//
// Cost: a view is one pointer, built inline, and allocates nothing. Variable-length
// operand lists (access chain indices, call arguments, phi pairs...) come back as a
// WordRange into the instruction's own words, not as a copy.
//
// Constness follows the instruction: a view of a `const Instruction&` gives `const
// uint32_t&` operands; a view of an `Instruction&` gives `uint32_t&`, so a pass that
// rewrites an operand writes through the view (`AccessChainView(chain).indices()[k] =
// clamped;`). Class template argument deduction picks the form (C++17), so
// `LoadView(inst)` works for both.
//
// Checks: each view has `static bool Accepts(spv::Op)`; constructing a view of another
// opcode is a programming error caught by assert() in debug builds. Every accessor reads
// through std::vector::at(), so a missing operand throws std::out_of_range instead of
// reading past the words; RunPassGuarded does not catch it, glint::Process does (an
// "internal error: ..." diagnostic, no output). ViewIf<LoadView>(inst) gives an empty optional for other
// opcodes, for code that asks "is this a load, and if so of what?".
//
// A view holds a pointer to the words, so it is invalid once the instruction is
// destroyed, and a WordRange is invalid once the instruction's words grow or shrink.
#ifndef GLINT_SPIRV_IR_INSTRUCTION_VIEWS_H
#define GLINT_SPIRV_IR_INSTRUCTION_VIEWS_H

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "module.h"

namespace glint::spirv {

// A contiguous run of an instruction's operand words; W is uint32_t or const uint32_t.
template <class W>
class WordRange {
 public:
  WordRange(W* begin, W* end) : begin_(begin), end_(end) {}
  W* begin() const { return begin_; }
  W* end() const { return end_; }
  size_t size() const { return static_cast<size_t>(end_ - begin_); }
  bool empty() const { return begin_ == end_; }
  W& operator[](size_t i) const {
    if (i >= size()) throw std::out_of_range("WordRange index " + std::to_string(i));
    return begin_[i];
  }

 private:
  W* begin_;
  W* end_;
};

// What every view shares: the instruction, its result, and word access for the views
// below. I is Instruction or const Instruction.
template <class I>
class InstructionView {
 public:
  using Word = std::conditional_t<std::is_const_v<I>, const uint32_t, uint32_t>;

  I& instruction() const { return *inst_; }
  spv::Op opcode() const { return inst_->opcode; }
  uint32_t result_id() const { return inst_->result_id; }
  uint32_t type_id() const { return inst_->type_id; }

 protected:
  explicit InstructionView(I& inst) : inst_(&inst) {}
  Word& word(size_t i) const { return inst_->words.at(i); }
  // Words [first, end of instruction); empty when the instruction is shorter.
  WordRange<Word> words_from(size_t first) const {
    Word* data = inst_->words.data();
    size_t size = inst_->words.size();
    return {data + (first < size ? first : size), data + size};
  }
  size_t word_count() const { return inst_->words.size(); }

 private:
  I* inst_;
};

// The view of `inst` when its opcode is one the view accepts, else nullopt:
// `if (auto load = ViewIf<LoadView>(inst)) use(load->pointer());`
template <template <class> class View, class I>
std::optional<View<I>> ViewIf(I& inst) {
  if (!View<I>::Accepts(inst.opcode)) return std::nullopt;
  return View<I>(inst);
}

// Declares the constructor of view `Name`, which checks the opcode in debug builds.
#define GLINT_VIEW_CONSTRUCTOR(Name)                            \
  explicit Name(I& inst) : InstructionView<I>(inst) {           \
    assert(Accepts(inst.opcode) && #Name " of another opcode"); \
  }

// ---------------------------------------------------------------------------------------
// Memory

// OpLoad: pointer, [memory access].
template <class I>
class LoadView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(LoadView)
  static bool Accepts(spv::Op op) { return op == spv::OpLoad; }
  auto& pointer() const { return this->word(0); }
  // The load's own memory-access operand says Volatile (each read may see new bits).
  bool is_volatile() const {
    return this->word_count() > 1 && (this->word(1) & spv::MemoryAccessVolatileMask);
  }
};

// OpStore: pointer, object, [memory access].
template <class I>
class StoreView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(StoreView)
  static bool Accepts(spv::Op op) { return op == spv::OpStore; }
  auto& pointer() const { return this->word(0); }
  auto& object() const { return this->word(1); }
  bool has_memory_access() const { return this->word_count() > 2; }
};

// OpCopyMemory: target, source, [memory access...]; OpCopyMemorySized: target, source,
// size, [memory access...].
template <class I>
class CopyMemoryView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(CopyMemoryView)
  static bool Accepts(spv::Op op) {
    return op == spv::OpCopyMemory || op == spv::OpCopyMemorySized;
  }
  auto& target() const { return this->word(0); }
  auto& source() const { return this->word(1); }
};

// OpVariable: storage class, [initializer].
template <class I>
class VariableView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(VariableView)
  static bool Accepts(spv::Op op) { return op == spv::OpVariable; }
  spv::StorageClass storage_class() const { return spv::StorageClass(this->word(0)); }
  bool has_initializer() const { return this->word_count() > 1; }
  auto& initializer() const { return this->word(1); }
};

// OpAccessChain, OpInBoundsAccessChain: base, indices...; OpPtrAccessChain,
// OpInBoundsPtrAccessChain: base, element, indices.... `IndexWord(k)` is the word
// position of indices()[k], for passes that remember where an index sits.
template <class I>
class AccessChainView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(AccessChainView)
  static bool Accepts(spv::Op op) {
    return op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain ||
           op == spv::OpPtrAccessChain || op == spv::OpInBoundsPtrAccessChain;
  }
  static bool HasElement(spv::Op op) {
    return op == spv::OpPtrAccessChain || op == spv::OpInBoundsPtrAccessChain;
  }
  auto& base() const { return this->word(0); }
  bool has_element() const { return HasElement(this->opcode()); }
  auto& element() const {
    assert(has_element());
    return this->word(1);
  }
  size_t first_index_word() const { return has_element() ? 2 : 1; }
  size_t IndexWord(size_t k) const { return first_index_word() + k; }
  auto indices() const { return this->words_from(first_index_word()); }
  auto& index(size_t k) const { return this->word(IndexWord(k)); }
  size_t index_count() const { return indices().size(); }
};

// An indexed access as Glint's access report numbers its indices ("positions"): every
// index of an access chain, an OpPtrAccessChain's Element first as position 0 (unlike
// AccessChainView::indices()), or the one index of OpVectorExtractDynamic and
// OpVectorInsertDynamic (position 0). object() is the chain's base or the vector. Passes
// that clamp or instrument indices remember (instruction, position) and write back
// through `index(position)`.
template <class I>
class IndexedAccessView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(IndexedAccessView)
  static bool Accepts(spv::Op op) {
    return AccessChainView<I>::Accepts(op) || op == spv::OpVectorExtractDynamic ||
           op == spv::OpVectorInsertDynamic;
  }
  auto& object() const { return this->word(0); }
  auto indices() const { return this->words_from(first_index_word()); }
  auto& index(size_t position) const { return this->word(first_index_word() + position); }
  size_t index_count() const { return indices().size(); }

 private:
  size_t first_index_word() const { return this->opcode() == spv::OpVectorInsertDynamic ? 2 : 1; }
};

// OpArrayLength: structure, member (a literal).
template <class I>
class ArrayLengthView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(ArrayLengthView)
  static bool Accepts(spv::Op op) { return op == spv::OpArrayLength; }
  auto& structure() const { return this->word(0); }
  auto& member() const { return this->word(1); }
};

// ---------------------------------------------------------------------------------------
// Types

// OpTypeInt: width, signedness.
template <class I>
class TypeIntView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(TypeIntView)
  static bool Accepts(spv::Op op) { return op == spv::OpTypeInt; }
  auto& width() const { return this->word(0); }
  bool is_signed() const { return this->word(1) != 0; }
};

// OpTypeFloat: width, [encoding].
template <class I>
class TypeFloatView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(TypeFloatView)
  static bool Accepts(spv::Op op) { return op == spv::OpTypeFloat; }
  auto& width() const { return this->word(0); }
};

// OpTypeVector: component type, component count (a literal).
template <class I>
class TypeVectorView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(TypeVectorView)
  static bool Accepts(spv::Op op) { return op == spv::OpTypeVector; }
  auto& component_type() const { return this->word(0); }
  auto& component_count() const { return this->word(1); }
};

// OpTypeMatrix: column type, column count (a literal).
template <class I>
class TypeMatrixView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(TypeMatrixView)
  static bool Accepts(spv::Op op) { return op == spv::OpTypeMatrix; }
  auto& column_type() const { return this->word(0); }
  auto& column_count() const { return this->word(1); }
};

// OpTypeArray: element type, length (the id of a constant).
template <class I>
class TypeArrayView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(TypeArrayView)
  static bool Accepts(spv::Op op) { return op == spv::OpTypeArray; }
  auto& element_type() const { return this->word(0); }
  auto& length_id() const { return this->word(1); }
};

// OpTypeRuntimeArray: element type.
template <class I>
class TypeRuntimeArrayView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(TypeRuntimeArrayView)
  static bool Accepts(spv::Op op) { return op == spv::OpTypeRuntimeArray; }
  auto& element_type() const { return this->word(0); }
};

// OpTypeStruct: member types....
template <class I>
class TypeStructView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(TypeStructView)
  static bool Accepts(spv::Op op) { return op == spv::OpTypeStruct; }
  auto members() const { return this->words_from(0); }
  auto& member(size_t i) const { return this->word(i); }
  size_t member_count() const { return this->word_count(); }
};

// OpTypePointer: storage class, pointee type.
template <class I>
class TypePointerView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(TypePointerView)
  static bool Accepts(spv::Op op) { return op == spv::OpTypePointer; }
  spv::StorageClass storage_class() const { return spv::StorageClass(this->word(0)); }
  auto& pointee() const { return this->word(1); }
};

// OpTypeImage: sampled type, dim, depth, arrayed, multisampled, sampled, format,
// [access qualifier].
template <class I>
class TypeImageView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(TypeImageView)
  static bool Accepts(spv::Op op) { return op == spv::OpTypeImage; }
  auto& sampled_type() const { return this->word(0); }
  spv::Dim dim() const { return spv::Dim(this->word(1)); }
  auto& depth() const { return this->word(2); }
  bool arrayed() const { return this->word(3) != 0; }
  bool multisampled() const { return this->word(4) != 0; }
  auto& sampled() const { return this->word(5); }  // 0 unknown, 1 sampled, 2 storage
  spv::ImageFormat format() const { return spv::ImageFormat(this->word(6)); }
};

// OpTypeSampledImage: image type.
template <class I>
class TypeSampledImageView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(TypeSampledImageView)
  static bool Accepts(spv::Op op) { return op == spv::OpTypeSampledImage; }
  auto& image_type() const { return this->word(0); }
};

// OpTypeFunction: return type, parameter types....
template <class I>
class TypeFunctionView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(TypeFunctionView)
  static bool Accepts(spv::Op op) { return op == spv::OpTypeFunction; }
  auto& return_type() const { return this->word(0); }
  auto parameter_types() const { return this->words_from(1); }
};

// The type that one index step into a value of type `type` selects: the element of an
// array or runtime array, the component of a vector, the column of a matrix, or, for a
// struct, the type of member `member`. 0 when `type` is none of these or has no such
// member (instruction_views.cpp).
uint32_t IndexedTypeOf(const Instruction& type, uint64_t member = 0);

// ---------------------------------------------------------------------------------------
// Constants

// OpConstant, OpSpecConstant: the value's words (one for types up to 32 bits, two,
// low word first, for 64-bit types).
template <class I>
class ConstantView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(ConstantView)
  static bool Accepts(spv::Op op) { return op == spv::OpConstant || op == spv::OpSpecConstant; }
  auto value_words() const { return this->words_from(0); }
  // The value of a constant of at most 32 bits (the low word of a 64-bit one).
  auto& value32() const { return this->word(0); }
  bool is_64bit() const { return this->word_count() == 2; }
  uint64_t value64() const {
    return is_64bit() ? (uint64_t(this->word(1)) << 32) | this->word(0) : this->word(0);
  }
  // Replaces the value: one word, or two (low word first) when `wide`. Mutable views only.
  void set_value(uint64_t value, bool wide) const {
    auto& words = this->instruction().words;
    words.assign({static_cast<uint32_t>(value)});
    if (wide) words.push_back(static_cast<uint32_t>(value >> 32));
  }
};

// OpConstantComposite, OpSpecConstantComposite: constituents....
template <class I>
class ConstantCompositeView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(ConstantCompositeView)
  static bool Accepts(spv::Op op) {
    return op == spv::OpConstantComposite || op == spv::OpSpecConstantComposite;
  }
  auto constituents() const { return this->words_from(0); }
};

// OpConstantCompositeReplicateEXT, OpSpecConstantCompositeReplicateEXT
// (SPV_EXT_replicated_composites, not in the installed headers, so by number): the one
// value every constituent repeats.
template <class I>
class ConstantCompositeReplicateView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(ConstantCompositeReplicateView)
  static constexpr uint32_t kOpConstant = 4461, kOpSpecConstant = 4462;
  static bool Accepts(spv::Op op) {
    return static_cast<uint32_t>(op) == kOpConstant || static_cast<uint32_t>(op) == kOpSpecConstant;
  }
  auto& value() const { return this->word(0); }
};

// OpSpecConstantOp: the opcode it computes, its operands....
template <class I>
class SpecConstantOpView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(SpecConstantOpView)
  static bool Accepts(spv::Op op) { return op == spv::OpSpecConstantOp; }
  spv::Op operation() const { return spv::Op(this->word(0)); }
  auto operands() const { return this->words_from(1); }
};

// ---------------------------------------------------------------------------------------
// Annotations, debug information and mode settings

// OpDecorate, OpDecorateId, OpDecorateString: target, decoration, then literals, ids or
// (for OpDecorateString) packed strings....
template <class I>
class DecorateView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(DecorateView)
  static bool Accepts(spv::Op op) {
    return op == spv::OpDecorate || op == spv::OpDecorateId || op == spv::OpDecorateString;
  }
  auto& target() const { return this->word(0); }
  spv::Decoration decoration() const { return spv::Decoration(this->word(1)); }
  auto literals() const { return this->words_from(2); }
  auto& literal(size_t i) const { return this->word(2 + i); }
};

// OpMemberDecorate: structure type, member, decoration, literals....
template <class I>
class MemberDecorateView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(MemberDecorateView)
  static bool Accepts(spv::Op op) { return op == spv::OpMemberDecorate; }
  auto& structure() const { return this->word(0); }
  auto& member() const { return this->word(1); }
  spv::Decoration decoration() const { return spv::Decoration(this->word(2)); }
  auto literals() const { return this->words_from(3); }
  auto& literal(size_t i) const { return this->word(3 + i); }
};

// OpName: target, name; OpMemberName: type, member, name.
template <class I>
class NameView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(NameView)
  static bool Accepts(spv::Op op) { return op == spv::OpName || op == spv::OpMemberName; }
  auto& target() const { return this->word(0); }
  auto& member() const {
    assert(this->opcode() == spv::OpMemberName);
    return this->word(1);
  }
  std::string name() const {
    return this->instruction().StringAt(this->opcode() == spv::OpMemberName ? 2 : 1);
  }
};

// OpString: the text.
template <class I>
class StringView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(StringView)
  static bool Accepts(spv::Op op) { return op == spv::OpString; }
  std::string text() const { return this->instruction().StringAt(0); }
};

// OpLine: file (an OpString id), line, column.
template <class I>
class LineView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(LineView)
  static bool Accepts(spv::Op op) { return op == spv::OpLine; }
  auto& file() const { return this->word(0); }
  auto& line() const { return this->word(1); }
  auto& column() const { return this->word(2); }
};

// OpExecutionMode, OpExecutionModeId: entry point, mode, operands (literals or ids)....
template <class I>
class ExecutionModeView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(ExecutionModeView)
  static bool Accepts(spv::Op op) {
    return op == spv::OpExecutionMode || op == spv::OpExecutionModeId;
  }
  auto& entry_point() const { return this->word(0); }
  spv::ExecutionMode mode() const { return spv::ExecutionMode(this->word(1)); }
  auto operands() const { return this->words_from(2); }
  auto& operand(size_t i) const { return this->word(2 + i); }
};

// OpCapability: the capability.
template <class I>
class CapabilityView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(CapabilityView)
  static bool Accepts(spv::Op op) { return op == spv::OpCapability; }
  spv::Capability capability() const { return spv::Capability(this->word(0)); }
};

// OpMemoryModel: addressing model, memory model.
template <class I>
class MemoryModelView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(MemoryModelView)
  static bool Accepts(spv::Op op) { return op == spv::OpMemoryModel; }
  spv::AddressingModel addressing_model() const { return spv::AddressingModel(this->word(0)); }
  spv::MemoryModel memory_model() const { return spv::MemoryModel(this->word(1)); }
};

// OpEntryPoint: execution model, function, name, interface ids.... The one view of an
// entry point: it reads in place (only name() allocates), and a mutable view extends the
// interface.
template <class I>
class EntryPointInterfaceView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(EntryPointInterfaceView)
  static bool Accepts(spv::Op op) { return op == spv::OpEntryPoint; }
  spv::ExecutionModel model() const { return spv::ExecutionModel(this->word(0)); }
  auto& function() const { return this->word(1); }
  std::string name() const { return this->instruction().StringAt(2); }
  auto interface() const { return this->words_from(first_interface_word()); }
  bool lists(uint32_t id) const {
    for (uint32_t listed : interface())
      if (listed == id) return true;
    return false;
  }
  // Appends `id` to the interface (whether or not it is listed already).
  void AddToInterface(uint32_t id) const { this->instruction().words.push_back(id); }

 private:
  // The interface starts after the word that ends the name (the one with a 0 byte); a
  // name without one leaves no interface.
  size_t first_interface_word() const {
    size_t i = 2;
    while (i < this->word_count() && !WordEndsString(this->word(i))) ++i;
    return i + 1;
  }
};

// OpExtInstImport: the set's name.
template <class I>
class ExtInstImportView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(ExtInstImportView)
  static bool Accepts(spv::Op op) { return op == spv::OpExtInstImport; }
  std::string name() const { return this->instruction().StringAt(0); }
};

// ---------------------------------------------------------------------------------------
// Computation

// Operations with two value operands first: arithmetic, bitwise, shifts, comparisons,
// logical and/or/equal. Accepts is by the grammar's shape, not a list: any opcode whose
// first two operands are ids and that has no other required operand.
template <class I>
class BinaryOpView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(BinaryOpView)
  static bool Accepts(spv::Op op);  // defined below the views, it reads the grammar
  auto& left() const { return this->word(0); }
  auto& right() const { return this->word(1); }
};

// Operations with one value operand: negation, not, conversions, bitcast, copy object.
template <class I>
class UnaryOpView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(UnaryOpView)
  static bool Accepts(spv::Op op);
  auto& operand() const { return this->word(0); }
};

// OpSelect: condition, value if true, value if false.
template <class I>
class SelectView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(SelectView)
  static bool Accepts(spv::Op op) { return op == spv::OpSelect; }
  auto& condition() const { return this->word(0); }
  auto& true_value() const { return this->word(1); }
  auto& false_value() const { return this->word(2); }
};

// OpExtInst: set (an OpExtInstImport id), instruction number, operands....
template <class I>
class ExtInstView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(ExtInstView)
  static bool Accepts(spv::Op op) { return op == spv::OpExtInst; }
  auto& set() const { return this->word(0); }
  auto& instruction_number() const { return this->word(1); }
  auto operands() const { return this->words_from(2); }
  auto& operand(size_t i) const { return this->word(2 + i); }
  size_t operand_count() const { return operands().size(); }
};

// OpFunctionCall: callee, arguments....
template <class I>
class FunctionCallView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(FunctionCallView)
  static bool Accepts(spv::Op op) { return op == spv::OpFunctionCall; }
  auto& callee() const { return this->word(0); }
  auto arguments() const { return this->words_from(1); }
};

// OpFunction: function control, function type.
template <class I>
class FunctionView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(FunctionView)
  static bool Accepts(spv::Op op) { return op == spv::OpFunction; }
  auto& control() const { return this->word(0); }
  auto& function_type() const { return this->word(1); }
};

// OpCompositeExtract: composite, literal indices....
template <class I>
class CompositeExtractView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(CompositeExtractView)
  static bool Accepts(spv::Op op) { return op == spv::OpCompositeExtract; }
  auto& composite() const { return this->word(0); }
  auto indices() const { return this->words_from(1); }
  auto& index(size_t k) const { return this->word(1 + k); }
};

// OpCompositeInsert: object, composite, literal indices....
template <class I>
class CompositeInsertView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(CompositeInsertView)
  static bool Accepts(spv::Op op) { return op == spv::OpCompositeInsert; }
  auto& object() const { return this->word(0); }
  auto& composite() const { return this->word(1); }
  auto indices() const { return this->words_from(2); }
  auto& index(size_t k) const { return this->word(2 + k); }
};

// OpCompositeConstruct: constituents....
template <class I>
class CompositeConstructView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(CompositeConstructView)
  static bool Accepts(spv::Op op) { return op == spv::OpCompositeConstruct; }
  auto constituents() const { return this->words_from(0); }
  auto& constituent(size_t i) const { return this->word(i); }
};

// OpVectorShuffle: vector 1, vector 2, component selectors.... A selector below the
// first vector's size picks from it, the rest from the second; 0xFFFFFFFF is undefined.
template <class I>
class VectorShuffleView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(VectorShuffleView)
  static bool Accepts(spv::Op op) { return op == spv::OpVectorShuffle; }
  auto& vector1() const { return this->word(0); }
  auto& vector2() const { return this->word(1); }
  auto components() const { return this->words_from(2); }
  auto& component(size_t k) const { return this->word(2 + k); }
};

// OpVectorExtractDynamic: vector, index.
template <class I>
class VectorExtractDynamicView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(VectorExtractDynamicView)
  static bool Accepts(spv::Op op) { return op == spv::OpVectorExtractDynamic; }
  auto& vector() const { return this->word(0); }
  auto& index() const { return this->word(1); }
};

// OpVectorInsertDynamic: vector, component, index.
template <class I>
class VectorInsertDynamicView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(VectorInsertDynamicView)
  static bool Accepts(spv::Op op) { return op == spv::OpVectorInsertDynamic; }
  auto& vector() const { return this->word(0); }
  auto& component() const { return this->word(1); }
  auto& index() const { return this->word(2); }
};

// OpBitFieldSExtract, OpBitFieldUExtract: base, offset, count.
template <class I>
class BitFieldExtractView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(BitFieldExtractView)
  static bool Accepts(spv::Op op) {
    return op == spv::OpBitFieldSExtract || op == spv::OpBitFieldUExtract;
  }
  auto& base() const { return this->word(0); }
  auto& offset() const { return this->word(1); }
  auto& count() const { return this->word(2); }
};

// OpBitFieldInsert: base with `count` bits from `offset` replaced by insert's low bits.
template <class I>
class BitFieldInsertView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(BitFieldInsertView)
  static bool Accepts(spv::Op op) { return op == spv::OpBitFieldInsert; }
  auto& base() const { return this->word(0); }
  auto& insert() const { return this->word(1); }
  auto& offset() const { return this->word(2); }
  auto& count() const { return this->word(3); }
};

// ---------------------------------------------------------------------------------------
// Control flow

// OpPhi: (value, parent block) pairs.
template <class I>
class PhiView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(PhiView)
  static bool Accepts(spv::Op op) { return op == spv::OpPhi; }
  size_t pair_count() const { return this->word_count() / 2; }
  auto& value(size_t pair) const { return this->word(2 * pair); }
  auto& parent(size_t pair) const { return this->word(2 * pair + 1); }
};

// OpBranch: target label.
template <class I>
class BranchView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(BranchView)
  static bool Accepts(spv::Op op) { return op == spv::OpBranch; }
  auto& target() const { return this->word(0); }
};

// OpBranchConditional: condition, true label, false label, [weights].
template <class I>
class BranchConditionalView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(BranchConditionalView)
  static bool Accepts(spv::Op op) { return op == spv::OpBranchConditional; }
  auto& condition() const { return this->word(0); }
  auto& true_label() const { return this->word(1); }
  auto& false_label() const { return this->word(2); }
};

// OpSwitch: selector, default label, (literal, label) pairs. Case literals are one
// word here; a 64-bit selector's cases take two (pass `literal_width`).
template <class I>
class SwitchView : public InstructionView<I> {
 public:
  explicit SwitchView(I& inst, uint32_t literal_width = 1)
      : InstructionView<I>(inst), width_(literal_width) {
    assert(Accepts(inst.opcode) && "SwitchView of another opcode");
  }
  static bool Accepts(spv::Op op) { return op == spv::OpSwitch; }
  auto& selector() const { return this->word(0); }
  auto& default_label() const { return this->word(1); }
  size_t case_count() const {
    return this->word_count() < 2 ? 0 : (this->word_count() - 2) / (width_ + 1);
  }
  // The low word of case k's literal, and its label.
  auto& case_literal(size_t k) const { return this->word(2 + k * (width_ + 1)); }
  auto& case_label(size_t k) const { return this->word(2 + k * (width_ + 1) + width_); }

 private:
  uint32_t width_;
};

// OpLoopMerge: merge block, continue target, loop control, [parameters].
template <class I>
class LoopMergeView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(LoopMergeView)
  static bool Accepts(spv::Op op) { return op == spv::OpLoopMerge; }
  auto& merge_block() const { return this->word(0); }
  auto& continue_target() const { return this->word(1); }
  auto& control() const { return this->word(2); }
};

// OpSelectionMerge: merge block, selection control.
template <class I>
class SelectionMergeView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(SelectionMergeView)
  static bool Accepts(spv::Op op) { return op == spv::OpSelectionMerge; }
  auto& merge_block() const { return this->word(0); }
  auto& control() const { return this->word(1); }
};

// OpReturnValue: value.
template <class I>
class ReturnValueView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(ReturnValueView)
  static bool Accepts(spv::Op op) { return op == spv::OpReturnValue; }
  auto& value() const { return this->word(0); }
};

// ---------------------------------------------------------------------------------------
// Synchronisation, subgroups and images

// OpControlBarrier: execution scope, memory scope, semantics (all ids of constants).
template <class I>
class ControlBarrierView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(ControlBarrierView)
  static bool Accepts(spv::Op op) { return op == spv::OpControlBarrier; }
  auto& execution_scope() const { return this->word(0); }
  auto& memory_scope() const { return this->word(1); }
  auto& semantics() const { return this->word(2); }
};

// OpMemoryBarrier: memory scope, semantics.
template <class I>
class MemoryBarrierView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(MemoryBarrierView)
  static bool Accepts(spv::Op op) { return op == spv::OpMemoryBarrier; }
  auto& memory_scope() const { return this->word(0); }
  auto& semantics() const { return this->word(1); }
};

// Instructions whose first operand is an execution scope id (OpGroup*, OpGroupNonUniform*
// and the like): the scope only. Accepts reads the grammar (first operand kind IdScope).
template <class I>
class ExecutionScopedView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(ExecutionScopedView)
  static bool Accepts(spv::Op op);
  auto& execution_scope() const { return this->word(0); }
};

// Atomic instructions (the grammar's class "Atomic": OpAtomicLoad ... OpAtomicXor, the
// flag operations, OpAtomicF{Min,Max,Add}EXT): pointer first, then scope and semantics.
template <class I>
class AtomicView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(AtomicView)
  static bool Accepts(spv::Op op);
  auto& pointer() const { return this->word(0); }
};

// Group operations with a GroupOperation operand (OpGroupIAdd..., OpGroupNonUniformIAdd...,
// OpGroupNonUniformBallotBitCount): execution scope, operation, value.... Accepts reads the
// grammar (second operand kind GroupOperation).
template <class I>
class GroupOperationView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(GroupOperationView)
  static bool Accepts(spv::Op op);
  auto& execution_scope() const { return this->word(0); }
  spv::GroupOperation operation() const { return spv::GroupOperation(this->word(1)); }
};

// A read of one invocation's value: OpGroupNonUniformBroadcast (execution scope, value,
// id) and OpSubgroupReadInvocationKHR (value, index; the subgroup is implied).
template <class I>
class BroadcastView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(BroadcastView)
  static bool Accepts(spv::Op op) {
    return op == spv::OpGroupNonUniformBroadcast || op == spv::OpSubgroupReadInvocationKHR;
  }
  bool has_scope() const { return this->opcode() == spv::OpGroupNonUniformBroadcast; }
  auto& execution_scope() const {
    assert(has_scope());
    return this->word(0);
  }
  auto& value() const { return this->word(has_scope() ? 1 : 0); }
  auto& lane() const { return this->word(has_scope() ? 2 : 1); }
};

// The word position of an image instruction's optional Image Operands mask (from the
// grammar); 0 when the opcode has none (instruction_views.cpp).
size_t ImageOperandsPosition(spv::Op op);

// Image instructions whose first two operands are the image (or sampled image) and the
// coordinate: OpImageSample*, OpImageFetch, OpImageGather, OpImageDrefGather, OpImageRead,
// OpImageWrite, OpImageSparse*, OpImageTexelPointer, OpImageSampleFootprintNV. Accepts
// reads the grammar (operands named Image / Sampled Image, then Coordinate).
template <class I>
class ImageAccessView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(ImageAccessView)
  static bool Accepts(spv::Op op);
  auto& image() const { return this->word(0); }
  auto& coordinate() const { return this->word(1); }
  // The optional Image Operands mask and the operands it adds follow the fixed operands
  // (a Dref, a texel, a component...); their word position depends on the opcode.
  size_t image_operands_word() const { return ImageOperandsPosition(this->opcode()); }
  bool has_image_operands() const {
    size_t at = image_operands_word();
    return at != 0 && this->word_count() > at;
  }
  auto& image_operands() const { return this->word(image_operands_word()); }
};

// The optional Image Operands of an image instruction: the mask and, for each bit set,
// the operand words it adds, in bit order (both from the grammar). A set bit the grammar
// does not know makes the operands not understood(), and operand() refuses every bit
// above it.
template <class I>
class ImageOperandsView : public InstructionView<I> {
 public:
  GLINT_VIEW_CONSTRUCTOR(ImageOperandsView)
  static bool Accepts(spv::Op op) { return ImageOperandsPosition(op) != 0; }
  bool present() const { return this->word_count() > mask_word(); }
  uint32_t mask() const { return present() ? this->word(mask_word()) : 0; }
  bool has(uint32_t bit) const { return (mask() & bit) != 0; }
  bool understood() const { return OperandWord(0) != 0; }
  // The (first) operand word of `bit`, which must be set: the level of Lod, the sample of
  // Sample, the offset of Offset.... Throws std::out_of_range when it cannot be placed.
  auto& operand(uint32_t bit) const {
    size_t at = has(bit) ? OperandWord(bit) : 0;
    if (at == 0) throw std::out_of_range("image operand not present or not understood");
    return this->word(at);
  }
  // Drops `bit` and its operand words; the mask goes too once no bit is left. Mutable
  // views of understood operands only.
  void Remove(uint32_t bit) const;

 private:
  size_t mask_word() const { return ImageOperandsPosition(this->opcode()); }
  // The word of `bit`'s first operand, counting the operands of the set bits below it;
  // with bit 0, one past the last operand. 0 when a bit on the way is not understood.
  size_t OperandWord(uint32_t bit) const;
};

#undef GLINT_VIEW_CONSTRUCTOR

// The grammar-shaped opcode sets behind the Accepts above (instruction_views.cpp).
bool IsBinaryOperation(spv::Op op);
bool IsUnaryOperation(spv::Op op);
bool HasExecutionScopeFirst(spv::Op op);
bool IsImageCoordinateAccess(spv::Op op);
bool IsAtomicOperation(spv::Op op);
bool HasGroupOperationSecond(spv::Op op);
// Operand words image operand `bit` adds (Grad: 2), from the grammar; -1 for a bit the
// grammar does not know.
int ImageOperandWordCount(uint32_t bit);

template <class I>
bool BinaryOpView<I>::Accepts(spv::Op op) {
  return IsBinaryOperation(op);
}
template <class I>
bool UnaryOpView<I>::Accepts(spv::Op op) {
  return IsUnaryOperation(op);
}
template <class I>
bool ExecutionScopedView<I>::Accepts(spv::Op op) {
  return HasExecutionScopeFirst(op);
}
template <class I>
bool ImageAccessView<I>::Accepts(spv::Op op) {
  return IsImageCoordinateAccess(op);
}
template <class I>
bool AtomicView<I>::Accepts(spv::Op op) {
  return IsAtomicOperation(op);
}
template <class I>
bool GroupOperationView<I>::Accepts(spv::Op op) {
  return HasGroupOperationSecond(op);
}

template <class I>
size_t ImageOperandsView<I>::OperandWord(uint32_t bit) const {
  size_t word = mask_word() + 1;
  uint32_t below = bit ? mask() & (bit - 1) : mask();
  for (uint32_t each = 1; each != 0 && below; each <<= 1) {
    if (!(below & each)) continue;
    below &= ~each;
    int count = ImageOperandWordCount(each);
    if (count < 0) return 0;
    word += static_cast<size_t>(count);
  }
  return word;
}

template <class I>
void ImageOperandsView<I>::Remove(uint32_t bit) const {
  if (!has(bit)) return;
  auto& words = this->instruction().words;
  size_t first = OperandWord(bit);
  int count = ImageOperandWordCount(bit);
  if (first == 0 || count < 0) throw std::out_of_range("image operand not understood");
  words.erase(words.begin() + first, words.begin() + first + count);
  this->word(mask_word()) &= ~bit;
  if (this->word(mask_word()) == 0 && words.size() == mask_word() + 1) words.pop_back();
}

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_INSTRUCTION_VIEWS_H
