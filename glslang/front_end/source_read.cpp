// Bounded reads of inputs (see source_read.h).
#include "glslang/front_end/source_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace glint::frontend {
namespace {

// Appends what `fd` gives until end of file or `limit` + 1 bytes, whichever is first.
std::string ReadUpTo(int fd, uint64_t limit, const char* limit_name, std::string* content) {
  char buffer[65536];
  for (;;) {
    // One byte past the limit proves the input too big.
    uint64_t room = limit - content->size();
    size_t want = room < sizeof(buffer) ? static_cast<size_t>(room) + 1 : sizeof(buffer);
    ssize_t got = read(fd, buffer, want);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return std::strerror(errno);
    if (got == 0) return "";
    content->append(buffer, static_cast<size_t>(got));
    if (content->size() > limit) {
      content->clear();
      return TooLargeMessage(limit, limit_name);
    }
  }
}

std::string CheckKind(const struct stat& status, uint64_t limit, FileKinds kinds,
                      const char* limit_name) {
  if (S_ISDIR(status.st_mode)) return std::strerror(EISDIR);
  if (S_ISREG(status.st_mode)) {
    if (static_cast<uint64_t>(status.st_size) > limit) return TooLargeMessage(limit, limit_name);
    return "";
  }
  return kinds == FileKinds::kRegularOnly ? "not a regular file" : "";
}

}  // namespace

std::string TooLargeMessage(uint64_t limit, const char* limit_name) {
  return "larger than " + std::to_string(limit) + " bytes, " + limit_name;
}

std::string ReadFileWithin(const std::string& path, uint64_t limit, FileKinds kinds,
                           const char* limit_name, std::string* content, bool* open_failed) {
  // Regular files only: non-blocking, so a FIFO is refused instead of waited for. A
  // top-level source may be a FIFO: its open waits for the writer, as glslang's does.
  int blocking = kinds == FileKinds::kRegularOnly ? O_NONBLOCK : 0;
  int fd = open(path.c_str(), O_RDONLY | blocking | O_NOCTTY | O_CLOEXEC);
  if (open_failed) *open_failed = fd < 0;
  if (fd < 0) return std::strerror(errno);
  struct stat status;
  std::string problem = fstat(fd, &status) != 0 ? std::strerror(errno)
                                                 : CheckKind(status, limit, kinds, limit_name);
  if (problem.empty()) problem = ReadUpTo(fd, limit, limit_name, content);
  close(fd);
  return problem;
}

std::string ReadDescriptorWithin(int fd, uint64_t limit, const char* limit_name,
                                 std::string* content) {
  struct stat status;
  if (fstat(fd, &status) == 0 && S_ISREG(status.st_mode) &&
      static_cast<uint64_t>(status.st_size) > limit)
    return TooLargeMessage(limit, limit_name);  // a redirected file: known before reading
  return ReadUpTo(fd, limit, limit_name, content);
}

uint64_t SourceBudget::NextLimit() const {
  return Left() < limits_.per_source ? Left() : limits_.per_source;
}

const char* SourceBudget::NextLimitName() const {
  return Left() < limits_.per_source ? kTotalSourceLimitName : kSourceLimitName;
}

bool SourceBudget::Take(uint64_t bytes) {
  if (bytes > Left()) return false;
  used_ += bytes;
  return true;
}

}  // namespace glint::frontend
