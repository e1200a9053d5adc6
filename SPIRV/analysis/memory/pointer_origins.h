// Pointer origins: where a pointer points. A pointer is followed back through access
// chains and copies to the variable or function parameter it is derived from, with the
// chains that lead there. Every analysis that asks where a pointer points asks here, so
// they all follow pointers by one rule:
//
//   - OpAccessChain and OpInBoundsAccessChain select a part of their base: their indices
//     are a path into the root's type.
//   - OpPtrAccessChain and OpInBoundsPtrAccessChain first step to another element of an
//     array their base points into (pointer arithmetic): the root is still the same
//     object, but the indices after them are no path into the root's own type, so an
//     origin through one says so (`through_element`) and has no path.
//   - OpCopyObject of a pointer is the same pointer.
//   - Anything else ends the walk: a variable or a function parameter is the root; a
//     loaded pointer, a select, a phi, a function call's result or an undefined value is
//     where the pointer's origin is not followed.
//   - Budget: kMaxPointerHops steps (chains of chains are short in real modules); a
//     longer derivation is not followed, and kOverBudgetText names the budget.
//
// `TracePointer` is the rule over any lookup from id to definition (the coarse
// uniformity proof keeps tables of its own); `PointerOrigins` asks DefUse.
#pragma once

#include <cstdint>
#include <vector>

#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

struct PointerOrigin {
  enum class Kind {
    kVariable,    // root is an OpVariable
    kParameter,   // root is an OpFunctionParameter
    kUnfollowed,  // the walk stopped at `root`, which is neither (or at an undefined id)
    kOverBudget,  // more than kMaxPointerHops steps
  };
  static constexpr int kMaxPointerHops = 64;
  static constexpr const char* kOverBudgetText =
      "pointer derived through more than 64 access chains and copies (budget "
      "kMaxPointerHops)";

  Kind kind = Kind::kUnfollowed;
  // The OpVariable or OpFunctionParameter; for kUnfollowed the instruction where the
  // walk stopped (null when that id has no definition); null for kOverBudget.
  const Instruction* root = nullptr;
  // The last id reached: the root's id, or the id with no definition.
  uint32_t last_id = 0;
  bool through_element = false;  // an OpPtrAccessChain or OpInBoundsPtrAccessChain on the way
  bool through_copy = false;     // an OpCopyObject on the way
  int chain_count = 0;           // access chains of any kind on the way

  bool followed() const { return kind == Kind::kVariable || kind == Kind::kParameter; }
  // The variable or parameter's id; 0 when not followed.
  uint32_t root_id() const { return followed() ? root->result_id : 0; }
  // The variable's id when the root is an OpVariable; 0 otherwise.
  uint32_t variable_id() const { return kind == Kind::kVariable ? root->result_id : 0; }
};

// The rule (see the file comment). `definition_of(id)` gives the defining instruction
// or null; `on_chain(chain)` sees each access chain, outermost first.
template <class DefinitionOf, class OnChain>
PointerOrigin TracePointer(uint32_t pointer, const DefinitionOf& definition_of,
                           const OnChain& on_chain) {
  PointerOrigin origin;
  for (int hop = 0; hop < PointerOrigin::kMaxPointerHops; ++hop) {
    const Instruction* def = definition_of(pointer);
    origin.last_id = pointer;
    origin.root = def;
    if (!def) return origin;
    switch (def->opcode) {
      case spv::OpVariable:
        origin.kind = PointerOrigin::Kind::kVariable;
        return origin;
      case spv::OpFunctionParameter:
        origin.kind = PointerOrigin::Kind::kParameter;
        return origin;
      case spv::OpPtrAccessChain:
      case spv::OpInBoundsPtrAccessChain:
        origin.through_element = true;
        [[fallthrough]];
      case spv::OpAccessChain:
      case spv::OpInBoundsAccessChain:
        ++origin.chain_count;
        on_chain(*def);
        pointer = AccessChainView(*def).base();
        break;
      case spv::OpCopyObject:
        origin.through_copy = true;
        pointer = UnaryOpView(*def).operand();
        break;
      default:
        return origin;
    }
  }
  origin.kind = PointerOrigin::Kind::kOverBudget;
  origin.root = nullptr;
  return origin;
}

template <class DefinitionOf>
PointerOrigin TracePointer(uint32_t pointer, const DefinitionOf& definition_of) {
  return TracePointer(pointer, definition_of, [](const Instruction&) {});
}

// Pointer origins over a module's DefUse. Stateless beyond the DefUse it reads: a
// walk is a few steps, cheaper than a table.
class PointerOrigins {
 public:
  explicit PointerOrigins(const DefUse& def_use) : def_use_(def_use) {}

  PointerOrigin Of(uint32_t pointer) const {
    return TracePointer(pointer, [this](uint32_t id) { return def_use_.Definition(id); });
  }
  // Of(pointer), with the access chains from the root outwards in `chains`.
  PointerOrigin Of(uint32_t pointer, std::vector<const Instruction*>* chains) const;
  // The path's index ids from the root outwards: every index of every chain. Empty and
  // false when the origin is not followed or goes through an element step (no path).
  bool PathOf(uint32_t pointer, PointerOrigin* origin, std::vector<uint32_t>* index_ids) const;
  // The variable or parameter `pointer` is derived from; 0 when not followed.
  uint32_t RootOf(uint32_t pointer) const { return Of(pointer).root_id(); }

 private:
  const DefUse& def_use_;
};

}  // namespace glint::spirv
