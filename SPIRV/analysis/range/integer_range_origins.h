// Value origins (integer_range_origins.cpp): where a value without a range was read
// from, as a reason text (the memory's storage class and who writes it). Texts only:
// it proves nothing and asks for no range, so the range evaluator and its local
// definitions ask it while they compute.
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ORIGINS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ORIGINS_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "SPIRV/analysis/memory/value_flow.h"
#include "SPIRV/analysis/range/canonical_values.h"
#include "SPIRV/ir/def_use.h"

namespace glint::spirv {

class ValueOrigins {
 public:
  ValueOrigins(const DefUse& def_use, CanonicalValues& canonical)
      : def_use_(def_use), canonical_(canonical) {}

  // "value read from <class> memory (<who writes it>)".
  static std::string StorageOrigin(spv::StorageClass storage);
  // By the pointer's type; empty for Function memory (left to value flow).
  std::string PointerOrigin(uint32_t pointer) const;
  // Whether PointerOrigin names one (no text built): the storage class it names.
  std::optional<spv::StorageClass> OriginStorage(uint32_t pointer) const;
  // The memory `value` was read from, through extracts, copies and constructs; empty
  // when there is none to name.
  std::string MemoryOrigin(uint32_t value) const { return MemoryOrigin(value, 0, nullptr); }
  // Where the part `path` reads of a composite a value-flow store wrote was read from.
  std::string StoredPartOrigin(const ValueFlowNode& node, const std::vector<uint32_t>& path) const;
  // The memory every store to a local value flow does not follow was read from.
  std::string LocalOrigin(const Instruction& variable) const;

 private:
  static constexpr int kMaxOriginVisits = 256;
  // Chains into a local, and composites within composites, followed this deep (values
  // through extracts and copies twice as deep).
  static constexpr int kMaxOriginDepth = 4;
  std::string MemoryOrigin(uint32_t value, int depth, int* visits) const;
  std::string ConstructOrigin(const Instruction& construct, int depth, int* visits) const;
  bool StoresOnlyFrom(uint32_t pointer, int depth, std::string* origin) const;

  const DefUse& def_use_;
  CanonicalValues& canonical_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_ORIGINS_H
