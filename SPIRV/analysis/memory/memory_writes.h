// Memory writes: what one instruction inside a function may write, by one rule for every
// analysis that asks whether memory stays the same between two points (uniformity's
// forwarded stores, forwarded_stores.h; the range analysis's earlier loads of the same
// memory, canonical_values.h).
//
//   - Reads and pointer derivations write nothing: OpLoad, the access chains (element
//     steps included), OpCopyObject.
//   - OpStore, OpCopyMemory and OpCopyMemorySized (their target) and the atomics write
//     through one pointer, `pointer`: where it points is its origin's question
//     (pointer_origins.h), left to the caller.
//   - OpFunctionCall may write whatever its callee can reach.
//   - Any other instruction given a pointer operand may write through it (extended
//     instructions' out parameters such as modf's and frexp's, cooperative matrix
//     stores); one whose words do not fit the grammar may write anything.
//   - Everything else writes nothing.
#ifndef GLINT_SPIRV_ANALYSIS_MEMORY_WRITES_H
#define GLINT_SPIRV_ANALYSIS_MEMORY_WRITES_H

#include <cstdint>

#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

struct MemoryWrite {
  enum class Kind {
    kNothing,   // writes no memory
    kThrough,   // writes through `pointer` only
    kAnything,  // a call, or an instruction that may write through any pointer it is given
  };
  Kind kind = Kind::kNothing;
  uint32_t pointer = 0;  // kThrough: the pointer written through
};

// What `inst` (an instruction inside a block of a module `def_use` indexes) may write.
MemoryWrite WriteOf(const DefUse& def_use, const Instruction& inst);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_MEMORY_WRITES_H
