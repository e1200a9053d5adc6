// Writing an output file the user named, so that the file system is left the way the
// user meant it: never a replaced device node, never a replaced symlink, never a
// half-written file, never a success reported for bytes that did not reach the target.
//
// What the target is decides how it is written:
// - not there: a new file, created through a temporary beside it and renamed into
//   place; its mode is 0666 less the umask (as any tool's new file).
// - a regular file: replaced atomically the same way; the new file keeps the old one's
//   mode and, where the process may set it, its owner and group (a non-root process
//   that cannot keep them keeps the mode only; that is not an error). A file the user
//   may not write is refused, as glslang's in-place open refuses it.
// - a symlink (a chain of them): resolved, and the file it names is written by these
//   rules; the link itself stays. A dangling link creates the file it names.
// - anything else that exists (character or block device, FIFO) and every path through
//   /proc's fd links (`/dev/stdout`, `/dev/fd/N`): opened and written in place, as
//   glslang's own glslangValidator does. Such a target cannot be written atomically;
//   a failure is reported and nothing else is touched.
// - a directory (or a socket, which cannot be opened): an open failure.
//
// Every write and the close are checked. On any failure the temporary is removed, the
// target is untouched (regular files) and the result says what failed.
//
// Not handled: extended attributes and ACLs of a replaced file are not copied, a
// hard-linked file is replaced (its other names keep the old content), and nothing is
// fsync'ed (a crash of the machine, not of the process, may lose the new content).
#ifndef GLINT_STANDALONE_OUTPUT_FILE_H
#define GLINT_STANDALONE_OUTPUT_FILE_H

#include <string>
#include <string_view>

namespace glint::output {

enum class WriteFailure {
  kNone,
  kOpen,   // the target (or a temporary beside it) could not be opened or created
  kWrite,  // a write, the close or the final rename failed: nothing partial was left
};

struct WriteResult {
  WriteFailure failure = WriteFailure::kNone;
  std::string reason;  // strerror-style text, empty on success
  bool ok() const { return failure == WriteFailure::kNone; }
};

// Writes `bytes` to `path` by the rules above.
WriteResult WriteOutputFile(const std::string& path, std::string_view bytes);

// "cannot open 'PATH' for writing: REASON" or "cannot write 'PATH': REASON".
std::string DescribeFailure(const std::string& path, const WriteResult& result);

}  // namespace glint::output

#endif  // GLINT_STANDALONE_OUTPUT_FILE_H
