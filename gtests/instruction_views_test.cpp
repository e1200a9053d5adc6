// Tests of the typed operand views (SPIRV/ir/instruction_views.h): each accessor names
// the operand it claims to on hand-built instructions, writes go through mutable views,
// the grammar-shaped opcode sets hold what they should, and on a module glslang produced
// the views read the same operands the assembly text shows.
#include <gtest/gtest.h>

#include <type_traits>

#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/parser.h"
#include "support/test_support.h"

namespace glint::spirv {
namespace {

// Views of a const instruction cannot write; views of a mutable one can.
static_assert(std::is_same_v<decltype(LoadView(std::declval<const Instruction&>()).pointer()),
                             const uint32_t&>);
static_assert(
    std::is_same_v<decltype(LoadView(std::declval<Instruction&>()).pointer()), uint32_t&>);
static_assert(sizeof(AccessChainView<const Instruction>) == sizeof(void*));

TEST(InstructionViews, Memory_NameTheirOperands) {
  const Instruction load(spv::OpLoad, 5, 10, {7, spv::MemoryAccessVolatileMask});
  EXPECT_EQ(LoadView(load).pointer(), 7u);
  EXPECT_EQ(LoadView(load).result_id(), 10u);
  EXPECT_TRUE(LoadView(load).is_volatile());
  const Instruction plain_load(spv::OpLoad, 5, 11, {7});
  EXPECT_FALSE(LoadView(plain_load).is_volatile());
  const Instruction aligned_load(spv::OpLoad, 5, 12, {7, spv::MemoryAccessAlignedMask, 4});
  EXPECT_FALSE(LoadView(aligned_load).is_volatile());
  const Instruction store(spv::OpStore, 0, 0, {7, 11});
  EXPECT_EQ(StoreView(store).pointer(), 7u);
  EXPECT_EQ(StoreView(store).object(), 11u);
  const Instruction plain(spv::OpVariable, 3, 7, {spv::StorageClassFunction});
  EXPECT_EQ(VariableView(plain).storage_class(), spv::StorageClassFunction);
  EXPECT_FALSE(VariableView(plain).has_initializer());
  const Instruction initialized(spv::OpVariable, 3, 8, {spv::StorageClassPrivate, 12});
  EXPECT_TRUE(VariableView(initialized).has_initializer());
  EXPECT_EQ(VariableView(initialized).initializer(), 12u);
}

TEST(InstructionViews, AccessChain_IndicesAndElement) {
  const Instruction chain(spv::OpAccessChain, 4, 20, {7, 30, 31, 32});
  AccessChainView view(chain);
  EXPECT_EQ(view.base(), 7u);
  EXPECT_FALSE(view.has_element());
  ASSERT_EQ(view.index_count(), 3u);
  EXPECT_EQ(view.indices()[0], 30u);
  EXPECT_EQ(view.index(2), 32u);
  EXPECT_EQ(view.IndexWord(1), 2u);
  std::vector<uint32_t> seen(view.indices().begin(), view.indices().end());
  EXPECT_EQ(seen, (std::vector<uint32_t>{30, 31, 32}));
  EXPECT_THROW(view.indices()[3], std::out_of_range);

  const Instruction ptr_chain(spv::OpPtrAccessChain, 4, 21, {7, 40, 41});
  AccessChainView ptr(ptr_chain);
  EXPECT_TRUE(ptr.has_element());
  EXPECT_EQ(ptr.element(), 40u);
  ASSERT_EQ(ptr.index_count(), 1u);
  EXPECT_EQ(ptr.index(0), 41u);
  EXPECT_EQ(ptr.IndexWord(0), 2u);

  const Instruction bare(spv::OpInBoundsAccessChain, 4, 22, {7});
  EXPECT_TRUE(AccessChainView(bare).indices().empty());
}

TEST(InstructionViews, MutableViews_WriteTheInstruction) {
  Instruction chain(spv::OpAccessChain, 4, 20, {7, 30, 31});
  AccessChainView(chain).indices()[1] = 99;
  AccessChainView(chain).base() = 8;
  EXPECT_EQ(chain.words, (std::vector<uint32_t>{8, 30, 99}));
  Instruction phi(spv::OpPhi, 3, 9, {1, 2, 3, 4});
  PhiView(phi).value(1) = 5;
  EXPECT_EQ(phi.words, (std::vector<uint32_t>{1, 2, 5, 4}));
  Instruction image(spv::OpImageFetch, 3, 9, {1, 2});
  ImageAccessView(image).coordinate() = 6;
  EXPECT_EQ(image.words, (std::vector<uint32_t>{1, 6}));
}

TEST(InstructionViews, Types_NameTheirOperands) {
  const Instruction int_type(spv::OpTypeInt, 0, 2, {32, 1});
  EXPECT_EQ(TypeIntView(int_type).width(), 32u);
  EXPECT_TRUE(TypeIntView(int_type).is_signed());
  const Instruction vector(spv::OpTypeVector, 0, 3, {2, 4});
  EXPECT_EQ(TypeVectorView(vector).component_type(), 2u);
  EXPECT_EQ(TypeVectorView(vector).component_count(), 4u);
  const Instruction matrix(spv::OpTypeMatrix, 0, 4, {3, 2});
  EXPECT_EQ(TypeMatrixView(matrix).column_type(), 3u);
  EXPECT_EQ(TypeMatrixView(matrix).column_count(), 2u);
  const Instruction array(spv::OpTypeArray, 0, 5, {2, 17});
  EXPECT_EQ(TypeArrayView(array).element_type(), 2u);
  EXPECT_EQ(TypeArrayView(array).length_id(), 17u);
  const Instruction runtime(spv::OpTypeRuntimeArray, 0, 6, {3});
  EXPECT_EQ(TypeRuntimeArrayView(runtime).element_type(), 3u);
  const Instruction structure(spv::OpTypeStruct, 0, 7, {2, 5, 6});
  EXPECT_EQ(TypeStructView(structure).member_count(), 3u);
  EXPECT_EQ(TypeStructView(structure).member(1), 5u);
  const Instruction pointer(spv::OpTypePointer, 0, 8, {spv::StorageClassWorkgroup, 5});
  EXPECT_EQ(TypePointerView(pointer).storage_class(), spv::StorageClassWorkgroup);
  EXPECT_EQ(TypePointerView(pointer).pointee(), 5u);
  const Instruction image(spv::OpTypeImage, 0, 9,
                          {10, spv::Dim2D, 0, 1, 0, 2, spv::ImageFormatR32ui});
  TypeImageView image_view(image);
  EXPECT_EQ(image_view.sampled_type(), 10u);
  EXPECT_EQ(image_view.dim(), spv::Dim2D);
  EXPECT_TRUE(image_view.arrayed());
  EXPECT_FALSE(image_view.multisampled());
  EXPECT_EQ(image_view.sampled(), 2u);
  EXPECT_EQ(image_view.format(), spv::ImageFormatR32ui);
}

TEST(InstructionViews, Constants_ValueWords) {
  const Instruction small(spv::OpConstant, 2, 11, {0xfffffff0u});
  EXPECT_EQ(ConstantView(small).value32(), 0xfffffff0u);
  EXPECT_FALSE(ConstantView(small).is_64bit());
  EXPECT_EQ(ConstantView(small).value64(), 0xfffffff0u);
  const Instruction wide(spv::OpConstant, 2, 12, {0x89abcdefu, 0x01234567u});
  EXPECT_TRUE(ConstantView(wide).is_64bit());
  EXPECT_EQ(ConstantView(wide).value64(), 0x0123456789abcdefull);
  const Instruction composite(spv::OpConstantComposite, 3, 13, {11, 11, 12});
  EXPECT_EQ(ConstantCompositeView(composite).constituents().size(), 3u);
  const Instruction op(spv::OpSpecConstantOp, 2, 14, {spv::OpIAdd, 11, 12});
  EXPECT_EQ(SpecConstantOpView(op).operation(), spv::OpIAdd);
  EXPECT_EQ(SpecConstantOpView(op).operands()[1], 12u);
}

TEST(InstructionViews, Annotations_AndDebug) {
  const Instruction decorate(spv::OpDecorate, 0, 0,
                             {7, spv::DecorationBuiltIn, spv::BuiltInLocalInvocationId});
  EXPECT_EQ(DecorateView(decorate).target(), 7u);
  EXPECT_EQ(DecorateView(decorate).decoration(), spv::DecorationBuiltIn);
  EXPECT_EQ(DecorateView(decorate).literal(0), uint32_t(spv::BuiltInLocalInvocationId));
  const Instruction member(spv::OpMemberDecorate, 0, 0, {5, 2, spv::DecorationOffset, 16});
  MemberDecorateView member_view(member);
  EXPECT_EQ(member_view.structure(), 5u);
  EXPECT_EQ(member_view.member(), 2u);
  EXPECT_EQ(member_view.decoration(), spv::DecorationOffset);
  EXPECT_EQ(member_view.literals()[0], 16u);
  std::vector<uint32_t> name_words = EncodeString("values");
  name_words.insert(name_words.begin(), {5, 1});
  const Instruction member_name(spv::OpMemberName, 0, 0, name_words);
  EXPECT_EQ(NameView(member_name).target(), 5u);
  EXPECT_EQ(NameView(member_name).member(), 1u);
  EXPECT_EQ(NameView(member_name).name(), "values");
  const Instruction line(spv::OpLine, 0, 0, {3, 14, 9});
  EXPECT_EQ(LineView(line).file(), 3u);
  EXPECT_EQ(LineView(line).line(), 14u);
  EXPECT_EQ(LineView(line).column(), 9u);
  const Instruction mode(spv::OpExecutionMode, 0, 0, {4, spv::ExecutionModeLocalSize, 8, 4, 1});
  EXPECT_EQ(ExecutionModeView(mode).entry_point(), 4u);
  EXPECT_EQ(ExecutionModeView(mode).mode(), spv::ExecutionModeLocalSize);
  EXPECT_EQ(ExecutionModeView(mode).operand(1), 4u);
}

// The interface starts after the name's last word, whatever the name's length.
TEST(InstructionViews, EntryPoint_InterfaceAfterTheName) {
  for (const char* name : {"", "abc", "main", "longer_name"}) {
    std::vector<uint32_t> words = EncodeString(name);
    words.insert(words.begin(), {spv::ExecutionModelGLCompute, 4});
    words.insert(words.end(), {20, 21});
    const Instruction entry(spv::OpEntryPoint, 0, 0, words);
    EntryPointInterfaceView view(entry);
    EXPECT_EQ(view.model(), spv::ExecutionModelGLCompute);
    EXPECT_EQ(view.function(), 4u);
    EXPECT_EQ(view.name(), name);
    std::vector<uint32_t> interface(view.interface().begin(), view.interface().end());
    EXPECT_EQ(interface, (std::vector<uint32_t>{20, 21})) << name;
  }
}

TEST(InstructionViews, Computation_NameTheirOperands) {
  const Instruction add(spv::OpIAdd, 2, 20, {11, 12});
  EXPECT_EQ(BinaryOpView(add).left(), 11u);
  EXPECT_EQ(BinaryOpView(add).right(), 12u);
  const Instruction negate(spv::OpSNegate, 2, 21, {11});
  EXPECT_EQ(UnaryOpView(negate).operand(), 11u);
  const Instruction select(spv::OpSelect, 2, 22, {30, 11, 12});
  EXPECT_EQ(SelectView(select).condition(), 30u);
  EXPECT_EQ(SelectView(select).true_value(), 11u);
  EXPECT_EQ(SelectView(select).false_value(), 12u);
  const Instruction ext(spv::OpExtInst, 2, 23, {1, 41, 11, 12, 13});
  ExtInstView ext_view(ext);
  EXPECT_EQ(ext_view.set(), 1u);
  EXPECT_EQ(ext_view.instruction_number(), 41u);
  EXPECT_EQ(ext_view.operand_count(), 3u);
  EXPECT_EQ(ext_view.operand(2), 13u);
  const Instruction call(spv::OpFunctionCall, 2, 24, {50, 11, 12});
  EXPECT_EQ(FunctionCallView(call).callee(), 50u);
  EXPECT_EQ(FunctionCallView(call).arguments().size(), 2u);
  const Instruction extract(spv::OpCompositeExtract, 2, 25, {60, 1, 2});
  EXPECT_EQ(CompositeExtractView(extract).composite(), 60u);
  EXPECT_EQ(CompositeExtractView(extract).index(1), 2u);
  const Instruction shuffle(spv::OpVectorShuffle, 3, 26, {60, 61, 3, 0});
  EXPECT_EQ(VectorShuffleView(shuffle).vector2(), 61u);
  EXPECT_EQ(VectorShuffleView(shuffle).component(0), 3u);
  const Instruction dynamic(spv::OpVectorExtractDynamic, 2, 27, {60, 11});
  EXPECT_EQ(VectorExtractDynamicView(dynamic).vector(), 60u);
  EXPECT_EQ(VectorExtractDynamicView(dynamic).index(), 11u);
  const Instruction bits(spv::OpBitFieldUExtract, 2, 28, {11, 12, 13});
  EXPECT_EQ(BitFieldExtractView(bits).offset(), 12u);
  EXPECT_EQ(BitFieldExtractView(bits).count(), 13u);
}

TEST(InstructionViews, ControlFlow_NameTheirOperands) {
  const Instruction phi(spv::OpPhi, 2, 30, {11, 100, 12, 101});
  PhiView phi_view(phi);
  ASSERT_EQ(phi_view.pair_count(), 2u);
  EXPECT_EQ(phi_view.value(1), 12u);
  EXPECT_EQ(phi_view.parent(1), 101u);
  const Instruction branch(spv::OpBranchConditional, 0, 0, {30, 100, 101});
  EXPECT_EQ(BranchConditionalView(branch).condition(), 30u);
  EXPECT_EQ(BranchConditionalView(branch).true_label(), 100u);
  EXPECT_EQ(BranchConditionalView(branch).false_label(), 101u);
  const Instruction jump(spv::OpBranch, 0, 0, {102});
  EXPECT_EQ(BranchView(jump).target(), 102u);
  const Instruction switch_inst(spv::OpSwitch, 0, 0, {11, 100, 1, 101, 7, 102});
  SwitchView switch_view(switch_inst);
  EXPECT_EQ(switch_view.selector(), 11u);
  EXPECT_EQ(switch_view.default_label(), 100u);
  ASSERT_EQ(switch_view.case_count(), 2u);
  EXPECT_EQ(switch_view.case_literal(1), 7u);
  EXPECT_EQ(switch_view.case_label(1), 102u);
  const Instruction wide_switch(spv::OpSwitch, 0, 0, {11, 100, 1, 0, 101});
  SwitchView wide(wide_switch, 2);
  ASSERT_EQ(wide.case_count(), 1u);
  EXPECT_EQ(wide.case_label(0), 101u);
  const Instruction loop(spv::OpLoopMerge, 0, 0, {103, 104, spv::LoopControlMaskNone});
  EXPECT_EQ(LoopMergeView(loop).merge_block(), 103u);
  EXPECT_EQ(LoopMergeView(loop).continue_target(), 104u);
  const Instruction selection(spv::OpSelectionMerge, 0, 0, {105, 0});
  EXPECT_EQ(SelectionMergeView(selection).merge_block(), 105u);
  const Instruction barrier(spv::OpControlBarrier, 0, 0, {40, 41, 42});
  EXPECT_EQ(ControlBarrierView(barrier).execution_scope(), 40u);
  EXPECT_EQ(ControlBarrierView(barrier).memory_scope(), 41u);
  EXPECT_EQ(ControlBarrierView(barrier).semantics(), 42u);
}

// The Image Operands mask sits after the opcode's fixed operands.
TEST(InstructionViews, ImageAccess_ImageOperandsWord) {
  const Instruction sample(spv::OpImageSampleExplicitLod, 3, 9,
                           {1, 2, spv::ImageOperandsLodMask, 7});
  ImageAccessView sample_view(sample);
  EXPECT_EQ(sample_view.image_operands_word(), 2u);
  ASSERT_TRUE(sample_view.has_image_operands());
  EXPECT_EQ(sample_view.image_operands(), uint32_t(spv::ImageOperandsLodMask));
  const Instruction dref(spv::OpImageSampleDrefImplicitLod, 3, 9, {1, 2, 5});
  EXPECT_EQ(ImageAccessView(dref).image_operands_word(), 3u);
  EXPECT_FALSE(ImageAccessView(dref).has_image_operands());
  const Instruction write(spv::OpImageWrite, 0, 0, {1, 2, 6, spv::ImageOperandsSampleMask, 8});
  EXPECT_EQ(ImageAccessView(write).image_operands_word(), 3u);
  EXPECT_EQ(ImageAccessView(write).image_operands(), uint32_t(spv::ImageOperandsSampleMask));
  const Instruction footprint(spv::OpImageSampleFootprintNV, 3, 9,
                              {1, 2, 3, 4, spv::ImageOperandsGradMask});
  EXPECT_EQ(ImageAccessView(footprint).image_operands_word(), 4u);
  const Instruction texel(spv::OpImageTexelPointer, 3, 9, {1, 2, 3});
  EXPECT_EQ(ImageAccessView(texel).image_operands_word(), 0u);
  EXPECT_FALSE(ImageAccessView(texel).has_image_operands());
}

TEST(InstructionViews, Accepts_GrammarShapedSets) {
  EXPECT_TRUE(BinaryOpView<const Instruction>::Accepts(spv::OpIAdd));
  EXPECT_TRUE(BinaryOpView<const Instruction>::Accepts(spv::OpULessThan));
  EXPECT_TRUE(BinaryOpView<const Instruction>::Accepts(spv::OpLogicalAnd));
  EXPECT_TRUE(BinaryOpView<const Instruction>::Accepts(spv::OpShiftRightLogical));
  EXPECT_FALSE(BinaryOpView<const Instruction>::Accepts(spv::OpSNegate));
  EXPECT_FALSE(BinaryOpView<const Instruction>::Accepts(spv::OpSelect));
  EXPECT_FALSE(BinaryOpView<const Instruction>::Accepts(spv::OpStore));
  EXPECT_TRUE(UnaryOpView<const Instruction>::Accepts(spv::OpSNegate));
  EXPECT_TRUE(UnaryOpView<const Instruction>::Accepts(spv::OpBitcast));
  EXPECT_TRUE(UnaryOpView<const Instruction>::Accepts(spv::OpCopyObject));
  EXPECT_TRUE(UnaryOpView<const Instruction>::Accepts(spv::OpLogicalNot));
  EXPECT_FALSE(UnaryOpView<const Instruction>::Accepts(spv::OpIAdd));
  EXPECT_FALSE(UnaryOpView<const Instruction>::Accepts(spv::OpLoad));
  EXPECT_TRUE(ExecutionScopedView<const Instruction>::Accepts(spv::OpControlBarrier));
  EXPECT_TRUE(ExecutionScopedView<const Instruction>::Accepts(spv::OpGroupNonUniformBallot));
  EXPECT_FALSE(ExecutionScopedView<const Instruction>::Accepts(spv::OpMemoryBarrier));
  EXPECT_FALSE(ExecutionScopedView<const Instruction>::Accepts(spv::OpAtomicIAdd));
  EXPECT_TRUE(ImageAccessView<const Instruction>::Accepts(spv::OpImageWrite));
  EXPECT_FALSE(ImageAccessView<const Instruction>::Accepts(spv::OpImageQuerySize));
  EXPECT_TRUE(AccessChainView<const Instruction>::Accepts(spv::OpInBoundsPtrAccessChain));
  EXPECT_FALSE(AccessChainView<const Instruction>::Accepts(spv::OpLoad));
  EXPECT_TRUE(AtomicView<const Instruction>::Accepts(spv::OpAtomicLoad));
  EXPECT_TRUE(AtomicView<const Instruction>::Accepts(spv::OpAtomicFlagClear));
  EXPECT_TRUE(AtomicView<const Instruction>::Accepts(spv::OpAtomicFAddEXT));
  EXPECT_FALSE(AtomicView<const Instruction>::Accepts(spv::OpStore));
  EXPECT_TRUE(GroupOperationView<const Instruction>::Accepts(spv::OpGroupIAdd));
  EXPECT_TRUE(GroupOperationView<const Instruction>::Accepts(spv::OpGroupNonUniformFMax));
  EXPECT_TRUE(GroupOperationView<const Instruction>::Accepts(spv::OpGroupNonUniformBallotBitCount));
  EXPECT_FALSE(GroupOperationView<const Instruction>::Accepts(spv::OpGroupNonUniformBroadcast));
  EXPECT_FALSE(GroupOperationView<const Instruction>::Accepts(spv::OpGroupAll));
}

TEST(InstructionViews, SubgroupAndAtomic_NameTheirOperands) {
  const Instruction atomic(spv::OpAtomicIAdd, 3, 9, {7, 20, 21, 22});
  EXPECT_EQ(AtomicView(atomic).pointer(), 7u);
  const Instruction sized(spv::OpCopyMemorySized, 0, 0, {7, 8, 30});
  EXPECT_EQ(CopyMemoryView(sized).target(), 7u);
  EXPECT_EQ(CopyMemoryView(sized).source(), 8u);
  const Instruction reduce(spv::OpGroupNonUniformIAdd, 3, 10, {20, spv::GroupOperationReduce, 11});
  EXPECT_EQ(GroupOperationView(reduce).execution_scope(), 20u);
  EXPECT_EQ(GroupOperationView(reduce).operation(), spv::GroupOperationReduce);
  const Instruction broadcast(spv::OpGroupNonUniformBroadcast, 3, 12, {20, 11, 13});
  EXPECT_TRUE(BroadcastView(broadcast).has_scope());
  EXPECT_EQ(BroadcastView(broadcast).execution_scope(), 20u);
  EXPECT_EQ(BroadcastView(broadcast).value(), 11u);
  EXPECT_EQ(BroadcastView(broadcast).lane(), 13u);
  const Instruction read(spv::OpSubgroupReadInvocationKHR, 3, 14, {11, 13});
  EXPECT_FALSE(BroadcastView(read).has_scope());
  EXPECT_EQ(BroadcastView(read).value(), 11u);
  EXPECT_EQ(BroadcastView(read).lane(), 13u);
}

TEST(InstructionViews, ViewIf_OnlyForAcceptedOpcodes) {
  const Instruction load(spv::OpLoad, 5, 10, {7});
  std::optional<LoadView<const Instruction>> as_load = ViewIf<LoadView>(load);
  ASSERT_TRUE(as_load);
  EXPECT_EQ(as_load->pointer(), 7u);
  EXPECT_FALSE(ViewIf<StoreView>(load));
}

// A short operand list throws rather than reading past the instruction's words.
TEST(InstructionViews, MissingOperand_Throws) {
  const Instruction store(spv::OpStore, 0, 0, {7});
  EXPECT_EQ(StoreView(store).pointer(), 7u);
  EXPECT_THROW(StoreView(store).object(), std::out_of_range);
}

// The views and accessors the passes (SPIRV/passes) added.

TEST(InstructionViews, Store_MemoryAccessPresence) {
  const Instruction plain(spv::OpStore, 0, 0, {7, 11});
  EXPECT_FALSE(StoreView(plain).has_memory_access());
  const Instruction aligned(spv::OpStore, 0, 0, {7, 11, spv::MemoryAccessAlignedMask, 4});
  EXPECT_TRUE(StoreView(aligned).has_memory_access());
}

// Positions count an OpPtrAccessChain's Element as 0; vectors' dynamic index is 0.
TEST(InstructionViews, IndexedAccess_PositionsAsTheAccessReportCounts) {
  const Instruction chain(spv::OpAccessChain, 4, 20, {7, 30, 31});
  ASSERT_EQ(IndexedAccessView(chain).index_count(), 2u);
  EXPECT_EQ(IndexedAccessView(chain).object(), 7u);
  EXPECT_EQ(IndexedAccessView(chain).index(1), 31u);
  const Instruction ptr_chain(spv::OpInBoundsPtrAccessChain, 4, 21, {7, 40, 41});
  ASSERT_EQ(IndexedAccessView(ptr_chain).index_count(), 2u);
  EXPECT_EQ(IndexedAccessView(ptr_chain).index(0), 40u);  // the Element
  EXPECT_EQ(IndexedAccessView(ptr_chain).index(1), 41u);
  const Instruction extract(spv::OpVectorExtractDynamic, 2, 22, {60, 11});
  ASSERT_EQ(IndexedAccessView(extract).index_count(), 1u);
  EXPECT_EQ(IndexedAccessView(extract).object(), 60u);
  EXPECT_EQ(IndexedAccessView(extract).index(0), 11u);
  Instruction insert(spv::OpVectorInsertDynamic, 3, 23, {60, 12, 11});
  ASSERT_EQ(IndexedAccessView(insert).index_count(), 1u);
  EXPECT_EQ(IndexedAccessView(insert).index(0), 11u);  // not the component (12)
  IndexedAccessView(insert).index(0) = 13;
  EXPECT_EQ(insert.words, (std::vector<uint32_t>{60, 12, 13}));
  EXPECT_FALSE(IndexedAccessView<const Instruction>::Accepts(spv::OpCompositeExtract));
}

TEST(InstructionViews, IndexedTypeOf_OneStepIntoEachComposite) {
  EXPECT_EQ(IndexedTypeOf(Instruction(spv::OpTypeArray, 0, 5, {2, 17})), 2u);
  EXPECT_EQ(IndexedTypeOf(Instruction(spv::OpTypeRuntimeArray, 0, 6, {3})), 3u);
  EXPECT_EQ(IndexedTypeOf(Instruction(spv::OpTypeVector, 0, 7, {2, 4})), 2u);
  EXPECT_EQ(IndexedTypeOf(Instruction(spv::OpTypeMatrix, 0, 8, {7, 3})), 7u);
  const Instruction structure(spv::OpTypeStruct, 0, 9, {2, 5, 6});
  EXPECT_EQ(IndexedTypeOf(structure, 0), 2u);
  EXPECT_EQ(IndexedTypeOf(structure, 2), 6u);
  EXPECT_EQ(IndexedTypeOf(structure, 3), 0u);  // no such member
  EXPECT_EQ(IndexedTypeOf(Instruction(spv::OpTypeInt, 0, 2, {32, 0})), 0u);
  EXPECT_EQ(IndexedTypeOf(Instruction(spv::OpTypePointer, 0, 3, {7, 2})), 0u);
}

TEST(InstructionViews, Constant_SetValueNarrowAndWide) {
  Instruction constant(spv::OpConstant, 2, 11, {5});
  ConstantView(constant).set_value(0x0123456789abcdefull, /*wide=*/true);
  EXPECT_EQ(constant.words, (std::vector<uint32_t>{0x89abcdefu, 0x01234567u}));
  EXPECT_EQ(ConstantView(constant).value64(), 0x0123456789abcdefull);
  ConstantView(constant).set_value(0xfffffff0u, /*wide=*/false);
  EXPECT_EQ(constant.words, (std::vector<uint32_t>{0xfffffff0u}));
}

TEST(InstructionViews, ConstantCompositeReplicate_ByNumber) {
  const Instruction replicate(static_cast<spv::Op>(4461), 3, 13, {11});
  EXPECT_EQ(ConstantCompositeReplicateView(replicate).value(), 11u);
  EXPECT_TRUE(ConstantCompositeReplicateView<const Instruction>::Accepts(spv::Op(4462)));
  EXPECT_FALSE(
      ConstantCompositeReplicateView<const Instruction>::Accepts(spv::OpConstantComposite));
}

TEST(InstructionViews, EntryPointInterface_ReadsAndExtends) {
  std::vector<uint32_t> words = {spv::ExecutionModelGLCompute, 4};
  std::vector<uint32_t> name = EncodeString("main");  // two words with the padding
  words.insert(words.end(), name.begin(), name.end());
  words.insert(words.end(), {20, 21});
  Instruction entry(spv::OpEntryPoint, 0, 0, words);
  EntryPointInterfaceView view(entry);
  EXPECT_EQ(view.model(), spv::ExecutionModelGLCompute);
  EXPECT_EQ(view.function(), 4u);
  EXPECT_EQ(view.name(), "main");
  ASSERT_EQ(view.interface().size(), 2u);
  EXPECT_TRUE(view.lists(21));
  EXPECT_FALSE(view.lists(4));  // the function is no interface id
  view.AddToInterface(22);
  EXPECT_TRUE(view.lists(22));
  EXPECT_EQ(entry.words.back(), 22u);
  EXPECT_EQ(view.interface().size(), 3u);
}

TEST(InstructionViews, ImageOperands_FindEachBitsOperand) {
  const Instruction plain(spv::OpImageFetch, 3, 9, {1, 2});
  EXPECT_FALSE(ImageOperandsView(plain).present());
  EXPECT_TRUE(ImageOperandsView(plain).understood());
  EXPECT_FALSE(ImageOperandsView(plain).has(spv::ImageOperandsLodMask));
  EXPECT_THROW(ImageOperandsView(plain).operand(spv::ImageOperandsLodMask), std::out_of_range);
  // Grad takes two words, so Sample's operand comes after both.
  const uint32_t grad_and_sample = spv::ImageOperandsGradMask | spv::ImageOperandsSampleMask;
  const Instruction read(spv::OpImageRead, 3, 9, {1, 2, grad_and_sample, 30, 31, 32});
  ImageOperandsView operands(read);
  EXPECT_EQ(operands.mask(), grad_and_sample);
  EXPECT_EQ(operands.operand(spv::ImageOperandsGradMask), 30u);
  EXPECT_EQ(operands.operand(spv::ImageOperandsSampleMask), 32u);
  // OpImageWrite's mask follows the texel, OpImageSampleDrefExplicitLod's the Dref.
  const Instruction write(spv::OpImageWrite, 0, 0, {1, 2, 3, spv::ImageOperandsLodMask, 40});
  EXPECT_EQ(ImageOperandsView(write).operand(spv::ImageOperandsLodMask), 40u);
  const Instruction dref(spv::OpImageSampleDrefExplicitLod, 3, 9,
                         {1, 2, 4, spv::ImageOperandsLodMask, 41});
  EXPECT_EQ(ImageOperandsView(dref).operand(spv::ImageOperandsLodMask), 41u);
  EXPECT_FALSE(ImageOperandsView<const Instruction>::Accepts(spv::OpImageQuerySize));
  // The grammar's operand counts per bit.
  EXPECT_EQ(ImageOperandWordCount(spv::ImageOperandsGradMask), 2);
  EXPECT_EQ(ImageOperandWordCount(spv::ImageOperandsSampleMask), 1);
  EXPECT_EQ(ImageOperandWordCount(spv::ImageOperandsMakeTexelAvailableMask), 1);
  EXPECT_EQ(ImageOperandWordCount(spv::ImageOperandsNontemporalMask), 0);
  EXPECT_EQ(ImageOperandWordCount(0x8000u), -1);
  // An unknown bit (0x8000) hides where the operands of higher bits are, not of lower ones.
  const uint32_t mask = 0x8000u | spv::ImageOperandsSampleMask | spv::ImageOperandsOffsetsMask;
  const Instruction unknown(spv::OpImageFetch, 3, 9, {1, 2, mask, 50, 51});
  EXPECT_FALSE(ImageOperandsView(unknown).understood());
  EXPECT_EQ(ImageOperandsView(unknown).operand(spv::ImageOperandsSampleMask), 50u);
  EXPECT_THROW(ImageOperandsView(unknown).operand(spv::ImageOperandsOffsetsMask),
               std::out_of_range);
}

TEST(InstructionViews, ImageOperands_RemoveDropsOperandAndEmptyMask) {
  Instruction fetch(spv::OpImageFetch, 3, 9,
                    {1, 2, spv::ImageOperandsLodMask | spv::ImageOperandsConstOffsetMask, 30, 31});
  ImageOperandsView(fetch).Remove(spv::ImageOperandsConstOffsetMask);
  EXPECT_EQ(fetch.words, (std::vector<uint32_t>{1, 2, spv::ImageOperandsLodMask, 30}));
  ImageOperandsView(fetch).Remove(spv::ImageOperandsLodMask);
  EXPECT_EQ(fetch.words, (std::vector<uint32_t>{1, 2}));       // no bit left: no mask
  ImageOperandsView(fetch).Remove(spv::ImageOperandsLodMask);  // absent: nothing to drop
  EXPECT_EQ(fetch.words, (std::vector<uint32_t>{1, 2}));
}

// On glslang's output the views read what the assembly says: the store into values[]
// goes through an access chain on the buffer variable whose last index is the loaded
// invocation index, and the loop's merge and the branch's labels are blocks.
const char* kShader = R"(#version 440
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
void main() {
  uint sum = 0u;
  for (uint i = 0u; i < 4u; ++i) sum += values[i];
  values[gl_LocalInvocationIndex] = sum;
}
)";

TEST(InstructionViews, ParsedModule_ReadsWhatTheAssemblySays) {
  std::string error;
  std::optional<Module> module = ParseModule(test::CompileGlsl(kShader, "comp"), &error);
  ASSERT_TRUE(module) << error;
  DefUse def_use(*module);
  Function& main = module->functions.front();
  const Instruction* last_store = nullptr;
  int loop_merges = 0;
  for (const Block& block : main.blocks)
    for (const Instruction& inst : block.instructions) {
      if (inst.opcode == spv::OpStore) last_store = &inst;
      if (inst.opcode != spv::OpLoopMerge) continue;
      ++loop_merges;
      EXPECT_NE(main.FindBlock(LoopMergeView(inst).merge_block()), nullptr);
      EXPECT_NE(main.FindBlock(LoopMergeView(inst).continue_target()), nullptr);
    }
  EXPECT_EQ(loop_merges, 1);
  ASSERT_NE(last_store, nullptr);
  const Instruction* chain = def_use.Definition(StoreView(*last_store).pointer());
  ASSERT_TRUE(chain && AccessChainView<const Instruction>::Accepts(chain->opcode));
  AccessChainView chain_view(*chain);
  const Instruction* buffer = def_use.Definition(chain_view.base());
  ASSERT_TRUE(buffer && buffer->opcode == spv::OpVariable);
  // SPIR-V 1.0 (the default target) has no StorageBuffer class: Uniform + BufferBlock.
  EXPECT_EQ(VariableView(*buffer).storage_class(), spv::StorageClassUniform);
  const Instruction* buffer_type = def_use.Definition(buffer->type_id);
  ASSERT_TRUE(buffer_type && buffer_type->opcode == spv::OpTypePointer);
  const Instruction* block = def_use.Definition(TypePointerView(*buffer_type).pointee());
  ASSERT_TRUE(block && block->opcode == spv::OpTypeStruct);
  const Instruction* array = def_use.Definition(TypeStructView(*block).member(0));
  ASSERT_TRUE(array && array->opcode == spv::OpTypeRuntimeArray);
  ASSERT_EQ(chain_view.index_count(), 2u);
  const Instruction* index = def_use.Definition(chain_view.index(1));
  ASSERT_TRUE(index && index->opcode == spv::OpLoad);
  const Instruction* builtin = def_use.Definition(LoadView(*index).pointer());
  ASSERT_NE(builtin, nullptr);
  bool is_local_index = false;
  for (const Instruction& decoration : module->annotations)
    if (decoration.opcode == spv::OpDecorate &&
        DecorateView(decoration).target() == builtin->result_id &&
        DecorateView(decoration).decoration() == spv::DecorationBuiltIn)
      is_local_index = DecorateView(decoration).literal(0) == spv::BuiltInLocalInvocationIndex;
  EXPECT_TRUE(is_local_index);
}

}  // namespace
}  // namespace glint::spirv
