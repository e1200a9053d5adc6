// Tests of the one integer folder (SPIRV/ir/integer_folding.h): each operator family,
// widths other than 32, where SPIR-V leaves a result undefined, and the two readings of
// signed remainders.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "SPIRV/ir/integer_folding.h"

namespace glint::spirv {
namespace {

std::optional<uint64_t> Fold(spv::Op op, std::vector<uint64_t> operands,
                             IntegerFoldRules rules = IntegerFoldRules()) {
  return FoldIntegerOp(op, operands.data(), operands.size(), rules);
}

uint64_t Bits(int32_t value) { return uint32_t(value); }

TEST(IntegerFolding, ArithmeticWrapsAtTheWidth) {
  EXPECT_EQ(Fold(spv::OpIAdd, {0xffffffffu, 2}), 1u);
  EXPECT_EQ(Fold(spv::OpISub, {1, 2}), 0xffffffffu);
  EXPECT_EQ(Fold(spv::OpIMul, {0x10000u, 0x10000u}), 0u);
  EXPECT_EQ(Fold(spv::OpIAdd, {0xffffffffu, 2}, {64}), 0x100000001u);
  EXPECT_EQ(Fold(spv::OpIAdd, {0xffffu, 1}, {16}), 0u);
  EXPECT_EQ(Fold(spv::OpSNegate, {5}), Bits(-5));
  EXPECT_EQ(Fold(spv::OpNot, {0}), 0xffffffffu);
  EXPECT_EQ(Fold(spv::OpNot, {0}, {16}), 0xffffu);
  EXPECT_EQ(Fold(spv::OpBitwiseAnd, {0xf0, 0x3c}), 0x30u);
  EXPECT_EQ(Fold(spv::OpBitwiseOr, {0xf0, 0x0f}), 0xffu);
  EXPECT_EQ(Fold(spv::OpBitwiseXor, {0xff, 0x0f}), 0xf0u);
}

TEST(IntegerFolding, ShiftsByTheWidthOrMoreAreUndefined) {
  EXPECT_EQ(Fold(spv::OpShiftLeftLogical, {1, 31}), 0x80000000u);
  EXPECT_EQ(Fold(spv::OpShiftLeftLogical, {1, 32}), std::nullopt);
  EXPECT_EQ(Fold(spv::OpShiftRightLogical, {0x80000000u, 31}), 1u);
  EXPECT_EQ(Fold(spv::OpShiftRightLogical, {1, 40}), std::nullopt);
  EXPECT_EQ(Fold(spv::OpShiftRightArithmetic, {0x80000000u, 31}), 0xffffffffu);
  EXPECT_EQ(Fold(spv::OpShiftRightArithmetic, {0x80000000u, 32}), std::nullopt);
  EXPECT_EQ(Fold(spv::OpShiftLeftLogical, {1, 40}, {64}), uint64_t{1} << 40);
}

TEST(IntegerFolding, DivisionByZeroAndTheLeastValueByMinusOneAreUndefined) {
  EXPECT_EQ(Fold(spv::OpUDiv, {7, 2}), 3u);
  EXPECT_EQ(Fold(spv::OpUMod, {7, 2}), 1u);
  EXPECT_EQ(Fold(spv::OpUDiv, {7, 0}), std::nullopt);
  EXPECT_EQ(Fold(spv::OpUMod, {7, 0}), std::nullopt);
  EXPECT_EQ(Fold(spv::OpSDiv, {Bits(-7), 2}), Bits(-3));  // truncates toward zero
  EXPECT_EQ(Fold(spv::OpSDiv, {Bits(INT32_MIN), Bits(-1)}), std::nullopt);
  EXPECT_EQ(Fold(spv::OpSRem, {Bits(INT32_MIN), Bits(-1)}), std::nullopt);
  EXPECT_EQ(Fold(spv::OpSDiv, {0x8000u, 0xffffu}, {16}), std::nullopt);
  // In 64 bits, -2^31 / -1 is 2^31; the least 64-bit value by -1 is undefined.
  EXPECT_EQ(Fold(spv::OpSDiv, {uint64_t(int64_t{INT32_MIN}), ~uint64_t{0}}, {64}),
            uint64_t{0x80000000u});
  EXPECT_EQ(Fold(spv::OpSDiv, {uint64_t{1} << 63, ~uint64_t{0}}, {64}), std::nullopt);
}

TEST(IntegerFolding, SignedRemaindersAsSpirvDefinesThem) {
  // OpSRem: the dividend's sign; OpSMod: the divisor's.
  EXPECT_EQ(Fold(spv::OpSRem, {Bits(-7), 3}), Bits(-1));
  EXPECT_EQ(Fold(spv::OpSMod, {Bits(-7), 3}), 2u);
  EXPECT_EQ(Fold(spv::OpSRem, {7, Bits(-3)}), 1u);
  EXPECT_EQ(Fold(spv::OpSMod, {7, Bits(-3)}), Bits(-2));
  EXPECT_EQ(Fold(spv::OpSMod, {Bits(-6), 3}), 0u);
  EXPECT_EQ(Fold(spv::OpSMod, {7, 3}), 1u);
}

TEST(IntegerFolding, NonNegativeOnlyRefusesWhatGlslLeavesToTheDriver) {
  IntegerFoldRules agreed{32, SignedRemainders::kNonNegativeOnly};
  EXPECT_EQ(Fold(spv::OpSRem, {7, 3}, agreed), 1u);
  EXPECT_EQ(Fold(spv::OpSMod, {7, 3}, agreed), 1u);
  EXPECT_EQ(Fold(spv::OpSMod, {0, 3}, agreed), 0u);
  EXPECT_EQ(Fold(spv::OpSRem, {Bits(-7), 3}, agreed), std::nullopt);
  EXPECT_EQ(Fold(spv::OpSMod, {Bits(-7), 3}, agreed), std::nullopt);
  EXPECT_EQ(Fold(spv::OpSMod, {7, Bits(-3)}, agreed), std::nullopt);
  // Only remainders: signed division of negative values is defined in GLSL too.
  EXPECT_EQ(Fold(spv::OpSDiv, {Bits(-7), 2}, agreed), Bits(-3));
}

TEST(IntegerFolding, ComparisonsAndLogicalOperatorsGiveBooleans) {
  EXPECT_EQ(Fold(spv::OpSLessThan, {Bits(-1), 0}), 1u);
  EXPECT_EQ(Fold(spv::OpULessThan, {Bits(-1), 0}), 0u);
  EXPECT_EQ(Fold(spv::OpSGreaterThanEqual, {0x8000u, 0}, {16}), 0u);  // -32768 in 16 bits
  EXPECT_EQ(Fold(spv::OpUGreaterThanEqual, {0x8000u, 0}, {16}), 1u);
  EXPECT_EQ(Fold(spv::OpIEqual, {3, 3}), 1u);
  EXPECT_EQ(Fold(spv::OpINotEqual, {3, 3}), 0u);
  EXPECT_EQ(Fold(spv::OpLogicalAnd, {1, 0}, {1}), 0u);
  EXPECT_EQ(Fold(spv::OpLogicalOr, {1, 0}, {1}), 1u);
  EXPECT_EQ(Fold(spv::OpLogicalNot, {0}, {1}), 1u);
  EXPECT_TRUE(FoldsToBoolean(spv::OpSLessThanEqual));
  EXPECT_TRUE(FoldsToBoolean(spv::OpLogicalNot));
  EXPECT_FALSE(FoldsToBoolean(spv::OpIAdd));
  EXPECT_FALSE(FoldsToBoolean(spv::OpSelect));
}

TEST(IntegerFolding, SelectAndConversions) {
  EXPECT_EQ(Fold(spv::OpSelect, {1, 10, 20}), 10u);
  EXPECT_EQ(Fold(spv::OpSelect, {0, 10, 20}), 20u);
  EXPECT_EQ(Fold(spv::OpUConvert, {0xffffu}, {16}), 0xffffu);
  EXPECT_EQ(Fold(spv::OpSConvert, {0xffffu}, {16}), ~uint64_t{0});  // the caller truncates
  EXPECT_EQ(Fold(spv::OpSConvert, {0x7fffu}, {16}), 0x7fffu);
}

TEST(IntegerFolding, UnknownOperatorsAndShapesFoldToNothing) {
  EXPECT_EQ(Fold(spv::OpFAdd, {1, 2}), std::nullopt);
  EXPECT_EQ(Fold(spv::OpIAdd, {1}), std::nullopt);
  EXPECT_EQ(Fold(spv::OpIAdd, {1, 2, 3}), std::nullopt);
  EXPECT_EQ(Fold(spv::OpIAdd, {1, 2}, {0}), std::nullopt);
  EXPECT_EQ(Fold(spv::OpIAdd, {1, 2}, {65}), std::nullopt);
}

}  // namespace
}  // namespace glint::spirv
