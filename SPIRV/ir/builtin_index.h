// The BuiltIn decoration of every id that has one: built-in variables and the constant
// decorated WorkgroupSize. Read once from the module's annotations; the analyses that
// ask which built-in a variable is (integer ranges, uniformity) share the analysis
// context's copy.
//
// An OpDecorate BuiltIn without its literal (a malformed module that parsed) decorates
// nothing here. Member BuiltIns (OpMemberDecorate, gl_PerVertex) are not indexed: no
// analysis reads them.
#ifndef GLINT_SPIRV_IR_BUILTIN_INDEX_H
#define GLINT_SPIRV_IR_BUILTIN_INDEX_H

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "SPIRV/ir/module.h"

namespace glint::spirv {

class BuiltInIndex {
 public:
  explicit BuiltInIndex(const Module& module);

  // The BuiltIn `id` is decorated with; nullopt when none.
  std::optional<uint32_t> Of(uint32_t id) const {
    auto found = builtins_.find(id);
    return found == builtins_.end() ? std::nullopt : std::optional<uint32_t>(found->second);
  }
  bool Has(uint32_t id) const { return builtins_.count(id) != 0; }
  // The id decorated BuiltIn WorkgroupSize (a constant or spec constant composite); 0
  // when none. When several are (invalid SPIR-V), the last.
  uint32_t WorkgroupSizeId() const { return workgroup_size_; }

 private:
  std::unordered_map<uint32_t, uint32_t> builtins_;  // id -> spv::BuiltIn
  uint32_t workgroup_size_ = 0;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_BUILTIN_INDEX_H
