// specialize-constants: applies the user's specialization constant values
// (Options::spec_constants, `--spec-constant ID=VALUE`), like Tint's override
// substitution, so that later analyses see plain constants.
//
// Rewrites, in module order (a constant's operands are always defined before it):
//   OpSpecConstant %T <default>  (SpecId N given)   ->  OpConstant %T <value>
//   OpSpecConstantTrue/False     (SpecId N given)   ->  OpConstantTrue / OpConstantFalse
//   OpSpecConstantOp %T <op> %a %b  (all operands now plain constants, op foldable)
//                                                   ->  OpConstant / OpConstantTrue/False
//   OpSpecConstantComposite %T %a %b %c (all parts plain) -> OpConstantComposite
// and removes the SpecId decorations of the constants it replaced. Result ids do not
// change, so no use is rewritten; the WorkgroupSize built-in constant and LocalSizeId
// operands become plain constants this way.
//
// Values: the map holds the constant's bit pattern (the type's width of low bits, both
// words for 64-bit types; any non-zero value is true for booleans), as
// VkSpecializationInfo does. Folding covers 32-bit integer and boolean operations
// (arithmetic, shifts, bitwise, comparisons, logical, select); anything else (float
// operations, division by zero, 64-bit results) stays an OpSpecConstantOp, which is
// still valid SPIR-V and simply has no range.
//
// Literals are written as the spec says for the constant's type (scalar_literal.h:
// sign-extended for narrow signed integers, high bits 0 otherwise). A value that does
// not fit its constant's type (300 for an int8, 70000 for an int16, 131071 for a
// float16's bits) fails the pass with a message naming the SpecId, the type and the
// accepted range; a SpecId the module does not declare gets a warning in the report.
// A value that makes an array's length constant 0 or negative (`shared uint s[N]` with
// N given 0) fails the pass with a message naming the value, the constant and the array:
// spirv-val rejects such a module.
#ifndef GLINT_SPIRV_PASSES_SPECIALIZE_CONSTANTS_H
#define GLINT_SPIRV_PASSES_SPECIALIZE_CONSTANTS_H

#include "pass.h"

namespace glint::spirv {

class SpecializeConstantsPass : public Pass {
 public:
  const char* name() const override { return "specialize-constants"; }

 protected:
  PassResult Process(Module& module, PassContext& context) override;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_SPECIALIZE_CONSTANTS_H
