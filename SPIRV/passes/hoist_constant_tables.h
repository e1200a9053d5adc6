// hoist-constant-tables: run-time-indexed Function copies of a constant become one
// module-scope Private variable per constant, with the constant as its Initializer.
//
// glslang (12, like upstream) gives every run-time index into a constant composite its
// own Function variable. Below SPIR-V 1.4 it stores the whole constant into it at the
// access site (a per-invocation copy of the whole table); from 1.4 on it gives the
// variable the constant as Initializer and decorates it NonWritable. This pass turns
//     %indexable = OpVariable %_ptr_Function__arr_float_uint_8 Function  ; entry block
//                  OpStore %indexable %table                             ; access site
//          %elem = OpAccessChain %_ptr_Function_float %indexable %index
// into
//     %indexable = OpVariable %_ptr_Private__arr_float_uint_8 Private %table  ; module scope
//          %elem = OpAccessChain %_ptr_Private_float %indexable %index
// and every access site of %table, in every function, shares that one variable
// (memoized by the constant's id; glslang emits each distinct constant once).
//
// What it proves before hoisting a Function variable %v (otherwise %v stays as it is):
// - %v sits in its function's entry block, its pointee type is the constant's type, and
//   its content is a constant composite (OpConstantComposite, OpConstantNull,
//   OpConstantCompositeReplicateEXT) holding no specialization constant;
// - nothing but the constant is ever put there: every OpStore to %v itself stores the
//   whole constant (no memory operands), and %v holds it before any read: either it is
//   %v's Initializer, or some such OpStore dominates the read (same block and earlier,
//   or a dominating block). glslang's forms are one OpStore below 1.4 and the
//   Initializer from 1.4 on; HLSL legalization (spirv-opt's inliner) adds an OpStore of
//   the same constant to a variable that has it as Initializer, which is accepted too;
// - everything else only reads: the uses of %v, and of every access chain derived from
//   it, are OpLoad (as the pointer) and OpAccessChain / OpInBoundsAccessChain (as the
//   base). A function call argument, a stored or compared pointer (OpStore of the pointer,
//   OpPtrEqual / OpPtrNotEqual / OpPtrDiff), OpCopyMemory in either direction, a store
//   of another value, a partial store through an access chain, an atomic, OpPhi / OpSelect /
//   OpCopyObject of the pointer, a debug instruction (OpExtInst) and any other use make the pass
//   leave %v alone;
// - %v is a table: at least one index of an access chain rooted at %v is not an
//   OpConstant (a copy indexed only by constants gains nothing from hoisting). This is
//   checked first, on opcodes alone, so that modules without tables cost one walk and
//   no def-use index;
// - %v carries no decoration other than NonWritable (the 1.4+ form) and RelaxedPrecision
//   (dropped: it only allows less precision, and the shared variable serves every site).
// Reading the whole of %v (OpLoad %v) is a read: a copy made from it and then modified
// is another variable and does not stop %v from being hoisted.
//
// Why specialization constants are never hoisted: their value is fixed only at pipeline
// creation, and a composite holding one is an OpSpecConstantComposite / OpSpecConstantOp
// whose identity is per specialization; turning it into a module-wide Private
// initializer would change that identity (and Glint's own spec-constant handling would
// see a variable instead of a constant), so such a variable keeps glslang's form. (When
// the user supplies values, the pipeline runs specialize-constants before this pass;
// whatever is still a specialization constant afterwards stays excluded here.)
//
// Names and decorations: the Private variable takes the OpName of the first variable it
// replaces (glslang's "indexable", or the local's name); the other names, the
// NonWritable and RelaxedPrecision decorations, the OpStore and the Function variables
// go away. The new pointer types and variables are appended to the end of the
// types/values section, after every constant and type they use.
//
// Entry point interfaces: from SPIR-V 1.4 on, every entry point whose static call tree
// contains a function that used a hoisted variable lists it once in its OpEntryPoint
// interface (appended at the end of the list). Below 1.4 interface lists stay unchanged.
//
// Result: Changed(n) with n = Private variables created; Unchanged (the module is not
// touched at all, so its words stay byte-identical) when nothing qualifies. The pass
// never fails.
#ifndef GLINT_SPIRV_PASSES_HOIST_CONSTANT_TABLES_H
#define GLINT_SPIRV_PASSES_HOIST_CONSTANT_TABLES_H

#include <string>
#include <vector>

#include "pass.h"

namespace glint::spirv {

// What the pass decided for one Function variable whose content is a composite constant.
struct ConstantTableDecision {
  uint32_t variable = 0;    // the Function variable
  uint32_t constant = 0;    // the constant it holds
  uint32_t hoisted_to = 0;  // the Private variable it became; 0 when left alone
  std::string refusal;      // why it was left alone; empty when hoisted
};

// Runs the rewrite on the context's module, with its def-use and CFGs; when
// `decisions` is given, appends one entry per candidate variable, in module order.
PassResult HoistConstantTables(AnalysisContext& analyses,
                               std::vector<ConstantTableDecision>* decisions);
// The same with analyses of its own.
PassResult HoistConstantTables(Module& module, std::vector<ConstantTableDecision>* decisions);

// One TableRecord per Private variable the decisions created: its name, how many
// per-invocation copies it replaced, and the line of its first access (SourceLines'
// rule). `analyses` must describe the module as the decisions left it.
std::vector<TableRecord> DescribeTables(AnalysisContext& analyses,
                                        const std::vector<ConstantTableDecision>& decisions);

class HoistConstantTablesPass : public Pass {
 public:
  const char* name() const override { return "hoist-constant-tables"; }

 protected:
  PassResult Process(Module& module, PassContext& context) override;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_HOIST_CONSTANT_TABLES_H
