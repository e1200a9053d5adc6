// Internal to the integer range analysis: locals read at run-time indices and written at
// constant ones, full mode (integer_range_indexed_locals.cpp).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_INDEXED_LOCALS_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_INDEXED_LOCALS_H

#include "SPIRV/analysis/range/range_part.h"

namespace glint::spirv {

class IndexedLocals : public RangePart {
 public:
  using RangePart::RangePart;
  // The load's range; no range with an empty reason when the load is not of this shape.
  IntegerRange IndexedLocalLoad(const Instruction& load, bool is_signed);

 private:
  static constexpr uint32_t kRuntimeIndex = ~0u;  // a path index that is not a constant
  static constexpr uint32_t kMaxIndexedElements = 64;
  struct IndexedStore {
    const Instruction* store;
    std::vector<uint32_t> path;  // constant indices from the variable
  };
  bool IndexedLocalStores(uint32_t pointer, const std::vector<uint32_t>& path,
                          std::vector<IndexedStore>* stores, int depth);
  std::string UncoveredElement(const Instruction& load, const Instruction& variable,
                               const std::vector<uint32_t>& path,
                               const std::vector<IndexedStore>& stores);
  uint32_t ElementCount(const Instruction& variable, const std::vector<uint32_t>& path,
                        size_t position) const;
  IntegerRange PartsOf(uint32_t stored, const std::vector<uint32_t>& path, size_t written,
                       const Instruction* store, bool is_signed);
  uint32_t ElementsOfType(uint32_t type_id) const;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_INDEXED_LOCALS_H
