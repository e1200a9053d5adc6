// What a user filter on uniformity findings says (data only, read by the pass options;
// what the filters do is in uniformity_filters.h).
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_FILTER_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_FILTER_H

#include <cstdint>
#include <string>

namespace glint::spirv {

enum class UniformityFilterAction : uint8_t { kOff, kNote, kAssumeUniform };

struct UniformityFilter {
  UniformityFilterAction action = UniformityFilterAction::kOff;
  // A function filter names the function (empty for a line filter); a line filter names
  // a file and lines first..last (inclusive).
  std::string function;
  std::string file;
  uint32_t first_line = 0;
  uint32_t last_line = 0;
  std::string justification;  // the user's reason; may be empty
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_FILTER_H
