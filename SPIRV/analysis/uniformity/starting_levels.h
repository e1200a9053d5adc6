// Starting levels: where a module-scope variable's memory starts, before any store of
// the entry point, and why - one rule for the uniformity solver (which names the reason
// in its findings) and its coarse proof (which needs the level only, and must start
// every variable at least where the solver does: sharing the rule guarantees it).
//
//   Uniform: uniform blocks, push constants, UniformConstant (samplers, images),
//     Private and Function memory (written only by the invocation's own stores), and
//     storage buffers decorated NonWritable (the variable, or every member of its block),
//     task payloads read by mesh shaders.
//   Per invocation: writable storage buffers (other invocations may write them),
//     Workgroup memory and task payloads written by task shaders (other invocations
//     write them), outputs, and any other storage class.
//   Inputs: a built-in's level is its own (BuiltInStartOf); another input differs between
//     invocations, except a flat fragment input, which differs only between primitives
//     (quad level: a quad never spans two primitives).
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_STARTING_LEVELS_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_STARTING_LEVELS_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/ir/builtin_index.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {
namespace uniformity_detail {

// The decorations the rule reads, found once per module.
struct StorageDecorations {
  std::unordered_set<uint32_t> flat, non_writable, buffer_blocks;
  std::unordered_map<uint32_t, uint32_t> non_writable_members;  // struct -> NonWritable members
  static StorageDecorations Of(const Module& module);
};

enum class StartReason : uint8_t {
  kUniform,
  kBuiltIn,
  kInput,
  kFlatInput,
  kInterpolatedInput,
  kWritableBuffer,
  kShared,
  kOutput,
  kOtherStorage,
};

struct VariableStart {
  Divergence level = Divergence::kUniform;
  StartReason reason = StartReason::kUniform;
  uint32_t builtin = 0;        // kBuiltIn
  const char* builtin_why = "";  // kBuiltIn: why the built-in starts where it does
  spv::StorageClass storage = spv::StorageClassFunction;  // kOtherStorage
};

// The type `variable` points to, arrays stripped (descriptor arrays: the element); null
// when there is none. `definition_of(id)` gives an id's definition or null.
template <class DefinitionOf>
const Instruction* PointeeElement(const Instruction& variable, const DefinitionOf& definition_of) {
  const Instruction* pointer_type = definition_of(variable.type_id);
  if (!pointer_type || pointer_type->opcode != spv::OpTypePointer) return nullptr;
  const Instruction* pointee = definition_of(TypePointerView(*pointer_type).pointee());
  for (int depth = 0; pointee && depth < 64; ++depth) {
    if (pointee->opcode == spv::OpTypeArray)
      pointee = definition_of(TypeArrayView(*pointee).element_type());
    else if (pointee->opcode == spv::OpTypeRuntimeArray)
      pointee = definition_of(TypeRuntimeArrayView(*pointee).element_type());
    else
      return pointee;
  }
  return nullptr;
}

// Whether `variable` (pointing to `pointee`, PointeeElement's answer) is decorated
// NonWritable, or every member of its block is.
bool IsNonWritable(const StorageDecorations& decorations, uint32_t variable,
                   const Instruction* pointee);

// Where `variable` starts for an entry point of `model` (`lanes`: the lane partition of
// uniformity_lanes.cpp, for built-ins).
template <class DefinitionOf>
VariableStart StartOf(const Instruction& variable, spv::ExecutionModel model, bool lanes,
                      const StorageDecorations& decorations, const BuiltInIndex& builtins,
                      const DefinitionOf& definition_of);

// The reason as the solver's findings word it, for a variable named `name`.
std::string StartText(const VariableStart& start, const std::string& name);

// --- implementation ---

VariableStart StartOfStorage(const Instruction& variable, spv::ExecutionModel model, bool lanes,
                             const StorageDecorations& decorations, const BuiltInIndex& builtins,
                             const Instruction* pointee);

template <class DefinitionOf>
VariableStart StartOf(const Instruction& variable, spv::ExecutionModel model, bool lanes,
                      const StorageDecorations& decorations, const BuiltInIndex& builtins,
                      const DefinitionOf& definition_of) {
  return StartOfStorage(variable, model, lanes, decorations, builtins,
                        PointeeElement(variable, definition_of));
}

}  // namespace uniformity_detail
}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_STARTING_LEVELS_H
