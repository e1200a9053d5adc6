// Integer folding: SPIR-V's integer and boolean operations on known operand values,
// the one folder every part of Glint uses (specialization, the out-of-bounds witness's
// evaluation of an invocation, the execution harness's layout of spec-sized buffers).
//
// Values are held in the low `width` bits of a uint64_t (booleans as 0 and 1); results
// are truncated to `width` bits. Where SPIR-V leaves a result undefined the folder
// gives nothing rather than one of the possible values:
//   - division or remainder by zero, and the signed division of the least value by -1;
//   - a shift by `width` or more.
// Signed remainders follow SPIR-V (OpSRem takes the dividend's sign, OpSMod the
// divisor's) unless the caller asks for kNonNegativeOnly: GLSL leaves `%` of a negative
// operand undefined, and drivers lower it differently, so a prediction of what a run
// computes (the out-of-bounds witness) folds only remainders whose operands are
// non-negative dividend and positive divisor, where every reading agrees.
//
// Conversions: OpUConvert keeps the value, OpSConvert sign-extends it from `width` to 64
// bits; the caller truncates to the result's width.
#pragma once

#include <spirv/unified1/spirv.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>

namespace glint::spirv {

enum class SignedRemainders {
  kAsSpirvDefines,
  kNonNegativeOnly,
};

struct IntegerFoldRules {
  uint32_t width = 32;  // of the operands, 1 to 64
  SignedRemainders remainders = SignedRemainders::kAsSpirvDefines;
};

// The value of `op` applied to `operands` (`count` of them: 1 for unary operators, 2
// for binary ones, 3 for OpSelect with the condition first); nullopt for an operation
// the folder does not know, the wrong number of operands, or an undefined result.
std::optional<uint64_t> FoldIntegerOp(spv::Op op, const uint64_t* operands, size_t count,
                                      const IntegerFoldRules& rules = IntegerFoldRules());

// Whether `op` gives a boolean (a comparison or a logical operator) when it folds.
bool FoldsToBoolean(spv::Op op);

}  // namespace glint::spirv
