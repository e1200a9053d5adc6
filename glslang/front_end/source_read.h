// Bounded reads of inputs (glint/input_limits.h): a file, a descriptor such as stdin,
// and the running total of one compile's sources. Nothing is read past its limit: a
// regular file's size is checked before the first byte, anything else (a FIFO, a
// device, a pipe) is read up to the limit plus one byte, so a stream that never ends
// costs at most the limit. Each refusal is a short text naming the limit, for the
// caller to put after the file's name.
#ifndef GLINT_GLSLANG_FRONT_END_SOURCE_READ_H
#define GLINT_GLSLANG_FRONT_END_SOURCE_READ_H

#include <cstdint>
#include <string>

#include "glint/input_limits.h"

namespace glint::frontend {

struct SourceLimits {
  uint64_t per_source = GLINT_MAX_SOURCE_BYTES;    // each file, include or stream
  uint64_t total = GLINT_MAX_TOTAL_SOURCE_BYTES;  // all sources of one compile
};

// What a file may be: SPIR-V and includes must be regular files; a top-level source
// may also be a FIFO or a device (`<(generate)`, /dev/stdin), read within its limit.
enum class FileKinds { kRegularOnly, kAnyButDirectory };

// Reads at most `limit` bytes of `path` into `content` (kRegularOnly opens it
// non-blocking, so a FIFO without a writer is refused, never waited for). Returns "" or why not: the system's
// reason ("Is a directory", "No such file or directory"), "not a regular file", or
// TooLargeMessage(limit, ...). `limit_name` names the limit in that message.
// `open_failed`, when given, tells an input that could not be opened at all (glslang's
// "unable to open input file") from one refused after opening.
std::string ReadFileWithin(const std::string& path, uint64_t limit, FileKinds kinds,
                           const char* limit_name, std::string* content,
                           bool* open_failed = nullptr);

// The same for an open descriptor (stdin), which may be anything.
std::string ReadDescriptorWithin(int fd, uint64_t limit, const char* limit_name,
                                 std::string* content);

// "larger than N bytes, <limit_name>".
std::string TooLargeMessage(uint64_t limit, const char* limit_name);

// The names of the source limits in messages (what raises each).
inline constexpr const char* kSourceLimitName =
    "Glint's source size limit (--max-source-bytes)";
inline constexpr const char* kTotalSourceLimitName =
    "what is left of Glint's total source limit for this compile (--max-total-source-bytes)";

// One compile's running total: each source read takes its bytes from what is left.
class SourceBudget {
 public:
  explicit SourceBudget(SourceLimits limits = {}) : limits_(limits) {}
  // The most the next source may have: the per-source limit or what is left of the
  // total, whichever is smaller; and the name of that limit.
  uint64_t NextLimit() const;
  const char* NextLimitName() const;
  // Counts `bytes` against the total; false (nothing counted) when they do not fit.
  bool Take(uint64_t bytes);

 private:
  uint64_t Left() const { return limits_.total - used_; }
  SourceLimits limits_;
  uint64_t used_ = 0;
};

}  // namespace glint::frontend

#endif  // GLINT_GLSLANG_FRONT_END_SOURCE_READ_H
