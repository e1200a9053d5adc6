// Runtime-array lengths the module reads: which buffers' lengths can influence anything
// the shader computes.
//
// What it proves: a buffer variable for which MayBeRead() is false has no OpArrayLength
// in the module that could read its length, so no value and no branch of this shader
// depends on that length. The application chooses the length when it binds the buffer
// (a descriptor range may end before the runtime array's first element, so every index,
// 0 included, is out of bounds for some binding). An access into such a runtime array
// that runs at all therefore leaves its array for some binding whatever its index's
// range: no analysis of this module can prove the index in bounds; only a test against
// `.length()` in the shader, or data the application provides to match the length (an
// input), could. Reports use it to tell that clamp apart from one a stronger analysis
// might drop (AccessRecord::length_never_read).
//
// When it says "may be read" (anything it cannot follow counts as a read):
//  - an OpArrayLength whose structure operand reaches, through access chains and
//    copies, the variable itself (also through a descriptor array: an element's length
//    counts for the whole variable);
//  - an OpArrayLength on a variable decorated with the same DescriptorSet and Binding
//    (two variables bound to one descriptor see one buffer);
//  - an OpArrayLength whose structure operand does not reach a variable (a function
//    parameter, a select, a phi, a loaded pointer): every variable may be read.
// Cost: one pass over the module's instructions and annotations.
#ifndef GLINT_SPIRV_ANALYSIS_RUNTIME_LENGTH_READS_H
#define GLINT_SPIRV_ANALYSIS_RUNTIME_LENGTH_READS_H

#include <cstdint>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

class RuntimeLengthReads {
 public:
  RuntimeLengthReads(const Module& module, const DefUse& def_use);

  // False only when `pointer` (a pointer into a buffer, e.g. an access chain's base)
  // reaches a variable through access chains and copies, and no OpArrayLength of the
  // module can read the length of that variable's buffer.
  bool MayBeRead(uint32_t pointer) const;

 private:
  using Binding = std::pair<uint32_t, uint32_t>;  // DescriptorSet, Binding
  const Binding* BindingOf(uint32_t variable) const;

  const DefUse& def_use_;
  std::unordered_map<uint32_t, Binding> bindings_;  // variables with both decorations
  std::unordered_set<uint32_t> read_variables_;
  std::set<Binding> read_bindings_;
  bool unknown_read_ = false;  // a length read whose buffer could not be followed
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_RUNTIME_LENGTH_READS_H
