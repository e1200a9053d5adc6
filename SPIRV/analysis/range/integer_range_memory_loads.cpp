// Loads from memory no rule follows: no range, and the reason names where the value was
// read (ValueOrigins, integer_range_origins.h: the storage class and who writes it), or
// why the pointer is not followed.
#include "SPIRV/analysis/range/integer_range_memory_loads.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

void MemoryLoadRule::Register(Table& table) { table[size_t(ValueKind::kMemoryLoad)] = this; }

DependencyIds MemoryLoadRule::Dependencies(const Instruction&, ValueKind) { return {}; }

IntegerRange MemoryLoadRule::Range(const Instruction& load, ValueKind, bool) {
  const Instruction* pointer = inputs_.def_use.Definition(LoadView(load).pointer());
  if (!pointer) return IntegerRange::None("load through an unknown pointer");
  if (pointer->opcode == spv::OpVariable)
    return IntegerRange::None(ValueOrigins::StorageOrigin(VariableView(*pointer).storage_class()));
  if (!IsChain(*pointer))
    return IntegerRange::None("load through a pointer that is not a variable");
  std::string origin = origins_.PointerOrigin(pointer->result_id);
  if (!origin.empty()) return IntegerRange::None(origin);
  return IntegerRange::None(
      "load from memory through an access chain (only built-in components have ranges)");
}

}  // namespace glint::spirv
