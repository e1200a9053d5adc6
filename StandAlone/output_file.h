// Writing output files so that a failure never leaves a partial file behind: the
// content goes to a temporary file beside the target, which is renamed over the
// target only when complete.
#ifndef GLINT_STANDALONE_OUTPUT_FILE_H
#define GLINT_STANDALONE_OUTPUT_FILE_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace glint::standalone {

// Calls `write(temporary_path)` and renames the result to `path`. Returns false (and
// removes the temporary) when the temporary cannot be created, `write` leaves no file,
// or the rename fails.
bool WriteAtomically(const std::string& path, const std::function<void(const std::string&)>& write);

// SPIR-V in glslangValidator's binary (-V) or hexadecimal text (-x, --vn) form.
bool WriteSpirv(const std::string& path, const std::vector<uint32_t>& words, bool hex,
                const char* variable_name);

}  // namespace glint::standalone

#endif  // GLINT_STANDALONE_OUTPUT_FILE_H
